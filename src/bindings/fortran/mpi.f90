! The `mpi` module (step 1): the constants of mpif.h, no explicit interfaces yet, so choice
! buffers of any type pass as they do with mpif.h.
module mpi
  implicit none
  include 'mpif.h'
end module mpi
