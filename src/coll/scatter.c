/* MPI_Scatter and MPI_Scatterv (algorithms.tsv: scatter, scatterv), one algorithm:
 *  - linear: the root starts a send per process straight from its buffer, its own block last,
 *    and every other process receives once. */
#include "coll/algorithms.h"

void mica_coll_scatter_linear(mica_sched_t *s, const mica_coll_args_t *a, mica_comm_t *comm)
{
    int size = comm->size, rank = comm->rank, root = a->root;
    if (rank != root) {
        mica_sched_recv(s, a->rbuf, a->rcount, a->rtype, root);
        return;
    }
    for (int k = 1; k <= size; k++) {
        int i = (rank + k) % size;
        MPI_Count n;
        void *at = mica_coll_block(a->sbuf, a->scount, a->scounts, a->sdispls, a->stype, i, &n);
        if (i != root)
            mica_sched_send(s, at, n, a->stype, i);
        else if (a->rbuf != MPI_IN_PLACE)
            mica_sched_copy(s, at, n, a->stype, a->rbuf, a->rcount, a->rtype);
    }
}
