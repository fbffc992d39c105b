/* The point-to-point engine: matching (posted receives and unexpected messages, MPI's
 * non-overtaking order), the eager and rendezvous protocols of proto.h, and the queues of
 * packets waiting for room in the transport. Every function here runs under the big lock. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/counters.h"
#include "core/errors.h"
#include "core/request.h"
#include "core/tunables.h"
#include "pt2pt/engine.h"
#include "pt2pt/proto.h"
#include "transport/transport.h"

/* Request states. */
enum { ST_NEW, ST_QUEUED, ST_WAIT_CTS, ST_WAIT_GET, ST_WAIT_ACK, ST_STREAM, ST_POSTED,
       ST_RECEIVING };

/* A message that arrived before its receive was posted. */
typedef struct umsg {
    struct umsg *next;
    uint32_t context;
    int src, tag, world;              /* comm rank, tag, and the sender's world rank */
    int sync, rts, key;
    uint64_t size, sreq, serial;
    char data[];                      /* an eager message's payload, or an RTS's key */
} umsg_t;

/* A control packet (CTS, ACK) waiting for room in the transport. */
typedef struct ctl {
    struct ctl *next;
    unsigned am;
    mica_pt2pt_hdr_t hdr;
} ctl_t;

typedef struct peer {
    const mica_transport_t *tp;       /* what carries packets to and from this peer */
    mica_request_t *head, *tail;      /* sends not fully handed to the transport yet, in order */
    ctl_t *ctl_head, *ctl_tail;
} peer_t;

static struct {
    int rank, size;
    peer_t *peers;
    int busy;                         /* peers with something queued */
    mica_request_t *posted_head, *posted_tail;
    umsg_t *unexp_head, **unexp_tail;
    size_t eager_limit, chunk;
    MPI_Count single_copy;            /* messages from this size are read by get */
    uint64_t serial;                  /* the last send's serial (proto.h) */
} pt;

int mica_pt2pt_init(int rank, int size)
{
    pt.rank = rank;
    pt.size = size;
    pt.peers = calloc(size, sizeof *pt.peers);
    pt.unexp_tail = &pt.unexp_head;
    if (!pt.peers)
        return -1;
    pt.eager_limit = mica_tunables.eager_limit;
    pt.chunk = mica_tunables.chunk;
    pt.single_copy = mica_tunables.single_copy;
    if (pt.single_copy == 0)
        pt.single_copy = INT64_MAX;    /* off */
    for (int w = 0; w < size; w++) {  /* one eager limit and chunk: the smallest packet wins */
        pt.peers[w].tp = mica_transport_of(w);
        size_t max = pt.peers[w].tp->payload_limit();
        if (pt.eager_limit > max)
            pt.eager_limit = max;
        if (pt.chunk > max)
            pt.chunk = max;
    }
    return 0;
}

void mica_pt2pt_finalize(void)
{
    while (pt.unexp_head) {
        umsg_t *u = pt.unexp_head;
        pt.unexp_head = u->next;
        free(u);
    }
    mica_counters.unexpected_len = mica_counters.posted_len = 0;
    free(pt.peers);
    memset(&pt, 0, sizeof pt);
}

/* --- completion ----------------------------------------------------------------------- */

/* A part of a compound request is complete: the receive has the status, a send may have an
 * error. */
static void give_parent(mica_request_t *parent, mica_request_t *r)
{
    if (r->kind == MICA_REQ_RECV) {
        parent->status = r->status;
        if (parent->kind == MICA_REQ_PART)
            parent->status.MPI_TAG = parent->tag;  /* the user's, not the one on the wire */
    } else if (r->status.MPI_ERROR != MPI_SUCCESS && parent->status.MPI_ERROR == MPI_SUCCESS) {
        parent->status.MPI_ERROR = r->status.MPI_ERROR;
    }
    parent->pending--;
    mica_request_release(r);
}

void mica_pt2pt_adopt(mica_request_t *parent, mica_request_t *part)
{
    if (mica_request_done(part))
        give_parent(parent, part);
    else
        part->parent = parent;
}

