/* Known bytes of the collectives, one-sided and I/O calls that counts.c does not make, for
 * test_colls.sh (check.py colls computes the same numbers). Any number of ranks >= 2.
 * MPI-4 calls (persistent collectives) only where the header has them. */
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
    double *a = calloc(1024, sizeof(double)), *b = calloc(1024, sizeof(double));
    int *c = calloc(256, sizeof(int)), *d = calloc(256, sizeof(int));
    int *cnt = malloc(sizeof(int) * (size_t)n), *dsp = malloc(sizeof(int) * (size_t)n);
    int *one = malloc(sizeof(int) * (size_t)n), *two = malloc(sizeof(int) * (size_t)n);
    int *seq = malloc(sizeof(int) * (size_t)n), *bd = malloc(sizeof(int) * (size_t)n);
    MPI_Datatype *sh = malloc(sizeof(MPI_Datatype) * (size_t)n);
    for (int i = 0, t = 0; i < n; i++) {
        cnt[i] = i + 1;
        dsp[i] = t;
        t += i + 1;
        one[i] = 1;
        two[i] = 2;
        seq[i] = i;
        bd[i] = 8 * i;
        sh[i] = MPI_SHORT;
    }
    MPI_Request rq;

    CHECK(MPI_Scatter(c, 2, MPI_INT, d, 2, MPI_INT, 0, MPI_COMM_WORLD));
    CHECK(MPI_Gatherv(c, rank + 1, MPI_INT, d, cnt, dsp, MPI_INT, 1, MPI_COMM_WORLD));
    CHECK(MPI_Scatterv(a, cnt, dsp, MPI_DOUBLE, b, rank + 1, MPI_DOUBLE, 0, MPI_COMM_WORLD));
    CHECK(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, d, 3, MPI_INT, MPI_COMM_WORLD));
    CHECK(MPI_Alltoallv(c, one, seq, MPI_INT, d, one, seq, MPI_INT, MPI_COMM_WORLD));
    CHECK(MPI_Alltoallw(c, two, bd, sh, d, two, bd, sh, MPI_COMM_WORLD));
    CHECK(MPI_Reduce_scatter(c, d, cnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(MPI_Reduce_scatter_block(a, b, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
    CHECK(MPI_Scan(c, d, 5, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CHECK(MPI_Exscan(c, d, 5, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    /* nonblocking collectives move what the blocking ones do */
    CHECK(MPI_Ibcast(a, 4, MPI_DOUBLE, 0, MPI_COMM_WORLD, &rq));
    CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    CHECK(MPI_Iallreduce(a, b, 3, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &rq));
    CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    /* neighbours of a periodic ring: two each way */
    MPI_Comm ring;
    int dims[1] = {n}, periods[1] = {1};
    CHECK(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring));
    CHECK(MPI_Neighbor_allgather(c, 1, MPI_INT, d, 1, MPI_INT, ring));
    CHECK(MPI_Neighbor_alltoallv(c, two, bd, MPI_INT, d, two, bd, MPI_INT, ring));
    CHECK(MPI_Comm_free(&ring));
    /* point-to-point both ways in one call */
    CHECK(MPI_Sendrecv(c, 1, MPI_INT, next, 5, d, 1, MPI_INT, prev, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    /* one-sided (where the MPI can make a window here: not Open MPI without its RMA
     * components) */
    MPI_Win win;
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    int have_win = MPI_Win_create(d, 256 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win) == MPI_SUCCESS;
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
    if (have_win) {
        CHECK(MPI_Win_fence(0, win));
        CHECK(MPI_Put(c, 3, MPI_INT, next, 0, 3, MPI_INT, win));
        CHECK(MPI_Put(c, 3, MPI_INT, MPI_PROC_NULL, 0, 3, MPI_INT, win));
        CHECK(MPI_Win_fence(0, win));
        CHECK(MPI_Get(c + 8, 2, MPI_INT, next, 8, 2, MPI_INT, win));
        CHECK(MPI_Win_fence(0, win));
        CHECK(MPI_Compare_and_swap(c, c + 1, c + 2, MPI_INT, next, 16, win));
        CHECK(MPI_Win_fence(0, win));
        CHECK(MPI_Win_free(&win));
    }
#if MPI_VERSION >= 4
    /* a persistent collective: each start moves what the collective does */
    CHECK(MPI_Bcast_init(c, 2, MPI_INT, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &rq));
    for (int i = 0; i < 2; i++) {
        CHECK(MPI_Start(&rq));
        CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    }
    CHECK(MPI_Request_free(&rq));
#endif
    free(a), free(b), free(c), free(d), free(cnt), free(dsp), free(one), free(two), free(seq);
    free(bd), free(sh);
    CHECK(MPI_Finalize());
    return 0;
}
