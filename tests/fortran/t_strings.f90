! np: 1 2
! Strings from Fortran: outputs blank-padded with their length (MPI_GET_PROCESSOR_NAME,
! MPI_COMM_GET_NAME, MPI_GET_LIBRARY_VERSION), inputs without their trailing blanks
! (MPI_COMM_SET_NAME), info keys and values (MPI_INFO_SET / GET / GET_NTHKEY / GET_VALUELEN / GET_STRING).
program strings
  use mpi
  implicit none
  integer :: ierr, rank, fails, len, info, nkeys, dup, buflen
  character(len=3) :: short3
  character(len=4) :: short4
  logical :: flag
  character(len=MPI_MAX_PROCESSOR_NAME) :: host
  character(len=MPI_MAX_OBJECT_NAME) :: name
  character(len=8) :: short
  character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: version
  character(len=MPI_MAX_INFO_KEY) :: key
  character(len=64) :: value
  fails = 0
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  host = '?'
  call mpi_get_processor_name(host, len, ierr)
  if (ierr /= MPI_SUCCESS .or. len <= 0 .or. len > MPI_MAX_PROCESSOR_NAME) call fail('processor name')
  if (len_trim(host) /= len) call fail('processor name length or padding')
  call mpi_comm_get_name(MPI_COMM_WORLD, name, len, ierr)
  if (name /= 'MPI_COMM_WORLD' .or. len /= 14) call fail('name of MPI_COMM_WORLD: ' // name)
  call mpi_comm_dup(MPI_COMM_WORLD, dup, ierr)
  call mpi_comm_set_name(dup, 'my communicator   ', ierr)
  name = 'garbage garbage garbage'
  call mpi_comm_get_name(dup, name, len, ierr)
  if (name /= 'my communicator' .or. len /= 15) call fail('comm_set_name/get_name: ' // name)
  ! A Fortran variable shorter than the name: truncated, no overflow.
  short = 'xxxxxxxx'
  call mpi_comm_get_name(dup, short, len, ierr)
  if (short /= 'my commu') call fail('name into a short variable: ' // short)
  call mpi_comm_free(dup, ierr)
  call mpi_get_library_version(version, len, ierr)
  if (len <= 0 .or. index(version, 'Mica') == 0) call fail('library version')
  call mpi_info_create(info, ierr)
  call mpi_info_set(info, '  colour ', ' blue  ', ierr)
  if (ierr /= MPI_SUCCESS) call fail('info_set')
  call mpi_info_get_nkeys(info, nkeys, ierr)
  if (nkeys /= 1) call fail('info nkeys')
  call mpi_info_get_nthkey(info, 0, key, ierr)
  if (key /= 'colour') call fail('info nthkey: ' // key)
  call mpi_info_get_valuelen(info, 'colour', len, flag, ierr)
  if (.not. flag .or. len /= 4) call fail('info valuelen')
  value = 'old'
  call mpi_info_get(info, 'colour', 64, value, flag, ierr)
  if (.not. flag .or. value /= 'blue') call fail('info get: ' // value)
  value = 'unchanged'
  call mpi_info_get(info, 'size', 64, value, flag, ierr)
  if (flag .or. value /= 'unchanged') call fail('info get of a missing key')
  ! MPI_INFO_GET_STRING: BUFLEN counts characters (no terminator) both ways; 0 asks the length.
  buflen = 0
  value = 'unchanged'
  call mpi_info_get_string(info, 'colour', buflen, value, flag, ierr)
  if (ierr /= MPI_SUCCESS .or. .not. flag .or. buflen /= 4 .or. value /= 'unchanged') &
      call fail('info_get_string with buflen 0')
  buflen = 64
  call mpi_info_get_string(info, 'colour', buflen, value, flag, ierr)
  if (.not. flag .or. buflen /= 4 .or. value /= 'blue') call fail('info_get_string: ' // value)
  buflen = 3
  call mpi_info_get_string(info, 'colour', buflen, short3, flag, ierr)
  if (.not. flag .or. buflen /= 4 .or. short3 /= 'blu') call fail('info_get_string truncated')
  buflen = 4
  call mpi_info_get_string(info, 'colour', buflen, short4, flag, ierr)
  if (.not. flag .or. buflen /= 4 .or. short4 /= 'blue') call fail('info_get_string exact')
  buflen = 64
  value = 'unchanged'
  call mpi_info_get_string(info, 'size', buflen, value, flag, ierr)
  if (flag .or. buflen /= 64 .or. value /= 'unchanged') call fail('info_get_string missing key')
  call mpi_info_free(info, ierr)
  if (info /= MPI_INFO_NULL) call fail('info_free')
  call mpi_finalize(ierr)
  if (fails /= 0) stop 1
contains
  subroutine fail(what)
    character(len=*), intent(in) :: what
    print '(a,i0,2a)', 'rank ', rank, ': FAILED: ', what
    fails = fails + 1
  end subroutine
end program
