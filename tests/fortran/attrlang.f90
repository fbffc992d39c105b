! For test_attr_interlang.sh: the standard's interlanguage rule for attribute values (MPI-4.0
! 19.3.7), from mpif.h's interface (use mpi) with the C half in attrlang.c. C sets and Fortran
! reads the pointer as an integer; Fortran sets and C reads a pointer to an MPI_Aint
! (MPI_COMM_SET_ATTR & co.) or an MPI_Fint (MPI_ATTR_PUT); Fortran reads what Fortran set through
! either interface; copies made by MPI_COMM_DUP with Fortran callbacks are Fortran's, with C
! callbacks C's (a copied pointer points to the original's integer), with MPI_COMM_DUP_FN the
! original's; callbacks get their language's view; datatypes and windows alike; the predefined
! attributes in both languages.
module fside
  use mpi
  implicit none
  integer :: copies = 0, deletes = 0
  integer(kind=MPI_ADDRESS_KIND) :: copied_in = 0, deleted = 0
end module fside

subroutine fcopy(old, key, extra, val_in, val_out, flag, ierr)
  use fside
  implicit none
  integer :: old, key, ierr
  integer(kind=MPI_ADDRESS_KIND) :: extra, val_in, val_out
  logical :: flag
  copies = copies + 1
  copied_in = val_in
  val_out = val_in + 1
  flag = .true.
  ierr = MPI_SUCCESS
end subroutine

subroutine fdelete(obj, key, val, extra, ierr)
  use fside
  implicit none
  integer :: obj, key, ierr
  integer(kind=MPI_ADDRESS_KIND) :: val, extra
  deletes = deletes + 1
  deleted = val
  ierr = MPI_SUCCESS
end subroutine

subroutine fcopy1(old, key, extra, val_in, val_out, flag, ierr)
  use fside
  implicit none
  integer :: old, key, extra, val_in, val_out, ierr
  logical :: flag
  copies = copies + 1
  copied_in = val_in
  val_out = val_in + 1
  flag = .true.
  ierr = MPI_SUCCESS
end subroutine

subroutine fdelete1(comm, key, val, extra, ierr)
  use fside
  implicit none
  integer :: comm, key, val, extra, ierr
  deletes = deletes + 1
  deleted = val
  ierr = MPI_SUCCESS
end subroutine

