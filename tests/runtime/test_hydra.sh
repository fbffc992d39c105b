#!/bin/bash
# The client under MPICH's Hydra launcher (mpiexec.mpich), in its default
# PMI_FD mode and with -pmi-port. Skipped (exit 77, the runner's "skip")
# when MPICH is not installed.
. "$(dirname "$0")/lib.sh"
HYDRA=$(command -v mpiexec.mpich || command -v mpiexec.hydra || true)
if [ -z "$HYDRA" ]; then
    echo "SKIP: $NAME: mpiexec.mpich not installed (skipped)"
    exit 77
fi
build rt_prog
for mode in "" -pmi-port; do
    timeout 30 "$HYDRA" $mode -n 4 "$TMP/rt_prog" kvs 2 >"$TMP/out" 2>&1 ||
        { cat "$TMP/out"; fail "hydra $mode -n 4 kvs"; }
    grep -q "^kvs ok: 4 ranks" "$TMP/out" || fail "hydra $mode: no 'kvs ok' line"
    timeout 30 "$HYDRA" $mode -n 1 "$TMP/rt_prog" kvs 1 >"$TMP/out" 2>&1 ||
        { cat "$TMP/out"; fail "hydra $mode -n 1"; }
done
# An abort must end the job with a failure. (Hydra may drop the aborting
# rank's last output when it kills the job, so the message is not checked.)
timeout 30 "$HYDRA" -n 2 "$TMP/rt_prog" abort 6 1 >"$TMP/out" 2>&1
rc=$?
[ "$rc" != 0 ] && [ "$rc" != 124 ] || { cat "$TMP/out"; fail "hydra abort: status $rc"; }
echo "PASS: $NAME"
