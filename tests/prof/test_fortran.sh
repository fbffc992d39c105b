#!/bin/bash
# Fortran programs (mpif90 of MPICH and Open MPI): calls are intercepted under the Fortran
# linker names and counted once, whether the MPI's Fortran binding calls the C MPI_X (MPICH)
# or PMPI_X (Open MPI); MPI_IN_PLACE, communicators made in Fortran, MPI_PCONTROL work.
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
    ran=yes
done
[ -n "$ran" ] || skip "no MPI with a Fortran compiler"
