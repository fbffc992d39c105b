/* MPI_Scan and MPI_Exscan: recursive doubling, ceil(log2 p) exchanges. `partial` holds the
 * reduction over the block of ranks exchanged with so far, the result the reduction over the
 * part of that block up to us (for Exscan: below us); whatever comes from a lower block goes on
 * the left of the operator, so non-commutative operations come out in rank order. */
#include <stdlib.h>

#include "coll/coll.h"
#include "coll/inter.h"
#include "core/errors.h"
#include "core/progress.h"
#include "core_api.h"

int mica_coll_scan_locked(const void *sbuf, void *rbuf, MPI_Count count, mica_type_t *type,
                          mica_op_t *op, mica_comm_t *comm, int exclusive)
{
    int size = comm->size, rank = comm->rank, rc = MPI_SUCCESS;
    const void *input = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    if (!exclusive && sbuf != MPI_IN_PLACE)
        mica_type_copy(sbuf, count, type, rbuf, count, type);
    if (size == 1 || count * type->size == 0)
        return MPI_SUCCESS;
    void *mem1, *mem2 = NULL, *tmp = NULL, *partial = mica_coll_tmp(count, type, &mem1);
    if (!partial || !(tmp = mica_coll_tmp(count, type, &mem2))) {
        free(mem1);
        return mica_coll_no_mem(count, type);
    }
    mica_type_copy(input, count, type, partial, count, type);
    int have = !exclusive;            /* rbuf holds a value */
    for (int mask = 1; mask < size && rc == MPI_SUCCESS; mask <<= 1) {
        int peer = rank ^ mask;
        if (peer >= size)
            continue;
        rc = mica_coll_sendrecv(partial, count, type, peer, tmp, count, type, peer,
                                exclusive ? MICA_TAG_EXSCAN : MICA_TAG_SCAN, comm);
        if (rc != MPI_SUCCESS)
            break;
        if (peer < rank) {
            rc = mica_op_apply(op, tmp, partial, count, type);
            if (rc != MPI_SUCCESS)
                break;
            if (have) {
                rc = mica_op_apply(op, tmp, rbuf, count, type);
            } else {
                mica_type_copy(tmp, count, type, rbuf, count, type);
                have = 1;
            }
        } else if (op->commutative) {
            rc = mica_op_apply(op, tmp, partial, count, type);
        } else {
            rc = mica_op_apply(op, partial, tmp, count, type);
            void *t = partial;
            partial = tmp, tmp = t;
        }
    }
    free(mem1);
    free(mem2);
    return rc;
}

static int scan_entry(const void *sendbuf, void *recvbuf, MPI_Count count, mica_type_t *datatype,
                      mica_op_t *op, mica_comm_t *comm, int exclusive)
{
    int rc = mica_coll_check_op(op, datatype);
    if (rc != MPI_SUCCESS)
        return rc;
    if (recvbuf == MPI_IN_PLACE)
        return mica_error(MPI_ERR_BUFFER, "recvbuf is MPI_IN_PLACE: only sendbuf may be");
    if (sendbuf == recvbuf && count > 0)
        return mica_error(MPI_ERR_BUFFER, "sendbuf and recvbuf are the same buffer: use "
                          "MPI_IN_PLACE as sendbuf");
    mica_lock();
    rc = mica_coll_scan_locked(sendbuf, recvbuf, count, datatype, op, comm, exclusive);
    mica_unlock();
    return rc;
}

int mica_scan_c(const void *sendbuf, void *recvbuf, MPI_Count count, mica_type_t *datatype,
                mica_op_t *op, mica_comm_t *comm)
{
    if (comm->inter)
        return mica_inter_undefined("MPI_Scan");
    return scan_entry(sendbuf, recvbuf, count, datatype, op, comm, 0);
}

int mica_exscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, mica_type_t *datatype,
                  mica_op_t *op, mica_comm_t *comm)
{
    if (comm->inter)
        return mica_inter_undefined("MPI_Exscan");
    return scan_entry(sendbuf, recvbuf, count, datatype, op, comm, 1);
}
