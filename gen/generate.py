#!/usr/bin/env python3
"""Generate everything the build derives from the API table: generate.py OUTDIR."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import api  # noqa: E402
import bindings  # noqa: E402
import coll  # noqa: E402
import cxx  # noqa: E402
import fortran  # noqa: E402
import fortran_f08  # noqa: E402
import mpi_h  # noqa: E402
import ops  # noqa: E402
import status  # noqa: E402
import tables  # noqa: E402
import tunables  # noqa: E402

VERSION = '0.1'


def write(path, text):
    """Write only when the text changed, so make rebuilds only what depends on it."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if os.path.exists(path) and open(path).read() == text:
        return
    with open(path + '.tmp', 'w') as f:
        f.write(text)
    os.replace(path + '.tmp', path)


def main(outdir):
    functions, rows = api.functions(), api.implementation()
    impl = {name: row.mode for name, row in rows.items()}
    unknown = set(impl) - {f.name for f in functions}
    if unknown:
        sys.exit('impl.tsv names functions that do not exist: %s' % ' '.join(sorted(unknown)))
    write(os.path.join(outdir, 'include', 'mpi.h'), mpi_h.generate(VERSION))
    for path, text in bindings.generate(functions, rows).items():
        write(os.path.join(outdir, path), text)
    for path, text in coll.generate(functions, rows).items():
        write(os.path.join(outdir, path), text)
    for path, text in list(fortran.generate(functions).items()) + \
            list(fortran_f08.generate(functions).items()):
        write(os.path.join(outdir, path), text)
    for path, text in cxx.generate().items():
        write(os.path.join(outdir, path), text)
    for path, text in list(tunables.generate().items()) + list(tables.generate().items()) + \
            list(ops.generate().items()):
        write(os.path.join(outdir, path), text)
    write(os.path.join(outdir, 'STATUS.md'), status.generate(functions, impl))


if __name__ == '__main__':
    main(sys.argv[1])
