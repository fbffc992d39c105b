/* One collective (argv[1]) in its blocking, nonblocking and persistent forms, on every count
 * from 0 to 3 per process and every root, against the result computed here. Reductions that
 * allow it use a non-commutative operation (affine maps composed in rank order), so an
 * algorithm that mixes the order fails; the v and w forms give each block its own count and
 * leave a gap between blocks. test_algorithms.sh runs it once per algorithm of
 * src/coll/algorithms.tsv, forced with MICA_<COLLECTIVE>_ALGORITHM. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"

#define MAX 64                        /* elements a block, at most */
#define LEN (MAX * 32)                /* elements a buffer */
static int rank, size;
static MPI_Op compose_op;
static MPI_Datatype affine;
static const char *name;
static int v;                         /* a v or w form */

/* inout = in "then" inout for affine maps x -> a x + b (mod 2^32). */
static void compose(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    unsigned *f = in, *g = inout;
    for (int i = 0; i < *len; i++, f += 2, g += 2) {
        unsigned a = g[0] * f[0], b = g[0] * f[1] + g[1];
        g[0] = a, g[1] = b;
    }
}

/* Process p's map for element i, and the composition of those of processes 0 .. upto. */
static void map_of(int p, int i, unsigned f[2])
{
    f[0] = 2 * (unsigned)p + 3, f[1] = (unsigned)(p * 7 + i);
}

static void composed(int upto, int i, unsigned want[2])
{
    want[0] = 1, want[1] = 0;
    for (int p = 0; p <= upto; p++) {
        unsigned f[2];
        int one = 1;
        map_of(p, i, f);
        compose(want, f, &one, NULL);
        memcpy(want, f, sizeof f);
    }
}

static int is(const char *what)
{
    return !strcmp(name, what);
}

/* --- the data movers: element i of what p sends to q is value(p, q, i) ------------------------ */

static int sbuf[LEN], rbuf[LEN];
static int scounts[32], sdispls[32], rcounts[32], rdispls[32];
static MPI_Aint sbytes[32], rbytes[32];
static MPI_Datatype types[32];

/* How many elements p sends to q. */
static int count(int p, int q, int n)
{
    if (!v)
        return n;
    if (is("scatterv"))
        return n + q % 3;
    if (is("alltoallv") || is("alltoallw"))
        return n + (p + q) % 3;
    return n + p % 3;                 /* gatherv, allgatherv */
}

/* Gather and allgather send the same to everyone: value(p, 0, i). */
static int value(int p, int q, int i)
{
    int same = !strncmp(name, "gather", 6) || !strncmp(name, "allgather", 9);
    return 100000 * p + 1000 * (same ? 0 : q) + i;
}

/* Blocks one after the other, a gap of one element between them in the v and w forms. */
static void layout(int *counts, int *displs, MPI_Aint *bytes, int from_me, int n)
{
    int at = 0;
    for (int j = 0; j < size; j++) {
        counts[j] = from_me ? count(rank, j, n) : count(j, rank, n);
        displs[j] = at;
        bytes[j] = (MPI_Aint)at * (MPI_Aint)sizeof(int);
        at += counts[j] + v;
    }
}

static void prepare_mover(int n, int root)
{
    layout(scounts, sdispls, sbytes, 1, n);
    layout(rcounts, rdispls, rbytes, 0, n);
    for (int j = 0; j < size; j++) {
        types[j] = MPI_INT;
        for (int i = 0; i < scounts[j]; i++)
            sbuf[sdispls[j] + i] = value(rank, j, i);
    }
    if (is("scatter") || is("scatterv"))       /* the root's blocks, one per process */
        for (int j = 0; j < size; j++) {
            scounts[j] = count(root, j, n);
            for (int i = 0; i < scounts[j]; i++)
                sbuf[sdispls[j] + i] = value(root, j, i);
        }
    memset(rbuf, 0xff, sizeof rbuf);
}

