"""No hang on a silent launcher (issue 9, point 5): MPI_Init under a process manager that
accepts the connection and never answers ends with a clear error after MICA_PMI_TIMEOUT
seconds; one that closes the connection, or a port nobody listens on, ends it at once; and a
process that fails before it knows its rank says so (issue 9, point 10), not "rank 0"."""
import os
import socket
import subprocess
import sys
import tempfile
import time

PREFIX = os.environ.get('MICA_PREFIX') or os.path.join(os.path.dirname(__file__), '..', '..',
                                                       'install')
PROG = '#include <mpi.h>\nint main(int c, char **v) { MPI_Init(&c, &v); MPI_Finalize(); }\n'
failures = []


def run(port, timeout):
    env = dict(os.environ, PMI_PORT='127.0.0.1:%d' % port, PMI_ID='0',
               MICA_PMI_TIMEOUT=str(timeout))
    env.pop('PMI_FD', None)
    t = time.time()
    try:
        r = subprocess.run([PROG_EXE], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=30)
    except subprocess.TimeoutExpired:
        return None, 30.0, ''
    return r.returncode, time.time() - t, r.stdout


def expect(what, result, pattern, longest):
    rc, took, out = result
    if rc is None:
        failures.append('%s: MPI_Init still waiting after 30 s' % what)
    elif rc == 0 or pattern not in out or took > longest:
        failures.append('%s: exit %s after %.1f s, wanted an error with "%s" within %d s:\n%s'
                        % (what, rc, took, pattern, longest, out))


tmp = tempfile.mkdtemp(dir=os.environ.get('MICA_TMP'))
with open(os.path.join(tmp, 'p.c'), 'w') as f:
    f.write(PROG)
PROG_EXE = os.path.join(tmp, 'p')
subprocess.check_call([os.path.join(PREFIX, 'bin', 'mpicc'), '-o', PROG_EXE,
                       os.path.join(tmp, 'p.c')])

silent = socket.socket()
silent.bind(('127.0.0.1', 0))
silent.listen(4)                     # accepts (the kernel does), never answers
expect('a silent process manager', run(silent.getsockname()[1], 1), 'did not answer within 1 s',
       10)

closing = socket.socket()
closing.bind(('127.0.0.1', 0))
closing.listen(4)
pid = os.fork()
if pid == 0:                         # accept, read the first line, hang up
    c, _ = closing.accept()
    c.recv(100)
    c.close()
    os._exit(0)
expect('a process manager that hangs up', run(closing.getsockname()[1], 30),
       'lost connection to the process manager', 10)
os.waitpid(pid, 0)

nobody = socket.socket()
nobody.bind(('127.0.0.1', 0))
port = nobody.getsockname()[1]
nobody.close()                       # nothing listens there now
result = run(port, 30)
expect('no process manager at PMI_PORT', result, 'bootstrap (rank unknown, pid', 10)
if 'rank 0' in result[2]:
    failures.append('a process that never learnt its rank calls itself rank 0:\n' + result[2])

for f in failures:
    print('FAIL: ' + f)
sys.exit(1 if failures else 0)
