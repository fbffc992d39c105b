/* Receiving, probing, and the combined send-receive calls. */
#include <stdlib.h>
#include <string.h>

#include "core/errors.h"
#include "core/progress.h"
#include "core_api.h"
#include "pt2pt/engine.h"

static void fill(mica_request_t *r, void *buf, MPI_Count count, mica_type_t *type, int source,
                 int tag, mica_comm_t *comm, enum mica_context ctx)
{
    r->buf = buf;
    r->count = count;
    r->type = type;
    r->peer = source;
    r->tag = tag;
    r->comm = comm;
    r->context = comm->context + ctx;
    r->bytes = count * type->size;
}

static void start_recv(mica_request_t *r)
{
    if (r->peer == MPI_PROC_NULL)
        mica_pt2pt_complete_proc_null(r);
    else
        mica_pt2pt_start_recv(r);
}

int mica_pt2pt_irecv(void *buf, MPI_Count count, mica_type_t *type, int source, int tag,
                     mica_comm_t *comm, enum mica_context ctx, mica_request_t **req)
{
    mica_request_t *r = mica_request_new(MICA_REQ_RECV);
    if (!r)
        return mica_error(MPI_ERR_NO_MEM, "no memory for a request");
    fill(r, buf, count, type, source, tag, comm, ctx);
    mica_type_retain(type);
    mica_comm_retain(comm);
    start_recv(r);
    *req = r;
    return MPI_SUCCESS;
}

int mica_recv_c(void *buf, MPI_Count count, mica_type_t *datatype, int source, int tag,
                mica_comm_t *comm, MPI_Status *status)
{
    int rc = mica_pt2pt_check_type(datatype);
    if (rc != MPI_SUCCESS)
        return rc;
    mica_request_t r;                 /* never seen by the user: it can live on the stack */
    memset(&r, 0, sizeof r);
    r.kind = MICA_REQ_RECV;
    fill(&r, buf, count, datatype, source, tag, comm, MICA_CTX_PT2PT);
    start_recv(&r);
    MICA_WAIT_UNTIL(mica_request_done(&r));
    mica_status_give(status, &r.status);
    return r.status.MPI_ERROR;
}

int mica_irecv_c(void *buf, MPI_Count count, mica_type_t *datatype, int source, int tag,
                 mica_comm_t *comm, MPI_Request *request)
{
    int rc = mica_pt2pt_check_type(datatype);
    if (rc != MPI_SUCCESS)
        return rc;
    mica_request_t *r;
    rc = mica_pt2pt_irecv(buf, count, datatype, source, tag, comm, MICA_CTX_PT2PT, &r);
    if (rc == MPI_SUCCESS)
        *request = (MPI_Request)r->obj.handle;
    return rc;
}

int mica_recv_init_c(void *buf, MPI_Count count, mica_type_t *datatype, int source, int tag,
                     mica_comm_t *comm, MPI_Request *request)
{
    int rc = mica_pt2pt_check_type(datatype);
    if (rc != MPI_SUCCESS)
        return rc;
    mica_request_t *r = mica_request_new(MICA_REQ_RECV);
    if (!r)
        return mica_error(MPI_ERR_NO_MEM, "no memory for a request");
    fill(r, buf, count, datatype, source, tag, comm, MICA_CTX_PT2PT);
    mica_type_retain(datatype);
    mica_comm_retain(comm);
    r->persistent = 1;
    *request = (MPI_Request)r->obj.handle;
    return MPI_SUCCESS;
}

/* What a receive request does for MPI_Start and MPI_Cancel (core/request.h). */
static int start_persistent(mica_request_t *r)
{
    start_recv(r);
    return MPI_SUCCESS;
}

static int cancel(mica_request_t *r)
{
    mica_pt2pt_cancel_recv(r);        /* one already matched is not cancelled */
    return MPI_SUCCESS;
}

const mica_request_ops_t mica_pt2pt_recv_ops = {.start = start_persistent, .cancel = cancel,
                                                .free = mica_pt2pt_request_free};

/* --- send and receive in one call --------------------------------------------------------- */

