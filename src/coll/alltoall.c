/* MPI_Alltoall, MPI_Alltoallv, MPI_Alltoallw (algorithms.tsv): block j goes to process j and
 * block j comes from process j. Blocks are (count, type, element displacement) for the
 * uniform and v forms, (counts[j], types[j], byte displacement) for the w form.
 *  - linear (small blocks): every receive and send posted at once, one round;
 *  - pairwise (otherwise): p - 1 rounds; with a power-of-two p round i pairs rank with rank ^ i,
 *    else rank sends to rank + i and receives from rank - i.
 * Which one runs may differ between processes of an alltoallv (their blocks differ): the two
 * exchange the same messages under the same tag, so they meet whatever each chose.
 * MPI_IN_PLACE: every outgoing block is packed out of the receive buffer before anything is
 * received into it, and sent as bytes. */
#include "coll/algorithms.h"

/* Block j of one side. */
static void *block(const void *buf, MPI_Count count, const MPI_Count *counts,
                   const MPI_Aint *displs, mica_type_t *type, mica_type_t *const *types, int j,
                   MPI_Count *n, mica_type_t **t)
{
    if (types) {
        *n = counts[j];
        *t = types[j];
        return (char *)buf + displs[j];
    }
    *t = type;
    return mica_coll_block(buf, count, counts, displs, type, j, n);
}

static void *recv_block(const mica_coll_args_t *a, int j, MPI_Count *n, mica_type_t **t)
{
    return block(a->rbuf, a->rcount, a->rcounts, a->rdispls, a->rtype, a->rtypes, j, n, t);
}

/* Outgoing block j: where, how many, of what; with MPI_IN_PLACE packed now, as bytes. */
typedef struct {
    void *at;
    MPI_Count n;
    mica_type_t *t;
} outgoing_t;

static outgoing_t *outgoing(mica_sched_t *s, const mica_coll_args_t *a, int size)
{
    outgoing_t *o = mica_sched_mem(s, (size_t)size * sizeof *o);
    for (int j = 0; o && j < size; j++) {
        if (a->sbuf != MPI_IN_PLACE) {
            o[j].at = block(a->sbuf, a->scount, a->scounts, a->sdispls, a->stype, a->stypes, j,
                            &o[j].n, &o[j].t);
            continue;
        }
        MPI_Count n;
        mica_type_t *t;
        void *at = recv_block(a, j, &n, &t);
        o[j].at = mica_sched_packed(s, at, n, t, &o[j].n);
        o[j].t = &mica_type_MPI_BYTE;
    }
    return o;
}

/* Our own block, moved locally. */
static void own_block(mica_sched_t *s, const mica_coll_args_t *a, const outgoing_t *o, int rank)
{
    MPI_Count n;
    mica_type_t *t;
    void *at = recv_block(a, rank, &n, &t);
    if (a->sbuf != MPI_IN_PLACE)
        mica_sched_copy(s, o[rank].at, o[rank].n, o[rank].t, at, n, t);
}

void mica_coll_alltoall_linear(mica_sched_t *s, const mica_coll_args_t *a, mica_comm_t *comm)
{
    int size = comm->size, rank = comm->rank;
    outgoing_t *o = outgoing(s, a, size);
    if (!o)
        return;                       /* the schedule fails at start */
    for (int i = 1; i < size; i++) {
        int from = (rank - i + size) % size, to = (rank + i) % size;
        MPI_Count n;
        mica_type_t *t;
        void *at = recv_block(a, from, &n, &t);
        mica_sched_recv(s, at, n, t, from);
        mica_sched_send(s, o[to].at, o[to].n, o[to].t, to);
    }
    own_block(s, a, o, rank);
}

void mica_coll_alltoall_pairwise(mica_sched_t *s, const mica_coll_args_t *a, mica_comm_t *comm)
{
    int size = comm->size, rank = comm->rank, pof2 = (size & (size - 1)) == 0;
    outgoing_t *o = outgoing(s, a, size);
    if (!o)
        return;                       /* the schedule fails at start */
    own_block(s, a, o, rank);
    for (int i = 1; i < size; i++) {
        int to = pof2 ? rank ^ i : (rank + i) % size;
        int from = pof2 ? rank ^ i : (rank - i + size) % size;
        MPI_Count n;
        mica_type_t *t;
        void *at = recv_block(a, from, &n, &t);
        mica_sched_recv(s, at, n, t, from);
        mica_sched_send(s, o[to].at, o[to].n, o[to].t, to);
        mica_sched_barrier(s);
    }
}

MPI_Count mica_coll_alltoall_largest(const mica_coll_args_t *a, mica_comm_t *comm)
{
    MPI_Count largest = 0;
    for (int j = 0; j < comm->size; j++) {
        MPI_Count n;
        mica_type_t *t;
        recv_block(a, j, &n, &t);
        if (n * t->size > largest)
            largest = n * t->size;
    }
    return largest;
}
