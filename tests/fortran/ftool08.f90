! For test_f08_callthrough.sh: an mpi_f08 profiling tool written in Fortran. It intercepts
! MPI_Send by defining the specific procedure MPI_Send_f08ts with the module's interface
! (BIND(C) under its linker name) and calls PMPI_Send, the module's profiling generic. It counts
! in a variable C can read (ctool08.c prints it).
module ftool08_count
  use, intrinsic :: iso_c_binding, only: c_int
  implicit none
  integer(c_int), bind(C, name="ftool08_sends") :: sends = 0
end module ftool08_count

subroutine MPI_Send_f08ts(buf, count, datatype, dest, tag, comm, ierror) &
    bind(C, name="mpi_send_f08ts_")
  use mpi_f08, only: MPI_Datatype, MPI_Comm, PMPI_Send
  use ftool08_count
  implicit none
  type(*), dimension(..), intent(in) :: buf
  integer, intent(in) :: count, dest, tag
  type(MPI_Datatype), intent(in) :: datatype
  type(MPI_Comm), intent(in) :: comm
  integer, optional, intent(out) :: ierror
  sends = sends + 1
  call PMPI_Send(buf, count, datatype, dest, tag, comm, ierror)
end subroutine MPI_Send_f08ts
