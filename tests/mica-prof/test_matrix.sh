#!/bin/bash
# The point-to-point matrix is in MPI_COMM_WORLD ranks, also for traffic on derived
# communicators (ranks translated once per communicator). On every MPI installed.
. "$(dirname "$0")/lib.sh"
cd "$MICA_TMP" || exit 1
np=4
for f in $(flavors); do
    lib_of "$f" >/dev/null
    run_logged "cc-$f" $(cc_of "$f") -O1 -g -o "matrix-$f" "$HERE/matrix.c"
    run_logged "run-$f" "$PROF" --dir "out-$f" $(run_of "$f" $np) "./matrix-$f"
    check matrix "$(report "out-$f")" $np || fail "$f: matrix"
done
