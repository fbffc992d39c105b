! np: 1
! mpif.h declares the profiling names of its functions too (PMPI_WTIME, PMPI_WTICK,
! PMPI_AINT_ADD, PMPI_AINT_DIFF), so that with IMPLICIT NONE they are DOUBLE PRECISION and
! INTEGER(KIND=MPI_ADDRESS_KIND) functions (issue 11: MPICH's suite calls PMPI_WTIME).
program pmpi_functions
  implicit none
  include 'mpif.h'
  integer :: ierr, errs
  double precision :: t1, t2
  integer(kind=MPI_ADDRESS_KIND) :: a
  errs = 0
  call MPI_INIT(ierr)
  t1 = PMPI_WTIME()
  t2 = MPI_WTIME()
  if (t2 < t1 .or. PMPI_WTICK() <= 0d0) errs = errs + 1
  a = PMPI_AINT_ADD(100_MPI_ADDRESS_KIND, 20_MPI_ADDRESS_KIND)
  if (a /= 120 .or. PMPI_AINT_DIFF(a, 20_MPI_ADDRESS_KIND) /= 100) errs = errs + 1
  call MPI_FINALIZE(ierr)
  if (errs /= 0) then
    print *, 'FAILED: ', errs
    stop 1
  end if
end program
