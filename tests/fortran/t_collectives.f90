! np: 1 2 3 4
! Collectives from Fortran: MPI_ALLREDUCE with MPI_IN_PLACE (the COMMON block's address means
! C's MPI_IN_PLACE) and without, MPI_BCAST, MPI_REDUCE, MPI_ALLGATHER with MPI_IN_PLACE;
! MPI_COMM_SPLIT / MPI_COMM_DUP / MPI_COMM_COMPARE / MPI_COMM_FREE (user communicators as
! Fortran INTEGER handles, freed ones become MPI_COMM_NULL).
program collectives
  use mpi
  implicit none
  integer :: ierr, rank, nproc, fails, i, newcomm, dupcomm, nrank, nsize, result
  integer :: v(3), w(3), all(64)
  double precision :: d(2)
  fails = 0
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
  v = (/ rank, 1, 2 * rank /)
  call mpi_allreduce(MPI_IN_PLACE, v, 3, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (ierr /= MPI_SUCCESS) call fail('allreduce in place')
  if (v(1) /= nproc * (nproc - 1) / 2 .or. v(2) /= nproc .or. v(3) /= nproc * (nproc - 1)) &
      call fail('allreduce in place: values')
  d = (/ dble(rank), -dble(rank) /)
  call mpi_allreduce(MPI_IN_PLACE, d, 2, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
  if (d(1) /= dble(nproc - 1) .or. d(2) /= 0d0) call fail('allreduce max')
  v = (/ rank, 1, 2 /)
  w = 0
  call mpi_allreduce(v, w, 3, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (w(2) /= nproc .or. w(3) /= 2 * nproc) call fail('allreduce')
  w = 0
  call mpi_reduce(v, w, 3, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. w(2) /= nproc) call fail('reduce')
  if (rank == 0) v = (/ 9, 8, 7 /)
  call mpi_bcast(v, 3, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  if (v(1) /= 9 .or. v(3) /= 7) call fail('bcast')
  all = -1
  all(rank + 1) = 10 * rank
  call mpi_allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 1, MPI_INTEGER, &
                     MPI_COMM_WORLD, ierr)
  do i = 1, nproc
     if (all(i) /= 10 * (i - 1)) call fail('allgather in place')
  end do
  ! Even and odd ranks, ordered backwards.
  call mpi_comm_split(MPI_COMM_WORLD, mod(rank, 2), nproc - rank, newcomm, ierr)
  if (ierr /= MPI_SUCCESS .or. newcomm == MPI_COMM_NULL) call fail('comm_split')
  if (newcomm == MPI_COMM_WORLD) call fail('comm_split gave MPI_COMM_WORLD')
  call mpi_comm_rank(newcomm, nrank, ierr)
  call mpi_comm_size(newcomm, nsize, ierr)
  if (nsize /= (nproc + 1 - mod(rank, 2)) / 2) call fail('split size')
  if (nrank /= nsize - 1 - rank / 2) call fail('split rank')
  v(1) = 1
  call mpi_allreduce(MPI_IN_PLACE, v, 1, MPI_INTEGER, MPI_SUM, newcomm, ierr)
  if (v(1) /= nsize) call fail('allreduce on the new communicator')
  call mpi_comm_dup(newcomm, dupcomm, ierr)
  if (dupcomm == newcomm .or. dupcomm == MPI_COMM_NULL) call fail('comm_dup handle')
  call mpi_comm_compare(newcomm, dupcomm, result, ierr)
  if (result /= MPI_CONGRUENT) call fail('comm_compare')
  call mpi_comm_free(dupcomm, ierr)
  if (ierr /= MPI_SUCCESS .or. dupcomm /= MPI_COMM_NULL) call fail('comm_free dup')
  call mpi_comm_free(newcomm, ierr)
  if (ierr /= MPI_SUCCESS .or. newcomm /= MPI_COMM_NULL) call fail('comm_free')
  ! A split with MPI_UNDEFINED gives MPI_COMM_NULL.
  call mpi_comm_split(MPI_COMM_WORLD, MPI_UNDEFINED, 0, newcomm, ierr)
  if (newcomm /= MPI_COMM_NULL) call fail('split MPI_UNDEFINED')
  call mpi_finalize(ierr)
  if (fails /= 0) stop 1
contains
  subroutine fail(what)
    character(len=*), intent(in) :: what
    print '(a,i0,2a)', 'rank ', rank, ': FAILED: ', what
    fails = fails + 1
  end subroutine
end program
