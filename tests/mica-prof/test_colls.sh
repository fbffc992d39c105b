#!/bin/bash
# The bytes of the collectives counts.c does not call (rooted and v/w forms, in place,
# reductions, nonblocking, neighbours, persistent), of a Sendrecv and of one-sided calls, on
# every MPI installed.
. "$(dirname "$0")/lib.sh"
cd "$MICA_TMP" || exit 1
np=3
for f in $(flavors); do
    lib_of "$f" >/dev/null
    run_logged "cc-$f" $(cc_of "$f") -O1 -g -o "colls-$f" "$HERE/colls.c"
    rm -rf "out-$f"
    run_logged "run-$f" $(run_of "$f" $np) "$PROF" --dir "out-$f" "./colls-$f"
    check colls "$(report "out-$f")" $np || fail "$f: wrong bytes (report in out-$f)"
done
