#!/bin/bash
# The app linked with mpicc against libmpi.so; the profiling library built as a shared object
# and loaded with LD_PRELOAD intercepts MPI_Init and MPI_Comm_rank.
. "$(dirname "$0")/lib.sh"
. "$HERE/intercept.sh"
P=$MICA_PREFIX
need_file "$P/lib/libmpi.so" "$P/bin/mpicc"
cd "$MICA_TMP" || fail "no MICA_TMP"
run "$P/bin/mpicc" -Wall -Werror -o app "$HERE/app.c"
run "$P/bin/mpicc" -Wall -Werror -shared -fPIC -o libmyprof.so "$HERE/myprof.c"
ldd ./app | grep -q "$P/lib/libmpi.so" || { ldd ./app; fail "app is not linked against $P/lib/libmpi.so"; }
compare_runs "LD_PRELOAD=$MICA_TMP/libmyprof.so\${LD_PRELOAD:+:\$LD_PRELOAD} ./app" ./app
