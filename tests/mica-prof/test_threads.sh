#!/bin/bash
# MPI_THREAD_MULTIPLE: 4 threads per rank sending concurrently; per-thread statistics merged
# at the end give exact totals (and the matrix). On every MPI that provides the level.
. "$(dirname "$0")/lib.sh"
cd "$MICA_TMP" || exit 1
np=2
ran=
for f in $(flavors); do
    lib_of "$f" >/dev/null
    run_logged "cc-$f" $(cc_of "$f") -O1 -g -pthread -o "threads-$f" "$HERE/threads.c"
    run_logged "run-$f" $(run_of "$f" $np) "$PROF" --dir "out-$f" "./threads-$f"
    if grep -q 'threads: unsupported' "run-$f.log"; then
        echo "$f: MPI_THREAD_MULTIPLE not provided"
        continue
    fi
    check threads "$(report "out-$f")" $np 4 50 || fail "$f: threads"
    ran=yes
done
[ -n "$ran" ] || skip "no MPI provides MPI_THREAD_MULTIPLE"
