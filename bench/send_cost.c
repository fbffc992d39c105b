/* Instructions per MPI_Send, for callgrind: rank 0 sends `n` messages of `bytes` bytes to
 * rank 1, which receives them. Run rank 0 under `valgrind --tool=callgrind` and read the
 * inclusive cost of MPI_Send divided by its calls (bench/send_cost.sh does this). */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, n = argc > 1 ? atoi(argv[1]) : 10000, bytes = argc > 2 ? atoi(argv[2]) : 8;
    char buf[65536] = {0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < n; i++) {
        if (rank == 0)
            MPI_Send(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
        else if (rank == 1)
            MPI_Recv(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