static void finish(mica_request_t *r)
{
    mica_request_t *parent = r->parent;
    if (parent) {
        give_parent(parent, r);
        if (!parent->pending)
            finish(parent);
        return;
    }
    if (r->freed)
        mica_request_release(r);
    else
        mica_request_complete(r);
}

/* A send's cancel in flight (r->cancel): the answer completes the request, so it stays while
 * the answer is on its way even if the send itself is done meanwhile. */
enum { CANCEL_NONE, CANCEL_ASKED, CANCEL_ASKED_DONE };

static void finish_send(mica_request_t *r)
{
    free(r->scratch);                 /* a packed copy the receiver read (blocking sends' */
    r->scratch = NULL;                /* requests live on the stack: release never sees them) */
    r->status.MPI_ERROR = MPI_SUCCESS;
    if (r->bsend_buf)
        mica_pt2pt_bsend_release(r);
    if (r->cancel == CANCEL_ASKED)
        r->cancel = CANCEL_ASKED_DONE;
    else
        finish(r);
}

/* A message shorter than the buffer that ends inside a basic element of the receive datatype
 * (3 bytes into MPI_INTs): the send and receive type signatures differ (MPICH's
 * errors/pt2pt/truncmsg2). */
static int ends_inside(const mica_request_t *r, MPI_Count got)
{
    return got < r->bytes && mica_type_elements(r->type, got) == MPI_UNDEFINED;
}

static void finish_recv(mica_request_t *r, int src, int tag, MPI_Count size, MPI_Count got)
{
    r->status.MPI_SOURCE = src;
    r->status.MPI_TAG = tag;
    if (got < size)
        r->status.MPI_ERROR = mica_error(MPI_ERR_TRUNCATE, "a message of %lld bytes from rank %d "
                                         "(tag %d) does not fit in the receive buffer of %lld "
                                         "bytes", (long long)size, src, tag, (long long)r->bytes);
    else if (MICA_UNLIKELY(ends_inside(r, got)))
        r->status.MPI_ERROR = mica_error(MPI_ERR_TYPE, "a message of %lld bytes from rank %d "
                                         "(tag %d) ends inside an element of the receive "
                                         "datatype: the type signatures differ", (long long)got,
                                         src, tag);
    else
        r->status.MPI_ERROR = MPI_SUCCESS;
    mica_status_set_count(&r->status, got);
    mica_counters.msgs_received++;
    mica_counters.bytes_received += (uint64_t)got;
    finish(r);
}

/* --- sending ---------------------------------------------------------------------------- */

/* Bytes [pos, pos + len) of what r sends: a buffered send sends its packed copy. */
static void pack_out(mica_request_t *r, MPI_Count pos, void *dst, size_t len)
{
    if (r->bsend_buf)
        memcpy(dst, (char *)r->bsend_buf + pos, len);
    else
        mica_type_pack(r->buf, r->count, r->type, pos, dst, (MPI_Count)len);
}

static void queue(peer_t *p, mica_request_t *r)
{
    if (!p->head && !p->ctl_head)
        pt.busy++;
    r->next = NULL;
    if (p->tail)
        p->tail->next = r;
    else
        p->head = r;
    p->tail = r;
}

static void ctl_send_hdr(int world, unsigned am, const mica_pt2pt_hdr_t *hdr)
{
    peer_t *p = &pt.peers[world];
    mica_transport_pkt_t *pkt = p->ctl_head ? NULL : p->tp->send_begin(world, 0);
    if (pkt) {
        pkt->am = (uint16_t)am;
        *mica_pt2pt_hdr(pkt) = *hdr;
        p->tp->send_commit(world, pkt);
        return;
    }
    ctl_t *c = malloc(sizeof *c);     /* no room: keep it for the next flush */
    if (!c)
        abort();                      /* out of memory in the progress engine: nothing is safe */
    *c = (ctl_t){.am = am, .hdr = *hdr};
    if (!p->head && !p->ctl_head)
        pt.busy++;
    if (p->ctl_tail)
        p->ctl_tail->next = c;
    else
        p->ctl_head = c;
    p->ctl_tail = c;
}

