#!/bin/bash
# The Fortran call-through rule (docs/PROFILING.md): Fortran MPI_SEND calls the C MPI_Send, and
# the Fortran PMPI_SEND calls the C PMPI_Send. So
#  - a C-only tool (LD_PRELOAD) sees a Fortran program's one MPI_SEND exactly once;
#  - a tool defining Fortran mpi_send_ that calls pmpi_send_ sees it once in Fortran and not at
#    all in its C MPI_Send;
# with the shared libraries (LD_PRELOAD), with the static ones (a Fortran tool's archive linked
# before libmpi_fort.a, whose MPI_ names are weak; a C tool's between libmpi_fort.a and libmpi.a)
# and, from the build without weak symbols, with libmpi_fort.a holding the MPI_ and PMPI_ names
# in separate objects.
. "$(dirname "$0")/../profiling/lib.sh"
P=$MICA_PREFIX
[ -x "$P/bin/mpifort" ] || { echo "SKIP: no mpifort (built without a Fortran compiler)"; exit 77; }
cd "$MICA_TMP" || fail "no MICA_TMP"
run "$P/bin/mpifort" -o app "$HERE/../fortran/callthrough.f90"
run "$P/bin/mpicc" -Wall -Werror -shared -fPIC -o libctool.so "$HERE/../fortran/ctool.c"
run "$P/bin/mpicc" -Wall -Werror -shared -fPIC -o libftool.so "$HERE/../fortran/ftool.c"

expect() {  # expect LABEL OUTPUT LINE: the output has LINE
    printf '%s\n' "$2" | grep -qx "$3" || { printf '%s\n' "$2"; fail "$1: expected '$3'"; }
    echo "ok: $1: $3"
}
out=$(run env LD_PRELOAD="$MICA_TMP/libctool.so" "$P/bin/mpiexec" -n 2 ./app)
expect "C-only tool, preloaded" "$out" "rank 0: C MPI_Send 1"
out=$(run env LD_PRELOAD="$MICA_TMP/libftool.so" "$P/bin/mpiexec" -n 2 ./app)
expect "Fortran tool, preloaded" "$out" "rank 0: Fortran mpi_send_ 1, C MPI_Send 0"
out=$(run "$P/bin/mpiexec" -n 2 ./app)
[ -z "$out" ] || fail "without a tool the program printed: $out"

# Static: the tool's objects first, then the libraries.
run "$P/bin/mpicc" -Wall -Werror -c -o ftool.o "$HERE/../fortran/ftool.c"
run "$P/bin/mpicc" -Wall -Werror -c -o ctool.o "$HERE/../fortran/ctool.c"
ar rcs libftool.a ftool.o
ar rcs libctool.a ctool.o
run gfortran -c -I"$P/include" -o app.o "$HERE/../fortran/callthrough.f90"
run gfortran -o app_fstatic app.o libftool.a "$P/lib/libmpi_fort.a" "$P/lib/libmpi.a" -pthread
out=$(run "$P/bin/mpiexec" -n 2 ./app_fstatic)
expect "Fortran tool, static" "$out" "rank 0: Fortran mpi_send_ 1, C MPI_Send 0"
# A C tool goes between the Fortran binding and the C library, which it wraps.
run gfortran -o app_cstatic app.o "$P/lib/libmpi_fort.a" libctool.a "$P/lib/libmpi.a" -pthread
out=$(run "$P/bin/mpiexec" -n 2 ./app_cstatic)
expect "C-only tool, static" "$out" "rank 0: C MPI_Send 1"

N=$MICA_NOWEAK_PREFIX
if [ -f "$N/lib/libmpi_fort.a" ]; then
    L="$N/lib/libmpi_fort.a $N/lib/libpmpi.a $N/lib/libmpi.a"
    run gfortran -o app_nw_f app.o libftool.a $L -pthread
    out=$(run "$P/bin/mpiexec" -n 2 ./app_nw_f)
    expect "Fortran tool, no weak symbols" "$out" "rank 0: Fortran mpi_send_ 1, C MPI_Send 0"
    run gfortran -o app_nw_c app.o "$N/lib/libmpi_fort.a" libctool.a "$N/lib/libpmpi.a" \
        "$N/lib/libmpi.a" -pthread
    out=$(run "$P/bin/mpiexec" -n 2 ./app_nw_c)
    expect "C-only tool, no weak symbols" "$out" "rank 0: C MPI_Send 1"
fi
