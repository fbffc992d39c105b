"""Nothing left behind when the launcher is killed with SIGKILL during start-up (issue 9,
point 4): three ranks have made their shared-memory segments and wait for the fourth, which
starts late; mpiexec dies; every rank ends and every segment is gone."""
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

before = set(os.listdir('/dev/shm'))
p = subprocess.Popen([os.path.join(PREFIX, 'bin', 'mpiexec'), '-n', '4', os.path.join(tmp, 'wrap'),
                      exe], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
mine = set()
end = time.time() + 10
while time.time() < end and len(mine) < 3:    # ranks 0-2 have made their segments
    mine = {n for n in set(os.listdir('/dev/shm')) - before if re.match(r'mica-.*-[0-2]$', n)}
    time.sleep(0.01)
if len(mine) < 3:
    print('FAIL: the ranks made no segments (%s)' % ' '.join(sorted(mine)))
    p.kill()
    sys.exit(1)
p.send_signal(signal.SIGKILL)
p.wait()
prefix = sorted(mine)[0].rsplit('-', 1)[0]
end = time.time() + 10                          # rank 3 starts after 3 s and fails at once
while time.time() < end:
    left = [n for n in os.listdir('/dev/shm') if n.startswith(prefix)]
    alive = subprocess.run(['pgrep', '-f', exe], stdout=subprocess.PIPE, text=True).stdout.split()
    if not left and not alive:
        print('ok: every rank ended and nothing was left in /dev/shm')
        sys.exit(0)
    time.sleep(0.1)
print('FAIL: left behind after mpiexec was killed: segments %s, processes %s' % (left, alive))
for n in left:
    os.unlink('/dev/shm/' + n)
sys.exit(1)
