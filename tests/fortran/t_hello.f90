! np: 1 2 4
! MPI_INIT, rank and size, MPI_INITIALIZED / MPI_FINALIZED (LOGICAL outputs), MPI_GET_VERSION,
! MPI_WTIME / MPI_WTICK (DOUBLE PRECISION functions of mpif.h), MPI_BARRIER, MPI_PCONTROL.
program hello
  use mpi
  implicit none
  integer :: ierr, rank, nproc, version, subversion, fails, provided
  logical :: flag
  double precision :: t0, t1, tick
  fails = 0
  call mpi_initialized(flag, ierr)
  if (flag .or. ierr /= MPI_SUCCESS) call fail('initialized before MPI_INIT')
  call mpi_init(ierr)
  if (ierr /= MPI_SUCCESS) call fail('MPI_INIT')
  call mpi_initialized(flag, ierr)
  if (.not. flag) call fail('not initialized after MPI_INIT')
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
  if (ierr /= MPI_SUCCESS .or. rank < 0 .or. rank >= nproc) call fail('rank/size')
  call mpi_comm_size(MPI_COMM_SELF, nproc, ierr)
  if (nproc /= 1) call fail('MPI_COMM_SELF size')
  call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
  call mpi_get_version(version, subversion, ierr)
  if (version /= MPI_VERSION .or. subversion /= MPI_SUBVERSION) call fail('version')
  call mpi_query_thread(provided, ierr)
  if (provided /= MPI_THREAD_SINGLE .and. provided /= MPI_THREAD_FUNNELED .and. &
      provided /= MPI_THREAD_SERIALIZED .and. provided /= MPI_THREAD_MULTIPLE) &
      call fail('query_thread')
  t0 = MPI_WTIME()
  call mpi_barrier(MPI_COMM_WORLD, ierr)
  if (ierr /= MPI_SUCCESS) call fail('barrier')
  t1 = MPI_WTIME()
  tick = MPI_WTICK()
  if (t1 < t0 .or. t0 <= 0d0) call fail('wtime')
  if (tick <= 0d0 .or. tick > 1d0) call fail('wtick')
  call mpi_pcontrol(1)
  call mpi_finalized(flag, ierr)
  if (flag) call fail('finalized before MPI_FINALIZE')
  call mpi_finalize(ierr)
  if (ierr /= MPI_SUCCESS) call fail('MPI_FINALIZE')
  call mpi_finalized(flag, ierr)
  if (.not. flag) call fail('not finalized after MPI_FINALIZE')
  if (fails /= 0) stop 1
  if (rank == 0) print '(a,i0,a)', 'hello from ', nproc, ' ranks'
contains
  subroutine fail(what)
    character(len=*), intent(in) :: what
    print '(a,i0,2a)', 'rank ', rank, ': FAILED: ', what
    fails = fails + 1
  end subroutine
end program
