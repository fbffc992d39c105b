! np: 2
! Errors from Fortran: with MPI_ERRORS_RETURN on MPI_COMM_WORLD a bad rank, tag, count,
! communicator or datatype returns IERROR /= MPI_SUCCESS with the right class (MPI_ERROR_CLASS),
! MPI_ERROR_STRING says which argument; an unknown INTEGER handle is an invalid handle, not a
! null one (raised on MPI_COMM_SELF); MPI_COMM_GET_ERRHANDLER gives MPI_ERRORS_RETURN back.
program errors
  use mpi
  implicit none
  integer :: ierr, rank, nproc, fails, cls, buf(4), eh, len, bogus
  character(len=MPI_MAX_ERROR_STRING) :: msg
  fails = 0
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
  call mpi_comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  if (ierr /= MPI_SUCCESS) call fail('set_errhandler')
  ! Errors on no valid communicator are raised on MPI_COMM_SELF.
  call mpi_comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN, ierr)
  call mpi_comm_get_errhandler(MPI_COMM_WORLD, eh, ierr)
  if (eh /= MPI_ERRORS_RETURN) call fail('get_errhandler')
  call mpi_errhandler_free(eh, ierr)
  if (eh /= MPI_ERRHANDLER_NULL) call fail('errhandler_free')
  call mpi_send(buf, 1, MPI_INTEGER, nproc, 0, MPI_COMM_WORLD, ierr)
  call expect(ierr, MPI_ERR_RANK, 'send to rank nproc')
  msg = 'x'
  call mpi_error_string(ierr, msg, len, ierr)
  if (ierr /= MPI_SUCCESS .or. len <= 0 .or. len > MPI_MAX_ERROR_STRING) call fail('error_string')
  if (index(msg(1:len), 'dest') == 0) call fail('error_string does not name dest: ' // msg(1:len))
  if (len < MPI_MAX_ERROR_STRING .and. msg(len + 1:) /= ' ') call fail('error_string not blank-padded')
  call mpi_send(buf, 1, MPI_INTEGER, 0, -5, MPI_COMM_WORLD, ierr)
  call expect(ierr, MPI_ERR_TAG, 'negative tag')
  call mpi_send(buf, -1, MPI_INTEGER, 0, 0, MPI_COMM_WORLD, ierr)
  call expect(ierr, MPI_ERR_COUNT, 'negative count')
  call mpi_send(buf, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD, ierr)
  call expect(ierr, MPI_ERR_TYPE, 'MPI_DATATYPE_NULL')
  bogus = 123456
  call mpi_send(buf, 1, bogus, 0, 0, MPI_COMM_WORLD, ierr)
  call expect(ierr, MPI_ERR_TYPE, 'unknown datatype handle')
  call mpi_barrier(bogus, ierr)
  call expect(ierr, MPI_ERR_COMM, 'unknown communicator handle')
  call mpi_barrier(MPI_COMM_NULL, ierr)
  call expect(ierr, MPI_ERR_COMM, 'MPI_COMM_NULL')
  call mpi_finalize(ierr)
  if (fails /= 0) stop 1
contains
  subroutine expect(code, want, what)
    integer, intent(in) :: code, want
    character(len=*), intent(in) :: what
    integer :: c, e
    if (code == MPI_SUCCESS) then
       call fail(what // ': succeeded')
       return
    end if
    call mpi_error_class(code, c, e)
    if (e /= MPI_SUCCESS .or. c /= want) then
       print '(a,i0,a,i0)', 'class ', c, ' expected ', want
       call fail(what // ': wrong class')
    end if
  end subroutine
  subroutine fail(what)
    character(len=*), intent(in) :: what
    print '(a,i0,2a)', 'rank ', rank, ': FAILED: ', what
    fails = fails + 1
  end subroutine
end program
