#!/bin/bash
# PMI abort with a code and a message: reported once, with both; status is
# the code; the other ranks are stopped; nothing left behind.
. "$(dirname "$0")/lib.sh"
build rt_prog
run_job 5 "^mpiexec: rank 1 called abort with code 5: test abort: something went wrong$" \
    -n 4 "$TMP/rt_prog" abort 5 1
[ "$(grep -c 'something went wrong' "$TMP/err")" = 1 ] ||
    fail "abort message not printed exactly once: $(cat "$TMP/err")"
run_job 5 "rank 0 called abort with code 5" --pmi-port -n 2 "$TMP/rt_prog" abort 5 0
echo "PASS: $NAME"
