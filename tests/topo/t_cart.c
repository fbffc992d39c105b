/* np: 4 6 */
/* Cartesian topologies: MPI_Cart_create (periods, ranks beyond the grid, zero dimensions),
 * the queries, MPI_Cart_rank's wrap-around and its error outside a non-periodic dimension,
 * MPI_Cart_shift at periodic and non-periodic edges, MPI_Cart_sub, MPI_Cart_map, MPI_Topo_test,
 * MPI_Comm_dup keeping the topology and MPI_Comm_split dropping it, and the error classes. */
#include <mpi.h>

#include "../check.h"

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

/* A 2-D grid d0 x d1 of every process, periodic in dimension 0 only. */
static void grid(void)
{
    int dims[2] = {0, 0}, periods[2] = {1, 0}, coords[2];
    MPI_Dims_create(size, 2, dims);
    CHECK(dims[0] * dims[1] == size && dims[0] >= dims[1]);
    int d0 = dims[0], d1 = dims[1];
    MPI_Comm cart;
    CHECK(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 1, &cart) == MPI_SUCCESS);
    CHECK(cart != MPI_COMM_NULL);
    int r = -1, n = -1, nd = -1;
    MPI_Comm_rank(cart, &r);
    MPI_Comm_size(cart, &n);
    CHECK(r == rank && n == size);    /* no reordering */
    CHECK(topo_of(cart) == MPI_CART);
    CHECK(MPI_Cartdim_get(cart, &nd) == MPI_SUCCESS && nd == 2);
    int gd[2] = {-1, -1}, gp[2] = {-1, -1}, gc[2] = {-1, -1};
    CHECK(MPI_Cart_get(cart, 2, gd, gp, gc) == MPI_SUCCESS);
    CHECK(gd[0] == d0 && gd[1] == d1 && gp[0] == 1 && gp[1] == 0);
    int c0 = rank / d1, c1 = rank % d1;  /* row-major */
    CHECKF(gc[0] == c0 && gc[1] == c1, "coords %d,%d", gc[0], gc[1]);

    /* Rank <-> coordinates for every rank. */
    for (int q = 0; q < size; q++) {
        CHECK(MPI_Cart_coords(cart, q, 2, coords) == MPI_SUCCESS);
        CHECK(coords[0] == q / d1 && coords[1] == q % d1);
        int back = -1;
        CHECK(MPI_Cart_rank(cart, coords, &back) == MPI_SUCCESS && back == q);
    }
    /* Periodic dimension 0 wraps, both ways and by many turns. */
    int rr = -1;
    CHECK(MPI_Cart_rank(cart, (int[]){-1, c1}, &rr) == MPI_SUCCESS && rr == (d0 - 1) * d1 + c1);
    CHECK(MPI_Cart_rank(cart, (int[]){c0 + 3 * d0, c1}, &rr) == MPI_SUCCESS && rr == rank);
    /* Non-periodic dimension 1: outside is an error. */
    CHECK(error_class(MPI_Cart_rank(cart, (int[]){0, d1}, &rr)) == MPI_ERR_ARG);
    CHECK(error_class(MPI_Cart_rank(cart, (int[]){0, -1}, &rr)) == MPI_ERR_ARG);

    /* Shifts. */
    int src = -5, dst = -5;
    CHECK(MPI_Cart_shift(cart, 0, 1, &src, &dst) == MPI_SUCCESS);
    CHECK(src == ((c0 - 1 + d0) % d0) * d1 + c1 && dst == ((c0 + 1) % d0) * d1 + c1);
    CHECK(MPI_Cart_shift(cart, 0, -2 * d0 - 1, &src, &dst) == MPI_SUCCESS);
    CHECK(src == ((c0 + 1) % d0) * d1 + c1 && dst == ((c0 - 1 + d0) % d0) * d1 + c1);
    CHECK(MPI_Cart_shift(cart, 1, 1, &src, &dst) == MPI_SUCCESS);
    CHECK(src == (c1 > 0 ? rank - 1 : MPI_PROC_NULL));
    CHECK(dst == (c1 < d1 - 1 ? rank + 1 : MPI_PROC_NULL));
    CHECK(MPI_Cart_shift(cart, 1, d1, &src, &dst) == MPI_SUCCESS);
    CHECK(src == MPI_PROC_NULL && dst == MPI_PROC_NULL);
    CHECK(MPI_Cart_shift(cart, 1, 0, &src, &dst) == MPI_SUCCESS && src == rank && dst == rank);
    CHECK(error_class(MPI_Cart_shift(cart, 2, 1, &src, &dst)) == MPI_ERR_ARG);
    CHECK(error_class(MPI_Cart_shift(cart, -1, 1, &src, &dst)) == MPI_ERR_ARG);
    CHECK(error_class(MPI_Cart_coords(cart, 0, 1, coords)) == MPI_ERR_ARG);
    CHECK(error_class(MPI_Cart_coords(cart, size, 2, coords)) == MPI_ERR_RANK);

    /* Sub-grids: the rows (dimension 1 kept) and the columns (dimension 0 kept). */
    MPI_Comm row, col, point;
    CHECK(MPI_Cart_sub(cart, (int[]){0, 1}, &row) == MPI_SUCCESS);
    MPI_Comm_rank(row, &r);
    MPI_Comm_size(row, &n);
    CHECK(r == c1 && n == d1 && topo_of(row) == MPI_CART);
    CHECK(MPI_Cart_get(row, 2, gd, gp, gc) == MPI_SUCCESS);
    CHECK(MPI_Cartdim_get(row, &nd) == MPI_SUCCESS && nd == 1);
    CHECK(gd[0] == d1 && gp[0] == 0 && gc[0] == c1);
    int sum = -1;
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, row);
    CHECK(sum == c0 * d1 * d1 + d1 * (d1 - 1) / 2);
    CHECK(MPI_Cart_sub(cart, (int[]){1, 0}, &col) == MPI_SUCCESS);
    MPI_Comm_rank(col, &r);
    MPI_Comm_size(col, &n);
    CHECK(r == c0 && n == d0);
    CHECK(MPI_Cart_get(col, 1, gd, gp, gc) == MPI_SUCCESS && gd[0] == d0 && gp[0] == 1);
    CHECK(MPI_Cart_shift(col, 0, 1, &src, &dst) == MPI_SUCCESS && dst == (c0 + 1) % d0);
    /* Nothing kept: a zero-dimensional grid of one process, rank 0's; the others get none. */
    CHECK(MPI_Cart_sub(cart, (int[]){0, 0}, &point) == MPI_SUCCESS);
    if (rank == 0) {
        int cmp;
        MPI_Comm_size(point, &n);
        CHECK(n == 1 && topo_of(point) == MPI_CART);
        CHECK(MPI_Cartdim_get(point, &nd) == MPI_SUCCESS && nd == 0);
        CHECK(MPI_Comm_compare(point, MPI_COMM_SELF, &cmp) == MPI_SUCCESS && cmp == MPI_CONGRUENT);
        /* and from it, again the zero-dimensional grid */
        MPI_Comm again;
        CHECK(MPI_Cart_sub(point, (int[]){0}, &again) == MPI_SUCCESS && again != MPI_COMM_NULL);
        CHECK(MPI_Cartdim_get(again, &nd) == MPI_SUCCESS && nd == 0);
        MPI_Comm_free(&again);
        MPI_Comm_free(&point);
    } else {
        CHECK(point == MPI_COMM_NULL);
    }
    MPI_Comm_free(&row);
    MPI_Comm_free(&col);

    /* A duplicate is Cartesian too, with the same grid; a split is not. */
    MPI_Comm dup, split;
    CHECK(MPI_Comm_dup(cart, &dup) == MPI_SUCCESS);
    CHECK(topo_of(dup) == MPI_CART);
    CHECK(MPI_Cart_get(dup, 2, gd, gp, gc) == MPI_SUCCESS);
    CHECK(gd[0] == d0 && gd[1] == d1 && gp[0] == 1 && gp[1] == 0 && gc[0] == c0 && gc[1] == c1);
    CHECK(MPI_Comm_split(cart, 0, rank, &split) == MPI_SUCCESS);
    CHECK(topo_of(split) == MPI_UNDEFINED);
    CHECK(error_class(MPI_Cartdim_get(split, &nd)) == MPI_ERR_TOPOLOGY);
    MPI_Comm_free(&cart);             /* the duplicate keeps its own copy */
    CHECK(MPI_Cart_shift(dup, 0, 1, &src, &dst) == MPI_SUCCESS);
    CHECK(dst == ((c0 + 1) % d0) * d1 + c1);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&split);
}

