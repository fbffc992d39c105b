! np: 2
! Error handlers from Fortran: MPI_COMM_CREATE_ERRHANDLER with a Fortran SUBROUTINE H(COMM,
! ERROR_CODE) is called with the INTEGER handle of the communicator the error happened on and an
! error code of the right class; the failing call then returns that code; MPI_COMM_CALL_ERRHANDLER
! calls it with the code given; a communicator duplicated inherits it; MPI_ERRHANDLER_FREE.
module handlerstate
  implicit none
  integer :: calls = 0, last_comm = -1, last_code = -1
end module handlerstate

subroutine handler(comm, code)
  use handlerstate
  implicit none
  integer :: comm, code
  calls = calls + 1
  last_comm = comm
  last_code = code
end subroutine

program errhandler
  use mpi
  use handlerstate
  implicit none
  external handler
  integer :: ierr, rank, nproc, fails, eh, dup, dup2, buf(2), cls, got
  fails = 0
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
  call mpi_comm_create_errhandler(handler, eh, ierr)
  if (ierr /= MPI_SUCCESS .or. eh == MPI_ERRHANDLER_NULL) call fail('create_errhandler')
  call mpi_comm_dup(MPI_COMM_WORLD, dup, ierr)
  call mpi_comm_set_errhandler(dup, eh, ierr)
  if (ierr /= MPI_SUCCESS) call fail('set_errhandler')
  call mpi_comm_get_errhandler(dup, got, ierr)
  if (got /= eh) call fail('get_errhandler')
  call mpi_errhandler_free(got, ierr)

  ! An invalid rank: the handler sees dup and an MPI_ERR_RANK code; the call returns it.
  call mpi_send(buf, 1, MPI_INTEGER, nproc, 0, dup, ierr)
  if (calls /= 1) call fail('handler not called once')
  if (last_comm /= dup) call fail('handler called with another communicator')
  call mpi_error_class(last_code, cls, ierr)
  if (cls /= MPI_ERR_RANK) call fail('handler: error class')
  call mpi_send(buf, -1, MPI_INTEGER, 0, 0, dup, ierr)
  call mpi_error_class(ierr, cls, got)
  if (calls /= 2 .or. cls /= MPI_ERR_COUNT .or. last_code /= ierr) call fail('negative count')

  ! MPI_COMM_CALL_ERRHANDLER passes the code through.
  call mpi_comm_call_errhandler(dup, MPI_ERR_OTHER, ierr)
  if (calls /= 3 .or. last_code /= MPI_ERR_OTHER .or. last_comm /= dup) &
      call fail('comm_call_errhandler')

  ! A duplicate inherits the handler; freeing the handle keeps it alive while in use.
  call mpi_errhandler_free(eh, ierr)
  if (ierr /= MPI_SUCCESS .or. eh /= MPI_ERRHANDLER_NULL) call fail('errhandler_free')
  call mpi_comm_dup(dup, dup2, ierr)
  call mpi_recv(buf, 1, MPI_INTEGER, 0, -7, dup2, MPI_STATUS_IGNORE, ierr)
  call mpi_error_class(last_code, cls, got)
  if (calls /= 4 .or. last_comm /= dup2 .or. cls /= MPI_ERR_TAG) call fail('inherited handler')

  ! The handler of MPI_COMM_WORLD is untouched.
  call mpi_comm_get_errhandler(MPI_COMM_WORLD, got, ierr)
  if (got /= MPI_ERRORS_ARE_FATAL) call fail('MPI_COMM_WORLD handler changed')
  call mpi_comm_free(dup2, ierr)
  call mpi_comm_free(dup, ierr)
  call mpi_finalize(ierr)
  if (fails /= 0) stop 1
contains
  subroutine fail(what)
    character(len=*), intent(in) :: what
    print '(a,i0,2a)', 'rank ', rank, ': FAILED: ', what
    fails = fails + 1
  end subroutine
end program
