/* np: 1 3 4 */
/* Persistent collectives: every one started several times with new buffer contents each round
 * (values checked), MPI_IN_PLACE forms, int and large-count forms, MPI_Startall of several in a
 * rank-dependent order, MPI_Test polling, inactive requests (wait, test, free), freeing an active
 * one, mixing with blocking and nonblocking collectives, freed communicator and datatype while
 * the request lives, and errors (start while active, bad init arguments). */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include "../check.h"

enum { ROUNDS = 4, N = 3 };
static int rank, size;

static int val(int r, int k, int i)
{
    return 1000 * k + 10 * r + i;
}

static int error_class(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

/* Start, then complete by MPI_Wait or (odd rounds) MPI_Test polling; inactive afterwards. */
static void run(MPI_Request *req, int k)
{
    CHECK(MPI_Start(req) == MPI_SUCCESS);
    if (k % 2 == 0) {
        CHECK(MPI_Wait(req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    } else {
        int flag = 0;
        while (!flag)
            CHECK(MPI_Test(req, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    }
    CHECK(*req != MPI_REQUEST_NULL);  /* persistent: the handle stays */
}

static void test_barrier_bcast(void)
{
    MPI_Request b, req;
    CHECK(MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &b) == MPI_SUCCESS);
    int buf[N], root = size - 1;
    CHECK(MPI_Bcast_init(buf, N, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &req) ==
          MPI_SUCCESS);
    for (int k = 0; k < ROUNDS; k++) {
        run(&b, k);
        for (int i = 0; i < N; i++)
            buf[i] = rank == root ? val(root, k, i) : -1;
        run(&req, k);
        for (int i = 0; i < N; i++)
            CHECKF(buf[i] == val(root, k, i), "bcast round %d [%d] = %d", k, i, buf[i]);
    }
    MPI_Request_free(&b);
    MPI_Request_free(&req);
    CHECK(b == MPI_REQUEST_NULL && req == MPI_REQUEST_NULL);
}

static void test_reductions(void)
{
    int in[N] = {0}, out[N], all[N], sc[N], ex[N], root = size > 1 ? 1 : 0;
    MPI_Request red, allr, scan, exscan;
    CHECK(MPI_Reduce_init(in, out, N, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD, MPI_INFO_NULL,
                          &red) == MPI_SUCCESS);
    CHECK(MPI_Allreduce_init(MPI_IN_PLACE, all, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                             MPI_INFO_NULL, &allr) == MPI_SUCCESS);
    CHECK(MPI_Scan_init_c(in, sc, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &scan) ==
          MPI_SUCCESS);
    CHECK(MPI_Exscan_init(in, ex, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &exscan) ==
          MPI_SUCCESS);
    for (int k = 0; k < ROUNDS; k++) {
        for (int i = 0; i < N; i++)
            in[i] = all[i] = val(rank, k, i), out[i] = sc[i] = ex[i] = -1;
        run(&red, k);
        run(&allr, k);
        run(&scan, k);
        run(&exscan, k);
        for (int i = 0; i < N; i++) {
            int sum = 0, prefix = 0;
            for (int r = 0; r < size; r++)
                sum += val(r, k, i);
            for (int r = 0; r <= rank; r++)
                prefix += val(r, k, i);
            if (rank == root)
                CHECKF(out[i] == sum, "reduce round %d [%d] = %d, want %d", k, i, out[i], sum);
            CHECKF(all[i] == sum, "allreduce round %d [%d] = %d, want %d", k, i, all[i], sum);
            CHECKF(sc[i] == prefix, "scan round %d [%d] = %d", k, i, sc[i]);
            if (rank > 0)
                CHECKF(ex[i] == prefix - val(rank, k, i), "exscan round %d [%d] = %d", k, i,
                       ex[i]);
        }
    }
    MPI_Request_free(&red);
    MPI_Request_free(&allr);
    MPI_Request_free(&scan);
    MPI_Request_free(&exscan);
}

static void test_reduce_scatter(void)
{
    int *in = malloc(sizeof(int) * N * size), out[N], blk[N];
    int *counts = malloc(sizeof(int) * size);
    for (int r = 0; r < size; r++)
        counts[r] = r % N + 1;        /* rank r gets r % N + 1 elements */
    MPI_Request rs, rsb;
    CHECK(MPI_Reduce_scatter_init(in, out, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                                  MPI_INFO_NULL, &rs) == MPI_SUCCESS);
    CHECK(MPI_Reduce_scatter_block_init(in, blk, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                                        MPI_INFO_NULL, &rsb) == MPI_SUCCESS);
    for (int k = 0; k < ROUNDS; k++) {
        for (int i = 0; i < N * size; i++)
            in[i] = val(rank, k, i);
        for (int i = 0; i < N; i++)
            out[i] = blk[i] = -1;
        run(&rs, k);
        run(&rsb, k);
        int at = 0;
        for (int r = 0; r < rank; r++)
            at += counts[r];
        for (int i = 0; i < N; i++) {
            int want = 0, wantb = 0;
            for (int r = 0; r < size; r++)
                want += val(r, k, at + i), wantb += val(r, k, rank * N + i);
            if (i < counts[rank])
                CHECKF(out[i] == want, "reduce_scatter round %d [%d] = %d", k, i, out[i]);
            else
                CHECK(out[i] == -1);
            CHECKF(blk[i] == wantb, "reduce_scatter_block round %d [%d] = %d", k, i, blk[i]);
        }
    }
    MPI_Request_free(&rs);
    MPI_Request_free(&rsb);
    free(in), free(counts);
}

static void test_gather_scatter(void)
{
    int root = size / 2, mine[N] = {0}, *all = malloc(sizeof(int) * N * size);
    int *counts = malloc(sizeof(int) * size), *displs = malloc(sizeof(int) * size);
    for (int r = 0; r < size; r++)    /* gatherv: rank r's r % N + 1 elements, reversed order */
        counts[r] = r % N + 1, displs[r] = N * (size - 1 - r);
    MPI_Request g, gv, s, sv;
    CHECK(MPI_Gather_init(mine, N, MPI_INT, all, N, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL,
                          &g) == MPI_SUCCESS);
    CHECK(MPI_Gatherv_init(mine, rank % N + 1, MPI_INT, all, counts, displs, MPI_INT, root,
                           MPI_COMM_WORLD, MPI_INFO_NULL, &gv) == MPI_SUCCESS);
    int sout[N], svout[N];
    CHECK(MPI_Scatter_init(all, N, MPI_INT, sout, N, MPI_INT, root, MPI_COMM_WORLD,
                           MPI_INFO_NULL, &s) == MPI_SUCCESS);
    CHECK(MPI_Scatterv_init(all, counts, displs, MPI_INT, svout, rank % N + 1, MPI_INT, root,
                            MPI_COMM_WORLD, MPI_INFO_NULL, &sv) == MPI_SUCCESS);
    for (int k = 0; k < ROUNDS; k++) {
        for (int i = 0; i < N; i++)
            mine[i] = val(rank, k, i);
        for (int i = 0; i < N * size; i++)
            all[i] = -1;
        run(&g, k);
        if (rank == root)
            for (int r = 0; r < size; r++)
                for (int i = 0; i < N; i++)
                    CHECKF(all[r * N + i] == val(r, k, i), "gather round %d rank %d [%d]", k, r,
                           i);
        for (int i = 0; i < N * size; i++)
            all[i] = -1;
        run(&gv, k);
        if (rank == root)
            for (int r = 0; r < size; r++)
                for (int i = 0; i < N; i++) {
                    int want = i < counts[r] ? val(r, k, i) : -1;
                    CHECKF(all[displs[r] + i] == want, "gatherv round %d rank %d [%d]", k, r, i);
                }
        for (int i = 0; i < N * size; i++)
            all[i] = rank == root ? val(root, k, i) + 7 : -1;
        for (int i = 0; i < N; i++)
            sout[i] = svout[i] = -1;
        run(&s, k);
        run(&sv, k);
        for (int i = 0; i < N; i++) {
            CHECKF(sout[i] == val(root, k, rank * N + i) + 7, "scatter round %d [%d]", k, i);
            int want = i <= rank % N ? val(root, k, displs[rank] + i) + 7 : -1;
            CHECKF(svout[i] == want, "scatterv round %d [%d] = %d, want %d", k, i, svout[i],
                   want);
        }
    }
    MPI_Request_free(&g), MPI_Request_free(&gv), MPI_Request_free(&s), MPI_Request_free(&sv);
    free(all), free(counts), free(displs);
}

static void test_allgather(void)
{
    int mine[N] = {0}, *all = malloc(sizeof(int) * N * size), *allv = malloc(sizeof(int) * N * size);
    int *counts = malloc(sizeof(int) * size), *displs = malloc(sizeof(int) * size);
    for (int r = 0; r < size; r++)
        counts[r] = r % N + 1, displs[r] = N * r;
    MPI_Request ag, agv;
    CHECK(MPI_Allgather_init(mine, N, MPI_INT, all, N, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL,
                             &ag) == MPI_SUCCESS);
    /* In place: our block is already in allv. */
    CHECK(MPI_Allgatherv_init(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, allv, counts, displs, MPI_INT,
                              MPI_COMM_WORLD, MPI_INFO_NULL, &agv) == MPI_SUCCESS);
    for (int k = 0; k < ROUNDS; k++) {
        for (int i = 0; i < N; i++)
            mine[i] = val(rank, k, i);
        for (int i = 0; i < N * size; i++)
            all[i] = -1, allv[i] = i / N == rank && i % N <= rank % N ? val(rank, k, i % N) : -1;
        run(&ag, k);
        run(&agv, k);
        for (int r = 0; r < size; r++)
            for (int i = 0; i < N; i++) {
                CHECKF(all[r * N + i] == val(r, k, i), "allgather round %d rank %d [%d]", k, r,
                       i);
                int want = i < counts[r] ? val(r, k, i) : -1;
                CHECKF(allv[r * N + i] == want, "allgatherv round %d rank %d [%d]", k, r, i);
            }
    }
    MPI_Request_free(&ag), MPI_Request_free(&agv);
    free(all), free(allv), free(counts), free(displs);
}

static void test_alltoall(void)
{
    int n = N * size;
    int *in = malloc(sizeof(int) * n), *out = malloc(sizeof(int) * n);
    int *inplace = malloc(sizeof(int) * n), *vout = malloc(sizeof(int) * n);
    int *wout = malloc(sizeof(int) * n);
    int *counts = malloc(sizeof(int) * size), *displs = malloc(sizeof(int) * size);
    int *bdispls = malloc(sizeof(int) * size);
    MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * size);
    for (int r = 0; r < size; r++)    /* v and w: r % N + 1 elements to and from rank r */
        counts[r] = r % N + 1, displs[r] = N * r, bdispls[r] = (int)sizeof(int) * N * r,
        types[r] = MPI_INT;
    int *rcounts = malloc(sizeof(int) * size);
    for (int r = 0; r < size; r++)
        rcounts[r] = rank % N + 1;
    MPI_Request a, ip, v, w;
    CHECK(MPI_Alltoall_init(in, N, MPI_INT, out, N, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &a) ==
          MPI_SUCCESS);
    CHECK(MPI_Alltoall_init(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, inplace, N, MPI_INT,
                            MPI_COMM_WORLD, MPI_INFO_NULL, &ip) == MPI_SUCCESS);
    /* Rank r sends counts[d] to d, so receives rank % N + 1 from everyone. */
    CHECK(MPI_Alltoallv_init(in, counts, displs, MPI_INT, vout, rcounts, displs, MPI_INT,
                             MPI_COMM_WORLD, MPI_INFO_NULL, &v) == MPI_SUCCESS);
    CHECK(MPI_Alltoallw_init(in, counts, bdispls, types, wout, rcounts, bdispls, types,
                             MPI_COMM_WORLD, MPI_INFO_NULL, &w) == MPI_SUCCESS);
    for (int k = 0; k < ROUNDS; k++) {
        for (int i = 0; i < n; i++)
            in[i] = inplace[i] = val(rank, k, i), out[i] = vout[i] = wout[i] = -1;
        run(&a, k);
        run(&ip, k);
        run(&v, k);
        run(&w, k);
        for (int r = 0; r < size; r++)
            for (int i = 0; i < N; i++) {
                int want = val(r, k, rank * N + i);
                CHECKF(out[r * N + i] == want, "alltoall round %d from %d [%d]", k, r, i);
                CHECKF(inplace[r * N + i] == want, "in-place alltoall round %d from %d [%d]", k,
                       r, i);
                int wantv = i <= rank % N ? want : -1;
                CHECKF(vout[r * N + i] == wantv, "alltoallv round %d from %d [%d]", k, r, i);
                CHECKF(wout[r * N + i] == wantv, "alltoallw round %d from %d [%d]", k, r, i);
            }
    }
    MPI_Request_free(&a), MPI_Request_free(&ip), MPI_Request_free(&v), MPI_Request_free(&w);
    free(in), free(out), free(inplace), free(vout), free(wout), free(counts), free(displs);
    free(bdispls), free(types), free(rcounts);
}

/* Several at once with MPI_Startall, in another order on odd ranks (MPI_Startall starts them in
 * any order), mixed with blocking and nonblocking collectives while they run. */
static void test_startall_mixed(void)
{
    int bc = 0, sum, gath[64], mine = 0, blocking, nonblocking;
    MPI_Request reqs[3], rev[3];
    CHECK(MPI_Bcast_init(&bc, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[0]) ==
          MPI_SUCCESS);
    CHECK(MPI_Allreduce_init(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                             &reqs[1]) == MPI_SUCCESS);
    CHECK(MPI_Allgather_init(&mine, 1, MPI_INT, gath, 1, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL,
                             &reqs[2]) == MPI_SUCCESS);
    for (int k = 0; k < ROUNDS; k++) {
        mine = val(rank, k, 0);
        bc = rank == 0 ? val(0, k, 5) : -1;
        sum = -1;
        for (int r = 0; r < size; r++)
            gath[r] = -1;
        for (int i = 0; i < 3; i++)
            rev[i] = reqs[rank % 2 ? 2 - i : i];
        CHECK(MPI_Startall(3, rev) == MPI_SUCCESS);
        MPI_Request nb;
        int one = 1;
        CHECK(MPI_Iallreduce(&one, &nonblocking, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &nb) ==
              MPI_SUCCESS);
        CHECK(MPI_Allreduce(&mine, &blocking, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD) ==
              MPI_SUCCESS);
        if (k % 2)
            MPI_Barrier(MPI_COMM_WORLD);
        MPI_Status st[3];
        CHECK(MPI_Waitall(3, rev, st) == MPI_SUCCESS);
        CHECK(MPI_Wait(&nb, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        int want = 0;
        for (int r = 0; r < size; r++) {
            want += val(r, k, 0);
            CHECKF(gath[r] == val(r, k, 0), "round %d: allgather [%d] = %d", k, r, gath[r]);
        }
        CHECKF(bc == val(0, k, 5), "round %d: bcast %d", k, bc);
        CHECKF(sum == want, "round %d: allreduce %d, want %d", k, sum, want);
        CHECK(nonblocking == size);
        CHECK(blocking == val(size - 1, k, 0));
        for (int i = 0; i < 3; i++)
            CHECK(rev[i] == reqs[rank % 2 ? 2 - i : i]);
    }
    for (int i = 0; i < 3; i++)
        MPI_Request_free(&reqs[i]);
}

/* Inactive requests complete at once; starting an active one is an error; freeing an active
 * one lets it complete; the communicator and datatype may be freed while the request lives. */
static void test_lifecycle(void)
{
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    int in[2] = {0}, out[2];
    MPI_Request req;
    CHECK(MPI_Allreduce_init(in, out, 1, pair, MPI_SUM, dup, MPI_INFO_NULL, &req) ==
          MPI_SUCCESS);

    /* Never started: wait and test return at once with an empty status. */
    MPI_Status st;
    st.MPI_SOURCE = 77;
    CHECK(MPI_Wait(&req, &st) == MPI_SUCCESS);
    CHECK(req != MPI_REQUEST_NULL && st.MPI_SOURCE == MPI_ANY_SOURCE);
    int flag = 0;
    CHECK(MPI_Test(&req, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS && flag);

    MPI_Type_free(&pair);
    MPI_Comm_free(&dup);              /* the request keeps both alive */
    for (int k = 0; k < ROUNDS; k++) {
        in[0] = val(rank, k, 0), in[1] = val(rank, k, 1), out[0] = out[1] = -1;
        CHECK(MPI_Start(&req) == MPI_SUCCESS);
        if (k == 0) {                 /* already active */
            int rc = MPI_Start(&req);
            CHECKF(error_class(rc) == MPI_ERR_REQUEST, "second start: class %d",
                   error_class(rc));
        }
        CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        for (int i = 0; i < 2; i++) {
            int want = 0;
            for (int r = 0; r < size; r++)
                want += val(r, k, i);
            CHECKF(out[i] == want, "round %d [%d] = %d, want %d", k, i, out[i], want);
        }
    }
    CHECK(MPI_Request_free(&req) == MPI_SUCCESS && req == MPI_REQUEST_NULL);

    /* Freed while active: it still completes (the later collectives must not be disturbed). */
    static int a, b;              /* the freed one may complete after we return */
    a = rank + 1, b = -1;
    CHECK(MPI_Allreduce_init(&a, &b, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req) ==
          MPI_SUCCESS);
    CHECK(MPI_Start(&req) == MPI_SUCCESS);
    CHECK(MPI_Request_free(&req) == MPI_SUCCESS && req == MPI_REQUEST_NULL);
    int c = -1, one = 1;
    CHECK(MPI_Allreduce(&one, &c, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS);
    CHECK(c == size);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);      /* progress for the freed one; its value may now be in */
    CHECK(b == -1 || b == size * (size + 1) / 2);

    /* Init errors. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rc = MPI_Bcast_init(MPI_IN_PLACE, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    CHECKF(error_class(rc) == MPI_ERR_BUFFER, "bcast in place: class %d", error_class(rc));
    rc = MPI_Allreduce_init(&a, &b, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    CHECKF(error_class(rc) == MPI_ERR_OP, "no op: class %d", error_class(rc));
    rc = MPI_Reduce_init(&a, &b, 1, MPI_INT, MPI_SUM, size, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    CHECKF(error_class(rc) == MPI_ERR_ROOT, "bad root: class %d", error_class(rc));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    test_barrier_bcast();
    test_reductions();
    test_reduce_scatter();
    test_gather_scatter();
    test_allgather();
    test_alltoall();
    test_startall_mixed();
    test_lifecycle();
    MPI_Finalize();
    return CHECK_RESULT();
}
