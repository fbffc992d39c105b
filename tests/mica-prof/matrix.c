/* The matrix in MPI_COMM_WORLD ranks, for test_matrix.sh (an even number of ranks): traffic on
 * a communicator whose ranks are reversed must land on the right world ranks. */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, n, i;
    char *buf = calloc(100000, 1), *rb = calloc(100000, 1);
    MPI_Comm rev, dup;
    MPI_Request rq;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Comm_split(MPI_COMM_WORLD, 0, n - rank, &rev);   /* world rank r is rank n-1-r here */
    MPI_Comm_dup(rev, &dup);
    MPI_Comm_rank(dup, &i);
    /* rank i of the reversed communicator sends (i+1)*100 bytes to rank i+1 */
    MPI_Isend(buf, (i + 1) * 100, MPI_BYTE, (i + 1) % n, 0, dup, &rq);
    MPI_Recv(rb, 100000, MPI_BYTE, (i + n - 1) % n, 0, dup, MPI_STATUS_IGNORE);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&rev);
    /* pairs exchange 8 bytes on MPI_COMM_WORLD */
    MPI_Sendrecv(buf, 8, MPI_BYTE, rank ^ 1, 1, rb, 8, MPI_BYTE, rank ^ 1, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    free(buf), free(rb);
    MPI_Finalize();
    return 0;
}
