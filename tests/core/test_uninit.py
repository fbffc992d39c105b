"""Outside MPI: every implemented function that needs MPI initialized, called before MPI_Init
and again after MPI_Finalize, ends the program (the initial error handler, MPI_ERRORS_ARE_FATAL)
with a nonzero status and a message naming it ("MPI_Send called before MPI_Init"); the
functions the standard allows at any time (MPI 4.0 section 11.4.1) do not say so. The program
and the list are generated from src/bindings/c/impl.tsv and api/functions.tsv, so both stay
complete: before MPI_Init every function is called, after MPI_Finalize one of every mode and
the two the review names (MPI_Send, MPI_Allreduce)."""
import concurrent.futures
import os
import subprocess
import sys

root, prefix, tmp = os.environ['MICA_ROOT'], os.environ['MICA_PREFIX'], os.environ['MICA_TMP']

# The modes of impl.tsv whose functions are valid outside MPI_Init..MPI_Finalize; every other
# mode must check. 'anytime' holds only what the standard allows at any time; 'tool' is the
# tool information interface's (MPI_T_*), which MPI 4.0 section 15.3.4 allows before MPI_Init
# and after MPI_Finalize (tests/tool/ checks their codes).
UNCHECKED = {'anytime', 'direct', 'noop', 'tool'}
ANYTIME = {'MPI_Initialized', 'MPI_Finalized', 'MPI_Get_version', 'MPI_Get_library_version',
           'MPI_Error_class', 'MPI_Error_string', 'MPI_Errhandler_free', 'MPI_Session_init',
           'MPI_Session_create_errhandler', 'MPI_Session_call_errhandler',
           # MPI 5.0: the ABI's functions (a Fortran binding over the ABI asks them first)
           'MPI_Abi_get_version', 'MPI_Abi_get_info', 'MPI_Abi_get_fortran_info',
           'MPI_Abi_set_fortran_info', 'MPI_Abi_get_fortran_booleans',
           'MPI_Abi_set_fortran_booleans'}

mode = {}
for line in open(os.path.join(root, 'src', 'bindings', 'c', 'impl.tsv')):
    fields = line.split('#')[0].split()
    if fields:
        mode[fields[0]] = fields[1]
for name, m in sorted(mode.items()):
    if m == 'anytime' and name not in ANYTIME and not name.startswith('MPI_Info_'):
        sys.exit('%s is marked anytime, but the standard does not allow it at any time' % name)

cases = []
for line in open(os.path.join(root, 'api', 'functions.tsv')):
    if line.startswith('#'):
        continue
    name, ret, params = line.split('\t')[:3]
    if name in mode:
        n = 0 if params == 'void' else len([p for p in params.split(',') if p.strip() != '...'])
        cases.append('    if (!strcmp(fn, "%s")) (void)%s(%s);' % (name, name, ', '.join(['0'] * n)))

src = '''#include <mpi.h>
#include <stdio.h>
#include <string.h>
/* uninit WHEN FUNCTION: call FUNCTION (all arguments zero) before MPI_Init or after MPI_Finalize. */
int main(int argc, char **argv)
{
    const char *fn = argv[2];
    if (argc != 3)
        return 2;
    if (!strcmp(argv[1], "after")) {
        MPI_Init(&argc, &argv);
        MPI_Finalize();
    }
%s
    printf("returned\\n");
    return 0;
}
''' % '\n'.join(cases)
open(os.path.join(tmp, 'uninit.c'), 'w').write(src)
exe = os.path.join(tmp, 'uninit')
subprocess.check_call([os.path.join(prefix, 'bin', 'mpicc'), '-std=c11', '-w',
                       os.path.join(tmp, 'uninit.c'), '-o', exe])


def run(when, name):
    """A complaint about `name` called `when` (before/after), or None if it behaved."""
    r = subprocess.run([exe, when, name], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, errors='replace', timeout=60)
    said = '%s called %s MPI_%s' % (name, when, 'Init' if when == 'before' else 'Finalize')
    if mode[name] in UNCHECKED:       # conversions, clocks, MPI_Init itself: not a concern here
        allowed = name in ANYTIME or name.startswith('MPI_Info_')
        return '%s (%s) says: %s' % (name, mode[name], said) if allowed and said in r.stderr else None
    if r.returncode == 0 or 'returned' in r.stdout or said not in r.stderr:
        return '%s (%s) %s MPI_%s: status %d, stderr: %s' % (
            name, mode[name], when, 'Init' if when == 'before' else 'Finalize', r.returncode,
            r.stderr.strip()[:300] or '(empty)')
    return None


first_of_mode = {}
for name, m in sorted(mode.items()):
    first_of_mode.setdefault(m, name)
todo = [('before', name) for name in sorted(mode)]
todo += [('after', name) for name in sorted(set(first_of_mode.values()) | {'MPI_Send', 'MPI_Allreduce'})]
with concurrent.futures.ThreadPoolExecutor(4) as pool:
    wrong = [w for w in pool.map(lambda c: run(*c), todo) if w]
for w in wrong:
    print('wrong:', w)
print('%d calls outside MPI (modes: %s), %d wrong' % (len(todo), ' '.join(sorted(first_of_mode)),
                                                       len(wrong)))
sys.exit(1 if wrong else 0)
