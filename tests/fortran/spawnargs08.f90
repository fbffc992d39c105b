! For test_spawn_args.sh: MPI_COMM_SPAWN(_MULTIPLE)'s string arrays from mpi_f08.
program spawnargs08
  use mpi_f08
  implicit none
  integer :: ierr, codes(2), maxprocs(2)
  type(MPI_Comm) :: inter
  type(MPI_Info) :: infos(2)
  character(len=8) :: argv(3), cmds(2), argvs(2, 3)
  call mpi_init(ierr)
  argv = [character(len=8) :: 'a b', '  c', ' ']
  call mpi_comm_spawn('prog  ', argv, 2, MPI_INFO_NULL, 0, MPI_COMM_SELF, inter, codes, ierr)
  print '(a,2i4)', 'errcodes', codes
  call mpi_comm_spawn('prog', MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_SELF, inter, &
                      MPI_ERRCODES_IGNORE, ierr)
  cmds = [character(len=8) :: 'one', 'two']
  argvs(1, :) = [character(len=8) :: 'x', 'y', ' ']
  argvs(2, :) = [character(len=8) :: 'z', ' ', ' ']
  maxprocs = [1, 2]
  infos = MPI_INFO_NULL
  call mpi_comm_spawn_multiple(2, cmds, argvs, maxprocs, infos, 0, MPI_COMM_SELF, inter, &
                               MPI_ERRCODES_IGNORE, ierr)
  call mpi_comm_spawn_multiple(2, cmds, MPI_ARGVS_NULL, maxprocs, infos, 0, MPI_COMM_SELF, &
                               inter, MPI_ERRCODES_IGNORE, ierr)
  call mpi_finalize(ierr)
end program
