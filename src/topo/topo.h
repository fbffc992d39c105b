/* Process topologies: the Cartesian, graph and distributed graph structure a communicator may
 * carry (comm->topo), and what the neighborhood collectives need of it.
 *
 * A topology belongs to one communicator: MPI_Comm_dup copies it, MPI_Comm_free frees it, and
 * communicators made any other way have none. Reordering is never done: rank i of a new
 * topology communicator is rank i of the old one. */
#ifndef MICA_TOPO_H
#define MICA_TOPO_H

#include "core/comm.h"

typedef struct mica_topo {
    int kind;                         /* MPI_CART, MPI_GRAPH or MPI_DIST_GRAPH */
    /* MPI_CART: the grid, and this process's place in it */
    int ndims;
    int *dims, *periods, *coords;
    /* MPI_GRAPH: the whole graph, as MPI_Graph_create took it */
    int nnodes;
    int *index, *edges;
    /* MPI_DIST_GRAPH: this process's edges; the weight arrays are NULL when unweighted */
    int indegree, outdegree, weighted;
    int *sources, *sourceweights, *destinations, *destweights;
} mica_topo_t;

/* A new empty topology of `kind` (NULL when out of memory), and freeing one (NULL is fine). */
mica_topo_t *mica_topo_new(int kind);
void mica_topo_free(mica_topo_t *topo);
/* A copy of `topo` for a duplicated communicator; MPI_SUCCESS or MPI_ERR_NO_MEM. */
int mica_topo_copy(const mica_topo_t *topo, mica_topo_t **copy);
/* Register the topology as a communicator extension (core/comm.h; at MPI's start). */
void mica_topo_register(void);
/* A malloc'd copy of n ints (n may be 0; `src` may then be NULL); NULL when out of memory. */
int *mica_topo_ints(const int *src, int n);

/* The new communicator of ranks 0..n-1 of `comm` (MPI_COMM_NULL at the others), carrying
 * `topo` (taken over, freed where no communicator results). Collective over `comm`. */
int mica_topo_comm(mica_comm_t *comm, int n, mica_topo_t *topo, MPI_Comm *newcomm);
/* `comm`'s topology if it is of `kind`, else NULL with *rc an MPI_ERR_TOPOLOGY error. */
mica_topo_t *mica_topo_of(mica_comm_t *comm, int kind, int *rc);

/* Cartesian helpers: the rank at `coords` (already in range), and the coordinates of `rank`. */
int mica_cart_rank_of(const mica_topo_t *topo, const int *coords);
void mica_cart_coords_of(const mica_topo_t *topo, int rank, int *coords);
/* The rank `disp` steps from `rank` along dimension `d`: MPI_PROC_NULL off a non-periodic edge. */
int mica_cart_neighbor(const mica_topo_t *topo, int rank, int d, long long disp);

/* The neighbors the neighborhood collectives exchange with, in the standard's order: `in` are
 * the processes whose data fill the receive blocks, `out` those the send blocks go to. A peer
 * may be MPI_PROC_NULL (the edge of a non-periodic grid); `tag` tells apart the two messages
 * of a Cartesian dimension where both neighbors are the same process. */
typedef struct { int rank, tag; } mica_topo_peer_t;
typedef struct {
    int nin, nout;
    mica_topo_peer_t *in, *out;       /* one allocation: free(in) */
} mica_topo_peers_t;
int mica_topo_peers(mica_comm_t *comm, mica_topo_peers_t *peers);
/* Only their numbers; both give MPI_ERR_TOPOLOGY for a communicator without topology. */
int mica_topo_degrees(mica_comm_t *comm, int *nin, int *nout);

#endif
