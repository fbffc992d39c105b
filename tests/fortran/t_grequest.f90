! np: 1
! MPI_GREQUEST_START from Fortran (issue 11, root cause 4): the Fortran query, free and cancel
! procedures are called with Fortran's conventions (EXTRA_STATE by reference, the STATUS array,
! IERROR), the query's status is the one MPI_WAIT gives, and MPI_CANCEL reaches the cancel
! procedure with COMPLETE. EXTRA_STATE is the user's variable itself, as with MPICH and Open MPI:
! what the free procedure stores there, the program sees.
module grstate
  implicit none
  integer :: queries = 0, frees = 0, cancels = 0
  integer(kind=8) :: seen = -1
  logical :: seen_complete = .true.
end module grstate

subroutine query_fn(extra, status, ierror)
  use mpi
  use grstate
  implicit none
  integer(kind=MPI_ADDRESS_KIND) :: extra
  integer :: status(MPI_STATUS_SIZE), ierror
  queries = queries + 1
  seen = extra
  status(MPI_SOURCE) = 3
  status(MPI_TAG) = 44
  call MPI_STATUS_SET_ELEMENTS(status, MPI_INTEGER, 0, ierror)
  call MPI_STATUS_SET_CANCELLED(status, .false., ierror)
  ierror = MPI_SUCCESS
end subroutine

subroutine free_fn(extra, ierror)
  use mpi
  use grstate
  implicit none
  integer(kind=MPI_ADDRESS_KIND) :: extra
  integer :: ierror
  frees = frees + 1
  extra = extra + 1
  ierror = MPI_SUCCESS
end subroutine

subroutine cancel_fn(extra, complete, ierror)
  use mpi
  use grstate
  implicit none
  integer(kind=MPI_ADDRESS_KIND) :: extra
  logical :: complete
  integer :: ierror
  cancels = cancels + 1
  seen_complete = complete
  ierror = MPI_SUCCESS
end subroutine

program grequest
  use mpi
  use grstate
  implicit none
  external query_fn, free_fn, cancel_fn
  integer :: ierr, req, status(MPI_STATUS_SIZE), errs
  integer(kind=MPI_ADDRESS_KIND) :: state
  errs = 0
  state = 1234
  call MPI_INIT(ierr)
  call MPI_GREQUEST_START(query_fn, free_fn, cancel_fn, state, req, ierr)
  if (ierr /= MPI_SUCCESS) errs = errs + 1
  call MPI_CANCEL(req, ierr)
  if (cancels /= 1 .or. seen_complete) errs = errs + 1
  call MPI_GREQUEST_COMPLETE(req, ierr)
  call MPI_WAIT(req, status, ierr)
  if (queries /= 1 .or. frees /= 1 .or. seen /= 1234 .or. state /= 1235) errs = errs + 1
  if (status(MPI_SOURCE) /= 3 .or. status(MPI_TAG) /= 44) errs = errs + 1
  if (req /= MPI_REQUEST_NULL) errs = errs + 1
  call MPI_FINALIZE(ierr)
  if (errs /= 0) then
    print *, 'FAILED: ', errs, queries, frees, cancels, seen
    stop 1
  end if
end program
