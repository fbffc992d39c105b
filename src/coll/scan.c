/* MPI_Scan and MPI_Exscan (algorithms.tsv): recursive doubling, ceil(log2 p) exchanges.
 * `partial` holds the reduction over the block of ranks exchanged with so far, the result the
 * reduction over the part of that block up to us (for Exscan: below us); whatever comes from a
 * lower block goes on the left of the operator, so non-commutative operations come out in
 * rank order. */
#include "coll/algorithms.h"

static void recursive_doubling(mica_sched_t *s, const mica_coll_args_t *a, mica_comm_t *comm,
                               int exclusive)
{
    int size = comm->size, rank = comm->rank;
    MPI_Count count = a->rcount;
    mica_type_t *type = a->rtype;
    void *rbuf = a->rbuf;
    const void *input = a->sbuf == MPI_IN_PLACE ? rbuf : a->sbuf;
    if (!exclusive && a->sbuf != MPI_IN_PLACE)
        mica_sched_copy(s, a->sbuf, count, type, rbuf, count, type);
    if (size == 1 || count * type->size == 0)
        return;
    void *partial = mica_sched_tmp(s, count, type), *tmp = mica_sched_tmp(s, count, type);
    mica_sched_copy(s, input, count, type, partial, count, type);
    int have = !exclusive;            /* rbuf holds a value */
    for (int mask = 1; mask < size; mask <<= 1) {
        int peer = rank ^ mask;
        if (peer >= size)
            continue;
        mica_sched_recv(s, tmp, count, type, peer);
        mica_sched_send(s, partial, count, type, peer);
        mica_sched_barrier(s);
        if (peer < rank) {
            mica_sched_reduce(s, tmp, partial, count, type, a->op);
            if (have)
                mica_sched_reduce(s, tmp, rbuf, count, type, a->op);
            else
                mica_sched_copy(s, tmp, count, type, rbuf, count, type);
            have = 1;
        } else if (a->op->commutative) {
            mica_sched_reduce(s, tmp, partial, count, type, a->op);
        } else {                      /* partial op tmp, into tmp: the buffers trade names */
            mica_sched_reduce(s, partial, tmp, count, type, a->op);
            void *t = partial;
            partial = tmp, tmp = t;
        }
    }
}

void mica_coll_scan_recursive_doubling(mica_sched_t *s, const mica_coll_args_t *a,
                                       mica_comm_t *comm)
{
    recursive_doubling(s, a, comm, 0);
}

void mica_coll_exscan_recursive_doubling(mica_sched_t *s, const mica_coll_args_t *a,
                                         mica_comm_t *comm)
{
    recursive_doubling(s, a, comm, 1);
}
