#!/usr/bin/env python3
"""Mica's test runner: runs every test under tests/ and ends with 'N passed, N failed'.

Kinds of tests, found by name:
  t_*.c        an MPI program: compiled with mpicc, run on each process count its first line
               names (`/* np: 1 2 4 */`; none: run once as a singleton, without mpiexec);
               it passes when it exits 0.
  t_*.f90      the same in Fortran (`! np: 2 4` first line), compiled with mpifort; skipped
               when Mica was built without a Fortran compiler (no bin/mpifort).
  t_*.cc       the same in C++ (`// np: 2 4` first line), compiled with mpicxx; skipped when
               Mica was built without a C++ compiler (no bin/mpicxx).
  test_*.sh    a script run with bash; test_*.py a script run with python3.
               Exit 0 passes, 77 skips, anything else fails.
Scripts get MICA_PREFIX (the default build's install), MICA_NOWEAK_PREFIX (the build without
weak symbols), MICA_ROOT (the checkout) and MICA_TMP (a fresh directory of their own).

  tests/run.py [-j N] [-k SUBSTRING]   run the tests whose path contains SUBSTRING
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIMEOUT = 90


def build(prefix, *args):
    """Build and install one configuration; the output is shown only if it fails."""
    cmd = ['make', '-s', '-j%d' % (os.cpu_count() or 2), 'PREFIX=' + prefix] + list(args)
    r = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode:
        sys.stdout.write(r.stdout)
        sys.exit('build failed: %s' % ' '.join(cmd))


def discover(pattern):
    found = []
    for d, _, files in os.walk(os.path.join(ROOT, 'tests')):
        for f in sorted(files):
            path = os.path.join(d, f)
            if re.match(r't_.*\.(c|cc|f90)$', f) or re.match(r'test_.*\.(sh|py)$', f):
                if pattern in os.path.relpath(path, ROOT):
                    found.append(path)
    return sorted(found)


def process_counts(path):
    with open(path) as f:
        m = re.match(r'(?:/\*|!|//)\s*np:\s*([\d ]+)', f.readline())
    return [int(n) for n in m.group(1).split()] if m else [None]


def run(cmd, env, cwd):
    try:
        r = subprocess.run(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=TIMEOUT,
                           errors='replace')
        return r.returncode, r.stdout
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors='replace') if isinstance(e.stdout, bytes) else (e.stdout or '')
        return -1, out + '\n(timed out after %d s)' % TIMEOUT


def cases(path):
    """(name, function returning (status, output)) for each run of one test file."""
    rel = os.path.relpath(path, ROOT)
    if path.endswith(('.c', '.cc', '.f90')):
        out = []
        for np in process_counts(path):
            name = rel if np is None else '%s (np=%d)' % (rel, np)
            out.append((name, lambda tmp, np=np: run_program(path, np, tmp)))
        return out
    interp = 'bash' if path.endswith('.sh') else sys.executable
    return [(rel, lambda tmp: run([interp, path], env_for(tmp), os.path.dirname(path)))]


def env_for(tmp):
    env = dict(os.environ)
    env.update(MICA_PREFIX=PREFIX, MICA_NOWEAK_PREFIX=NOWEAK_PREFIX, MICA_ROOT=ROOT, MICA_TMP=tmp)
    env['PATH'] = os.path.join(PREFIX, 'bin') + os.pathsep + env['PATH']
    return env


def run_program(path, np, tmp):
    exe = os.path.join(tmp, 'prog')
    if path.endswith('.f90'):
        fc = os.path.join(PREFIX, 'bin', 'mpifort')
        if not os.path.exists(fc):
            return 77, 'no mpifort: Mica was built without a Fortran compiler'
        # No -Werror: without interfaces, gfortran warns about buffers of different types.
        compile_cmd = [fc, '-Wall', '-o', exe, path]
    elif path.endswith('.cc'):
        cxx = os.path.join(PREFIX, 'bin', 'mpicxx')
        if not os.path.exists(cxx):
            return 77, 'no mpicxx: Mica was built without a C++ compiler'
        compile_cmd = [cxx, '-Wall', '-Wextra', '-Werror', '-o', exe, path]
    else:
        compile_cmd = [os.path.join(PREFIX, 'bin', 'mpicc'), '-Wall', '-Werror', '-o', exe, path]
    rc, out = run(compile_cmd, env_for(tmp), tmp)
    if rc:
        return 'fail', 'compile failed:\n' + out
    cmd = [exe] if np is None else [os.path.join(PREFIX, 'bin', 'mpiexec'), '-n', str(np), exe]
    rc, out = run(cmd, env_for(tmp), tmp)
    return ('pass' if rc == 0 else 'fail'), out + ('' if rc == 0 else '\n(exit status %d)' % rc)


def one(name, fn):
    tmp = tempfile.mkdtemp(prefix='mica-test-')
    t = time.time()
    try:
        result = fn(tmp)
        if isinstance(result[0], int):
            rc, out = result
            result = ('pass' if rc == 0 else 'skip' if rc == 77 else 'fail', out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return name, result[0], result[1], time.time() - t


def main():
    global PREFIX, NOWEAK_PREFIX
    ap = argparse.ArgumentParser()
    ap.add_argument('-j', type=int, default=os.cpu_count() or 2)
    ap.add_argument('-k', default='')
    ap.add_argument('--prefix', default=os.path.join(ROOT, 'install'))
    args = ap.parse_args()
    PREFIX = os.path.abspath(args.prefix)
    NOWEAK_PREFIX = os.path.join(ROOT, 'build', 'noweak', 'install')
    build(PREFIX)
    build(NOWEAK_PREFIX, 'NO_WEAK=1')
    todo = [c for p in discover(args.k) for c in cases(p)]
    counts = {'pass': 0, 'fail': 0, 'skip': 0}
    with concurrent.futures.ThreadPoolExecutor(args.j) as pool:
        for name, status, out, secs in pool.map(lambda c: one(*c), todo):
            counts[status] += 1
            print('%-4s %s (%.1f s)' % (status.upper(), name, secs), flush=True)
            if status != 'pass' and out.strip():
                print('     | ' + out.rstrip().replace('\n', '\n     | '), flush=True)
    print('%d passed, %d failed, %d skipped' % (counts['pass'], counts['fail'], counts['skip']))
    return 1 if counts['fail'] or not counts['pass'] else 0


if __name__ == '__main__':
    sys.exit(main())
