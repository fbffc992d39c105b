#!/bin/bash
# A rank that initialised PMI and exits 0 without finalize fails the job.
. "$(dirname "$0")/lib.sh"
build rt_prog
run_job 1 "^mpiexec: rank 3 \(pid [0-9]+\) exited without calling MPI_Finalize$" \
    -n 4 "$TMP/rt_prog" nofin 3
echo "PASS: $NAME"