static void ctl_send(int world, unsigned am, uint64_t sreq, uint64_t rreq, uint64_t size)
{
    mica_pt2pt_hdr_t hdr = {.sreq = sreq, .rreq = rreq, .size = size};
    ctl_send_hdr(world, am, &hdr);
}

/* A large send from a non-contiguous buffer is packed into a copy of this size at most, which
 * the receiver then reads (beyond it, the packets carry the message). */
#define PACKED_COPY_MAX ((MPI_Count)64 << 20)

/* The contiguous bytes a large send exposes for the receiver to read (proto.h), or NULL: the
 * buffer itself, MPI_Bsend's copy, or a copy of a non-contiguous buffer packed at the first
 * call (r->scratch: one packing, then no hand-off per piece; it stays while push is tried again
 * on a full ring, and goes when the send completes). */
static const void *single_copy_region(mica_request_t *r, const mica_transport_t *tp)
{
    if (r->bytes < pt.single_copy || !tp->expose)
        return NULL;
    if (r->bsend_buf)
        return r->bsend_buf;
    if (r->type->contiguous)
        return (const char *)r->buf + r->type->true_lb;
    if (!r->scratch && r->bytes <= PACKED_COPY_MAX && (r->scratch = malloc((size_t)r->bytes)))
        mica_type_pack(r->buf, r->count, r->type, 0, r->scratch, r->bytes);
    return r->scratch;
}

/* The receiver will not read r's buffer any more (it answered ACK or CTS). */
static void unexpose(mica_request_t *r, int world)
{
    const mica_transport_t *tp = pt.peers[world].tp;
    tp->unexpose(single_copy_region(r, tp), (size_t)r->bytes);
}

/* Hand what fits of request r (at the head of its peer's queue) to the transport: 1 when all
 * is. */
static int push(mica_request_t *r, int world)
{
    const mica_transport_t *tp = pt.peers[world].tp;
    if (r->state == ST_STREAM) {
        while (r->moved < r->total) {
            size_t n = r->total - r->moved < (MPI_Count)pt.chunk ? (size_t)(r->total - r->moved) : pt.chunk;
            mica_transport_pkt_t *pkt = tp->send_begin(world, n);
            if (!pkt)
                return 0;
            pkt->am = MICA_PT2PT_DATA;
            mica_pt2pt_hdr_t *h = mica_pt2pt_hdr(pkt);
            h->rreq = r->remote;
            h->offset = (uint64_t)r->moved;
            pack_out(r, r->moved, mica_transport_payload(pkt), n);
            tp->send_commit(world, pkt);
            r->moved += n;
        }
        finish_send(r);
        return 1;
    }
    int eager = r->bytes <= (MPI_Count)pt.eager_limit;
    const void *region = eager ? NULL : single_copy_region(r, tp);
    mica_transport_key_t key;
    if (region && tp->expose(region, (size_t)r->bytes, &key))
        region = NULL;
    size_t payload = eager ? (size_t)r->bytes : region ? sizeof key : 0;
    mica_transport_pkt_t *pkt = tp->send_begin(world, payload);
    if (!pkt) {
        if (region)
            tp->unexpose(region, (size_t)r->bytes);
        return 0;
    }
    pkt->am = eager ? MICA_PT2PT_EAGER : MICA_PT2PT_RTS;
    mica_pt2pt_hdr_t *h = mica_pt2pt_hdr(pkt);
    h->flags = (r->mode == MICA_SEND_SYNC ? MICA_PT2PT_SYNC : 0) | (region ? MICA_PT2PT_KEY : 0);
    h->context = r->context;
    h->src = r->comm->rank;
    h->tag = r->tag;
    h->size = (uint64_t)r->bytes;
    h->sreq = (uint64_t)(uintptr_t)r;
    h->offset = r->serial;
    if (eager && r->bytes)
        pack_out(r, 0, mica_transport_payload(pkt), (size_t)r->bytes);
    if (region)
        memcpy(mica_transport_payload(pkt), &key, sizeof key);
    tp->send_commit(world, pkt);
    mica_counters.msgs_sent++;
    mica_counters.bytes_sent += (uint64_t)r->bytes;
    if (!eager) {
        mica_counters.rndv_sends++;
        mica_counters.single_copy_sends += region != NULL;
    }
    if (!eager)
        r->state = region ? ST_WAIT_GET : ST_WAIT_CTS;
    else if (r->mode == MICA_SEND_SYNC)
        r->state = ST_WAIT_ACK;
    else
        finish_send(r);
    return 1;
}

