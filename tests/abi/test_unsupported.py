"""No pretending: every function not marked implemented returns MPI_ERR_UNSUPPORTED_OPERATION,
and docs/STATUS.md is current and counts the same. A program calling each of them is generated
from the API table."""
import os
import re
import subprocess
import sys

root, prefix, tmp = os.environ['MICA_ROOT'], os.environ['MICA_PREFIX'], os.environ['MICA_TMP']
implemented = set()
for line in open(os.path.join(root, 'src', 'bindings', 'c', 'impl.tsv')):
    line = line.split('#')[0].split()
    if line:
        implemented.add(line[0])
calls = []
total = 0
for line in open(os.path.join(root, 'api', 'functions.tsv')):
    if line.startswith('#'):
        continue
    name, ret, params = line.split('\t')[:3]
    total += 1
    if name in implemented:
        continue
    n = 0 if params == 'void' else params.count(',') + 1
    args = ', '.join(['0'] * n)
    calls.append('CHECK(%s, %s(%s));' % (name, name, args))

src = '''#include <mpi.h>
#include <stdio.h>
static int failed, checked;
#define CHECK(name, call) do { int rc_ = (call), cls_ = -1; checked++; MPI_Error_class(rc_, &cls_); \\
    if (cls_ != MPI_ERR_UNSUPPORTED_OPERATION) { failed++; printf("%%s returned class %%d\\n", #name, cls_); } } while (0)
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    %s
    printf("%%d not-yet functions called, %%d wrong\\n", checked, failed);
    MPI_Finalize();
    return failed != 0;
}
''' % '\n    '.join(calls)
open(os.path.join(tmp, 'unsupported.c'), 'w').write(src)
exe = os.path.join(tmp, 'unsupported')
subprocess.check_call([os.path.join(prefix, 'bin', 'mpicc'), '-std=c11', '-w',
                       os.path.join(tmp, 'unsupported.c'), '-o', exe])
r = subprocess.run([exe], stdout=subprocess.PIPE, text=True)
print(r.stdout, end='')
if r.returncode:
    sys.exit(1)

status = open(os.path.join(root, 'docs', 'STATUS.md')).read()
m = re.search(r'\*\*(\d+) of (\d+) functions implemented\*\*', status)
if not m or (int(m.group(1)), int(m.group(2))) != (len(implemented), total):
    sys.exit('docs/STATUS.md is stale: says %s, the tables say %d of %d'
             % (m.group(0) if m else '?', len(implemented), total))
readme = open(os.path.join(root, 'README.md')).read()
if m.group(0) not in readme:
    sys.exit('README.md does not state the current count: %s' % m.group(0))
generated = open(os.path.join(root, 'build', 'weak', 'gen', 'STATUS.md')).read()
if generated != status:
    sys.exit('docs/STATUS.md differs from the generated one: commit the regenerated file')
