! np: 1 2 3 4
! User-defined operations from Fortran: MPI_OP_CREATE with a Fortran SUBROUTINE F(INVEC,
! INOUTVEC, LEN, DATATYPE) called with the INTEGER datatype handle; a commutative op on
! MPI_INTEGER in MPI_ALLREDUCE, a non-commutative one (2x2 integer matrix products, a derived
! datatype) in MPI_ALLREDUCE and MPI_REDUCE giving the product in rank order, exactly;
! MPI_REDUCE_LOCAL, MPI_OP_COMMUTATIVE, MPI_OP_FREE.
module opstate
  implicit none
  integer :: seen_type = -1, calls = 0
end module opstate

! inoutvec(i) = |invec(i)| + |inoutvec(i)| (commutative).
subroutine abssum(invec, inoutvec, len, datatype)
  use opstate
  implicit none
  integer :: len, datatype, i
  integer :: invec(len), inoutvec(len)
  calls = calls + 1
  seen_type = datatype
  do i = 1, len
     inoutvec(i) = abs(invec(i)) + abs(inoutvec(i))
  end do
end subroutine

! inoutvec(k) = invec(k) * inoutvec(k), 2x2 matrices stored as 4 INTEGERs (column major).
subroutine matmul2(invec, inoutvec, len, datatype)
  use opstate
  implicit none
  integer :: len, datatype, k
  integer :: invec(2, 2, len), inoutvec(2, 2, len)
  seen_type = datatype
  do k = 1, len
     inoutvec(:, :, k) = matmul(invec(:, :, k), inoutvec(:, :, k))
  end do
end subroutine

program userop
  use mpi
  use opstate
  implicit none
  external abssum, matmul2
  integer :: ierr, rank, nproc, fails, op, mop, mat, r
  integer :: v(5), expect(5), m(2, 2, 2), res(2, 2, 2), want(2, 2, 2), a(3), b(3)
  logical :: comm_flag
  fails = 0
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)

  call mpi_op_create(abssum, .true., op, ierr)
  if (ierr /= MPI_SUCCESS .or. op == MPI_OP_NULL) call fail('op_create')
  v = (/ -rank, rank, 1, 2, 100 * rank /)
  call mpi_allreduce(MPI_IN_PLACE, v, 5, MPI_INTEGER, op, MPI_COMM_WORLD, ierr)
  expect = (/ nproc * (nproc - 1) / 2, nproc * (nproc - 1) / 2, nproc, 2 * nproc, &
              50 * nproc * (nproc - 1) /)
  if (ierr /= MPI_SUCCESS .or. any(v /= expect)) call fail('allreduce with abssum')
  call mpi_op_commutative(op, comm_flag, ierr)
  if (.not. comm_flag) call fail('op_commutative')
  a = (/ -1, 2, -3 /)
  b = (/ 4, -5, 6 /)
  calls = 0
  seen_type = -1
  call mpi_reduce_local(a, b, 3, MPI_INTEGER, op, ierr)
  if (ierr /= MPI_SUCCESS .or. calls /= 1 .or. any(b /= (/ 5, 7, 9 /))) call fail('reduce_local')
  if (seen_type /= MPI_INTEGER) call fail('datatype argument')
  call mpi_op_free(op, ierr)
  if (ierr /= MPI_SUCCESS .or. op /= MPI_OP_NULL) call fail('op_free')

  ! Non-commutative: the product M(0) M(1) ... M(nproc-1), two independent elements.
  call mpi_type_contiguous(4, MPI_INTEGER, mat, ierr)
  call mpi_type_commit(mat, ierr)
  call mpi_op_create(matmul2, .false., mop, ierr)
  call mpi_op_commutative(mop, comm_flag, ierr)
  if (comm_flag) call fail('non-commutative op says commutative')
  call rank_matrices(rank, m)
  call mpi_allreduce(m, res, 2, mat, mop, MPI_COMM_WORLD, ierr)
  call rank_matrices(0, want)
  do r = 1, nproc - 1
     call rank_matrices(r, m)
     want(:, :, 1) = matmul(want(:, :, 1), m(:, :, 1))
     want(:, :, 2) = matmul(want(:, :, 2), m(:, :, 2))
  end do
  if (ierr /= MPI_SUCCESS .or. any(res /= want)) call fail('allreduce with matmul2')
  call rank_matrices(rank, m)
  seen_type = -1
  res = m
  call mpi_reduce_local(m, res, 2, mat, mop, ierr)
  if (seen_type /= mat) call fail('derived datatype argument')
  res = 0
  call mpi_reduce(m, res, 2, mat, mop, nproc - 1, MPI_COMM_WORLD, ierr)
  if (rank == nproc - 1 .and. any(res /= want)) call fail('reduce with matmul2')
  call mpi_op_free(mop, ierr)
  call mpi_type_free(mat, ierr)
  call mpi_finalize(ierr)
  if (fails /= 0) stop 1
contains
  subroutine rank_matrices(r, m)
    integer, intent(in) :: r
    integer, intent(out) :: m(2, 2, 2)
    m(:, :, 1) = reshape((/ 1, 0, r + 1, 2 /), (/ 2, 2 /))
    m(:, :, 2) = reshape((/ 0, 1, 1, r /), (/ 2, 2 /))
  end subroutine
  subroutine fail(what)
    character(len=*), intent(in) :: what
    print '(a,i0,2a)', 'rank ', rank, ': FAILED: ', what
    fails = fails + 1
  end subroutine
end program
