#!/bin/bash
# Exact call counts and 64-bit byte totals (point-to-point, collectives with MPI_IN_PLACE and
# MPI_PROC_NULL, persistent requests), the matrix and the histograms, on every MPI installed.
. "$(dirname "$0")/lib.sh"
cd "$MICA_TMP" || exit 1
np=3
for f in $(flavors); do
    lib_of "$f" >/dev/null
    run_logged "cc-$f" $(cc_of "$f") -O1 -g -o "counts-$f" "$HERE/counts.c"
    rm -rf "out-$f"
    run_logged "run-$f" $(run_of "$f" $np) "$PROF" --dir "out-$f" "./counts-$f"
    check counts "$(report "out-$f")" $np || fail "$f: wrong counts (report in out-$f)"
done
