#!/usr/bin/env python3
"""Run MPICH's own test suite (test/mpi of an MPICH source tree) against an
MPI implementation, and compare two such runs.

The MPICH source tree is given with --mpich-src; this script never fetches
anything.  Each implementation gets its own build directory under --work
(a copy of test/mpi, configured in place), so runs do not clash.

Build and run against Mica (prefix = the directory `make` installed into):

    tools/mpich_suite.py --mpich-src <mpich-src> --work <scratch> \\
        --impl mica --prefix <mica>/install --dirs pt2pt,coll --out mica.tsv

Build and run against MPICH itself (Debian's mpicc.mpich, mpiexec.mpich):

    tools/mpich_suite.py --mpich-src <mpich-src> --work <scratch> \\
        --impl mpich --dirs pt2pt,coll --out mpich.tsv

Compare:

    tools/mpich_suite.py --compare mica.tsv mpich.tsv

A result file is TSV: dir, name, np, args, status, seconds, xfail.
status is pass, fail, timeout, compile-fail, skip (strict=false in strict
mode, mpiversion= above --mpi-version, mem= above --memory-total) or test-skipped (the program printed
"Test Skipped", which MPICH's runtests counts as skipped).
"""

import argparse
import concurrent.futures
import os
import re
import shutil
import signal
import subprocess
import sys
import time

GRACE = 10                            # seconds the script waits beyond an entry's time limit
CONFIGURE_ARGS = ["--enable-strictmpi", "--disable-spawn", "--enable-threads=multiple",
                  "--disable-ft-tests", "--disable-perftest", "--enable-fortran=all"]

FORTRAN_DIRS = ("f77", "f90", "f08")
CXX_DIRS = ("cxx",)


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def run(cmd, cwd, logfile, env=None):
    log("+ (cd %s && %s) > %s" % (cwd, " ".join(cmd), logfile))
    with open(logfile, "a") as f:
        return subprocess.call(cmd, cwd=cwd, stdout=f, stderr=subprocess.STDOUT,
                               env=env)


# ---------------------------------------------------------------- building

def toolchain(args):
    if args.impl == "mpich":
        return {"CC": "mpicc.mpich", "CXX": "mpicxx.mpich",
                "FC": "mpifort.mpich", "F77": "mpifort.mpich",
                "MPIEXEC": "mpiexec.mpich"}
    if not args.prefix:
        sys.exit("--impl %s needs --prefix (the install directory)" % args.impl)
    b = os.path.join(os.path.abspath(args.prefix), "bin")
    return {"CC": os.path.join(b, "mpicc"), "CXX": os.path.join(b, "mpicxx"),
            "FC": os.path.join(b, "mpifort"), "F77": os.path.join(b, "mpifort"),
            "MPIEXEC": os.path.join(b, "mpiexec")}


def prepared_source(args):
    """test/mpi with a configure script: the source itself if autogen.sh was
    run there already, else a copy under --work on which autogen.sh is run."""
    src = os.path.abspath(args.mpich_src)
    tm = os.path.join(src, "test", "mpi")
    if not os.path.isdir(tm):
        sys.exit("%s: no test/mpi here" % src)
    if os.path.exists(os.path.join(tm, "configure")):
        return tm
    dst = os.path.join(args.work, "src")
    if os.path.exists(os.path.join(dst, "configure")):
        return dst
    if os.path.exists(dst):
        shutil.rmtree(dst)
    shutil.copytree(tm, dst, symlinks=True)
    # autogen.sh copies ../../maint/version.m4 and ../../confdb (into
    # dtpools/confdb) unless they are there already
    shutil.copy(os.path.join(src, "maint", "version.m4"), dst)
    if not os.path.exists(os.path.join(dst, "dtpools", "confdb")):
        shutil.copytree(os.path.join(src, "confdb"),
                        os.path.join(dst, "dtpools", "confdb"), symlinks=True)
    env = dict(os.environ, MPICH_CONFDB=os.path.join(src, "confdb"))
    if run(["./autogen.sh"], dst, os.path.join(args.work, "autogen.log"), env):
        sys.exit("autogen.sh failed: see %s/autogen.log" % args.work)
    # Releases (v4.0.2) leave configure to MPICH's top-level autogen: autoreconf here, with
    # the tree's confdb.
    if not os.path.exists(os.path.join(dst, "configure")):
        if not os.path.exists(os.path.join(dst, "confdb")):
            shutil.copytree(os.path.join(src, "confdb"), os.path.join(dst, "confdb"),
                            symlinks=True)
        if run(["autoreconf", "-fi"], dst, os.path.join(args.work, "autogen.log"), env):
            sys.exit("autoreconf failed: see %s/autogen.log" % args.work)
    # MPICH's own binding generator writes include/mtest_mpix.h, which maps standard names to
    # its MPIX_ ones: without it (a release's test/mpi alone) the tests use the standard names.
    mpix = os.path.join(dst, "include", "mtest_mpix.h")
    if not os.path.exists(mpix):
        with open(mpix, "w") as f:
            f.write("#ifndef MTEST_MPIX_H_INCLUDED\n#define MTEST_MPIX_H_INCLUDED\n#endif\n")
    return dst


