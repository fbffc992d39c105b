/* Instructions per MPI_Recv of a message that has already arrived, for callgrind: rank 0 sends
 * `n` messages of `bytes` bytes to rank 1 and both meet at a barrier; only then does rank 1
 * receive them, so each MPI_Recv finds its message waiting. Run rank 1 under
 * `valgrind --tool=callgrind` and read the inclusive cost of MPI_Recv divided by its calls
 * (bench/send_cost.sh recv does this). */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, n = argc > 1 ? atoi(argv[1]) : 1000, bytes = argc > 2 ? atoi(argv[2]) : 8;
    char buf[65536] = {0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; rank == 0 && i < n; i++)
        MPI_Send(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; rank == 1 && i < n; i++)
        MPI_Recv(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
