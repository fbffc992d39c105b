# Sourced by tests/runtime/test_*.sh (not a test itself).
# Builds the helper programs into a temporary directory. The mpiexec tested
# is $MICA_MPIEXEC, else $MICA_PREFIX/bin/mpiexec (tests/run.py installs
# there), else one built here from src/mpiexec. Provides:
#   fail MSG            print "FAIL: MSG" and exit 1
#   build NAME          compile tests/runtime/NAME.c with the bootstrap client
#   run_job RC REGEX ARGS...
#                       run $MPIEXEC ARGS with RT_DIR set; require exit status
#                       RC, stderr matching REGEX (if non-empty), and that no
#                       process or /dev/shm object of the job remains
set -u

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TMP=$(mktemp -d "${MICA_TMP:-${TMPDIR:-/tmp}}/mica-rt.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
CC=${CC:-cc}
CFLAGS="-std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 -g"
NAME=$(basename "$0" .sh)

fail() {
    echo "FAIL: $NAME: $*"
    exit 1
}

build() {
    $CC $CFLAGS -I"$ROOT/src/runtime" -o "$TMP/$1" "$ROOT/tests/runtime/$1.c" \
        "$ROOT/src/runtime/pmi.c" "$ROOT/src/runtime/pmi_wire.c" || fail "cannot build $1"
}

if [ -n "${MICA_MPIEXEC:-}" ]; then
    MPIEXEC=$MICA_MPIEXEC
elif [ -n "${MICA_PREFIX:-}" ] && [ -x "$MICA_PREFIX/bin/mpiexec" ]; then
    MPIEXEC=$MICA_PREFIX/bin/mpiexec
else
    $CC $CFLAGS -o "$TMP/mpiexec" "$ROOT"/src/mpiexec/*.c || fail "cannot build mpiexec"
    MPIEXEC=$TMP/mpiexec
fi

# A process of the job is still there if its pid runs rt_prog.
job_alive() {
    local f pid
    for f in "$TMP"/rt/pid.*; do
        [ -e "$f" ] || continue
        pid=$(cat "$f")
        if [ -r "/proc/$pid/cmdline" ] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q rt_prog; then
            echo "$(basename "$f")=$pid"
        fi
    done
}

check_clean() {
    local left jobid
    left=$(job_alive)
    [ -z "$left" ] || fail "$1: processes left behind: $left"
    [ -s "$TMP/rt/jobid" ] || fail "$1: the job did not record its jobid"
    jobid=$(cat "$TMP/rt/jobid")
    if ls /dev/shm/mica-"$jobid"-* >/dev/null 2>&1; then
        fail "$1: /dev/shm objects left behind: $(ls /dev/shm/mica-"$jobid"-*)"
    fi
}

run_job() {
    local want_rc=$1 want_err=$2 rc
    shift 2
    rm -rf "$TMP/rt"
    mkdir -p "$TMP/rt"
    RT_DIR="$TMP/rt" "$MPIEXEC" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
    rc=$?
    if [ "$rc" != "$want_rc" ]; then
        echo "--- stdout"; cat "$TMP/out"; echo "--- stderr"; cat "$TMP/err"
        fail "mpiexec $*: exit status $rc, expected $want_rc"
    fi
    if [ -n "$want_err" ] && ! grep -Eq "$want_err" "$TMP/err"; then
        echo "--- stderr"; cat "$TMP/err"
        fail "mpiexec $*: stderr does not match /$want_err/"
    fi
    check_clean "mpiexec $*"
}
