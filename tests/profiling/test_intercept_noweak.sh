#!/bin/bash
# The build without weak symbols, linked exactly as the MPI standard's example:
#   cc app.o -L. -lmyprof -L$MICA_NOWEAK_PREFIX/lib -lpmpi -lmpi -pthread
# The tool's MPI_Init/MPI_Comm_rank replace libmpi.a's, its PMPI_ calls come from libpmpi.a.
. "$(dirname "$0")/lib.sh"
. "$HERE/intercept.sh"
N=$MICA_NOWEAK_PREFIX
need_file "$N/lib/libmpi.a" "$N/lib/libpmpi.a" "$N/include/mpi.h"
cd "$MICA_TMP" || fail "no MICA_TMP"
run cc -Wall -Werror -I"$N/include" -c "$HERE/app.c" -o app.o
run cc -Wall -Werror -I"$N/include" -c "$HERE/myprof.c" -o myprof.o
run ar rcs libmyprof.a myprof.o
run cc -o app_plain app.o -L"$N/lib" -lpmpi -lmpi -pthread
run cc -o app_prof app.o -L. -lmyprof -L"$N/lib" -lpmpi -lmpi -pthread
compare_runs ./app_prof ./app_plain
