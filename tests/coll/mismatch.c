/* A collective whose processes disagree on the size (argv[1]: bcast, bcast_long or allreduce):
 * the process that detects it (MPI_ERR_TRUNCATE) ends the job under MPI_ERRORS_ARE_FATAL, and
 * the others, waiting in the collective or the barrier after it, go with it
 * (test_mismatch.sh). With argv[1] "return", under MPI_ERRORS_RETURN, every process goes on:
 * the root's count is shorter, then longer, than the others' in MPI_Bcast, MPI_Ibcast and
 * MPI_Allreduce, and each process prints the error class each call returned. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int b[1 << 20], r[1 << 10];

static void report(int rank, const char *what, int rc)
{
    int cls = MPI_SUCCESS;
    MPI_Error_class(rc, &cls);
    printf("rank %d %s %s\n", rank, what, cls == MPI_SUCCESS ? "ok" : cls == MPI_ERR_COUNT ?
           "MPI_ERR_COUNT" : cls == MPI_ERR_TRUNCATE ? "MPI_ERR_TRUNCATE" : "other");
}

static void returning(int rank)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int longer = 0; longer < 2; longer++) {
        int root = longer ? 10 : 1, other = longer ? 1 : 10;
        const char *how = longer ? "long" : "short";
        char what[64];
        snprintf(what, sizeof what, "bcast_%s", how);
        report(rank, what, MPI_Bcast(b, rank == 0 ? root : other, MPI_INT, 0, MPI_COMM_WORLD));
        MPI_Request req;
        snprintf(what, sizeof what, "ibcast_%s", how);
        int rc = MPI_Ibcast(b, rank == 0 ? root : other, MPI_INT, 0, MPI_COMM_WORLD, &req);
        report(rank, what, rc == MPI_SUCCESS ? MPI_Wait(&req, MPI_STATUS_IGNORE) : rc);
        snprintf(what, sizeof what, "allreduce_%s", how);
        report(rank, what, MPI_Allreduce(b, r, rank == 0 ? root : other, MPI_INT, MPI_SUM,
                                         MPI_COMM_WORLD));
    }
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *what = argc > 1 ? argv[1] : "bcast";
    if (!strcmp(what, "return"))
        returning(rank);
    else if (!strcmp(what, "bcast"))
        MPI_Bcast(b, rank == 0 ? 64 : 2, MPI_INT, 0, MPI_COMM_WORLD);
    else if (!strcmp(what, "bcast_long"))
        MPI_Bcast(b, rank == 0 ? 1 << 20 : 2, MPI_INT, 0, MPI_COMM_WORLD);
    else
        MPI_Allreduce(b, r, rank == 3 ? 1024 : 512, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