/* Hand what fits of the queued packets for `world` to the transport; 1 if anything moved. */
static int flush(int world)
{
    peer_t *p = &pt.peers[world];
    int moved = 0;
    while (p->ctl_head) {
        ctl_t *c = p->ctl_head;
        mica_transport_pkt_t *pkt = p->tp->send_begin(world, 0);
        if (!pkt)
            return moved;
        pkt->am = (uint16_t)c->am;
        *mica_pt2pt_hdr(pkt) = c->hdr;
        p->tp->send_commit(world, pkt);
        p->ctl_head = c->next;
        if (!p->ctl_head)
            p->ctl_tail = NULL;
        free(c);
        moved = 1;
    }
    while (p->head) {
        mica_request_t *r = p->head, *next = r->next;
        MPI_Count before = r->moved;
        if (!push(r, world))
            return moved || r->moved != before;
        p->head = next;
        if (!p->head)
            p->tail = NULL;
        moved = 1;
    }
    pt.busy--;
    return 1;
}

int mica_pt2pt_send_now(const void *buf, MPI_Count count, mica_type_t *type, int dest, int tag,
                        mica_comm_t *comm, uint32_t context)
{
    MPI_Count bytes = count * type->size;
    int world = mica_comm_peer_world(comm, dest);
    peer_t *p = &pt.peers[world];
    if (bytes > (MPI_Count)pt.eager_limit || p->head || p->ctl_head)
        return 0;
    const mica_transport_t *tp = p->tp;
    mica_transport_pkt_t *pkt = tp->send_begin(world, (size_t)bytes);
    if (!pkt)
        return 0;
    pkt->am = MICA_PT2PT_EAGER;
    mica_pt2pt_hdr_t *h = mica_pt2pt_hdr(pkt);
    h->flags = 0;
    h->context = context;
    h->src = comm->rank;
    h->tag = tag;
    h->size = (uint64_t)bytes;
    h->offset = 0;                    /* no request: no cancel names it */
    void *payload = mica_transport_payload(pkt);
    if (type->contiguous)
        memcpy(payload, (const char *)buf + type->true_lb, (size_t)bytes);
    else
        mica_type_pack(buf, count, type, 0, payload, bytes);
    tp->send_commit(world, pkt);
    mica_counters.msgs_sent++;
    mica_counters.bytes_sent += (uint64_t)bytes;
    return 1;
}

void mica_pt2pt_start_send(mica_request_t *r)
{
    int world = mica_comm_peer_world(r->comm, r->peer);
    peer_t *p = &pt.peers[world];
    r->state = ST_QUEUED;
    r->serial = ++pt.serial;
    if (!p->head && !p->ctl_head && push(r, world))
        return;
    queue(p, r);
}

/* --- receiving -------------------------------------------------------------------------- */

static int matches(const mica_request_t *r, uint32_t context, int src, int tag)
{
    return r->context == context && (r->peer == src || r->peer == MPI_ANY_SOURCE) &&
           (r->tag == tag || r->tag == MPI_ANY_TAG);
}

/* The receiver has read a single-copy message: the sender may complete. */
static void got_direct(void *arg)
{
    mica_request_t *r = arg;
    ctl_send(r->sender, MICA_PT2PT_ACK, r->remote, 0, 0);
    finish_recv(r, r->status.MPI_SOURCE, r->status.MPI_TAG, r->message, r->total);
}

