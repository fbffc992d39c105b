#!/bin/bash
# Key-value exchange (put/fence/get) among 1, 4, 16 ranks, over PMI_FD and
# --pmi-port, a 64-rank job, and the singleton mode (no launcher).
. "$(dirname "$0")/lib.sh"
build rt_prog

for n in 1 4 16; do
    run_job 0 "" -n "$n" "$TMP/rt_prog" kvs 3
    grep -q "^kvs ok: $n ranks" "$TMP/out" || fail "-n $n: no 'kvs ok' line"
done
run_job 0 "" --pmi-port -n 4 "$TMP/rt_prog" kvs 2
grep -q "^kvs ok: 4 ranks" "$TMP/out" || fail "--pmi-port: no 'kvs ok' line"
run_job 0 "" -np 64 "$TMP/rt_prog" ok

# Every rank agrees on the jobid, and it is the one the launcher cleans.
run_job 0 "" -n 3 "$TMP/rt_prog" info
[ "$(awk '{print $6}' "$TMP/out" | sort -u)" = "$(cat "$TMP/rt/jobid")" ] ||
    fail "ranks disagree on the jobid: $(cat "$TMP/out")"

# Singleton: no PMI variables at all.
env -u PMI_FD -u PMI_PORT "$TMP/rt_prog" kvs 2 >"$TMP/out" 2>&1 || { cat "$TMP/out"; fail "singleton failed"; }
grep -q "^kvs ok: 1 ranks" "$TMP/out" || fail "singleton: no 'kvs ok' line"
echo "PASS: $NAME"