def build(args, bdir, dirs):
    os.makedirs(args.work, exist_ok=True)
    if not os.path.exists(os.path.join(bdir, "Makefile")):
        src = prepared_source(args)
        if os.path.exists(bdir):
            shutil.rmtree(bdir)
        shutil.copytree(src, bdir, symlinks=True)
        # configure keeps the f08 tests for builds inside MPICH's tree (FROM_MPICH); here
        # its own check that mpi_f08 works decides, as for f77 and f90.
        conf = os.path.join(bdir, "configure")
        with open(conf) as f:
            text = f.read()
        text = text.replace('if test "$enable_f08" = "yes" -a "$FROM_MPICH" = "yes" ; then',
                            'if test "$enable_f08" = "yes" ; then')
        with open(conf, "w") as f:
            f.write(text)
        tc = toolchain(args)
        # configure takes the compilers from MPICC, MPICXX, MPIF77, MPIFC (it
        # looks for mpicc in PATH otherwise, whatever CC says)
        tc.update(MPICC=tc["CC"], MPICXX=tc["CXX"], MPIF77=tc["F77"], MPIFC=tc["FC"])
        cmd = ["./configure"] + ["%s=%s" % kv for kv in tc.items()] \
            + CONFIGURE_ARGS + args.configure_arg
        if run(cmd, bdir, os.path.join(bdir, "configure.log")):
            sys.exit("configure failed: see %s/configure.log" % bdir)
    j = "-j%d" % args.jobs
    # support libraries first: mtest (util) and dtpools (linked by every test)
    for d in ("util", "dtpools"):
        run(["make", "-k", j], os.path.join(bdir, d),
            os.path.join(bdir, "make-%s.log" % d))
    # The top Makefile leaves f08 out of its SUBDIRS (MPICH's runtests builds it on demand):
    # a whole build makes it too when configure kept it.
    whole = ["."]
    with open(os.path.join(bdir, "Makefile")) as f:
        if re.search(r"^f08dir = f08$", f.read(), re.M):
            whole.append("f08")
    for d in dirs or whole:
        name = "all" if d == "." else d.replace("/", "_")
        run(["make", "-k", j], os.path.join(bdir, d),
            os.path.join(bdir, "make-%s.log" % name))


# ---------------------------------------------------------------- testlists

def parse_version(s):
    try:
        return tuple(int(x) for x in s.split("."))
    except ValueError:
        return (0,)


def load_tests(bdir, rel, lists, out):
    """Reads the testlist files of directory rel (relative to bdir), as
    runtests does: '#' comments, a line naming a subdirectory recurses,
    otherwise 'program [np [key=value ...]]'."""
    d = os.path.join(bdir, rel)
    for lname in lists:
        path = os.path.join(d, lname)
        if not os.path.isfile(path):
            continue
        with open(path) as f:
            for line in f:
                line = line.split("#", 1)[0].strip()
                if not line or line.startswith("!"):
                    continue
                words = line.split()
                prog = words[0]
                if os.path.isdir(os.path.join(d, prog)):
                    load_tests(bdir, os.path.normpath(os.path.join(rel, prog)),
                               lists, out)
                    continue
                t = {"dir": rel, "name": prog, "np": 1, "args": [], "env": [],
                     "opts": {}, "list": lname}
                if len(words) > 1:
                    t["np"] = int(words[1])
                for kv in words[2:]:
                    if "=" not in kv:
                        continue
                    k, v = kv.split("=", 1)
                    if k == "arg":
                        t["args"].append(v)
                    elif k == "env":
                        t["env"].append(v)
                    else:
                        t["opts"][k] = v
                if "/" in prog:
                    sub, t["name"] = prog.rsplit("/", 1)
                    t["dir"] = os.path.normpath(os.path.join(rel, sub))
                out.append(t)


