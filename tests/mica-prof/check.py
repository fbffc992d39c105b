#!/usr/bin/env python3
"""Assertions on mica-prof reports, for the tests in this directory.

  check.py counts REPORT NP          the exact calls, bytes, matrix and histograms of counts.c
  check.py colls REPORT NP           colls.c: bytes of the other collectives, Sendrecv, one-sided
  check.py pcontrol REPORT NP        pcontrol.c: what MPI_Pcontrol levels 0/1/2 leave
  check.py matrix REPORT NP          matrix.c: world ranks through a reordered communicator
  check.py fortran REPORT NP         fortran.f90: each Fortran call counted once, sites in .f90
  check.py fortran08 REPORT NP       fortran08.f90 (use mpi_f08): each call counted once, at its line
  check.py spawn REPORT 1            spawn.f90: MPI_COMM_SPAWN's string arrays pass through
  check.py threads REPORT NP NT NM   threads.c: NT threads x NM messages per rank, exact
  check.py sites REPORT              sites.c + libsite.so: file:line in a PIE and a shared library
  check.py partial DIR NP REASON     per-rank files of a job that did not reach MPI_Finalize
                                     (REASON: exit, abort, signal)
  check.py trace FILE REPORT         a Chrome trace-event file with one event per recorded call
  check.py simple REPORT NP          app.c: the small program of the launch/link tests
"""
import glob
import json
import sys


def fail(msg):
    sys.exit('FAIL: ' + msg)


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except Exception as e:  # noqa: BLE001
        fail('%s is not valid JSON: %s' % (path, e))


def funcs(rep):
    return {f['name']: f for f in rep['functions']}


def expect(fn, name, calls=None, sent=None, recv=None, per_rank=None):
    f = fn.get(name)
    if f is None:
        fail('%s missing from the report (have %s)' % (name, sorted(fn)))
    for key, want in (('calls', calls), ('bytes_sent', sent), ('bytes_recv', recv)):
        if want is not None and f[key] != want:
            fail('%s %s = %s, expected %s' % (name, key, f[key], want))
    if per_rank is not None and f['per_rank_calls'] != per_rank:
        fail('%s per-rank calls %s, expected %s' % (name, f['per_rank_calls'], per_rank))


def absent(fn, *names):
    for n in names:
        if n in fn:
            fail('%s should not be in the report: %s' % (n, fn[n]))


def basic(rep, np):
    if rep.get('tool') != 'mica-prof' or rep.get('complete') is not True:
        fail('not a complete mica-prof report')
    if rep['ranks'] != np or len(rep['per_rank']) != np:
        fail('ranks = %s, expected %d' % (rep['ranks'], np))
    for r in rep['per_rank']:
        # (with several threads, MPI time is their sum and may exceed the wall time)
        if (r['threads'] == 1 and not r['mpi_time'] <= r['collected_time'] + 1e-6) or r['run_time'] <= 0:
            fail('rank times inconsistent: %s' % r)
    total = sum(f['time'] for f in rep['functions'])
    if abs(total - rep['mpi_time']['total']) > 1e-3 * max(1.0, total):
        fail('function times %g do not add up to the MPI time %g' % (total, rep['mpi_time']['total']))


def hist_count(rep, cat):
    return sum(b['count'] for b in rep['histograms'][cat]['buckets'])


