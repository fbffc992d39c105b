/* Requests: one per pending operation, completed by the progress engine. */
#ifndef MICA_REQUEST_H
#define MICA_REQUEST_H

#include <stdatomic.h>
#include "core/comm.h"
#include "core/datatype.h"

enum mica_req_kind {
    MICA_REQ_SEND = 1, MICA_REQ_RECV, MICA_REQ_GREQ, MICA_REQ_NULL_PROC,
    MICA_REQ_COLL,                    /* a nonblocking or persistent collective (coll/sched.h) */
    MICA_REQ_PART,                    /* a partitioned send or receive (pt2pt/part.c) */
    MICA_REQ_KINDS
};

/* What a kind of request does beyond the request object, set by the module that makes that
 * kind (pt2pt sends and receives, coll collectives, the orchestrators generalized requests) when
 * MPI starts: the core and MPI_Start/MPI_Cancel then need not know the modules. Any may be NULL
 * (nothing to do). Called under the big lock. */
typedef struct mica_request_ops {
    int (*start)(mica_request_t *r);  /* MPI_Start of a persistent request, already marked
                                       * active; on error it is inactive again */
    void (*free)(mica_request_t *r);  /* release what the kind holds, as the request goes */
    int (*cancel)(mica_request_t *r); /* MPI_Cancel: an error if the kind cannot be cancelled */
} mica_request_ops_t;
extern mica_request_ops_t mica_request_ops[MICA_REQ_KINDS];
void mica_request_set_ops(enum mica_req_kind kind, const mica_request_ops_t *ops);

/* The byte count and the cancelled flag live in the status's internal fields. */
#define MICA_STATUS_COUNT_LO 0
#define MICA_STATUS_COUNT_HI 1
#define MICA_STATUS_CANCELLED 2

/* Give the user a completed operation's status: everything but MPI_ERROR, which only the
 * multiple-completion functions write, and only when they return MPI_ERR_IN_STATUS (MPI 4.1
 * section 3.2.5). */
static inline void mica_status_give(MPI_Status *user, const MPI_Status *s)
{
    if (user != MPI_STATUS_IGNORE) {
        int error = user->MPI_ERROR;
        *user = *s;
        user->MPI_ERROR = error;
    }
}

static inline void mica_status_set_count(MPI_Status *s, MPI_Count bytes)
{
    s->MPI_internal[MICA_STATUS_COUNT_LO] = (int)(uint32_t)bytes;
    s->MPI_internal[MICA_STATUS_COUNT_HI] = (int)(uint32_t)((uint64_t)bytes >> 32);
}

static inline MPI_Count mica_status_count(const MPI_Status *s)
{
    return (MPI_Count)((uint64_t)(uint32_t)s->MPI_internal[MICA_STATUS_COUNT_HI] << 32 |
                       (uint32_t)s->MPI_internal[MICA_STATUS_COUNT_LO]);
}

struct mica_request {
    mica_obj_t obj;
    uint8_t kind;                     /* enum mica_req_kind */
    uint8_t persistent;               /* made by an _init call; lives until MPI_Request_free */
    uint8_t active;                   /* persistent: started and not yet completed by a wait */
    uint8_t freed;                    /* the user freed it while still pending */
    uint8_t mode;                     /* send mode (enum mica_send_mode) */
    uint8_t state;                    /* protocol state, owned by pt2pt */
    uint8_t cancel;                   /* a send's cancel in flight, owned by pt2pt */
    atomic_int done;                  /* set last, with release, when complete */
    MPI_Status status;                /* valid once done */

    /* The operation. */
    void *buf;
    MPI_Count count;
    mica_type_t *type;
    int peer;                         /* rank in comm: destination, or source (maybe ANY) */
    int tag;
    mica_comm_t *comm;
    uint32_t context;
    MPI_Count bytes;                  /* send: message size; recv: buffer capacity */
    MPI_Count moved;                  /* bytes moved so far by a pipelined transfer */
    MPI_Count total;                  /* bytes the pipelined transfer will move */
    uint64_t remote;                  /* the peer's request, for the rendezvous */
    uint64_t serial;                  /* a send: its number, which a cancel names (proto.h) */
    MPI_Count message;                /* a rendezvous receive: the whole message's bytes */
    int sender;                       /* a rendezvous receive: the sender's world rank */
    void *bsend_buf;                  /* MPI_Bsend: the packed copy in the attached buffer */
    void *scratch;                    /* freed with the request (MPI_Sendrecv_replace's copy) */
    struct mica_request *next, *prev; /* in whichever queue holds it */
    struct mica_request *parent;      /* a part of a compound request (MPI_Isendrecv) */
    int pending;                      /* a compound request: parts not yet complete */
    void *ext;                        /* the kind's own data, owned by the module that set
                                       * its operations (a persistent collective's arguments,
                                       * a generalized request's functions); ops.free frees it */
};

mica_request_t *mica_request_new(enum mica_req_kind kind);
/* Mark complete (the status is filled); the last store, so waiters may free it right after. */
static inline void mica_request_complete(mica_request_t *r)
{
    atomic_store_explicit(&r->done, 1, memory_order_release);
}
static inline int mica_request_done(mica_request_t *r)
{
    return atomic_load_explicit(&r->done, memory_order_acquire);
}
/* Give the request back, or keep it if it is persistent. */
void mica_request_release(mica_request_t *r);

/* The library's own waits (lock held): wait for an internal request, fill *status (may be
 * NULL), free the request; returns the request's error code. */
int mica_request_wait(mica_request_t *req, MPI_Status *status);
/* The same for n requests (NULL entries are skipped); returns the first error. */
int mica_request_waitall(int n, mica_request_t **reqs);

#endif