def selected(rel, dirs):
    if not dirs:
        return True
    return any(rel == d or rel.startswith(d + "/") for d in dirs)


# ---------------------------------------------------------------- running

NOERR = re.compile(r"^\s*No [Ee]rrors\s*$")
SKIPPED = re.compile(r"^\s*Test Skipped\s*$")
WARNING = re.compile(r"^(MPICH: |WARNING: |(Abort.*)?application called MPI_Abort)")
IGNORED = re.compile(r"(FORTRAN STOP|requesting checkpoint|checkpoint completed)\s*$")


def judge(output, rc, result_test):
    """MPICH runtests' check_result and resultTest functions."""
    noerr = skipped = warn = stray = 0
    for line in output.splitlines():
        if NOERR.match(line) and not noerr:
            noerr = 1
        elif SKIPPED.match(line):
            skipped += 1
        elif WARNING.match(line):
            warn += 1
        elif IGNORED.search(line):
            pass
        else:
            stray += 1
    rt = result_test or "TestNormal"
    if rt in ("TestNormal", "TestAllowWarnings"):
        bad = (not noerr and not skipped) or stray or \
            (warn and rt == "TestNormal") or rc != 0
        if not bad and skipped:
            return "test-skipped"
        return "fail" if bad else "pass"
    if rt == "TestStatus" or rt == "TestErrFatal":
        return "pass" if rc != 0 else "fail"
    if rt == "TestStatusNoErrors":
        return "pass" if noerr and not stray and rc != 0 else "fail"
    if rt == "TestBench":
        return "pass" if rc == 0 else "fail"
    return "fail"


def run_one(t, bdir, mpiexec, args, logdir, idx):
    key_args = " ".join(t["args"] + t["env"])
    row = [t["dir"], t["name"], str(t["np"]), key_args]
    xfail = t["opts"].get("xfail", "")
    if t["opts"].get("strict", "").lower() == "false" and args.strict:
        return row + ["skip", "0", xfail]
    mv = t["opts"].get("mpiversion")
    if mv and parse_version(mv) > parse_version(args.mpi_version):
        return row + ["skip", "0", xfail]
    mem = t["opts"].get("mem")
    if mem and float(mem) > args.memory_total:
        return row + ["skip", "0", xfail]
    wd = os.path.join(bdir, t["dir"])
    if not os.access(os.path.join(wd, t["name"]), os.X_OK):
        return row + ["compile-fail", "0", xfail]
    limit = args.timeout
    tl = t["opts"].get("timeLimit", "")
    if tl.isdigit():
        limit = int(tl)
        if args.max_timeout:
            limit = min(limit, args.max_timeout)
    env = dict(os.environ, MPIEXEC_TIMEOUT=str(limit))
    for e in t["env"]:
        k, _, v = e.partition("=")
        env[k] = v
    cmd = mpiexec + ["-n", str(t["np"]), "./" + t["name"]] + t["args"]
    start = time.time()
    p = subprocess.Popen(cmd, cwd=wd, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                         start_new_session=True)
    timed_out = False
    try:
        # mpiexec enforces MPIEXEC_TIMEOUT itself (resultTest=TestErrFatal entries expect it
        # to end the job with an error): the script's own kill comes later
        out, _ = p.communicate(timeout=limit + GRACE)
    except subprocess.TimeoutExpired:
        timed_out = True
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, _ = p.communicate()
    secs = time.time() - start
    # a rank left behind by an mpiexec that exited: clean the session up
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    out = out.decode("utf-8", "replace")
    rt = t["opts"].get("resultTest")
    # past the limit: mpiexec ended it (or the script did); only TestErrFatal expects that
    if timed_out or (secs >= limit and rt != "TestErrFatal"):
        status = "timeout"
    else:
        status = judge(out, p.returncode, rt)
    if status != "pass" and logdir:
        fn = os.path.join(logdir, "%s.%s.%d.out" % (t["dir"].replace("/", "_"),
                                                     t["name"], idx))
        with open(fn, "w") as f:
            f.write("$ %s\n# cwd %s, env %s, exit %s, %.1f s\n%s" % (
                " ".join(cmd), t["dir"], " ".join(t["env"]), p.returncode,
                secs, out))
    return row + [status, "%.2f" % secs, xfail]


