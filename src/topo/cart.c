/* Cartesian topologies: MPI_Cart_create, _map, _sub and the queries. Ranks are laid out in
 * row-major order: the last dimension varies fastest. */
#include <stdlib.h>

#include "coll/comm.h"
#include "core/errors.h"
#include "core/progress.h"
#include "core_api.h"
#include "topo/topo.h"

int mica_cart_rank_of(const mica_topo_t *t, const int *coords)
{
    int rank = 0;
    for (int d = 0; d < t->ndims; d++)
        rank = rank * t->dims[d] + coords[d];
    return rank;
}

void mica_cart_coords_of(const mica_topo_t *t, int rank, int *coords)
{
    for (int d = t->ndims - 1; d >= 0; d--) {
        coords[d] = rank % t->dims[d];
        rank /= t->dims[d];
    }
}

int mica_cart_neighbor(const mica_topo_t *t, int rank, int d, long long disp)
{
    int stride = 1;
    for (int i = d + 1; i < t->ndims; i++)
        stride *= t->dims[i];
    int from = rank / stride % t->dims[d];
    long long to = from + disp;
    if (to < 0 || to >= t->dims[d]) {
        if (!t->periods[d])
            return MPI_PROC_NULL;
        to %= t->dims[d];
        if (to < 0)
            to += t->dims[d];
    }
    return rank + ((int)to - from) * stride;
}

/* The arguments describing a grid for `comm` (MPI_Cart_create, MPI_Cart_map); *n is the
 * number of processes of the grid. */
static int check_grid(mica_comm_t *comm, int ndims, const int *dims, const int *periods, int *n)
{
    if (ndims < 0)
        return mica_error(MPI_ERR_ARG, "ndims=%d is negative", ndims);
    if (ndims > 0 && !dims)
        return mica_error(MPI_ERR_ARG, "dims is NULL");
    if (ndims > 0 && !periods)
        return mica_error(MPI_ERR_ARG, "periods is NULL");
    long long size = 1;
    for (int d = 0; d < ndims; d++) {
        if (dims[d] <= 0)
            return mica_error(MPI_ERR_DIMS, "dims[%d]=%d is not positive", d, dims[d]);
        if (size <= comm->size)       /* past the size it is too large anyway: no overflow */
            size *= dims[d];
    }
    if (size > comm->size)
        return mica_error(MPI_ERR_ARG, "the grid of dims has more processes than comm (%d)",
                          comm->size);
    *n = (int)size;
    return MPI_SUCCESS;
}

/* A Cartesian topology of the given grid, for the process of `rank` in it (or NULL when out of
 * memory; rank outside the grid: any, it is not used). */
static mica_topo_t *new_cart(int ndims, const int *dims, const int *periods, int rank, int n)
{
    mica_topo_t *t = mica_topo_new(MPI_CART);
    if (!t)
        return NULL;
    t->ndims = ndims;
    t->dims = mica_topo_ints(dims, ndims);
    t->periods = mica_topo_ints(periods, ndims);
    t->coords = malloc((ndims > 0 ? (size_t)ndims : 1) * sizeof *t->coords);
    if (!t->dims || !t->periods || !t->coords) {
        mica_topo_free(t);
        return NULL;
    }
    for (int d = 0; d < ndims; d++)
        t->periods[d] = t->periods[d] != 0;
    mica_cart_coords_of(t, rank < n ? rank : 0, t->coords);
    return t;
}

int mica_cart_create(mica_comm_t *comm_old, int ndims, const int dims[], const int periods[],
                     int reorder, MPI_Comm *comm_cart)
{
    if (comm_old->inter)
        return mica_error(MPI_ERR_COMM, "comm_old is an intercommunicator: topologies need an "
                          "intracommunicator");
    (void)reorder;                    /* the identity mapping is always a valid one */
    int n, rc = check_grid(comm_old, ndims, dims, periods, &n);
    if (rc != MPI_SUCCESS)
        return rc;
    mica_topo_t *t = NULL;
    if (comm_old->rank < n)
        t = new_cart(ndims, dims, periods, comm_old->rank, n);
    return mica_topo_comm(comm_old, n, t, comm_cart);
}

int mica_cart_map(mica_comm_t *comm, int ndims, const int dims[], const int periods[],
                  int *newrank)
{
    int n, rc = check_grid(comm, ndims, dims, periods, &n);
    if (rc == MPI_SUCCESS)
        *newrank = comm->rank < n ? comm->rank : MPI_UNDEFINED;
    return rc;
}

int mica_cartdim_get(mica_comm_t *comm, int *ndims)
{
    int rc;
    mica_topo_t *t = mica_topo_of(comm, MPI_CART, &rc);
    if (!t)
        return rc;
    *ndims = t->ndims;
    return MPI_SUCCESS;
}

