"""A local user who is not the job's owner can neither join a job nor stop it (issue 9):
 - mpiexec --pmi-port: a stranger who connects first and claims rank 1 (cmd=initack pmiid=1)
   is refused, and the job runs; a connection that sends a bad line before claiming a rank is
   dropped, not the job (as the job's own user too);
 - shared memory: rank 0's socket name taken in advance by another user does not stop the
   job, no rank maps another user's segment, a stranger who connects to rank 0 gets none, and
   no segment of the job ever has a name in /dev/shm.
Rank 1 starts a second late (a wrapper), so the stranger comes first. The parts that need a
second user run as root only (as `nobody`); run as another user they are skipped, the rest
runs. Exit 77 when nothing could run."""
import os
import pwd
import re
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pmiserver import PMIServer  # noqa: E402

PREFIX = os.environ.get('MICA_PREFIX') or os.path.join(os.path.dirname(__file__), '..', '..',
                                                       'install')
MPIEXEC = os.path.join(PREFIX, 'bin', 'mpiexec')
ROOT_USER = os.geteuid() == 0
PROG = r'''
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    int rank, v = 42;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    else
        MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank == 1)
        printf("got %d\n", v);
    MPI_Finalize();
    return 0;
}
'''
# Rank 1 waits for the stranger's go (a file), or a second at most.
WRAPPER = '''#!/bin/sh
if [ "${PMI_ID:-${PMI_RANK:-0}}" = 1 ]; then
    i=0; while [ ! -e "$GO" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done
fi
exec "$@"
'''
failures = []


def fail(msg):
    failures.append(msg)
    print('FAIL: ' + msg)


def as_nobody():
    """preexec_fn: become `nobody` (root only)."""
    nobody = pwd.getpwnam('nobody')
    def drop():
        os.setgid(nobody.pw_gid)
        os.setuid(nobody.pw_uid)
    return drop


def listening_port(pid, timeout=10):
    """The TCP port a process listens on (its --pmi-port), from /proc."""
    end = time.time() + timeout
    while time.time() < end:
        inodes = set()
        try:
            for fd in os.listdir('/proc/%d/fd' % pid):
                m = re.match(r'socket:\[(\d+)\]', os.readlink('/proc/%d/fd/%s' % (pid, fd)))
                if m:
                    inodes.add(m.group(1))
        except OSError:
            pass
        for line in open('/proc/net/tcp').readlines()[1:]:
            f = line.split()
            if f[3] == '0A' and f[9] in inodes:          # LISTEN
                return int(f[1].split(':')[1], 16)
        time.sleep(0.02)
    return None


