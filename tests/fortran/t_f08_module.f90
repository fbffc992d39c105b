! np: 1 3
! use mpi_f08 beyond buffers: handle types with MPI_VAL and == / /=, TYPE(MPI_Status) fields,
! IERROR omitted or given, strings both ways, functions (MPI_Wtime, MPI_Aint_add), callbacks
! with the mpi_f08 interfaces (MPI_User_function in MPI_Op_create, a copy and a delete function
! and MPI_COMM_DUP_FN in MPI_Comm_create_keyval, a communicator error handler), arrays of
! requests and statuses, and bad input from Fortran: a freed handle, a made-up MPI_VAL, a
! negative count give the C binding's error classes through the error handler.
module f08cb
  use mpi_f08
  implicit none
  integer :: op_calls = 0, copies = 0, deletes = 0, handled = 0, last_code = 0
contains
  subroutine maxabs(invec, inoutvec, len, datatype)
    use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
    type(c_ptr), value :: invec, inoutvec
    integer :: len
    type(MPI_Datatype) :: datatype
    integer, pointer :: a(:), b(:)
    op_calls = op_calls + 1
    if (datatype /= MPI_INTEGER) return
    call c_f_pointer(invec, a, [len])
    call c_f_pointer(inoutvec, b, [len])
    b = max(abs(a), abs(b))
  end subroutine maxabs

  subroutine copy_plus(oldcomm, keyval, extra, val_in, val_out, flag, ierror)
    type(MPI_Comm) :: oldcomm
    integer :: keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra, val_in, val_out
    logical :: flag
    copies = copies + 1
    val_out = val_in + extra
    flag = .true.
    ierror = MPI_SUCCESS
  end subroutine copy_plus

  subroutine delete_count(comm, keyval, val, extra, ierror)
    type(MPI_Comm) :: comm
    integer :: keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: val, extra
    deletes = deletes + 1
    ierror = MPI_SUCCESS
  end subroutine delete_count

  subroutine on_error(comm, code)
    type(MPI_Comm) :: comm
    integer :: code
    handled = handled + 1
    last_code = code
  end subroutine on_error
end module f08cb

