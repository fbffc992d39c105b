#!/bin/bash
# A profiling library linked statically before libmpi.a replaces MPI_Init and MPI_Comm_rank
# (the weak MPI_ aliases give way) and reaches the library through PMPI_:
#   cc app.o libmyprof.a $MICA_PREFIX/lib/libmpi.a -pthread
. "$(dirname "$0")/lib.sh"
. "$HERE/intercept.sh"
need_file "$MICA_PREFIX/lib/libmpi.a" "$MICA_PREFIX/bin/mpicc"
cd "$MICA_TMP" || fail "no MICA_TMP"
run "$MICA_PREFIX/bin/mpicc" -Wall -Werror -c "$HERE/app.c" -o app.o
run "$MICA_PREFIX/bin/mpicc" -Wall -Werror -c "$HERE/myprof.c" -o myprof.o
run ar rcs libmyprof.a myprof.o
run cc -o app_plain app.o "$MICA_PREFIX/lib/libmpi.a" -pthread
run cc -o app_prof app.o libmyprof.a "$MICA_PREFIX/lib/libmpi.a" -pthread
compare_runs ./app_prof ./app_plain
