/* np: 1 2 3 4 8 */
/* MPI_Gather, MPI_Gatherv, MPI_Scatter, MPI_Scatterv: every root, MPI_IN_PLACE at the root,
 * a derived vector receive (or send) type against plain ints (gaps untouched), uneven counts
 * and displacements, zero counts, the large-count forms. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"

static int rank, size;

static int val(int r, int i) { return 1000 * r + i; }

static void gather(int root)
{
    int n = 3, *send = malloc(n * sizeof(int)), *recv = malloc(size * n * sizeof(int));
    for (int i = 0; i < n; i++)
        send[i] = val(rank, i);
    for (int i = 0; i < size * n; i++)
        recv[i] = -1;
    CHECK(MPI_Gather(send, n, MPI_INT, recv, n, MPI_INT, root, MPI_COMM_WORLD) == MPI_SUCCESS);
    if (rank == root)
        for (int r = 0; r < size; r++)
            for (int i = 0; i < n; i++)
                CHECKF(recv[r * n + i] == val(r, i), "gather root %d: [%d][%d]=%d", root, r, i,
                       recv[r * n + i]);
    /* In place: the root's block is already there. */
    for (int i = 0; i < size * n; i++)
        recv[i] = rank == root && i / n == root ? val(root, i % n) : -1;
    CHECK(MPI_Gather(rank == root ? MPI_IN_PLACE : send, n, MPI_INT, recv, n, MPI_INT, root,
                     MPI_COMM_WORLD) == MPI_SUCCESS);
    if (rank == root)
        for (int r = 0; r < size; r++)
            for (int i = 0; i < n; i++)
                CHECKF(recv[r * n + i] == val(r, i), "gather in place root %d: [%d][%d]=%d",
                       root, r, i, recv[r * n + i]);
    /* Into a vector type: each block is 2 ints with a gap between (extent 3 ints). */
    MPI_Datatype vec;
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    int *wide = malloc(3 * size * sizeof(int));
    for (int i = 0; i < 3 * size; i++)
        wide[i] = -1;
    CHECK(MPI_Gather(send, 2, MPI_INT, wide, 1, vec, root, MPI_COMM_WORLD) == MPI_SUCCESS);
    if (rank == root)
        for (int r = 0; r < size; r++)
            CHECKF(wide[3 * r] == val(r, 0) && wide[3 * r + 1] == -1 && wide[3 * r + 2] == val(r, 1),
                   "gather into vector root %d block %d: %d %d %d", root, r, wide[3 * r],
                   wide[3 * r + 1], wide[3 * r + 2]);
    /* Scatter back out of the vector type. */
    int pair[2] = {-1, -1};
    if (rank == root)
        for (int r = 0; r < size; r++)
            wide[3 * r] = val(r, 7), wide[3 * r + 2] = val(r, 8);
    CHECK(MPI_Scatter(wide, 1, vec, pair, 2, MPI_INT, root, MPI_COMM_WORLD) == MPI_SUCCESS);
    CHECKF(pair[0] == val(rank, 7) && pair[1] == val(rank, 8), "scatter from vector root %d: %d %d",
           root, pair[0], pair[1]);
    MPI_Type_free(&vec);
    free(wide);
    free(send), free(recv);
}

static void scatter(int root)
{
    int n = 4, *send = malloc(size * n * sizeof(int)), *recv = malloc(n * sizeof(int));
    for (int i = 0; i < size * n; i++)
        send[i] = rank == root ? val(i / n, i % n) : -5;
    for (int i = 0; i < n; i++)
        recv[i] = -1;
    CHECK(MPI_Scatter(send, n, MPI_INT, recv, n, MPI_INT, root, MPI_COMM_WORLD) == MPI_SUCCESS);
    for (int i = 0; i < n; i++)
        CHECKF(recv[i] == val(rank, i), "scatter root %d: [%d]=%d", root, i, recv[i]);
    /* In place at the root: its own block stays in the send buffer. */
    for (int i = 0; i < n; i++)
        recv[i] = -1;
    CHECK(MPI_Scatter(send, n, MPI_INT, rank == root ? MPI_IN_PLACE : recv, n, MPI_INT, root,
                      MPI_COMM_WORLD) == MPI_SUCCESS);
    for (int i = 0; i < n; i++)
        CHECK(rank == root ? recv[i] == -1 && send[root * n + i] == val(root, i)
                           : recv[i] == val(rank, i));
    free(send), free(recv);
}

