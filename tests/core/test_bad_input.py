"""No crash and no hang on bad input (issue 9, point 1), for every implemented function: with
MPI_ERRORS_RETURN, each is called twice, its arguments made from its parameters' types:
  zero     every argument 0 (invalid handles, NULL pointers, zero counts);
  invalid  valid predefined handles (MPI_COMM_WORLD, MPI_INT, MPI_SUM, the null handles where
           a kind has no other), NULL for every pointer, -1 for every integer;
and must return (an error or success) within the time limit. The program is generated from
src/bindings/c/impl.tsv and api/functions.tsv, so it stays complete. Left out: what ends or
leaves the process on purpose (MPI_Abort, MPI_Init*, MPI_Finalize, MPI_Session_finalize)."""
import concurrent.futures
import os
import subprocess
import sys

root, prefix, tmp = os.environ['MICA_ROOT'], os.environ['MICA_PREFIX'], os.environ['MICA_TMP']
sys.path.insert(0, os.path.join(root, 'gen'))
import api  # noqa: E402

LEFT_OUT = {'MPI_Abort', 'MPI_Init', 'MPI_Init_thread', 'MPI_Finalize', 'MPI_Session_finalize'}
VALID = {'MPI_Comm': 'MPI_COMM_WORLD', 'MPI_Datatype': 'MPI_INT', 'MPI_Op': 'MPI_SUM',
         'MPI_Info': 'MPI_INFO_NULL', 'MPI_Group': 'MPI_GROUP_EMPTY',
         'MPI_Errhandler': 'MPI_ERRORS_RETURN', 'MPI_Request': 'MPI_REQUEST_NULL',
         'MPI_Win': 'MPI_WIN_NULL', 'MPI_File': 'MPI_FILE_NULL',
         'MPI_Message': 'MPI_MESSAGE_NULL', 'MPI_Session': 'MPI_SESSION_NULL'}
INTEGERS = ('int', 'MPI_Count', 'MPI_Aint', 'MPI_Offset')

implemented = api.implemented()
functions = [f for f in api.functions() if f.name in implemented and f.name not in LEFT_OUT]


def arguments(f, invalid):
    out = []
    for p in f.params:
        if p.name == '...':
            continue
        if not invalid or p.pointer or p.array:
            out.append('0')
        elif p.handle:
            out.append(VALID.get(p.handle, '0'))
        else:
            out.append('-1' if p.base in INTEGERS else '0')
    return ', '.join(out)


cases = []
for f in functions:
    for variant, invalid in (('zero', 0), ('invalid', 1)):
        cases.append('    if (!strcmp(fn, "%s") && !strcmp(how, "%s")) rc = (int)%s(%s);'
                     % (f.name, variant, f.name, arguments(f, invalid)))
src = '''#include <mpi.h>
#include <stdio.h>
#include <string.h>
/* bad_input FUNCTION zero|invalid: call FUNCTION so; print what it returned. */
int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    const char *fn = argv[1], *how = argv[2];
    int rc = -1;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
%s
    printf("returned %%d\\n", rc);
    return 0;                         /* no MPI_Finalize: the call may have left a mess */
}
''' % '\n'.join(cases)
open(os.path.join(tmp, 'bad_input.c'), 'w').write(src)
exe = os.path.join(tmp, 'bad_input')
subprocess.check_call([os.path.join(prefix, 'bin', 'mpicc'), '-std=c11', '-w',
                       os.path.join(tmp, 'bad_input.c'), '-o', exe])


def run(name, how):
    """A complaint, or None if the call returned."""
    try:
        r = subprocess.run([exe, name, how], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, errors='replace', timeout=20)
    except subprocess.TimeoutExpired:
        return '%s (%s arguments): still running after 20 s' % (name, how)
    if 'returned' not in r.stdout:
        return '%s (%s arguments): status %d, stderr: %s' % (name, how, r.returncode,
                                                             r.stderr.strip()[:300] or '(empty)')
    return None


todo = [(f.name, how) for f in functions for how in ('zero', 'invalid')]
with concurrent.futures.ThreadPoolExecutor(4) as pool:
    wrong = [w for w in pool.map(lambda c: run(*c), todo) if w]
for w in wrong:
    print('wrong:', w)
print('%d calls with bad arguments, %d crashed or hung' % (len(todo), len(wrong)))
sys.exit(1 if wrong else 0)
