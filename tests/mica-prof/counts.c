/* Known calls and bytes for test_counts.sh (check.py counts computes the same numbers).
 * Any number of ranks >= 2. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(x) do { if ((x) != MPI_SUCCESS) { fprintf(stderr, "%s failed\n", #x); MPI_Abort(MPI_COMM_WORLD, 1); } } while (0)

int main(int argc, char **argv)
{
    int rank, n;
    CHECK(MPI_Init(&argc, &argv));
    CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHECK(MPI_Comm_size(MPI_COMM_WORLD, &n));
    int next = (rank + 1) % n, prev = (rank + n - 1) % n;
    double *d = calloc(1000, sizeof(double)), *e = calloc(1000, sizeof(double));
    MPI_Request rq;

    /* ring: 5 x (Isend 1000 doubles, Recv 1000 doubles, Wait) */
    for (int i = 0; i < 5; i++) {
        CHECK(MPI_Isend(d, 1000, MPI_DOUBLE, next, 1, MPI_COMM_WORLD, &rq));
        CHECK(MPI_Recv(e, 1000, MPI_DOUBLE, prev, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    }
    /* to nobody: no bytes, no matrix entry */
    for (int i = 0; i < 3; i++)
        CHECK(MPI_Send(d, 100, MPI_DOUBLE, MPI_PROC_NULL, 2, MPI_COMM_WORLD));
    /* collectives */
    int ib[256] = {0};
    for (int i = 0; i < 2; i++)
        CHECK(MPI_Bcast(ib, 256, MPI_INT, 0, MPI_COMM_WORLD));
    for (int i = 0; i < 3; i++)
        CHECK(MPI_Allreduce(MPI_IN_PLACE, d, 10, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
    CHECK(MPI_Reduce(ib, ib + 100, 7, MPI_INT, MPI_SUM, 1, MPI_COMM_WORLD));
    int *g = calloc((size_t)n * 3, sizeof(int));
    CHECK(MPI_Gather(ib, 3, MPI_INT, g, 3, MPI_INT, 0, MPI_COMM_WORLD));
    int *a2 = calloc((size_t)n * 2, sizeof(int)), *b2 = calloc((size_t)n * 2, sizeof(int));
    CHECK(MPI_Alltoall(a2, 2, MPI_INT, b2, 2, MPI_INT, MPI_COMM_WORLD));
    int *counts = malloc(sizeof(int) * (size_t)n), *displs = malloc(sizeof(int) * (size_t)n), tot = 0;
    for (int i = 0; i < n; i++) {
        counts[i] = i + 1;
        displs[i] = tot;
        tot += i + 1;
    }
    char *cv = calloc((size_t)tot, 1), cs[64] = {0};
    CHECK(MPI_Allgatherv(cs, rank + 1, MPI_CHAR, cv, counts, displs, MPI_CHAR, MPI_COMM_WORLD));
    for (int i = 0; i < 4; i++)
        CHECK(MPI_Barrier(MPI_COMM_WORLD));
    /* persistent: 3 x Startall of (send 16 bytes to next, receive 16 bytes from prev) */
    MPI_Request pr[2];
    char ps[16] = {0}, pq[16];
    CHECK(MPI_Send_init(ps, 16, MPI_BYTE, next, 3, MPI_COMM_WORLD, &pr[0]));
    CHECK(MPI_Recv_init(pq, 16, MPI_BYTE, prev, 3, MPI_COMM_WORLD, &pr[1]));
    for (int i = 0; i < 3; i++) {
        CHECK(MPI_Startall(2, pr));
        CHECK(MPI_Waitall(2, pr, MPI_STATUSES_IGNORE));
    }
    CHECK(MPI_Request_free(&pr[0]));
    CHECK(MPI_Request_free(&pr[1]));
    /* 64-bit byte counts: rank 1 posts 3 receives of 2^28 doubles (2 GiB each) and gets 1 double */
    if (rank == 0)
        for (int i = 0; i < 3; i++)
            CHECK(MPI_Send(d, 1, MPI_DOUBLE, 1, 4, MPI_COMM_WORLD));
    if (rank == 1) {
        double *big = malloc(64);
        for (int i = 0; i < 3; i++)
            CHECK(MPI_Recv(big, 1 << 28, MPI_DOUBLE, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        free(big);
    }
    free(d), free(e), free(g), free(a2), free(b2), free(counts), free(displs), free(cv);
    CHECK(MPI_Finalize());
    return 0;
}