int mica_cart_get(mica_comm_t *comm, int maxdims, int dims[], int periods[], int coords[])
{
    int rc;
    mica_topo_t *t = mica_topo_of(comm, MPI_CART, &rc);
    if (!t)
        return rc;
    if (maxdims < 0)
        return mica_error(MPI_ERR_ARG, "maxdims=%d is negative", maxdims);
    int n = maxdims < t->ndims ? maxdims : t->ndims;
    if (n > 0 && (!dims || !periods || !coords))
        return mica_error(MPI_ERR_ARG, "%s is NULL",
                          !dims ? "dims" : !periods ? "periods" : "coords");
    for (int d = 0; d < n; d++) {
        dims[d] = t->dims[d];
        periods[d] = t->periods[d];
        coords[d] = t->coords[d];
    }
    return MPI_SUCCESS;
}

int mica_cart_rank(mica_comm_t *comm, const int coords[], int *rank)
{
    int rc;
    mica_topo_t *t = mica_topo_of(comm, MPI_CART, &rc);
    if (!t)
        return rc;
    if (t->ndims > 0 && !coords)
        return mica_error(MPI_ERR_ARG, "coords is NULL");
    int r = 0;
    for (int d = 0; d < t->ndims; d++) {
        int c = coords[d];
        if (c < 0 || c >= t->dims[d]) {
            if (!t->periods[d])
                return mica_error(MPI_ERR_ARG, "coords[%d]=%d is outside 0..%d of a "
                                  "non-periodic dimension", d, c, t->dims[d] - 1);
            c %= t->dims[d];
            if (c < 0)
                c += t->dims[d];
        }
        r = r * t->dims[d] + c;
    }
    *rank = r;
    return MPI_SUCCESS;
}

int mica_cart_coords(mica_comm_t *comm, int rank, int maxdims, int coords[])
{
    int rc;
    mica_topo_t *t = mica_topo_of(comm, MPI_CART, &rc);
    if (!t)
        return rc;
    if (maxdims < t->ndims)
        return mica_error(MPI_ERR_ARG, "maxdims=%d is less than the %d dimensions of comm",
                          maxdims, t->ndims);
    if (t->ndims > 0 && !coords)
        return mica_error(MPI_ERR_ARG, "coords is NULL");
    mica_cart_coords_of(t, rank, coords);
    return MPI_SUCCESS;
}

int mica_cart_shift(mica_comm_t *comm, int direction, int disp, int *rank_source,
                    int *rank_dest)
{
    int rc;
    mica_topo_t *t = mica_topo_of(comm, MPI_CART, &rc);
    if (!t)
        return rc;
    if (direction < 0 || direction >= t->ndims)
        return mica_error(MPI_ERR_ARG, "direction=%d is not a dimension of comm (0..%d)",
                          direction, t->ndims - 1);
    *rank_source = mica_cart_neighbor(t, comm->rank, direction, -(long long)disp);
    *rank_dest = mica_cart_neighbor(t, comm->rank, direction, disp);
    return MPI_SUCCESS;
}

int mica_cart_sub(mica_comm_t *comm, const int remain_dims[], MPI_Comm *newcomm)
{
    int rc;
    mica_topo_t *t = mica_topo_of(comm, MPI_CART, &rc);
    if (!t)
        return rc;
    if (t->ndims > 0 && !remain_dims)
        return mica_error(MPI_ERR_ARG, "remain_dims is NULL");
    /* The processes that agree on the dropped coordinates form one subgrid; their rank in it
     * is their row-major index over the kept ones. */
    int color = 0, key = 0, nkept = 0, n = 1;
    int *dims = malloc(((size_t)t->ndims + 1) * sizeof *dims);
    int *periods = malloc(((size_t)t->ndims + 1) * sizeof *periods);
    for (int d = 0; d < t->ndims; d++) {
        if (remain_dims[d]) {
            key = key * t->dims[d] + t->coords[d];
            n *= t->dims[d];
            if (dims && periods) {
                dims[nkept] = t->dims[d];
                periods[nkept] = t->periods[d];
            }
            nkept++;
        } else {
            color = color * t->dims[d] + t->coords[d];
        }
    }
    mica_topo_t *sub = dims && periods ? new_cart(nkept, dims, periods, key, n) : NULL;
    free(dims);
    free(periods);
    /* No dimension kept: the standard's zero-dimensional Cartesian communicator, of size 1, as
     * MPI_Cart_create with ndims 0 makes it: for the process of rank 0 only, the others get
     * MPI_COMM_NULL (as in MPICH, whose topo/cartsuball checks it). */
    if (nkept == 0)
        return mica_topo_comm(comm, 1, sub, newcomm);
    /* Everyone splits, even without memory for the topology: the others wait for us. */
    rc = mica_coll_comm_split(comm, color, key, newcomm);
    if (rc != MPI_SUCCESS) {
        mica_topo_free(sub);
        return rc;
    }
    if (!sub) {
        mica_comm_free(newcomm);
        return mica_error(MPI_ERR_NO_MEM, "no memory for a topology");
    }
    mica_comm_lookup(*newcomm)->topo = sub;
    return MPI_SUCCESS;
}
