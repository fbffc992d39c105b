/* MPI_Reduce_scatter and MPI_Reduce_scatter_block (algorithms.tsv): block i of the reduced
 * vector (rcounts[i] elements, or rcount each) goes to process i.
 *  - pairwise (commutative operations): p - 1 rounds; in round i each process sends its
 *    contribution to the block of rank + i and folds in what rank - i sends for its own block
 *    (n bytes through each process in all, the least possible);
 *  - allreduce (any operation): an allreduce of the whole vector (in rank order), keeping our
 *    block. */
#include "coll/algorithms.h"

/* Where each block starts in the whole vector (elements), and the whole vector's length. */
static MPI_Count *starts(mica_sched_t *s, const mica_coll_args_t *a, int size, MPI_Count *total)
{
    MPI_Count *at = mica_sched_mem(s, (size_t)size * sizeof *at);
    *total = 0;
    for (int i = 0; at && i < size; i++) {
        at[i] = *total;
        *total += a->rcounts ? a->rcounts[i] : a->rcount;
    }
    return at;
}

void mica_coll_reduce_scatter_pairwise(mica_sched_t *s, const mica_coll_args_t *a,
                                       mica_comm_t *comm)
{
    int size = comm->size, rank = comm->rank;
    mica_type_t *type = a->rtype;
    MPI_Count total, mine = a->rcounts ? a->rcounts[rank] : a->rcount;
    MPI_Count *at = starts(s, a, size, &total);
    if (!at)
        return;
    const void *input = a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf;
    /* acc: our block, from our own contribution on; tmp: a peer's contribution to it. */
    void *acc = mica_sched_tmp(s, mine, type), *tmp = mica_sched_tmp(s, mine, type);
    mica_sched_copy(s, mica_coll_at(input, at[rank], type), mine, type, acc, mine, type);
    for (int i = 1; i < size; i++) {
        int to = (rank + i) % size, from = (rank - i + size) % size;
        MPI_Count n = a->rcounts ? a->rcounts[to] : a->rcount;
        mica_sched_recv(s, tmp, mine, type, from);
        mica_sched_send(s, mica_coll_at(input, at[to], type), n, type, to);
        mica_sched_barrier(s);
        mica_sched_reduce(s, tmp, acc, mine, type, a->op);
    }
    mica_sched_copy(s, acc, mine, type, a->rbuf, mine, type);
}

void mica_coll_reduce_scatter_allreduce(mica_sched_t *s, const mica_coll_args_t *a,
                                        mica_comm_t *comm)
{
    int rank = comm->rank;
    mica_type_t *type = a->rtype;
    MPI_Count total, mine = a->rcounts ? a->rcounts[rank] : a->rcount;
    MPI_Count *at = starts(s, a, comm->size, &total);
    if (!at)
        return;
    /* The whole vector reduced in place if we may (MPI_IN_PLACE: rbuf holds it), then our
     * block moved to the front. */
    mica_coll_args_t whole = {.sbuf = a->sbuf, .rbuf = a->rbuf, .rcount = total, .rtype = type,
                              .op = a->op};
    if (a->sbuf != MPI_IN_PLACE)
        whole.rbuf = mica_sched_tmp(s, total, type);
    mica_coll_build_allreduce(s, &whole, comm);
    mica_sched_barrier(s);
    if (whole.rbuf != a->rbuf || at[rank])
        mica_sched_copy(s, mica_coll_at(whole.rbuf, at[rank], type), mine, type, a->rbuf, mine,
                        type);
}