/* The receiver cannot read the sender's buffer (the system forbids it): the packets carry it. */
static void ask_for_packets(mica_request_t *r)
{
    r->moved = 0;
    ctl_send(r->sender, MICA_PT2PT_CTS, r->remote, (uint64_t)(uintptr_t)r, (uint64_t)r->total);
}

/* A receive into a non-contiguous buffer reads the sender's bytes a piece at a time into a
 * buffer of its own and unpacks each: still no hand-off per piece. Kept in r->ext. */
#define PIECE ((size_t)1 << 20)
typedef struct pieces {
    mica_transport_key_t key;
    size_t len;                       /* of the piece being read */
    int reading, read;                /* inside get; its piece has arrived */
    char buf[];
} pieces_t;

static int get_pieces(mica_request_t *r);

static void got_piece(void *arg)
{
    mica_request_t *r = arg;
    pieces_t *p = r->ext;
    mica_type_unpack(r->buf, r->count, r->type, r->moved, p->buf, (MPI_Count)p->len);
    r->moved += (MPI_Count)p->len;
    p->read = 1;
    if (!p->reading && get_pieces(r))  /* a transport that completes later: go on from here */
        ask_for_packets(r);
}

/* Read pieces until one is still on its way or all are in: 0, or -1 when the transport
 * refused (what was read is read again from the packets). */
static int get_pieces(mica_request_t *r)
{
    pieces_t *p = r->ext;
    const mica_transport_t *tp = pt.peers[r->sender].tp;
    while (r->moved < r->total) {
        MPI_Count left = r->total - r->moved;
        p->len = left < (MPI_Count)PIECE ? (size_t)left : PIECE;
        p->read = 0;
        p->reading = 1;
        int rc = tp->get(r->sender, p->buf, &p->key, (size_t)r->moved, p->len, got_piece, r);
        p->reading = 0;
        if (rc) {
            free(p);
            r->ext = NULL;
            return -1;
        }
        if (!p->read)
            return 0;
    }
    free(p);
    r->ext = NULL;
    got_direct(r);
    return 0;
}

/* A matched rendezvous: read the bytes this receive takes straight from the sender's buffer
 * when it sent a key, else tell it how much to send. */
static void accept_rts(mica_request_t *r, int world, int src, int tag, uint64_t size, uint64_t sreq,
                       const mica_transport_key_t *key)
{
    const mica_transport_t *tp = pt.peers[world].tp;
    r->total = (MPI_Count)size < r->bytes ? (MPI_Count)size : r->bytes;
    r->moved = 0;
    r->status.MPI_SOURCE = src;
    r->status.MPI_TAG = tag;
    r->message = (MPI_Count)size;
    r->remote = sreq;
    r->sender = world;
    r->state = ST_RECEIVING;
    if (!r->total) {
        ask_for_packets(r);           /* of which there are none */
        finish_recv(r, src, tag, (MPI_Count)size, 0);
        return;
    }
    if (key && tp->get) {
        if (r->type->contiguous) {
            if (!tp->get(world, (char *)r->buf + r->type->true_lb, key, 0, (size_t)r->total,
                         got_direct, r))
                return;
        } else {
            size_t piece = r->total < (MPI_Count)PIECE ? (size_t)r->total : PIECE;
            pieces_t *p = malloc(sizeof *p + piece);
            if (p) {
                p->key = *key;
                r->ext = p;
                if (!get_pieces(r))
                    return;
            }
        }
    }
    ask_for_packets(r);
}

static void deliver_eager(mica_request_t *r, int src, int tag, const void *data, uint64_t size)
{
    MPI_Count got = (MPI_Count)size < r->bytes ? (MPI_Count)size : r->bytes;
    if (got)
        mica_type_unpack(r->buf, r->count, r->type, 0, data, got);
    finish_recv(r, src, tag, (MPI_Count)size, got);
}

