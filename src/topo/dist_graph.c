/* Distributed graph topologies: each process keeps only its own edges, in (sources) and out
 * (destinations), with their weights when the graph is weighted.
 *
 * MPI_Dist_graph_create lets any process name any edge, so the edges are exchanged first:
 * an alltoall of counts, then an alltoallv of (direction, peer, weight) records, through the
 * internal collectives on the old communicator. Each process then lists its edges in the
 * order of the processes that named them, and in their order there. */
#include <stdlib.h>

#include "coll/algorithms.h"
#include "coll/coll.h"
#include "core/errors.h"
#include "core/progress.h"
#include "core_api.h"
#include "topo/topo.h"

/* `n` ranks of `comm` named by `what`. */
static int check_ranks(mica_comm_t *comm, int n, const int *ranks, const char *what)
{
    for (int i = 0; i < n; i++)
        if (ranks[i] < 0 || ranks[i] >= comm->size)
            return mica_error(MPI_ERR_RANK, "%s[%d]=%d is not a rank of comm_old (size %d)",
                              what, i, ranks[i], comm->size);
    return MPI_SUCCESS;
}

/* The `n` weights of `what`, which must be an array when n > 0. */
static int check_weights(int n, const int *weights, const char *what)
{
    if (n > 0 && (!weights || weights == MPI_WEIGHTS_EMPTY))
        return mica_error(MPI_ERR_ARG, "%s is %s for a weighted graph with %d edges here",
                          what, weights ? "MPI_WEIGHTS_EMPTY" : "NULL", n);
    for (int i = 0; i < n; i++)
        if (weights[i] < 0)
            return mica_error(MPI_ERR_ARG, "%s[%d]=%d is negative", what, i, weights[i]);
    return MPI_SUCCESS;
}

/* A distributed graph topology with these edges (arrays copied); NULL when out of memory. */
static mica_topo_t *new_dist_graph(int indegree, const int *sources, const int *sourceweights,
                                   int outdegree, const int *destinations,
                                   const int *destweights, int weighted)
{
    mica_topo_t *t = mica_topo_new(MPI_DIST_GRAPH);
    if (!t)
        return NULL;
    t->indegree = indegree;
    t->outdegree = outdegree;
    t->weighted = weighted;
    t->sources = mica_topo_ints(sources, indegree);
    t->destinations = mica_topo_ints(destinations, outdegree);
    int ok = t->sources && t->destinations;
    if (weighted) {
        t->sourceweights = mica_topo_ints(sourceweights, indegree);
        t->destweights = mica_topo_ints(destweights, outdegree);
        ok = ok && t->sourceweights && t->destweights;
    }
    if (!ok) {
        mica_topo_free(t);
        return NULL;
    }
    return t;
}

int mica_dist_graph_create_adjacent(mica_comm_t *comm_old, int indegree, const int sources[],
                                    const int sourceweights[], int outdegree,
                                    const int destinations[], const int destweights[],
                                    mica_info_t *info, int reorder, MPI_Comm *comm_dist_graph)
{
    if (comm_old->inter)
        return mica_error(MPI_ERR_COMM, "comm_old is an intercommunicator: topologies need an "
                          "intracommunicator");
    (void)info, (void)reorder;        /* no hints acted on; the identity mapping is valid */
    if (indegree < 0 || outdegree < 0)
        return mica_error(MPI_ERR_ARG, "%s=%d is negative", indegree < 0 ? "indegree" :
                          "outdegree", indegree < 0 ? indegree : outdegree);
    if ((indegree > 0 && !sources) || (outdegree > 0 && !destinations))
        return mica_error(MPI_ERR_ARG, "%s is NULL", indegree > 0 && !sources ? "sources" :
                          "destinations");
    int rc = check_ranks(comm_old, indegree, sources, "sources");
    if (rc == MPI_SUCCESS)
        rc = check_ranks(comm_old, outdegree, destinations, "destinations");
    if (rc != MPI_SUCCESS)
        return rc;
    int in_unweighted = sourceweights == MPI_UNWEIGHTED;
    int out_unweighted = destweights == MPI_UNWEIGHTED;
    if (indegree > 0 && outdegree > 0 && in_unweighted != out_unweighted)
        return mica_error(MPI_ERR_ARG, "only one of sourceweights and destweights is "
                          "MPI_UNWEIGHTED");
    /* Without edges here, only two MPI_UNWEIGHTED make the graph unweighted. */
    int weighted = indegree > 0    ? !in_unweighted
                   : outdegree > 0 ? !out_unweighted
                                   : !(in_unweighted && out_unweighted);
    if (weighted) {
        rc = check_weights(indegree, sourceweights, "sourceweights");
        if (rc == MPI_SUCCESS)
            rc = check_weights(outdegree, destweights, "destweights");
        if (rc != MPI_SUCCESS)
            return rc;
    }
    mica_topo_t *t = new_dist_graph(indegree, sources, sourceweights, outdegree, destinations,
                                    destweights, weighted);
    return mica_topo_comm(comm_old, comm_old->size, t, comm_dist_graph);
}

