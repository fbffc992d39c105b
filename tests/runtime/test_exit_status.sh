#!/bin/bash
# The job's exit status: 0 when all ranks succeed, the failing rank's code
# otherwise (others stopped, reason printed); programs found via PATH;
# non-MPI programs; a missing program.
. "$(dirname "$0")/lib.sh"
build rt_prog

run_job 0 "" -n 4 "$TMP/rt_prog" ok
[ ! -s "$TMP/err" ] || fail "successful job printed to stderr: $(cat "$TMP/err")"
run_job 3 "^mpiexec: rank 1 \(pid [0-9]+\) exited with code 3$" -n 4 "$TMP/rt_prog" exit 3 1
run_job 42 "rank 0 \(pid [0-9]+\) exited with code 42" -n 2 "$TMP/rt_prog" exit 42 0
[ "$(grep -c '^mpiexec:' "$TMP/err")" = 1 ] || fail "expected one report: $(cat "$TMP/err")"

# Found through PATH, like execvp.
PATH="$TMP:$PATH" run_job 0 "" -n 2 rt_prog ok

# Programs that never speak PMI are fine; their status still counts.
"$MPIEXEC" -n 3 true || fail "mpiexec -n 3 true failed"
"$MPIEXEC" -n 2 false 2>"$TMP/err"
rc=$?
[ "$rc" = 1 ] || fail "mpiexec -n 2 false: status $rc"
grep -q "exited with code 1" "$TMP/err" || fail "false: no report"

"$MPIEXEC" -n 2 ./no-such-program-here 2>"$TMP/err"
rc=$?
[ "$rc" = 127 ] || fail "missing program: status $rc, expected 127"
grep -q "cannot find executable" "$TMP/err" || fail "missing program: $(cat "$TMP/err")"

"$MPIEXEC" -n 0 true 2>/dev/null && fail "-n 0 accepted"
"$MPIEXEC" --help | grep -q "tag-output" || fail "--help"
echo "PASS: $NAME"