static int mover(int form, int n, int root, MPI_Request *req)
{
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Info ni = MPI_INFO_NULL;
    int mine = count(rank, 0, n), got = count(root, rank, n);
    int *sc = scounts, *sd = sdispls, *rc = rcounts, *rd = rdispls;
    if (is("gather"))
        return form == 0 ? MPI_Gather(sbuf, n, MPI_INT, rbuf, n, MPI_INT, root, w)
             : form == 1 ? MPI_Igather(sbuf, n, MPI_INT, rbuf, n, MPI_INT, root, w, req)
             : MPI_Gather_init(sbuf, n, MPI_INT, rbuf, n, MPI_INT, root, w, ni, req);
    if (is("gatherv"))
        return form == 0 ? MPI_Gatherv(sbuf, mine, MPI_INT, rbuf, rc, rd, MPI_INT, root, w)
             : form == 1 ? MPI_Igatherv(sbuf, mine, MPI_INT, rbuf, rc, rd, MPI_INT, root, w, req)
             : MPI_Gatherv_init(sbuf, mine, MPI_INT, rbuf, rc, rd, MPI_INT, root, w, ni, req);
    if (is("scatter"))
        return form == 0 ? MPI_Scatter(sbuf, n, MPI_INT, rbuf, n, MPI_INT, root, w)
             : form == 1 ? MPI_Iscatter(sbuf, n, MPI_INT, rbuf, n, MPI_INT, root, w, req)
             : MPI_Scatter_init(sbuf, n, MPI_INT, rbuf, n, MPI_INT, root, w, ni, req);
    if (is("scatterv"))
        return form == 0 ? MPI_Scatterv(sbuf, sc, sd, MPI_INT, rbuf, got, MPI_INT, root, w)
             : form == 1 ? MPI_Iscatterv(sbuf, sc, sd, MPI_INT, rbuf, got, MPI_INT, root, w, req)
             : MPI_Scatterv_init(sbuf, sc, sd, MPI_INT, rbuf, got, MPI_INT, root, w, ni, req);
    if (is("allgather"))
        return form == 0 ? MPI_Allgather(sbuf, n, MPI_INT, rbuf, n, MPI_INT, w)
             : form == 1 ? MPI_Iallgather(sbuf, n, MPI_INT, rbuf, n, MPI_INT, w, req)
             : MPI_Allgather_init(sbuf, n, MPI_INT, rbuf, n, MPI_INT, w, ni, req);
    if (is("allgatherv"))
        return form == 0 ? MPI_Allgatherv(sbuf, mine, MPI_INT, rbuf, rc, rd, MPI_INT, w)
             : form == 1 ? MPI_Iallgatherv(sbuf, mine, MPI_INT, rbuf, rc, rd, MPI_INT, w, req)
             : MPI_Allgatherv_init(sbuf, mine, MPI_INT, rbuf, rc, rd, MPI_INT, w, ni, req);
    if (is("alltoall"))
        return form == 0 ? MPI_Alltoall(sbuf, n, MPI_INT, rbuf, n, MPI_INT, w)
             : form == 1 ? MPI_Ialltoall(sbuf, n, MPI_INT, rbuf, n, MPI_INT, w, req)
             : MPI_Alltoall_init(sbuf, n, MPI_INT, rbuf, n, MPI_INT, w, ni, req);
    if (is("alltoallv"))
        return form == 0 ? MPI_Alltoallv(sbuf, sc, sd, MPI_INT, rbuf, rc, rd, MPI_INT, w)
             : form == 1 ? MPI_Ialltoallv(sbuf, sc, sd, MPI_INT, rbuf, rc, rd, MPI_INT, w, req)
             : MPI_Alltoallv_init(sbuf, sc, sd, MPI_INT, rbuf, rc, rd, MPI_INT, w, ni, req);
    int sb[32], rb[32];               /* alltoallw: byte displacements as int */
    for (int j = 0; j < size; j++)
        sb[j] = (int)sbytes[j], rb[j] = (int)rbytes[j];
    return form == 0 ? MPI_Alltoallw(sbuf, sc, sb, types, rbuf, rc, rb, types, w)
         : form == 1 ? MPI_Ialltoallw(sbuf, sc, sb, types, rbuf, rc, rb, types, w, req)
         : MPI_Alltoallw_init(sbuf, sc, sb, types, rbuf, rc, rb, types, w, ni, req);
}

