/* For test_callthrough.sh: a C-only tool counting MPI_Send; reports at MPI_Finalize. */
#include <stdio.h>
#include <mpi.h>

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
    printf("rank %d: C MPI_Send %d\n", rank, sends);
    return PMPI_Finalize();
}
