# Shared helpers for the mica-prof tests (sourced; not a test itself).
#   flavors            the MPI libraries to test: mica, and mpich / openmpi when installed
#                      (MICA_PROF_TEST_MPIS="mica mpich" restricts the list)
#   cc_of F            that MPI's C compiler;  fc_of F: its Fortran compiler (empty if none)
#   run_of F N         the command starting N ranks with that MPI's launcher
#   lib_of F           the profiling library for F (built on first use, shared between tests)
#   report DIR         the job report (mica-prof.*.json) in DIR, exactly one
#   check ARGS         python3 check.py ARGS (the assertions on reports)
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${MICA_ROOT:=$(cd "$HERE/../.." && pwd)}"
: "${MICA_PREFIX:=$MICA_ROOT/install}"
if [ -z "${MICA_TMP:-}" ]; then
    MICA_TMP=$(mktemp -d)
    trap 'rm -rf "$MICA_TMP"' EXIT
fi
export MICA_ROOT MICA_PREFIX MICA_TMP
export TMPDIR=$MICA_TMP        # Open MPI's session directory: concurrent tests must not share it
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
export MICA_PROF_QUIET=1
PROF=$MICA_PREFIX/bin/mica-prof

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }

[ -x "$PROF" ] && [ -f "$MICA_PREFIX/lib/libmicaprof.so" ] || fail "mica-prof is not installed in $MICA_PREFIX"

flavors() {
    local all="mica mpich openmpi" f
    for f in ${MICA_PROF_TEST_MPIS:-$all}; do
        case $f in
            mica) echo mica ;;
            mpich) command -v mpicc.mpich >/dev/null && command -v mpiexec.mpich >/dev/null && echo mpich ;;
            openmpi) command -v mpicc.openmpi >/dev/null && command -v mpiexec.openmpi >/dev/null && echo openmpi ;;
        esac
    done
    return 0
}

cc_of() {
    case $1 in
        mica) echo "$MICA_PREFIX/bin/mpicc" ;;
        mpich) echo mpicc.mpich ;;
        openmpi) echo mpicc.openmpi ;;
    esac
}

fc_of() {
    case $1 in
        mica) [ -x "$MICA_PREFIX/bin/mpifort" ] && echo "$MICA_PREFIX/bin/mpifort" ;;
        mpich) command -v mpif90.mpich >/dev/null && command -v gfortran >/dev/null && echo mpif90.mpich ;;
        openmpi) command -v mpif90.openmpi >/dev/null && command -v gfortran >/dev/null && echo mpif90.openmpi ;;
    esac
    return 0
}

run_of() {
    case $1 in
        mica) echo "$MICA_PREFIX/bin/mpiexec -n $2" ;;
        mpich) echo "mpiexec.mpich -n $2" ;;
        openmpi) echo "mpiexec.openmpi --oversubscribe -n $2" ;;
    esac
}

lib_of() {
    "$PROF" --build "$1" || fail "could not build mica-prof for $1"
}

report() {
    local n
    n=$(ls "$1"/mica-prof.*.json 2>/dev/null | grep -v '\.rank[0-9]*\.json$' | grep -v '\.trace\.json$' | wc -l)
    [ "$n" = 1 ] || { ls -la "$1" >&2; fail "expected one report in $1, found $n"; }
    ls "$1"/mica-prof.*.json | grep -v '\.rank[0-9]*\.json$' | grep -v '\.trace\.json$'
}

check() { python3 "$HERE/check.py" "$@"; }

# run_logged NAME CMD...: run, keep the output in $MICA_TMP/NAME.log, show it on failure.
run_logged() {
    local name=$1
    shift
    if ! "$@" > "$MICA_TMP/$name.log" 2>&1; then
        cat "$MICA_TMP/$name.log" >&2
        fail "$name: command failed: $*"
    fi
}
