/* MPI_Bcast.
 *  - short messages: a binomial tree rooted at `root` (ceil(log2 p) rounds);
 *  - long messages (MICA_BCAST_LONG bytes and more, 3 processes or more, each with a processor
 *    of its own): the data as bytes is scattered down the binomial tree, one piece per process,
 *    then a ring allgather puts the pieces together everywhere (van de Geijn): about 2n bytes
 *    through each process instead of n log p along the tree's deepest path. Derived datatypes
 *    are packed first. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coll/algorithms.h"
#include "coll/inter.h"
#include "core/errors.h"
#include "core/progress.h"
#include "core_api.h"

void mica_coll_bcast_binomial(mica_sched_t *s, const mica_coll_args_t *a, mica_comm_t *comm)
{
    if (a->rcount * a->rtype->size == 0)
        return;
    int size = comm->size, rank = comm->rank, vrank = (rank - a->root + size) % size, mask = 1;
    for (; mask < size; mask <<= 1)
        if (vrank & mask) {
            mica_sched_recv(s, a->rbuf, a->rcount, a->rtype, (rank - mask + size) % size);
            mica_sched_barrier(s);
            break;
        }
    /* Send to every child at once: their transfers overlap. */
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (vrank + mask < size)
            mica_sched_send(s, a->rbuf, a->rcount, a->rtype, (rank + mask) % size);
}

/* Bytes of the pieces [a, b) (relative ranks) of a message of n bytes cut in pieces of `piece`. */
static MPI_Count span(int a, int b, MPI_Count piece, MPI_Count n)
{
    MPI_Count lo = a * piece, hi = b * piece;
    if (hi > n)
        hi = n;
    return hi > lo ? hi - lo : 0;
}

void mica_coll_bcast_scatter_ring(mica_sched_t *s, const mica_coll_args_t *a, mica_comm_t *comm)
{
    int size = comm->size, rank = comm->rank, root = a->root, vrank = (rank - root + size) % size;
    mica_type_t *byte = &mica_type_MPI_BYTE, *type = a->rtype;
    MPI_Count n = a->rcount * type->size, piece = (n + size - 1) / size;
    /* The data as bytes: the buffer itself if contiguous (then count elements are one block
     * too), else a packed copy. */
    char *data = (char *)a->rbuf + type->true_lb;
    if (!type->contiguous) {
        data = mica_sched_tmp(s, n, byte);
        if (rank == root)
            mica_sched_copy(s, a->rbuf, a->rcount, type, data, n, byte);
    }

    /* Scatter: the subtree of vrank (vrank .. vrank + its lowest set bit) gets its pieces. */
    int mask = 1;
    for (; mask < size; mask <<= 1)
        if (vrank & mask) {           /* as its parent, skip an empty subtree's message */
            int end = vrank + mask < size ? vrank + mask : size;
            MPI_Count len = span(vrank, end, piece, n);
            if (len)
                mica_sched_recv(s, data + vrank * piece, len, byte, (rank - mask + size) % size);
            mica_sched_barrier(s);
            break;
        }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (vrank + mask < size) {
            int child = vrank + mask, end = child + mask < size ? child + mask : size;
            MPI_Count len = span(child, end, piece, n);
            if (len)
                mica_sched_send(s, data + child * piece, len, byte, (rank + mask) % size);
        }
    mica_sched_barrier(s);

    /* Ring allgather of the pieces: in step i, pass on the piece received in step i - 1. */
    int left = (rank - 1 + size) % size, right = (rank + 1) % size;
    for (int i = 0; i < size - 1; i++) {
        int sp = (vrank - i + size) % size, rp = (vrank - i - 1 + size) % size;
        mica_sched_recv(s, data + rp * piece, span(rp, rp + 1, piece, n), byte, left);
        mica_sched_send(s, data + sp * piece, span(sp, sp + 1, piece, n), byte, right);
        mica_sched_barrier(s);
    }
    if (!type->contiguous && rank != root)
        mica_sched_copy(s, data, n, byte, a->rbuf, a->rcount, type);
}

/* Where the long-message algorithm starts. Its ring moves in lockstep rounds that need every
 * process running at once: with more processes than processors the binomial tree is faster
 * (measured on 2 cores with 3 to 8 processes: 3 to 20 times, 1 to 16 MiB), so there it is used
 * for every size unless MICA_BCAST_LONG says otherwise. */
long mica_coll_bcast_long(void)
{
    long limit = mica_tunables.bcast_long;
    if (limit != MICA_TUNABLE_AUTO)
        return limit;
    static long cpus;
    if (!cpus)
        cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return mica_comm_world.size <= cpus ? 256 * 1024 : LONG_MAX;
}
