#!/bin/bash
# SIGINT / SIGTERM to mpiexec reach every rank; the job ends with 128+sig
# and leaves nothing behind.
. "$(dirname "$0")/lib.sh"
build rt_prog
for sig in INT TERM; do
    rm -rf "$TMP/rt"; mkdir -p "$TMP/rt"
    RT_DIR="$TMP/rt" "$MPIEXEC" -n 3 "$TMP/rt_prog" hang >"$TMP/out" 2>"$TMP/err" </dev/null &
    pid=$!
    for _ in $(seq 200); do   # until every rank and its child are up
        [ "$(ls "$TMP/rt" | grep -c '^pid\.')" = 6 ] && break
        sleep 0.01
    done
    kill -"$sig" "$pid"
    wait "$pid"
    rc=$?
    want=$((128 + $(kill -l "$sig")))
    [ "$rc" = "$want" ] || { cat "$TMP/err"; fail "SIG$sig: status $rc, expected $want"; }
    grep -q "^mpiexec: received signal" "$TMP/err" || fail "SIG$sig: no message: $(cat "$TMP/err")"
    check_clean "SIG$sig"
done
echo "PASS: $NAME"
