/* Topologies as objects: creating, copying and freeing them, attaching one to a new
 * communicator, MPI_Topo_test, and the neighbor lists of the neighborhood collectives. */
#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "coll/comm.h"
#include "core/errors.h"
#include "core/progress.h"
#include "core_api.h"
#include "topo/topo.h"

mica_topo_t *mica_topo_new(int kind)
{
    mica_topo_t *t = calloc(1, sizeof *t);
    if (t)
        t->kind = kind;
    return t;
}

void mica_topo_free(mica_topo_t *t)
{
    if (!t)
        return;
    free(t->dims), free(t->periods), free(t->coords);
    free(t->index), free(t->edges);
    free(t->sources), free(t->sourceweights), free(t->destinations), free(t->destweights);
    free(t);
}

int *mica_topo_ints(const int *src, int n)
{
    int *a = malloc((n > 0 ? (size_t)n : 1) * sizeof *a);
    if (a && n > 0)
        memcpy(a, src, (size_t)n * sizeof *a);
    return a;
}

/* Copy array field `f` of n ints from `t` to `c` (a NULL array stays NULL); 0 when out of
 * memory. */
#define COPY_INTS(f, n) (!t->f || (c->f = mica_topo_ints(t->f, n)))

int mica_topo_copy(const mica_topo_t *t, mica_topo_t **copy)
{
    mica_topo_t *c = malloc(sizeof *c);
    if (c) {
        *c = *t;
        c->dims = c->periods = c->coords = c->index = c->edges = NULL;
        c->sources = c->sourceweights = c->destinations = c->destweights = NULL;
        int nedges = t->nnodes > 0 ? t->index[t->nnodes - 1] : 0;
        if (!(COPY_INTS(dims, t->ndims) && COPY_INTS(periods, t->ndims) &&
              COPY_INTS(coords, t->ndims) && COPY_INTS(index, t->nnodes) &&
              COPY_INTS(edges, nedges) && COPY_INTS(sources, t->indegree) &&
              COPY_INTS(sourceweights, t->indegree) && COPY_INTS(destinations, t->outdegree) &&
              COPY_INTS(destweights, t->outdegree))) {
            mica_topo_free(c);
            c = NULL;
        }
    }
    *copy = c;
    return c ? MPI_SUCCESS : mica_error(MPI_ERR_NO_MEM, "no memory to copy a topology");
}

/* A communicator's topology goes with it, and MPI_Comm_dup copies it. */
static void free_extension(mica_comm_t *comm)
{
    mica_topo_free(comm->topo);
}

static int copy_extension(const mica_comm_t *comm, mica_comm_t *dup)
{
    return comm->topo ? mica_topo_copy(comm->topo, &dup->topo) : MPI_SUCCESS;
}

void mica_topo_register(void)
{
    static const mica_comm_ext_t ext = {.free = free_extension, .copy = copy_extension};
    mica_comm_register_ext(&ext);
}

int mica_topo_comm(mica_comm_t *comm, int n, mica_topo_t *topo, MPI_Comm *newcomm)
{
    /* Everyone takes part in the split even without the topology, so no member waits
     * forever for one that ran out of memory. */
    int in = comm->rank < n;
    int rc = mica_coll_comm_split(comm, in ? 0 : MPI_UNDEFINED, comm->rank, newcomm);
    if (rc != MPI_SUCCESS || !in) {
        mica_topo_free(topo);
        return rc;
    }
    if (!topo) {
        mica_comm_free(newcomm);
        return mica_error(MPI_ERR_NO_MEM, "no memory for a topology");
    }
    mica_comm_lookup(*newcomm)->topo = topo;
    return MPI_SUCCESS;
}

static const char *kind_name(int kind)
{
    return kind == MPI_CART ? "a Cartesian" : kind == MPI_GRAPH ? "a graph" : "a distributed graph";
}

mica_topo_t *mica_topo_of(mica_comm_t *comm, int kind, int *rc)
{
    mica_topo_t *t = comm->topo;
    if (t && t->kind == kind)
        return t;
    *rc = mica_error(MPI_ERR_TOPOLOGY, "comm has %s topology, not %s one",
                     t ? kind_name(t->kind) + 2 : "no", kind_name(kind) + 2);
    return NULL;
}

int mica_topo_test(mica_comm_t *comm, int *status)
{
    *status = comm->topo ? comm->topo->kind : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

/* --- neighbors ------------------------------------------------------------------------------- */

int mica_topo_degrees(mica_comm_t *comm, int *nin, int *nout)
{
    const mica_topo_t *t = comm->topo;
    if (!t)
        return mica_error(MPI_ERR_TOPOLOGY, "comm has no topology: neighborhood collectives "
                          "need one");
    if (t->kind == MPI_CART) {
        *nin = *nout = 2 * t->ndims;
    } else if (t->kind == MPI_GRAPH) {
        int first = comm->rank > 0 ? t->index[comm->rank - 1] : 0;
        *nin = *nout = t->index[comm->rank] - first;
    } else {
        *nin = t->indegree;
        *nout = t->outdegree;
    }
    return MPI_SUCCESS;
}

int mica_topo_peers(mica_comm_t *comm, mica_topo_peers_t *p)
{
    int rc = mica_topo_degrees(comm, &p->nin, &p->nout);
    if (rc != MPI_SUCCESS)
        return rc;
    p->in = malloc(((size_t)p->nin + p->nout + 1) * sizeof *p->in);
    if (!p->in)
        return mica_error(MPI_ERR_NO_MEM, "no memory for %d neighbors", p->nin + p->nout);
    p->out = p->in + p->nin;
    const mica_topo_t *t = comm->topo;
    const int *in = t->sources, *out = t->destinations;
    if (t->kind == MPI_CART) {
        /* Per dimension: the -1 neighbor, then the +1 neighbor. What a process sends to its
         * -1 neighbor arrives in that neighbor's +1 block, and the other way round, even
         * where both neighbors are one process (a periodic dimension of size 1 or 2). */
        for (int d = 0; d < t->ndims; d++) {
            int down = mica_cart_neighbor(t, comm->rank, d, -1);
            int up = mica_cart_neighbor(t, comm->rank, d, 1);
            p->in[2 * d] = (mica_topo_peer_t){down, MICA_TAG_NEIGHBOR_UP};
            p->in[2 * d + 1] = (mica_topo_peer_t){up, MICA_TAG_NEIGHBOR};
            p->out[2 * d] = (mica_topo_peer_t){down, MICA_TAG_NEIGHBOR};
            p->out[2 * d + 1] = (mica_topo_peer_t){up, MICA_TAG_NEIGHBOR_UP};
        }
        return MPI_SUCCESS;
    }
    if (t->kind == MPI_GRAPH)         /* the k-th edge to a process meets the k-th from it */
        in = out = t->edges + (comm->rank > 0 ? t->index[comm->rank - 1] : 0);
    for (int i = 0; i < p->nin; i++)
        p->in[i] = (mica_topo_peer_t){in[i], MICA_TAG_NEIGHBOR};
    for (int i = 0; i < p->nout; i++)
        p->out[i] = (mica_topo_peer_t){out[i], MICA_TAG_NEIGHBOR};
    return MPI_SUCCESS;
}
