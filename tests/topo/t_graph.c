/* np: 4 */
/* Graph and distributed graph topologies: MPI_Graph_create (the standard's example graph,
 * fewer nodes than processes), its queries, MPI_Graph_map; MPI_Dist_graph_create_adjacent
 * weighted and unweighted; MPI_Dist_graph_create with edges named by other processes and
 * MPI_WEIGHTS_EMPTY; duplicates keep the topology; error classes. */
#include <mpi.h>
#include <stdlib.h>

#include "../check.h"

/* The ABI's MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY are small constant addresses, which GCC takes
 * for pointers to empty objects when they are passed for array parameters. */
#pragma GCC diagnostic ignored "-Wstringop-overread"
#pragma GCC diagnostic ignored "-Wstringop-overflow"

static int rank, size;

static int error_class(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

static int topo_of(MPI_Comm comm)
{
    int t = -1;
    CHECK(MPI_Topo_test(comm, &t) == MPI_SUCCESS);
    return t;
}

/* The standard's example: 0 -> 1 3, 1 -> 0, 2 -> 3, 3 -> 0 2. */
static const int indx[4] = {2, 3, 4, 6}, edges[6] = {1, 3, 0, 3, 0, 2};

static void check_graph(MPI_Comm g)
{
    int nnodes = -1, nedges = -1;
    CHECK(topo_of(g) == MPI_GRAPH);
    CHECK(MPI_Graphdims_get(g, &nnodes, &nedges) == MPI_SUCCESS && nnodes == 4 && nedges == 6);
    int gi[4] = {0}, ge[6] = {0};
    CHECK(MPI_Graph_get(g, 4, 6, gi, ge) == MPI_SUCCESS);
    for (int i = 0; i < 4; i++)
        CHECK(gi[i] == indx[i]);
    for (int i = 0; i < 6; i++)
        CHECK(ge[i] == edges[i]);
    for (int node = 0; node < 4; node++) {
        int n = -1, nb[4] = {-1, -1, -1, -1}, first = node ? indx[node - 1] : 0;
        CHECK(MPI_Graph_neighbors_count(g, node, &n) == MPI_SUCCESS && n == indx[node] - first);
        CHECK(MPI_Graph_neighbors(g, node, 4, nb) == MPI_SUCCESS);
        for (int i = 0; i < n; i++)
            CHECK(nb[i] == edges[first + i]);
    }
    int n;
    CHECK(error_class(MPI_Graph_neighbors_count(g, 4, &n)) == MPI_ERR_RANK);
}

static void graph(void)
{
    MPI_Comm g, dup;
    CHECK(MPI_Graph_create(MPI_COMM_WORLD, 4, indx, edges, 0, &g) == MPI_SUCCESS);
    check_graph(g);
    CHECK(MPI_Comm_dup(g, &dup) == MPI_SUCCESS);
    MPI_Comm_free(&g);
    check_graph(dup);
    int nd;
    CHECK(error_class(MPI_Cartdim_get(dup, &nd)) == MPI_ERR_TOPOLOGY);
    MPI_Comm_free(&dup);

    /* Three nodes: the fourth process gets no communicator. */
    const int i3[3] = {1, 2, 3}, e3[3] = {1, 2, 0};
    int nr = -7;
    CHECK(MPI_Graph_create(MPI_COMM_WORLD, 3, i3, e3, 1, &g) == MPI_SUCCESS);
    CHECK(MPI_Graph_map(MPI_COMM_WORLD, 3, i3, e3, &nr) == MPI_SUCCESS);
    if (rank == 3) {
        CHECK(g == MPI_COMM_NULL && nr == MPI_UNDEFINED);
    } else {
        int n = -1, nb = -1;
        MPI_Comm_size(g, &n);
        CHECK(n == 3 && nr == rank);
        CHECK(MPI_Graph_neighbors(g, rank, 1, &nb) == MPI_SUCCESS && nb == (rank + 1) % 3);
        MPI_Comm_free(&g);
    }

    /* Errors. */
    g = MPI_COMM_NULL;
    CHECK(error_class(MPI_Graph_create(MPI_COMM_WORLD, 5, (int[]){1, 2, 3, 4, 5},
                                       (int[]){0, 0, 0, 0, 0}, 0, &g)) == MPI_ERR_ARG);
    CHECK(error_class(MPI_Graph_create(MPI_COMM_WORLD, 2, (int[]){1, 0}, (int[]){1}, 0, &g))
          == MPI_ERR_ARG);                               /* index decreases */
    CHECK(error_class(MPI_Graph_create(MPI_COMM_WORLD, 2, (int[]){1, 2}, (int[]){1, 2}, 0, &g))
          == MPI_ERR_ARG);                               /* node 2 does not exist */
    CHECK(g == MPI_COMM_NULL);
    int nn, ne;
    CHECK(error_class(MPI_Graphdims_get(MPI_COMM_WORLD, &nn, &ne)) == MPI_ERR_TOPOLOGY);
}

/* Ring: in from the left, out to the right. */
static void adjacent(void)
{
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    MPI_Comm d, dup;
    CHECK(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &left, (int[]){left + 10}, 1, &right,
                                         (int[]){rank + 10}, MPI_INFO_NULL, 0, &d)
          == MPI_SUCCESS);
    CHECK(topo_of(d) == MPI_DIST_GRAPH);
    CHECK(MPI_Comm_dup(d, &dup) == MPI_SUCCESS);
    MPI_Comm_free(&d);
    int in = -1, out = -1, w = -1;
    CHECK(MPI_Dist_graph_neighbors_count(dup, &in, &out, &w) == MPI_SUCCESS);
    CHECK(in == 1 && out == 1 && w == 1);
    int s = -1, sw = -1, t = -1, tw = -1;
    CHECK(MPI_Dist_graph_neighbors(dup, 1, &s, &sw, 1, &t, &tw) == MPI_SUCCESS);
    CHECK(s == left && sw == left + 10 && t == right && tw == rank + 10);
    CHECK(error_class(MPI_Dist_graph_neighbors(dup, 0, &s, &sw, 1, &t, &tw)) == MPI_ERR_ARG);
    MPI_Comm_free(&dup);

    /* Unweighted: the weight arrays are never touched. */
    CHECK(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &left, MPI_UNWEIGHTED, 1, &right,
                                         MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &d) == MPI_SUCCESS);
    CHECK(MPI_Dist_graph_neighbors_count(d, &in, &out, &w) == MPI_SUCCESS && w == 0);
    sw = tw = -9;
    CHECK(MPI_Dist_graph_neighbors(d, 1, &s, &sw, 1, &t, &tw) == MPI_SUCCESS);
    CHECK(s == left && t == right && sw == -9 && tw == -9);
    CHECK(MPI_Dist_graph_neighbors(d, 1, &s, MPI_UNWEIGHTED, 1, &t, MPI_UNWEIGHTED)
          == MPI_SUCCESS);
    MPI_Comm_free(&d);

    /* No edges at all, weighted. */
    CHECK(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 0, NULL, MPI_WEIGHTS_EMPTY, 0, NULL,
                                         MPI_WEIGHTS_EMPTY, MPI_INFO_NULL, 0, &d) == MPI_SUCCESS);
    CHECK(MPI_Dist_graph_neighbors_count(d, &in, &out, &w) == MPI_SUCCESS);
    CHECK(in == 0 && out == 0 && w == 1);
    MPI_Comm_free(&d);

    d = MPI_COMM_NULL;
    CHECK(error_class(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, (int[]){size},
                                                     MPI_UNWEIGHTED, 0, NULL, MPI_UNWEIGHTED,
                                                     MPI_INFO_NULL, 0, &d)) == MPI_ERR_RANK);
    CHECK(error_class(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &left, (int[]){-1}, 0,
                                                     NULL, MPI_WEIGHTS_EMPTY, MPI_INFO_NULL, 0,
                                                     &d)) == MPI_ERR_ARG);
    CHECK(error_class(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, -1, NULL, MPI_UNWEIGHTED, 0,
                                                     NULL, MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                                     &d)) == MPI_ERR_ARG);
    CHECK(d == MPI_COMM_NULL);
    CHECK(error_class(MPI_Dist_graph_neighbors_count(MPI_COMM_WORLD, &in, &out, &w))
          == MPI_ERR_TOPOLOGY);
}

