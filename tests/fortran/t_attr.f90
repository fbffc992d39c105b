! np: 1 3
! Attributes from Fortran: MPI_TAG_UB and the other predefined attributes read with
! MPI_COMM_GET_ATTR are their INTEGER values (C gets pointers to them); a keyval with Fortran
! copy and delete callbacks: MPI_COMM_DUP calls the copy one with the INTEGER(KIND=
! MPI_ADDRESS_KIND) value and extra state, the copy's value is what it returned, the delete
! callback runs once per deleted attribute (MPI_COMM_DELETE_ATTR, MPI_COMM_FREE, replacing a
! value); MPI_COMM_NULL_COPY_FN / MPI_COMM_DUP_FN / MPI_COMM_NULL_DELETE_FN passed as procedures;
! datatype keyvals; the deprecated MPI_KEYVAL_CREATE / MPI_ATTR_PUT / MPI_ATTR_GET with INTEGERs.
module counters
  implicit none
  integer :: copies = 0, deletes = 0
  integer(kind=8) :: last_deleted = 0, seen_extra = 0
end module counters

subroutine copy_fn(oldcomm, keyval, extra, val_in, val_out, flag, ierr)
  use counters
  implicit none
  integer :: oldcomm, keyval, ierr
  integer(kind=8) :: extra, val_in, val_out
  logical :: flag
  copies = copies + 1
  seen_extra = extra
  val_out = val_in + 1000
  flag = .true.
  ierr = 0
end subroutine

subroutine delete_fn(comm, keyval, val, extra, ierr)
  use counters
  implicit none
  integer :: comm, keyval, ierr
  integer(kind=8) :: val, extra
  deletes = deletes + 1
  last_deleted = val
  ierr = 0
end subroutine

subroutine old_copy_fn(oldcomm, keyval, extra, val_in, val_out, flag, ierr)
  use counters
  implicit none
  integer :: oldcomm, keyval, extra, val_in, val_out, ierr
  logical :: flag
  copies = copies + 1
  val_out = val_in * 2 + extra
  flag = .true.
  ierr = 0
end subroutine

