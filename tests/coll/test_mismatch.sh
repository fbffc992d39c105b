#!/bin/bash
# Mismatched collectives end, not hang (issue 9, point 9): a size mismatch in MPI_Bcast (eager
# and rendezvous) and MPI_Allreduce ends the whole job within seconds, with a message naming
# the rank, the call, the peer and MPI_ERR_TRUNCATE.
. "$(dirname "$0")/../profiling/lib.sh"
cd "$MICA_TMP"
run "$MICA_PREFIX/bin/mpicc" -Wall -Werror -o mismatch "$MICA_ROOT/tests/coll/mismatch.c"
for what in bcast bcast_long allreduce; do
    start=$(date +%s)
    timeout 30 "$MICA_PREFIX/bin/mpiexec" -n 4 ./mismatch $what > out 2>&1 < /dev/null
    rc=$?
    [ $rc -eq 124 ] && fail "$what: the job still ran after 30 s: $(cat out)"
    [ $rc -ne 0 ] || fail "$what: the job succeeded"
    grep -q "fatal error in MPI_\(Bcast\|Allreduce\).*from rank [0-9].*MPI_ERR_TRUNCATE" out ||
        fail "$what: no message naming the call, the peer and the error: $(cat out)"
    [ $(( $(date +%s) - start )) -le 10 ] || fail "$what: took $(( $(date +%s) - start )) s"
done
echo "every mismatch ended the job"

# Under MPI_ERRORS_RETURN every process goes on: no hang, and the process that receives the
# root's message sees the mismatch (a shorter message: MPI_ERR_COUNT; a longer: MPI_ERR_TRUNCATE).
for n in 2 4; do
    timeout 30 "$MICA_PREFIX/bin/mpiexec" -n $n ./mismatch return > out 2>&1 < /dev/null ||
        fail "return, $n processes: exit $?: $(cat out)"
    for call in bcast ibcast allreduce; do
        grep -q "rank 1 ${call}_short MPI_ERR_COUNT" out ||
            fail "return, $n processes: $call with a shorter root message: $(cat out)"
        grep -q "rank 1 ${call}_long MPI_ERR_TRUNCATE" out ||
            fail "return, $n processes: $call with a longer root message: $(cat out)"
    done
done
echo "under MPI_ERRORS_RETURN every process went on, and rank 1 saw each mismatch"
