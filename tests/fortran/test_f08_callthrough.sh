#!/bin/bash
# The call-through rule for mpi_f08 (docs/PROFILING.md): the specific procedure MPI_Send_f08ts
# calls the C MPI_Send, PMPI_Send_f08ts the C PMPI_Send. So a C tool sees an mpi_f08 program's
# one MPI_Send exactly once, and an mpi_f08 tool written in Fortran, defining MPI_Send_f08ts and
# calling PMPI_Send, sees it once while the C tool beside it sees nothing: preloaded, linked
# statically, and with the libraries of the build without weak symbols.
. "$(dirname "$0")/../profiling/lib.sh"
P=$MICA_PREFIX
[ -x "$P/bin/mpifort" ] || { echo "SKIP: no mpifort (built without a Fortran compiler)"; exit 77; }
cd "$MICA_TMP" || fail "no MICA_TMP"
F=$HERE/../fortran
run "$P/bin/mpifort" -o app "$F/callthrough_f08.f90"
run "$P/bin/mpifort" -shared -fPIC -o libftool08.so "$F/ftool08.f90"
run "$P/bin/mpicc" -Wall -Werror -shared -fPIC -o libctool08.so "$F/ctool08.c"

expect() {  # expect LABEL OUTPUT LINE: the output has LINE
    printf '%s\n' "$2" | grep -qx "$3" || { printf '%s\n' "$2"; fail "$1: expected '$3'"; }
    echo "ok: $1: $3"
}
out=$(run env LD_PRELOAD="$MICA_TMP/libctool08.so" "$P/bin/mpiexec" -n 2 ./app)
expect "C tool, preloaded" "$out" "rank 0: Fortran MPI_Send_f08ts -1, C MPI_Send 1"
out=$(run env LD_PRELOAD="$MICA_TMP/libftool08.so $MICA_TMP/libctool08.so" "$P/bin/mpiexec" -n 2 ./app)
expect "Fortran and C tools, preloaded" "$out" "rank 0: Fortran MPI_Send_f08ts 1, C MPI_Send 0"
out=$(run "$P/bin/mpiexec" -n 2 ./app)
[ -z "$out" ] || fail "without a tool the program printed: $out"

# Static: the Fortran tool before libmpi_fort.a, the C tool between it and libmpi.a.
run "$P/bin/mpifort" -c -o ftool08.o "$F/ftool08.f90"
run "$P/bin/mpicc" -Wall -Werror -c -o ctool08.o "$F/ctool08.c"
ar rcs libftool08.a ftool08.o
ar rcs libctool08.a ctool08.o
run "$P/bin/mpifort" -c -o app.o "$F/callthrough_f08.f90"
run gfortran -o app_static app.o libftool08.a "$P/lib/libmpi_fort.a" libctool08.a "$P/lib/libmpi.a" -pthread
out=$(run "$P/bin/mpiexec" -n 2 ./app_static)
expect "Fortran and C tools, static" "$out" "rank 0: Fortran MPI_Send_f08ts 1, C MPI_Send 0"
run gfortran -o app_cstatic app.o "$P/lib/libmpi_fort.a" libctool08.a "$P/lib/libmpi.a" -pthread
out=$(run "$P/bin/mpiexec" -n 2 ./app_cstatic)
expect "C tool, static" "$out" "rank 0: Fortran MPI_Send_f08ts -1, C MPI_Send 1"

N=$MICA_NOWEAK_PREFIX
if [ -f "$N/lib/libmpi_fort.a" ]; then
    L="$N/lib/libpmpi.a $N/lib/libmpi.a"
    run gfortran -o app_nw app.o libftool08.a "$N/lib/libmpi_fort.a" libctool08.a $L -pthread
    out=$(run "$P/bin/mpiexec" -n 2 ./app_nw)
    expect "Fortran and C tools, no weak symbols" "$out" "rank 0: Fortran MPI_Send_f08ts 1, C MPI_Send 0"
    run gfortran -o app_nw_c app.o "$N/lib/libmpi_fort.a" libctool08.a $L -pthread
    out=$(run "$P/bin/mpiexec" -n 2 ./app_nw_c)
    expect "C tool, no weak symbols" "$out" "rank 0: Fortran MPI_Send_f08ts -1, C MPI_Send 1"
fi
