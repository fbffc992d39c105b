! Hello from every rank with the mpi_f08 module: handles are types, IERROR is optional, and a
! strided array section is a valid buffer, even for a nonblocking call.
program hello_f08
  use mpi_f08
  implicit none
  integer :: rank, nproc, i
  real :: grid(8, 8), column(8)
  type(MPI_Request) :: req
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nproc)
  print '(a,i0,a,i0)', 'hello from rank ', rank, ' of ', nproc
  grid = reshape([(real(i), i = 1, 64)], [8, 8])
  ! Rank 0 sends row 3 (stride 8 in memory) to the last rank, which receives it contiguously.
  if (rank == 0) then
     call MPI_Isend(grid(3, :), 8, MPI_REAL, nproc - 1, 0, MPI_COMM_WORLD, req)
     call MPI_Wait(req, MPI_STATUS_IGNORE)
  end if
  if (rank == nproc - 1) then
     call MPI_Recv(column, 8, MPI_REAL, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
     print '(a,8f5.0)', 'row 3: ', column
  end if
  call MPI_Finalize()
end program hello_f08