static void verify_mover(int n, int root, int form)
{
    int rooted = !strncmp(name, "gather", 6), scatter = !strncmp(name, "scatter", 7);
    if (rooted && rank != root)
        return;
    for (int p = 0; p < size; p++) {
        if (scatter && p > 0)
            break;
        int from = scatter ? root : p, at = scatter ? 0 : rdispls[p];
        for (int i = 0; i < count(from, rank, n); i++)
            CHECKF(rbuf[at + i] == value(from, rank, i), "n %d root %d form %d from %d [%d]: %d",
                   n, root, form, from, i, rbuf[at + i]);
    }
}

/* --- the reductions -------------------------------------------------------------------------- */

static unsigned in[LEN][2], out[LEN][2];
static int iin[LEN], iout[LEN], blocks[32];

static int reduction(int form, int n, int root, MPI_Request *req)
{
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Info ni = MPI_INFO_NULL;
    MPI_Op o = compose_op;
    if (is("reduce"))
        return form == 0 ? MPI_Reduce(in, out, n, affine, o, root, w)
             : form == 1 ? MPI_Ireduce(in, out, n, affine, o, root, w, req)
             : MPI_Reduce_init(in, out, n, affine, o, root, w, ni, req);
    if (is("allreduce"))
        return form == 0 ? MPI_Allreduce(in, out, n, affine, o, w)
             : form == 1 ? MPI_Iallreduce(in, out, n, affine, o, w, req)
             : MPI_Allreduce_init(in, out, n, affine, o, w, ni, req);
    if (is("scan"))
        return form == 0 ? MPI_Scan(in, out, n, affine, o, w)
             : form == 1 ? MPI_Iscan(in, out, n, affine, o, w, req)
             : MPI_Scan_init(in, out, n, affine, o, w, ni, req);
    if (is("exscan"))
        return form == 0 ? MPI_Exscan(in, out, n, affine, o, w)
             : form == 1 ? MPI_Iexscan(in, out, n, affine, o, w, req)
             : MPI_Exscan_init(in, out, n, affine, o, w, ni, req);
    /* reduce_scatter(_block): MPI_SUM, block j has n (+ j % 3 in the v form) elements */
    if (is("reduce_scatter_block"))
        return form == 0 ? MPI_Reduce_scatter_block(iin, iout, n, MPI_INT, MPI_SUM, w)
             : form == 1 ? MPI_Ireduce_scatter_block(iin, iout, n, MPI_INT, MPI_SUM, w, req)
             : MPI_Reduce_scatter_block_init(iin, iout, n, MPI_INT, MPI_SUM, w, ni, req);
    return form == 0 ? MPI_Reduce_scatter(iin, iout, blocks, MPI_INT, MPI_SUM, w)
         : form == 1 ? MPI_Ireduce_scatter(iin, iout, blocks, MPI_INT, MPI_SUM, w, req)
         : MPI_Reduce_scatter_init(iin, iout, blocks, MPI_INT, MPI_SUM, w, ni, req);
}

static void prepare_reduction(int n)
{
    int total = 0;
    for (int j = 0; j < size; j++) {
        blocks[j] = is("reduce_scatter") ? n + j % 3 : n;
        total += blocks[j];
    }
    for (int i = 0; i < (total > n ? total : n); i++) {
        map_of(rank, i, in[i]);
        out[i][0] = out[i][1] = 0xdead;
        iin[i] = rank * 7 + i;
        iout[i] = -1;
    }
}

static void verify_reduction(int n, int root, int form)
{
    if (!strncmp(name, "reduce_scatter", 14)) {
        int start = 0;
        for (int j = 0; j < rank; j++)
            start += blocks[j];
        for (int i = 0; i < blocks[rank]; i++) {
            int want = 7 * size * (size - 1) / 2 + size * (start + i);
            CHECKF(iout[i] == want, "n %d form %d [%d]: %d, want %d", n, form, i, iout[i], want);
        }
        return;
    }
    int upto = is("scan") ? rank : is("exscan") ? rank - 1 : size - 1;
    if ((is("reduce") && rank != root) || upto < 0)
        return;
    for (int i = 0; i < n; i++) {
        unsigned want[2];
        composed(upto, i, want);
        CHECKF(!memcmp(out[i], want, sizeof want), "n %d root %d form %d [%d]", n, root, form, i);
    }
}

