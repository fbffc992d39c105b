// np: 4
// Cartesian and graph topologies in C++: Compute_dims, Create_cart, coordinates, Shift, Sub;
// Create_graph and its neighbours; an intercommunicator and Merge.
#include <mpi.h>

#include "../check.h"

int main(int argc, char** argv)
{
    MPI::Init(argc, argv);
    int rank = MPI::COMM_WORLD.Get_rank(), size = MPI::COMM_WORLD.Get_size();
    int dims[2] = {0, 0};
    MPI::Compute_dims(size, 2, dims);
    CHECK(dims[0] * dims[1] == size && dims[0] >= dims[1]);
    bool periods[2] = {true, false};
    MPI::Cartcomm cart = MPI::COMM_WORLD.Create_cart(2, dims, periods, false);
    CHECK(cart.Get_topology() == MPI::CART && cart.Get_dim() == 2);
    int coords[2] = {-1, -1}, d[2];
    bool p[2] = {false, true};
    cart.Get_topo(2, d, p, coords);
    CHECK(d[0] == dims[0] && d[1] == dims[1] && p[0] && !p[1]);
    CHECK(cart.Get_cart_rank(coords) == rank);
    int c2[2];
    cart.Get_coords(rank, 2, c2);
    CHECK(c2[0] == coords[0] && c2[1] == coords[1]);
    int src = -1, dst = -1;
    cart.Shift(0, 1, src, dst);
    int up[2] = {(coords[0] + 1) % dims[0], coords[1]};
    CHECK(dst == cart.Get_cart_rank(up));
    bool keep[2] = {false, true};
    MPI::Cartcomm row = cart.Sub(keep);
    CHECK(row.Get_size() == dims[1] && row.Get_dim() == 1);
    row.Free();
    cart.Free();

    // A ring as a graph.
    int index[4], edges[8];
    for (int i = 0; i < 4; i++) {
        index[i] = 2 * (i + 1);
        edges[2 * i] = (i + 3) % 4;
        edges[2 * i + 1] = (i + 1) % 4;
    }
    MPI::Graphcomm graph = MPI::COMM_WORLD.Create_graph(4, index, edges, false);
    CHECK(graph.Get_topology() == MPI::GRAPH);
    int nn = 0, ne = 0;
    graph.Get_dims(&nn, &ne);
    CHECK(nn == 4 && ne == 8);
    CHECK(graph.Get_neighbors_count(rank) == 2);
    int nb[2];
    graph.Get_neighbors(rank, 2, nb);
    CHECK(nb[0] == (rank + 3) % 4 && nb[1] == (rank + 1) % 4);
    graph.Free();

    // Two halves joined by an intercommunicator, then merged.
    MPI::Intracomm half = MPI::COMM_WORLD.Split(rank < 2, rank);
    MPI::Intercomm inter = half.Create_intercomm(0, MPI::COMM_WORLD, rank < 2 ? 2 : 0, 5);
    CHECK(inter.Is_inter() && inter.Get_remote_size() == 2);
    MPI::Intracomm merged = inter.Merge(rank >= 2);
    CHECK(merged.Get_size() == 4 && merged.Get_rank() == rank);
    merged.Free();
    inter.Free();
    half.Free();
    MPI::Finalize();
    return CHECK_RESULT();
}
