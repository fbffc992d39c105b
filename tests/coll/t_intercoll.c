/* np: 3 4 5 */
/* Collectives on an intercommunicator between the two halves of MPI_COMM_WORLD (uneven for odd
 * sizes), each half in turn the root's: MPI_Barrier, MPI_Bcast, MPI_Reduce, MPI_Allreduce,
 * MPI_Gather(v), MPI_Scatter(v), MPI_Allgather(v), MPI_Alltoall(v,w), MPI_Reduce_scatter and
 * _block, with MPI_ROOT at the root, MPI_PROC_NULL at its group's others (whose buffers stay
 * untouched) and exact values; Scan/Exscan and MPI_IN_PLACE refused. All of it in the three
 * forms: blocking, nonblocking (MPI_Ibcast ... then MPI_Wait) and persistent (MPI_Bcast_init
 * ..., started and completed twice); then nonblocking ones outstanding together, with
 * point-to-point among them, completed in another order than started. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"

static int rank, size, color, lrank, lsize, rsize;
static MPI_Comm inter;

/* The form the collectives below run in: 0 blocking, 1 nonblocking, 2 persistent. */
static int form;

/* Complete the request of a nonblocking call, or start and complete a persistent one twice. */
static int complete(int rc, MPI_Request *req)
{
    if (rc != MPI_SUCCESS)
        return rc;
    for (int i = 0; i < (form == 2 ? 2 : 1) && rc == MPI_SUCCESS; i++) {
        if (form == 2)
            rc = MPI_Start(req);
        if (rc == MPI_SUCCESS)
            rc = MPI_Wait(req, MPI_STATUS_IGNORE);
    }
    if (form == 2 && MPI_Request_free(req) != MPI_SUCCESS)
        rc = MPI_ERR_OTHER;
    return rc;
}

#define FORMS(blocking, nonblocking, persistent) \
    MPI_Request r_; \
    return form == 0 ? (blocking) : complete(form == 1 ? (nonblocking) : (persistent), &r_)
#define I MPI_INFO_NULL

static int Barrier(MPI_Comm c)
{
    FORMS(MPI_Barrier(c), MPI_Ibarrier(c, &r_), MPI_Barrier_init(c, I, &r_));
}

static int Bcast(void *b, int n, MPI_Datatype t, int root, MPI_Comm c)
{
    FORMS(MPI_Bcast(b, n, t, root, c), MPI_Ibcast(b, n, t, root, c, &r_),
          MPI_Bcast_init(b, n, t, root, c, I, &r_));
}

static int Reduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm c)
{
    FORMS(MPI_Reduce(s, r, n, t, op, root, c), MPI_Ireduce(s, r, n, t, op, root, c, &r_),
          MPI_Reduce_init(s, r, n, t, op, root, c, I, &r_));
}

static int Allreduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
    FORMS(MPI_Allreduce(s, r, n, t, op, c), MPI_Iallreduce(s, r, n, t, op, c, &r_),
          MPI_Allreduce_init(s, r, n, t, op, c, I, &r_));
}

static int Gather(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt,
                  int root, MPI_Comm c)
{
    FORMS(MPI_Gather(s, sn, st, r, rn, rt, root, c),
          MPI_Igather(s, sn, st, r, rn, rt, root, c, &r_),
          MPI_Gather_init(s, sn, st, r, rn, rt, root, c, I, &r_));
}

static int Gatherv(const void *s, int sn, MPI_Datatype st, void *r, const int *rn,
                   const int *d, MPI_Datatype rt, int root, MPI_Comm c)
{
    FORMS(MPI_Gatherv(s, sn, st, r, rn, d, rt, root, c),
          MPI_Igatherv(s, sn, st, r, rn, d, rt, root, c, &r_),
          MPI_Gatherv_init(s, sn, st, r, rn, d, rt, root, c, I, &r_));
}

static int Scatter(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt,
                   int root, MPI_Comm c)
{
    FORMS(MPI_Scatter(s, sn, st, r, rn, rt, root, c),
          MPI_Iscatter(s, sn, st, r, rn, rt, root, c, &r_),
          MPI_Scatter_init(s, sn, st, r, rn, rt, root, c, I, &r_));
}

static int Scatterv(const void *s, const int *sn, const int *d, MPI_Datatype st, void *r, int rn,
                    MPI_Datatype rt, int root, MPI_Comm c)
{
    FORMS(MPI_Scatterv(s, sn, d, st, r, rn, rt, root, c),
          MPI_Iscatterv(s, sn, d, st, r, rn, rt, root, c, &r_),
          MPI_Scatterv_init(s, sn, d, st, r, rn, rt, root, c, I, &r_));
}

