! np: 1
! MPI_WIN_CREATE_ERRHANDLER from Fortran (issue 11, root cause 4): a Fortran SUBROUTINE
! H(WIN, ERROR_CODE) is called with the window's INTEGER handle and the error code, by
! MPI_WIN_CALL_ERRHANDLER and by a failing call on the window.
module winstate
  implicit none
  integer :: calls = 0, last_win = -1, last_code = -1
end module winstate

subroutine winhandler(win, code)
  use winstate
  implicit none
  integer :: win, code
  calls = calls + 1
  last_win = win
  last_code = code
end subroutine

program win_errhandler
  use mpi
  use winstate
  implicit none
  external winhandler
  integer :: ierr, eh, win, cls, errs
  integer :: mem(4)
  errs = 0
  call MPI_INIT(ierr)
  call MPI_WIN_CREATE(mem, 16_MPI_ADDRESS_KIND, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call MPI_WIN_CREATE_ERRHANDLER(winhandler, eh, ierr)
  if (ierr /= MPI_SUCCESS) errs = errs + 1
  call MPI_WIN_SET_ERRHANDLER(win, eh, ierr)
  call MPI_WIN_CALL_ERRHANDLER(win, MPI_ERR_OTHER, ierr)
  if (calls /= 1 .or. last_win /= win .or. last_code /= MPI_ERR_OTHER) errs = errs + 1
  call MPI_WIN_LOCK(12345, 0, 0, win, ierr)          ! not a lock type
  call MPI_ERROR_CLASS(last_code, cls, ierr)
  if (calls /= 2 .or. last_win /= win .or. cls /= MPI_ERR_LOCKTYPE) errs = errs + 1
  call MPI_ERRHANDLER_FREE(eh, ierr)
  call MPI_WIN_FREE(win, ierr)
  call MPI_FINALIZE(ierr)
  if (errs /= 0) then
    print *, 'FAILED: ', errs
    stop 1
  end if
end program
