/* Schedules: how a nonblocking collective runs.
 *
 * A nonblocking collective builds, when it is called, the whole list of steps this process
 * takes: sends and receives on the communicator's collective context, local copies and local
 * reductions, cut into rounds by barriers. The schedule is then started and handed to the user
 * as a request; the progress engine (mica_progress) advances it: a round's sends and receives
 * are started and its local steps run in the order they were added, and the next round starts
 * once every send and receive of the round has completed. Nothing ever waits inside a progress
 * call.
 *
 * Matching: every nonblocking collective on a communicator takes the communicator's next
 * sequence number (all members start collectives in the same order, so they count alike) and
 * all its messages carry the tag MICA_TAG_NBC_FIRST + sequence. Blocking collectives keep their
 * fixed tags below MICA_TAG_NBC_FIRST, MPI_Comm_create_group uses negative tags: no two of them
 * ever match each other's messages, however they interleave.
 *
 * Building never fails half-way for the caller: an allocation failure is remembered and
 * reported by mica_sched_start, which then frees everything. All of this runs under the big lock. */
#ifndef MICA_SCHED_H
#define MICA_SCHED_H

#include "coll/coll.h"

#define MICA_TAG_NBC_FIRST 16
#define MICA_TAG_NBC_MASK 0x3fffffff

typedef struct mica_sched mica_sched_t;

/* A new schedule for the next collective on `comm` (takes its sequence number); NULL when out
 * of memory. */
mica_sched_t *mica_sched_new(mica_comm_t *comm);

/* Steps; buffers must stay valid until the schedule completes (the user's do, per the standard;
 * temporaries come from mica_sched_tmp). Datatypes and the operation are kept alive. */
void mica_sched_send(mica_sched_t *s, const void *buf, MPI_Count count, mica_type_t *type,
                     int dest);
void mica_sched_recv(mica_sched_t *s, void *buf, MPI_Count count, mica_type_t *type, int source);
void mica_sched_copy(mica_sched_t *s, const void *src, MPI_Count scount, mica_type_t *stype,
                     void *dst, MPI_Count dcount, mica_type_t *dtype);
/* inout = in op inout. */
void mica_sched_reduce(mica_sched_t *s, const void *in, void *inout, MPI_Count count,
                       mica_type_t *type, mica_op_t *op);
/* Wait for every send and receive added since the previous barrier. */
void mica_sched_barrier(mica_sched_t *s);

/* A temporary buffer for `count` elements of `type`, freed with the schedule (NULL when out of
 * memory: the schedule then fails at start, and steps may be added with the NULL meanwhile). */
void *mica_sched_tmp(mica_sched_t *s, MPI_Count count, mica_type_t *type);
/* A packed copy of `count` elements of `type` at `buf`, taken now: *bytes is its size in bytes
 * (send it as MPI_BYTE). */
void *mica_sched_packed(mica_sched_t *s, const void *buf, MPI_Count count, mica_type_t *type,
                        MPI_Count *bytes);

/* Start the schedule and return it as a request; on error (also a failure while building) the
 * schedule is freed and nothing was sent. */
int mica_sched_start(mica_sched_t *s, MPI_Request *request);

/* Advance every active schedule (called by mica_progress); non-zero if anything happened. */
int mica_sched_poll(void);

#endif
