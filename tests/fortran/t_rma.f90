! np: 2
! One-sided communication from Fortran: MPI_WIN_CREATE on an INTEGER array, the predefined
! window attributes as values (not C's pointers), MPI_PUT and MPI_ACCUMULATE between fences.
program t_rma
  use mpi
  implicit none
  integer :: ierr, rank, size, win, right, left, fails, v, buf(4)
  integer(kind=MPI_ADDRESS_KIND) :: val, wsize, disp
  logical :: flag
  fails = 0
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, size, ierr)
  buf = 0
  wsize = 16
  call mpi_win_create(buf, wsize, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call mpi_win_get_attr(win, MPI_WIN_SIZE, val, flag, ierr)
  if (.not. flag .or. val /= 16) call fail('MPI_WIN_SIZE')
  call mpi_win_get_attr(win, MPI_WIN_DISP_UNIT, val, flag, ierr)
  if (.not. flag .or. val /= 4) call fail('MPI_WIN_DISP_UNIT')
  call mpi_win_get_attr(win, MPI_WIN_CREATE_FLAVOR, val, flag, ierr)
  if (.not. flag .or. val /= MPI_WIN_FLAVOR_CREATE) call fail('MPI_WIN_CREATE_FLAVOR')
  right = mod(rank + 1, size)
  left = mod(rank + size - 1, size)
  v = 10 + rank
  disp = 1
  call mpi_win_fence(0, win, ierr)
  call mpi_put(v, 1, MPI_INTEGER, right, disp, 1, MPI_INTEGER, win, ierr)
  disp = 2
  call mpi_accumulate(v, 1, MPI_INTEGER, 0, disp, 1, MPI_INTEGER, MPI_SUM, win, ierr)
  call mpi_win_fence(0, win, ierr)
  if (buf(2) /= 10 + left) call fail('put')
  if (rank == 0 .and. buf(3) /= 10 * size + size * (size - 1) / 2) call fail('accumulate')
  call mpi_win_free(win, ierr)
  if (win /= MPI_WIN_NULL) call fail('MPI_WIN_FREE')
  call mpi_finalize(ierr)
  if (fails /= 0) stop 1
contains
  subroutine fail(what)
    character(len=*), intent(in) :: what
    print '(a,i0,2a)', 'rank ', rank, ': FAILED: ', what
    fails = fails + 1
  end subroutine
end program