/* A grid smaller than the communicator: the last rank is left out. */
static void smaller(void)
{
    MPI_Comm line;
    int dims[1] = {size - 1}, periods[1] = {0}, nr = -7;
    CHECK(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &line) == MPI_SUCCESS);
    CHECK(MPI_Cart_map(MPI_COMM_WORLD, 1, dims, periods, &nr) == MPI_SUCCESS);
    if (rank == size - 1) {
        CHECK(line == MPI_COMM_NULL);
        CHECK(nr == MPI_UNDEFINED);
    } else {
        int n = -1;
        CHECK(line != MPI_COMM_NULL && nr == rank);
        MPI_Comm_size(line, &n);
        CHECK(n == size - 1);
        int src, dst;
        MPI_Cart_shift(line, 0, 1, &src, &dst);
        CHECK(dst == (rank + 1 < size - 1 ? rank + 1 : MPI_PROC_NULL));
        MPI_Comm_free(&line);
    }
    /* Zero dimensions: a grid of one process. */
    MPI_Comm zero;
    CHECK(MPI_Cart_create(MPI_COMM_WORLD, 0, NULL, NULL, 0, &zero) == MPI_SUCCESS);
    if (rank == 0) {
        int n = -1, nd = -1;
        CHECK(zero != MPI_COMM_NULL);
        MPI_Comm_size(zero, &n);
        CHECK(n == 1 && MPI_Cartdim_get(zero, &nd) == MPI_SUCCESS && nd == 0);
        int r = -1;
        CHECK(MPI_Cart_rank(zero, NULL, &r) == MPI_SUCCESS && r == 0);
        MPI_Comm_free(&zero);
    } else {
        CHECK(zero == MPI_COMM_NULL);
    }
}