/* Start both halves as parts of one compound request. */
static int start_pair(const void *sendbuf, MPI_Count sendcount, mica_type_t *sendtype, int dest,
                      int sendtag, void *recvbuf, MPI_Count recvcount, mica_type_t *recvtype,
                      int source, int recvtag, mica_comm_t *comm, void *tmp, mica_request_t **out)
{
    int rc = mica_pt2pt_check_type(sendtype);
    if (rc == MPI_SUCCESS)
        rc = mica_pt2pt_check_type(recvtype);
    if (rc != MPI_SUCCESS)
        return rc;
    mica_request_t *pair = mica_request_new(MICA_REQ_RECV), *s, *r;
    if (!pair)
        return mica_error(MPI_ERR_NO_MEM, "no memory for a request");
    pair->pending = 2;
    pair->scratch = tmp;              /* MPI_Sendrecv_replace's copy, freed with the request */
    rc = mica_pt2pt_irecv(recvbuf, recvcount, recvtype, source, recvtag, comm, MICA_CTX_PT2PT, &r);
    if (rc != MPI_SUCCESS) {
        pair->scratch = NULL;         /* the caller still owns it */
        mica_request_release(pair);
        return rc;
    }
    mica_pt2pt_adopt(pair, r);
    rc = mica_pt2pt_isend(sendbuf, sendcount, sendtype, dest, sendtag, comm, MICA_CTX_PT2PT,
                          MICA_SEND_STANDARD, &s);
    if (rc != MPI_SUCCESS)
        return rc;                    /* the receive stays posted: it was valid */
    mica_pt2pt_adopt(pair, s);
    if (!pair->pending)
        mica_request_complete(pair);
    *out = pair;
    return MPI_SUCCESS;
}

int mica_sendrecv_c(const void *sendbuf, MPI_Count sendcount, mica_type_t *sendtype, int dest,
                    int sendtag, void *recvbuf, MPI_Count recvcount, mica_type_t *recvtype,
                    int source, int recvtag, mica_comm_t *comm, MPI_Status *status)
{
    mica_request_t *pair;
    int rc = start_pair(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                        source, recvtag, comm, NULL, &pair);
    if (rc == MPI_SUCCESS)
        rc = mica_request_wait(pair, status);
    return rc;
}

/* The send half of a replace goes from a packed copy, so the buffer can take the reply. */
static int start_replace(void *buf, MPI_Count count, mica_type_t *datatype, int dest, int sendtag,
                         int source, int recvtag, mica_comm_t *comm, mica_request_t **pair)
{
    int rc = mica_pt2pt_check_type(datatype);
    if (rc != MPI_SUCCESS)
        return rc;
    MPI_Count bytes = count * datatype->size;
    void *tmp = malloc(bytes ? (size_t)bytes : 1);
    if (!tmp)
        return mica_error(MPI_ERR_NO_MEM, "no memory for a copy of %lld bytes", (long long)bytes);
    mica_type_pack(buf, count, datatype, 0, tmp, bytes);
    mica_type_t *byte = mica_type_lookup(MPI_BYTE);
    rc = start_pair(tmp, bytes, byte, dest, sendtag, buf, count, datatype, source, recvtag, comm,
                    tmp, pair);
    if (rc != MPI_SUCCESS)
        free(tmp);
    return rc;
}

int mica_sendrecv_replace_c(void *buf, MPI_Count count, mica_type_t *datatype, int dest,
                            int sendtag, int source, int recvtag, mica_comm_t *comm,
                            MPI_Status *status)
{
    mica_request_t *pair;
    int rc = start_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm, &pair);
    if (rc == MPI_SUCCESS)
        rc = mica_request_wait(pair, status);
    return rc;
}

int mica_isendrecv_c(const void *sendbuf, MPI_Count sendcount, mica_type_t *sendtype, int dest,
                     int sendtag, void *recvbuf, MPI_Count recvcount, mica_type_t *recvtype,
                     int source, int recvtag, mica_comm_t *comm, MPI_Request *request)
{
    mica_request_t *pair;
    int rc = start_pair(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                        source, recvtag, comm, NULL, &pair);
    if (rc == MPI_SUCCESS)
        *request = (MPI_Request)pair->obj.handle;
    return rc;
}

int mica_isendrecv_replace_c(void *buf, MPI_Count count, mica_type_t *datatype, int dest,
                             int sendtag, int source, int recvtag, mica_comm_t *comm,
                             MPI_Request *request)
{
    mica_request_t *pair;
    int rc = start_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm, &pair);
    if (rc == MPI_SUCCESS)
        *request = (MPI_Request)pair->obj.handle;
    return rc;
}

/* --- probes ------------------------------------------------------------------------------ */

static const MPI_Status proc_null_status = {.MPI_SOURCE = MPI_PROC_NULL, .MPI_TAG = MPI_ANY_TAG};

int mica_iprobe(int source, int tag, mica_comm_t *comm, int *flag, MPI_Status *status)
{
    if (source == MPI_PROC_NULL) {
        *flag = 1;
        mica_status_give(status, &proc_null_status);
        return MPI_SUCCESS;
    }
    MPI_Status s;
    if (!(*flag = mica_pt2pt_probe(comm->context, source, tag, &s))) {
        mica_progress();
        *flag = mica_pt2pt_probe(comm->context, source, tag, &s);
    }
    if (*flag)
        mica_status_give(status, &s);
    return MPI_SUCCESS;
}

