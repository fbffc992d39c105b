/* np: 1 3 4 8 */
/* Nonblocking collectives: every one against its blocking form (and known values), with
 * MPI_IN_PLACE, several outstanding at once and completed in another order, MPI_Test polling,
 * interleaved with blocking collectives, a non-commutative operation for the order of
 * reductions and scans, MPI_Request_free, MPI_Cancel, and freed communicators and datatypes. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include "../check.h"

static int rank, size;

/* A non-commutative operation: 2x2 matrix products (mod 2^32), inout = in * inout. */
static void matmul(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    unsigned *a = in, *b = inout;
    for (int i = 0; i < *len; i++, a += 4, b += 4) {
        unsigned r[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
                         a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3]};
        memcpy(b, r, sizeof r);
    }
}

static void matrix_of(int r, int k, unsigned m[4])
{
    m[0] = (unsigned)r + 2 + (unsigned)k;
    m[1] = 1;
    m[2] = (unsigned)(3 * r + 1);
    m[3] = (unsigned)k + 1;
}

/* The product of the matrices of ranks lo .. hi - 1 (in rank order), element k. */
static void product(int lo, int hi, int k, unsigned out[4])
{
    unsigned acc[4] = {1, 0, 0, 1};
    for (int r = hi - 1; r >= lo; r--) {  /* acc = m_r * acc */
        unsigned m[4];
        int one = 1;
        matrix_of(r, k, m);
        matmul(m, acc, &one, NULL);
    }
    memcpy(out, acc, sizeof acc);
}

static void wait_by_testing(MPI_Request *req)
{
    int flag = 0;
    while (!flag)
        MPI_Test(req, &flag, MPI_STATUS_IGNORE);
    CHECK(*req == MPI_REQUEST_NULL);
}

static void test_barrier_bcast(void)
{
    MPI_Request req;
    CHECK(MPI_Ibarrier(MPI_COMM_WORLD, &req) == MPI_SUCCESS);
    wait_by_testing(&req);
    for (int root = 0; root < size; root++) {
        int n = root % 2 ? 5 : 40000;  /* eager and rendezvous messages */
        double *a = malloc(n * sizeof *a);
        for (int i = 0; i < n; i++)
            a[i] = rank == root ? i * 0.5 + root : -1;
        MPI_Ibcast(a, n, MPI_DOUBLE, root, MPI_COMM_WORLD, &req);
        MPI_Status st;
        MPI_Wait(&req, &st);
        int bad = 0;
        for (int i = 0; i < n; i++)
            bad += a[i] != i * 0.5 + root;
        CHECKF(!bad, "root %d: %d wrong", root, bad);
        free(a);
    }
}

