! np: 1
! MPI_WIN_CREATE_KEYVAL from Fortran (issue 11, root cause 4): the Fortran delete procedure
! runs with Fortran's conventions when the attribute is replaced and when the window is freed.
module wkstate
  implicit none
  integer :: deletes = 0
  integer(kind=8) :: last_value = -1
end module wkstate

subroutine delete_fn(win, keyval, value, extra, ierror)
  use mpi
  use wkstate
  implicit none
  integer :: win, keyval, ierror
  integer(kind=MPI_ADDRESS_KIND) :: value, extra
  deletes = deletes + 1
  last_value = value
  ierror = MPI_SUCCESS
end subroutine

program win_keyval
  use mpi
  use wkstate
  implicit none
  external delete_fn
  integer :: ierr, win, key, errs
  integer :: mem(4)
  integer(kind=MPI_ADDRESS_KIND) :: val
  logical :: flag
  errs = 0
  call MPI_INIT(ierr)
  call MPI_WIN_CREATE(mem, 16_MPI_ADDRESS_KIND, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call MPI_WIN_CREATE_KEYVAL(MPI_WIN_NULL_COPY_FN, delete_fn, key, 0_MPI_ADDRESS_KIND, ierr)
  if (ierr /= MPI_SUCCESS) errs = errs + 1
  call MPI_WIN_SET_ATTR(win, key, 21_MPI_ADDRESS_KIND, ierr)
  call MPI_WIN_GET_ATTR(win, key, val, flag, ierr)
  if (.not. flag .or. val /= 21) errs = errs + 1
  call MPI_WIN_SET_ATTR(win, key, 22_MPI_ADDRESS_KIND, ierr)
  if (deletes /= 1 .or. last_value /= 21) errs = errs + 1
  call MPI_WIN_FREE_KEYVAL(key, ierr)
  call MPI_WIN_FREE(win, ierr)
  if (deletes /= 2 .or. last_value /= 22) errs = errs + 1
  call MPI_FINALIZE(ierr)
  if (errs /= 0) then
    print *, 'FAILED: ', errs, deletes, last_value
    stop 1
  end if
end program