def run_suite(args, bdir, dirs):
    tests = []
    load_tests(bdir, ".", args.lists.split(","), tests)
    tests = [t for t in tests if selected(t["dir"], dirs)]
    if args.match:
        tests = [t for t in tests if re.search(args.match, t["dir"] + "/" + t["name"])]
    mpiexec = args.mpiexec.split() if args.mpiexec else [toolchain(args)["MPIEXEC"]]
    logdir = args.out + ".logs"
    os.makedirs(logdir, exist_ok=True)
    log("%d entries, %d at a time" % (len(tests), args.jobs))
    rows = [None] * len(tests)
    done = 0
    header = "dir\tname\tnp\targs\tstatus\tseconds\txfail\n"
    # rows go to OUT as they finish, so a run cut short still leaves a
    # usable (partial) file; at the end OUT is rewritten in testlist order
    part = open(args.out, "w")
    part.write(header)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        futs = {ex.submit(run_one, t, bdir, mpiexec, args, logdir, i): i
                for i, t in enumerate(tests)}
        for f in concurrent.futures.as_completed(futs):
            i = futs[f]
            rows[i] = f.result()
            done += 1
            r = rows[i]
            part.write("\t".join(r) + "\n")
            part.flush()
            log("[%d/%d] %-8s %5ss %s/%s %s %s" % (done, len(tests), r[4], r[5],
                                                  r[0], r[1], r[2], r[3]))
    part.close()
    with open(args.out, "w") as f:
        f.write(header)
        for r in rows:
            f.write("\t".join(r) + "\n")
    counts = {}
    for r in rows:
        counts[r[4]] = counts.get(r[4], 0) + 1
    log("%s: %s" % (args.out, ", ".join("%s %d" % kv for kv in sorted(counts.items()))))


# ---------------------------------------------------------------- comparing

def read_results(fn):
    res = {}
    with open(fn) as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            r = dict(zip(header, line.rstrip("\n").split("\t")))
            key = (r["dir"], r["name"], r["np"], r["args"])
            # the same entry twice in the testlists: number the repeats
            n = 0
            while key + (n,) in res:
                n += 1
            res[key + (n,)] = r
    return res


def lang(d):
    parts = d.split("/")
    if any(p in FORTRAN_DIRS for p in parts):
        return "Fortran"
    if any(p in CXX_DIRS for p in parts):
        return "C++"
    return "C"


def pct(m, n):
    return "%.1f %%" % (100.0 * m / n) if n else "-"


