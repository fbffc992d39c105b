/* np: 4 6 */
/* Neighborhood collectives: allgather(v), alltoall(v,w) and a large-count form on a Cartesian
 * grid (the -1 neighbor then the +1 one per dimension; what goes to the -1 neighbor arrives in
 * its +1 block, also where both are one process; MPI_PROC_NULL blocks untouched), on a graph
 * and on a distributed graph; errors without a topology and with MPI_IN_PLACE. */
#include "neighbor_common.h"

static void cart(MPI_Comm comm, int nd, const int *dims, const int *periods)
{
    MPI_Comm c;
    int me;
    CHECK(MPI_Cart_create(comm, nd, dims, periods, 0, &c) == MPI_SUCCESS);
    MPI_Comm_rank(c, &me);
    int nb[8], n = cart_neighbors(c, nb);

    /* allgather: block j holds neighbor j's rank, or stays -1. */
    int got[8];
    for (int j = 0; j < 8; j++)
        got[j] = -1;
    CHECK(MPI_Neighbor_allgather(&me, 1, MPI_INT, got, 1, MPI_INT, c) == MPI_SUCCESS);
    for (int j = 0; j < n; j++)
        CHECKF(got[j] == (nb[j] == MPI_PROC_NULL ? -1 : nb[j]), "allgather block %d: %d, "
               "neighbor %d", j, got[j], nb[j]);

    /* alltoall: block s sent lands in block s ^ 1 of the neighbor. */
    int send[8], recv[8];
    for (int j = 0; j < 8; j++)
        send[j] = 100 * me + j, recv[j] = -1;
    CHECK(MPI_Neighbor_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, c) == MPI_SUCCESS);
    for (int j = 0; j < n; j++) {
        int want = nb[j] == MPI_PROC_NULL ? -1 : 100 * nb[j] + (j ^ 1);
        CHECKF(recv[j] == want, "alltoall block %d: %d, want %d", j, recv[j], want);
    }
    /* The same with the large-count form. */
    for (int j = 0; j < 8; j++)
        recv[j] = -1;
    CHECK(MPI_Neighbor_alltoall_c(send, 1, MPI_INT, recv, 1, MPI_INT, c) == MPI_SUCCESS);
    for (int j = 0; j < n; j++)
        CHECK(recv[j] == (nb[j] == MPI_PROC_NULL ? -1 : 100 * nb[j] + (j ^ 1)));

    /* alltoallv: block j has j + 1 elements, received at displacement 10 * j. */
    int scounts[8], sdispls[8], rcounts[8], rdispls[8], sbuf[80], rbuf[80];
    for (int j = 0; j < n; j++) {
        scounts[j] = j + 1, sdispls[j] = 10 * j;
        rcounts[j] = (j ^ 1) + 1, rdispls[j] = 10 * j;
        for (int k = 0; k <= j; k++)
            sbuf[10 * j + k] = 1000 * me + 10 * j + k;
    }
    for (int i = 0; i < 80; i++)
        rbuf[i] = -1;
    CHECK(MPI_Neighbor_alltoallv(sbuf, scounts, sdispls, MPI_INT, rbuf, rcounts, rdispls,
                                 MPI_INT, c) == MPI_SUCCESS);
    for (int j = 0; j < n; j++)
        for (int k = 0; k < rcounts[j]; k++) {
            int want = nb[j] == MPI_PROC_NULL ? -1 : 1000 * nb[j] + 10 * (j ^ 1) + k;
            CHECKF(rbuf[10 * j + k] == want, "alltoallv block %d[%d]: %d, want %d", j, k,
                   rbuf[10 * j + k], want);
        }
    MPI_Comm_free(&c);
}

