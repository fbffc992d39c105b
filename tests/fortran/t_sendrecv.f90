! np: 2 4
! Point-to-point from Fortran: MPI_SEND / MPI_RECV with the status fields (MPI_SOURCE, MPI_TAG,
! MPI_ERROR, MPI_GET_COUNT), MPI_STATUS_IGNORE, MPI_ANY_SOURCE, MPI_PROC_NULL, nonblocking
! MPI_ISEND / MPI_IRECV completed by MPI_WAITALL (request arrays converted both ways, statuses
! and MPI_STATUSES_IGNORE), MPI_TEST on a null request, MPI_SENDRECV.
program sendrecv
  use mpi
  implicit none
  integer :: ierr, rank, nproc, fails, i, count, next, prev
  integer :: status(MPI_STATUS_SIZE), statuses(MPI_STATUS_SIZE, 2), reqs(2)
  integer :: buf(10), rbuf(10), sval, rval
  double precision :: dbuf(3)
  logical :: flag
  fails = 0
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
  if (rank == 0) then
     do i = 1, 10
        buf(i) = i * 3
     end do
     call mpi_send(buf, 7, MPI_INTEGER, 1, 42, MPI_COMM_WORLD, ierr)
     if (ierr /= MPI_SUCCESS) call fail('send')
     dbuf = (/ 1.5d0, 2.5d0, -3d0 /)
     call mpi_send(dbuf, 3, MPI_DOUBLE_PRECISION, 1, 43, MPI_COMM_WORLD, ierr)
  else if (rank == 1) then
     rbuf = 0
     call mpi_recv(rbuf, 10, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &
                   status, ierr)
     if (ierr /= MPI_SUCCESS) call fail('recv')
     if (status(MPI_SOURCE) /= 0 .or. status(MPI_TAG) /= 42) call fail('status source/tag')
     call mpi_get_count(status, MPI_INTEGER, count, ierr)
     if (count /= 7) call fail('get_count')
     do i = 1, 7
        if (rbuf(i) /= 3 * i) call fail('received data')
     end do
     if (rbuf(8) /= 0) call fail('received past the count')
     dbuf = 0
     call mpi_recv(dbuf, 3, MPI_DOUBLE_PRECISION, 0, 43, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
     if (ierr /= MPI_SUCCESS .or. dbuf(2) /= 2.5d0 .or. dbuf(3) /= -3d0) &
         call fail('recv with MPI_STATUS_IGNORE')
  end if
  ! MPI_PROC_NULL: completes at once, status says MPI_PROC_NULL and MPI_ANY_TAG.
  call mpi_recv(rbuf, 1, MPI_INTEGER, MPI_PROC_NULL, 0, MPI_COMM_WORLD, status, ierr)
  if (status(MPI_SOURCE) /= MPI_PROC_NULL .or. status(MPI_TAG) /= MPI_ANY_TAG) &
      call fail('MPI_PROC_NULL status')
  ! A ring with nonblocking calls.
  next = mod(rank + 1, nproc)
  prev = mod(rank + nproc - 1, nproc)
  sval = 100 + rank
  rval = -1
  call mpi_irecv(rval, 1, MPI_INTEGER, prev, 5, MPI_COMM_WORLD, reqs(1), ierr)
  call mpi_isend(sval, 1, MPI_INTEGER, next, 5, MPI_COMM_WORLD, reqs(2), ierr)
  if (reqs(1) == MPI_REQUEST_NULL .or. reqs(2) == MPI_REQUEST_NULL) call fail('requests')
  call mpi_waitall(2, reqs, statuses, ierr)
  if (ierr /= MPI_SUCCESS) call fail('waitall')
  if (reqs(1) /= MPI_REQUEST_NULL .or. reqs(2) /= MPI_REQUEST_NULL) &
      call fail('requests not MPI_REQUEST_NULL after waitall')
  if (rval /= 100 + prev) call fail('ring value')
  if (statuses(MPI_SOURCE, 1) /= prev .or. statuses(MPI_TAG, 1) /= 5) call fail('ring status')
  rval = -1
  call mpi_irecv(rval, 1, MPI_INTEGER, prev, 6, MPI_COMM_WORLD, reqs(1), ierr)
  call mpi_isend(sval, 1, MPI_INTEGER, next, 6, MPI_COMM_WORLD, reqs(2), ierr)
  call mpi_waitall(2, reqs, MPI_STATUSES_IGNORE, ierr)
  if (ierr /= MPI_SUCCESS .or. rval /= 100 + prev) call fail('waitall MPI_STATUSES_IGNORE')
  ! MPI_TEST on MPI_REQUEST_NULL: flag true.
  call mpi_test(reqs(1), flag, status, ierr)
  if (.not. flag .or. ierr /= MPI_SUCCESS) call fail('test on MPI_REQUEST_NULL')
  ! MPI_WAIT one request.
  call mpi_irecv(rval, 1, MPI_INTEGER, prev, 7, MPI_COMM_WORLD, reqs(1), ierr)
  call mpi_send(sval, 1, MPI_INTEGER, next, 7, MPI_COMM_WORLD, ierr)
  call mpi_wait(reqs(1), status, ierr)
  if (reqs(1) /= MPI_REQUEST_NULL .or. status(MPI_SOURCE) /= prev) call fail('wait')
  rval = -1
  call mpi_sendrecv(sval, 1, MPI_INTEGER, next, 8, rval, 1, MPI_INTEGER, prev, 8, &
                    MPI_COMM_WORLD, status, ierr)
  if (rval /= 100 + prev .or. status(MPI_TAG) /= 8) call fail('sendrecv')
  call mpi_finalize(ierr)
  if (fails /= 0) stop 1
contains
  subroutine fail(what)
    character(len=*), intent(in) :: what
    print '(a,i0,2a)', 'rank ', rank, ': FAILED: ', what
    fails = fails + 1
  end subroutine
end program
