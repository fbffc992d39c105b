/* np: 4 6 */
/* Nonblocking and persistent neighborhood collectives: allgather(v), alltoall(v,w) and their
 * large-count forms on Cartesian grids (the -1 neighbor then the +1 one per dimension; what goes
 * to the -1 neighbor arrives in its +1 block, also where both are one process, with several of
 * them outstanding at once; MPI_PROC_NULL blocks untouched), on a graph and on a distributed
 * graph; persistent ones started several rounds with new values (MPI_Start and MPI_Startall);
 * errors without a topology and with MPI_IN_PLACE. */
#include "neighbor_common.h"

enum { ROUNDS = 3 };

/* What process p puts in its send block j, element e, in round k. */
static int val(int p, int j, int e, int k)
{
    return 10000 * k + 1000 * p + 10 * j + e;
}

static void cart(MPI_Comm comm, int nd, const int *dims, const int *periods)
{
    MPI_Comm c;
    int me;
    CHECK(MPI_Cart_create(comm, nd, dims, periods, 0, &c) == MPI_SUCCESS);
    MPI_Comm_rank(c, &me);
    int nb[8], n = cart_neighbors(c, nb);

    /* Nonblocking allgather and alltoall outstanding together, completed in reverse order. */
    int got[8], send[8], recv[8], recv_c[8];
    for (int j = 0; j < 8; j++)
        got[j] = recv[j] = recv_c[j] = -1, send[j] = val(me, j, 0, 0);
    MPI_Request r[3];
    CHECK(MPI_Ineighbor_allgather(&me, 1, MPI_INT, got, 1, MPI_INT, c, &r[0]) == MPI_SUCCESS);
    CHECK(MPI_Ineighbor_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, c, &r[1]) == MPI_SUCCESS);
    CHECK(MPI_Ineighbor_alltoall_c(send, 1, MPI_INT, recv_c, 1, MPI_INT, c, &r[2]) ==
          MPI_SUCCESS);
    for (int i = 2; i >= 0; i--)
        CHECK(MPI_Wait(&r[i], MPI_STATUS_IGNORE) == MPI_SUCCESS && r[i] == MPI_REQUEST_NULL);
    for (int j = 0; j < n; j++) {
        CHECKF(got[j] == (nb[j] == MPI_PROC_NULL ? -1 : nb[j]), "allgather block %d: %d, "
               "neighbor %d", j, got[j], nb[j]);
        int want = nb[j] == MPI_PROC_NULL ? -1 : val(nb[j], j ^ 1, 0, 0);
        CHECKF(recv[j] == want, "alltoall block %d: %d, want %d", j, recv[j], want);
        CHECKF(recv_c[j] == want, "alltoall_c block %d: %d, want %d", j, recv_c[j], want);
    }

    /* Persistent alltoallv (block j: j + 1 elements, at 10 * j) and alltoallw (an int per
     * block, byte displacements), and a nonblocking alltoallv polled with MPI_Test, several
     * rounds. */
    int scounts[8], sdispls[8], rcounts[8], rdispls[8], sbuf[80] = {0}, rbuf[80], ibuf[80];
    int wsc[8], wrc[8], wout[8];
    MPI_Aint wsd[8], wrd[8];
    MPI_Datatype wt[8];
    for (int j = 0; j < n; j++) {
        scounts[j] = j + 1, sdispls[j] = 10 * j;
        rcounts[j] = (j ^ 1) + 1, rdispls[j] = 10 * j;
        wsc[j] = wrc[j] = 1, wt[j] = MPI_INT;
        wsd[j] = (MPI_Aint)sizeof(int) * 10 * j, wrd[j] = (MPI_Aint)sizeof(int) * j;
    }
    MPI_Request p[2];
    CHECK(MPI_Neighbor_alltoallv_init(sbuf, scounts, sdispls, MPI_INT, rbuf, rcounts, rdispls,
                                      MPI_INT, c, MPI_INFO_NULL, &p[0]) == MPI_SUCCESS);
    CHECK(MPI_Neighbor_alltoallw_init(sbuf, wsc, wsd, wt, wout, wrc, wrd, wt, c, MPI_INFO_NULL,
                                      &p[1]) == MPI_SUCCESS);
    for (int k = 0; k < ROUNDS; k++) {
        for (int j = 0; j < n; j++)
            for (int e = 0; e <= j; e++)
                sbuf[10 * j + e] = val(me, j, e, k);
        for (int i = 0; i < 80; i++)
            rbuf[i] = ibuf[i] = -1;
        for (int j = 0; j < 8; j++)
            wout[j] = -1;
        CHECK(MPI_Startall(2, p) == MPI_SUCCESS);
        MPI_Request nbr;
        CHECK(MPI_Ineighbor_alltoallv(sbuf, scounts, sdispls, MPI_INT, ibuf, rcounts, rdispls,
                                      MPI_INT, c, &nbr) == MPI_SUCCESS);
        int flag = 0;
        while (!flag)
            MPI_Test(&nbr, &flag, MPI_STATUS_IGNORE);
        CHECK(MPI_Waitall(2, p, MPI_STATUSES_IGNORE) == MPI_SUCCESS);
        for (int j = 0; j < n; j++) {
            for (int e = 0; e < rcounts[j]; e++) {
                int want = nb[j] == MPI_PROC_NULL ? -1 : val(nb[j], j ^ 1, e, k);
                CHECKF(rbuf[10 * j + e] == want, "round %d alltoallv_init block %d[%d]: %d, "
                       "want %d", k, j, e, rbuf[10 * j + e], want);
                CHECKF(ibuf[10 * j + e] == want, "round %d ialltoallv block %d[%d]: %d, "
                       "want %d", k, j, e, ibuf[10 * j + e], want);
            }
            int want = nb[j] == MPI_PROC_NULL ? -1 : val(nb[j], j ^ 1, 0, k);
            CHECKF(wout[j] == want, "round %d alltoallw_init block %d: %d, want %d", k, j,
                   wout[j], want);
        }
    }
    MPI_Request_free(&p[0]);
    MPI_Request_free(&p[1]);

    /* Persistent allgather and alltoall (large-count forms), MPI_Start each round. */
    int mine = 0;
    MPI_Request ag, aa;
    CHECK(MPI_Neighbor_allgather_init_c(&mine, 1, MPI_INT, got, 1, MPI_INT, c, MPI_INFO_NULL,
                                        &ag) == MPI_SUCCESS);
    CHECK(MPI_Neighbor_alltoall_init(send, 1, MPI_INT, recv, 1, MPI_INT, c, MPI_INFO_NULL, &aa)
          == MPI_SUCCESS);
    for (int k = 0; k < ROUNDS; k++) {
        mine = val(me, 0, 0, k);
        for (int j = 0; j < 8; j++)
            got[j] = recv[j] = -1, send[j] = val(me, j, 0, k);
        CHECK(MPI_Start(&aa) == MPI_SUCCESS);
        CHECK(MPI_Start(&ag) == MPI_SUCCESS);
        CHECK(MPI_Wait(&ag, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        CHECK(MPI_Wait(&aa, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        for (int j = 0; j < n; j++) {
            int none = nb[j] == MPI_PROC_NULL;
            CHECKF(got[j] == (none ? -1 : val(nb[j], 0, 0, k)), "round %d allgather_init "
                   "block %d: %d", k, j, got[j]);
            CHECKF(recv[j] == (none ? -1 : val(nb[j], j ^ 1, 0, k)), "round %d alltoall_init "
                   "block %d: %d", k, j, recv[j]);
        }
    }
    MPI_Request_free(&ag);
    MPI_Request_free(&aa);
    MPI_Comm_free(&c);
}

/* The graph of t_graph.c (0 -> 1 3, 1 -> 0, 2 -> 3, 3 -> 0 2) on the first 4 processes, with
 * allgatherv, nonblocking and persistent. */
static void graph(void)
{
    const int indx[4] = {2, 3, 4, 6}, edges[6] = {1, 3, 0, 3, 0, 2};
    MPI_Comm g;
    CHECK(MPI_Graph_create(MPI_COMM_WORLD, 4, indx, edges, 0, &g) == MPI_SUCCESS);
    if (g == MPI_COMM_NULL)
        return;
    int n, nb[2];
    MPI_Graph_neighbors_count(g, rank, &n);
    MPI_Graph_neighbors(g, rank, 2, nb);
    /* rank r sends r + 1 elements; neighbor j's block at 4 * j. */
    int sbuf[4] = {0}, rbuf[8], pbuf[8], counts[2], displs[2];
    for (int j = 0; j < n; j++)
        counts[j] = nb[j] + 1, displs[j] = 4 * j;
    MPI_Request p, q;
    CHECK(MPI_Neighbor_allgatherv_init(sbuf, rank + 1, MPI_INT, pbuf, counts, displs, MPI_INT, g,
                                       MPI_INFO_NULL, &p) == MPI_SUCCESS);
    for (int k = 0; k < ROUNDS; k++) {
        for (int e = 0; e < 4; e++)
            sbuf[e] = val(rank, 0, e, k);
        for (int i = 0; i < 8; i++)
            rbuf[i] = pbuf[i] = -1;
        CHECK(MPI_Start(&p) == MPI_SUCCESS);
        CHECK(MPI_Ineighbor_allgatherv(sbuf, rank + 1, MPI_INT, rbuf, counts, displs, MPI_INT, g,
                                       &q) == MPI_SUCCESS);
        CHECK(MPI_Wait(&q, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        CHECK(MPI_Wait(&p, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        for (int j = 0; j < n; j++)
            for (int e = 0; e < 4; e++) {
                int want = e <= nb[j] ? val(nb[j], 0, e, k) : -1;
                CHECKF(rbuf[4 * j + e] == want, "round %d iallgatherv %d[%d]", k, j, e);
                CHECKF(pbuf[4 * j + e] == want, "round %d allgatherv_init %d[%d]", k, j, e);
            }
    }
    MPI_Request_free(&p);
    MPI_Comm_free(&g);
}

/* A distributed graph: out to r+1 and r+2, in from r-1 and r-2; alltoallw with an int and a
 * double. */
static void dist_graph(void)
{
    int out[2] = {(rank + 1) % size, (rank + 2) % size};
    int in[2] = {(rank + size - 1) % size, (rank + size - 2) % size};
    MPI_Comm d;
    CHECK(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, in, MPI_UNWEIGHTED, 2, out,
                                         MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &d) == MPI_SUCCESS);
    /* Block 0 (an int) goes to r+1, which receives it from its r-1 as block 0; block 1 (a
     * double) goes to r+2, received as block 1. */
    typedef struct { int i; double d; } pair_t;
    pair_t s = {10 * rank, 0.5 + rank}, r = {-1, -1.0};
    int one[2] = {1, 1};
    MPI_Aint disp[2] = {offsetof(pair_t, i), offsetof(pair_t, d)};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};
    MPI_Count onec[2] = {1, 1};
    MPI_Request q;
    CHECK(MPI_Ineighbor_alltoallw(&s, one, disp, types, &r, one, disp, types, d, &q) ==
          MPI_SUCCESS);
    CHECK(MPI_Wait(&q, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    CHECKF(r.i == 10 * in[0] && r.d == 0.5 + in[1], "alltoallw %d %g", r.i, r.d);
    pair_t rc = {-1, -1.0};
    CHECK(MPI_Ineighbor_alltoallw_c(&s, onec, disp, types, &rc, onec, disp, types, d, &q) ==
          MPI_SUCCESS);
    CHECK(MPI_Wait(&q, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    CHECKF(rc.i == 10 * in[0] && rc.d == 0.5 + in[1], "alltoallw_c %d %g", rc.i, rc.d);

    /* Errors: MPI_IN_PLACE is not for neighborhood collectives. */
    int x = 0, y[2];
    CHECK(error_class(MPI_Ineighbor_alltoall(MPI_IN_PLACE, 1, MPI_INT, y, 1, MPI_INT, d, &q))
          == MPI_ERR_BUFFER);
    CHECK(error_class(MPI_Neighbor_allgather_init(&x, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, d,
                                                  MPI_INFO_NULL, &q)) == MPI_ERR_BUFFER);
    MPI_Comm_free(&d);
}

int main(int argc, char **argv)
{
    init_and_run_topologies(&argc, &argv);

    int x = 0, y[8];
    MPI_Request q;
    CHECK(error_class(MPI_Ineighbor_allgather(&x, 1, MPI_INT, y, 1, MPI_INT, MPI_COMM_WORLD,
                                              &q)) == MPI_ERR_TOPOLOGY);
    CHECK(error_class(MPI_Neighbor_alltoallv_init(&x, &x, &x, MPI_INT, y, &x, &x, MPI_INT,
                                                  MPI_COMM_WORLD, MPI_INFO_NULL, &q)) ==
          MPI_ERR_TOPOLOGY);
    MPI_Finalize();
    return CHECK_RESULT();
}
