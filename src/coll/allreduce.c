/* MPI_Allreduce.
 *
 * Any process count is first folded to a power of two p' (the largest not above p): of the
 * first 2(p - p') ranks, each even one hands its data to the odd one above it and sits out;
 * the rest renumber 0 .. p'-1 in rank order. At the end the odd ranks hand the result back.
 *  - short vectors: recursive doubling, log2 p' exchanges of the whole vector;
 *  - long vectors (MICA_ALLREDUCE_LONG bytes and more, at least p' elements): Rabenseifner's
 *    reduce-scatter by recursive halving then allgather by recursive doubling, about 2n bytes
 *    through each process instead of n log p.
 * Partial results always cover a contiguous range of ranks, and are combined with the lower
 * range on the left of the operator, so non-commutative operations come out in rank order. */
#include <stdlib.h>

#include "coll/algorithms.h"
#include "coll/inter.h"
#include "core/errors.h"
#include "core/progress.h"
#include "core_api.h"

/* lower op higher, for partial results `mine` (of `rank`) and `theirs` (of `peer`): the result
 * replaces `mine`; `theirs` may be overwritten. */
static void combine(mica_sched_t *s, mica_op_t *op, void *theirs, void *mine, MPI_Count count,
                    mica_type_t *type, int peer, int rank)
{
    if (op->commutative || peer < rank) {
        mica_sched_reduce(s, theirs, mine, count, type, op);
    } else {
        mica_sched_reduce(s, mine, theirs, count, type, op);
        mica_sched_copy(s, theirs, count, type, mine, count, type);
    }
}

/* The folding to a power of two (pof2 processes, rem = p - pof2 sit out) and the accumulator
 * (rbuf, with the input copied in) and a temporary of the whole vector. */
typedef struct {
    void *acc, *tmp;
    int newrank, pof2, rem;
} fold_t;

/* The real rank of process `newrank` of the folded power-of-two set. */
static int real_rank(int newrank, int rem)
{
    return newrank < rem ? newrank * 2 + 1 : newrank + rem;
}

static void recursive_doubling(mica_sched_t *s, const mica_coll_args_t *a, const fold_t *f,
                               int rank)
{
    for (int mask = 1; mask < f->pof2; mask <<= 1) {
        int peer = real_rank(f->newrank ^ mask, f->rem);
        mica_sched_recv(s, f->tmp, a->rcount, a->rtype, peer);
        mica_sched_send(s, f->acc, a->rcount, a->rtype, peer);
        mica_sched_barrier(s);
        combine(s, a->op, f->tmp, f->acc, a->rcount, a->rtype, peer, rank);
    }
}

static void rabenseifner(mica_sched_t *s, const mica_coll_args_t *a, const fold_t *f, int rank)
{
    int pof2 = f->pof2, newrank = f->newrank;
    mica_type_t *type = a->rtype;
    /* Block i of the vector: q or q + 1 elements (the first r blocks) from element DISP(i). */
    MPI_Count q = a->rcount / pof2, r = a->rcount % pof2;
#define DISP(i) ((i) * q + ((i) < r ? (i) : r))
#define SUM(from, to) (DISP(to) - DISP(from))
#define AT(buf, i) mica_coll_at((buf), DISP(i), type)

    /* Reduce-scatter by recursive halving: keep the half of the blocks on our side. */
    int send_idx = 0, recv_idx = 0, last_idx = pof2, mask;
    for (mask = 1; mask < pof2; mask <<= 1) {
        int newpeer = newrank ^ mask, peer = real_rank(newpeer, f->rem);
        MPI_Count scnt, rcnt;
        if (newrank < newpeer) {
            send_idx = recv_idx + pof2 / (mask * 2);
            scnt = SUM(send_idx, last_idx);
            rcnt = SUM(recv_idx, send_idx);
        } else {
            recv_idx = send_idx + pof2 / (mask * 2);
            scnt = SUM(send_idx, recv_idx);
            rcnt = SUM(recv_idx, last_idx);
        }
        mica_sched_recv(s, AT(f->tmp, recv_idx), rcnt, type, peer);
        mica_sched_send(s, AT(f->acc, send_idx), scnt, type, peer);
        mica_sched_barrier(s);
        combine(s, a->op, AT(f->tmp, recv_idx), AT(f->acc, recv_idx), rcnt, type, peer, rank);
        send_idx = recv_idx;
        if (mask * 2 < pof2)
            last_idx = recv_idx + pof2 / (mask * 2);
    }

    /* Allgather by recursive doubling: the halves come back in the reverse order. */
    for (mask = pof2 >> 1; mask > 0; mask >>= 1) {
        int newpeer = newrank ^ mask, peer = real_rank(newpeer, f->rem);
        MPI_Count scnt, rcnt;
        if (newrank < newpeer) {
            if (mask != pof2 / 2)
                last_idx = last_idx + pof2 / (mask * 2);
            recv_idx = send_idx + pof2 / (mask * 2);
            scnt = SUM(send_idx, recv_idx);
            rcnt = SUM(recv_idx, last_idx);
        } else {
            recv_idx = send_idx - pof2 / (mask * 2);
            scnt = SUM(send_idx, last_idx);
            rcnt = SUM(recv_idx, send_idx);
        }
        mica_sched_recv(s, AT(f->acc, recv_idx), rcnt, type, peer);
        mica_sched_send(s, AT(f->acc, send_idx), scnt, type, peer);
        mica_sched_barrier(s);
        if (newrank > newpeer)
            send_idx = recv_idx;
    }
#undef AT
#undef SUM
#undef DISP
}