/* --- MPI_Dist_graph_create ------------------------------------------------------------------- */

enum { OUT_EDGE, IN_EDGE, RECORD = 3 };    /* a record: direction, peer, weight */

/* Append one record for `to` to the send buffer, grouped by destination process (`next` is
 * where the group of each process is filled up to). */
static void put(int *buf, MPI_Aint *next, int to, int dir, int peer, int weight)
{
    int *r = buf + next[to];
    r[0] = dir, r[1] = peer, r[2] = weight;
    next[to] += RECORD;
}

/* Exchange the edges named here; on success *recs holds the records meant for this process
 * and *nrecs their number. Lock held. */
static int exchange(mica_comm_t *comm, int n, const int *sources, const int *degrees,
                    const int *destinations, const int *weights, int weighted, int **recs,
                    int *nrecs)
{
    int size = comm->size, rc = MPI_ERR_NO_MEM;
    MPI_Count *scounts = calloc(2 * (size_t)size, sizeof *scounts), *rcounts = scounts + size;
    MPI_Aint *sdispls = malloc(3 * (size_t)size * sizeof *sdispls);
    MPI_Aint *rdispls = sdispls + size, *next = sdispls + 2 * size;
    int *sbuf = NULL, *rbuf = NULL, *sc32 = malloc(2 * (size_t)size * sizeof *sc32);
    if (!scounts || !sdispls || !sc32)
        goto out;
    int *rc32 = sc32 + size;
    for (int i = 0, e = 0; i < n; i++)
        for (int j = 0; j < degrees[i]; j++, e++) {
            scounts[sources[i]] += RECORD;
            scounts[destinations[e]] += RECORD;
        }
    for (int p = 0; p < size; p++)
        sc32[p] = (int)scounts[p];
    mica_type_t *ints = &mica_type_MPI_INT;
    rc = mica_coll_alltoall_locked(sc32, 1, ints, rc32, 1, ints, comm);
    if (rc != MPI_SUCCESS)
        goto out;
    MPI_Aint stotal = 0, rtotal = 0;
    for (int p = 0; p < size; p++) {
        rcounts[p] = rc32[p];
        sdispls[p] = next[p] = stotal;
        rdispls[p] = rtotal;
        stotal += scounts[p];
        rtotal += rcounts[p];
    }
    sbuf = malloc(((size_t)stotal + 1) * sizeof *sbuf);
    rbuf = malloc(((size_t)rtotal + 1) * sizeof *rbuf);
    rc = MPI_ERR_NO_MEM;
    if (!sbuf || !rbuf)
        goto out;
    for (int i = 0, e = 0; i < n; i++)
        for (int j = 0; j < degrees[i]; j++, e++) {
            int w = weighted ? weights[e] : 1;
            put(sbuf, next, sources[i], OUT_EDGE, destinations[e], w);
            put(sbuf, next, destinations[e], IN_EDGE, sources[i], w);
        }
    rc = mica_coll_alltoallv_locked(sbuf, scounts, sdispls, ints, rbuf, rcounts, rdispls, ints,
                                    comm);
    if (rc == MPI_SUCCESS) {
        *recs = rbuf;
        *nrecs = (int)(rtotal / RECORD);
        rbuf = NULL;
    }
out:
    if (rc == MPI_ERR_NO_MEM)
        rc = mica_error(MPI_ERR_NO_MEM, "no memory to exchange the edges of a graph");
    free(scounts), free(sdispls), free(sc32), free(sbuf), free(rbuf);
    return rc;
}

/* The topology of the records this process received. */
static mica_topo_t *from_records(const int *recs, int nrecs, int weighted)
{
    int degree[2] = {0, 0};
    for (int i = 0; i < nrecs; i++)
        degree[recs[RECORD * i]]++;
    int *peers = malloc(((size_t)nrecs + 1) * sizeof *peers);
    int *weights = malloc(((size_t)nrecs + 1) * sizeof *weights);
    mica_topo_t *t = NULL;
    if (peers && weights) {
        int at[2] = {0, degree[OUT_EDGE]};   /* out-edges first, then in-edges */
        for (int i = 0; i < nrecs; i++) {
            const int *r = recs + RECORD * i;
            peers[at[r[0]]] = r[1];
            weights[at[r[0]]++] = r[2];
        }
        int out = degree[OUT_EDGE];
        t = new_dist_graph(degree[IN_EDGE], peers + out, weights + out, out, peers, weights,
                           weighted);
    }
    free(peers);
    free(weights);
    return t;
}

