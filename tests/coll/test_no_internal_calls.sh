#!/bin/bash
# Collectives are invisible inside: a program doing only MPI_Bcast and MPI_Allreduce on 4 ranks,
# under a profiling library that counts those and every point-to-point call (and waits), shows
# exactly the program's 3 broadcasts and 2 allreduces on every rank, and no point-to-point call
# at all. Checked with the tool preloaded over libmpi.so, linked before libmpi.a, and linked
# before the no-weak-symbols build's libpmpi.a and libmpi.a.
SRC=$(cd "$(dirname "$0")" && pwd)
. "$SRC/../profiling/lib.sh"
P=$MICA_PREFIX
N=$MICA_NOWEAK_PREFIX
need_file "$P/bin/mpicc" "$P/bin/mpiexec" "$P/lib/libmpi.so" "$P/lib/libmpi.a" \
    "$N/lib/libpmpi.a" "$N/lib/libmpi.a"
cd "$MICA_TMP" || fail "no MICA_TMP"

run "$P/bin/mpicc" -Wall -Werror -o app "$SRC/noint_app.c"
run "$P/bin/mpicc" -Wall -Werror -shared -fPIC -o libnoint.so "$SRC/noint_prof.c"
run "$P/bin/mpicc" -Wall -Werror -c -o noint_prof.o "$SRC/noint_prof.c"
run ar rcs libnoint.a noint_prof.o
run "$P/bin/mpicc" -Wall -Werror -c -o app.o "$SRC/noint_app.c"
run cc app.o libnoint.a "$P/lib/libmpi.a" -pthread -o app_static
run cc app.o libnoint.a -L"$N/lib" -lpmpi -lmpi -pthread -o app_noweak

for r in 0 1 2 3; do
    printf 'prof: rank %d: %s called %d times\n' \
        "$r" MPI_Bcast 3 "$r" MPI_Allreduce 2 "$r" MPI_Send 0 "$r" MPI_Isend 0 \
        "$r" MPI_Recv 0 "$r" MPI_Irecv 0 "$r" MPI_Sendrecv 0 "$r" "other pt2pt" 0
done | sort > want.prof
printf 'app: rank %d of 4: results ok\n' 0 1 2 3 > want.app

check() {  # check LABEL COMMAND...
    local label=$1
    shift
    "$@" > out 2>&1 || { cat out; fail "$label: the run failed: $*"; }
    grep '^prof:' out | sort > got.prof
    grep '^app:' out | sort > got.app
    diff -u want.app got.app || { cat out; fail "$label: the program's results are wrong"; }
    diff -u want.prof got.prof || fail "$label: the tool saw other calls than the program made"
    echo "ok: $label: 3 MPI_Bcast and 2 MPI_Allreduce on each of 4 ranks, no point-to-point call"
}

check "LD_PRELOAD" env LD_PRELOAD="$MICA_TMP/libnoint.so${LD_PRELOAD:+:$LD_PRELOAD}" \
    "$P/bin/mpiexec" -n 4 ./app
check "static link" "$P/bin/mpiexec" -n 4 ./app_static
check "no weak symbols" "$P/bin/mpiexec" -n 4 ./app_noweak
# Without the tool: no prof lines, same results.
"$P/bin/mpiexec" -n 4 ./app > plain 2>&1 || { cat plain; fail "the run without the tool failed"; }
grep -q '^prof:' plain && fail "prof lines without the tool"
sort plain | diff -u want.app - || fail "the program's output without the tool differs"
echo "ok: without the tool the program prints only its results"
