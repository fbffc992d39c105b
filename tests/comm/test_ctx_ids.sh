#!/bin/bash
# Context ids are reused (ctx_ids.c, which MPI programs cannot see: linked statically against
# libmpi.a, where the hidden mica_ symbols are still there). tests/run.py sets MICA_ROOT,
# MICA_PREFIX and MICA_TMP.
set -eu
cd "$MICA_TMP"
"$MICA_PREFIX/bin/mpicc" -Wall -Werror -I"$MICA_ROOT/src" -c "$MICA_ROOT/tests/comm/ctx_ids.c"
cc -o ctx_ids ctx_ids.o "$MICA_PREFIX/lib/libmpi.a" -pthread
for np in 1 3 4; do
    "$MICA_PREFIX/bin/mpiexec" -n $np ./ctx_ids || { echo "FAIL: np=$np"; exit 1; }
done
