! np: 2
! Fortran counts the requests of an array from 1: MPI_WAITANY, MPI_TESTANY, MPI_WAITSOME and
! MPI_TESTSOME report index 2 for the second request, and MPI_UNDEFINED when none is active
! (issue 11: MPICH's irsendf and pssendf read the status of the request the index names).
program request_index
  use mpi
  implicit none
  integer :: ierr, rank, peer, req(2), idx, outc, indices(2), buf, sbuf, errs
  integer :: st(MPI_STATUS_SIZE), sts(MPI_STATUS_SIZE, 2)
  logical :: flag
  errs = 0
  sbuf = 5
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  peer = 1 - rank
  req(1) = MPI_REQUEST_NULL
  call MPI_IRECV(buf, 1, MPI_INTEGER, peer, 7, MPI_COMM_WORLD, req(2), ierr)
  call MPI_SEND(sbuf, 1, MPI_INTEGER, peer, 7, MPI_COMM_WORLD, ierr)
  call MPI_WAITANY(2, req, idx, st, ierr)
  if (idx /= 2 .or. st(MPI_SOURCE) /= peer .or. st(MPI_TAG) /= 7) errs = errs + 1
  call MPI_IRECV(buf, 1, MPI_INTEGER, peer, 8, MPI_COMM_WORLD, req(2), ierr)
  call MPI_SEND(sbuf, 1, MPI_INTEGER, peer, 8, MPI_COMM_WORLD, ierr)
  flag = .false.
  do while (.not. flag)
    call MPI_TESTANY(2, req, idx, flag, st, ierr)
  end do
  if (idx /= 2 .or. st(MPI_TAG) /= 8) errs = errs + 1
  call MPI_IRECV(buf, 1, MPI_INTEGER, peer, 9, MPI_COMM_WORLD, req(2), ierr)
  call MPI_SEND(sbuf, 1, MPI_INTEGER, peer, 9, MPI_COMM_WORLD, ierr)
  call MPI_WAITSOME(2, req, outc, indices, sts, ierr)
  if (outc /= 1 .or. indices(1) /= 2 .or. sts(MPI_TAG, 1) /= 9) errs = errs + 1
  call MPI_IRECV(buf, 1, MPI_INTEGER, peer, 10, MPI_COMM_WORLD, req(2), ierr)
  call MPI_SEND(sbuf, 1, MPI_INTEGER, peer, 10, MPI_COMM_WORLD, ierr)
  outc = 0
  do while (outc == 0)
    call MPI_TESTSOME(2, req, outc, indices, sts, ierr)
  end do
  if (outc /= 1 .or. indices(1) /= 2 .or. sts(MPI_TAG, 1) /= 10) errs = errs + 1
  call MPI_WAITANY(2, req, idx, st, ierr)          ! none active
  if (idx /= MPI_UNDEFINED) errs = errs + 1
  call MPI_FINALIZE(ierr)
  if (errs /= 0) then
    print *, 'FAILED: ', errs
    stop 1
  end if
end program
