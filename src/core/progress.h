/* The progress engine: polled by every blocking and test call; moves messages in both
 * directions. Waiting loops back off and yield the processor when nothing moves, so more
 * ranks than cores still make progress quickly.
 *
 * The core knows no module above it: each module that has work to push on (point-to-point
 * messages, collectives' schedules, RMA windows) arms a poll function while it has some and
 * disarms it when it has none, so an idle module costs a poll nothing. */
#ifndef MICA_PROGRESS_H
#define MICA_PROGRESS_H

#include <pthread.h>
#include "core/state.h"

/* Poll once; returns non-zero if anything happened. Caller holds the big lock. */
int mica_progress(void);

/* A module's poll: non-zero if anything happened. Arming an armed poll, or disarming one that
 * is not, does nothing; both under the big lock, and a poll may disarm itself. */
typedef int mica_progress_fn(void);
void mica_progress_arm(mica_progress_fn *poll);
void mica_progress_disarm(mica_progress_fn *poll);

/* Idle backoff for a waiting loop: call with the count of consecutive idle polls. */
extern unsigned mica_spin_polls;      /* set at init: 0 when ranks outnumber cores */
void mica_progress_idle(unsigned idle);

/* With MPI_THREAD_MULTIPLE, one lock serialises the library's state (a coarse lock first). The
 * C bindings take it around every core call (generated: impl.tsv's lock column), so the core
 * never takes it; it is let go only while a waiting loop yields (mica_progress_idle) and around
 * the user's callbacks, which may call MPI themselves (mica_callback_begin). A user's reduction
 * operation runs with it held, as MPICH's do (it may run inside a progress poll, where letting
 * the lock go would let another thread into a half-updated schedule). */
extern int mica_locking;
extern pthread_mutex_t mica_big_lock;
/* How many times this thread has taken it (when locking): a user's reduction operation runs with
 * it held and may call MPI (mpi4py's call MPI_Type_get_extent), whose binding takes it again, as
 * MPICH's recursive global lock allows. */
extern _Thread_local int mica_lock_held;
static inline void mica_lock(void)
{
    if (mica_locking && !mica_lock_held++)
        pthread_mutex_lock(&mica_big_lock);
}
static inline void mica_unlock(void)
{
    if (mica_locking && !--mica_lock_held)
        pthread_mutex_unlock(&mica_big_lock);
}

/* Around a call of the user's code (an error handler, an attribute copy or delete function, a
 * generalized request's functions): the lock let go if this thread holds it, however many times,
 * and taken again as many times after. begin returns what end needs. */
static inline int mica_callback_begin(void)
{
    int held = mica_lock_held;
    if (!mica_locking || !held)
        return 0;
    mica_lock_held = 0;
    pthread_mutex_unlock(&mica_big_lock);
    return held;
}
static inline void mica_callback_end(int held)
{
    if (held) {
        pthread_mutex_lock(&mica_big_lock);
        mica_lock_held = held;
    }
}

/* Wait until *flag becomes non-zero, polling progress (with the lock held around each poll). */
#define MICA_WAIT_UNTIL(cond)                                                                 \
    do {                                                                                      \
        unsigned idle_ = 0;                                                                   \
        while (!(cond)) {                                                                     \
            if (mica_progress())                                                              \
                idle_ = 0;                                                                    \
            else                                                                              \
                mica_progress_idle(++idle_);                                                  \
        }                                                                                     \
    } while (0)

#endif
