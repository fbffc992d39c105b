! Fortran calls, for test_fortran.sh (2 ranks): each is counted once (not again as the C call
! the MPI library's Fortran binding may make), bytes and matrix as in C, sites in this file.
program fortran
  use mpi
  implicit none
  integer :: ierr, rank, nproc, i, buf(100), sbuf(4), newcomm
  integer :: status(MPI_STATUS_SIZE)
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
  buf = 0
  do i = 1, 10
     if (rank == 0) then
        call mpi_send(buf, 100, MPI_INTEGER, 1, 7, MPI_COMM_WORLD, ierr)
     else if (rank == 1) then
        call mpi_recv(buf, 100, MPI_INTEGER, 0, 7, MPI_COMM_WORLD, status, ierr)
     end if
  end do
  call mpi_bcast(buf, 10, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
  sbuf = 1
  call mpi_allreduce(MPI_IN_PLACE, sbuf, 4, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  ! MPI_IN_PLACE: the send count and type are not looked at (Fortran's MPI_IN_PLACE recognized)
  call mpi_allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, 4, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  ! ranks reversed: world rank 1 is rank 0 here and sends to rank 1, world rank 0
  call mpi_comm_split(MPI_COMM_WORLD, 0, nproc - rank, newcomm, ierr)
  if (rank == 1) call mpi_send(buf, 5, MPI_INTEGER, 1, 8, newcomm, ierr)
  if (rank == 0) call mpi_recv(buf, 5, MPI_INTEGER, 0, 8, newcomm, status, ierr)
  call mpi_comm_free(newcomm, ierr)
  call mpi_pcontrol(0)
  call mpi_barrier(MPI_COMM_WORLD, ierr)
  call mpi_pcontrol(1)
  call mpi_finalize(ierr)
end program