/* The graph of t_graph.c (0 -> 1 3, 1 -> 0, 2 -> 3, 3 -> 0 2) on the first 4 processes, with
 * allgatherv and alltoallw. */
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
    /* allgatherv: rank r sends r + 1 copies of r; neighbor j's block at 4 * j. */
    int sbuf[4] = {rank, rank, rank, rank}, rbuf[8], counts[2], displs[2];
    for (int j = 0; j < n; j++)
        counts[j] = nb[j] + 1, displs[j] = 4 * j;
    for (int i = 0; i < 8; i++)
        rbuf[i] = -1;
    CHECK(MPI_Neighbor_allgatherv(sbuf, rank + 1, MPI_INT, rbuf, counts, displs, MPI_INT, g)
          == MPI_SUCCESS);
    for (int j = 0; j < n; j++)
        for (int k = 0; k < 4; k++)
            CHECK(rbuf[4 * j + k] == (k <= nb[j] ? nb[j] : -1));

    /* alltoallw: an int to the first neighbor, a double to the second (byte displacements);
     * block j of the receive buffer is in[j], filled with whatever neighbor j sends me: its
     * int if I am its first neighbor, else its double. */
    typedef struct { int i; double d; } pair_t;
    pair_t out = {10 * rank, 0.5 + rank}, in[2] = {{-1, -1.0}, {-1, -1.0}};
    int sc[2] = {1, 1}, rc[2] = {1, 1}, first_of[2];
    MPI_Aint sd[2] = {offsetof(pair_t, i), offsetof(pair_t, d)}, rd[2];
    MPI_Datatype st[2] = {MPI_INT, MPI_DOUBLE}, rt[2];
    for (int j = 0; j < n; j++) {
        first_of[j] = edges[nb[j] ? indx[nb[j] - 1] : 0] == rank;
        rt[j] = first_of[j] ? MPI_INT : MPI_DOUBLE;
        rd[j] = j * (MPI_Aint)sizeof(pair_t) + (first_of[j] ? offsetof(pair_t, i) :
                                                offsetof(pair_t, d));
    }
    CHECK(MPI_Neighbor_alltoallw(&out, sc, sd, st, in, rc, rd, rt, g) == MPI_SUCCESS);
    for (int j = 0; j < n; j++) {
        if (first_of[j])
            CHECKF(in[j].i == 10 * nb[j] && in[j].d == -1.0, "int %d", in[j].i);
        else
            CHECKF(in[j].d == 0.5 + nb[j] && in[j].i == -1, "double %g", in[j].d);
    }
    MPI_Comm_free(&g);
}

/* A distributed graph: out to r+1 and r+2, in from r-1 and r-2 (the order given). */
static void dist_graph(void)
{
    int out[2] = {(rank + 1) % size, (rank + 2) % size};
    int in[2] = {(rank + size - 1) % size, (rank + size - 2) % size};
    MPI_Comm d;
    CHECK(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, in, MPI_UNWEIGHTED, 2, out,
                                         MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &d) == MPI_SUCCESS);
    int send[2] = {10 * rank + 1, 10 * rank + 2}, recv[2] = {-1, -1};
    CHECK(MPI_Neighbor_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, d) == MPI_SUCCESS);
    CHECK(recv[0] == 10 * in[0] + 1 && recv[1] == 10 * in[1] + 2);
    int all[2] = {-1, -1};
    CHECK(MPI_Neighbor_allgather(&rank, 1, MPI_INT, all, 1, MPI_INT, d) == MPI_SUCCESS);
    CHECK(all[0] == in[0] && all[1] == in[1]);
    /* Errors: MPI_IN_PLACE is not for neighborhood collectives. */
    CHECK(error_class(MPI_Neighbor_alltoall(MPI_IN_PLACE, 1, MPI_INT, recv, 1, MPI_INT, d))
          == MPI_ERR_BUFFER);
    CHECK(error_class(MPI_Neighbor_allgather(send, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, d))
          == MPI_ERR_BUFFER);
    MPI_Comm_free(&d);
}

int main(int argc, char **argv)
{
    init_and_run_topologies(&argc, &argv);

    int x = 0, y[8];
    CHECK(error_class(MPI_Neighbor_allgather(&x, 1, MPI_INT, y, 1, MPI_INT, MPI_COMM_WORLD))
          == MPI_ERR_TOPOLOGY);
    CHECK(error_class(MPI_Neighbor_alltoallv(&x, &x, &x, MPI_INT, y, &x, &x, MPI_INT,
                                             MPI_COMM_WORLD)) == MPI_ERR_TOPOLOGY);
    MPI_Finalize();
    return CHECK_RESULT();
}