static int Allgather(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt,
                     MPI_Comm c)
{
    FORMS(MPI_Allgather(s, sn, st, r, rn, rt, c), MPI_Iallgather(s, sn, st, r, rn, rt, c, &r_),
          MPI_Allgather_init(s, sn, st, r, rn, rt, c, I, &r_));
}

static int Allgatherv(const void *s, int sn, MPI_Datatype st, void *r, const int *rn,
                      const int *d, MPI_Datatype rt, MPI_Comm c)
{
    FORMS(MPI_Allgatherv(s, sn, st, r, rn, d, rt, c),
          MPI_Iallgatherv(s, sn, st, r, rn, d, rt, c, &r_),
          MPI_Allgatherv_init(s, sn, st, r, rn, d, rt, c, I, &r_));
}

static int Alltoall(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt,
                    MPI_Comm c)
{
    FORMS(MPI_Alltoall(s, sn, st, r, rn, rt, c), MPI_Ialltoall(s, sn, st, r, rn, rt, c, &r_),
          MPI_Alltoall_init(s, sn, st, r, rn, rt, c, I, &r_));
}

static int Alltoallv(const void *s, const int *sn, const int *sd, MPI_Datatype st, void *r,
                     const int *rn, const int *rd, MPI_Datatype rt, MPI_Comm c)
{
    FORMS(MPI_Alltoallv(s, sn, sd, st, r, rn, rd, rt, c),
          MPI_Ialltoallv(s, sn, sd, st, r, rn, rd, rt, c, &r_),
          MPI_Alltoallv_init(s, sn, sd, st, r, rn, rd, rt, c, I, &r_));
}

static int Alltoallw(const void *s, const int *sn, const int *sd, const MPI_Datatype *st,
                     void *r, const int *rn, const int *rd, const MPI_Datatype *rt, MPI_Comm c)
{
    FORMS(MPI_Alltoallw(s, sn, sd, st, r, rn, rd, rt, c),
          MPI_Ialltoallw(s, sn, sd, st, r, rn, rd, rt, c, &r_),
          MPI_Alltoallw_init(s, sn, sd, st, r, rn, rd, rt, c, I, &r_));
}

static int Reduce_scatter_block(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op,
                                MPI_Comm c)
{
    FORMS(MPI_Reduce_scatter_block(s, r, n, t, op, c),
          MPI_Ireduce_scatter_block(s, r, n, t, op, c, &r_),
          MPI_Reduce_scatter_block_init(s, r, n, t, op, c, I, &r_));
}

static int Reduce_scatter(const void *s, void *r, const int *n, MPI_Datatype t, MPI_Op op,
                          MPI_Comm c)
{
    FORMS(MPI_Reduce_scatter(s, r, n, t, op, c), MPI_Ireduce_scatter(s, r, n, t, op, c, &r_),
          MPI_Reduce_scatter_init(s, r, n, t, op, c, I, &r_));
}

static int Scan(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
    FORMS(MPI_Scan(s, r, n, t, op, c), MPI_Iscan(s, r, n, t, op, c, &r_),
          MPI_Scan_init(s, r, n, t, op, c, I, &r_));
}

