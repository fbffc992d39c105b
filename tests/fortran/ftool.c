/* For test_callthrough.sh: a tool for both languages. Its Fortran mpi_send_ calls the library's
 * pmpi_send_, which must call C PMPI_Send, not MPI_Send: so its C MPI_Send sees nothing of the
 * Fortran call, and each call is counted once. */
#include <stdio.h>
#include <mpi.h>

static int fsends, csends;

void pmpi_send_(void *buf, MPI_Fint *count, MPI_Fint *type, MPI_Fint *dest, MPI_Fint *tag,
                MPI_Fint *comm, MPI_Fint *ierr);
void mpi_send_(void *buf, MPI_Fint *count, MPI_Fint *type, MPI_Fint *dest, MPI_Fint *tag,
               MPI_Fint *comm, MPI_Fint *ierr);

void mpi_send_(void *buf, MPI_Fint *count, MPI_Fint *type, MPI_Fint *dest, MPI_Fint *tag,
               MPI_Fint *comm, MPI_Fint *ierr)
{
    fsends++;
    pmpi_send_(buf, count, type, dest, tag, comm, ierr);
}

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    csends++;
    return PMPI_Send(buf, count, type, dest, tag, comm);
}

int MPI_Finalize(void)
{
    int rank;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    printf("rank %d: Fortran mpi_send_ %d, C MPI_Send %d\n", rank, fsends, csends);
    return PMPI_Finalize();
}
