! For test_callthrough.sh (2 ranks): rank 0 calls MPI_SEND once, rank 1 MPI_RECV once.
program callthrough
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, buf(2), status(MPI_STATUS_SIZE)
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  buf = (/ 4, 2 /)
  if (rank == 0) call mpi_send(buf, 2, MPI_INTEGER, 1, 9, MPI_COMM_WORLD, ierr)
  if (rank == 1) call mpi_recv(buf, 2, MPI_INTEGER, 0, 9, MPI_COMM_WORLD, status, ierr)
  if (ierr /= MPI_SUCCESS .or. buf(2) /= 2) stop 1
  call mpi_finalize(ierr)
end program
