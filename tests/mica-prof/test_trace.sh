#!/bin/bash
# MICA_PROF_TRACE=1 (--trace): a Chrome/Perfetto trace-event file with one complete event per
# recorded call, every rank a process.
. "$(dirname "$0")/lib.sh"
cd "$MICA_TMP" || exit 1
np=3
for f in $(flavors); do
    lib_of "$f" >/dev/null
    run_logged "cc-$f" $(cc_of "$f") -O1 -g -o "app-$f" "$HERE/app.c"
    run_logged "run-$f" "$PROF" --trace --dir "out-$f" $(run_of "$f" $np) "./app-$f"
    t=$(ls out-$f/mica-prof.*.trace.json) || fail "$f: no trace file"
    check trace "$t" "$(report "out-$f")" || fail "$f: trace"
    ls out-$f/*.part >/dev/null 2>&1 && fail "$f: trace fragments left behind"
done
true
