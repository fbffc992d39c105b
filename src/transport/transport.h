/* The transport interface: how the layer above (pt2pt) moves packets to and from another
 * process, whatever carries them. Read this before writing a transport.
 *
 * What a transport does, and what it does not
 *   A transport moves packets between this process and a peer (a world rank), in order per
 *   ordered pair of processes, reliably. A packet is a fixed part of MICA_TRANSPORT_PKT bytes
 *   (the transport's own words, an active-message id, the payload length, and an opaque
 *   header of MICA_TRANSPORT_HEADER bytes) followed by up to payload_limit() payload bytes.
 *   The active-message id ("am") is a small number, 1..MICA_TRANSPORT_AM_MAX, whose meaning
 *   the layer above defines (pt2pt: EAGER, RTS, CTS, DATA, ACK in pt2pt/proto.h); 0 belongs to
 *   the transport. The header is the layer above's too (pt2pt lays its matching envelope out
 *   there: context, source rank, tag, sizes, request ids, offset). A transport never reads the
 *   header or the payload and never interprets an id but its own 0 (shm: padding): it copies,
 *   carries and hands them back. Matching, protocols (eager, rendezvous, acknowledgements) and
 *   queues of what does not fit yet are the layer above's.
 *   The shape is that of Open MPI's BTLs (a table per transport, payloads tagged with a small
 *   id the upper layer owns) and MPICH ch4's shared-memory eager modules (send, recv_begin /
 *   recv_commit, payload_limit). Receiving is pulled, as in MPICH, rather than pushed into
 *   per-id callbacks as in a BTL: the polling loop, its order and its fairness stay in pt2pt.
 *
 * Sending: send_begin / send_commit
 *   send_begin(dest, n) returns room for a packet with n payload bytes to `dest`, its len set,
 *   or NULL when the transport has no room now; the caller keeps what it wanted to send and
 *   tries again from its progress function. The caller writes the id (am), the header and the
 *   payload in place (no copy in between), then send_commit(dest, pkt) sends it. Between the
 *   two nothing else may be begun for `dest`. n <= payload_limit() always.
 *   A shared-memory ring hands out its slots (one copy, into the receiver's memory); a network
 *   transport hands out a registered bounce buffer and posts it at commit (fi_inject or fi_send
 *   on an RDM endpoint, the id in the immediate data or the tag), and takes the buffer back
 *   when the send completes.
 *
 * Receiving: recv_begin / recv_commit
 *   recv_begin(src) returns the next packet from world rank `src`, or NULL; its am, len, header
 *   and payload stay valid until recv_commit(src, pkt) gives it back. Packets from one source
 *   come in the order they were committed. The layer above polls every peer from its progress
 *   function (pt2pt: mica_pt2pt_poll), handles a few packets per peer, then flushes its queues.
 *   A transport that must be driven to make packets appear (a network's completion queue)
 *   does so from a progress hook of its own (core/progress.h), or inside recv_begin, and keeps
 *   what arrived per source until recv_begin asks for it; posted receive buffers are reposted
 *   at recv_commit.
 *
 * Large messages: the optional single-copy operations
 *   A transport that can move memory directly between processes (shm: process_vm_readv; a
 *   network: RDMA fi_read/fi_write) sets expose, unexpose, get and put; the others leave them
 *   NULL, and pt2pt moves their large messages as RTS, CTS, then DATA packets through
 *   send_begin (two copies, and a hand-off per packet). The protocol (pt2pt/proto.h): the
 *   sender exposes its contiguous buffer and sends the key in the RTS payload (keys are at most
 *   MICA_TRANSPORT_KEY bytes, so they never constrain the header); the receiver gets the bytes
 *   it takes and answers ACK, after which the sender unexposes. When get fails (the system
 *   forbids it), the receiver answers CTS instead and the packets carry the message. get
 *   reports completion by calling `done(arg)`, from the transport's progress, or before it
 *   returns (shm). unexpose names the region, not the key: the sender need not keep the key,
 *   and a transport that registers memory finds the registration by its address.
 *
 * Which transport serves which peer
 *   transport.c knows every compiled-in transport, in order of preference (shared memory
 *   first). mica_transport_init starts each; every peer gets the first one that reaches() it,
 *   and mica_transport_of(peer) tells which. pt2pt keeps that pointer in its per-peer state.
 *   What the indirection costs: a send loads the table pointer once and calls through it,
 *   `call *off(%reg)`, as many instructions as a direct call. bench/send_cost.sh counted 221
 *   instructions per 8-byte MPI_Send before this interface and 222 with it (the id is a store
 *   of its own now); a receive of a packet waiting in the ring, the same before and after.
 *   Keep it so: send_begin takes no id because passing it costs more than the caller's store.
 *
 * Payload limits
 *   payload_limit() is the largest payload of one packet; it is fixed after init. pt2pt caps
 *   its eager limit and its DATA chunk at the smallest limit of the transports in use.
 *
 * Threads: every function but init and finalize is called under the big lock
 * (core/progress.h), as pt2pt's are.
 */