/* Rank r gets/gives r % 3 + 1 ints (0 for rank 1), placed in reverse rank order with gaps. */
static void gatherv_scatterv(int root)
{
    int *counts = malloc(size * sizeof(int)), *displs = malloc(size * sizeof(int)), total = 0;
    for (int r = size - 1; r >= 0; r--) {
        counts[r] = r == 1 ? 0 : r % 3 + 1;
        displs[r] = total + 1;        /* one int of gap before each block */
        total += counts[r] + 1;
    }
    int mine = counts[rank], send[4], *recv = malloc((total + 1) * sizeof(int));
    for (int i = 0; i < mine; i++)
        send[i] = val(rank, i);
    for (int i = 0; i <= total; i++)
        recv[i] = -1;
    CHECK(MPI_Gatherv(send, mine, MPI_INT, recv, counts, displs, MPI_INT, root,
                      MPI_COMM_WORLD) == MPI_SUCCESS);
    if (rank == root) {
        for (int r = 0; r < size; r++) {
            for (int i = 0; i < counts[r]; i++)
                CHECKF(recv[displs[r] + i] == val(r, i), "gatherv root %d: rank %d [%d]=%d",
                       root, r, i, recv[displs[r] + i]);
            CHECK(recv[displs[r] - 1] == -1);
        }
    }
    /* In place at the root. */
    for (int i = 0; i <= total; i++)
        recv[i] = -1;
    if (rank == root)
        for (int i = 0; i < mine; i++)
            recv[displs[root] + i] = val(root, i);
    CHECK(MPI_Gatherv(rank == root ? MPI_IN_PLACE : send, mine, MPI_INT, recv, counts, displs,
                      MPI_INT, root, MPI_COMM_WORLD) == MPI_SUCCESS);
    if (rank == root)
        for (int r = 0; r < size; r++)
            for (int i = 0; i < counts[r]; i++)
                CHECKF(recv[displs[r] + i] == val(r, i), "gatherv in place root %d", root);
    /* Scatterv the same layout back, with new values. */
    if (rank == root)
        for (int r = 0; r < size; r++)
            for (int i = 0; i < counts[r]; i++)
                recv[displs[r] + i] = val(r, i + 50);
    int got[4] = {-1, -1, -1, -1};
    CHECK(MPI_Scatterv(recv, counts, displs, MPI_INT, got, mine, MPI_INT, root,
                       MPI_COMM_WORLD) == MPI_SUCCESS);
    for (int i = 0; i < mine; i++)
        CHECKF(got[i] == val(rank, i + 50), "scatterv root %d: [%d]=%d", root, i, got[i]);
    CHECK(mine == 4 || got[mine] == -1);
    /* Non-roots may pass NULL arrays. */
    CHECK(MPI_Scatterv(recv, rank == root ? counts : NULL, rank == root ? displs : NULL, MPI_INT,
                       rank == root ? MPI_IN_PLACE : got, mine, MPI_INT, root,
                       MPI_COMM_WORLD) == MPI_SUCCESS);
    /* The large-count forms. */
    MPI_Count *ccounts = malloc(size * sizeof *ccounts);
    MPI_Aint *cdispls = malloc(size * sizeof *cdispls);
    for (int r = 0; r < size; r++)
        ccounts[r] = counts[r], cdispls[r] = displs[r];
    for (int i = 0; i <= total; i++)
        recv[i] = -1;
    CHECK(MPI_Gatherv_c(send, mine, MPI_INT, recv, ccounts, cdispls, MPI_INT, root,
                        MPI_COMM_WORLD) == MPI_SUCCESS);
    if (rank == root)
        for (int r = 0; r < size; r++)
            for (int i = 0; i < counts[r]; i++)
                CHECKF(recv[displs[r] + i] == val(r, i), "gatherv_c root %d", root);
    got[0] = -1;
    CHECK(MPI_Scatterv_c(recv, ccounts, cdispls, MPI_INT, got, mine, MPI_INT, root,
                         MPI_COMM_WORLD) == MPI_SUCCESS);
    CHECK(mine == 0 || got[0] == val(rank, 0));
    free(ccounts), free(cdispls);
    free(counts), free(displs), free(recv);
}

static void large_count(void)
{
    double x = rank * 0.5, *all = malloc(size * sizeof *all), y = -1;
    CHECK(MPI_Gather_c(&x, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, size - 1, MPI_COMM_WORLD) ==
          MPI_SUCCESS);
    if (rank == size - 1)
        for (int r = 0; r < size; r++)
            CHECK(all[r] == r * 0.5);
    CHECK(MPI_Scatter_c(all, 1, MPI_DOUBLE, &y, 1, MPI_DOUBLE, size - 1, MPI_COMM_WORLD) ==
          MPI_SUCCESS);
    CHECK(y == rank * 0.5);
    free(all);
}

/* A big gather: 1 MiB from each process. */
static void big(void)
{
    int n = 1 << 18, *send = malloc(n * sizeof(int)), *recv = NULL;
    for (int i = 0; i < n; i++)
        send[i] = rank ^ i;
    if (rank == 0)
        recv = malloc((size_t)n * size * sizeof(int));
    CHECK(MPI_Gather(send, n, MPI_INT, recv, n, MPI_INT, 0, MPI_COMM_WORLD) == MPI_SUCCESS);
    if (rank == 0) {
        int bad = 0;
        for (int r = 0; r < size; r++)
            for (int i = 0; i < n; i++)
                bad += recv[(size_t)r * n + i] != (r ^ i);
        CHECKF(!bad, "big gather: %d wrong", bad);
        for (int r = 0; r < size; r++)
            for (int i = 0; i < n; i++)
                recv[(size_t)r * n + i] = r + i;
    }
    CHECK(MPI_Scatter(recv, n, MPI_INT, send, n, MPI_INT, 0, MPI_COMM_WORLD) == MPI_SUCCESS);
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += send[i] != rank + i;
    CHECKF(!bad, "big scatter: %d wrong", bad);
    free(send), free(recv);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int root = 0; root < size; root++) {
        gather(root);
        scatter(root);
        gatherv_scatterv(root);
    }
    large_count();
    big();
    /* Zero counts. */
    CHECK(MPI_Gather(NULL, 0, MPI_INT, NULL, 0, MPI_INT, 0, MPI_COMM_WORLD) == MPI_SUCCESS);
    CHECK(MPI_Scatter(NULL, 0, MPI_INT, NULL, 0, MPI_INT, 0, MPI_COMM_WORLD) == MPI_SUCCESS);
    MPI_Finalize();
    return CHECK_RESULT();
}
