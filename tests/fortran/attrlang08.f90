! For test_attr_interlang.sh: the interlanguage rule for attribute values from mpi_f08 (see
! attrlang.f90): Fortran sets, C reads a pointer to the MPI_Aint; C sets, Fortran reads the
! word; a Fortran copy callback's copy is Fortran's, a C one's is C's; datatypes and windows.
module fside08
  use mpi_f08
  implicit none
  integer :: copies = 0
contains
  subroutine fcopy(old, key, extra, val_in, val_out, flag, ierr)
    type(MPI_Comm) :: old
    integer :: key, ierr
    integer(kind=MPI_ADDRESS_KIND) :: extra, val_in, val_out
    logical :: flag
    copies = copies + 1
    val_out = val_in + 1
    flag = .true.
    ierr = MPI_SUCCESS
  end subroutine
end module fside08

program attrlang08
  use mpi_f08
  use cside
  use fside08
  implicit none
  integer, parameter :: AK = MPI_ADDRESS_KIND
  integer :: ierr, errs, fkey, ckey, tkey, wkey
  integer :: mem(4)
  type(MPI_Comm) :: dup
  type(MPI_Datatype) :: tdup
  type(MPI_Win) :: win
  integer(kind=AK) :: v, w, word
  logical :: flag
  errs = 0
  call MPI_Init(ierr)
  call MPI_Comm_create_keyval(fcopy, MPI_COMM_NULL_DELETE_FN, fkey, 0_AK, ierr)
  call MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, tkey, 0_AK, ierr)
  call MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, wkey, 0_AK, ierr)
  ckey = c_keyval()
  call MPI_Win_create(mem, 16_AK, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  word = c_target()
  v = -123456789012_AK

  ! 1. Communicators both ways, and copies by a Fortran and by a C callback.
  call MPI_Comm_set_attr(MPI_COMM_SELF, fkey, v, ierr)
  errs = errs + c_expect_aint(1, K_COMM, MPI_COMM_SELF%MPI_VAL, fkey, v)
  call MPI_Comm_set_attr(MPI_COMM_SELF, ckey, 4242_AK, ierr)
  call c_expect_copy_in(4242_AK)
  call MPI_Comm_dup(MPI_COMM_SELF, dup, ierr)
  call check(1, copies == 1, 'the Fortran copy callback')
  errs = errs + c_expect_aint(1, K_COMM, dup%MPI_VAL, fkey, v + 1)
  errs = errs + c_callbacks(1, 1, 0, 0_AK, 0_AK)
  errs = errs + c_expect_word(1, K_COMM, dup%MPI_VAL, ckey, word)
  call MPI_Comm_get_attr(dup, ckey, w, flag, ierr)
  call check(1, flag .and. w == word, 'Fortran get of a C copy')
  call MPI_Comm_free(dup, ierr)
  errs = errs + c_callbacks(1, 0, 1, word, 0_AK)
  call MPI_Comm_delete_attr(MPI_COMM_SELF, ckey, ierr)
  errs = errs + c_callbacks(1, 0, 1, 0_AK, 4242_AK)
  errs = errs + c_set(K_COMM, MPI_COMM_SELF%MPI_VAL, fkey, word)
  call MPI_Comm_get_attr(MPI_COMM_SELF, fkey, w, flag, ierr)
  call check(1, flag .and. w == word, 'Fortran get of a C word')
  call MPI_Comm_delete_attr(MPI_COMM_SELF, fkey, ierr)

  ! 2. Datatypes: MPI_TYPE_DUP_FN keeps Fortran's.
  call MPI_Type_set_attr(MPI_INTEGER, tkey, v, ierr)
  errs = errs + c_expect_aint(2, K_TYPE, MPI_INTEGER%MPI_VAL, tkey, v)
  call MPI_Type_get_attr(MPI_INTEGER, tkey, w, flag, ierr)
  call check(2, flag .and. w == v, 'Fortran get of a type attribute')
  call MPI_Type_dup(MPI_INTEGER, tdup, ierr)
  errs = errs + c_expect_aint(2, K_TYPE, tdup%MPI_VAL, tkey, v)
  call MPI_Type_free(tdup, ierr)
  call MPI_Type_delete_attr(MPI_INTEGER, tkey, ierr)

  ! 3. Windows.
  call MPI_Win_set_attr(win, wkey, v, ierr)
  errs = errs + c_expect_aint(3, K_WIN, win%MPI_VAL, wkey, v)
  errs = errs + c_set(K_WIN, win%MPI_VAL, wkey, word)
  call MPI_Win_get_attr(win, wkey, w, flag, ierr)
  call check(3, flag .and. w == word, 'Fortran get of a C window attribute')

  call MPI_Win_free(win, ierr)
  call MPI_Comm_free_keyval(fkey, ierr)
  call MPI_Comm_free_keyval(ckey, ierr)
  call MPI_Type_free_keyval(tkey, ierr)
  call MPI_Win_free_keyval(wkey, ierr)
  call MPI_Finalize(ierr)
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
