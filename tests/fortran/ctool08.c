/* For test_f08_callthrough.sh: a C tool counting MPI_Send, and printing at MPI_Finalize its
 * count and that of the Fortran tool ftool08.f90 when that is loaded too (-1 when not). */
#include <stdio.h>
#include <mpi.h>

extern int ftool08_sends __attribute__((weak));
static int sends;

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    sends++;
    return PMPI_Send(buf, count, type, dest, tag, comm);
}

int MPI_Finalize(void)
{
    int rank;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    printf("rank %d: Fortran MPI_Send_f08ts %d, C MPI_Send %d\n", rank,
           &ftool08_sends ? ftool08_sends : -1, sends);
    return PMPI_Finalize();
}