program attrlang
  use mpi
  use cside
  use fside
  implicit none
  external fcopy, fdelete, fcopy1, fdelete1
  integer, parameter :: AK = MPI_ADDRESS_KIND
  integer :: ierr, errs, fkey, fkey1, dkey, ckey, ckey2, tkey, tdkey, wkey, dup, tdup, win, ival
  integer :: mem(4)
  integer(kind=AK) :: v, w, word, big, tag_ub
  logical :: flag
  errs = 0
  call MPI_INIT(ierr)
  call MPI_COMM_CREATE_KEYVAL(fcopy, fdelete, fkey, 0_AK, ierr)
  call MPI_KEYVAL_CREATE(fcopy1, fdelete1, fkey1, 0, ierr)
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, dkey, 0_AK, ierr)
  call MPI_TYPE_CREATE_KEYVAL(fcopy, fdelete, tkey, 0_AK, ierr)
  call MPI_TYPE_CREATE_KEYVAL(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, tdkey, 0_AK, ierr)
  call MPI_WIN_CREATE_KEYVAL(MPI_WIN_NULL_COPY_FN, fdelete, wkey, 0_AK, ierr)
  ckey = c_keyval()
  call MPI_WIN_CREATE(mem, 16_AK, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  word = c_target()                   ! a real C pointer
  big = 3_AK * 2_AK**32 + 77          ! its INTEGER part: 77
  v = 123456789012_AK

  ! 1. C sets, Fortran reads the pointer as an integer (INTEGER: truncated); C reads it back.
  errs = errs + c_set(K_COMM, MPI_COMM_SELF, fkey, word)
  call MPI_COMM_GET_ATTR(MPI_COMM_SELF, fkey, w, flag, ierr)
  call check(1, flag .and. w == word, 'Fortran get of a C word')
  errs = errs + c_expect_word(1, K_COMM, MPI_COMM_SELF, fkey, word)
  errs = errs + c_set(K_COMM, MPI_COMM_SELF, fkey, big)
  call MPI_ATTR_GET(MPI_COMM_SELF, fkey, ival, flag, ierr)
  call check(1, flag .and. ival == 77, 'MPI_ATTR_GET of a C word truncates')
  errs = errs + c_set(K_COMM, MPI_COMM_SELF, fkey, -5_AK)
  call MPI_ATTR_GET(MPI_COMM_SELF, fkey, ival, flag, ierr)
  call check(1, flag .and. ival == -5, 'MPI_ATTR_GET of a negative C word')

  ! 2. MPI_COMM_SET_ATTR: C reads a pointer to the MPI_Aint; Fortran the value, INTEGER truncated.
  call MPI_COMM_SET_ATTR(MPI_COMM_SELF, fkey, v, ierr)
  errs = errs + c_expect_aint(2, K_COMM, MPI_COMM_SELF, fkey, v)
  call MPI_COMM_GET_ATTR(MPI_COMM_SELF, fkey, w, flag, ierr)
  call check(2, flag .and. w == v, 'MPI_COMM_GET_ATTR of MPI_COMM_SET_ATTR')
  call MPI_COMM_SET_ATTR(MPI_COMM_SELF, fkey, big, ierr)
  call MPI_ATTR_GET(MPI_COMM_SELF, fkey, ival, flag, ierr)
  call check(2, flag .and. ival == 77, 'MPI_ATTR_GET of MPI_COMM_SET_ATTR truncates')
  call MPI_COMM_SET_ATTR(MPI_COMM_SELF, fkey, -7_AK, ierr)
  errs = errs + c_expect_aint(2, K_COMM, MPI_COMM_SELF, fkey, -7_AK)
  call MPI_ATTR_GET(MPI_COMM_SELF, fkey, ival, flag, ierr)
  call check(2, flag .and. ival == -7, 'MPI_ATTR_GET of a negative MPI_COMM_SET_ATTR')
  ! The pointer holds while the attribute does.
  call MPI_COMM_SET_ATTR(MPI_COMM_SELF, fkey, v, ierr)
  errs = errs + c_pointer_holds(2, MPI_COMM_SELF, fkey, v)
  ! Set from C again, it is C's.
  errs = errs + c_set(K_COMM, MPI_COMM_SELF, fkey, word)
  errs = errs + c_expect_word(2, K_COMM, MPI_COMM_SELF, fkey, word)

  ! 3. MPI_ATTR_PUT: C reads a pointer to the MPI_Fint; Fortran the value, sign-extended.
  call MPI_ATTR_PUT(MPI_COMM_SELF, fkey1, -99, ierr)
  errs = errs + c_expect_fint(3, MPI_COMM_SELF, fkey1, -99)
  call MPI_COMM_GET_ATTR(MPI_COMM_SELF, fkey1, w, flag, ierr)
  call check(3, flag .and. w == -99, 'MPI_COMM_GET_ATTR of MPI_ATTR_PUT sign-extends')
  call MPI_ATTR_GET(MPI_COMM_SELF, fkey1, ival, flag, ierr)
  call check(3, flag .and. ival == -99, 'MPI_ATTR_GET of MPI_ATTR_PUT')

  ! 4. MPI_COMM_DUP with Fortran callbacks: the copies are Fortran's, whoever set the original.
  copies = 0
  call MPI_COMM_DUP(MPI_COMM_SELF, dup, ierr)
  call check(4, copies == 2 .and. copied_in == -99, 'the Fortran copy callbacks')
  errs = errs + c_expect_aint(4, K_COMM, dup, fkey, word + 1)
  call MPI_COMM_GET_ATTR(dup, fkey, w, flag, ierr)
  call check(4, flag .and. w == word + 1, 'Fortran get of a Fortran copy of a C word')
  errs = errs + c_expect_fint(4, dup, fkey1, -98)
  call MPI_ATTR_GET(dup, fkey1, ival, flag, ierr)
  call check(4, flag .and. ival == -98, 'MPI_ATTR_GET of an INTEGER copy')
  ! Fortran delete callbacks get the value, whichever language set it.
  deletes = 0
  call MPI_COMM_FREE(dup, ierr)
  call check(4, deletes == 2, 'the Fortran delete callbacks on MPI_COMM_FREE')
  call MPI_COMM_DELETE_ATTR(MPI_COMM_SELF, fkey, ierr)
  call check(4, deletes == 3 .and. deleted == word, 'Fortran delete of a C word')
  call MPI_COMM_SET_ATTR(MPI_COMM_SELF, fkey, v, ierr)
  call MPI_COMM_DELETE_ATTR(MPI_COMM_SELF, fkey, ierr)
  call check(4, deletes == 4 .and. deleted == v, 'Fortran delete of a Fortran value')
  call MPI_ATTR_DELETE(MPI_COMM_SELF, fkey1, ierr)
  call check(4, deletes == 5 .and. deleted == -99, 'Fortran INTEGER delete')

  ! 5. MPI_COMM_DUP_FN: the copy keeps the original's language.
  call MPI_COMM_SET_ATTR(MPI_COMM_SELF, dkey, v, ierr)
  call MPI_COMM_DUP(MPI_COMM_SELF, dup, ierr)
  errs = errs + c_expect_aint(5, K_COMM, dup, dkey, v)
  call MPI_COMM_GET_ATTR(dup, dkey, w, flag, ierr)
  call check(5, flag .and. w == v, 'Fortran get of a MPI_COMM_DUP_FN copy')
  call MPI_COMM_FREE(dup, ierr)
  errs = errs + c_set(K_COMM, MPI_COMM_SELF, dkey, word)
  call MPI_COMM_DUP(MPI_COMM_SELF, dup, ierr)
  errs = errs + c_expect_word(5, K_COMM, dup, dkey, word)
  call MPI_COMM_FREE(dup, ierr)
  call MPI_COMM_DELETE_ATTR(MPI_COMM_SELF, dkey, ierr)

  ! 6. C callbacks: a pointer to the MPI_Aint Fortran set; their copy is C's.
  call MPI_COMM_SET_ATTR(MPI_COMM_SELF, ckey, 4242_AK, ierr)
  call c_expect_copy_in(4242_AK)
  call MPI_COMM_DUP(MPI_COMM_SELF, dup, ierr)
  errs = errs + c_callbacks(6, 1, 0, 0_AK, 0_AK)
  errs = errs + c_expect_word(6, K_COMM, dup, ckey, word)
  call MPI_COMM_GET_ATTR(dup, ckey, w, flag, ierr)
  call check(6, flag .and. w == word, 'Fortran get of a C copy')
  call MPI_COMM_FREE(dup, ierr)
  errs = errs + c_callbacks(6, 0, 1, word, 0_AK)
  call MPI_COMM_SET_ATTR(MPI_COMM_SELF, ckey, 4243_AK, ierr)   ! deletes 4242
  errs = errs + c_callbacks(6, 0, 1, 0_AK, 4242_AK)
  call MPI_COMM_DELETE_ATTR(MPI_COMM_SELF, ckey, ierr)
  errs = errs + c_callbacks(6, 0, 1, 0_AK, 4243_AK)

  ! 7. A C copy function that copies the pointer: the copy points to the original's integer,
  ! which C may change for Fortran to read.
  ckey2 = c_pointer_keyval()
  call MPI_COMM_SET_ATTR(MPI_COMM_SELF, ckey2, v, ierr)
  call MPI_COMM_DUP(MPI_COMM_SELF, dup, ierr)
  errs = errs + c_same_pointer(7, MPI_COMM_SELF, dup, ckey2, v)
  call c_poke(dup, ckey2, v + 5)
  call MPI_COMM_GET_ATTR(MPI_COMM_SELF, ckey2, w, flag, ierr)
  call check(7, flag .and. w == v + 5, 'Fortran get after C changed the integer')
  call MPI_COMM_FREE(dup, ierr)
  call MPI_COMM_DELETE_ATTR(MPI_COMM_SELF, ckey2, ierr)
  call MPI_COMM_FREE_KEYVAL(ckey2, ierr)

  ! 8. Datatypes.
  call MPI_TYPE_SET_ATTR(MPI_INTEGER, tkey, v, ierr)
  errs = errs + c_expect_aint(8, K_TYPE, MPI_INTEGER, tkey, v)
  call MPI_TYPE_SET_ATTR(MPI_INTEGER, tdkey, -v, ierr)
  call MPI_TYPE_DUP(MPI_INTEGER, tdup, ierr)
  errs = errs + c_expect_aint(8, K_TYPE, tdup, tkey, v + 1)
  errs = errs + c_expect_aint(8, K_TYPE, tdup, tdkey, -v)
  call MPI_TYPE_GET_ATTR(tdup, tkey, w, flag, ierr)
  call check(8, flag .and. w == v + 1, 'Fortran get of a type copy')
  call MPI_TYPE_FREE(tdup, ierr)
  errs = errs + c_set(K_TYPE, MPI_INTEGER, tkey, word)
  call MPI_TYPE_GET_ATTR(MPI_INTEGER, tkey, w, flag, ierr)
  call check(8, flag .and. w == word, 'Fortran get of a C type attribute')
  errs = errs + c_expect_word(8, K_TYPE, MPI_INTEGER, tkey, word)
  call MPI_TYPE_DELETE_ATTR(MPI_INTEGER, tkey, ierr)
  call MPI_TYPE_DELETE_ATTR(MPI_INTEGER, tdkey, ierr)

  ! 9. Windows, and the predefined attributes in both languages.
  call MPI_WIN_SET_ATTR(win, wkey, v, ierr)
  errs = errs + c_expect_aint(9, K_WIN, win, wkey, v)
  call MPI_WIN_GET_ATTR(win, wkey, w, flag, ierr)
  call check(9, flag .and. w == v, 'Fortran get of a window attribute')
  deletes = 0
  errs = errs + c_set(K_WIN, win, wkey, word)
  call check(9, deletes == 1 .and. deleted == v, 'window delete callback on a C set')
  call MPI_WIN_GET_ATTR(win, wkey, w, flag, ierr)
  call check(9, flag .and. w == word, 'Fortran get of a C window attribute')
  errs = errs + c_expect_word(9, K_WIN, win, wkey, word)
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, MPI_TAG_UB, tag_ub, flag, ierr)
  call check(9, flag .and. tag_ub >= 32767, 'MPI_TAG_UB in Fortran')
  call MPI_WIN_GET_ATTR(win, MPI_WIN_SIZE, w, flag, ierr)
  call check(9, flag .and. w == 16, 'MPI_WIN_SIZE in Fortran')
  errs = errs + c_predefined(9, MPI_COMM_WORLD, win, tag_ub, 16_AK)

  call MPI_WIN_FREE(win, ierr)
  call check(9, deletes == 2 .and. deleted == word, 'window delete callback on MPI_WIN_FREE')
  call MPI_COMM_FREE_KEYVAL(fkey, ierr)
  call MPI_KEYVAL_FREE(fkey1, ierr)
  call MPI_COMM_FREE_KEYVAL(dkey, ierr)
  call MPI_COMM_FREE_KEYVAL(ckey, ierr)
  call MPI_TYPE_FREE_KEYVAL(tkey, ierr)
  call MPI_TYPE_FREE_KEYVAL(tdkey, ierr)
  call MPI_WIN_FREE_KEYVAL(wkey, ierr)
  call MPI_FINALIZE(ierr)
  if (errs /= 0) then
    print '(i0,a)', errs, ' failures'
    stop 1
  end if
  print '(a)', 'ok'
contains
  subroutine check(where, ok, what)
    integer, intent(in) :: where
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      print '(a,i0,2a)', 'case ', where, ': ', what
      errs = errs + 1
    end if
  end subroutine
end program
