#!/bin/bash
# Fortran programs (mpif90 of MPICH and Open MPI): calls are intercepted under the Fortran
# linker names and counted once, whether the MPI's Fortran binding calls the C MPI_X (MPICH)
# or PMPI_X (Open MPI); MPI_IN_PLACE, communicators made in Fortran, MPI_PCONTROL work; and
# programs using the mpi_f08 module; MPI_COMM_SPAWN (string arrays) where the MPI can spawn.
. "$(dirname "$0")/lib.sh"
cd "$MICA_TMP" || exit 1
np=2
ran=
for f in $(flavors); do
    fc=$(fc_of "$f")
    [ -n "$fc" ] || { echo "$f: no Fortran compiler"; continue; }
    lib_of "$f" >/dev/null
    run_logged "fc-$f" $fc -O1 -g -o "fortran-$f" "$HERE/fortran.f90"
    run_logged "run-$f" $(run_of "$f" $np) "$PROF" --dir "out-$f" "./fortran-$f"
    check fortran "$(report "out-$f")" $np || fail "$f: Fortran"
    if $fc -O1 -g -o "f08-$f" "$HERE/fortran08.f90" > "f08cc-$f.log" 2>&1; then
        run_logged "run08-$f" $(run_of "$f" $np) "$PROF" --dir "out08-$f" "./f08-$f"
        check fortran08 "$(report "out08-$f")" $np || fail "$f: use mpi_f08"
    else
        echo "$f: no mpi_f08 module"
    fi
    if ! $fc -O1 -g -o "spawn-$f" "$HERE/spawn.f90" > "fcspawn-$f.log" 2>&1; then
        cat "fcspawn-$f.log"
        fail "$f: compiling spawn.f90"
    elif timeout 60 $(run_of "$f" 1) "./spawn-$f" > "spawn0-$f.log" 2>&1; then
        run_logged "spawn-$f" timeout 60 $(run_of "$f" 1) "$PROF" --dir "outsp-$f" "./spawn-$f"
        check spawn "$(report "outsp-$f")" 1 || fail "$f: MPI_COMM_SPAWN"
    else
        echo "$f: cannot spawn here (without the profiler either)"
    fi
    ran=yes
done
[ -n "$ran" ] || skip "no MPI with a Fortran compiler"
