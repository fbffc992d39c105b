/* A collective whose processes disagree on the size (argv[1]: bcast, bcast_long or allreduce):
 * the process that detects it (MPI_ERR_TRUNCATE) ends the job under MPI_ERRORS_ARE_FATAL, and
 * the others, waiting in the collective or the barrier after it, go with it
 * (test_mismatch.sh). */
#include <mpi.h>
#include <string.h>

static int b[1 << 20], r[1 << 10];

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *what = argc > 1 ? argv[1] : "bcast";
    if (!strcmp(what, "bcast"))
        MPI_Bcast(b, rank == 0 ? 64 : 2, MPI_INT, 0, MPI_COMM_WORLD);
    else if (!strcmp(what, "bcast_long"))
        MPI_Bcast(b, rank == 0 ? 1 << 20 : 2, MPI_INT, 0, MPI_COMM_WORLD);
    else
        MPI_Allreduce(b, r, rank == 3 ? 1024 : 512, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