int mica_probe(int source, int tag, mica_comm_t *comm, MPI_Status *status)
{
    if (source == MPI_PROC_NULL) {
        mica_status_give(status, &proc_null_status);
        return MPI_SUCCESS;
    }
    MPI_Status s;
    MICA_WAIT_UNTIL(mica_pt2pt_probe(comm->context, source, tag, &s));
    mica_status_give(status, &s);
    return MPI_SUCCESS;
}

static int new_message(void *msg, mica_comm_t *comm, MPI_Message *message)
{
    mica_message_t *m = mica_obj_new(MICA_MESSAGE, sizeof *m);
    if (!m)
        return mica_error(MPI_ERR_NO_MEM, "no memory for a message");
    m->msg = msg;
    m->comm = comm;
    mica_comm_retain(comm);
    *message = (MPI_Message)m->obj.handle;
    return MPI_SUCCESS;
}

int mica_improbe(int source, int tag, mica_comm_t *comm, int *flag, MPI_Message *message,
                 MPI_Status *status)
{
    if (source == MPI_PROC_NULL) {
        *flag = 1;
        *message = MPI_MESSAGE_NO_PROC;
        mica_status_give(status, &proc_null_status);
        return MPI_SUCCESS;
    }
    MPI_Status s;
    void *msg = mica_pt2pt_mprobe(comm->context, source, tag, &s);
    if (!msg) {
        mica_progress();
        msg = mica_pt2pt_mprobe(comm->context, source, tag, &s);
    }
    *flag = msg != NULL;
    if (!msg)
        return MPI_SUCCESS;
    mica_status_give(status, &s);
    return new_message(msg, comm, message);
}

int mica_mprobe(int source, int tag, mica_comm_t *comm, MPI_Message *message, MPI_Status *status)
{
    if (source == MPI_PROC_NULL) {
        *message = MPI_MESSAGE_NO_PROC;
        mica_status_give(status, &proc_null_status);
        return MPI_SUCCESS;
    }
    MPI_Status s;
    void *msg;
    MICA_WAIT_UNTIL((msg = mica_pt2pt_mprobe(comm->context, source, tag, &s)));
    mica_status_give(status, &s);
    return new_message(msg, comm, message);
}

/* Receive a matched message; MPI_MESSAGE_NO_PROC receives nothing, like MPI_PROC_NULL. The
 * request takes over the message's hold on its communicator, whose error handler raises the
 * errors (*eo). */
static int mrecv_start(void *buf, MPI_Count count, mica_type_t *datatype, MPI_Message *message,
                       mica_request_t *r, mica_errobj_t **eo)
{
    mica_message_t *m = *message == MPI_MESSAGE_NO_PROC ? NULL : mica_message_lookup(*message);
    if (m)
        *eo = &m->comm->eo;
    int rc = mica_pt2pt_check_type(datatype);
    if (rc != MPI_SUCCESS)
        return rc;
    r->kind = MICA_REQ_RECV;
    r->buf = buf;
    r->count = count;
    r->type = datatype;
    r->bytes = count * datatype->size;
    if (!m) {
        mica_pt2pt_complete_proc_null(r);
    } else {
        r->comm = m->comm;
        mica_pt2pt_mrecv(r, m->msg);
        mica_obj_free(m);
    }
    *message = MPI_MESSAGE_NULL;
    return MPI_SUCCESS;
}

int mica_mrecv_c(void *buf, MPI_Count count, mica_type_t *datatype, MPI_Message *message,
                 MPI_Status *status, mica_errobj_t **eo)
{
    mica_request_t r;
    memset(&r, 0, sizeof r);
    int rc = mrecv_start(buf, count, datatype, message, &r, eo);
    if (rc == MPI_SUCCESS) {
        MICA_WAIT_UNTIL(mica_request_done(&r));
        mica_status_give(status, &r.status);
        rc = r.status.MPI_ERROR;
    }
    if (r.comm)
        mica_comm_release(r.comm);
    return rc;
}

int mica_imrecv_c(void *buf, MPI_Count count, mica_type_t *datatype, MPI_Message *message,
                  MPI_Request *request, mica_errobj_t **eo)
{
    mica_request_t *r = mica_request_new(MICA_REQ_RECV);
    int rc = r ? mrecv_start(buf, count, datatype, message, r, eo)
               : mica_error(MPI_ERR_NO_MEM, "no memory for a request");
    if (rc == MPI_SUCCESS)
        mica_type_retain(datatype);
    if (r && rc != MPI_SUCCESS)
        mica_request_release(r);
    if (rc == MPI_SUCCESS)
        *request = (MPI_Request)r->obj.handle;
    return rc;
}
