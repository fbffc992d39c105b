! np: 2 4
! use mpi_f08 with TS 29113 choice buffers: non-contiguous array sections transfer exactly the
! selected elements, in blocking routines (copied) and in nonblocking and persistent ones (a
! datatype with the section's layout): MPI_Send/MPI_Recv, MPI_Isend/MPI_Irecv, MPI_Ibcast,
! MPI_Send_init, a 3-D section with a negative stride, a count that covers part of a section,
! MPI_BYTE counts over a section of reals, a contiguous section passed in place; MPI_Get_count
! in the user's datatype; too large a count is MPI_ERR_COUNT through the error handler.
program sections
  use mpi_f08
  implicit none
  integer :: rank, nproc, ierr, i, j, k, n, fails, cls
  type(MPI_Status) :: st
  type(MPI_Request) :: req, preq
  real :: x(12, 3), y(12, 3)
  integer :: cube(4, 5, 6), got(4, 5, 6), line(40)
  double precision :: d(10), dexp(10)
  fails = 0
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nproc)
  do i = 1, 12
     x(i, :) = [real(i), real(100 + i), real(200 + i)]
  end do
  do k = 1, 6
     do j = 1, 5
        do i = 1, 4
           cube(i, j, k) = i + 10 * j + 100 * k
        end do
     end do
  end do

  ! Blocking: a strided section of column 2 into every other element of column 1.
  y = -1
  if (rank == 0) then
     call MPI_Send(x(1:12:3, 2), 4, MPI_REAL, 1, 7, MPI_COMM_WORLD)
  else if (rank == 1) then
     call MPI_Recv(y(1:8:2, 1), 4, MPI_REAL, 0, 7, MPI_COMM_WORLD, st)
     call check(all(y(1:8:2, 1) == [101., 104., 107., 110.]), 'blocking section received')
     call check(all(y(2:8:2, 1) == -1.) .and. all(y(9:, 1) == -1.), 'blocking: others untouched')
     call MPI_Get_count(st, MPI_REAL, n)
     call check(n == 4 .and. st%MPI_SOURCE == 0 .and. st%MPI_TAG == 7, 'blocking status')
  end if

  ! Nonblocking: sections on both sides, the receive posted first.
  y = -1
  if (rank == 1) then
     call MPI_Irecv(y(1:12:2, 2), 6, MPI_REAL, 0, 8, MPI_COMM_WORLD, req)
     call MPI_Barrier(MPI_COMM_WORLD)
     call MPI_Wait(req, st)
     call check(all(y(1:12:2, 2) == [202., 204., 206., 208., 210., 212.]), 'irecv section')
     call check(all(y(2:12:2, 2) == -1.), 'irecv: others untouched')
     call MPI_Get_count(st, MPI_REAL, n)
     call check(n == 6, 'irecv count')
  else
     call MPI_Barrier(MPI_COMM_WORLD)
     if (rank == 0) then
        call MPI_Isend(x(2:12:2, 3), 6, MPI_REAL, 1, 8, MPI_COMM_WORLD, req)
        call MPI_Wait(req, MPI_STATUS_IGNORE)
     end if
  end if

  ! A 3-D section with a negative stride, and a count covering its first 7 elements only.
  got = 0
  if (rank == 0) then
     call MPI_Isend(cube(4:1:-2, 2:5:3, 6:1:-1), 24, MPI_INTEGER, 1, 9, MPI_COMM_WORLD, req)
     call MPI_Wait(req, MPI_STATUS_IGNORE)
     call MPI_Send(cube(1:4:3, 1:5:2, 2), 5, MPI_INTEGER, 1, 10, MPI_COMM_WORLD)
  else if (rank == 1) then
     call MPI_Irecv(line, 24, MPI_INTEGER, 0, 9, MPI_COMM_WORLD, req)
     call MPI_Wait(req, st)
     call check(all(line(1:24) == reshape(cube(4:1:-2, 2:5:3, 6:1:-1), [24])), '3-D section')
     got = -5
     call MPI_Irecv(got(1:4:3, 1:5:2, 3), 5, MPI_INTEGER, 0, 10, MPI_COMM_WORLD, req)
     call MPI_Wait(req, st)
     call check(got(1, 1, 3) == cube(1, 1, 2) .and. got(4, 1, 3) == cube(4, 1, 2) .and. &
                got(1, 3, 3) == cube(1, 3, 2) .and. got(4, 3, 3) == cube(4, 3, 2) .and. &
                got(1, 5, 3) == cube(1, 5, 2), 'first 5 elements of a section')
     call check(got(4, 5, 3) == -5 .and. got(2, 1, 3) == -5 .and. count(got /= -5) == 5, &
                'elements past the count untouched')
  end if

  ! Broadcast of a section from rank 0, as MPI_BYTE counts.
  d = 0
  dexp = 0
  do i = 1, 10, 3
     dexp(i) = i * 1.5d0
  end do
  if (rank == 0) d = dexp
  call MPI_Ibcast(d(1:10:3), 4 * 8, MPI_BYTE, 0, MPI_COMM_WORLD, req)
  call MPI_Wait(req, MPI_STATUS_IGNORE)
  call check(all(d == dexp), 'ibcast of a section in bytes')

  ! Persistent: the section's datatype lives as long as the request.
  y = -1
  if (rank == 0) then
     call MPI_Send_init(x(12:1:-4, 1), 3, MPI_REAL, 1, 11, MPI_COMM_WORLD, preq)
     do i = 1, 2
        call MPI_Start(preq)
        call MPI_Wait(preq, MPI_STATUS_IGNORE)
     end do
     call MPI_Request_free(preq)
  else if (rank == 1) then
     do i = 1, 2
        call MPI_Recv(y(1:3, 3), 3, MPI_REAL, 0, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
        call check(all(y(1:3, 3) == [12., 8., 4.]), 'persistent send of a section')
     end do
  end if

  ! A contiguous section and MPI_IN_PLACE: no copy needed.
  line = rank + 1
  call MPI_Allreduce(MPI_IN_PLACE, line(3:7), 5, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(ierr == MPI_SUCCESS .and. all(line(3:7) == nproc * (nproc + 1) / 2) .and. &
             line(2) == rank + 1, 'allreduce in place on a section')

  ! More elements than the section has: an error through the communicator's handler.
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
  call MPI_Isend(x(1:12:2, 1), 7, MPI_REAL, 0, 12, MPI_COMM_WORLD, req, ierr)
  call MPI_Error_class(ierr, cls)
  call check(cls == MPI_ERR_COUNT, 'count beyond the section: MPI_ERR_COUNT')

  call MPI_Allreduce(MPI_IN_PLACE, fails, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  call MPI_Finalize()
  if (fails /= 0) stop 1
contains
  include 'check.inc'
end program sections