/* --- bcast, barrier -------------------------------------------------------------------------- */

static int bcast(int form, int n, int root, MPI_Request *req)
{
    if (form == 0)
        return MPI_Bcast(iin, n, MPI_INT, root, MPI_COMM_WORLD);
    if (form == 1)
        return MPI_Ibcast(iin, n, MPI_INT, root, MPI_COMM_WORLD, req);
    return MPI_Bcast_init(iin, n, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, req);
}

static int barrier(int form, int n, int root, MPI_Request *req)
{
    (void)n, (void)root;
    if (form == 0)
        return MPI_Barrier(MPI_COMM_WORLD);
    if (form == 1)
        return MPI_Ibarrier(MPI_COMM_WORLD, req);
    return MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, req);
}

/* --- the driver ------------------------------------------------------------------------------ */

typedef int start_fn(int form, int n, int root, MPI_Request *req);

static int run(start_fn *fn, int form, int n, int root)
{
    MPI_Request req = MPI_REQUEST_NULL;
    int rc = fn(form, n, root, &req);
    if (rc == MPI_SUCCESS && form == 2)
        rc = MPI_Start(&req);
    if (rc == MPI_SUCCESS && form > 0)
        rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (form == 2)
        MPI_Request_free(&req);
    return rc;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Op_create(compose, 0, &compose_op);
    MPI_Type_contiguous(2, MPI_UNSIGNED, &affine);
    MPI_Type_commit(&affine);
    name = argc > 1 ? argv[1] : "";
    size_t len = strlen(name);
    v = len > 0 && (name[len - 1] == 'v' || name[len - 1] == 'w');
    static const char *movers[] = {"gather", "gatherv", "scatter", "scatterv", "allgather",
                                   "allgatherv", "alltoall", "alltoallv", "alltoallw"};
    static const char *reductions[] = {"reduce", "allreduce", "scan", "exscan",
                                       "reduce_scatter", "reduce_scatter_block"};
    start_fn *fn = is("bcast") ? bcast : is("barrier") ? barrier : NULL;
    int kind = 0;                     /* 1 mover, 2 reduction */
    for (size_t k = 0; k < sizeof movers / sizeof *movers; k++)
        if (is(movers[k]))
            fn = mover, kind = 1;
    for (size_t k = 0; k < sizeof reductions / sizeof *reductions; k++)
        if (is(reductions[k]))
            fn = reduction, kind = 2;
    CHECKF(fn, "no test for the collective '%s': add one to tests/coll/algorithms.c", name);
    int rooted = fn == bcast || is("reduce") || !strncmp(name, "gather", 6) ||
                 !strncmp(name, "scatter", 7);
    for (int n = 0; fn && n <= 3 * size && n < MAX - 2; n++)
        for (int root = 0; root < (rooted ? size : 1); root++)
            for (int form = 0; form < 3; form++) {
                if (kind == 1)
                    prepare_mover(n, root);
                else
                    prepare_reduction(n);
                if (fn == bcast && rank != root)
                    memset(iin, 0xff, sizeof iin);
                CHECKF(run(fn, form, n, root) == MPI_SUCCESS, "n %d root %d form %d", n, root,
                       form);
                if (kind == 1)
                    verify_mover(n, root, form);
                else if (kind == 2)
                    verify_reduction(n, root, form);
                for (int i = 0; fn == bcast && i < n; i++)
                    CHECKF(iin[i] == root * 7 + i, "n %d root %d form %d [%d]", n, root, form, i);
            }
    MPI_Op_free(&compose_op);
    MPI_Type_free(&affine);
    MPI_Finalize();
    return CHECK_RESULT();
}
