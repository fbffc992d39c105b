/* MPI_Gather and MPI_Gatherv (algorithms.tsv: gather, gatherv), one algorithm:
 *  - linear: the root posts a receive per process straight into its buffer (so derived
 *    receive types cost no copy) and every other process sends once. */
#include "coll/algorithms.h"

void mica_coll_gather_linear(mica_sched_t *s, const mica_coll_args_t *a, mica_comm_t *comm)
{
    int root = a->root;
    if (comm->rank != root) {
        mica_sched_send(s, a->sbuf, a->scount, a->stype, root);
        return;
    }
    for (int i = 0; i < comm->size; i++) {
        MPI_Count n;
        void *at = mica_coll_block(a->rbuf, a->rcount, a->rcounts, a->rdispls, a->rtype, i, &n);
        if (i != root)
            mica_sched_recv(s, at, n, a->rtype, i);
        else if (a->sbuf != MPI_IN_PLACE)
            mica_sched_copy(s, a->sbuf, a->scount, a->stype, at, n, a->rtype);
    }
}
