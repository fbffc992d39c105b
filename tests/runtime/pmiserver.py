"""A minimal PMI-1 process manager for tests (over PMI_PORT): starts N processes, answers their
requests (init, maxes, kvsname, put, get, barrier) with the kvsname the test chooses, so the
test knows the job's id (Mica's jobid is its kvsname) before the ranks do."""
import os
import select
import socket
import subprocess
import time


class PMIServer:
    def __init__(self, n, kvsname='test'):
        self.n, self.kvsname = n, kvsname
        self.listener = socket.socket()
        self.listener.bind(('127.0.0.1', 0))
        self.listener.listen(max(8, n))
        self.conns, self.bufs, self.kvs, self.barrier = {}, {}, {}, []
        self.procs = []

    def start(self, argv, env=None, **popen):
        """Start the N ranks of argv."""
        for rank in range(self.n):
            e = dict(env or os.environ, PMI_PORT='127.0.0.1:%d' % self.listener.getsockname()[1],
                     PMI_ID=str(rank))
            e.pop('PMI_FD', None)
            self.procs.append(subprocess.Popen(argv, env=e, **popen))

    def serve(self, until, timeout=20, extra=()):
        """Answer requests until until() is true or timeout seconds pass; extra: more readable
        objects to wake for (until() reads them). True if until() became true."""
        end = time.time() + timeout
        while not until():
            if time.time() > end:
                return False
            ready, _, _ = select.select([self.listener] + list(self.conns) + list(extra), [], [],
                                        0.2)
            for r in ready:
                if r is self.listener:
                    c, _ = self.listener.accept()
                    self.conns[c], self.bufs[c] = None, b''
                elif r in self.conns:
                    self._read(r)
        return True

    def close(self):
        """Go away without a word."""
        for c in list(self.conns):
            c.close()
        self.conns.clear()
        self.listener.close()

    def _read(self, r):
        data = r.recv(4096)
        if not data:
            del self.conns[r]
            return
        self.bufs[r] += data
        while b'\n' in self.bufs[r]:
            line, self.bufs[r] = self.bufs[r].split(b'\n', 1)
            f = dict(w.split('=', 1) for w in line.decode().split() if '=' in w)
            self._answer(r, f.get('cmd'), f)

    def _answer(self, r, cmd, f):
        if cmd == 'initack':
            self.conns[r] = int(f['pmiid'])
            r.sendall(('cmd=initack rc=0\ncmd=set size=%d\ncmd=set rank=%d\ncmd=set debug=0\n'
                       % (self.n, self.conns[r])).encode())
        elif cmd == 'init':
            r.sendall(b'cmd=response_to_init rc=0 pmi_version=1 pmi_subversion=1\n')
        elif cmd == 'get_maxes':
            r.sendall(b'cmd=maxes rc=0 kvsname_max=256 keylen_max=64 vallen_max=1024\n')
        elif cmd == 'get_my_kvsname':
            r.sendall(('cmd=my_kvsname rc=0 kvsname=%s\n' % self.kvsname).encode())
        elif cmd == 'get_appnum':
            r.sendall(b'cmd=appnum rc=0 appnum=0\n')
        elif cmd == 'get_universe_size':
            r.sendall(b'cmd=universe_size rc=0 size=%d\n' % self.n)
        elif cmd == 'put':
            self.kvs[f['key']] = f['value']
            r.sendall(b'cmd=put_result rc=0\n')
        elif cmd == 'get':
            v = self.kvs.get(f['key'])
            r.sendall(('cmd=get_result rc=0 value=%s\n' % v if v is not None
                       else 'cmd=get_result rc=-1\n').encode())
        elif cmd == 'barrier_in':
            self.barrier.append(r)
            if len(self.barrier) == self.n:
                for b in self.barrier:
                    b.sendall(b'cmd=barrier_out rc=0\n')
                self.barrier.clear()
        elif cmd == 'finalize':
            r.sendall(b'cmd=finalize_ack rc=0\n')
