! np: 1 2
! The Fortran-specific functions with use mpi_f08: MPI_Type_create_f90_integer/real/complex give
! the type of SELECTED_INT_KIND / SELECTED_REAL_KIND (its size, the same handle each time,
! MPI_COMBINER_F90_* with p and r in its envelope and contents, not freeable) and carry data of
! that kind; a range no kind has is MPI_ERR_ARG; MPI_Type_match_size; MPI_Sizeof of every kind;
! MPI_Status_f082f and MPI_Status_f2f08; MPI_F_sync_reg; MPI_Abi_get_fortran_booleans and
! MPI_Abi_get_fortran_info describe gfortran; the large-count forms by the kind of the count
! (MPI_Bcast, MPI_Type_size) or by name (MPI_Type_get_extent_c).
program kinds
  use mpi_f08
  implicit none
  integer, parameter :: ik = selected_int_kind(9), rk = selected_real_kind(15, 300)
  integer, parameter :: xk = selected_real_kind(18), ck = selected_real_kind(6)
  integer :: rank, nproc, ierr, n, fails, cls, ni, na, nd, comb, ints(2)
  integer(kind=MPI_ADDRESS_KIND) :: addrs(1)
  type(MPI_Datatype) :: ti, ti2, tr, tc, tx, types(1)
  type(MPI_Status) :: st, st2
  integer :: fst(MPI_STATUS_SIZE)
  integer(kind=ik) :: iv(3)
  real(kind=rk) :: rv(2)
  complex(kind=ck) :: cv
  real(kind=xk) :: xv(2)
  integer(kind=8) :: i8
  logical :: lt, lf, isset, flag
  integer(kind=MPI_COUNT_KIND) :: csize, clb, cext
  type(MPI_Info) :: finfo
  character(len=8) :: value
  fails = 0
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nproc)
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
  call MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN)

  call MPI_Type_create_f90_integer(9, ti)
  call MPI_Type_create_f90_integer(9, ti2)
  call check(ti == ti2, 'the same handle for the same range')
  call MPI_Type_size(ti, n)
  call check(n == kind(iv), 'f90 integer size')
  call MPI_Type_get_envelope(ti, ni, na, nd, comb)
  call check(comb == MPI_COMBINER_F90_INTEGER .and. ni == 1 .and. na == 0 .and. nd == 0, &
             'f90 integer envelope')
  call MPI_Type_get_contents(ti, 2, 1, 1, ints, addrs, types)
  call check(ints(1) == 9, 'f90 integer contents')
  call MPI_Type_free(ti2, ierr)
  call MPI_Error_class(ierr, cls)
  call check(cls == MPI_ERR_TYPE, 'an f90 type cannot be freed')

  call MPI_Type_create_f90_real(15, 300, tr)
  call MPI_Type_size(tr, n)
  call check(n == 8, 'f90 real size')
  call MPI_Type_get_envelope(tr, ni, na, nd, comb)
  call MPI_Type_get_contents(tr, 2, 1, 1, ints, addrs, types)
  call check(comb == MPI_COMBINER_F90_REAL .and. ni == 2 .and. all(ints == [15, 300]), &
             'f90 real envelope and contents')
  call MPI_Type_create_f90_complex(6, MPI_UNDEFINED, tc)
  call MPI_Type_size(tc, n)
  call check(n == 8, 'f90 complex size')
  call MPI_Type_create_f90_real(18, MPI_UNDEFINED, tx)
  call MPI_Type_size(tx, n)
  call check(n == storage_size(xv(1)) / 8, 'f90 real of the extended kind')
  call MPI_Type_create_f90_integer(100, ti2, ierr)
  call MPI_Error_class(ierr, cls)
  call check(cls == MPI_ERR_ARG, 'no kind has range 100: MPI_ERR_ARG')

  ! Data of those kinds.
  iv = [1, -2, 2147483647] * merge(1, 0, rank == 0)
  rv = [1.5_rk, -2.25_rk] * merge(1, 0, rank == 0)
  cv = cmplx(3, -4, kind=ck) * merge(1, 0, rank == 0)
  xv = [1.0_xk / 3, 2.0_xk] * merge(1, 0, rank == 0)
  call MPI_Bcast(iv, 3, ti, 0, MPI_COMM_WORLD)
  call MPI_Bcast(rv, 2, tr, 0, MPI_COMM_WORLD)
  call MPI_Bcast(cv, 1, tc, 0, MPI_COMM_WORLD)
  call MPI_Bcast(xv, 2, tx, 0, MPI_COMM_WORLD)
  call check(all(iv == [1, -2, 2147483647]) .and. all(rv == [1.5_rk, -2.25_rk]) .and. &
             cv == cmplx(3, -4, kind=ck) .and. all(xv == [1.0_xk / 3, 2.0_xk]), 'f90 types carry data')

  iv = 7 * merge(1, 0, rank == 0)
  call MPI_Bcast(iv, 3_MPI_COUNT_KIND, ti, 0, MPI_COMM_WORLD)
  call check(all(iv == 7), 'MPI_Bcast with a large count (MPI_Bcast_c)')
  call MPI_Type_size(tr, csize)
  call MPI_Type_get_extent_c(tr, clb, cext)
  call check(csize == 8 .and. clb == 0 .and. cext == 8, 'MPI_Type_size_c, MPI_Type_get_extent_c')

  call MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, tr)
  call check(tr == MPI_REAL8, 'MPI_Type_match_size')
  call MPI_Sizeof(i8, n)
  call check(n == 8, 'MPI_Sizeof integer(8)')
  call MPI_Sizeof(xv, n)
  call check(n == storage_size(xv(1)) / 8, 'MPI_Sizeof real array')
  call MPI_Sizeof(cv, n, ierr)
  call check(n == 8 .and. ierr == MPI_SUCCESS, 'MPI_Sizeof complex')

  ! Status conversions between mpi_f08 and mpif.h's layout.
  st%MPI_SOURCE = 3
  st%MPI_TAG = 44
  st%MPI_ERROR = MPI_ERR_TAG
  call MPI_Status_f082f(st, fst)
  call check(all(fst(1:3) == [3, 44, MPI_ERR_TAG]), 'MPI_Status_f082f')  ! source, tag, error
  call MPI_Status_f2f08(fst, st2)
  call check(st2%MPI_SOURCE == 3 .and. st2%MPI_TAG == 44, 'MPI_Status_f2f08')
  call MPI_F_sync_reg(iv)

  lt = .false.
  lf = .true.
  call MPI_Abi_get_fortran_booleans(4, lt, lf, isset)
  call check(lt .and. .not. lf .and. isset, 'MPI_Abi_get_fortran_booleans')
  call MPI_Abi_get_fortran_info(finfo)
  call MPI_Info_get(finfo, 'mpi_double_precision_size', 8, value, flag)
  call check(flag .and. value == '8', 'MPI_Abi_get_fortran_info')
  call MPI_Info_free(finfo)

  call MPI_Allreduce(MPI_IN_PLACE, fails, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  call MPI_Finalize()
  if (fails /= 0) stop 1
contains
  include 'check.inc'
end program kinds