program module_test
  use mpi_f08
  use f08cb
  implicit none
  integer :: rank, nproc, ierr, n, fails, cls, v(4), r(4), key1, key2, reqn
  integer(kind=MPI_ADDRESS_KIND) :: val, a1, a2
  logical :: flag
  type(MPI_Comm) :: dup, freed
  type(MPI_Op) :: op
  type(MPI_Errhandler) :: eh
  type(MPI_Request) :: reqs(3)
  type(MPI_Status) :: sts(3)
  type(MPI_Datatype) :: bogus
  character(len=MPI_MAX_OBJECT_NAME) :: name
  double precision :: t0
  fails = 0
  call MPI_Init(ierr)
  call check(ierr == MPI_SUCCESS, 'init with ierror')
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nproc)
  t0 = MPI_Wtime()
  call check(t0 > 0d0, 'MPI_Wtime')
  a1 = 1000
  a2 = MPI_Aint_add(a1, 24_MPI_ADDRESS_KIND)
  call check(a2 == 1024, 'MPI_Aint_add')

  ! Handles.
  call check(MPI_COMM_WORLD /= MPI_COMM_SELF .and. MPI_COMM_WORLD == MPI_COMM_WORLD, 'handle ==')
  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  call check(dup /= MPI_COMM_WORLD .and. dup /= MPI_COMM_NULL, 'dup is a new handle')

  ! Strings.
  call MPI_Comm_set_name(dup, 'a duplicate   ')
  call MPI_Comm_get_name(dup, name, n)
  call check(name == 'a duplicate' .and. n == 11, 'communicator name')

  ! A user operation with the mpi_f08 interface.
  call MPI_Op_create(maxabs, .true., op)
  v = [1, -7, 3, -2] * (rank + 1)
  call MPI_Allreduce(v, r, 4, MPI_INTEGER, op, dup)
  if (nproc > 1) call check(all(r == [1, 7, 3, 2] * nproc), 'user operation')
  r = [-9, 0, 0, 0]
  n = op_calls
  call MPI_Reduce_local(v, r, 4, MPI_INTEGER, op)
  call check(all(r == [max(9, rank + 1), 7 * (rank + 1), 3 * (rank + 1), 2 * (rank + 1)]), &
             'MPI_Reduce_local with a user operation')
  call check(op_calls == n + 1, 'user operation called')
  call MPI_Op_free(op)
  call check(op == MPI_OP_NULL, 'op freed')

  ! Keyvals: a Fortran copy function, MPI_COMM_DUP_FN, a delete function.
  call MPI_Comm_create_keyval(copy_plus, delete_count, key1, 5_MPI_ADDRESS_KIND)
  call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, key2, 0_MPI_ADDRESS_KIND)
  call MPI_Comm_set_attr(dup, key1, 37_MPI_ADDRESS_KIND)
  call MPI_Comm_set_attr(dup, key2, 99_MPI_ADDRESS_KIND)
  call MPI_Comm_dup(dup, freed)
  call MPI_Comm_get_attr(freed, key1, val, flag)
  call check(flag .and. val == 42 .and. copies == 1, 'copy function')
  call MPI_Comm_get_attr(freed, key2, val, flag)
  call check(flag .and. val == 99, 'MPI_COMM_DUP_FN')
  call MPI_Comm_free(freed)
  call check(freed == MPI_COMM_NULL .and. deletes == 1, 'delete function')
  call MPI_Comm_free_keyval(key1)
  call MPI_Comm_free_keyval(key2)
  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, val, flag)
  call check(flag .and. val >= 32767, 'MPI_TAG_UB')

  ! Arrays of requests and statuses.
  reqn = mod(rank + 1, nproc)
  call MPI_Irecv(r, 4, MPI_INTEGER, mod(rank - 1 + nproc, nproc), 3, dup, reqs(1))
  call MPI_Isend(v, 4, MPI_INTEGER, reqn, 3, dup, reqs(2))
  reqs(3) = MPI_REQUEST_NULL
  call MPI_Waitall(3, reqs, sts)
  call check(all(reqs == MPI_REQUEST_NULL), 'requests completed')
  call check(sts(1)%MPI_SOURCE == mod(rank - 1 + nproc, nproc) .and. sts(1)%MPI_TAG == 3, &
             'status array')
  call MPI_Get_count(sts(1), MPI_INTEGER, n)
  call check(n == 4, 'status array count')

  ! Errors: a user error handler sees the C binding's classes.
  call MPI_Comm_create_errhandler(on_error, eh)
  call MPI_Comm_set_errhandler(dup, eh)
  call MPI_Errhandler_free(eh)
  call MPI_Send(v, -1, MPI_INTEGER, 0, 0, dup, ierr)
  call MPI_Error_class(ierr, cls)
  call check(cls == MPI_ERR_COUNT .and. handled == 1 .and. last_code == ierr, 'negative count')
  bogus%MPI_VAL = 123456
  call MPI_Send(v, 1, bogus, 0, 0, dup)
  call MPI_Error_class(last_code, cls)
  call check(cls == MPI_ERR_TYPE .and. handled == 2, 'made-up datatype, no ierror')
  call MPI_Comm_dup(dup, freed)
  call MPI_Comm_free(freed)
  call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN)   ! no communicator: SELF's
  call MPI_Barrier(freed, ierr)
  call MPI_Error_class(ierr, cls)
  call check(cls == MPI_ERR_COMM, 'null communicator')

  call MPI_Comm_free(dup)
  call MPI_Allreduce(MPI_IN_PLACE, fails, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  call MPI_Finalize()
  if (fails /= 0) stop 1
contains
  include 'check.inc'
end program module_test
