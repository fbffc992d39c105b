/* The demo: every rank says hello with what MPI tells it about itself, then the ranks pass a
 * token around the ring and add up their ranks, so the profiler has messages to show. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, len, token, sum;
    char name[MPI_MAX_PROCESSOR_NAME], version[MPI_MAX_LIBRARY_VERSION_STRING];
    double block[1024] = {0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Get_processor_name(name, &len);
    MPI_Get_library_version(version, &len);
    printf("hello from rank %d of %d on %s (%s)\n", rank, size, name, version);

    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    if (rank == 0) {
        token = 1;
        MPI_Send(&token, 1, MPI_INT, next, 0, MPI_COMM_WORLD);
        MPI_Recv(&token, 1, MPI_INT, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(&token, 1, MPI_INT, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        token++;
        MPI_Send(&token, 1, MPI_INT, next, 0, MPI_COMM_WORLD);
    }
    for (int i = 0; i < 10; i++)   /* 8 KiB to the next rank, 8 KiB from the previous one */
        MPI_Sendrecv_replace(block, 1024, MPI_DOUBLE, next, 1, prev, 1, MPI_COMM_WORLD,
                             MPI_STATUS_IGNORE);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("the token went round %d ranks; the ranks add up to %d\n", token, sum);
    MPI_Finalize();
    return 0;
}