def job(tmp, extra, before_go):
    """Run the program on 2 ranks with rank 1 late; before_go(mpiexec's pid) runs first, then
    rank 1 goes. The job's output and exit status."""
    go = os.path.join(tmp, 'go')
    if os.path.exists(go):
        os.unlink(go)
    env = dict(os.environ, GO=go)
    p = subprocess.Popen([MPIEXEC] + extra + ['-n', '2', os.path.join(tmp, 'wrap'),
                                              os.path.join(tmp, 'prog')],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        before_go(p.pid)
    finally:
        open(go, 'w').close()
    out, _ = p.communicate(timeout=60)
    return out, p.returncode


def child(fn, user):
    """Start fn(out) in a child process, as nobody when user; fn writes what it has to say to
    the file descriptor out. The child's pid and the read end of that pipe."""
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(rfd)
            if user:
                as_nobody()()
            fn(wfd)
        finally:
            os._exit(0)
    os.close(wfd)
    return pid, rfd


def in_child(fn, user):
    """Run fn(out) in a child process (as child() does) to its end; what it wrote."""
    pid, rfd = child(fn, user)
    data = b''
    while True:
        chunk = os.read(rfd, 4096)
        if not chunk:
            break
        data += chunk
    os.close(rfd)
    os.waitpid(pid, 0)
    return data.decode(errors='replace')


def stranger(port, line, user):
    """Connect to the PMI port (as `nobody` when user: in a child process), send a line; what
    came back before the server closed the connection or went quiet."""
    def talk(out):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.connect(('127.0.0.1', port))
        s.settimeout(3)
        s.sendall(line.encode())
        try:
            while True:
                chunk = s.recv(4096)
                if not chunk:
                    break
                os.write(out, chunk)
        except OSError:
            pass
    return in_child(talk, user)


def squatter(name):
    """As nobody, listen on abstract socket `name` and hand a segment of its own to whoever
    connects, until killed; its pid, once it listens."""
    def squat(out):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind(name)
        s.listen(8)
        decoy = os.memfd_create('mica-shm')
        os.write(out, b'x')
        while True:
            c, _ = s.accept()
            try:
                socket.send_fds(c, [b'\1\0\0\0'], [decoy] * 2)
            except OSError:
                pass
            c.close()
    pid, rfd = child(squat, True)
    os.read(rfd, 1)
    os.close(rfd)
    return pid


def abstract_sockets():
    return {line.split()[-1] for line in open('/proc/net/unix').readlines()[1:]
            if line.split()[-1].startswith('@mica-')}


def abstract_socket_of_rank0(before, timeout=10):
    end = time.time() + timeout
    while time.time() < end:
        new = [n for n in abstract_sockets() - before if n.endswith('-0')]
        if new:
            return new[0]
        time.sleep(0.01)
    return None


def nobody_knocks(name):
    """As nobody, connect to abstract socket `name` and say what came back: descriptors, or ''."""
    def knock(out):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(3)
        s.connect('\0' + name[1:])
        s.sendall(b'\1\0\0\0')
        try:
            _, fds, _, _ = socket.recv_fds(s, 16, 8)
        except OSError:
            fds = []
        os.write(out, ('%d descriptors' % len(fds) if fds else '').encode())
    return in_child(knock, True)


def main():
    if not os.path.exists(MPIEXEC):
        print('skip: no mpiexec at ' + MPIEXEC)
        return 77
    tmp = tempfile.mkdtemp(dir=os.environ.get('MICA_TMP'))
    os.chmod(tmp, 0o755)                 # nobody runs nothing from here, but may look
    with open(os.path.join(tmp, 'prog.c'), 'w') as f:
        f.write(PROG)
    subprocess.check_call([os.path.join(PREFIX, 'bin', 'mpicc'), '-o',
                           os.path.join(tmp, 'prog'), os.path.join(tmp, 'prog.c')])
    with open(os.path.join(tmp, 'wrap'), 'w') as f:
        f.write(WRAPPER)
    os.chmod(os.path.join(tmp, 'wrap'), 0o755)

    # 1. A stranger claims rank 1 on the PMI port first.
    if ROOT_USER:
        seen = {}
        def claim(pid):
            port = listening_port(pid)
            seen['reply'] = stranger(port, 'cmd=initack pmiid=1\n', True) if port else None
        out, rc = job(tmp, ['--pmi-port'], claim)
        if seen.get('reply') is None:
            fail('pmi-port: could not find the port mpiexec listens on')
        elif 'rc=0' in seen['reply']:
            fail('pmi-port: a stranger claimed rank 1: %r' % seen['reply'])
        if rc != 0 or 'got 42' not in out:
            fail('pmi-port: the job failed after a stranger claimed rank 1 (exit %d):\n%s'
                 % (rc, out))
    else:
        print('skip: the stranger claiming a rank needs root (to be nobody)')

    # 2. A bad line before any claim (the job's own user): dropped, the job runs.
    def garbage(pid):
        port = listening_port(pid)
        if port:
            stranger(port, 'cmd=abort exitcode=1\n', False)
    out, rc = job(tmp, ['--pmi-port'], garbage)
    if rc != 0 or 'got 42' not in out:
        fail('pmi-port: a bad line from a connection that claimed no rank ended the job '
             '(exit %d):\n%s' % (rc, out))

    # 3. Shared memory. As root only: another user (nobody) cannot tell the job's id before it
    #    starts under mpiexec, but under a launcher whose names are predictable it can take
    #    rank 0's socket name first (here the test's own PMI server, kvsname "strangers"): the
    #    job must run and take no segment from it. And a stranger who connects to rank 0's
    #    socket while rank 0 waits for rank 1 gets no segment.
    if ROOT_USER:
        pid = squatter('\0mica-strangers-0')
        pm = PMIServer(2, 'strangers')
        pm.start([os.path.join(tmp, 'prog')], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                 text=True)
        pm.serve(lambda: all(p.poll() is not None for p in pm.procs), timeout=30)
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        outs = [p.communicate()[0] if p.poll() is not None else None for p in pm.procs]
        for p in pm.procs:
            if p.poll() is None:
                p.kill()
        if any(p.returncode != 0 for p in pm.procs) or 'got 42' not in (outs[1] or ''):
            fail('shm: the job failed with rank 0\'s socket name taken first by another user:'
                 '\n%s' % '\n'.join(o or '(still running)' for o in outs))

        seen = {}
        def knock(pid):
            name = abstract_socket_of_rank0(before_sockets)
            seen['got'] = nobody_knocks(name) if name else None
        before_sockets = abstract_sockets()
        out, rc = job(tmp, [], knock)
        if seen.get('got') is None:
            fail('shm: rank 0 listened on no socket of the job')
        elif seen['got']:
            fail('shm: a stranger who connected to rank 0 was handed %s' % seen['got'])
        if rc != 0 or 'got 42' not in out:
            fail('shm: the job failed after a stranger knocked (exit %d):\n%s' % (rc, out))
    else:
        print('skip: the shared-memory strangers need root (to be nobody)')

    # 4. Nothing of the job ever has a name in /dev/shm.
    before = set(os.listdir('/dev/shm'))
    def look(pid):
        time.sleep(0.2)
        seen_names.extend(n for n in set(os.listdir('/dev/shm')) - before if n.startswith('mica-'))
    seen_names = []
    job(tmp, [], look)
    if seen_names:
        fail('shm: the job named objects in /dev/shm: %s' % ' '.join(seen_names))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