static int Exscan(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c)
{
    FORMS(MPI_Exscan(s, r, n, t, op, c), MPI_Iexscan(s, r, n, t, op, c, &r_),
          MPI_Exscan_init(s, r, n, t, op, c, I, &r_));
}

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
    CHECK(Bcast(buf, n, MPI_INT, root_arg(h, root), inter) == MPI_SUCCESS);
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
    CHECK(Reduce(send, recv, n, MPI_INT, MPI_SUM, root_arg(h, root), inter) == MPI_SUCCESS);
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
    CHECK(Reduce(&x, &y, 1, MPI_INT, MPI_MIN, root_arg(h, root), inter) == MPI_SUCCESS);
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
    CHECK(Allreduce(send, recv, n, MPI_INT, MPI_SUM, inter) == MPI_SUCCESS);
    for (int i = 0; i < n; i++) {
        int want = 0;
        for (int r = 0; r < rsize; r++)
            want += val(1 - color, r, i);
        CHECKF(recv[i] == want, "allreduce [%d]=%d, want %d", i, recv[i], want);
    }
    int in_place = 0;
    CHECK(error_class(Allreduce(MPI_IN_PLACE, &in_place, 1, MPI_INT, MPI_SUM, inter)) ==
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
    CHECK(Gather(send, n, MPI_INT, recv, n, MPI_INT, root_arg(h, root), inter) ==
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
    CHECK(Gatherv(mine, lrank + 1, MPI_INT, recv, counts, displs, MPI_INT,
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
    CHECK(Scatter(send, n, MPI_INT, recv, n, MPI_INT, root_arg(h, root), inter) ==
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
    CHECK(Scatterv(send, counts, displs, MPI_INT, recv, lrank + 1, MPI_INT,
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
    CHECK(Allgather(send, n, MPI_INT, recv, n, MPI_INT, inter) == MPI_SUCCESS);
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
    CHECK(Allgatherv(send, lrank + 1, MPI_INT, recv, counts, displs, MPI_INT, inter) ==
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
    CHECK(Alltoall(send, n, MPI_INT, recv, n, MPI_INT, inter) == MPI_SUCCESS);
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
    CHECK(Alltoallv(sv, sc, sd, MPI_INT, rv, rc, rd, MPI_INT, inter) == MPI_SUCCESS);
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
    CHECK(Alltoallw(sv, sc, sd, types, rv, rc, rd, types, inter) == MPI_SUCCESS);
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
    CHECK(Reduce_scatter_block(send, recv, rsize, MPI_INT, MPI_SUM, inter) == MPI_SUCCESS);
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
    CHECK(Reduce_scatter(send, recv, counts, MPI_INT, MPI_SUM, inter) == MPI_SUCCESS);
    for (int i = 0; i < mine; i++) {
        int want = 0;
        for (int r = 0; r < rsize; r++)
            want += val(o, r, start + i);
        CHECKF(recv[i] == want, "reduce_scatter [%d]=%d, want %d", i, recv[i], want);
    }
    CHECK(recv[mine] == -1);
}

/* Nonblocking collectives outstanding together, with point-to-point on the intercommunicator
 * between them, completed in reverse order. */
static void overlap(void)
{
    int b = color == 0 && lrank == 0 ? 77 : -1, sum = -1, one = 1, g[8], p = -1, q = 1000 + lrank;
    MPI_Request req[6];
    int root = color == 0 ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    CHECK(MPI_Ibcast(&b, 1, MPI_INT, root, inter, &req[0]) == MPI_SUCCESS);
    CHECK(MPI_Iallreduce(&one, &sum, 1, MPI_INT, MPI_SUM, inter, &req[1]) == MPI_SUCCESS);
    CHECK(MPI_Ibarrier(inter, &req[2]) == MPI_SUCCESS);
    CHECK(MPI_Iallgather(&lrank, 1, MPI_INT, g, 1, MPI_INT, inter, &req[3]) == MPI_SUCCESS);
    /* Local rank 0 of each half sends to the other's rank 0. */
    req[4] = req[5] = MPI_REQUEST_NULL;
    if (lrank == 0) {
        CHECK(MPI_Irecv(&p, 1, MPI_INT, 0, 5, inter, &req[4]) == MPI_SUCCESS);
        CHECK(MPI_Isend(&q, 1, MPI_INT, 0, 5, inter, &req[5]) == MPI_SUCCESS);
    }
    for (int i = 5; i >= 0; i--)
        CHECK(MPI_Wait(&req[i], MPI_STATUS_IGNORE) == MPI_SUCCESS);
    CHECK(b == (color == 0 ? (lrank == 0 ? 77 : -1) : 77));
    CHECK(sum == rsize);
    for (int r = 0; r < rsize; r++)
        CHECK(g[r] == r);
    CHECK(lrank != 0 || p == 1000);
}

/* Every collective in the current form. */
static void every_collective(void)
{
    for (int h = 0; h < 2; h++) {
        int last = (h == 0 ? size / 2 : size - size / 2) - 1;
        CHECK(Barrier(inter) == MPI_SUCCESS);
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
    CHECK(error_class(Scan(&x, &y, 1, MPI_INT, MPI_SUM, inter)) == MPI_ERR_COMM);
    CHECK(error_class(Exscan(&x, &y, 1, MPI_INT, MPI_SUM, inter)) == MPI_ERR_COMM);
    CHECK(error_class(Bcast(&x, 1, MPI_INT, rsize, inter)) == MPI_ERR_ROOT);
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

    for (form = 0; form < 3; form++)
        every_collective();
    overlap();
    CHECK(MPI_Barrier(inter) == MPI_SUCCESS);
    CHECK(MPI_Comm_free(&inter) == MPI_SUCCESS);
    MPI_Finalize();
    return CHECK_RESULT();
}
