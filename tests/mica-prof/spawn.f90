! MPI_COMM_SPAWN from Fortran, for test_fortran.sh: its string and string-array arguments (with
! their hidden lengths) pass through the wrapper. The parent (1 rank) starts one copy of this
! program with the argument "child", which checks it received it and replies over the
! intercommunicator.
program spawn
  use mpi
  implicit none
  integer :: ierr, parent, inter, errs(1), n, status(MPI_STATUS_SIZE)
  character(len=32) :: arg, argv(2), cmd
  call mpi_init(ierr)
  call mpi_comm_get_parent(parent, ierr)
  if (parent == MPI_COMM_NULL) then
     call get_command_argument(0, cmd)
     argv(1) = 'child'
     argv(2) = ' '
     call mpi_comm_spawn(cmd, argv, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, inter, errs, ierr)
     call mpi_recv(n, 1, MPI_INTEGER, 0, 0, inter, status, ierr)
     if (n /= 42) stop 1
     call mpi_comm_disconnect(inter, ierr)
  else
     call get_command_argument(1, arg)
     n = 0
     if (arg == 'child') n = 42
     call mpi_send(n, 1, MPI_INTEGER, 0, 0, parent, ierr)
     call mpi_comm_disconnect(parent, ierr)
  end if
  call mpi_finalize(ierr)
end program