def compare(a_fn, b_fn):
    """a = the implementation under test (Mica), b = the reference (MPICH)."""
    a, b = read_results(a_fn), read_results(b_fn)
    na = os.path.splitext(os.path.basename(a_fn))[0]
    nb = os.path.splitext(os.path.basename(b_fn))[0]
    groups = {}

    def add(g, k, ok):
        n, m = groups.setdefault(g, {}).get(k, (0, 0))
        groups[g][k] = (n + 1, m + (1 if ok else 0))

    failing = {}
    xfail_rows = []
    only_a = 0
    better = []
    for key, rb in sorted(b.items()):
        ra = a.get(key)
        if rb.get("xfail"):
            xfail_rows.append((key, rb["status"], ra["status"] if ra else "absent"))
            continue
        if rb["status"] != "pass":
            if ra and ra["status"] == "pass":
                only_a += 1
                better.append((key, rb["status"]))
            continue
        ok = ra is not None and ra["status"] == "pass"
        add("all", "all", ok)
        add("dir", key[0], ok)
        add("lang", lang(key[0]), ok)
        if not ok:
            failing.setdefault(key[0], []).append(
                (key, ra["status"] if ra else "not run", ra["seconds"] if ra else ""))
    n, m = groups.get("all", {}).get("all", (0, 0))
    print("Of the %d entries %s passes, %s passes %d (%s)." % (n, nb, na, m, pct(m, n)))
    for name, res in ((na, a), (nb, b)):
        counts = {}
        for r in res.values():
            counts[r["status"]] = counts.get(r["status"], 0) + 1
        print("  %s: %d entries: %s" % (name, len(res), ", ".join(
            "%s %d" % kv for kv in sorted(counts.items()))))
    print("  %d entries pass in %s and not in %s" % (only_a, na, nb))
    print("\nBy language:")
    for k, (n, m) in sorted(groups.get("lang", {}).items()):
        print("  %-10s %4d / %4d  %s" % (k, m, n, pct(m, n)))
    print("\nBy directory:")
    for k, (n, m) in sorted(groups.get("dir", {}).items()):
        print("  %-20s %4d / %4d  %s" % (k, m, n, pct(m, n)))
    if xfail_rows:
        print("\nxfail entries (not counted above): %s / %s" % (nb, na))
        for key, sb, sa in xfail_rows:
            print("  %s/%s %s %s: %s / %s" % (key[0], key[1], key[2], key[3], sb, sa))
    if better:
        print("\nEntries %s passes and %s does not (%s's status):" % (na, nb, nb))
        for key, st in better:
            extra = (" " + key[3]) if key[3] else ""
            print("    %-13s %s/%s %s%s" % (st, key[0], key[1], key[2], extra))
    print("\nEntries %s passes and %s does not (%s's status):" % (nb, na, na))
    for d in sorted(failing):
        print("  %s:" % d)
        for key, st, secs in failing[d]:
            extra = (" " + key[3]) if key[3] else ""
            print("    %-13s %s %s%s" % (st, key[1], key[2], extra))


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--compare", nargs=2, metavar=("TESTED.tsv", "REFERENCE.tsv"),
                    help="summarise: of the entries REFERENCE passes, how many TESTED passes")
    ap.add_argument("--mpich-src", help="MPICH source tree (containing test/mpi and confdb)")
    ap.add_argument("--work", help="scratch directory for the builds")
    ap.add_argument("--impl", default="mica",
                    help="label of the build; 'mpich' uses Debian's mpicc.mpich etc.")
    ap.add_argument("--prefix", help="install prefix of the MPI (bin/mpicc, bin/mpiexec ...)")
    ap.add_argument("--mpiexec", help="mpiexec command to run with (default: the toolchain's)")
    ap.add_argument("--configure-arg", action="append", default=[],
                    help="extra argument to test/mpi's configure (repeatable)")
    ap.add_argument("--dirs", help="comma-separated subset of test/mpi directories, e.g. pt2pt,coll")
    ap.add_argument("--match", help="only entries whose dir/name matches this regex")
    ap.add_argument("--lists", default="testlist",
                    help="testlist file names to read (default testlist; e.g. testlist,testlist.dtp)")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=60, help="seconds per entry without timeLimit=")
    ap.add_argument("--max-timeout", type=int, default=0, help="cap on timeLimit= (0: none)")
    ap.add_argument("--mpi-version", default="4.1", help="skip entries with a higher mpiversion=")
    ap.add_argument("--memory-total", type=float, default=4,
                    help="GB; skip entries with a higher mem= (runtests' default: 4)")
    ap.add_argument("--no-strict", dest="strict", action="store_false",
                    help="also run entries marked strict=false")
    ap.add_argument("--no-build", action="store_true", help="run only, on an existing build")
    ap.add_argument("--build-only", action="store_true")
    ap.add_argument("--out", help="results file (TSV); failing outputs go to OUT.logs/")
    args = ap.parse_args()

    if args.compare:
        compare(*args.compare)
        return
    if not args.work or (not args.mpich_src and not args.no_build):
        ap.error("--mpich-src and --work are needed (or --compare)")
    args.work = os.path.abspath(args.work)
    bdir = os.path.join(args.work, args.impl)
    dirs = [d.strip("/") for d in args.dirs.split(",")] if args.dirs else []
    if not args.no_build:
        build(args, bdir, dirs)
    if args.build_only:
        return
    if not args.out:
        args.out = args.impl + ".tsv"
    run_suite(args, bdir, dirs)


if __name__ == "__main__":
    main()
