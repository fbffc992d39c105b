"""Nothing left behind when the launcher is killed with SIGKILL during start-up (issue 9,
point 4): three ranks have made their shared-memory segments and wait for the fourth, which
starts late; mpiexec dies; every rank ends, and no segment ever had a name in /dev/shm (they
are memfds: gone with the last process that holds one)."""
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

PREFIX = os.environ.get('MICA_PREFIX') or os.path.join(os.path.dirname(__file__), '..', '..',
                                                       'install')
PROG = '#include <mpi.h>\nint main(int c, char **v) { MPI_Init(&c, &v); MPI_Finalize(); }\n'
WRAPPER = '#!/bin/sh\n[ "${PMI_RANK:-0}" = 3 ] && sleep 3\nexec "$@"\n'

tmp = tempfile.mkdtemp(dir=os.environ.get('MICA_TMP'))
exe = os.path.join(tmp, 'prog')
with open(exe + '.c', 'w') as f:
    f.write(PROG)
subprocess.check_call([os.path.join(PREFIX, 'bin', 'mpicc'), '-o', exe, exe + '.c'])
with open(os.path.join(tmp, 'wrap'), 'w') as f:
    f.write(WRAPPER)
os.chmod(os.path.join(tmp, 'wrap'), 0o755)



def holding_segments():
    """The job's processes that hold a shared-memory segment (a memfd named mica-shm)."""
    pids = subprocess.run(['pgrep', '-f', exe], stdout=subprocess.PIPE, text=True).stdout.split()
    holders = set()
    for pid in pids:
        try:
            for fd in os.listdir('/proc/%s/fd' % pid):
                if os.readlink('/proc/%s/fd/%s' % (pid, fd)).startswith('/memfd:mica-shm'):
                    holders.add(pid)
        except OSError:
            pass
    return pids, holders


before = set(os.listdir('/dev/shm'))
p = subprocess.Popen([os.path.join(PREFIX, 'bin', 'mpiexec'), '-n', '4', os.path.join(tmp, 'wrap'),
                      exe], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
holders = set()
end = time.time() + 10
while time.time() < end and len(holders) < 3:  # ranks 0-2 have made their segments
    holders = holding_segments()[1]
    time.sleep(0.01)
if len(holders) < 3:
    print('FAIL: the ranks made no segments (%d)' % len(holders))
    p.kill()
    sys.exit(1)
# (rt_prog.c, another test's program that may run meanwhile, names its markers mica-*-rtN)
named = [n for n in set(os.listdir('/dev/shm')) - before
         if n.startswith('mica-') and not re.search(r'-rt\d+$', n)]
p.send_signal(signal.SIGKILL)
p.wait()
end = time.time() + 10                          # rank 3 starts after 3 s and fails at once
while time.time() < end:
    alive = holding_segments()[0]
    if not alive:
        break
    time.sleep(0.1)
if alive or named:
    print('FAIL: after mpiexec was killed: processes left %s; names in /dev/shm during the job '
          '%s' % (alive, named))
    sys.exit(1)
print('ok: every rank ended; no segment had a name in /dev/shm')
