! For test_f08_callthrough.sh (2 ranks): with use mpi_f08, rank 0 calls MPI_Send once (IERROR
! omitted), rank 1 MPI_Recv once.
program callthrough_f08
  use mpi_f08
  implicit none
  integer :: ierr, rank, buf(2)
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  buf = [4, 2]
  if (rank == 0) call MPI_Send(buf, 2, MPI_INTEGER, 1, 9, MPI_COMM_WORLD)
  ierr = MPI_SUCCESS
  if (rank == 1) call MPI_Recv(buf, 2, MPI_INTEGER, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  if (ierr /= MPI_SUCCESS .or. buf(2) /= 2) stop 1
  call MPI_Finalize()
end program
