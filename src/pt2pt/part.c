/* Partitioned communication (MPI 4.0 chapter 4): MPI_Psend_init and MPI_Precv_init make
 * persistent requests whose message travels as one point-to-point message of all partitions.
 * The send goes when the last partition is ready (MPI_Pready, _range, _list); the receive is
 * posted at MPI_Start, and each partition arrives with the whole message (MPI_Parrived), which
 * the standard allows. The message travels on the communicator's collective context under a
 * tag of its own (mica_pt2pt_part_tag), so no receive of the user's matches it, and sender and
 * receiver may cut the same data into different numbers of partitions. Partitioned requests
 * match in the order of their initialisation calls (MPI 4.0 section 4.2.2): each carries its
 * number among the inits of its side with the same communicator, peer and tag, and the wire tag
 * mixes it in, so the k-th MPI_Psend_init meets the k-th MPI_Precv_init whatever the order of
 * MPI_Start. */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/errors.h"
#include "core/progress.h"
#include "core_api.h"
#include "pt2pt/engine.h"

typedef struct part {
    int partitions;
    int send;                         /* the sending side */
    unsigned order;                   /* its number among the inits of its kind (above) */
    int ready;                        /* partitions marked ready since MPI_Start */
    unsigned char marked[];           /* which */
} part_t;

static part_t *part_of(mica_request_t *r)
{
    return r->ext;
}

/* How many inits of each side each (context, peer, tag) has seen. */
typedef struct count {
    struct count *next;
    uint32_t context;
    int peer, tag, send;
    unsigned n;
} count_t;
static count_t *counts;

static int next_order(uint32_t context, int peer, int tag, int send, unsigned *order)
{
    count_t *c = counts;
    while (c && (c->context != context || c->peer != peer || c->tag != tag || c->send != send))
        c = c->next;
    if (!c) {
        if (!(c = malloc(sizeof *c)))
            return mica_error(MPI_ERR_NO_MEM, "no memory for a request");
        *c = (count_t){.next = counts, .context = context, .peer = peer, .tag = tag, .send = send};
        counts = c;
    }
    *order = c->n++;
    return MPI_SUCCESS;
}

static int init(void *buf, int partitions, MPI_Count count, mica_type_t *type, int peer, int tag,
                mica_comm_t *comm, int send, MPI_Request *request)
{
    int rc = mica_pt2pt_check_type(type);
    if (rc != MPI_SUCCESS)
        return rc;
    if (partitions < 0)
        return mica_error(MPI_ERR_ARG, "partitions=%d is negative", partitions);
    unsigned order = 0;
    rc = next_order(comm->context, peer, tag, send, &order);
    if (rc != MPI_SUCCESS)
        return rc;
    mica_request_t *r = mica_request_new(MICA_REQ_PART);
    part_t *p = malloc(sizeof *p + (size_t)partitions);
    if (!r || !p) {
        free(p);
        if (r)
            mica_request_release(r);
        return mica_error(MPI_ERR_NO_MEM, "no memory for a request");
    }
    *p = (part_t){.partitions = partitions, .send = send, .order = order};
    r->ext = p;
    r->buf = buf;
    r->count = (MPI_Count)partitions * count;
    r->type = type;
    r->peer = peer;
    r->tag = tag;
    r->comm = comm;
    r->persistent = 1;
    mica_type_retain(type);
    mica_comm_retain(comm);
    *request = (MPI_Request)r->obj.handle;
    return MPI_SUCCESS;
}

int mica_psend_init_c(const void *buf, int partitions, MPI_Count count, mica_type_t *datatype,
                      int dest, int tag, mica_comm_t *comm, mica_info_t *info, MPI_Request *request)
{
    (void)info;                       /* no hints are used */
    return init((void *)buf, partitions, count, datatype, dest, tag, comm, 1, request);
}

int mica_precv_init_c(void *buf, int partitions, MPI_Count count, mica_type_t *datatype, int dest,
                      int tag, mica_comm_t *comm, mica_info_t *info, MPI_Request *request)
{
    (void)info;
    return init(buf, partitions, count, datatype, dest, tag, comm, 0, request);
}

