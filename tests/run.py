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
Scripts get MICA_PREFIX (the default build's install), MICA_BUILD (its build directory),
MICA_NOWEAK_PREFIX (the build without weak symbols), MICA_ROOT (the checkout) and MICA_TMP
(a fresh directory of their own).

  tests/run.py [-j N] [-k SUBSTRING]   run the tests whose path contains SUBSTRING
  tests/run.py --sanitize address      every test on the ASan + UBSan build (build/asan-weak);
                                       a sanitizer's report fails the test
  tests/run.py --sanitize thread       the threaded tests (their file names MPI_THREAD_MULTIPLE)
                                       on the TSan build (build/tsan-weak)
Sanitized programs are slower: the time limit is 4 times longer. Scripts that link libmpi.a
with the system's cc (c++, gfortran) find, first in PATH, one that adds the sanitizer's flags.
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
SANITIZE = ''


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


def threaded(path):
    """A threaded test: its file names MPI_THREAD_MULTIPLE (what SANITIZE=thread runs)."""
    with open(path, errors='replace') as f:
        return 'MPI_THREAD_MULTIPLE' in f.read()


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
    env.update(MICA_PREFIX=PREFIX, MICA_BUILD=BUILD, MICA_NOWEAK_PREFIX=NOWEAK_PREFIX,
               MICA_ROOT=ROOT, MICA_TMP=tmp)
    env['PATH'] = os.path.join(PREFIX, 'bin') + os.pathsep + env['PATH']
    if SANITIZE:
        env['PATH'] = os.path.join(BUILD, 'sancc') + os.pathsep + env['PATH']
        env.update(sanitizer_env())
    return env


def sanitizer_env():
    """The sanitizers' options: a report fails the program (exit status 1 or abort)."""
    supp = os.path.join(ROOT, 'tests', 'sanitize')
    # verify_asan_link_order=0: tests preload tools (LD_PRELOAD) before the ASan runtime, which
    # the program itself links; the runtime is still loaded at start-up, so that is sound.
    # allocator_may_return_null=1: tests ask for impossible sizes and expect MPI_ERR_NO_MEM.
    # The mica-prof tests run on Mica only: the other MPIs' programs are not under test here.
    return {
        'ASAN_OPTIONS': 'detect_leaks=1:verify_asan_link_order=0:allocator_may_return_null=1',
        'MICA_PROF_TEST_MPIS': os.environ.get('MICA_PROF_TEST_MPIS', 'mica'),
        'LSAN_OPTIONS': 'suppressions=' + os.path.join(supp, 'lsan.supp'),
        'UBSAN_OPTIONS': 'print_stacktrace=1:halt_on_error=1:suppressions='
                         + os.path.join(supp, 'ubsan.supp'),
        'TSAN_OPTIONS': 'halt_on_error=1:second_deadlock_stack=1:suppressions='
                        + os.path.join(supp, 'tsan.supp'),
    }


def sanitizer_cc():
    """The compilers, first in the scripts' PATH, adding the flags the installed mpicc adds."""
    with open(os.path.join(PREFIX, 'bin', 'mpicc')) as f:
        flags = re.search(r'^san="(.*)"$', f.read(), re.M).group(1)
    d = os.path.join(BUILD, 'sancc')
    os.makedirs(d, exist_ok=True)
    for name in ('cc', 'gcc', 'c++', 'g++', 'gfortran'):
        real = shutil.which(name)
        if real:
            with open(os.path.join(d, name), 'w') as f:
                f.write('#!/bin/sh\nexec %s %s "$@"\n' % (real, flags))
            os.chmod(os.path.join(d, name), 0o755)


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
    global PREFIX, NOWEAK_PREFIX, BUILD, SANITIZE, TIMEOUT
    ap = argparse.ArgumentParser()
    ap.add_argument('-j', type=int, default=os.cpu_count() or 2)
    ap.add_argument('-k', default='')
    ap.add_argument('--prefix')
    ap.add_argument('--sanitize', choices=['address', 'thread'], default='')
    args = ap.parse_args()
    SANITIZE = args.sanitize
    san = {'address': 'asan-', 'thread': 'tsan-'}.get(SANITIZE, '')
    BUILD = os.path.join(ROOT, 'build', san + 'weak')
    default_prefix = os.path.join(BUILD, 'install') if SANITIZE else os.path.join(ROOT, 'install')
    PREFIX = os.path.abspath(args.prefix or default_prefix)
    # The build without weak symbols, which a few scripts link, stays uninstrumented: the same
    # sources as the default build, and half the time of a sanitizer run.
    NOWEAK_PREFIX = os.path.join(ROOT, 'build', 'noweak', 'install')
    build(PREFIX, *(['SANITIZE=' + SANITIZE] if SANITIZE else []))
    build(NOWEAK_PREFIX, 'NO_WEAK=1')
    if SANITIZE:
        TIMEOUT *= 4
        sanitizer_cc()
    todo = [c for p in discover(args.k) if SANITIZE != 'thread' or threaded(p) for c in cases(p)]
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
