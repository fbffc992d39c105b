#!/bin/bash
# Jobs that never reach MPI_Finalize still leave each rank's own file (complete: false):
# exit() without MPI_Finalize (every rank), MPI_Abort (the rank that called it), a crash (the
# rank killed by the signal). On every MPI installed.
. "$(dirname "$0")/lib.sh"
cd "$MICA_TMP" || exit 1
np=4
for f in $(flavors); do
    lib_of "$f" >/dev/null
    run_logged "cc-$f" $(cc_of "$f") -O1 -g -o "noexit-$f" "$HERE/noexit.c"
    for how in exit abort signal; do
        d=$f-$how
        # the launcher reports the failure; only the files matter here
        timeout 60 $(run_of "$f" $np) "$PROF" --dir "$d" "./noexit-$f" $how > "$d.log" 2>&1
        [ $? = 124 ] && { cat "$d.log"; fail "$f $how: timed out"; }
        ls "$d"/mica-prof.*.json 2>/dev/null | grep -qv rank && fail "$f $how: a job report without MPI_Finalize"
        check partial "$d" $np $how || { cat "$d.log"; ls -la "$d"; fail "$f $how: per-rank files"; }
    done
done
