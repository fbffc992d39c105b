"""No rank waits for ever once its launcher is gone (issue 9, point 5): a process manager that
does not take its processes with it (here a minimal PMI-1 server of this test, over PMI_PORT)
starts two ranks that then wait for each other in MPI_Recv for ever; the server goes away; both
ranks must end within seconds, having seen its connection close."""
import os
import select
import socket
import subprocess
import sys
import tempfile
import time

PREFIX = os.environ.get('MICA_PREFIX') or os.path.join(os.path.dirname(__file__), '..', '..',
                                                       'install')
PROG = r'''
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    int rank, x;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    printf("waiting\n");
    fflush(stdout);
    MPI_Recv(&x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);  /* never */
    MPI_Finalize();
    return 0;
}
'''
N = 2


def serve(listener, procs):
    """Answer the ranks' PMI-1 requests until both print "waiting"."""
    conns, bufs, kvs, barrier = {}, {}, {}, []
    waiting = 0
    outs = [p.stdout for p in procs]
    end = time.time() + 20
    while waiting < N and time.time() < end:
        ready, _, _ = select.select([listener] + list(conns) + outs, [], [], 0.5)
        for r in ready:
            if r is listener:
                c, _ = listener.accept()
                conns[c], bufs[c] = None, b''
                continue
            if r in outs:
                waiting += r.readline().strip() == b'waiting'
                continue
            data = r.recv(4096)
            if not data:
                del conns[r]
                continue
            bufs[r] += data
            while b'\n' in bufs[r]:
                line, bufs[r] = bufs[r].split(b'\n', 1)
                f = dict(w.split('=', 1) for w in line.decode().split() if '=' in w)
                cmd = f.get('cmd')
                if cmd == 'initack':
                    conns[r] = int(f['pmiid'])
                    r.sendall(('cmd=initack rc=0\ncmd=set size=%d\ncmd=set rank=%d\n'
                               'cmd=set debug=0\n' % (N, conns[r])).encode())
                elif cmd == 'init':
                    r.sendall(b'cmd=response_to_init rc=0 pmi_version=1 pmi_subversion=1\n')
                elif cmd == 'get_maxes':
                    r.sendall(b'cmd=maxes rc=0 kvsname_max=256 keylen_max=64 vallen_max=1024\n')
                elif cmd == 'get_my_kvsname':
                    r.sendall(b'cmd=my_kvsname rc=0 kvsname=gone\n')
                elif cmd == 'get_appnum':
                    r.sendall(b'cmd=appnum rc=0 appnum=0\n')
                elif cmd == 'get_universe_size':
                    r.sendall(b'cmd=universe_size rc=0 size=%d\n' % N)
                elif cmd == 'put':
                    kvs[f['key']] = f['value']
                    r.sendall(b'cmd=put_result rc=0\n')
                elif cmd == 'get':
                    v = kvs.get(f['key'])
                    r.sendall(('cmd=get_result rc=0 value=%s\n' % v if v is not None
                               else 'cmd=get_result rc=-1\n').encode())
                elif cmd == 'barrier_in':
                    barrier.append(r)
                    if len(barrier) == N:
                        for b in barrier:
                            b.sendall(b'cmd=barrier_out rc=0\n')
                        barrier.clear()
    return waiting, conns


tmp = tempfile.mkdtemp(dir=os.environ.get('MICA_TMP'))
exe = os.path.join(tmp, 'waiter')
with open(exe + '.c', 'w') as f:
    f.write(PROG)
subprocess.check_call([os.path.join(PREFIX, 'bin', 'mpicc'), '-o', exe, exe + '.c'])
listener = socket.socket()
listener.bind(('127.0.0.1', 0))
listener.listen(8)
procs = []
for rank in range(N):
    env = dict(os.environ, PMI_PORT='127.0.0.1:%d' % listener.getsockname()[1],
               PMI_ID=str(rank), MICA_YIELD_POLLS='1000')   # reach the long-wait sleeps soon
    env.pop('PMI_FD', None)
    procs.append(subprocess.Popen([exe], env=env, stdout=subprocess.PIPE))
waiting, conns = serve(listener, procs)
if waiting < N:
    print('FAIL: the ranks did not start under the test\'s process manager')
    for p in procs:
        p.kill()
    sys.exit(1)
time.sleep(0.3)
for c in conns:                       # the process manager goes, without a word
    c.close()
listener.close()
end = time.time() + 20
while time.time() < end and any(p.poll() is None for p in procs):
    time.sleep(0.1)
left = [p.pid for p in procs if p.poll() is None]
for p in procs:
    if p.poll() is None:
        p.kill()
if left:
    print('FAIL: ranks %s still waiting 20 s after their process manager went away' % left)
    sys.exit(1)
print('ok: both ranks ended after their process manager went away')