static void unlink_posted(mica_request_t *r)
{
    mica_counters.posted_len--;
    if (r->prev)
        r->prev->next = r->next;
    else
        pt.posted_head = r->next;
    if (r->next)
        r->next->prev = r->prev;
    else
        pt.posted_tail = r->prev;
}

static mica_request_t *match_posted(uint32_t context, int src, int tag)
{
    for (mica_request_t *r = pt.posted_head; r; r = r->next)
        if (matches(r, context, src, tag)) {
            unlink_posted(r);
            return r;
        }
    return NULL;
}

/* --- cancelling a send ------------------------------------------------------------------- */

/* The receiver's side of a CANCEL: take the message with this serial from `world` off the
 * unexpected queue and answer whether it did (not: matched, received, or taken by
 * MPI_Mprobe). The answer names the message's own request too when the sender waits for it
 * (an RTS, a synchronous send): a buffered send's, which is not the one cancelled. */
static void withdraw(int world, const mica_pt2pt_hdr_t *h)
{
    mica_pt2pt_hdr_t ans = {.sreq = h->sreq};
    for (umsg_t **pu = &pt.unexp_head; *pu; pu = &(*pu)->next) {
        umsg_t *u = *pu;
        if (u->world == world && u->serial == h->offset) {
            *pu = u->next;
            if (pt.unexp_tail == &u->next)
                pt.unexp_tail = pu;
            ans.size = 1;
            ans.rreq = u->rts || u->sync ? u->sreq : 0;
            mica_counters.unexpected_len--;
            free(u);
            break;
        }
    }
    ctl_send_hdr(world, MICA_PT2PT_CANCELLED, &ans);
}

static void finish_cancelled(mica_request_t *r)
{
    r->status.MPI_internal[MICA_STATUS_CANCELLED] = 1;
    mica_status_set_count(&r->status, 0);
    r->state = ST_NEW;
    finish_send(r);
}

/* The sender's side: the receiver's answer completes the request, cancelled or sent. */
static void cancel_answered(mica_request_t *r, int world, const mica_pt2pt_hdr_t *h)
{
    mica_request_t *msg = (mica_request_t *)(uintptr_t)h->rreq;
    int done = r->cancel == CANCEL_ASKED_DONE;
    r->cancel = CANCEL_NONE;
    if (msg && msg != r) {            /* a buffered send's copy, waiting for a CTS or an ACK */
        if (msg->state == ST_WAIT_GET)
            unexpose(msg, world);
        finish_cancelled(msg);
    }
    if (h->size) {                    /* no CTS or ACK will come: the receiver never saw it */
        if (r->state == ST_WAIT_GET)
            unexpose(r, world);
        finish_cancelled(r);
    } else if (done) {
        finish(r);
    }                                 /* else its CTS or ACK is still to come */
}

int mica_pt2pt_cancel_send(mica_request_t *r)
{
    if (r->cancel != CANCEL_NONE || !r->serial || r->peer == MPI_PROC_NULL ||
        (r->persistent && !r->active))  /* an inactive persistent request: nothing to cancel */
        return 0;
    int world = mica_comm_peer_world(r->comm, r->peer);
    peer_t *p = &pt.peers[world];
    if (r->state == ST_QUEUED && !mica_request_done(r)) {  /* not handed to the transport yet */
        mica_request_t **pr = &p->head, *prev = NULL;
        while (*pr != r) {
            prev = *pr;
            pr = &(*pr)->next;
        }
        *pr = r->next;
        if (p->tail == r)
            p->tail = prev;
        if (!p->head && !p->ctl_head)
            pt.busy--;
        finish_cancelled(r);
        return 1;
    }
    if (mica_request_done(r)) {       /* an eager message or a buffered send's copy, perhaps
                                       * still unmatched: open the request again */
        atomic_store_explicit(&r->done, 0, memory_order_relaxed);
        r->cancel = CANCEL_ASKED_DONE;
    } else if (r->state == ST_WAIT_ACK || r->state == ST_WAIT_CTS || r->state == ST_WAIT_GET) {
        r->cancel = CANCEL_ASKED;
    } else {
        return 0;                     /* streaming: matched already */
    }
    mica_pt2pt_hdr_t hdr = {.sreq = (uint64_t)(uintptr_t)r, .offset = r->serial};
    ctl_send_hdr(world, MICA_PT2PT_CANCEL, &hdr);
    return 1;
}

