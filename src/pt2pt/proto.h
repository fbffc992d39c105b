/* The point-to-point protocol over the transport (transport/transport.h): the active-message
 * ids pt2pt gives its packets, and the envelope it lays out in each packet's header.
 *
 *   EAGER  a whole message (up to the eager limit) in one packet; matched on arrival, or kept
 *          as an unexpected message until a receive is posted. A synchronous send asks for an
 *          ACK when it is matched.
 *   RTS    ready to send: the envelope of a large message. When it is matched the receiver
 *          answers CTS (clear to send) with how many bytes it takes, and the sender pipelines
 *          them in DATA packets, which the receiver copies into place as they arrive.
 *          Single copy: when the transport can (transport.h, get), the sender exposes its
 *          buffer (a non-contiguous one packed into a copy first, up to 64 MiB) and the RTS
 *          carries the key (flag MICA_PT2PT_KEY); the receiver reads the bytes it takes itself
 *          (into a non-contiguous buffer through a piece of its own at a time), then answers
 *          ACK; when it cannot read them it answers CTS, and the DATA packets follow.
 *   CANCEL the sender cancels a send (MPI_Cancel): the receiver takes the message off its
 *          unexpected queue if it is there, unmatched, and answers CANCELLED with whether it
 *          did. The sends a cancel can name carry a serial number, the sender's count of its
 *          requests' sends; the packets of one direction arrive in order, so a CANCEL finds
 *          its message already arrived, and a CTS or ACK of a matched one comes back first.
 */
#ifndef MICA_PROTO_H
#define MICA_PROTO_H

#include <stdint.h>

#include "transport/transport.h"

/* Active-message ids; 0 is the transport's. */
enum mica_pt2pt_am { MICA_PT2PT_EAGER = 1, MICA_PT2PT_RTS, MICA_PT2PT_CTS, MICA_PT2PT_DATA,
                     MICA_PT2PT_ACK, MICA_PT2PT_CANCEL, MICA_PT2PT_CANCELLED };

#define MICA_PT2PT_SYNC 1             /* flags: EAGER from a synchronous send wants an ACK */
#define MICA_PT2PT_KEY 2              /* flags: the RTS payload is the key of the sender's buffer */

/* The envelope, in the transport header of every pt2pt packet. Each kind uses some fields:
 * EAGER and RTS all but rreq, with the send's serial in offset (0: a send without a request,
 * which no cancel names); CTS sreq, rreq and size (the bytes the receiver takes); DATA rreq
 * and offset; ACK sreq (of a synchronous eager send, or of a single-copy rendezvous, whose
 * bytes the receiver has read); CANCEL sreq and offset (the serial); CANCELLED sreq, size
 * (1: the message is gone, 0: it was matched or received) and rreq (the withdrawn message's
 * own sreq when its sender waits for an answer: a buffered send's copy, not sreq). */
typedef struct mica_pt2pt_hdr {
    uint32_t flags;
    uint32_t context;
    int32_t src;                      /* the sender's rank in the communicator */
    int32_t tag;
    uint64_t size;                    /* the whole message's bytes */
    uint64_t sreq, rreq;              /* the sender's and the receiver's requests */
    uint64_t offset;                  /* of a DATA packet's payload in the message; a serial */
} mica_pt2pt_hdr_t;
_Static_assert(sizeof(mica_pt2pt_hdr_t) <= MICA_TRANSPORT_HEADER, "the envelope must fit");

static inline mica_pt2pt_hdr_t *mica_pt2pt_hdr(mica_transport_pkt_t *pkt)
{
    return (mica_pt2pt_hdr_t *)mica_transport_header(pkt);
}

#endif
