! use mpi_f08, for test_fortran.sh (2 ranks): Open MPI's f08 entry points are wrapped under
! their linker names; MPICH's reach its C functions, which are wrapped. Counted once either way.
program fortran08
  use mpi_f08
  implicit none
  integer :: rank, i, buf(100)
  type(MPI_Status) :: st
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  buf = 0
  do i = 1, 10
    if (rank == 0) call MPI_Send(buf, 100, MPI_INTEGER, 1, 7, MPI_COMM_WORLD)
    if (rank == 1) call MPI_Recv(buf, 100, MPI_INTEGER, 0, 7, MPI_COMM_WORLD, st)
  end do
  call MPI_Allreduce(MPI_IN_PLACE, buf, 4, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  call MPI_Finalize()
end program
