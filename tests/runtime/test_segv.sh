#!/bin/bash
# A rank killed by SIGSEGV: named with the signal, others stopped, status
# 128+11, nothing left behind.
. "$(dirname "$0")/lib.sh"
build rt_prog
# Under AddressSanitizer (make check SANITIZE=address) the signal must kill the rank as usual.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0"
run_job 139 "^mpiexec: rank 2 \(pid [0-9]+\) was killed by signal 11 \(Segmentation fault\)" \
    -n 4 "$TMP/rt_prog" segv 2
echo "PASS: $NAME"
