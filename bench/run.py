#!/usr/bin/env python3
"""Compare Mica with MPICH and Open MPI (Debian's packages) in one run.

  bench/run.py [--quick] [BENCH...]   BENCH: latency bandwidth barrier allreduce bcast reduce
                                      gather alltoall large large_hog startup

large_hog is large with a busy process per processor beside it (a loaded machine: each rank
shares its core with a program that never sleeps), so a protocol that hands the processor back
and forth per chunk shows it; it is not run unless named.

Builds bench/mpibench.c with each MPI's compiler, runs every benchmark with each MPI in turn
(interleaved, so they share the machine's state), and prints each figure side by side with
Mica's ratio to the best peer: below 1 means Mica is better (less time, or more bandwidth)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PREFIX = os.environ.get('MICA_PREFIX', os.path.join(ROOT, 'install'))
OMPI_ENV = {'OMPI_ALLOW_RUN_AS_ROOT': '1', 'OMPI_ALLOW_RUN_AS_ROOT_CONFIRM': '1',
            'OMPI_MCA_rmaps_base_oversubscribe': '1', 'PRTE_MCA_rmaps_default_mapping_policy': ':oversubscribe'}

MPIS = [
    ('mica', os.path.join(PREFIX, 'bin', 'mpicc'), [os.path.join(PREFIX, 'bin', 'mpiexec')]),
    ('mpich', 'mpicc.mpich', ['mpiexec.mpich']),
    ('openmpi', 'mpicc.openmpi', ['mpiexec.openmpi', '--oversubscribe']),
]
BENCHES = {  # name: (process counts, arguments)
    'latency': ([2], ['latency']),
    'bandwidth': ([2], ['bandwidth']),
    'barrier': ([2, 4, 8], ['barrier']),
    'allreduce': ([4], ['allreduce']),
    'bcast': ([4], ['bcast']),
    'reduce': ([4], ['reduce']),
    'gather': ([4], ['gather']),
    'alltoall': ([4], ['alltoall']),
    'large': ([2], ['large']),
    'large_hog': ([2], ['large']),
}


def hogs():
    """A busy process per processor, until killed."""
    return [subprocess.Popen([sys.executable, '-c', 'while True: pass'])
            for _ in range(os.cpu_count() or 1)]


def available():
    out = []
    for name, cc, run in MPIS:
        if shutil.which(cc) and shutil.which(run[0]):
            out.append((name, cc, run))
        else:
            print('(%s not found: skipped)' % name, file=sys.stderr)
    return out


def build(mpis, tmp):
    exes = {}
    for name, cc, _ in mpis:
        exe = os.path.join(tmp, 'mpibench-' + name)
        subprocess.check_call([cc, '-O2', '-w', '-o', exe, os.path.join(ROOT, 'bench', 'mpibench.c')])
        exes[name] = exe
    return exes


def run(cmd, env):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       env=dict(os.environ, **env), timeout=600)
    if r.returncode:
        print('failed: %s\n%s' % (' '.join(cmd), r.stdout), file=sys.stderr)
        return {}
    figures = {}
    for line in r.stdout.splitlines():
        m = re.match(r'(\S+) ([\d.e+-]+) (\S+)$', line)
        if m:
            figures[m.group(1)] = (float(m.group(2)), m.group(3))
    return figures


def startup(mpis, exes, reps):
    """mpiexec -n 2 of a program that only initializes and finalizes: the best of reps."""
    out = {}
    for _ in range(reps):
        for name, _, launcher in mpis:
            t = time.time()
            subprocess.run(launcher + ['-n', '2', exes[name], 'init'], env=dict(os.environ, **OMPI_ENV),
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            t = (time.time() - t) * 1e3
            out.setdefault(name, {})['startup_2ranks'] = (min(t, out.get(name, {}).get('startup_2ranks', (1e30,))[0]), 'ms')
    return out


def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    quick = '--quick' in sys.argv
    mpis = available()
    tmp = tempfile.mkdtemp(prefix='mica-bench-')
    exes = build(mpis, tmp)
    results = {name: {} for name, _, _ in mpis}
    for bench in args or [b for b in BENCHES if b != 'large_hog'] + ['startup']:
        if bench == 'startup':
            for name, figs in startup(mpis, exes, 3 if quick else 10).items():
                results[name].update(figs)
            continue
        counts, bargs = BENCHES[bench]
        for n in counts:
            for name, _, launcher in mpis:
                busy = hogs() if bench.endswith('_hog') else []
                try:
                    figs = run(launcher + ['-n', str(n), exes[name]] + bargs, OMPI_ENV)
                finally:
                    for h in busy:
                        h.kill()
                        h.wait()
                if busy:
                    figs = {k + '_hog': v for k, v in figs.items()}
                results[name].update(figs)
    shutil.rmtree(tmp, ignore_errors=True)
    names = [n for n, _, _ in mpis]
    keys = []
    for n in names:
        keys += [k for k in results[n] if k not in keys]
    print('%-26s' % 'figure' + ''.join('%14s' % n for n in names) + '  mica/best peer')
    for k in keys:
        row, unit = [], ''
        for n in names:
            v = results[n].get(k)
            row.append(v[0] if v else None)
            unit = v[1] if v else unit
        cells = ''.join('%14s' % ('%.3f' % v if v is not None else '-') for v in row)
        peers = [v for n, v in zip(names, row) if n != 'mica' and v is not None]
        ratio = '-'
        if row[0] is not None and peers and row[0] > 0:
            higher_better = unit.endswith('/s')
            best = max(peers) if higher_better else min(peers)
            ratio = '%.2f' % (best / row[0] if higher_better else row[0] / best)
        print('%-26s%s  %s  (%s)' % (k, cells, ratio, unit))


if __name__ == '__main__':
    main()
