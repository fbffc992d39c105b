/* What the collective algorithms share: point-to-point on the collective context, temporary
 * buffers. */
#include <stdlib.h>
#include <string.h>

#include "coll/coll.h"
#include "core/errors.h"
#include "core/progress.h"
#include "core/request.h"

int mica_coll_isend(const void *buf, MPI_Count count, mica_type_t *type, int dest, int tag,
                    mica_comm_t *comm, mica_request_t **req)
{
    return mica_pt2pt_isend(buf, count, type, dest, tag, comm, MICA_CTX_COLL, MICA_SEND_STANDARD,
                            req);
}

int mica_coll_irecv(void *buf, MPI_Count count, mica_type_t *type, int source, int tag,
                    mica_comm_t *comm, mica_request_t **req)
{
    return mica_pt2pt_irecv(buf, count, type, source, tag, comm, MICA_CTX_COLL, req);
}

int mica_coll_send(const void *buf, MPI_Count count, mica_type_t *type, int dest, int tag,
                   mica_comm_t *comm)
{
    mica_request_t *r;
    int rc = mica_coll_isend(buf, count, type, dest, tag, comm, &r);
    return rc == MPI_SUCCESS ? mica_request_wait(r, NULL) : rc;
}

int mica_coll_recv_error(const mica_request_t *r)
{
    MPI_Count got = mica_status_count(&r->status);
    if (r->status.MPI_ERROR != MPI_SUCCESS || got == r->bytes)
        return r->status.MPI_ERROR;
    return mica_error(MPI_ERR_COUNT, "rank %d sent %lld bytes where this process expects %lld: "
                      "the processes' counts or datatypes differ", r->peer, (long long)got,
                      (long long)r->bytes);
}

/* Wait for a collective receive; its error (mica_coll_recv_error). */
static int wait_recv(mica_request_t *r)
{
    MICA_WAIT_UNTIL(mica_request_done(r));
    int rc = mica_coll_recv_error(r);
    mica_request_release(r);
    return rc;
}

int mica_coll_recv(void *buf, MPI_Count count, mica_type_t *type, int source, int tag,
                   mica_comm_t *comm)
{
    mica_request_t *r;
    int rc = mica_coll_irecv(buf, count, type, source, tag, comm, &r);
    return rc == MPI_SUCCESS ? wait_recv(r) : rc;
}

/* The receive is posted first, so the peer's message never waits in the unexpected queue
 * when we are the one that is late. */
int mica_coll_sendrecv(const void *sbuf, MPI_Count scount, mica_type_t *stype, int dest,
                       void *rbuf, MPI_Count rcount, mica_type_t *rtype, int source, int tag,
                       mica_comm_t *comm)
{
    mica_request_t *recv, *send = NULL;
    int rc = mica_coll_irecv(rbuf, rcount, rtype, source, tag, comm, &recv);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = mica_coll_isend(sbuf, scount, stype, dest, tag, comm, &send);
    int rc2 = wait_recv(recv);
    int rc3 = send ? mica_request_wait(send, NULL) : MPI_SUCCESS;
    return rc != MPI_SUCCESS ? rc : rc2 != MPI_SUCCESS ? rc2 : rc3;
}

void *mica_coll_tmp(MPI_Count count, const mica_type_t *type, void **mem)
{
    /* The bytes `count` elements span: from the lowest lower bound to the highest upper bound
     * over all elements (the extent may be negative, or smaller than the data). Both the true
     * bounds and the extent's are covered: reduction kernels work on whole C structs, padding
     * included (MPI_DOUBLE_INT has 12 bytes of data in an extent of 16). */
    MPI_Aint last = count > 0 ? (MPI_Aint)(count - 1) * type->extent : 0;
    MPI_Aint lo = type->true_lb < type->lb ? type->true_lb : type->lb;
    MPI_Aint hi = type->true_lb + type->true_extent;
    if (type->lb + type->extent > hi)
        hi = type->lb + type->extent;
    lo += last < 0 ? last : 0;
    hi += last > 0 ? last : 0;
    size_t bytes = hi > lo ? (size_t)(hi - lo) : 1;
    char *p = malloc(bytes);
    *mem = p;
    return p ? p - lo : NULL;
}

int mica_coll_no_mem(MPI_Count count, const mica_type_t *type)
{
    return mica_error(MPI_ERR_NO_MEM, "no memory for a temporary buffer of %lld elements of "
                      "extent %lld", (long long)count, (long long)type->extent);
}
