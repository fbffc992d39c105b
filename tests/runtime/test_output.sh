#!/bin/bash
# Output forwarding: lines of different ranks never mix, --tag-output / -l
# prefixes "[rank] ", a last line without newline survives, stdin goes to
# rank 0 only.
. "$(dirname "$0")/lib.sh"
build rt_prog
K=50
run_job 0 "" --tag-output -n 4 "$TMP/rt_prog" lines $K
bad=$(grep -Evc '^\[([0-3])\] rank \1 line [0-9]+ end$' "$TMP/out")
[ "$bad" = 0 ] || { cat "$TMP/out"; fail "--tag-output: $bad malformed lines"; }
[ "$(wc -l <"$TMP/out")" = $((4 * K)) ] || fail "--tag-output: lines lost"
run_job 0 "" -l -n 4 "$TMP/rt_prog" lines $K
[ "$(grep -Evc '^\[([0-3])\] rank \1 line [0-9]+ end$' "$TMP/out")" = 0 ] || fail "-l"
run_job 0 "" -n 4 "$TMP/rt_prog" lines $K
bad=$(grep -Evc '^rank [0-3] line [0-9]+ end$' "$TMP/out")
[ "$bad" = 0 ] || { cat "$TMP/out"; fail "untagged: $bad malformed lines"; }

[ "$("$MPIEXEC" -n 1 printf abc)" = abc ] || fail "unterminated line changed"
[ "$("$MPIEXEC" -l -n 1 printf 'x\ny')" = "$(printf '[0] x\n[0] y')" ] || fail "tagged unterminated line"
[ "$("$MPIEXEC" -l -n 2 sh -c 'echo err >&2' 2>&1 >/dev/null | sort | tr '\n' ' ')" = "[0] err [1] err " ] ||
    fail "stderr not forwarded/tagged"
[ "$(printf 'in1\nin2\n' | "$MPIEXEC" -n 3 cat)" = "$(printf 'in1\nin2')" ] || fail "stdin to rank 0"
echo "PASS: $NAME"