/* The message's own request, a part of r (engine.c completes r with it). */
static int go(mica_request_t *r, int send)
{
    mica_request_t *m;
    int tag = mica_pt2pt_part_tag((int)(((unsigned)r->tag + part_of(r)->order * 65537u) & INT_MAX));
    int rc = send ? mica_pt2pt_isend(r->buf, r->count, r->type, r->peer, tag, r->comm,
                                     MICA_CTX_COLL, MICA_SEND_STANDARD, &m)
                  : mica_pt2pt_irecv(r->buf, r->count, r->type, r->peer, tag, r->comm,
                                     MICA_CTX_COLL, &m);
    if (rc != MPI_SUCCESS)
        return rc;
    mica_pt2pt_adopt(r, m);
    if (!r->pending)
        mica_request_complete(r);
    return MPI_SUCCESS;
}

/* MPI_Start: no partition is ready yet; a receive is posted at once. */
static int start(mica_request_t *r)
{
    part_t *p = part_of(r);
    p->ready = 0;
    memset(p->marked, 0, (size_t)p->partitions);
    if (r->peer == MPI_PROC_NULL) {
        mica_pt2pt_complete_proc_null(r);
        return MPI_SUCCESS;
    }
    r->pending = 1;
    if (!p->send || p->partitions == 0)
        return go(r, p->send);
    return MPI_SUCCESS;
}

static void part_free(mica_request_t *r)
{
    free(r->ext);
    r->ext = NULL;
    mica_pt2pt_request_free(r);
}

const mica_request_ops_t mica_pt2pt_part_ops = {.start = start, .free = part_free};

/* The request a partition call names must be an active partitioned request of that side. */
static int check(mica_request_t *r, int send, mica_errobj_t **eo)
{
    if (r->comm)
        *eo = &r->comm->eo;
    if (r->kind != MICA_REQ_PART || part_of(r)->send != send)
        return mica_error(MPI_ERR_REQUEST, "request is not a partitioned %s request",
                          send ? "send" : "receive");
    return MPI_SUCCESS;
}

static int mark(mica_request_t *r, int partition)
{
    part_t *p = part_of(r);
    if (partition < 0 || partition >= p->partitions)
        return mica_error(MPI_ERR_ARG, "partition %d is not one of the request's (0 to %d)",
                          partition, p->partitions - 1);
    if (!r->active)
        return mica_error(MPI_ERR_REQUEST, "request is not active: MPI_Start it first");
    if (p->marked[partition])
        return mica_error(MPI_ERR_ARG, "partition %d is ready already", partition);
    p->marked[partition] = 1;
    if (++p->ready == p->partitions && r->peer != MPI_PROC_NULL)
        return go(r, 1);
    return MPI_SUCCESS;
}

int mica_pready(int partition, mica_request_t *request, mica_errobj_t **eo)
{
    int rc = check(request, 1, eo);
    return rc != MPI_SUCCESS ? rc : mark(request, partition);
}

int mica_pready_range(int partition_low, int partition_high, mica_request_t *request,
                      mica_errobj_t **eo)
{
    int rc = check(request, 1, eo);
    if (rc == MPI_SUCCESS && partition_low > partition_high)
        rc = mica_error(MPI_ERR_ARG, "partition_low=%d is above partition_high=%d", partition_low,
                        partition_high);
    for (int i = partition_low; rc == MPI_SUCCESS && i <= partition_high; i++)
        rc = mark(request, i);
    return rc;
}

int mica_pready_list(int length, const int array_of_partitions[], mica_request_t *request,
                     mica_errobj_t **eo)
{
    int rc = check(request, 1, eo);
    if (rc == MPI_SUCCESS && length < 0)
        rc = mica_error(MPI_ERR_ARG, "length=%d is negative", length);
    if (rc == MPI_SUCCESS && length > 0 && !array_of_partitions)
        rc = mica_error(MPI_ERR_ARG, "array_of_partitions is NULL with length=%d", length);
    for (int i = 0; rc == MPI_SUCCESS && i < length; i++)
        rc = mark(request, array_of_partitions[i]);
    return rc;
}

int mica_parrived(mica_request_t *request, int partition, int *flag, mica_errobj_t **eo)
{
    int rc = check(request, 0, eo);
    if (rc != MPI_SUCCESS)
        return rc;
    part_t *p = part_of(request);
    if (partition < 0 || partition >= p->partitions)
        return mica_error(MPI_ERR_ARG, "partition=%d is not one of the request's (0 to %d)",
                          partition, p->partitions - 1);
    if (request->active && !mica_request_done(request))
        mica_progress();
    *flag = !request->active || mica_request_done(request);  /* inactive: nothing to wait for */
    return MPI_SUCCESS;
}