program attr
  use mpi
  use counters
  implicit none
  external copy_fn, delete_fn, old_copy_fn
  integer :: ierr, rank, fails, key, key2, key3, tkey, dup, dup2, oldkey, ival, tdup
  integer(kind=MPI_ADDRESS_KIND) :: val, extra
  logical :: flag
  fails = 0
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)

  ! Predefined attributes: values, not addresses.
  val = -1
  call mpi_comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, val, flag, ierr)
  if (ierr /= MPI_SUCCESS .or. .not. flag) call fail('get MPI_TAG_UB')
  if (val < 32767 .or. val > huge(ierr)) call fail('MPI_TAG_UB value')
  call mpi_comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, val, flag, ierr)
  if (.not. flag .or. (val /= 0 .and. val /= 1)) call fail('MPI_WTIME_IS_GLOBAL')
  call mpi_comm_get_attr(MPI_COMM_WORLD, MPI_HOST, val, flag, ierr)
  if (.not. flag .or. val /= MPI_PROC_NULL) call fail('MPI_HOST')
  call mpi_attr_get(MPI_COMM_WORLD, MPI_TAG_UB, ival, flag, ierr)
  if (ierr /= MPI_SUCCESS .or. .not. flag .or. ival < 32767) call fail('attr_get MPI_TAG_UB')

  ! A keyval with Fortran callbacks.
  extra = 77
  call mpi_comm_create_keyval(copy_fn, delete_fn, key, extra, ierr)
  if (ierr /= MPI_SUCCESS) call fail('create_keyval')
  val = 5
  call mpi_comm_get_attr(MPI_COMM_WORLD, key, val, flag, ierr)
  if (ierr /= MPI_SUCCESS .or. flag) call fail('get before set')
  val = 123456789012_MPI_ADDRESS_KIND
  call mpi_comm_set_attr(MPI_COMM_WORLD, key, val, ierr)
  if (ierr /= MPI_SUCCESS) call fail('set_attr')
  val = 0
  call mpi_comm_get_attr(MPI_COMM_WORLD, key, val, flag, ierr)
  if (.not. flag .or. val /= 123456789012_MPI_ADDRESS_KIND) call fail('get after set')
  call mpi_comm_dup(MPI_COMM_WORLD, dup, ierr)
  if (ierr /= MPI_SUCCESS) call fail('dup')
  if (copies /= 1 .or. seen_extra /= 77) call fail('copy callback not called with extra state')
  call mpi_comm_get_attr(dup, key, val, flag, ierr)
  if (.not. flag .or. val /= 123456789012_MPI_ADDRESS_KIND + 1000) call fail('copied value')
  ! Replacing a value deletes the old one.
  val = 42
  call mpi_comm_set_attr(dup, key, val, ierr)
  if (deletes /= 1 .or. last_deleted /= 123456789012_MPI_ADDRESS_KIND + 1000) &
      call fail('delete on replace')
  call mpi_comm_free(dup, ierr)
  if (ierr /= MPI_SUCCESS .or. dup /= MPI_COMM_NULL) call fail('comm_free')
  if (deletes /= 2 .or. last_deleted /= 42) call fail('delete on comm_free')
  call mpi_comm_delete_attr(MPI_COMM_WORLD, key, ierr)
  if (ierr /= MPI_SUCCESS .or. deletes /= 3 .or. last_deleted /= 123456789012_MPI_ADDRESS_KIND) &
      call fail('delete_attr')
  call mpi_comm_free_keyval(key, ierr)
  if (ierr /= MPI_SUCCESS .or. key /= MPI_KEYVAL_INVALID) call fail('free_keyval')

  ! The predefined procedures: MPI_COMM_DUP_FN copies, MPI_COMM_NULL_COPY_FN does not.
  extra = 0
  call mpi_comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, key2, extra, ierr)
  call mpi_comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, key3, extra, ierr)
  if (ierr /= MPI_SUCCESS) call fail('create_keyval with predefined procedures')
  val = 11
  call mpi_comm_set_attr(MPI_COMM_SELF, key2, val, ierr)
  val = 12
  call mpi_comm_set_attr(MPI_COMM_SELF, key3, val, ierr)
  copies = 0
  call mpi_comm_dup(MPI_COMM_SELF, dup2, ierr)
  if (copies /= 0) call fail('a user callback ran for predefined procedures')
  call mpi_comm_get_attr(dup2, key2, val, flag, ierr)
  if (.not. flag .or. val /= 11) call fail('MPI_COMM_DUP_FN')
  call mpi_comm_get_attr(dup2, key3, val, flag, ierr)
  if (flag) call fail('MPI_COMM_NULL_COPY_FN copied')
  call mpi_comm_free(dup2, ierr)
  call mpi_comm_delete_attr(MPI_COMM_SELF, key2, ierr)
  call mpi_comm_delete_attr(MPI_COMM_SELF, key3, ierr)
  call mpi_comm_free_keyval(key2, ierr)
  call mpi_comm_free_keyval(key3, ierr)

  ! Datatype keyvals.
  extra = 5
  copies = 0
  deletes = 0
  call mpi_type_create_keyval(copy_fn, delete_fn, tkey, extra, ierr)
  val = -3
  call mpi_type_set_attr(MPI_INTEGER, tkey, val, ierr)
  if (ierr /= MPI_SUCCESS) call fail('type_set_attr on a predefined type')
  call mpi_type_dup(MPI_INTEGER, tdup, ierr)
  if (copies /= 1 .or. seen_extra /= 5) call fail('type copy callback')
  call mpi_type_get_attr(tdup, tkey, val, flag, ierr)
  if (.not. flag .or. val /= 997) call fail('type copied value')
  call mpi_type_free(tdup, ierr)
  if (deletes /= 1 .or. last_deleted /= 997) call fail('type delete on type_free')
  call mpi_type_delete_attr(MPI_INTEGER, tkey, ierr)
  if (deletes /= 2 .or. last_deleted /= -3) call fail('type_delete_attr')
  call mpi_type_free_keyval(tkey, ierr)

  ! The deprecated forms: INTEGER values and extra state.
  copies = 0
  call mpi_keyval_create(old_copy_fn, MPI_NULL_DELETE_FN, oldkey, 3, ierr)
  if (ierr /= MPI_SUCCESS) call fail('keyval_create')
  call mpi_attr_put(MPI_COMM_WORLD, oldkey, -20, ierr)
  call mpi_comm_dup(MPI_COMM_WORLD, dup, ierr)
  call mpi_attr_get(dup, oldkey, ival, flag, ierr)
  if (copies /= 1 .or. .not. flag .or. ival /= -37) call fail('deprecated copy')
  ! A value put with MPI_ATTR_PUT reads back sign-extended through the new interface.
  call mpi_comm_get_attr(MPI_COMM_WORLD, oldkey, val, flag, ierr)
  if (.not. flag .or. val /= -20) call fail('attr_put value through comm_get_attr')
  call mpi_comm_free(dup, ierr)
  call mpi_attr_delete(MPI_COMM_WORLD, oldkey, ierr)
  call mpi_keyval_free(oldkey, ierr)
  if (ierr /= MPI_SUCCESS .or. oldkey /= MPI_KEYVAL_INVALID) call fail('keyval_free')

  ! Errors: a predefined attribute cannot be set.
  call mpi_comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  val = 1
  call mpi_comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, val, ierr)
  if (ierr == MPI_SUCCESS) call fail('setting MPI_TAG_UB succeeded')
  call mpi_error_class(ierr, ival, ierr)
  if (ival /= MPI_ERR_KEYVAL) call fail('setting MPI_TAG_UB: class')

  call mpi_finalize(ierr)
  if (fails /= 0) stop 1
contains
  subroutine fail(what)
    character(len=*), intent(in) :: what
    print '(a,i0,2a)', 'rank ', rank, ': FAILED: ', what
    fails = fails + 1
  end subroutine
end program
