/* Shared-memory transport: for every ordered pair of ranks a single-producer single-consumer
 * ring of fixed-size slots in the receiver's segment. A packet takes one or more contiguous
 * slots; its first slot starts with a header whose `slots` word, stored last, says it is ready.
 * No locks: the producer owns the tail, the consumer owns the head. */
#ifndef MICA_SHM_H
#define MICA_SHM_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/boot.h"

#define MICA_SHM_SLOT 256             /* bytes; a packet header fits in the first 64 */

typedef struct mica_pkt {
    _Atomic uint32_t slots;           /* 0: empty; else the packet's slot count, stored last */
    uint16_t type;                    /* enum mica_pkt_type (pt2pt/proto.h) */
    uint16_t flags;
    uint32_t context;
    int32_t src;                      /* the sender's rank in the communicator */
    int32_t tag;
    uint32_t pad_;
    uint64_t size;                    /* the whole message's bytes */
    uint64_t sreq, rreq;              /* the sender's and the receiver's requests */
    uint64_t offset;                  /* of this packet's payload in the message */
    uint64_t len;                     /* payload bytes in this packet */
} mica_pkt_t;
#define MICA_PKT_HEADER 64
_Static_assert(sizeof(mica_pkt_t) <= MICA_PKT_HEADER, "packet header too large");

static inline void *mica_pkt_payload(mica_pkt_t *p) { return (char *)p + MICA_PKT_HEADER; }

int mica_shm_init(const mica_boot_t *boot);
void mica_shm_finalize(void);

/* The largest payload one packet can carry. */
size_t mica_shm_max_payload(void);

/* A packet of `payload` bytes for rank `dest`, or NULL while its ring is full. Fill the header
 * (not `slots`) and the payload, then mica_shm_send it; nothing else may be reserved for
 * `dest` in between. */
mica_pkt_t *mica_shm_reserve(int dest, size_t payload);
void mica_shm_send(int dest, mica_pkt_t *pkt);

/* The next packet from rank `src`, or NULL; mica_shm_consume gives its slots back. */
mica_pkt_t *mica_shm_peek(int src);
void mica_shm_consume(int src, mica_pkt_t *pkt);

#endif