#ifndef MICA_TRANSPORT_H
#define MICA_TRANSPORT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/boot.h"

#define MICA_TRANSPORT_PKT 64         /* the fixed part of a packet; the payload follows it */
#define MICA_TRANSPORT_HEADER 48      /* bytes of the layer above's header in every packet */
#define MICA_TRANSPORT_AM_MAX 255     /* active-message ids: 1..255 (a network may carry 8 bits) */
#define MICA_TRANSPORT_KEY 32         /* bytes of an exposed region's key */

typedef struct mica_transport_pkt {
    _Atomic uint32_t ready;           /* the transport's own (shm: the slot count, stored last) */
    uint16_t am;                      /* the active-message id, written by the sender */
    uint16_t reserved;                /* the transport's own */
    uint64_t len;                     /* payload bytes */
    uint64_t header[MICA_TRANSPORT_HEADER / 8];   /* the layer above's, opaque (8-byte aligned) */
} mica_transport_pkt_t;
_Static_assert(sizeof(mica_transport_pkt_t) == MICA_TRANSPORT_PKT, "a packet's fixed part");

static inline void *mica_transport_header(mica_transport_pkt_t *p) { return p->header; }
static inline void *mica_transport_payload(mica_transport_pkt_t *p)
{
    return (char *)p + MICA_TRANSPORT_PKT;
}

/* A region exposed for get/put by peers; its bytes travel to the peer as they are. */
typedef struct mica_transport_key {
    unsigned char bytes[MICA_TRANSPORT_KEY];
} mica_transport_key_t;

typedef struct mica_transport {
    const char *name;
    /* 0 on success; -1 after a message on stderr. Collective over the job (boot fences). */
    int (*init)(const mica_boot_t *boot);
    void (*finalize)(void);
    /* Can this transport carry packets to and from world rank `peer`? Asked after init. */
    int (*reaches)(int peer);
    size_t (*payload_limit)(void);

    mica_transport_pkt_t *(*send_begin)(int dest, size_t payload);
    void (*send_commit)(int dest, mica_transport_pkt_t *pkt);
    mica_transport_pkt_t *(*recv_begin)(int src);
    void (*recv_commit)(int src, mica_transport_pkt_t *pkt);

    /* Optional (NULL when absent): single copy for large messages, see above. get and put
     * return 0 when started (done(arg) follows), -1 on error. */
    int (*expose)(const void *buf, size_t len, mica_transport_key_t *key);
    void (*unexpose)(const void *buf, size_t len);
    int (*get)(int peer, void *dst, const mica_transport_key_t *key, size_t offset, size_t len,
               void (*done)(void *arg), void *arg);
    int (*put)(int peer, const void *src, const mica_transport_key_t *key, size_t offset,
               size_t len, void (*done)(void *arg), void *arg);
} mica_transport_t;

/* Start every transport and give each peer its transport: 0, or -1 after a message. */
int mica_transport_init(const mica_boot_t *boot);
void mica_transport_finalize(void);
/* The transport that serves world rank `peer` (after mica_transport_init). */
const mica_transport_t *mica_transport_of(int peer);

#endif
