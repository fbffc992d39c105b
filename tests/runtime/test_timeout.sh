#!/bin/bash
# --timeout ends a hung job (ranks and the children they forked), says so,
# exits 124; MPIEXEC_TIMEOUT does the same.
. "$(dirname "$0")/lib.sh"
build rt_prog
start=$(date +%s%N)
run_job 124 "^mpiexec: timeout: .*ranks still running: 0-2$" --timeout 1 -n 3 "$TMP/rt_prog" hang
ms=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$ms" -lt 3000 ] || fail "--timeout 1 took $ms ms"
[ "$(grep -c hanging "$TMP/out")" = 3 ] || fail "output before the timeout was lost"
MPIEXEC_TIMEOUT=0.5 run_job 124 "timeout" -n 2 "$TMP/rt_prog" hang
echo "PASS: $NAME"