static void errors(void)
{
    MPI_Comm c = MPI_COMM_NULL;
    int nd, r, src, dst;
    CHECK(topo_of(MPI_COMM_WORLD) == MPI_UNDEFINED);
    CHECK(topo_of(MPI_COMM_SELF) == MPI_UNDEFINED);
    CHECK(error_class(MPI_Cartdim_get(MPI_COMM_WORLD, &nd)) == MPI_ERR_TOPOLOGY);
    CHECK(error_class(MPI_Cart_rank(MPI_COMM_WORLD, (int[]){0}, &r)) == MPI_ERR_TOPOLOGY);
    CHECK(error_class(MPI_Cart_shift(MPI_COMM_WORLD, 0, 1, &src, &dst)) == MPI_ERR_TOPOLOGY);
    CHECK(error_class(MPI_Cart_sub(MPI_COMM_WORLD, (int[]){1}, &c)) == MPI_ERR_TOPOLOGY);
    c = MPI_COMM_WORLD;               /* a failed call leaves the null handle (MPICH's cartsmall) */
    CHECK(error_class(MPI_Cart_create(MPI_COMM_WORLD, 1, (int[]){size + 1}, (int[]){0}, 0, &c))
          == MPI_ERR_ARG);
    CHECK(c == MPI_COMM_NULL);
    CHECK(error_class(MPI_Cart_create(MPI_COMM_WORLD, 2, (int[]){size, 0}, (int[]){0, 0}, 0, &c))
          == MPI_ERR_DIMS);
    CHECK(error_class(MPI_Cart_create(MPI_COMM_WORLD, -1, (int[]){1}, (int[]){0}, 0, &c))
          == MPI_ERR_ARG);
    CHECK(error_class(MPI_Cart_create(MPI_COMM_WORLD, 1, NULL, (int[]){0}, 0, &c)) == MPI_ERR_ARG);
    CHECK(error_class(MPI_Cart_map(MPI_COMM_WORLD, 1, (int[]){-1}, (int[]){0}, &r))
          == MPI_ERR_DIMS);
    CHECK(c == MPI_COMM_NULL);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    grid();
    smaller();
    errors();
    MPI_Finalize();
    return CHECK_RESULT();
}
