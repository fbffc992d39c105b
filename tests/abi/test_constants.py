"""mpi.h agrees with the MPI 5.0 standard ABI: every constant's value, the handle types, and the
status layout. The check is generated here from api/ on its own, not by mpi.h's generator."""
import os
import re
import subprocess
import sys

root, prefix, tmp = os.environ['MICA_ROOT'], os.environ['MICA_PREFIX'], os.environ['MICA_TMP']
checks = []
for line in open(os.path.join(root, 'api', 'constants.tsv')):
    if line.startswith('#') or not line.strip():
        continue
    name, value = line.rstrip('\n').split('\t')
    m = re.match(r'(?:int )?(-?(?:0x)?[0-9a-fA-F]+)$', value)
    if m:  # an integer constant: compare the values and make sure it is an int expression
        checks.append('CHECK(%s == %s && sizeof(%s) == sizeof(int), "%s");' % (name, m.group(1), name, name))
        continue
    m = re.match(r'\(\((\w+)\s*(\**)\)\s*(-?(?:0x)?[0-9a-fA-F]+)\)$', value)
    if m:  # ((TYPE)VALUE): same type, same bits
        t = m.group(1) + m.group(2)
        checks.append('CHECK(_Generic(%s, %s: 1, default: 0) && (intptr_t)%s == (intptr_t)%s, "%s");'
                      % (name, t, name, m.group(3), name))
        continue
    if re.match(r'MPIX?_\w+$', value):  # an alias of another constant
        checks.append('CHECK(%s == %s, "%s");' % (name, value, name))
        continue
    sys.exit('cannot check %s = %s' % (name, value))

types = open(os.path.join(root, 'api', 'types.h')).read()
for h in re.findall(r'typedef struct (MPI_ABI_\w+)\* (MPI_\w+);', types):
    checks.append('CHECK(_Generic((%s)0, struct %s *: 1, default: 0), "type %s");' % (h[1], h[0], h[1]))

src = '''#include <mpi.h>
#include <stdio.h>
#include <stddef.h>
static int failed, checked;
#define CHECK(cond, what) do { checked++; if (!(cond)) { failed++; printf("wrong: %%s\\n", what); } } while (0)
int main(void)
{
    %s
    CHECK(sizeof(MPI_Status) == 32, "sizeof(MPI_Status) == 32");
    CHECK(offsetof(MPI_Status, MPI_SOURCE) == 0 && offsetof(MPI_Status, MPI_TAG) == 4 &&
          offsetof(MPI_Status, MPI_ERROR) == 8, "MPI_Status field offsets");
    CHECK(sizeof(MPI_Aint) == sizeof(intptr_t) && sizeof(MPI_Count) == 8 && sizeof(MPI_Offset) == 8,
          "integer types");
    printf("%%d checks, %%d wrong\\n", checked, failed);
    return failed != 0;
}
''' % '\n    '.join(checks)
open(os.path.join(tmp, 'abi.c'), 'w').write(src)
exe = os.path.join(tmp, 'abi')
subprocess.check_call([os.path.join(prefix, 'bin', 'mpicc'), '-std=c11', '-Wall', '-Werror',
                       os.path.join(tmp, 'abi.c'), '-o', exe])
r = subprocess.run([exe], stdout=subprocess.PIPE, text=True)
print(r.stdout, end='')
if r.returncode == 0 and int(r.stdout.split()[-4]) < 360:
    sys.exit('too few checks')
sys.exit(r.returncode)
