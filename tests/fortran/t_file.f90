! np: 2
! MPI-IO from Fortran: MPI_FILE_OPEN with a Fortran file name, WRITE_AT / READ_AT at
! INTEGER(KIND=MPI_OFFSET_KIND) offsets, GET_SIZE, DELETE_ON_CLOSE; and a Fortran file error
! handler set on MPI_FILE_NULL, called with MPI_FILE_NULL and an MPI_ERR_FILE code.
module filehandler
  implicit none
  integer :: calls = 0, last_file = -1, last_code = -1
end module filehandler

subroutine handler(fh, code)
  use filehandler
  implicit none
  integer :: fh, code
  calls = calls + 1
  last_file = fh
  last_code = code
end subroutine

program file
  use mpi
  use filehandler
  implicit none
  external handler
  integer :: ierr, rank, nproc, fh, eh, cls, stamp, buf(1), peer, ignore
  integer :: status(MPI_STATUS_SIZE), count
  integer(kind=MPI_OFFSET_KIND) :: offset, fsize
  character(len=256) :: name, dir
  integer :: fails
  fails = 0
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
  stamp = getpid()
  call mpi_bcast(stamp, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call get_environment_variable('TMPDIR', dir)
  if (len_trim(dir) == 0) dir = '/tmp'
  write (name, '(A,A,I0)') trim(dir), '/mica-t_file-f90-', stamp

  call mpi_file_open(MPI_COMM_WORLD, trim(name), &
                     MPI_MODE_CREATE + MPI_MODE_RDWR + MPI_MODE_DELETE_ON_CLOSE, &
                     MPI_INFO_NULL, fh, ierr)
  if (ierr /= MPI_SUCCESS) call fail('open')
  buf(1) = 100 + rank
  offset = rank * 4
  call mpi_file_write_at(fh, offset, buf, 1, MPI_INTEGER, status, ierr)
  if (ierr /= MPI_SUCCESS) call fail('write_at')
  call mpi_file_sync(fh, ierr)
  call mpi_barrier(MPI_COMM_WORLD, ierr)
  call mpi_file_sync(fh, ierr)
  call mpi_file_get_size(fh, fsize, ierr)
  if (fsize /= 4 * nproc) call fail('get_size')
  peer = mod(rank + 1, nproc)
  offset = peer * 4
  call mpi_file_read_at(fh, offset, buf, 1, MPI_INTEGER, status, ierr)
  call mpi_get_count(status, MPI_INTEGER, count, ierr)
  if (buf(1) /= 100 + peer .or. count /= 1) call fail('read_at')
  call mpi_file_close(fh, ierr)
  if (ierr /= MPI_SUCCESS .or. fh /= MPI_FILE_NULL) call fail('close')

  ! Deleted on close: opening it again fails, on MPI_FILE_NULL's (Fortran) handler.
  call mpi_file_create_errhandler(handler, eh, ierr)
  call mpi_file_set_errhandler(MPI_FILE_NULL, eh, ierr)
  if (ierr /= MPI_SUCCESS) call fail('set_errhandler')
  call mpi_file_open(MPI_COMM_WORLD, trim(name), MPI_MODE_RDONLY, MPI_INFO_NULL, fh, ierr)
  call mpi_error_class(ierr, cls, ignore)
  if (cls /= MPI_ERR_NO_SUCH_FILE) call fail('open of a deleted file')
  if (calls /= 1 .or. last_file /= MPI_FILE_NULL .or. last_code /= ierr) call fail('handler')
  call mpi_file_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN, ierr)
  call mpi_errhandler_free(eh, ierr)

  call mpi_finalize(ierr)
  if (fails > 0) stop 1
contains
  subroutine fail(what)
    character(len=*) :: what
    print '(A,I0,A,A)', 'rank ', rank, ': FAILED ', what
    fails = fails + 1
  end subroutine
end program
