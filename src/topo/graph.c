/* Graph topologies (MPI_Graph_create): every process knows the whole graph. Node i's
 * neighbors are edges[index[i-1] .. index[i]-1] (from 0 for node 0). */
#include "core/errors.h"
#include "core_api.h"
#include "topo/topo.h"

/* The arguments describing a graph for `comm` (MPI_Graph_create, MPI_Graph_map). */
static int check_graph(mica_comm_t *comm, int nnodes, const int *indx, const int *edges)
{
    if (nnodes < 0)
        return mica_error(MPI_ERR_ARG, "nnodes=%d is negative", nnodes);
    if (nnodes > comm->size)
        return mica_error(MPI_ERR_ARG, "nnodes=%d is more than the %d processes of comm",
                          nnodes, comm->size);
    if (nnodes == 0)
        return MPI_SUCCESS;
    if (!indx)
        return mica_error(MPI_ERR_ARG, "indx is NULL");
    for (int i = 0; i < nnodes; i++)
        if (indx[i] < (i ? indx[i - 1] : 0))
            return mica_error(MPI_ERR_ARG, "indx[%d]=%d is less than %s", i, indx[i],
                              i ? "the entry before it" : "0");
    if (indx[nnodes - 1] > 0 && !edges)
        return mica_error(MPI_ERR_ARG, "edges is NULL");
    for (int e = 0; e < indx[nnodes - 1]; e++)
        if (edges[e] < 0 || edges[e] >= nnodes)
            return mica_error(MPI_ERR_ARG, "edges[%d]=%d is not a node (0..%d)", e, edges[e],
                              nnodes - 1);
    return MPI_SUCCESS;
}

int mica_graph_create(mica_comm_t *comm_old, int nnodes, const int indx[], const int edges[],
                      int reorder, MPI_Comm *comm_graph)
{
    if (comm_old->inter)
        return mica_error(MPI_ERR_COMM, "comm_old is an intercommunicator: topologies need an "
                          "intracommunicator");
    (void)reorder;                    /* the identity mapping is always a valid one */
    int rc = check_graph(comm_old, nnodes, indx, edges);
    if (rc != MPI_SUCCESS)
        return rc;
    mica_topo_t *t = NULL;
    if (comm_old->rank < nnodes && (t = mica_topo_new(MPI_GRAPH))) {
        t->nnodes = nnodes;
        t->index = mica_topo_ints(indx, nnodes);
        t->edges = mica_topo_ints(edges, indx[nnodes - 1]);
        if (!t->index || !t->edges) {
            mica_topo_free(t);
            t = NULL;
        }
    }
    return mica_topo_comm(comm_old, nnodes, t, comm_graph);
}

int mica_graph_map(mica_comm_t *comm, int nnodes, const int indx[], const int edges[],
                   int *newrank)
{
    int rc = check_graph(comm, nnodes, indx, edges);
    if (rc == MPI_SUCCESS)
        *newrank = comm->rank < nnodes ? comm->rank : MPI_UNDEFINED;
    return rc;
}

int mica_graphdims_get(mica_comm_t *comm, int *nnodes, int *nedges)
{
    int rc;
    mica_topo_t *t = mica_topo_of(comm, MPI_GRAPH, &rc);
    if (!t)
        return rc;
    *nnodes = t->nnodes;
    *nedges = t->index[t->nnodes - 1];
    return MPI_SUCCESS;
}

int mica_graph_get(mica_comm_t *comm, int maxindex, int maxedges, int indx[], int edges[])
{
    int rc;
    mica_topo_t *t = mica_topo_of(comm, MPI_GRAPH, &rc);
    if (!t)
        return rc;
    if (maxindex < 0 || maxedges < 0)
        return mica_error(MPI_ERR_ARG, "%s=%d is negative", maxindex < 0 ? "maxindex" :
                          "maxedges", maxindex < 0 ? maxindex : maxedges);
    int ni = maxindex < t->nnodes ? maxindex : t->nnodes;
    int ne = maxedges < t->index[t->nnodes - 1] ? maxedges : t->index[t->nnodes - 1];
    if ((ni > 0 && !indx) || (ne > 0 && !edges))
        return mica_error(MPI_ERR_ARG, "%s is NULL", ni > 0 && !indx ? "indx" : "edges");
    for (int i = 0; i < ni; i++)
        indx[i] = t->index[i];
    for (int e = 0; e < ne; e++)
        edges[e] = t->edges[e];
    return MPI_SUCCESS;
}

int mica_graph_neighbors_count(mica_comm_t *comm, int rank, int *nneighbors)
{
    int rc;
    mica_topo_t *t = mica_topo_of(comm, MPI_GRAPH, &rc);
    if (!t)
        return rc;
    *nneighbors = t->index[rank] - (rank ? t->index[rank - 1] : 0);
    return MPI_SUCCESS;
}

int mica_graph_neighbors(mica_comm_t *comm, int rank, int maxneighbors, int neighbors[])
{
    int rc;
    mica_topo_t *t = mica_topo_of(comm, MPI_GRAPH, &rc);
    if (!t)
        return rc;
    if (maxneighbors < 0)
        return mica_error(MPI_ERR_ARG, "maxneighbors=%d is negative", maxneighbors);
    int first = rank ? t->index[rank - 1] : 0, n = t->index[rank] - first;
    if (maxneighbors < n)
        n = maxneighbors;
    if (n > 0 && !neighbors)
        return mica_error(MPI_ERR_ARG, "neighbors is NULL");
    for (int i = 0; i < n; i++)
        neighbors[i] = t->edges[first + i];
    return MPI_SUCCESS;
}
