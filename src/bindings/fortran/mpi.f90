! The `mpi` module: mpif.h's constants and MPI_SIZEOF (a generic of module procedures, from
! gen/fortran_f08.py); no explicit interfaces for the rest yet, so choice buffers of any type
! pass as they do with mpif.h.
module mpi
  implicit none
  include 'mpif.h'
  include 'mpi_sizeof.h'
contains
  include 'mpi_sizeof_procs.h'
end module mpi