/* Fold, run `algorithm` among the power-of-two set, unfold. */
static void folded(mica_sched_t *s, const mica_coll_args_t *a, mica_comm_t *comm,
                   void (*algorithm)(mica_sched_t *, const mica_coll_args_t *, const fold_t *,
                                     int))
{
    int size = comm->size, rank = comm->rank;
    MPI_Count count = a->rcount;
    mica_type_t *type = a->rtype;
    if (a->sbuf != MPI_IN_PLACE)
        mica_sched_copy(s, a->sbuf, count, type, a->rbuf, count, type);
    if (size == 1 || count * type->size == 0)
        return;
    fold_t f = {.acc = a->rbuf, .tmp = mica_sched_tmp(s, count, type),
                .pof2 = mica_coll_pof2(size)};
    f.rem = size - f.pof2;
    /* Fold to a power of two: even ranks below 2 rem give their data to the odd rank above. */
    if (rank < 2 * f.rem) {
        if (rank % 2 == 0) {
            mica_sched_send(s, f.acc, count, type, rank + 1);
            f.newrank = -1;
        } else {
            mica_sched_recv(s, f.tmp, count, type, rank - 1);
            mica_sched_barrier(s);
            mica_sched_reduce(s, f.tmp, f.acc, count, type, a->op);   /* (rank - 1) op rank */
            f.newrank = rank / 2;
        }
        mica_sched_barrier(s);
    } else {
        f.newrank = rank - f.rem;
    }
    if (f.newrank >= 0)
        algorithm(s, a, &f, rank);
    /* Unfold: the odd ranks hand the result to the even ones that sat out. */
    if (rank < 2 * f.rem) {
        if (rank % 2)
            mica_sched_send(s, f.acc, count, type, rank - 1);
        else
            mica_sched_recv(s, f.acc, count, type, rank + 1);
    }
}

void mica_coll_allreduce_recursive_doubling(mica_sched_t *s, const mica_coll_args_t *a,
                                            mica_comm_t *comm)
{
    folded(s, a, comm, recursive_doubling);
}

/* Needs at least as many elements as the power-of-two set has processes. */
void mica_coll_allreduce_rabenseifner(mica_sched_t *s, const mica_coll_args_t *a,
                                      mica_comm_t *comm)
{
    folded(s, a, comm, rabenseifner);
}

/* The blocking form's fast path for short vectors: recursive doubling by hand, without the
 * schedule's machinery, which costs a 4-rank 8-byte MPI_Allreduce 20% more instructions
 * (callgrind, besides progress polling: 2233 here, 2683 through mica_sched_run) and showed in
 * `bench/run.py --quick allreduce` (best of 6 interleaved runs on the loaded 2-core host:
 * 12.0 us here, 13.4 us through it). Long vectors gain nothing from it (8 MiB: 4.58 ms and
 * 4.74 ms, within the noise). */
static int recursive_doubling_blocking(const mica_coll_args_t *a, mica_comm_t *comm, int tag)
{
    const void *sbuf = a->sbuf;
    void *rbuf = a->rbuf;
    MPI_Count count = a->rcount;
    mica_type_t *type = a->rtype;
    mica_op_t *op = a->op;
    int size = comm->size, rank = comm->rank;
    if (sbuf != MPI_IN_PLACE)
        mica_type_copy(sbuf, count, type, rbuf, count, type);
    if (size == 1 || count * type->size == 0)
        return MPI_SUCCESS;
    void *mem, *tmp = mica_coll_tmp(count, type, &mem);
    if (!tmp)
        return mica_coll_no_mem(count, type);
    /* A message's error (another process's count differs) does not stop the exchanges, which
     * the other processes wait for; the first error is the result. */
    int rc = MPI_SUCCESS, step;
    int pof2 = mica_coll_pof2(size), rem = size - pof2, newrank = rank - rem;
    if (rank < 2 * rem && rank % 2 == 0) {
        rc = mica_coll_send(rbuf, count, type, rank + 1, tag, comm);
        newrank = -1;
    } else if (rank < 2 * rem) {
        rc = mica_coll_recv(tmp, count, type, rank - 1, tag, comm);
        if (rc == MPI_SUCCESS)
            rc = mica_op_apply(op, tmp, rbuf, count, type);   /* (rank - 1) op rank */
        newrank = rank / 2;
    }
    for (int mask = 1; newrank >= 0 && mask < pof2; mask <<= 1) {
        int peer = real_rank(newrank ^ mask, rem);
        step = mica_coll_sendrecv(rbuf, count, type, peer, tmp, count, type, peer, tag, comm);
        if (step == MPI_SUCCESS && (op->commutative || peer < rank))
            step = mica_op_apply(op, tmp, rbuf, count, type);
        else if (step == MPI_SUCCESS &&
                 (step = mica_op_apply(op, rbuf, tmp, count, type)) == MPI_SUCCESS)
            mica_type_copy(tmp, count, type, rbuf, count, type);
        rc = rc != MPI_SUCCESS ? rc : step;
    }
    if (rank < 2 * rem) {
        step = rank % 2 ? mica_coll_send(rbuf, count, type, rank - 1, tag, comm)
                        : mica_coll_recv(rbuf, count, type, rank + 1, tag, comm);
        rc = rc != MPI_SUCCESS ? rc : step;
    }
    free(mem);
    return rc;
}

int mica_coll_allreduce_recursive_doubling_blocking(const mica_coll_args_t *a, mica_comm_t *comm)
{
    return recursive_doubling_blocking(a, comm, MICA_TAG_ALLREDUCE);
}

int mica_coll_allreduce_tag_locked(const void *sbuf, void *rbuf, MPI_Count count,
                                   mica_type_t *type, mica_op_t *op, mica_comm_t *comm, int tag)
{
    mica_coll_args_t a = {.sbuf = sbuf, .rbuf = rbuf, .rcount = count, .rtype = type, .op = op};
    return recursive_doubling_blocking(&a, comm, tag);
}

