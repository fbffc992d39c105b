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

#include "coll/coll.h"
#include "coll/inter.h"
#include "core/errors.h"
#include "core/progress.h"
#include "core_api.h"

/* lower op higher, for partial results `mine` (of `rank`) and `theirs` (of `peer`); the result
 * replaces `mine`. `theirs` may be overwritten. */
static int combine(mica_op_t *op, void *theirs, void *mine, MPI_Count count, mica_type_t *type,
                   int peer, int rank)
{
    if (op->commutative || peer < rank)
        return mica_op_apply(op, theirs, mine, count, type);
    int rc = mica_op_apply(op, mine, theirs, count, type);
    if (rc == MPI_SUCCESS)
        mica_type_copy(theirs, count, type, mine, count, type);
    return rc;
}

/* The real rank of process `newrank` of the folded power-of-two set. */
static int real_rank(int newrank, int rem)
{
    return newrank < rem ? newrank * 2 + 1 : newrank + rem;
}

static int recursive_doubling(void *acc, void *tmp, MPI_Count count, mica_type_t *type,
                              mica_op_t *op, int newrank, int pof2, int rem, mica_comm_t *comm)
{
    int rank = comm->rank;
    for (int mask = 1; mask < pof2; mask <<= 1) {
        int peer = real_rank(newrank ^ mask, rem);
        int rc = mica_coll_sendrecv(acc, count, type, peer, tmp, count, type, peer,
                                    MICA_TAG_ALLREDUCE, comm);
        if (rc == MPI_SUCCESS)
            rc = combine(op, tmp, acc, count, type, peer, rank);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

static int rabenseifner(void *acc, void *tmp, MPI_Count count, mica_type_t *type, mica_op_t *op,
                        int newrank, int pof2, int rem, mica_comm_t *comm)
{
    int rank = comm->rank, rc = MPI_SUCCESS;
    /* Block i of the vector: cnts[i] elements from element disps[i]. */
    MPI_Count *cnts = malloc(2 * (size_t)pof2 * sizeof *cnts), *disps = cnts + pof2;
    if (!cnts)
        return mica_error(MPI_ERR_NO_MEM, "no memory for %d block counts", pof2);
    for (int i = 0; i < pof2; i++) {
        cnts[i] = count / pof2 + (i < count % pof2);
        disps[i] = i ? disps[i - 1] + cnts[i - 1] : 0;
    }
#define SUM(from, to) (disps[(to) - 1] + cnts[(to) - 1] - disps[from])

    /* Reduce-scatter by recursive halving: keep the half of the blocks on our side. */
    int send_idx = 0, recv_idx = 0, last_idx = pof2, mask;
    for (mask = 1; mask < pof2; mask <<= 1) {
        int newpeer = newrank ^ mask, peer = real_rank(newpeer, rem);
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
        void *mine = mica_coll_at(acc, disps[recv_idx], type);
        void *theirs = mica_coll_at(tmp, disps[recv_idx], type);
        rc = mica_coll_sendrecv(mica_coll_at(acc, disps[send_idx], type), scnt, type, peer,
                                theirs, rcnt, type, peer, MICA_TAG_ALLREDUCE, comm);
        if (rc == MPI_SUCCESS)
            rc = combine(op, theirs, mine, rcnt, type, peer, rank);
        if (rc != MPI_SUCCESS)
            goto out;
        send_idx = recv_idx;
        if (mask * 2 < pof2)
            last_idx = recv_idx + pof2 / (mask * 2);
    }

    /* Allgather by recursive doubling: the halves come back in the reverse order. */
    for (mask = pof2 >> 1; mask > 0; mask >>= 1) {
        int newpeer = newrank ^ mask, peer = real_rank(newpeer, rem);
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
        rc = mica_coll_sendrecv(mica_coll_at(acc, disps[send_idx], type), scnt, type, peer,
                                mica_coll_at(acc, disps[recv_idx], type), rcnt, type, peer,
                                MICA_TAG_ALLREDUCE, comm);
        if (rc != MPI_SUCCESS)
            goto out;
        if (newrank > newpeer)
            send_idx = recv_idx;
    }
#undef SUM
out:
    free(cnts);
    return rc;
}

int mica_coll_allreduce(const void *sbuf, void *rbuf, MPI_Count count, mica_type_t *type,
                        mica_op_t *op, mica_comm_t *comm)
{
    int size = comm->size, rank = comm->rank, rc = MPI_SUCCESS;
    if (sbuf != MPI_IN_PLACE)
        mica_type_copy(sbuf, count, type, rbuf, count, type);
    if (size == 1 || count * type->size == 0)
        return MPI_SUCCESS;
    void *mem, *tmp = mica_coll_tmp(count, type, &mem);
    if (!tmp)
        return mica_coll_no_mem(count, type);

    int pof2 = mica_coll_pof2(size), rem = size - pof2, newrank;
    /* Fold to a power of two: even ranks below 2 rem give their data to the odd rank above. */
    if (rank < 2 * rem) {
        if (rank % 2 == 0) {
            rc = mica_coll_send(rbuf, count, type, rank + 1, MICA_TAG_ALLREDUCE, comm);
            newrank = -1;
        } else {
            rc = mica_coll_recv(tmp, count, type, rank - 1, MICA_TAG_ALLREDUCE, comm);
            if (rc == MPI_SUCCESS)
                rc = mica_op_apply(op, tmp, rbuf, count, type);   /* (rank - 1) op rank */
            newrank = rank / 2;
        }
    } else {
        newrank = rank - rem;
    }
    if (rc == MPI_SUCCESS && newrank >= 0) {
        if (count * type->size >= MICA_COLL_TUNABLE(MICA_ALLREDUCE_LONG) && count >= pof2)
            rc = rabenseifner(rbuf, tmp, count, type, op, newrank, pof2, rem, comm);
        else
            rc = recursive_doubling(rbuf, tmp, count, type, op, newrank, pof2, rem, comm);
    }
    /* Unfold: the odd ranks hand the result to the even ones that sat out. */
    if (rc == MPI_SUCCESS && rank < 2 * rem) {
        if (rank % 2)
            rc = mica_coll_send(rbuf, count, type, rank - 1, MICA_TAG_ALLREDUCE, comm);
        else
            rc = mica_coll_recv(rbuf, count, type, rank + 1, MICA_TAG_ALLREDUCE, comm);
    }
    free(mem);
    return rc;
}

int mica_allreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, mica_type_t *datatype,
                     mica_op_t *op, mica_comm_t *comm)
{
    if (comm->inter)
        return mica_inter_allreduce(sendbuf, recvbuf, count, datatype, op, comm);
    int rc = mica_coll_check_op(op, datatype);
    if (rc != MPI_SUCCESS)
        return rc;
    if (recvbuf == MPI_IN_PLACE)
        return mica_error(MPI_ERR_BUFFER, "recvbuf is MPI_IN_PLACE: only sendbuf may be");
    if (sendbuf == recvbuf && count > 0)
        return mica_error(MPI_ERR_BUFFER, "sendbuf and recvbuf are the same buffer: use "
                          "MPI_IN_PLACE as sendbuf");
    mica_lock();
    rc = mica_coll_allreduce(sendbuf, recvbuf, count, datatype, op, comm);
    mica_unlock();
    return rc;
}
