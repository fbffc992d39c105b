/* The neighborhood collectives, blocking (MPI_Neighbor_*), nonblocking (MPI_Ineighbor_*) and
 * persistent (MPI_Neighbor_*_init), all running one schedule (coll/sched.h): one round, every
 * receive from the in-neighbors is posted, then every send to the out-neighbors, on the
 * communicator's collective context. MPI_PROC_NULL neighbors are skipped, so their receive
 * blocks stay untouched. Block j of the receive buffer belongs to in-neighbor j, block j of the
 * send buffer to out-neighbor j (allgather: the whole send buffer goes to each). The neighbor
 * lists are mica_topo_peers': the messages it tags MICA_TAG_NEIGHBOR_UP travel on the schedule's
 * second tag (a blocking schedule's tag is MICA_TAG_NEIGHBOR, its second MICA_TAG_NEIGHBOR_UP).
 * The entry points of the three forms are generated from src/coll/algorithms.tsv (gen/coll.py);
 * their argument checks are neighbor.c's. */
#include <stdlib.h>

#include "topo/neighbor.h"

/* Block j of one side: counts[j] elements (or count) of types[j] (or type) at byte
 * displacement displs[j] (with types), element displacement displs[j], or j * count; `whole`:
 * every block is the whole buffer (the send side of allgather). */
static void *block_at(const void *buf, MPI_Count count, const MPI_Count *counts,
                      const MPI_Aint *displs, mica_type_t *type, mica_type_t *const *types,
                      int whole, int j, MPI_Count *n, mica_type_t **t)
{
    *n = counts ? counts[j] : count;
    *t = types ? types[j] : type;
    if (whole)
        return (void *)buf;
    if (types)
        return (char *)buf + displs[j];
    return mica_coll_at(buf, displs ? displs[j] : (MPI_Count)j * count, type);
}

static void build(mica_sched_t *s, const mica_coll_args_t *a, mica_comm_t *comm, int whole)
{
    mica_topo_peers_t p;
    int rc = mica_topo_peers(comm, &p);
    if (rc != MPI_SUCCESS) {
        mica_sched_fail(s, rc);
        return;
    }
    MPI_Count n;
    mica_type_t *t;
    for (int j = 0; j < p.nin; j++) {
        if (p.in[j].rank == MPI_PROC_NULL)
            continue;
        void *at = block_at(a->rbuf, a->rcount, a->rcounts, a->rdispls, a->rtype, a->rtypes, 0,
                            j, &n, &t);
        if (p.in[j].tag == MICA_TAG_NEIGHBOR_UP)
            mica_sched_recv_alt(s, at, n, t, p.in[j].rank);
        else
            mica_sched_recv(s, at, n, t, p.in[j].rank);
    }
    for (int j = 0; j < p.nout; j++) {
        if (p.out[j].rank == MPI_PROC_NULL)
            continue;
        void *at = block_at(a->sbuf, a->scount, a->scounts, a->sdispls, a->stype, a->stypes,
                            whole, j, &n, &t);
        if (p.out[j].tag == MICA_TAG_NEIGHBOR_UP)
            mica_sched_send_alt(s, at, n, t, p.out[j].rank);
        else
            mica_sched_send(s, at, n, t, p.out[j].rank);
    }
    free(p.in);
}

/* The one algorithm of each neighborhood collective (src/coll/algorithms.tsv): the v and w
 * forms use their family's. */
void mica_topo_neighbor_allgather_linear(mica_sched_t *s, const mica_coll_args_t *a,
                                         mica_comm_t *comm)
{
    build(s, a, comm, 1);
}

void mica_topo_neighbor_alltoall_linear(mica_sched_t *s, const mica_coll_args_t *a,
                                        mica_comm_t *comm)
{
    build(s, a, comm, 0);
}