def counts(rep, np):
    basic(rep, np)
    fn = funcs(rep)
    n = np
    expect(fn, 'MPI_Isend', 5 * n, 5 * 8000 * n, 0)
    expect(fn, 'MPI_Recv', 5 * n + 3, 0, 5 * 8000 * n + 3 * 2 ** 31)
    expect(fn, 'MPI_Wait', 5 * n, 0, 0)
    expect(fn, 'MPI_Send', 3 * n + 3, 24, 0, [6] + [3] * (n - 1))
    expect(fn, 'MPI_Bcast', 2 * n, 2 * 1024, 2 * 1024 * (n - 1))
    expect(fn, 'MPI_Allreduce', 3 * n, 3 * 80 * n, 3 * 80 * n)
    expect(fn, 'MPI_Reduce', n, 28 * n, 28)
    expect(fn, 'MPI_Gather', n, 12 * n, 12 * n)
    expect(fn, 'MPI_Alltoall', n, 8 * n * n, 8 * n * n)
    expect(fn, 'MPI_Allgatherv', n, n * (n + 1) // 2, n * n * (n + 1) // 2)
    expect(fn, 'MPI_Barrier', 4 * n, 0, 0)
    expect(fn, 'MPI_Send_init', n, 0, 0)
    expect(fn, 'MPI_Recv_init', n, 0, 0)
    expect(fn, 'MPI_Startall', 3 * n, 3 * 16 * n, 3 * 16 * n)
    expect(fn, 'MPI_Waitall', 3 * n, 0, 0)
    expect(fn, 'MPI_Request_free', 2 * n, 0, 0)
    expect(fn, 'MPI_Init', n)
    expect(fn, 'MPI_Comm_rank', n)
    expect(fn, 'MPI_Comm_size', n)
    if fn['MPI_Recv']['rank_calls'] != {'min': 5, 'max': 8}:
        fail('MPI_Recv rank_calls %s' % fn['MPI_Recv']['rank_calls'])
    m = rep['matrix']
    for r in range(n):
        for c in range(n):
            b = (5 * 8000 + 3 * 16 if c == (r + 1) % n else 0) + (24 if (r, c) == (0, 1) else 0)
            k = (8 if c == (r + 1) % n else 0) + (3 if (r, c) == (0, 1) else 0)
            if m['bytes'][r][c] != b or m['messages'][r][c] != k:
                fail('matrix[%d][%d] = %s bytes %s messages, expected %d, %d' % (
                    r, c, m['bytes'][r][c], m['messages'][r][c], b, k))
    if any(m['outside_bytes']) or any(m['outside_messages']):
        fail('bytes outside MPI_COMM_WORLD: %s' % m)
    if hist_count(rep, 'p2p') != 8 * n + 3:
        fail('p2p histogram has %d messages, expected %d' % (hist_count(rep, 'p2p'), 8 * n + 3))
    if rep['histograms']['p2p']['bytes'] != n * (40000 + 48) + 24:
        fail('p2p histogram bytes %d' % rep['histograms']['p2p']['bytes'])
    if hist_count(rep, 'coll') != 13 * n:
        fail('collective histogram has %d operations, expected %d' % (hist_count(rep, 'coll'), 13 * n))
    b = {(x['lo'], x['hi']): x['count'] for x in rep['histograms']['p2p']['buckets']}
    if b.get((4096, 8191)) != 5 * n or b.get((16, 31)) != 3 * n or b.get((8, 15)) != 3:
        fail('p2p histogram buckets %s' % b)
    sites = [s for s in rep['sites'] if s['function'] == 'MPI_Isend']
    if len(sites) != 1 or sites[0]['calls'] != 5 * n or 'counts.c:' not in sites[0]['location'][0]:
        fail('MPI_Isend call site: %s' % sites)


def pcontrol(rep, np):
    basic(rep, np)
    fn = funcs(rep)
    # everything before MPI_Pcontrol(2) is gone; 4 sends per rank, 1 bcast, Pcontrol(0) and (3)
    expect(fn, 'MPI_Send', 4 * np, 4 * 4 * np, 0)
    expect(fn, 'MPI_Recv', 4 * np, 0, 4 * 4 * np)
    expect(fn, 'MPI_Bcast', np)
    expect(fn, 'MPI_Pcontrol', 2 * np)
    absent(fn, 'MPI_Barrier', 'MPI_Init', 'MPI_Allreduce', 'MPI_Comm_rank')
    if rep['resets'] != 1:
        fail('resets = %s' % rep['resets'])


def matrix(rep, np):
    basic(rep, np)
    m = rep['matrix']
    # matrix.c: in a communicator with the ranks reversed, rank i sends (i+1) * 100 bytes to
    # its next rank; and on MPI_COMM_WORLD pairs r, r^1 exchange 8 bytes (Sendrecv).
    for r in range(np):
        for c in range(np):
            want = 0
            i = np - 1 - r                 # r's rank in the reversed communicator
            if c == np - 1 - ((i + 1) % np):
                want += (i + 1) * 100
            if c == r ^ 1:
                want += 8
            if m['bytes'][r][c] != want:
                fail('matrix[%d][%d] = %d, expected %d: %s' % (r, c, m['bytes'][r][c], want, m['bytes']))
    fn = funcs(rep)
    expect(fn, 'MPI_Sendrecv', np, 8 * np, 8 * np)
    expect(fn, 'MPI_Comm_split', np)
    expect(fn, 'MPI_Comm_dup', np)
    expect(fn, 'MPI_Comm_free', 2 * np)


def fortran(rep, np):
    basic(rep, np)
    fn = funcs(rep)
    expect(fn, 'MPI_Send', 11, 4020, 0)
    expect(fn, 'MPI_Recv', 11, 0, 4020)
    expect(fn, 'MPI_Bcast', np, 80, 80 * (np - 1))
    expect(fn, 'MPI_Allreduce', np, 16 * np, 16 * np)
    expect(fn, 'MPI_Allgather', np, 16 * np, 16 * np * np)
    expect(fn, 'MPI_Comm_split', np)
    expect(fn, 'MPI_Comm_free', np)
    expect(fn, 'MPI_Init', np)
    expect(fn, 'MPI_Pcontrol', np)
    absent(fn, 'MPI_Barrier')
    m = rep['matrix']['bytes']
    if m[0][1] != 4000 or m[1][0] != 20:
        fail('Fortran matrix %s' % m)
    s = [x for x in rep['sites'] if x['function'] == 'MPI_Send']
    if not s or not all('fortran.f90:' in x['location'][0] for x in s):
        fail('Fortran call sites: %s' % s)


def fortran08(rep, np):
    basic(rep, np)
    fn = funcs(rep)
    expect(fn, 'MPI_Send', 10, 4000, 0)
    expect(fn, 'MPI_Recv', 10, 0, 4000)
    expect(fn, 'MPI_Allreduce', np, 16 * np, 16 * np)
    expect(fn, 'MPI_Init', np)
    expect(fn, 'MPI_Comm_rank', np)
    # the call site is the program's line, not a frame of the MPI's Fortran library
    for name in ('MPI_Send', 'MPI_Allreduce', 'MPI_Comm_rank'):
        s = [x for x in rep['sites'] if x['function'] == name]
        if not s or 'fortran08.f90:' not in s[0]['location'][0]:
            fail('%s call site: %s' % (name, s))


def spawn(rep, np):
    basic(rep, np)
    fn = funcs(rep)
    expect(fn, 'MPI_Comm_spawn', 1)
    expect(fn, 'MPI_Recv', 1, 0, 4)
    expect(fn, 'MPI_Comm_disconnect', 1)
    s = [x for x in rep['sites'] if x['function'] == 'MPI_Comm_spawn']
    if not s or 'spawn.f90:' not in s[0]['location'][0]:
        fail('MPI_Comm_spawn call site: %s' % s)


def threads(rep, np, nt, nm):
    basic(rep, np)
    fn = funcs(rep)
    expect(fn, 'MPI_Send', np * nt * nm, np * nt * nm * 64, 0)
    expect(fn, 'MPI_Recv', np * nt * nm, 0, np * nt * nm * 64)
    for r in rep['per_rank']:
        if r['threads'] < nt:
            fail('rank %d recorded %d threads, expected at least %d' % (r['rank'], r['threads'], nt))
    m = rep['matrix']['messages']
    for a in range(np):
        for b in range(np):
            want = nt * nm if b == (a + 1) % np else 0
            if m[a][b] != want:
                fail('thread matrix %s' % m)


def sites(rep):
    fn = funcs(rep)
    ss = rep['sites']

    def find(func, text):
        return [s for s in ss if s['function'] == func and any(text in l for l in s['location'])]
    a = find('MPI_Allreduce', 'libsite.c:')
    if not a:
        fail('no MPI_Allreduce site in libsite.c (shared library): %s' % ss)
    b = find('MPI_Barrier', 'sites.c:')
    if not b:
        fail('no MPI_Barrier site in sites.c (PIE executable): %s' % ss)
    if rep['options']['depth'] >= 2:
        if not any(len(s['location']) >= 2 and 'sites.c:' in s['location'][1] for s in a):
            fail('depth 2: the caller of the library function is missing: %s' % a)
    expect(fn, 'MPI_Allreduce', 2 * rep['ranks'])


def partial(d, np, reason):
    files = sorted(glob.glob(d + '/mica-prof.*.rank*.json'))
    ranks = {}
    for f in files:
        r = load(f)
        if r['complete'] is not False or r['tool'] != 'mica-prof':
            fail('%s: not a partial per-rank report' % f)
        ranks[r['rank']] = r
    if reason == 'exit':
        if sorted(ranks) != list(range(np)):
            fail('per-rank files for ranks %s, expected all of 0..%d' % (sorted(ranks), np - 1))
        for r in ranks.values():
            fn = funcs(r)
            if r['reason'] != 'exit without MPI_Finalize':
                fail('reason %r' % r['reason'])
            expect_p(fn, 'MPI_Isend', 3, 3 * 80)
            expect_p(fn, 'MPI_Barrier', 1)
            if not any('noexit.c:' in s['location'][0] for s in r['sites']):
                fail('partial sites not resolved: %s' % r['sites'])
    elif reason == 'abort':
        if 0 not in ranks:
            fail('no per-rank file of the rank that called MPI_Abort: %s' % files)
        if ranks[0]['reason'] != 'MPI_Abort':
            fail('reason %r' % ranks[0]['reason'])
        expect_p(funcs(ranks[0]), 'MPI_Isend', 3, 3 * 80)
        expect_p(funcs(ranks[0]), 'MPI_Abort', 0)
    elif reason == 'signal':
        if 1 not in ranks or not ranks[1]['reason'].startswith('signal'):
            fail('no per-rank file of the rank killed by a signal: %s' % [(k, v['reason']) for k, v in ranks.items()])
        expect_p(funcs(ranks[1]), 'MPI_Isend', 3, 3 * 80)


def expect_p(fn, name, calls, sent=None):
    f = fn.get(name)
    if calls == 0:
        if f is not None and f['calls']:
            fail('%s should not be counted yet: %s' % (name, f))
        return
    if f is None or f['calls'] != calls or (sent is not None and f['bytes_sent'] != sent):
        fail('%s: %s, expected %d calls%s' % (name, f, calls, '' if sent is None else ', %d bytes' % sent))


def trace(path, rep_path):
    t = load(path)
    rep = load(rep_path)
    ev = [e for e in t['traceEvents'] if e.get('ph') == 'X']
    calls = sum(f['calls'] for f in rep['functions'])
    if len(ev) != calls:
        fail('trace has %d events, the report %d calls' % (len(ev), calls))
    for e in ev:
        if e['dur'] < 0 or e['ts'] < -1e6 or not e['name'].startswith('MPI_'):
            fail('bad event %s' % e)
    names = {e['pid'] for e in t['traceEvents'] if e.get('ph') == 'M'}
    if names != set(range(rep['ranks'])):
        fail('process names for %s' % names)


def colls(rep, np):
    basic(rep, np)
    fn = funcs(rep)
    n = np
    t = n * (n + 1) // 2                  # counts i + 1 over the ranks
    expect(fn, 'MPI_Scatter', n, 8 * n, 8 * n)
    expect(fn, 'MPI_Gatherv', n, 4 * t, 4 * t)
    expect(fn, 'MPI_Scatterv', n, 8 * t, 8 * t)
    expect(fn, 'MPI_Allgather', n, 12 * n, 12 * n * n)
    expect(fn, 'MPI_Alltoallv', n, 4 * n * n, 4 * n * n)
    expect(fn, 'MPI_Alltoallw', n, 4 * n * n, 4 * n * n)
    expect(fn, 'MPI_Reduce_scatter', n, 4 * t * n, 4 * t)
    expect(fn, 'MPI_Reduce_scatter_block', n, 16 * n * n, 16 * n)
    expect(fn, 'MPI_Scan', n, 20 * n, 20 * n)
    expect(fn, 'MPI_Exscan', n, 20 * n, 20 * n)
    expect(fn, 'MPI_Ibcast', n, 32, 32 * (n - 1))
    expect(fn, 'MPI_Iallreduce', n, 24 * n, 24 * n)
    expect(fn, 'MPI_Neighbor_allgather', n, 8 * n, 8 * n)
    expect(fn, 'MPI_Neighbor_alltoallv', n, 16 * n, 16 * n)
    expect(fn, 'MPI_Sendrecv', n, 4 * n, 4 * n)
    if 'MPI_Put' in fn:                   # (Open MPI may make no window)
        expect(fn, 'MPI_Put', 2 * n, 12 * n, 0)
        expect(fn, 'MPI_Get', n, 0, 8 * n)
        expect(fn, 'MPI_Compare_and_swap', n, 8 * n, 4 * n)
    if 'MPI_Bcast_init' in fn:
        expect(fn, 'MPI_Bcast_init', n, 0, 0)
        expect(fn, 'MPI_Start', 2 * n, 2 * 8, 2 * 8 * (n - 1))
    if 'MPI_Put' in fn and hist_count(rep, 'rma') != 4 * n:
        fail('one-sided histogram has %d operations, expected %d' % (hist_count(rep, 'rma'), 4 * n))


def simple(rep, np):
    basic(rep, np)
    fn = funcs(rep)
    expect(fn, 'MPI_Send', np - 1, 400 * (np - 1), 0)
    expect(fn, 'MPI_Recv', np - 1, 0, 400 * (np - 1))
    expect(fn, 'MPI_Allreduce', np, 8 * np, 8 * np)
    expect(fn, 'MPI_Init', np)


def main():
    a = sys.argv[1:]
    cmd = a[0]
    if cmd == 'partial':
        partial(a[1], int(a[2]), a[3])
    elif cmd == 'trace':
        trace(a[1], a[2])
    elif cmd == 'sites':
        sites(load(a[1]))
    elif cmd == 'threads':
        threads(load(a[1]), int(a[2]), int(a[3]), int(a[4]))
    else:
        globals()[cmd](load(a[1]), int(a[2]))
    print('ok: %s' % ' '.join(a))


if __name__ == '__main__':
    main()
