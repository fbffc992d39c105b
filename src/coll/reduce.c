/* MPI_Reduce: a binomial tree. A process combines its partial result with its children's in
 * rank order (lower ranks on the left of the operator), so it is rooted at `root` for
 * commutative operations and at rank 0 for the others, which then hands the result to `root`. */
#include <string.h>
#include <stdlib.h>

#include "coll/coll.h"
#include "coll/inter.h"
#include "core/errors.h"
#include "core/progress.h"
#include "core_api.h"

int mica_coll_reduce(const void *sbuf, void *rbuf, MPI_Count count, mica_type_t *type,
                     mica_op_t *op, int root, mica_comm_t *comm)
{
    int size = comm->size, rank = comm->rank, rc = MPI_SUCCESS;
    const void *input = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    if (size == 1) {
        if (sbuf != MPI_IN_PLACE)
            mica_type_copy(sbuf, count, type, rbuf, count, type);
        return MPI_SUCCESS;
    }
    if (count * type->size == 0)
        return MPI_SUCCESS;
    int tree_root = op->commutative ? root : 0;
    int vrank = (rank - tree_root + size) % size;
    void *mem1 = NULL, *mem2 = NULL, *acc, *tmp = NULL;

    /* The accumulator: the root's receive buffer when the result ends there, else a copy. */
    if (rank == root && rank == tree_root) {
        acc = rbuf;
        if (sbuf != MPI_IN_PLACE)
            mica_type_copy(sbuf, count, type, rbuf, count, type);
    } else {
        if (!(acc = mica_coll_tmp(count, type, &mem1)))
            return mica_coll_no_mem(count, type);
        mica_type_copy(input, count, type, acc, count, type);
    }

    int mask;
    for (mask = 1; mask < size; mask <<= 1) {
        if (vrank & mask) {
            rc = mica_coll_send(acc, count, type, (vrank - mask + tree_root) % size,
                                MICA_TAG_REDUCE, comm);
            break;
        }
        if ((vrank | mask) >= size)
            continue;
        if (!tmp && !(tmp = mica_coll_tmp(count, type, &mem2))) {
            rc = mica_coll_no_mem(count, type);
            break;
        }
        rc = mica_coll_recv(tmp, count, type, ((vrank | mask) + tree_root) % size,
                            MICA_TAG_REDUCE, comm);
        if (rc != MPI_SUCCESS)
            break;
        if (op->commutative) {
            rc = mica_op_apply(op, tmp, acc, count, type);
        } else {                      /* acc holds the lower ranks: acc op tmp, into tmp */
            rc = mica_op_apply(op, acc, tmp, count, type);
            void *t = acc;
            acc = tmp, tmp = t;
        }
        if (rc != MPI_SUCCESS)
            break;
    }
    if (rc == MPI_SUCCESS && root != tree_root) {
        if (rank == tree_root)
            rc = mica_coll_send(acc, count, type, root, MICA_TAG_REDUCE, comm);
        else if (rank == root)
            rc = mica_coll_recv(rbuf, count, type, tree_root, MICA_TAG_REDUCE, comm);
    } else if (rc == MPI_SUCCESS && rank == root && acc != rbuf) {
        mica_type_copy(acc, count, type, rbuf, count, type);
    }
    free(mem1);
    free(mem2);
    return rc;
}

int mica_reduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, mica_type_t *datatype,
                  mica_op_t *op, int root, mica_comm_t *comm)
{
    if (comm->inter)
        return mica_inter_reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
    int rc = mica_coll_check_op(op, datatype);
    if (rc != MPI_SUCCESS)
        return rc;
    if (sendbuf == MPI_IN_PLACE && comm->rank != root)
        return mica_error(MPI_ERR_BUFFER, "sendbuf is MPI_IN_PLACE on rank %d, which is not the "
                          "root (%d)", comm->rank, root);
    if (recvbuf == MPI_IN_PLACE)
        return mica_error(MPI_ERR_BUFFER, "recvbuf is MPI_IN_PLACE: only sendbuf may be");
    if (comm->rank == root && sendbuf == recvbuf && count > 0)
        return mica_error(MPI_ERR_BUFFER, "sendbuf and recvbuf are the same buffer: use "
                          "MPI_IN_PLACE as sendbuf");
    mica_lock();
    rc = mica_coll_reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
    mica_unlock();
    return rc;
}
