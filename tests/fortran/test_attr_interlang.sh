#!/bin/bash
# The standard's interlanguage rule for attribute values (MPI-4.0 19.3.7, MPI 2.2 Example
# 16.19): Fortran programs (attrlang.f90 from mpif.h's interface, attrlang08.f90 from mpi_f08)
# with a C file (attrlang.c) linked in set attributes of communicators, datatypes and windows in
# one language and read, copy and delete them in the other.
. "$(dirname "$0")/../profiling/lib.sh"
P=$MICA_PREFIX
[ -x "$P/bin/mpifort" ] || { echo "SKIP: no mpifort (built without a Fortran compiler)"; exit 77; }
cd "$MICA_TMP" || fail "no MICA_TMP"
run "$P/bin/mpicc" -Wall -Wextra -Werror -c -o attrlang_c.o "$HERE/../fortran/attrlang.c"
run "$P/bin/mpifort" -c -o cside.o "$HERE/../fortran/attrlang_c.f90"
for src in attrlang attrlang08; do
    run "$P/bin/mpifort" -o $src "$HERE/../fortran/$src.f90" cside.o attrlang_c.o
    out=$("$P/bin/mpiexec" -n 2 ./$src 2>&1) || { printf '%s\n' "$out"; fail "$src failed"; }
    [ "$out" = "$(printf 'ok\nok')" ] || { printf '%s\n' "$out"; fail "$src: unexpected output"; }
    echo "ok: $src"
done
