/* Shared-memory transport: for every ordered pair of ranks a single-producer single-consumer
 * ring of fixed-size slots in the receiver's segment. A packet (transport.h) takes one or more
 * contiguous slots and never wraps: when it does not fit before the end of the ring, a padding
 * packet (active-message id 0) fills the rest and the packet starts at slot 0. The `ready`
 * word of a packet's first slot, its slot count, is stored last and says it is there. No
 * locks: the producer owns the tail, the consumer owns the head. Every rank of a job runs on
 * this machine, so it reaches every peer. */
#ifndef MICA_SHM_H
#define MICA_SHM_H

#include "transport/transport.h"

#define MICA_SHM_SLOT 256             /* bytes; a packet's fixed part fills the first 64 */

/* The table (transport.h); payload_limit is a quarter of a ring, less the fixed part. */
extern const mica_transport_t mica_shm_transport;

#endif
