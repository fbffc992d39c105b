/* MPI_Allgather and MPI_Allgatherv (algorithms.tsv), in the receive buffer itself, our own
 * block copied in first:
 *  - recursive doubling (power-of-two sizes, one count): log2 p exchanges, each of the blocks
 *    gathered so far (adjacent in the buffer, so one message of the receive type);
 *  - ring (any size, the v form too): p - 1 steps passing each block on to the right. */
#include "coll/algorithms.h"

/* Our block into its place (unless it is there already: MPI_IN_PLACE). */
static void own_block(mica_sched_t *s, const mica_coll_args_t *a, int rank)
{
    MPI_Count n;
    void *at = mica_coll_block(a->rbuf, a->rcount, a->rcounts, a->rdispls, a->rtype, rank, &n);
    if (a->sbuf != MPI_IN_PLACE)
        mica_sched_copy(s, a->sbuf, a->scount, a->stype, at, n, a->rtype);
}

void mica_coll_allgather_ring(mica_sched_t *s, const mica_coll_args_t *a, mica_comm_t *comm)
{
    int size = comm->size, rank = comm->rank;
    int left = (rank - 1 + size) % size, right = (rank + 1) % size;
    own_block(s, a, rank);
    for (int i = 0; i < size - 1; i++) {
        int sb = (rank - i + size) % size, rb = (rank - i - 1 + size) % size;
        MPI_Count sn, rn;
        void *sat = mica_coll_block(a->rbuf, a->rcount, a->rcounts, a->rdispls, a->rtype, sb, &sn);
        void *rat = mica_coll_block(a->rbuf, a->rcount, a->rcounts, a->rdispls, a->rtype, rb, &rn);
        mica_sched_recv(s, rat, rn, a->rtype, left);
        mica_sched_send(s, sat, sn, a->rtype, right);
        mica_sched_barrier(s);
    }
}

void mica_coll_allgather_recursive_doubling(mica_sched_t *s, const mica_coll_args_t *a,
                                            mica_comm_t *comm)
{
    int size = comm->size, rank = comm->rank;
    MPI_Count count = a->rcount;
    own_block(s, a, rank);
    for (int mask = 1; mask < size; mask <<= 1) {
        int peer = rank ^ mask, mine = rank & ~(mask - 1), theirs = peer & ~(mask - 1);
        mica_sched_recv(s, mica_coll_at(a->rbuf, theirs * count, a->rtype), mask * count,
                        a->rtype, peer);
        mica_sched_send(s, mica_coll_at(a->rbuf, mine * count, a->rtype), mask * count, a->rtype,
                        peer);
        mica_sched_barrier(s);
    }
}
