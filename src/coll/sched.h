/* Schedules: how a collective runs. Each algorithm is written once, as a builder of a schedule
 * (algorithms.h): the blocking form runs it to completion at once (mica_sched_run), the nonblocking
 * form hands it to the user as a request, the persistent form builds it anew at every start.
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
 * its messages carry the tag MICA_TAG_NBC_FIRST + 2 * sequence, or the next one for the steps
 * added with the _alt functions (the neighborhood collectives' second tag). Blocking
 * collectives keep their fixed tags below MICA_TAG_NBC_FIRST, MPI_Comm_create_group uses
 * negative tags: no two of them ever match each other's messages, however they interleave.
 *
 * A blocking collective's schedule uses instead the collective's fixed tag (enum mica_coll_tag)
 * and takes no sequence number, as blocking collectives always did.
 *
 * A persistent collective takes its sequence number at its init call (collective-ordered like
 * any collective) and every start builds a new schedule with it: starts need then not be in the
 * same order everywhere (MPI_Startall may start them in any order), and consecutive starts of
 * one operation never overlap, so their messages between two processes meet in order.
 *
 * A schedule on a communicator whose MPI_Comm_idup has not completed yet (its context ids are
 * still being agreed) starts once it has them: the handle may be passed to nonblocking
 * collectives as soon as MPI_Comm_idup returns.
 *
 * Building never fails half-way for the caller: an allocation failure is remembered and
 * reported by mica_sched_start, which then frees everything. All of this runs under the big lock. */
#ifndef MICA_SCHED_H
#define MICA_SCHED_H

#include "coll/coll.h"

#define MICA_TAG_NBC_FIRST 16
#define MICA_TAG_NBC_MASK 0x1fffffff   /* two tags per sequence number */

typedef struct mica_sched mica_sched_t;

/* A new schedule for the next collective on `comm` (takes its sequence number); NULL when out
 * of memory. */
mica_sched_t *mica_sched_new(mica_comm_t *comm);
/* Take the next sequence number of `comm` now (a persistent collective's init), and a new
 * schedule with it (each start). */
uint32_t mica_sched_reserve(mica_comm_t *comm);
mica_sched_t *mica_sched_new_seq(mica_comm_t *comm, uint32_t seq);

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
/* The same on the schedule's second tag: for two messages between the same two processes in
 * one round that must not meet each other's receive (a Cartesian dimension whose -1 and +1
 * neighbors are one process). */
void mica_sched_send_alt(mica_sched_t *s, const void *buf, MPI_Count count, mica_type_t *type,
                         int dest);
void mica_sched_recv_alt(mica_sched_t *s, void *buf, MPI_Count count, mica_type_t *type,
                         int source);
/* The sends and receives added from now on go on `comm`'s collective context instead of the
 * schedule's communicator (an intercommunicator's collective runs its local phases on its
 * hidden local communicator, coll/inter.c): peers are ranks of `comm`, the tags the
 * schedule's. `comm` must live as long as the schedule. */
void mica_sched_on(mica_sched_t *s, mica_comm_t *comm);
/* Wait for every send and receive added since the previous barrier. */
void mica_sched_barrier(mica_sched_t *s);

/* Make the schedule fail at start with error `rc` (a builder that could not get what it needs). */
void mica_sched_fail(mica_sched_t *s, int rc);

/* A temporary buffer for `count` elements of `type`, freed with the schedule (NULL when out of
 * memory: the schedule then fails at start, and steps may be added with the NULL meanwhile). */
void *mica_sched_tmp(mica_sched_t *s, MPI_Count count, mica_type_t *type);
/* Memory for the builder's own tables, freed with the schedule (NULL as mica_sched_tmp). */
void *mica_sched_mem(mica_sched_t *s, size_t bytes);
/* A packed copy of `count` elements of `type` at `buf`, taken now: *bytes is its size in bytes
 * (send it as MPI_BYTE). */
void *mica_sched_packed(mica_sched_t *s, const void *buf, MPI_Count count, mica_type_t *type,
                        MPI_Count *bytes);

/* Start the schedule and return it as a request; on error (also a failure while building) the
 * schedule is freed and nothing was sent. */
int mica_sched_start(mica_sched_t *s, MPI_Request *request);
/* The same for a start of the persistent collective `r` (which holds its communicator): the
 * schedule completes `r` (or releases it if the user freed it meanwhile). */
int mica_sched_start_on(mica_sched_t *s, mica_request_t *r);
/* The same for a step of the library's own (the agreement of a nonblocking communicator
 * constructor, coll/comm.c): no request; done(arg, error) is called once the schedule has
 * completed, from the progress engine (or at once), and may start another schedule. */
typedef void mica_sched_done_fn(void *arg, int rc);
int mica_sched_start_cb(mica_sched_t *s, mica_sched_done_fn *done, void *arg);

/* A collective's arguments, as the builders of persistent and neighborhood collectives take
 * them: the arrays are nsend (s*) and nrecv (r*) long, or NULL where unused; displacements
 * count elements, or bytes where a datatype per block is given (stypes, rtypes). */
typedef struct mica_coll_args {
    const void *sbuf;
    void *rbuf;
    MPI_Count scount, rcount;
    const MPI_Count *scounts, *rcounts;
    const MPI_Aint *sdispls, *rdispls;
    mica_type_t *stype, *rtype;
    mica_type_t *const *stypes, *const *rtypes;
    mica_op_t *op;
    int root;
    int nsend, nrecv;
} mica_coll_args_t;
typedef void mica_coll_build_fn(mica_sched_t *s, const mica_coll_args_t *a, mica_comm_t *comm);

/* Alltoallw's datatype handles (a->nsend send types, a->nrecv receive types) looked up and
 * checked into a->stypes and a->rtypes, which point into *types (malloc'd: free it, also after
 * an error). */
int mica_coll_lookup_alltoallw(mica_coll_args_t *a, const MPI_Datatype *sendtypes,
                               const MPI_Datatype *recvtypes, mica_type_t ***types);

/* Run the schedule of `build` from `a` to completion (a blocking collective; lock held): each
 * step is taken as the builder adds it, nothing is recorded; its messages carry `tag` (one of
 * enum mica_coll_tag; the _alt steps tag + 1). */
int mica_sched_run(mica_comm_t *comm, int tag, mica_coll_build_fn *build,
                   const mica_coll_args_t *a);

/* The forms of a collective's entry point. */
enum mica_coll_form { MICA_COLL_BLOCKING, MICA_COLL_NONBLOCKING, MICA_COLL_PERSISTENT };
/* Run the collective that `build` builds from `a` (its arguments checked) on `comm` in `form`,
 * the lock held: blocking, to completion with the fixed tag `tag`; nonblocking, started and
 * returned in *request; persistent, bound to a new inactive persistent request in *request. */
int mica_coll_launch(enum mica_coll_form form, int tag, mica_coll_build_fn *build,
                     const mica_coll_args_t *a, mica_comm_t *comm, MPI_Request *request);

/* Advance every active schedule (called by mica_progress when there is one, so that a progress
 * poll without collectives costs one load); non-zero if anything happened. */
extern mica_sched_t *mica_sched_active;
int mica_sched_poll(void);

#endif
