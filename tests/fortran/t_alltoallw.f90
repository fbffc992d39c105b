! np: 1 2 3 4
! Per-process datatype arrays from Fortran, whose length is implicit (the communicator's size,
! or its topology's degrees): MPI_ALLTOALLW with a different datatype per peer (2 INTEGERs as one
! derived "pair" or as 2 MPI_INTEGER, chosen differently on the two sides), MPI_IALLTOALLW, and
! MPI_NEIGHBOR_ALLTOALLW on a periodic ring (MPI_ADDRESS_KIND displacements).
program alltoallw
  use mpi
  implicit none
  integer :: ierr, rank, nproc, fails, pair, i, req, ring, left, right
  integer, allocatable :: sbuf(:), rbuf(:), scounts(:), sdispls(:), stypes(:), &
      rcounts(:), rdispls(:), rtypes(:)
  integer(kind=MPI_ADDRESS_KIND) :: nsd(2), nrd(2)
  integer :: nsc(2), nrc(2), nst(2), nrt(2), nsbuf(4), nrbuf(4)
  fails = 0
  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
  call mpi_type_contiguous(2, MPI_INTEGER, pair, ierr)
  call mpi_type_commit(pair, ierr)
  allocate(sbuf(2 * nproc), rbuf(2 * nproc), scounts(nproc), sdispls(nproc), stypes(nproc), &
           rcounts(nproc), rdispls(nproc), rtypes(nproc))
  do i = 0, nproc - 1
     sbuf(2 * i + 1 : 2 * i + 2) = (/ rank * 100 + i, -(rank * 100 + i) /)
     sdispls(i + 1) = 8 * i
     rdispls(i + 1) = 8 * i
     if (mod(i, 2) == 1) then
        stypes(i + 1) = pair
        scounts(i + 1) = 1
     else
        stypes(i + 1) = MPI_INTEGER
        scounts(i + 1) = 2
     end if
     if (mod(i + rank, 2) == 0) then
        rtypes(i + 1) = pair
        rcounts(i + 1) = 1
     else
        rtypes(i + 1) = MPI_INTEGER
        rcounts(i + 1) = 2
     end if
  end do
  rbuf = -999
  call mpi_alltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, &
                     MPI_COMM_WORLD, ierr)
  if (ierr /= MPI_SUCCESS) call fail('alltoallw')
  call check('alltoallw')
  rbuf = -999
  call mpi_ialltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, &
                      MPI_COMM_WORLD, req, ierr)
  call mpi_wait(req, MPI_STATUS_IGNORE, ierr)
  if (ierr /= MPI_SUCCESS) call fail('ialltoallw')
  call check('ialltoallw')

  ! A periodic ring: the neighbors are left, then right.
  call mpi_cart_create(MPI_COMM_WORLD, 1, (/ nproc /), (/ .true. /), .false., ring, ierr)
  call mpi_cart_shift(ring, 0, 1, left, right, ierr)
  nsbuf = (/ rank, 10 * rank, rank + 1, 10 * rank + 1 /)
  nsd = (/ 0_MPI_ADDRESS_KIND, 8_MPI_ADDRESS_KIND /)
  nrd = nsd
  nsc = (/ 1, 2 /)
  nst = (/ pair, MPI_INTEGER /)
  nrc = (/ 2, 1 /)
  nrt = (/ MPI_INTEGER, pair /)
  nrbuf = -999
  call mpi_neighbor_alltoallw(nsbuf, nsc, nsd, nst, nrbuf, nrc, nrd, nrt, ring, ierr)
  if (ierr /= MPI_SUCCESS) call fail('neighbor_alltoallw')
  ! From the left neighbor its "to the right" block, from the right one its "to the left" one.
  if (any(nrbuf /= (/ left + 1, 10 * left + 1, right, 10 * right /))) &
      call fail('neighbor_alltoallw: values')
  call mpi_comm_free(ring, ierr)
  call mpi_type_free(pair, ierr)
  deallocate(sbuf, rbuf, scounts, sdispls, stypes, rcounts, rdispls, rtypes)
  call mpi_finalize(ierr)
  if (fails /= 0) stop 1
contains
  subroutine check(what)
    character(len=*), intent(in) :: what
    integer :: j
    do j = 0, nproc - 1
       if (rbuf(2 * j + 1) /= j * 100 + rank .or. rbuf(2 * j + 2) /= -(j * 100 + rank)) then
          print '(a,i0,a,2i6)', 'from ', j, ': ', rbuf(2 * j + 1 : 2 * j + 2)
          call fail(what // ': values')
       end if
    end do
  end subroutine
  subroutine fail(what)
    character(len=*), intent(in) :: what
    print '(a,i0,2a)', 'rank ', rank, ': FAILED: ', what
    fails = fails + 1
  end subroutine
end program
