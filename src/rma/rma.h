/* One-sided communication (RMA) over the library's own point-to-point.
 *
 * Every window talks on a private duplicate of its communicator. An origin sends each operation
 * to the target as one message (a header, the target datatype's blocks, the packed origin data)
 * and the target applies it when its progress engine polls (mica_rma_poll): so accumulates are
 * atomic per element, being serialised there, and passive-target operations progress only
 * while the target is inside an MPI call (as MPICH without asynchronous progress). Operations
 * to a target are applied in the order they were issued, so a FLUSH message answered by the
 * target means everything before it is done: flush, unlock and fence rest on that. An operation
 * returns once its data has left the origin buffer (gets: once the reply has arrived). A lock
 * is asked for without waiting for the grant, except of the caller's own memory or shared
 * memory, which it may touch directly: the target keeps the origin's later messages until it
 * grants it (one round trip fewer per lock epoch). */
#ifndef MICA_RMA_H
#define MICA_RMA_H

#include "core/comm.h"
#include "core/datatype.h"
#include "core/op.h"

/* Message tags on the window's private communicator. */
enum { MICA_RMA_TAG_REQ = 1, MICA_RMA_TAG_REPLY = 2, MICA_RMA_TAG_POST = 3 };

/* win->locked[t] and win->lock_all carry this for MPI_MODE_NOCHECK: no lock was asked for, so
 * the epoch ends with a FLUSH, not an UNLOCK. */
#define MICA_RMA_NOCHECK (1 << 24)

enum mica_rma_kind {
    MICA_RMA_PUT = 1, MICA_RMA_GET, MICA_RMA_ACC, MICA_RMA_GET_ACC, MICA_RMA_CAS,
    MICA_RMA_LOCK, MICA_RMA_UNLOCK, MICA_RMA_FLUSH, MICA_RMA_COMPLETE
};

/* The header of an operation's message; nblocks mica_block_t and the data follow. */
typedef struct mica_rma_hdr {
    int32_t kind;                     /* enum mica_rma_kind */
    int32_t lock_type;                /* MICA_RMA_LOCK: MPI_LOCK_EXCLUSIVE or MPI_LOCK_SHARED */
    uint32_t op;                      /* accumulates: the predefined operation's handle;
                                       * MICA_RMA_LOCK: 1 if the origin waits for the grant
                                       * (else its later messages wait at the target, in
                                       * order, until the lock is granted) */
    uint32_t basic;                   /* accumulates: the target's predefined basic type handle */
    MPI_Aint disp;                    /* target displacement, in disp units */
    MPI_Count count;                  /* of the target datatype */
    MPI_Aint extent;                  /* the target datatype's extent */
    int64_t nblocks;                  /* the target datatype's blocks in one element */
    MPI_Count bytes;                  /* data bytes after the blocks */
} mica_rma_hdr_t;

typedef struct mica_rma_waiter { int rank, type, reply; } mica_rma_waiter_t;

/* A message from an origin whose lock is not granted yet, kept until it is. */
typedef struct mica_rma_deferred {
    struct mica_rma_deferred *next;
    char *msg;
} mica_rma_deferred_t;

/* The window's hints (MPI_Win_set_info, MPI_Win_get_info): the standard's keys only. None
 * changes what the window does yet; they are kept so that the program reads back what it
 * said. */
typedef struct mica_rma_hints {
    int no_locks, same_size, same_disp_unit, alloc_shared_noncontig;
    char accumulate_ordering[32];     /* "none" or a list of rar, raw, war, waw */
    char accumulate_ops[16];          /* same_op or same_op_no_op */
    char alloc_kinds[64];             /* mpi_memory_alloc_kinds: fixed at creation */
} mica_rma_hints_t;

/* The window: a mica_win_t (the handle's object) followed by the state. */
typedef struct mica_rma_win {
    mica_win_t w;
    mica_comm_t *comm;                /* the private duplicate */
    MPI_Comm comm_handle;
    void *base;
    MPI_Aint size;
    int disp_unit;
    int flavor;                       /* MPI_WIN_FLAVOR_* */
    int owns_base;                    /* MPI_Win_allocate without shared memory: freed */
    char *shm;                        /* the segment shared by the group (shared.c), or NULL */
    size_t shm_bytes;
    MPI_Aint *shm_offsets;            /* each rank's part of it */
    mica_rma_hints_t hints;
    MPI_Aint *sizes;                  /* every process's size and disp unit (origin checks) */
    int *disp_units;
    char name[MPI_MAX_OBJECT_NAME];
    struct mica_rma_win *next;        /* the list the progress engine serves */

    /* Origin: the epochs open. */
    int fence;                        /* a fence epoch may be open */
    int fence_used;                   /* ... and an RMA call was made in it: only then is it
                                       * one (a lock or PSCW may follow a fence otherwise) */
    int lock_all;
    int *locked;                      /* per target: 0, or the lock type held */
    int nlocked;
    int *access;                      /* PSCW: the targets of MPI_Win_start, or NULL */
    int naccess;

    /* Target: lock state, PSCW exposure, replies in flight. */
    int excl_holder;                  /* -1: no exclusive lock */
    int shared_holders;
    mica_rma_waiter_t *waiters;
    int nwaiters, capwaiters;
    unsigned char *pending;           /* per origin: its lock waits, so its messages too */
    mica_rma_deferred_t **deferred, **deferred_tail;  /* per origin, in arrival order */
    int replay;                       /* a granted origin may have messages kept */
    int exposed;                      /* MPI_Win_post's group size, -1: no exposure epoch */
    int completes;                    /* COMPLETE messages of this exposure epoch so far */
    mica_request_t **replies;
    int nreplies, capreplies;
} mica_rma_win_t;

static inline mica_rma_win_t *mica_rma_win(mica_win_t *w) { return (mica_rma_win_t *)w; }

/* Give a new window (sizes known, not yet served) its memory in one segment shared by its
 * group: contiguous, or each rank's part on a page of its own when `noncontig`. Collective;
 * every process returns the same class. */
int mica_rma_share(mica_rma_win_t *win, int noncontig);
/* Read the hints of `info` (NULL: none) into win->hints; `creating`: the first time. */
void mica_rma_hints_set(mica_rma_win_t *win, mica_info_t *info, int creating);

/* The progress engine's hook: apply the operations that arrived. Under the big lock. */
int mica_rma_poll(void);

extern mica_rma_win_t *mica_rma_windows;

/* Send a control message (no data) to `target` and, if `reply`, wait for its answer. */
int mica_rma_control(mica_rma_win_t *win, int target, int kind, int lock_type, int reply);
/* May operations go to `target` now (an access epoch covers it)? */
int mica_rma_check_epoch(mica_rma_win_t *win, int target);
/* Wait until every reply this process sent for `win` has left. */
void mica_rma_drain(mica_rma_win_t *win);

#endif
