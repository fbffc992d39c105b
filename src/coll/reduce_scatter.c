/* MPI_Reduce_scatter_block and MPI_Reduce_scatter.
 *  - commutative operations: pairwise exchange, p - 1 steps; in step i each process sends its
 *    contribution to the block of rank + i and folds in what rank - i sends for its own block
 *    (n bytes through each process in all, the least possible);
 *  - other operations: an allreduce of the whole vector (in rank order), keeping our block. */
#include <stdlib.h>
#include <string.h>

#include "coll/algorithms.h"
#include "coll/coll.h"
#include "coll/inter.h"
#include "core/errors.h"
#include "core/progress.h"
#include "core_api.h"

int mica_coll_reduce_scatter_locked(const void *sbuf, void *rbuf, const MPI_Count *rcounts,
                                    mica_type_t *type, mica_op_t *op, mica_comm_t *comm)
{
    int size = comm->size, rank = comm->rank, rc = MPI_SUCCESS;
    MPI_Count *displs = malloc((size_t)size * sizeof *displs), total = 0;
    if (!displs)
        return mica_error(MPI_ERR_NO_MEM, "no memory for %d displacements", size);
    for (int i = 0; i < size; i++) {
        displs[i] = total;
        total += rcounts[i];
    }
    const void *input = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    MPI_Count mine = rcounts[rank];
    void *mem = NULL, *tmp;

    if (!op->commutative || size == 1) {
        /* The whole vector reduced (in place if we may), then our block moved to the front. */
        void *all = rbuf;
        if (sbuf != MPI_IN_PLACE) {
            if (!(all = mica_coll_tmp(total, type, &mem))) {
                rc = mica_coll_no_mem(total, type);
                goto out;
            }
        }
        rc = mica_coll_allreduce_locked(sbuf, all, total, type, op, comm);
        if (rc == MPI_SUCCESS && (all != rbuf || displs[rank]))
            mica_type_copy(mica_coll_at(all, displs[rank], type), mine, type, rbuf, mine, type);
        goto out;
    }

    /* acc: our block, starting from our own contribution; tmp: a peer's contribution. */
    MPI_Count biggest = 0;
    for (int i = 0; i < size; i++)
        if (rcounts[i] > biggest)
            biggest = rcounts[i];
    void *mem2 = NULL, *acc;
    if (!(tmp = mica_coll_tmp(biggest, type, &mem)) || !(acc = mica_coll_tmp(mine, type, &mem2))) {
        free(mem2);
        rc = mica_coll_no_mem(biggest, type);
        goto out;
    }
    mica_type_copy(mica_coll_at(input, displs[rank], type), mine, type, acc, mine, type);
    for (int i = 1; i < size && rc == MPI_SUCCESS; i++) {
        int dst = (rank + i) % size, src = (rank - i + size) % size;
        rc = mica_coll_sendrecv(mica_coll_at(input, displs[dst], type), rcounts[dst], type, dst,
                                tmp, mine, type, src, MICA_TAG_REDUCE_SCATTER, comm);
        if (rc == MPI_SUCCESS)
            rc = mica_op_apply(op, tmp, acc, mine, type);
    }
    if (rc == MPI_SUCCESS)
        mica_type_copy(acc, mine, type, rbuf, mine, type);
    free(mem2);
out:
    free(mem);
    free(displs);
    return rc;
}

static int check(const void *sendbuf, const void *recvbuf, MPI_Count mine, mica_type_t *datatype,
                 mica_op_t *op)
{
    int rc = mica_coll_check_op(op, datatype);
    if (rc == MPI_SUCCESS && recvbuf == MPI_IN_PLACE)
        rc = mica_error(MPI_ERR_BUFFER, "recvbuf is MPI_IN_PLACE: only sendbuf may be");
    if (rc == MPI_SUCCESS && sendbuf == recvbuf && mine > 0)
        rc = mica_error(MPI_ERR_BUFFER, "sendbuf and recvbuf are the same buffer: use "
                        "MPI_IN_PLACE as sendbuf");
    return rc;
}

int mica_reduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                mica_type_t *datatype, mica_op_t *op, mica_comm_t *comm)
{
    if (comm->inter)
        return mica_inter_reduce_scatter(sendbuf, recvbuf, recvcount, NULL, datatype, op, comm);
    int rc = check(sendbuf, recvbuf, recvcount, datatype, op);
    if (rc != MPI_SUCCESS)
        return rc;
    MPI_Count *counts = malloc((size_t)comm->size * sizeof *counts);
    if (!counts)
        return mica_error(MPI_ERR_NO_MEM, "no memory for %d counts", comm->size);
    for (int i = 0; i < comm->size; i++)
        counts[i] = recvcount;
    mica_lock();
    rc = mica_coll_reduce_scatter_locked(sendbuf, recvbuf, counts, datatype, op, comm);
    mica_unlock();
    free(counts);
    return rc;
}

int mica_reduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                          mica_type_t *datatype, mica_op_t *op, mica_comm_t *comm)
{
    int rc = mica_coll_check_counts(comm->size, recvcounts, "recvcounts");
    if (rc == MPI_SUCCESS && comm->inter)
        return mica_inter_reduce_scatter(sendbuf, recvbuf, 0, recvcounts, datatype, op, comm);
    if (rc == MPI_SUCCESS)
        rc = check(sendbuf, recvbuf, recvcounts[comm->rank], datatype, op);
    if (rc != MPI_SUCCESS)
        return rc;
    mica_lock();
    rc = mica_coll_reduce_scatter_locked(sendbuf, recvbuf, recvcounts, datatype, op, comm);
    mica_unlock();
    return rc;
}

int mica_reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                        mica_type_t *datatype, mica_op_t *op, mica_comm_t *comm)
{
    MPI_Count *c;
    int rc = mica_coll_widen_counts(comm->size, recvcounts, &c);
    if (rc == MPI_SUCCESS)
        rc = mica_reduce_scatter_c(sendbuf, recvbuf, c, datatype, op, comm);
    free(c);
    return rc;
}
