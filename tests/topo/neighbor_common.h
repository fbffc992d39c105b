/* What t_neighbor.c and t_ineighbor.c share: the helpers, and the run over the topologies both
 * test (each test defines cart(), graph() and dist_graph()). */
#ifndef NEIGHBOR_COMMON_H
#define NEIGHBOR_COMMON_H

#include <mpi.h>
#include <stddef.h>

#include "../check.h"

#pragma GCC diagnostic ignored "-Wstringop-overread"   /* MPI_UNWEIGHTED: see t_graph.c */
#pragma GCC diagnostic ignored "-Wstringop-overflow"

static int rank, size;

static int error_class(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

/* The neighbors of a Cartesian communicator, in the standard's order. */
static int cart_neighbors(MPI_Comm cart, int *nb)
{
    int nd;
    MPI_Cartdim_get(cart, &nd);
    for (int d = 0; d < nd; d++)
        MPI_Cart_shift(cart, d, 1, &nb[2 * d], &nb[2 * d + 1]);
    return 2 * nd;
}

static void cart(MPI_Comm comm, int nd, const int *dims, const int *periods);
static void graph(void);
static void dist_graph(void);

/* MPI_Init, then the test's collectives on every topology (errors are returned). */
static void init_and_run_topologies(int *argc, char ***argv)
{
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    int dims[3] = {0, 0, 0};
    MPI_Dims_create(size, 2, dims);
    cart(MPI_COMM_WORLD, 2, dims, (int[]){1, 1});      /* 4: 2 x 2, both neighbors one process */
    cart(MPI_COMM_WORLD, 2, dims, (int[]){0, 1});
    cart(MPI_COMM_WORLD, 1, (int[]){size}, (int[]){0});
    cart(MPI_COMM_SELF, 1, (int[]){1}, (int[]){1});      /* I am both of my neighbors */
    cart(MPI_COMM_WORLD, 3, (int[]){size / 2, 1, 2}, (int[]){1, 1, 0});
    graph();
    dist_graph();
}

#endif