static void handle(int world, mica_transport_pkt_t *pkt)
{
    const mica_pt2pt_hdr_t *h = mica_pt2pt_hdr(pkt);
    switch (pkt->am) {
    case MICA_PT2PT_EAGER:
    case MICA_PT2PT_RTS: {
        mica_request_t *r = match_posted(h->context, h->src, h->tag);
        int key = pkt->am == MICA_PT2PT_RTS && (h->flags & MICA_PT2PT_KEY);
        if (r && pkt->am == MICA_PT2PT_RTS) {
            accept_rts(r, world, h->src, h->tag, h->size, h->sreq,
                       key ? mica_transport_payload(pkt) : NULL);
            return;
        }
        if (r) {
            deliver_eager(r, h->src, h->tag, mica_transport_payload(pkt), h->size);
        } else {
            size_t keep = pkt->len;   /* an eager payload, or an RTS's key */
            umsg_t *u = malloc(sizeof *u + keep);
            if (!u)
                abort();
            *u = (umsg_t){.context = h->context, .src = h->src, .tag = h->tag, .world = world,
                          .sync = h->flags & MICA_PT2PT_SYNC, .rts = pkt->am == MICA_PT2PT_RTS,
                          .key = key, .size = h->size, .sreq = h->sreq, .serial = h->offset};
            memcpy(u->data, mica_transport_payload(pkt), keep);
            *pt.unexp_tail = u;
            pt.unexp_tail = &u->next;
            mica_counters.unexpected_msgs++;
            if (++mica_counters.unexpected_len > mica_counters.unexpected_hwm)
                mica_counters.unexpected_hwm = mica_counters.unexpected_len;
            mica_event_raise(MICA_EVENT_UNEXPECTED_MSG, &(mica_event_unexpected_t){
                    .source = h->src, .tag = h->tag, .size = (MPI_Count)h->size,
                    .context = h->context}, sizeof(mica_event_unexpected_t));
            return;
        }
        if (h->flags & MICA_PT2PT_SYNC)
            ctl_send(world, MICA_PT2PT_ACK, h->sreq, 0, 0);
        return;
    }
    case MICA_PT2PT_CTS: {
        mica_request_t *r = (mica_request_t *)(uintptr_t)h->sreq;
        if (r->state == ST_WAIT_GET)  /* the receiver could not read it: stream it */
            unexpose(r, world);
        r->total = (MPI_Count)h->size;
        r->remote = h->rreq;
        r->moved = 0;
        r->state = ST_STREAM;
        if (!r->total)
            finish_send(r);
        else if (!pt.peers[world].head && !pt.peers[world].ctl_head && push(r, world))
            return;
        else
            queue(&pt.peers[world], r);
        return;
    }
    case MICA_PT2PT_DATA: {
        mica_request_t *r = (mica_request_t *)(uintptr_t)h->rreq;
        mica_type_unpack(r->buf, r->count, r->type, (MPI_Count)h->offset, mica_transport_payload(pkt),
                         (MPI_Count)pkt->len);
        r->moved += (MPI_Count)pkt->len;
        if (r->moved == r->total)
            finish_recv(r, r->status.MPI_SOURCE, r->status.MPI_TAG, r->message, r->total);
        return;
    }
    case MICA_PT2PT_ACK: {
        mica_request_t *r = (mica_request_t *)(uintptr_t)h->sreq;
        if (r->state == ST_WAIT_GET)  /* the receiver has read it */
            unexpose(r, world);
        finish_send(r);
        return;
    }
    case MICA_PT2PT_CANCEL:
        withdraw(world, h);
        return;
    case MICA_PT2PT_CANCELLED:
        cancel_answered((mica_request_t *)(uintptr_t)h->sreq, world, h);
        return;
    }
}

