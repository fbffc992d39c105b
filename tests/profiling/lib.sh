# Shared helpers for the profiling tests (sourced; not a test itself).
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${MICA_ROOT:=$(cd "$HERE/../.." && pwd)}"
: "${MICA_PREFIX:=$MICA_ROOT/install}"
: "${MICA_NOWEAK_PREFIX:=$MICA_ROOT/build/noweak/install}"
if [ -z "${MICA_TMP:-}" ]; then
    MICA_TMP=$(mktemp -d)
    trap 'rm -rf "$MICA_TMP"' EXIT
fi
export MICA_ROOT MICA_PREFIX MICA_NOWEAK_PREFIX MICA_TMP

fail() { echo "FAIL: $*" >&2; exit 1; }

# Every MPI function of the table, one per line.
functions() { grep -v '^#' "$MICA_ROOT/api/functions.tsv" | cut -f1 | grep -v '^$'; }

need_file() { for f in "$@"; do [ -f "$f" ] || fail "missing $f (is the build installed?)"; done; }

# run CMD...: run, fail with its output if it exits non-zero.
run() {
    local out
    if ! out=$("$@" 2>&1); then
        printf '%s\n' "$out" >&2
        fail "command failed: $*"
    fi
    [ -z "$out" ] || printf '%s\n' "$out"
}