static void test_reduce(MPI_Op matop, MPI_Datatype mat)
{
    enum { N = 3 };
    for (int root = 0; root < size; root++) {
        int in[N], out[N], ref[N];
        for (int i = 0; i < N; i++)
            in[i] = rank * 10 + i + root;
        MPI_Request req;
        MPI_Ireduce(in, out, N, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Reduce(in, ref, N, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
        if (rank == root)
            CHECK(!memcmp(out, ref, sizeof out));
        /* In place at the root. */
        memcpy(out, in, sizeof in);
        MPI_Ireduce(rank == root ? MPI_IN_PLACE : in, out, N, MPI_INT, MPI_MAX, root,
                    MPI_COMM_WORLD, &req);
        wait_by_testing(&req);
        if (rank == root)
            for (int i = 0; i < N; i++)
                CHECK(out[i] == (size - 1) * 10 + i + root);
        /* Non-commutative: the product in rank order. */
        unsigned m[2][4], r[2][4], want[4];
        for (int k = 0; k < 2; k++)
            matrix_of(rank, k, m[k]);
        MPI_Ireduce(m, r, 2, mat, matop, root, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        for (int k = 0; rank == root && k < 2; k++) {
            product(0, size, k, want);
            CHECKF(!memcmp(r[k], want, sizeof want), "root %d k %d", root, k);
        }
    }
}

static void test_allreduce(MPI_Op matop, MPI_Datatype mat)
{
    enum { N = 1000 };
    static long in[N], out[N], ref[N];
    for (int i = 0; i < N; i++)
        in[i] = rank + i;
    MPI_Request req;
    MPI_Iallreduce(in, out, N, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Allreduce(in, ref, N, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    CHECK(!memcmp(out, ref, sizeof out));
    memcpy(out, in, sizeof in);
    MPI_Iallreduce(MPI_IN_PLACE, out, N, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, &req);
    wait_by_testing(&req);
    CHECK(!memcmp(out, ref, sizeof out));
    unsigned m[4], r[4], want[4];
    matrix_of(rank, 7, m);
    MPI_Iallreduce(m, r, 1, mat, matop, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    product(0, size, 7, want);
    CHECK(!memcmp(r, want, sizeof want));
    /* The large-count form. */
    MPI_Count n = N;
    MPI_Iallreduce_c(in, out, n, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(!memcmp(out, ref, sizeof out));
}

/* Long vectors take Rabenseifner's algorithm in all three forms (not a multiple of the process
 * count, and on 3 processes folded to 2): a non-commutative operation checks the order. */
static void test_allreduce_long(MPI_Op matop, MPI_Datatype mat)
{
    enum { N = 1101 };                /* 16-byte matrices: over 16 KiB */
    static unsigned m[N][4], r[3][N][4];
    for (int k = 0; k < N; k++)
        matrix_of(rank, k, m[k]);
    MPI_Request req[2];
    MPI_Iallreduce(m, r[0], N, mat, matop, MPI_COMM_WORLD, &req[0]);
    MPI_Allreduce_init(m, r[1], N, mat, matop, MPI_COMM_WORLD, MPI_INFO_NULL, &req[1]);
    for (int start = 0; start < 2; start++) {
        memset(r[1], 0, sizeof r[1]);
        MPI_Start(&req[1]);
        MPI_Wait(&req[1], MPI_STATUS_IGNORE);
        MPI_Allreduce(m, r[2], N, mat, matop, MPI_COMM_WORLD);
        if (start == 0)
            MPI_Wait(&req[0], MPI_STATUS_IGNORE);
        for (int k = 0; k < N; k++) {
            unsigned want[4];
            product(0, size, k, want);
            for (int f = 0; f < 3; f++)
                CHECKF(!memcmp(r[f][k], want, sizeof want), "form %d element %d", f, k);
        }
    }
    MPI_Request_free(&req[1]);
}

static void test_gather_scatter(void)
{
    int root = size - 1, *all = malloc(3 * size * sizeof *all), *ref = malloc(3 * size * sizeof *ref);
    int *counts = malloc(size * sizeof *counts), *displs = malloc(size * sizeof *displs);
    int mine[3] = {rank, rank * 2, rank * 3};
    MPI_Request req;
    /* Gather and in place. */
    memset(all, -1, 3 * size * sizeof *all);
    MPI_Igather(mine, 3, MPI_INT, all, 3, MPI_INT, root, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Gather(mine, 3, MPI_INT, ref, 3, MPI_INT, root, MPI_COMM_WORLD);
    if (rank == root)
        CHECK(!memcmp(all, ref, 3 * size * sizeof *all));
    if (rank == root) {
        memset(all, -1, 3 * size * sizeof *all);
        memcpy(all + 3 * root, mine, sizeof mine);
    }
    MPI_Igather(rank == root ? MPI_IN_PLACE : mine, 3, MPI_INT, all, 3, MPI_INT, root,
                MPI_COMM_WORLD, &req);
    wait_by_testing(&req);
    if (rank == root)
        CHECK(!memcmp(all, ref, 3 * size * sizeof *all));
    /* Gatherv: rank i sends i % 3 + 1 ints, stored in reverse rank order. */
    int at = 0;
    for (int i = size - 1; i >= 0; i--) {
        counts[i] = i % 3 + 1;
        displs[i] = at;
        at += counts[i];
    }
    memset(all, -1, 3 * size * sizeof *all);
    MPI_Igatherv(mine, rank % 3 + 1, MPI_INT, all, counts, displs, MPI_INT, root, MPI_COMM_WORLD,
                 &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    for (int i = 0; rank == root && i < size; i++)
        for (int j = 0; j < counts[i]; j++)
            CHECK(all[displs[i] + j] == i * (j + 1));
    /* Scatter, in place at the root, scatterv. */
    for (int i = 0; i < 3 * size; i++)
        all[i] = rank == root ? i * 7 : -1;
    int got[3] = {-1, -1, -1};
    MPI_Iscatter(all, 3, MPI_INT, got, 3, MPI_INT, root, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    for (int j = 0; j < 3; j++)
        CHECK(got[j] == (3 * rank + j) * 7);
    MPI_Iscatter(all, 3, MPI_INT, rank == root ? MPI_IN_PLACE : got, 3, MPI_INT, root,
                 MPI_COMM_WORLD, &req);
    wait_by_testing(&req);
    for (int j = 0; j < 3; j++)
        CHECK(got[j] == (3 * rank + j) * 7);
    memset(got, -1, sizeof got);
    MPI_Iscatterv(all, counts, displs, MPI_INT, got, rank % 3 + 1, MPI_INT, root, MPI_COMM_WORLD,
                  &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    for (int j = 0; j < 3; j++)
        CHECK(got[j] == (j <= rank % 3 ? (displs[rank] + j) * 7 : -1));
    free(all), free(ref), free(counts), free(displs);
}

static void test_allgather_alltoall(void)
{
    int *all = malloc(2 * size * sizeof *all), *ref = malloc(2 * size * sizeof *ref);
    int *counts = malloc(size * sizeof *counts), *displs = malloc(size * sizeof *displs);
    int mine[2] = {rank + 100, rank + 200};
    MPI_Request req;
    MPI_Iallgather(mine, 2, MPI_INT, all, 2, MPI_INT, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Allgather(mine, 2, MPI_INT, ref, 2, MPI_INT, MPI_COMM_WORLD);
    CHECK(!memcmp(all, ref, 2 * size * sizeof *all));
    memset(all, -1, 2 * size * sizeof *all);
    memcpy(all + 2 * rank, mine, sizeof mine);
    MPI_Iallgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 2, MPI_INT, MPI_COMM_WORLD, &req);
    wait_by_testing(&req);
    CHECK(!memcmp(all, ref, 2 * size * sizeof *all));
    /* Allgatherv: rank i gives i % 2 + 1 ints. */
    int at = 0;
    for (int i = 0; i < size; i++) {
        counts[i] = i % 2 + 1;
        displs[i] = at;
        at += counts[i];
    }
    memset(all, -1, 2 * size * sizeof *all);
    MPI_Iallgatherv(mine, rank % 2 + 1, MPI_INT, all, counts, displs, MPI_INT, MPI_COMM_WORLD,
                    &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    for (int i = 0; i < size; i++)
        for (int j = 0; j < counts[i]; j++)
            CHECK(all[displs[i] + j] == i + 100 * (j + 1));
    /* Alltoall: block j of rank i is i * 1000 + j. */
    int *snd = malloc(2 * size * sizeof *snd);
    for (int j = 0; j < size; j++)
        snd[2 * j] = snd[2 * j + 1] = rank * 1000 + j;
    MPI_Ialltoall(snd, 2, MPI_INT, all, 2, MPI_INT, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Alltoall(snd, 2, MPI_INT, ref, 2, MPI_INT, MPI_COMM_WORLD);
    CHECK(!memcmp(all, ref, 2 * size * sizeof *all));
    for (int i = 0; i < size; i++)
        CHECK(all[2 * i] == i * 1000 + rank && all[2 * i + 1] == i * 1000 + rank);
    memcpy(all, snd, 2 * size * sizeof *all);
    MPI_Ialltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 2, MPI_INT, MPI_COMM_WORLD, &req);
    wait_by_testing(&req);
    CHECK(!memcmp(all, ref, 2 * size * sizeof *all));
    /* Alltoallv: one int to each, at reversed places; and in place. */
    int *sd = malloc(size * sizeof *sd), *ones = malloc(size * sizeof *ones);
    for (int j = 0; j < size; j++) {
        ones[j] = 1;
        sd[j] = size - 1 - j;
        snd[size - 1 - j] = rank * 1000 + j;
        displs[j] = j;
    }
    memset(all, -1, 2 * size * sizeof *all);
    MPI_Ialltoallv(snd, ones, sd, MPI_INT, all, ones, displs, MPI_INT, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    for (int i = 0; i < size; i++)
        CHECK(all[i] == i * 1000 + rank);
    for (int j = 0; j < size; j++)
        all[j] = rank * 1000 + j;
    MPI_Ialltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, all, ones, displs, MPI_INT,
                   MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    for (int i = 0; i < size; i++)
        CHECK(all[i] == i * 1000 + rank);
    /* Alltoallw: byte displacements, a type per peer (ints to even ranks, two shorts to odd). */
    MPI_Datatype *types = malloc(size * sizeof *types);
    int *bd = malloc(size * sizeof *bd);
    int *wsnd = malloc(size * sizeof *wsnd), *wrcv = malloc(size * sizeof *wrcv);
    for (int j = 0; j < size; j++) {
        types[j] = MPI_INT;
        bd[j] = j * (int)sizeof(int);
        wsnd[j] = rank * 1000 + j;
        wrcv[j] = -1;
    }
    MPI_Ialltoallw(wsnd, ones, bd, types, wrcv, ones, bd, types, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    for (int i = 0; i < size; i++)
        CHECK(wrcv[i] == i * 1000 + rank);
    MPI_Ialltoallw(MPI_IN_PLACE, NULL, NULL, NULL, wsnd, ones, bd, types, MPI_COMM_WORLD, &req);
    wait_by_testing(&req);
    for (int i = 0; i < size; i++)
        CHECK(wsnd[i] == i * 1000 + rank);
    free(types), free(bd), free(wsnd), free(wrcv), free(sd), free(ones), free(snd);
    free(all), free(ref), free(counts), free(displs);
}

static void test_reduce_scatter_scan(MPI_Op matop, MPI_Datatype mat)
{
    int *in = malloc(3 * size * sizeof *in), *counts = malloc(size * sizeof *counts);
    int out[3], ref[3];
    for (int i = 0; i < 3 * size; i++)
        in[i] = rank + i;
    MPI_Request req;
    MPI_Ireduce_scatter_block(in, out, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Reduce_scatter_block(in, ref, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(!memcmp(out, ref, sizeof out));
    for (int j = 0; j < 3; j++)
        CHECK(out[j] == size * (size - 1) / 2 + size * (3 * rank + j));
    MPI_Ireduce_scatter_block(MPI_IN_PLACE, in, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
    wait_by_testing(&req);
    CHECK(!memcmp(in, ref, sizeof ref));
    /* Reduce_scatter: rank i gets i % 3 + 1 elements. */
    int total = 0;
    for (int i = 0; i < size; i++)
        total += counts[i] = i % 3 + 1;
    for (int i = 0; i < total; i++)
        in[i] = rank * i;
    int first = 0;
    for (int i = 0; i < rank; i++)
        first += counts[i];
    memset(out, -1, sizeof out);
    MPI_Ireduce_scatter(in, out, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    for (int j = 0; j < 3; j++)
        CHECK(out[j] == (j < counts[rank] ? (first + j) * size * (size - 1) / 2 : -1));
    MPI_Ireduce_scatter(MPI_IN_PLACE, in, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    for (int j = 0; j < counts[rank]; j++)
        CHECK(in[j] == (first + j) * size * (size - 1) / 2);
    /* Scans: sums, in place, and the non-commutative product. */
    int v = rank + 1, s = -1, e = -1;
    MPI_Iscan(&v, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(s == (rank + 1) * (rank + 2) / 2);
    MPI_Iexscan(&v, &e, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (rank > 0)
        CHECK(e == rank * (rank + 1) / 2);
    s = v;
    MPI_Iscan(MPI_IN_PLACE, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
    wait_by_testing(&req);
    CHECK(s == (rank + 1) * (rank + 2) / 2);
    e = v;
    MPI_Iexscan(MPI_IN_PLACE, &e, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
    wait_by_testing(&req);
    if (rank > 0)
        CHECK(e == rank * (rank + 1) / 2);
    unsigned m[4], r[4], blocking[4], want[4];
    matrix_of(rank, 3, m);
    MPI_Iscan(m, r, 1, mat, matop, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Scan(m, blocking, 1, mat, matop, MPI_COMM_WORLD);
    product(0, rank + 1, 3, want);
    CHECK(!memcmp(r, want, sizeof want));
    CHECK(!memcmp(r, blocking, sizeof want));
    memcpy(r, m, sizeof m);
    MPI_Iexscan(MPI_IN_PLACE, r, 1, mat, matop, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    product(0, rank, 3, want);
    if (rank > 0)
        CHECK(!memcmp(r, want, sizeof want));
    free(in), free(counts);
}

/* Several at once, on two communicators, with blocking collectives in between, completed in
 * another order than started. */
static void test_outstanding(void)
{
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    enum { N = 5000 };
    static int a[N], b[N], c[N], d[N];
    int x = rank, y, z = rank == 0 ? 42 : 0, w;
    for (int i = 0; i < N; i++)
        a[i] = rank + i, c[i] = rank == 0 ? i : -1;
    MPI_Request reqs[6];
    MPI_Iallreduce(a, b, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[0]);
    MPI_Ibcast(c, N, MPI_INT, 0, dup, &reqs[1]);
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);   /* blocking, in between */
    MPI_Ibarrier(MPI_COMM_WORLD, &reqs[2]);
    MPI_Ibcast(&z, 1, MPI_INT, 0, MPI_COMM_WORLD, &reqs[3]);
    MPI_Bcast(&x, 1, MPI_INT, size - 1, dup);
    MPI_Iallreduce(&rank, &w, 1, MPI_INT, MPI_SUM, dup, &reqs[4]);
    MPI_Iscan(a, d, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[5]);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 5; i >= 0; i--)
        MPI_Wait(&reqs[i], MPI_STATUS_IGNORE);
    CHECK(y == size - 1 && x == size - 1 && z == 42 && w == size * (size - 1) / 2);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += b[i] != size * (size - 1) / 2 + size * i || c[i] != i ||
               d[i] != rank * (rank + 1) / 2 + (rank + 1) * i;
    CHECK(!bad);
    /* Waitany / Testany / Testall over a mix. */
    MPI_Ibarrier(dup, &reqs[0]);
    MPI_Iallreduce(a, b, N, MPI_INT, MPI_SUM, dup, &reqs[1]);
    MPI_Iallgather(&rank, 1, MPI_INT, d, 1, MPI_INT, MPI_COMM_WORLD, &reqs[2]);
    int done = 0, idx, flag;
    while (done < 3) {
        MPI_Testany(3, reqs, &idx, &flag, MPI_STATUS_IGNORE);
        if (flag && idx != MPI_UNDEFINED)
            done++;
    }
    for (int i = 0; i < size; i++)
        CHECK(d[i] == i);
    MPI_Ibarrier(dup, &reqs[0]);
    MPI_Ireduce(a, b, N, MPI_INT, MPI_SUM, 0, dup, &reqs[1]);
    MPI_Waitany(2, reqs, &idx, MPI_STATUS_IGNORE);
    MPI_Waitany(2, reqs, &idx, MPI_STATUS_IGNORE);
    CHECK(reqs[0] == MPI_REQUEST_NULL && reqs[1] == MPI_REQUEST_NULL);
    /* A communicator freed while its collective is pending. */
    MPI_Iallreduce(&rank, &w, 1, MPI_INT, MPI_MAX, dup, &reqs[0]);
    MPI_Comm_free(&dup);
    MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
    CHECK(w == size - 1);
}

static void test_free_cancel_types(void)
{
    /* A freed request still completes: the next collectives see no stray message. */
    MPI_Request req;
    int v = rank, sum = -1;
    MPI_Ibarrier(MPI_COMM_WORLD, &req);
    MPI_Request_free(&req);
    CHECK(req == MPI_REQUEST_NULL);
    static int never_read;            /* written whenever the freed request completes */
    MPI_Iallreduce(&v, &never_read, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
    MPI_Request_free(&req);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(sum == size * (size - 1) / 2);
    /* Cancel is erroneous for a collective. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Ibarrier(MPI_COMM_WORLD, &req);
    int rc = MPI_Cancel(&req), cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_REQUEST);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    /* Argument errors as for the blocking forms. */
    rc = MPI_Iallreduce(&v, &v, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_BUFFER);
    rc = MPI_Ibcast(&v, 1, MPI_INT, size, MPI_COMM_WORLD, &req);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_ROOT);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    /* A derived datatype freed while its broadcast is pending. */
    MPI_Datatype vec;
    MPI_Type_vector(4, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    int buf[8];
    for (int i = 0; i < 8; i++)
        buf[i] = rank == 0 ? i : -1;
    MPI_Ibcast(buf, 1, vec, 0, MPI_COMM_WORLD, &req);
    MPI_Type_free(&vec);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    for (int i = 0; i < 8; i++)
        CHECK(buf[i] == (rank == 0 || i % 2 == 0 ? i : -1));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Op matop;
    MPI_Datatype mat;
    MPI_Op_create(matmul, 0, &matop);
    MPI_Type_contiguous(4, MPI_UNSIGNED, &mat);
    MPI_Type_commit(&mat);
    test_barrier_bcast();
    test_reduce(matop, mat);
    test_allreduce(matop, mat);
    test_allreduce_long(matop, mat);
    test_gather_scatter();
    test_allgather_alltoall();
    test_reduce_scatter_scan(matop, mat);
    test_outstanding();
    test_free_cancel_types();
    MPI_Op_free(&matop);
    MPI_Type_free(&mat);
    MPI_Finalize();
    return CHECK_RESULT();
}
