"""No rank waits for ever once its launcher is gone (issue 9, point 5): a process manager that
does not take its processes with it (here a minimal PMI-1 server of this test, over PMI_PORT)
starts two ranks that then wait for each other in MPI_Recv for ever; the server goes away; both
ranks must end within seconds, having seen its connection close."""
import os
import select
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

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pmiserver import PMIServer  # noqa: E402

tmp = tempfile.mkdtemp(dir=os.environ.get('MICA_TMP'))
exe = os.path.join(tmp, 'waiter')
with open(exe + '.c', 'w') as f:
    f.write(PROG)
subprocess.check_call([os.path.join(PREFIX, 'bin', 'mpicc'), '-o', exe, exe + '.c'])
pm = PMIServer(N, 'gone')
pm.start([exe], env=dict(os.environ, MICA_YIELD_POLLS='1000'),   # reach the long-wait sleeps soon
         stdout=subprocess.PIPE)
procs = pm.procs
outs = [p.stdout for p in procs]
waiting = [0]


def all_waiting():
    for o in select.select(outs, [], [], 0)[0]:
        waiting[0] += o.readline().strip() == b'waiting'
    return waiting[0] >= N


if not pm.serve(all_waiting, extra=outs):
    print('FAIL: the ranks did not start under the test\'s process manager')
    for p in procs:
        p.kill()
    sys.exit(1)
time.sleep(0.3)
pm.close()                            # the process manager goes, without a word
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