int mica_dist_graph_create(mica_comm_t *comm_old, int n, const int sources[],
                           const int degrees[], const int destinations[], const int weights[],
                           mica_info_t *info, int reorder, MPI_Comm *comm_dist_graph)
{
    if (comm_old->inter)
        return mica_error(MPI_ERR_COMM, "comm_old is an intercommunicator: topologies need an "
                          "intracommunicator");
    (void)info, (void)reorder;        /* no hints acted on; the identity mapping is valid */
    if (n > 0 && (!sources || !degrees))
        return mica_error(MPI_ERR_ARG, "%s is NULL", !sources ? "sources" : "degrees");
    long long nedges = 0;
    for (int i = 0; i < n; i++) {
        if (degrees[i] < 0)
            return mica_error(MPI_ERR_ARG, "degrees[%d]=%d is negative", i, degrees[i]);
        nedges += degrees[i];
    }
    if (nedges > INT32_MAX / (2 * RECORD))
        return mica_error(MPI_ERR_ARG, "degrees add up to %lld edges: too many", nedges);
    if (nedges > 0 && !destinations)
        return mica_error(MPI_ERR_ARG, "destinations is NULL");
    int rc = check_ranks(comm_old, n, sources, "sources");
    if (rc == MPI_SUCCESS)
        rc = check_ranks(comm_old, (int)nedges, destinations, "destinations");
    int weighted = weights != MPI_UNWEIGHTED;
    if (rc == MPI_SUCCESS && weighted)
        rc = check_weights((int)nedges, weights, "weights");
    if (rc != MPI_SUCCESS)
        return rc;
    int *recs = NULL, nrecs = 0;
    rc = exchange(comm_old, n, sources, degrees, destinations, weights, weighted, &recs, &nrecs);
    if (rc != MPI_SUCCESS)
        return rc;
    mica_topo_t *t = from_records(recs, nrecs, weighted);
    free(recs);
    return mica_topo_comm(comm_old, comm_old->size, t, comm_dist_graph);
}

/* --- queries --------------------------------------------------------------------------------- */

int mica_dist_graph_neighbors_count(mica_comm_t *comm, int *indegree, int *outdegree,
                                    int *weighted)
{
    int rc;
    mica_topo_t *t = mica_topo_of(comm, MPI_DIST_GRAPH, &rc);
    if (!t)
        return rc;
    *indegree = t->indegree;
    *outdegree = t->outdegree;
    *weighted = t->weighted;
    return MPI_SUCCESS;
}

/* Copy n ints to `to` unless it is one of the weight sentinels (never dereferenced). */
static void copy_out(int *to, const int *from, int n)
{
    if (!to || to == MPI_UNWEIGHTED || to == MPI_WEIGHTS_EMPTY)
        return;
    for (int i = 0; i < n; i++)
        to[i] = from[i];
}

int mica_dist_graph_neighbors(mica_comm_t *comm, int maxindegree, int sources[],
                              int sourceweights[], int maxoutdegree, int destinations[],
                              int destweights[])
{
    int rc;
    mica_topo_t *t = mica_topo_of(comm, MPI_DIST_GRAPH, &rc);
    if (!t)
        return rc;
    if (maxindegree < t->indegree)
        return mica_error(MPI_ERR_ARG, "maxindegree=%d is less than the indegree %d",
                          maxindegree, t->indegree);
    if (maxoutdegree < t->outdegree)
        return mica_error(MPI_ERR_ARG, "maxoutdegree=%d is less than the outdegree %d",
                          maxoutdegree, t->outdegree);
    if ((t->indegree > 0 && !sources) || (t->outdegree > 0 && !destinations))
        return mica_error(MPI_ERR_ARG, "%s is NULL", t->indegree > 0 && !sources ? "sources" :
                          "destinations");
    /* A weighted graph's weights go out too: only MPI_UNWEIGHTED (or MPI_WEIGHTS_EMPTY)
     * declines them, NULL is no array. */
    if (t->weighted && ((t->indegree > 0 && !sourceweights) || (t->outdegree > 0 && !destweights)))
        return mica_error(MPI_ERR_ARG, "%s is NULL", t->indegree > 0 && !sourceweights ?
                          "sourceweights" : "destweights");
    copy_out(sources, t->sources, t->indegree);
    copy_out(destinations, t->destinations, t->outdegree);
    if (t->weighted) {
        copy_out(sourceweights, t->sourceweights, t->indegree);
        copy_out(destweights, t->destweights, t->outdegree);
    }
    return MPI_SUCCESS;
}
