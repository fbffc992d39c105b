/* Sending: the four modes, blocking, nonblocking and persistent. */
#include <string.h>

#include "core/errors.h"
#include "core/progress.h"
#include "core_api.h"
#include "pt2pt/engine.h"

static void fill(mica_request_t *r, const void *buf, MPI_Count count, mica_type_t *type, int peer,
                 int tag, mica_comm_t *comm, enum mica_context ctx)
{
    r->buf = (void *)buf;
    r->count = count;
    r->type = type;
    r->peer = peer;
    r->tag = tag;
    r->comm = comm;
    r->context = comm->context + ctx;
    r->bytes = count * type->size;
}

int mica_pt2pt_check_type(const mica_type_t *type)
{
    return mica_type_ready(type) ? MPI_SUCCESS
        : mica_error(MPI_ERR_TYPE, "datatype is not committed: call MPI_Type_commit first");
}

/* A request that completes at once: a send to, or a receive from, MPI_PROC_NULL. */
void mica_pt2pt_complete_proc_null(mica_request_t *r)
{
    r->status = (MPI_Status){.MPI_SOURCE = MPI_PROC_NULL, .MPI_TAG = MPI_ANY_TAG};
    mica_request_complete(r);
}

/* A buffered send is complete once its data is in the attached buffer (the standard: it is
 * local): the message goes on under a request of the library's own, released by the engine
 * when the receiver has it, while r completes at once. */
static int start_buffered(mica_request_t *r)
{
    mica_request_t *m = mica_request_new(MICA_REQ_SEND);
    if (!m)
        return mica_error(MPI_ERR_NO_MEM, "no memory for a request");
    m->buf = r->buf;
    m->count = r->count;
    m->type = r->type;
    m->peer = r->peer;
    m->tag = r->tag;
    m->comm = r->comm;
    m->context = r->context;
    m->bytes = r->bytes;
    m->mode = MICA_SEND_BUFFERED;
    int rc = mica_pt2pt_bsend_copy(m);
    if (rc != MPI_SUCCESS) {
        m->type = NULL;
        m->comm = NULL;
        mica_request_release(m);
        return rc;
    }
    m->type = NULL;                   /* it sends the packed copy */
    mica_comm_retain(m->comm);
    m->freed = 1;
    mica_pt2pt_start_send(m);
    r->serial = m->serial;            /* what a cancel of r names */
    r->status = (MPI_Status){.MPI_ERROR = MPI_SUCCESS};
    mica_request_complete(r);
    return MPI_SUCCESS;
}

/* Start a send described by r. */
static int start_send(mica_request_t *r)
{
    if (r->peer == MPI_PROC_NULL) {
        mica_pt2pt_complete_proc_null(r);
        return MPI_SUCCESS;
    }
    if (r->mode == MICA_SEND_BUFFERED)
        return start_buffered(r);
    mica_pt2pt_start_send(r);
    return MPI_SUCCESS;
}

int mica_pt2pt_isend(const void *buf, MPI_Count count, mica_type_t *type, int dest, int tag,
                     mica_comm_t *comm, enum mica_context ctx, enum mica_send_mode mode,
                     mica_request_t **req)
{
    mica_request_t *r = mica_request_new(MICA_REQ_SEND);
    if (!r)
        return mica_error(MPI_ERR_NO_MEM, "no memory for a request");
    fill(r, buf, count, type, dest, tag, comm, ctx);
    mica_type_retain(type);
    mica_comm_retain(comm);
    r->mode = (uint8_t)mode;
    int rc = start_send(r);
    if (rc != MPI_SUCCESS) {
        mica_request_release(r);
        return rc;
    }
    *req = r;
    return MPI_SUCCESS;
}

/* A blocking send that must wait: through a request on the stack, never seen by the user. Out
 * of line, so that the fast path below needs no stack frame for it. */
static __attribute__((noinline)) int send_waiting(const void *buf, MPI_Count count,
                                                  mica_type_t *type, int dest, int tag,
                                                  mica_comm_t *comm, enum mica_send_mode mode)
{
    mica_request_t r = {.kind = MICA_REQ_SEND, .mode = (uint8_t)mode};
    fill(&r, buf, count, type, dest, tag, comm, MICA_CTX_PT2PT);
    int rc = start_send(&r);
    if (rc == MPI_SUCCESS) {
        MICA_WAIT_UNTIL(mica_request_done(&r));
        rc = r.status.MPI_ERROR;
    }
    return rc;
}

/* Inlined in each mode's entry point: the fast path sends an eager message at once. */
static inline __attribute__((always_inline)) int send_blocking(const void *buf, MPI_Count count,
                                                               mica_type_t *type, int dest,
                                                               int tag, mica_comm_t *comm,
                                                               enum mica_send_mode mode)
{
    int rc = mica_pt2pt_check_type(type);
    if (rc != MPI_SUCCESS || dest == MPI_PROC_NULL)
        return rc;
    if ((mode == MICA_SEND_STANDARD || mode == MICA_SEND_READY) &&
        mica_pt2pt_send_now(buf, count, type, dest, tag, comm, comm->context + MICA_CTX_PT2PT))
        return MPI_SUCCESS;
    return send_waiting(buf, count, type, dest, tag, comm, mode);
}