/* Take a matching unexpected message off the queue (for a receive, or a matched probe). */
static umsg_t *take_unexpected(uint32_t context, int src, int tag, int remove)
{
    for (umsg_t **pu = &pt.unexp_head; *pu; pu = &(*pu)->next) {
        umsg_t *u = *pu;
        if (u->context == context && (src == MPI_ANY_SOURCE || src == u->src) &&
            (tag == MPI_ANY_TAG || tag == u->tag)) {
            if (remove) {
                *pu = u->next;
                if (pt.unexp_tail == &u->next)
                    pt.unexp_tail = pu;
                mica_counters.unexpected_len--;
            }
            return u;
        }
    }
    return NULL;
}

static void receive_unexpected(mica_request_t *r, umsg_t *u)
{
    if (u->rts) {
        accept_rts(r, u->world, u->src, u->tag, u->size, u->sreq,
                   u->key ? (const mica_transport_key_t *)(void *)u->data : NULL);
    } else {
        if (u->sync)
            ctl_send(u->world, MICA_PT2PT_ACK, u->sreq, 0, 0);
        deliver_eager(r, u->src, u->tag, u->data, u->size);
    }
    free(u);
}

void mica_pt2pt_start_recv(mica_request_t *r)
{
    umsg_t *u = take_unexpected(r->context, r->peer, r->tag, 1);
    if (u) {
        receive_unexpected(r, u);
        return;
    }
    r->state = ST_POSTED;
    r->next = NULL;
    r->prev = pt.posted_tail;
    if (pt.posted_tail)
        pt.posted_tail->next = r;
    else
        pt.posted_head = r;
    pt.posted_tail = r;
    if (++mica_counters.posted_len > mica_counters.posted_hwm)
        mica_counters.posted_hwm = mica_counters.posted_len;
}

int mica_pt2pt_cancel_recv(mica_request_t *r)
{
    if (r->state != ST_POSTED || mica_request_done(r))
        return 0;
    unlink_posted(r);
    r->status.MPI_internal[MICA_STATUS_CANCELLED] = 1;
    r->status.MPI_ERROR = MPI_SUCCESS;
    r->state = ST_NEW;
    finish(r);
    return 1;
}

int mica_pt2pt_probe(uint32_t context, int src, int tag, MPI_Status *status)
{
    umsg_t *u = take_unexpected(context, src, tag, 0);
    if (u && status) {
        status->MPI_SOURCE = u->src;
        status->MPI_TAG = u->tag;
        status->MPI_ERROR = MPI_SUCCESS;
        status->MPI_internal[MICA_STATUS_CANCELLED] = 0;
        mica_status_set_count(status, (MPI_Count)u->size);
    }
    return u != NULL;
}

void *mica_pt2pt_mprobe(uint32_t context, int src, int tag, MPI_Status *status)
{
    if (!mica_pt2pt_probe(context, src, tag, status))
        return NULL;
    return take_unexpected(context, src, tag, 1);
}

void mica_pt2pt_mrecv(mica_request_t *r, void *msg)
{
    receive_unexpected(r, msg);
}

/* --- progress --------------------------------------------------------------------------- */

int mica_pt2pt_flushed(void)
{
    return !pt.busy;
}

int mica_pt2pt_poll(void)
{
    int moved = 0;
    for (int src = 0; src < pt.size; src++) {
        const mica_transport_t *tp = pt.peers[src].tp;
        mica_transport_pkt_t *pkt;
        for (int n = 0; n < 16 && (pkt = tp->recv_begin(src)); n++) {
            handle(src, pkt);
            tp->recv_commit(src, pkt);
            moved = 1;
        }
    }
    if (pt.busy)
        for (int w = 0; w < pt.size; w++)
            if (pt.peers[w].head || pt.peers[w].ctl_head)
                moved |= flush(w);
    return moved;
}