static int by_value(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

/* Each process names its edges to r+1 and r+2 (weight 100 * from + to); rank 0 also names the
 * edge 2 -> 0 (weight 777) on rank 2's behalf. */
static void general(void)
{
    int srcs[2] = {rank, 2}, degs[2] = {2, 1};
    int dsts[3] = {(rank + 1) % size, (rank + 2) % size, 0};
    int wts[3] = {100 * rank + dsts[0], 100 * rank + dsts[1], 777};
    MPI_Comm d;
    CHECK(MPI_Dist_graph_create(MPI_COMM_WORLD, rank == 0 ? 2 : 1, srcs, degs, dsts, wts,
                                MPI_INFO_NULL, 0, &d) == MPI_SUCCESS);
    int in = -1, out = -1, w = -1;
    CHECK(MPI_Dist_graph_neighbors_count(d, &in, &out, &w) == MPI_SUCCESS);
    int extra_out = rank == 2, extra_in = rank == 0;
    CHECKF(in == 2 + extra_in && out == 2 + extra_out && w == 1, "in %d out %d", in, out);
    int s[3], sw[3], t[3], tw[3];
    CHECK(MPI_Dist_graph_neighbors(d, 3, s, sw, 3, t, tw) == MPI_SUCCESS);
    /* Each edge comes with its weight; compare as sorted lists of (peer, weight) codes. */
    int got_in[3], got_out[3], want_in[3], want_out[3];
    for (int i = 0; i < in; i++)
        got_in[i] = 1000 * s[i] + sw[i];
    for (int i = 0; i < out; i++)
        got_out[i] = 1000 * t[i] + tw[i];
    int l1 = (rank + size - 1) % size, l2 = (rank + size - 2) % size;
    want_in[0] = 1000 * l1 + 100 * l1 + rank;
    want_in[1] = 1000 * l2 + 100 * l2 + rank;
    want_in[2] = 1000 * 2 + 777;
    want_out[0] = 1000 * dsts[0] + wts[0];
    want_out[1] = 1000 * dsts[1] + wts[1];
    want_out[2] = 777;
    qsort(got_in, (size_t)in, sizeof(int), by_value);
    qsort(got_out, (size_t)out, sizeof(int), by_value);
    qsort(want_in, (size_t)in, sizeof(int), by_value);
    qsort(want_out, (size_t)out, sizeof(int), by_value);
    for (int i = 0; i < in && i < 3; i++)
        CHECKF(got_in[i] == want_in[i], "in %d: %d, want %d", i, got_in[i], want_in[i]);
    for (int i = 0; i < out && i < 3; i++)
        CHECKF(got_out[i] == want_out[i], "out %d: %d, want %d", i, got_out[i], want_out[i]);
    MPI_Comm_free(&d);

    /* Rank 1 names every edge of the ring; the others name none (MPI_WEIGHTS_EMPTY). */
    int ring_src[4] = {0, 1, 2, 3}, ones[4] = {1, 1, 1, 1}, ring_dst[4] = {1, 2, 3, 0};
    int ring_w[4] = {5, 6, 7, 8};
    CHECK(MPI_Dist_graph_create(MPI_COMM_WORLD, rank == 1 ? 4 : 0, ring_src, ones, ring_dst,
                                rank == 1 ? ring_w : MPI_WEIGHTS_EMPTY, MPI_INFO_NULL, 0, &d)
          == MPI_SUCCESS);
    CHECK(MPI_Dist_graph_neighbors_count(d, &in, &out, &w) == MPI_SUCCESS);
    CHECK(in == 1 && out == 1 && w == 1);
    CHECK(MPI_Dist_graph_neighbors(d, 1, s, sw, 1, t, tw) == MPI_SUCCESS);
    CHECK(s[0] == (rank + 3) % 4 && sw[0] == 5 + (rank + 3) % 4);
    CHECK(t[0] == (rank + 1) % 4 && tw[0] == 5 + rank);
    MPI_Comm_free(&d);

    /* Unweighted, with nobody naming anything. */
    CHECK(MPI_Dist_graph_create(MPI_COMM_WORLD, 0, NULL, NULL, NULL, MPI_UNWEIGHTED,
                                MPI_INFO_NULL, 0, &d) == MPI_SUCCESS);
    CHECK(MPI_Dist_graph_neighbors_count(d, &in, &out, &w) == MPI_SUCCESS);
    CHECK(in == 0 && out == 0 && w == 0);
    MPI_Comm_free(&d);

    d = MPI_COMM_NULL;
    CHECK(error_class(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &rank, (int[]){1}, (int[]){-1},
                                            MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &d))
          == MPI_ERR_RANK);
    CHECK(error_class(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &rank, (int[]){-1}, NULL,
                                            MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &d)) == MPI_ERR_ARG);
    CHECK(error_class(MPI_Dist_graph_create(MPI_COMM_WORLD, -1, NULL, NULL, NULL,
                                            MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &d)) == MPI_ERR_ARG);
    CHECK(d == MPI_COMM_NULL);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (size != 4) {
        printf("t_graph needs 4 processes\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    graph();
    adjacent();
    general();
    MPI_Finalize();
    return CHECK_RESULT();
}
