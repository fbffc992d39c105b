#!/bin/bash
# MPI_COMM_SPAWN(_MULTIPLE)'s Fortran string arrays reach C as the standard says: ARGV up to its
# first blank element, each trimmed; ARRAY_OF_ARGV(COUNT, *) an ARGV per command; MPI_ARGV_NULL,
# MPI_ARGVS_NULL and MPI_ERRCODES_IGNORE as C's; error codes written back. From mpif.h and from
# mpi_f08, seen by a C tool (spawntool.c) that stands in for the spawn.
. "$(dirname "$0")/../profiling/lib.sh"
P=$MICA_PREFIX
[ -x "$P/bin/mpifort" ] || { echo "SKIP: no mpifort (built without a Fortran compiler)"; exit 77; }
cd "$MICA_TMP" || fail "no MICA_TMP"
run "$P/bin/mpicc" -Wall -Werror -shared -fPIC -o libspawntool.so "$HERE/../fortran/spawntool.c"
cat > expected <<'OUT'
spawn [prog] maxprocs 2 errcodes given
argv: [a b] [c]
errcodes  40  41
spawn [prog] maxprocs 1 errcodes ignored
argv: MPI_ARGV_NULL
spawn_multiple 2
command 0 [one] maxprocs 1 argv: [x] [y]
command 1 [two] maxprocs 2 argv: [z]
spawn_multiple 2 MPI_ARGVS_NULL
command 0 [one] maxprocs 1 argv: MPI_ARGV_NULL
command 1 [two] maxprocs 2 argv: MPI_ARGV_NULL
OUT
for src in spawnargs spawnargs08; do
    run "$P/bin/mpifort" -o $src "$HERE/../fortran/$src.f90"
    LD_PRELOAD=$MICA_TMP/libspawntool.so ./$src > out-$src 2>&1 || { cat out-$src; fail "$src failed"; }
    diff expected out-$src || fail "$src: the C function saw other arguments"
    echo "ok: $src"
done
