/* What the library counts about itself, for the MPI_T performance variables (src/tool/pvar.c),
 * and the seam through which a floor raises an MPI_T event (src/tool/event.c).
 *
 * Each counter lives here, in the core, and is incremented where it is counted (pt2pt,
 * transport, progress) with a plain increment: every path that counts runs under the big lock
 * when MPI_THREAD_MULTIPLE is provided (core/progress.h), and the MPI_T bindings read under it
 * too, so no atomic is needed, and a single-threaded send pays one add to memory. */
#ifndef MICA_CORE_COUNTERS_H
#define MICA_CORE_COUNTERS_H

#include <stdint.h>

#include "core/coll_algorithms.h"
#include "core/objects.h"

extern struct mica_counters {
    /* point-to-point (pt2pt/engine.c): every message, the collectives' own included */
    uint64_t msgs_sent, bytes_sent;       /* handed to the transport (MPI_PROC_NULL: not) */
    uint64_t msgs_received, bytes_received; /* completed receives (bytes: what was received) */
    uint64_t rndv_sends;                  /* sent by rendezvous (RTS); the others eagerly */
    uint64_t single_copy_sends;           /* rendezvous sends the receiver read itself */
    uint64_t unexpected_msgs;             /* messages that arrived before their receive */
    uint64_t unexpected_len, unexpected_hwm; /* the unexpected queue: now, and its highest */
    uint64_t posted_len, posted_hwm;      /* the posted-receive queue: now, and its highest */
    /* shared memory (transport/shm.c) */
    uint64_t shm_ring_full;               /* packets refused because the peer's ring was full */
    /* progress (core/progress.c) */
    uint64_t progress_polls;              /* calls of mica_progress */
    /* collectives (the choice of gen/coll.py): the times each algorithm was chosen to run */
    uint64_t coll_algorithm_calls[MICA_COLL_ALGORITHMS];
} mica_counters;

/* Events: each kind the library raises. The tool module (src/tool/event.c) describes them to
 * MPI_T and sets mica_event_armed[kind] while some registration of the kind has a callback;
 * the raising floor tests it first, so an event nobody asked for costs one load. */
enum { MICA_EVENT_UNEXPECTED_MSG, MICA_EVENT_COUNT };

/* The data of MICA_EVENT_UNEXPECTED_MSG (MPI_T_event_read/copy read it by element). */
typedef struct {
    int source;                           /* the sender's rank in the communicator */
    int tag;
    MPI_Count size;                       /* bytes */
    unsigned context;                     /* the communicator's context id */
} mica_event_unexpected_t;

extern int mica_event_armed[MICA_EVENT_COUNT];
/* Set by the tool module: delivers one event to the registrations of `kind` (big lock held). */
extern void (*mica_event_deliver)(int kind, const void *data, size_t size);

static inline void mica_event_raise(int kind, const void *data, size_t size)
{
    if (__builtin_expect(mica_event_armed[kind], 0) && mica_event_deliver)
        mica_event_deliver(kind, data, size);
}

#endif
