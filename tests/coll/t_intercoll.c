/* np: 4 5 */
/* Collectives on an intercommunicator between the two halves of MPI_COMM_WORLD (uneven for odd
 * sizes), each half in turn the root's: MPI_Barrier, MPI_Bcast, MPI_Reduce, MPI_Allreduce,
 * MPI_Gather(v), MPI_Scatter(v), MPI_Allgather(v), MPI_Alltoall(v,w), MPI_Reduce_scatter and
 * _block, with MPI_ROOT at the root, MPI_PROC_NULL at its group's others (whose buffers stay
 * untouched) and exact values; Scan/Exscan and MPI_IN_PLACE refused, and the nonblocking and
 * persistent forms refused (not implemented on intercommunicators yet) before anything is sent
 * or any argument sized by the communicator is read. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"

static int rank, size, color, lrank, lsize, rsize;
static MPI_Comm inter;

/* The value a process of half h with local rank r contributes at index i. */
static int val(int h, int r, int i) { return 10000 * h + 100 * r + i; }

static int error_class(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

/* The root argument of a rooted collective whose root is local rank `root` of half `h`. */
static int root_arg(int h, int root)
{
    if (h != color)
        return root;
    return lrank == root ? MPI_ROOT : MPI_PROC_NULL;
}

static void bcast(int h, int root)
{
    int n = 5, buf[5];
    for (int i = 0; i < n; i++)
        buf[i] = color == h && lrank == root ? val(h, root, i) : -1;
    CHECK(MPI_Bcast(buf, n, MPI_INT, root_arg(h, root), inter) == MPI_SUCCESS);
    for (int i = 0; i < n; i++) {
        int want = color != h || lrank == root ? val(h, root, i) : -1;
        CHECKF(buf[i] == want, "bcast from %d/%d: [%d]=%d", h, root, i, buf[i]);
    }
}

static void reduce(int h, int root)
{
    int n = 4, send[4], recv[4], o = 1 - h;
    for (int i = 0; i < n; i++)
        send[i] = val(color, lrank, i), recv[i] = -1;
    CHECK(MPI_Reduce(send, recv, n, MPI_INT, MPI_SUM, root_arg(h, root), inter) == MPI_SUCCESS);
    for (int i = 0; i < n; i++) {
        int want = -1;
        if (color == h && lrank == root) {      /* the sum over the other half */
            want = 0;
            for (int r = 0; r < rsize; r++)
                want += val(o, r, i);
        }
        CHECKF(recv[i] == want, "reduce to %d/%d: [%d]=%d, want %d", h, root, i, recv[i], want);
    }
    /* A non-commutative order check with MPI_MAX is moot; MPI_MIN on negatives instead. */
    int x = -val(color, lrank, 0), y = 1;
    CHECK(MPI_Reduce(&x, &y, 1, MPI_INT, MPI_MIN, root_arg(h, root), inter) == MPI_SUCCESS);
    if (color == h && lrank == root)
        CHECK(y == -val(o, rsize - 1, 0));
    else
        CHECK(y == 1);
}

static void allreduce(void)
{
    int n = 3, send[3], recv[3];
    for (int i = 0; i < n; i++)
        send[i] = val(color, lrank, i), recv[i] = -1;
    CHECK(MPI_Allreduce(send, recv, n, MPI_INT, MPI_SUM, inter) == MPI_SUCCESS);
    for (int i = 0; i < n; i++) {
        int want = 0;
        for (int r = 0; r < rsize; r++)
            want += val(1 - color, r, i);
        CHECKF(recv[i] == want, "allreduce [%d]=%d, want %d", i, recv[i], want);
    }
    int in_place = 0;
    CHECK(error_class(MPI_Allreduce(MPI_IN_PLACE, &in_place, 1, MPI_INT, MPI_SUM, inter)) ==
          MPI_ERR_BUFFER);
}

static void gather(int h, int root)
{
    int n = 2, send[2], *recv = malloc(2 * 8 * sizeof *recv);
    for (int i = 0; i < n; i++)
        send[i] = val(color, lrank, i);
    for (int i = 0; i < 16; i++)
        recv[i] = -1;
    int at_root = color == h && lrank == root;
    CHECK(MPI_Gather(send, n, MPI_INT, recv, n, MPI_INT, root_arg(h, root), inter) ==
          MPI_SUCCESS);
    for (int r = 0; r < rsize; r++)
        for (int i = 0; i < n; i++)
            CHECKF(recv[r * n + i] == (at_root ? val(1 - h, r, i) : -1), "gather [%d][%d]=%d",
                   r, i, recv[r * n + i]);
    /* Gatherv: remote rank r sends r + 1 ints, placed with a gap of one. */
    int counts[8], displs[8], k = 0;
    for (int r = 0; r < rsize; r++)
        counts[r] = r + 1, displs[r] = k, k += r + 2;
    for (int i = 0; i < 16; i++)
        recv[i] = -1;
    int mine[8];
    for (int i = 0; i < lrank + 1; i++)
        mine[i] = val(color, lrank, i);
    CHECK(MPI_Gatherv(mine, lrank + 1, MPI_INT, recv, counts, displs, MPI_INT,
                      root_arg(h, root), inter) == MPI_SUCCESS);
    for (int r = 0; r < rsize; r++) {
        for (int i = 0; i < counts[r]; i++)
            CHECKF(recv[displs[r] + i] == (at_root ? val(1 - h, r, i) : -1),
                   "gatherv [%d][%d]=%d", r, i, recv[displs[r] + i]);
        CHECK(recv[displs[r] + counts[r]] == -1);
    }
    free(recv);
}

static void scatter(int h, int root)
{
    int n = 3, send[3 * 8], recv[8];
    int at_root = color == h && lrank == root, in_root_half = color == h;
    for (int r = 0; r < 8; r++)
        for (int i = 0; i < n; i++)
            send[r * n + i] = at_root ? val(h, r, i) : -2;
    for (int i = 0; i < 8; i++)
        recv[i] = -1;
    CHECK(MPI_Scatter(send, n, MPI_INT, recv, n, MPI_INT, root_arg(h, root), inter) ==
          MPI_SUCCESS);
    for (int i = 0; i < n; i++)
        CHECKF(recv[i] == (in_root_half ? -1 : val(h, lrank, i)), "scatter [%d]=%d", i,
               recv[i]);
    /* Scatterv: remote rank r gets r + 1 ints, from back to front. */
    int counts[8], displs[8], k = 3 * 8;
    for (int r = 0; r < rsize; r++)
        counts[r] = r + 1, k -= r + 1, displs[r] = k;
    for (int i = 0; i < 3 * 8; i++)
        send[i] = at_root ? 1000 + i : -2;
    for (int i = 0; i < 8; i++)
        recv[i] = -1;
    CHECK(MPI_Scatterv(send, counts, displs, MPI_INT, recv, lrank + 1, MPI_INT,
                       root_arg(h, root), inter) == MPI_SUCCESS);
    if (!in_root_half) {
        int d = 3 * 8;
        for (int r = 0; r <= lrank; r++)
            d -= r + 1;
        for (int i = 0; i <= lrank; i++)
            CHECKF(recv[i] == 1000 + d + i, "scatterv [%d]=%d", i, recv[i]);
    }
    CHECK(recv[lrank + 1] == -1);
    if (in_root_half)
        CHECK(recv[0] == -1);
}

static void allgather(void)
{
    int n = 2, send[8], recv[64];
    for (int i = 0; i < 8; i++)
        send[i] = val(color, lrank, i);
    for (int i = 0; i < 64; i++)
        recv[i] = -1;
    CHECK(MPI_Allgather(send, n, MPI_INT, recv, n, MPI_INT, inter) == MPI_SUCCESS);
    for (int r = 0; r < rsize; r++)
        for (int i = 0; i < n; i++)
            CHECKF(recv[r * n + i] == val(1 - color, r, i), "allgather [%d][%d]=%d", r, i,
                   recv[r * n + i]);
    CHECK(recv[rsize * n] == -1);
    /* Allgatherv: remote rank r sends r + 1 ints, in reverse block order. */
    int counts[8], displs[8], k = 40;
    for (int r = 0; r < rsize; r++)
        counts[r] = r + 1, k -= r + 1, displs[r] = k;
    for (int i = 0; i < 64; i++)
        recv[i] = -1;
    CHECK(MPI_Allgatherv(send, lrank + 1, MPI_INT, recv, counts, displs, MPI_INT, inter) ==
          MPI_SUCCESS);
    for (int r = 0; r < rsize; r++)
        for (int i = 0; i < counts[r]; i++)
            CHECKF(recv[displs[r] + i] == val(1 - color, r, i), "allgatherv [%d][%d]=%d", r, i,
                   recv[displs[r] + i]);
    CHECK(recv[k - 1] == -1 && recv[40] == -1);
}

/* How many ints local rank a of one half sends to rank b of the other. */
static int v_count(int a, int b) { return (a + 2 * b) % 3 + 1; }

static void alltoall(void)
{
    int n = 2, send[16], recv[16];
    for (int j = 0; j < rsize; j++)
        for (int i = 0; i < n; i++)
            send[j * n + i] = val(color, lrank, 10 * j + i);
    for (int i = 0; i < 16; i++)
        recv[i] = -1;
    CHECK(MPI_Alltoall(send, n, MPI_INT, recv, n, MPI_INT, inter) == MPI_SUCCESS);
    for (int j = 0; j < rsize; j++)
        for (int i = 0; i < n; i++)
            CHECKF(recv[j * n + i] == val(1 - color, j, 10 * lrank + i), "alltoall [%d][%d]=%d",
                   j, i, recv[j * n + i]);
    CHECK(recv[rsize * n] == -1);

    /* Alltoallv with counts depending on both ends, and alltoallw with byte displacements. */
    int sc[8], sd[8], rc[8], rd[8], s = 0, r = 0;
    int sv[64], rv[64];
    for (int j = 0; j < rsize; j++) {
        sc[j] = v_count(lrank, j), sd[j] = s, s += sc[j];
        rc[j] = v_count(j, lrank), rd[j] = r, r += rc[j] + 1;
        for (int i = 0; i < sc[j]; i++)
            sv[sd[j] + i] = val(color, lrank, 10 * j + i);
    }
    for (int i = 0; i < 64; i++)
        rv[i] = -1;
    CHECK(MPI_Alltoallv(sv, sc, sd, MPI_INT, rv, rc, rd, MPI_INT, inter) == MPI_SUCCESS);
    for (int j = 0; j < rsize; j++) {
        for (int i = 0; i < rc[j]; i++)
            CHECKF(rv[rd[j] + i] == val(1 - color, j, 10 * lrank + i), "alltoallv [%d][%d]=%d",
                   j, i, rv[rd[j] + i]);
        CHECK(rv[rd[j] + rc[j]] == -1);
    }
    MPI_Datatype types[8];
    for (int j = 0; j < rsize; j++) {
        types[j] = MPI_INT;
        sd[j] *= (int)sizeof(int);
        rd[j] *= (int)sizeof(int);
    }
    for (int i = 0; i < 64; i++)
        rv[i] = -1;
    CHECK(MPI_Alltoallw(sv, sc, sd, types, rv, rc, rd, types, inter) == MPI_SUCCESS);
    for (int j = 0; j < rsize; j++)
        for (int i = 0; i < rc[j]; i++)
            CHECKF(rv[rd[j] / (int)sizeof(int) + i] == val(1 - color, j, 10 * lrank + i),
                   "alltoallw [%d][%d]", j, i);
}

/* Each half's vector of lsize * rsize elements, reduced over the half, is scattered over the
 * other half in blocks of (block form) equal counts or (v form) counts that vary. */
static void reduce_scatter(void)
{
    int total = lsize * rsize, send[64], recv[64], counts[8], o = 1 - color;
    for (int i = 0; i < total; i++)
        send[i] = val(color, lrank, i);
    for (int i = 0; i < 64; i++)
        recv[i] = -1;
    CHECK(MPI_Reduce_scatter_block(send, recv, rsize, MPI_INT, MPI_SUM, inter) == MPI_SUCCESS);
    for (int i = 0; i < rsize; i++) {
        int want = 0, k = lrank * rsize + i;
        for (int r = 0; r < rsize; r++)
            want += val(o, r, k);
        CHECKF(recv[i] == want, "reduce_scatter_block [%d]=%d, want %d", i, recv[i], want);
    }
    CHECK(recv[rsize] == -1);
    /* Rank 0 gets one element more than its share, the last rank one fewer. */
    int start = 0, mine = 0;
    for (int r = 0; r < lsize; r++) {
        counts[r] = rsize + (lsize > 1 && r == 0) - (lsize > 1 && r == lsize - 1);
        if (r < lrank)
            start += counts[r];
    }
    mine = counts[lrank];
    for (int i = 0; i < 64; i++)
        recv[i] = -1;
    CHECK(MPI_Reduce_scatter(send, recv, counts, MPI_INT, MPI_SUM, inter) == MPI_SUCCESS);
    for (int i = 0; i < mine; i++) {
        int want = 0;
        for (int r = 0; r < rsize; r++)
            want += val(o, r, start + i);
        CHECKF(recv[i] == want, "reduce_scatter [%d]=%d, want %d", i, recv[i], want);
    }
    CHECK(recv[mine] == -1);
}

static void unsupported_forms(void)
{
    enum { U = MPI_ERR_UNSUPPORTED_OPERATION };
    int x[16] = {0}, y[16], counts[16] = {0}, displs[16] = {0};
    MPI_Datatype types[16];
    for (int i = 0; i < 16; i++)
        types[i] = MPI_INT;
    MPI_Request req = MPI_REQUEST_NULL;
    CHECK(error_class(MPI_Ibarrier(inter, &req)) == U);
    CHECK(error_class(MPI_Ibcast(x, 1, MPI_INT, MPI_PROC_NULL, inter, &req)) == U);
    CHECK(error_class(MPI_Ireduce(x, y, 1, MPI_INT, MPI_SUM, MPI_PROC_NULL, inter, &req)) == U);
    CHECK(error_class(MPI_Iallreduce(x, y, 1, MPI_INT, MPI_SUM, inter, &req)) == U);
    CHECK(error_class(MPI_Igatherv(x, 1, MPI_INT, y, counts, displs, MPI_INT, MPI_PROC_NULL,
                                   inter, &req)) == U);
    CHECK(error_class(MPI_Iallgather(x, 1, MPI_INT, y, 1, MPI_INT, inter, &req)) == U);
    CHECK(error_class(MPI_Ialltoallw(x, counts, displs, types, y, counts, displs, types, inter,
                                     &req)) == U);
    CHECK(error_class(MPI_Ireduce_scatter(x, y, counts, MPI_INT, MPI_SUM, inter, &req)) == U);
    CHECK(error_class(MPI_Ireduce_scatter_block(x, y, 1, MPI_INT, MPI_SUM, inter, &req)) == U);
    CHECK(error_class(MPI_Iscan(x, y, 1, MPI_INT, MPI_SUM, inter, &req)) == U);
    CHECK(error_class(MPI_Barrier_init(inter, MPI_INFO_NULL, &req)) == U);
    CHECK(error_class(MPI_Bcast_init(x, 1, MPI_INT, MPI_PROC_NULL, inter, MPI_INFO_NULL, &req)) ==
          U);
    CHECK(error_class(MPI_Allreduce_init(x, y, 1, MPI_INT, MPI_SUM, inter, MPI_INFO_NULL,
                                         &req)) == U);
    CHECK(error_class(MPI_Allgatherv_init(x, 1, MPI_INT, y, counts, displs, MPI_INT, inter,
                                          MPI_INFO_NULL, &req)) == U);
    CHECK(error_class(MPI_Alltoallv_init(x, counts, displs, MPI_INT, y, counts, displs, MPI_INT,
                                         inter, MPI_INFO_NULL, &req)) == U);
    CHECK(error_class(MPI_Reduce_scatter_block_init(x, y, 1, MPI_INT, MPI_SUM, inter,
                                                    MPI_INFO_NULL, &req)) == U);
    CHECK(error_class(MPI_Exscan_init(x, y, 1, MPI_INT, MPI_SUM, inter, MPI_INFO_NULL, &req)) ==
          U);
    CHECK(req == MPI_REQUEST_NULL);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* Half 0: world ranks 0..size/2-1; half 1: the rest (local order = world order). */
    MPI_Comm local;
    color = rank < size / 2 ? 0 : 1;
    MPI_Comm_split(MPI_COMM_WORLD, color, rank, &local);
    CHECK(MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, color ? 0 : size / 2, 9, &inter) ==
          MPI_SUCCESS);
    MPI_Comm_free(&local);
    MPI_Comm_rank(inter, &lrank);
    MPI_Comm_size(inter, &lsize);
    MPI_Comm_remote_size(inter, &rsize);

    for (int h = 0; h < 2; h++) {
        int last = (h == 0 ? size / 2 : size - size / 2) - 1;
        CHECK(MPI_Barrier(inter) == MPI_SUCCESS);
        for (int root = 0; root <= last; root += last ? last : 1) {
            bcast(h, root);
            reduce(h, root);
            gather(h, root);
            scatter(h, root);
        }
    }
    allreduce();
    allgather();
    alltoall();
    reduce_scatter();

    int x = 1, y = 0;
    CHECK(error_class(MPI_Scan(&x, &y, 1, MPI_INT, MPI_SUM, inter)) == MPI_ERR_COMM);
    CHECK(error_class(MPI_Exscan(&x, &y, 1, MPI_INT, MPI_SUM, inter)) == MPI_ERR_COMM);
    CHECK(error_class(MPI_Bcast(&x, 1, MPI_INT, rsize, inter)) == MPI_ERR_ROOT);
    unsupported_forms();
    CHECK(MPI_Barrier(inter) == MPI_SUCCESS);
    CHECK(MPI_Comm_free(&inter) == MPI_SUCCESS);
    MPI_Finalize();
    return CHECK_RESULT();
}
