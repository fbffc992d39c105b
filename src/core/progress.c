/* The progress engine (progress.h). */
#include <sched.h>
#include <time.h>

#include "core/counters.h"
#include "core/progress.h"
#include "runtime/boot.h"
#include "core/tunables.h"

int mica_locking;
_Thread_local int mica_lock_held;
pthread_mutex_t mica_big_lock = PTHREAD_MUTEX_INITIALIZER;

/* The armed polls, in the order they were armed (point-to-point first: it arms at init); only
 * these are called, so a module with nothing to do costs nothing. Under the big lock. */
#define MAX_POLLS 8
static mica_progress_fn *polls[MAX_POLLS];
static unsigned npolls;

int mica_progress(void)
{
    if (!mica_runtime_up)
        return 0;
    mica_counters.progress_polls++;
    int moved = 0;
    /* A poll that disarms itself moves the next one into its slot: that one waits a round. */
    for (unsigned i = 0; i < npolls; i++)
        moved |= polls[i]();
    return moved;
}

void mica_progress_arm(mica_progress_fn *poll)
{
    for (unsigned i = 0; i < npolls; i++)
        if (polls[i] == poll)
            return;
    if (npolls == MAX_POLLS)
        mica_abort_job(1, "Mica: internal error: too many progress polls\n");
    polls[npolls++] = poll;
}

void mica_progress_disarm(mica_progress_fn *poll)
{
    for (unsigned i = 0; i < npolls; i++)
        if (polls[i] == poll) {
            npolls--;
            for (; i < npolls; i++)
                polls[i] = polls[i + 1];
            return;
        }
}

/* How many idle polls spin before yielding: when every rank has a core of its own, a message
 * is usually a fraction of a microsecond away and a yield would hand the core to whatever else
 * runs on the machine; with more ranks than cores, the rank we wait for may need this very
 * core, so give it away at once. */
unsigned mica_spin_polls = 1u << 16;

void mica_progress_idle(unsigned idle)
{
    if (idle < mica_spin_polls) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
        return;
    }
    /* Read under the lock: MPI_T may write them (control variables of scope local). */
    unsigned yield_polls = (unsigned)mica_tunables.yield_polls;
    struct timespec ts = {0, mica_tunables.idle_sleep_ns};
    int held = mica_callback_begin(); /* other threads may go on meanwhile */
    if (idle - mica_spin_polls < yield_polls) {
        sched_yield();
    } else {                          /* a long wait: stop burning a core */
        nanosleep(&ts, NULL);
        /* Now and then (every 1024 sleeps, 50 ms by default): is the launcher still there?
         * Without it, what we wait for may never come: a launcher that does not take its
         * processes down with it must not leave them waiting for ever. */
        if (((idle - mica_spin_polls) & 1023) == 0 && !mica_boot_alive())
            mica_abort_job(1, "mica: the process manager is gone: ending this process\n");
    }
    mica_callback_end(held);
}