static int send_nonblocking(const void *buf, MPI_Count count, mica_type_t *type, int dest,
                            int tag, mica_comm_t *comm, enum mica_send_mode mode, MPI_Request *request)
{
    int rc = mica_pt2pt_check_type(type);
    if (rc != MPI_SUCCESS)
        return rc;
    mica_request_t *r;
    rc = mica_pt2pt_isend(buf, count, type, dest, tag, comm, MICA_CTX_PT2PT, mode, &r);
    if (rc == MPI_SUCCESS)
        *request = (MPI_Request)r->obj.handle;
    return rc;
}

static int send_init(const void *buf, MPI_Count count, mica_type_t *type, int dest, int tag,
                     mica_comm_t *comm, enum mica_send_mode mode, MPI_Request *request)
{
    int rc = mica_pt2pt_check_type(type);
    if (rc != MPI_SUCCESS)
        return rc;
    mica_request_t *r = mica_request_new(MICA_REQ_SEND);
    if (!r)
        return mica_error(MPI_ERR_NO_MEM, "no memory for a request");
    fill(r, buf, count, type, dest, tag, comm, MICA_CTX_PT2PT);
    mica_type_retain(type);
    mica_comm_retain(comm);
    r->mode = (uint8_t)mode;
    r->persistent = 1;
    *request = (MPI_Request)r->obj.handle;
    return MPI_SUCCESS;
}

/* The entry points: each mode in its blocking, nonblocking and persistent form. */
int mica_send_c(const void *buf, MPI_Count count, mica_type_t *datatype, int dest, int tag,
                mica_comm_t *comm)
{
    return send_blocking(buf, count, datatype, dest, tag, comm, MICA_SEND_STANDARD);
}

int mica_isend_c(const void *buf, MPI_Count count, mica_type_t *datatype, int dest, int tag,
                 mica_comm_t *comm, MPI_Request *request)
{
    return send_nonblocking(buf, count, datatype, dest, tag, comm, MICA_SEND_STANDARD, request);
}

int mica_send_init_c(const void *buf, MPI_Count count, mica_type_t *datatype, int dest,
                     int tag, mica_comm_t *comm, MPI_Request *request)
{
    return send_init(buf, count, datatype, dest, tag, comm, MICA_SEND_STANDARD, request);
}

int mica_ssend_c(const void *buf, MPI_Count count, mica_type_t *datatype, int dest, int tag,
                 mica_comm_t *comm)
{
    return send_blocking(buf, count, datatype, dest, tag, comm, MICA_SEND_SYNC);
}

int mica_issend_c(const void *buf, MPI_Count count, mica_type_t *datatype, int dest, int tag,
                  mica_comm_t *comm, MPI_Request *request)
{
    return send_nonblocking(buf, count, datatype, dest, tag, comm, MICA_SEND_SYNC, request);
}

int mica_ssend_init_c(const void *buf, MPI_Count count, mica_type_t *datatype, int dest,
                      int tag, mica_comm_t *comm, MPI_Request *request)
{
    return send_init(buf, count, datatype, dest, tag, comm, MICA_SEND_SYNC, request);
}

int mica_rsend_c(const void *buf, MPI_Count count, mica_type_t *datatype, int dest, int tag,
                 mica_comm_t *comm)
{
    return send_blocking(buf, count, datatype, dest, tag, comm, MICA_SEND_READY);
}

int mica_irsend_c(const void *buf, MPI_Count count, mica_type_t *datatype, int dest, int tag,
                  mica_comm_t *comm, MPI_Request *request)
{
    return send_nonblocking(buf, count, datatype, dest, tag, comm, MICA_SEND_READY, request);
}

int mica_rsend_init_c(const void *buf, MPI_Count count, mica_type_t *datatype, int dest,
                      int tag, mica_comm_t *comm, MPI_Request *request)
{
    return send_init(buf, count, datatype, dest, tag, comm, MICA_SEND_READY, request);
}

int mica_bsend_c(const void *buf, MPI_Count count, mica_type_t *datatype, int dest, int tag,
                 mica_comm_t *comm)
{
    return send_blocking(buf, count, datatype, dest, tag, comm, MICA_SEND_BUFFERED);
}

int mica_ibsend_c(const void *buf, MPI_Count count, mica_type_t *datatype, int dest, int tag,
                  mica_comm_t *comm, MPI_Request *request)
{
    return send_nonblocking(buf, count, datatype, dest, tag, comm, MICA_SEND_BUFFERED, request);
}

int mica_bsend_init_c(const void *buf, MPI_Count count, mica_type_t *datatype, int dest,
                      int tag, mica_comm_t *comm, MPI_Request *request)
{
    return send_init(buf, count, datatype, dest, tag, comm, MICA_SEND_BUFFERED, request);
}

/* --- pt2pt on the core's seams ------------------------------------------------------------- */

/* A request keeps its communicator, hence its context id, until it goes: MPI_Comm_free lets
 * pending operations complete, and the id must not go to a new communicator meanwhile. */
void mica_pt2pt_request_free(mica_request_t *r)
{
    if (r->comm)
        mica_comm_release(r->comm);
}

static int cancel_send(mica_request_t *r)
{
    mica_pt2pt_cancel_send(r);        /* one already matched is not cancelled */
    return MPI_SUCCESS;
}

void mica_pt2pt_register(void)
{
    static const mica_request_ops_t send_ops = {.start = start_send, .cancel = cancel_send,
                                                .free = mica_pt2pt_request_free};
    mica_request_set_ops(MICA_REQ_SEND, &send_ops);
    mica_request_set_ops(MICA_REQ_RECV, &mica_pt2pt_recv_ops);
    mica_request_set_ops(MICA_REQ_PART, &mica_pt2pt_part_ops);
    mica_progress_arm(mica_pt2pt_poll);
}
