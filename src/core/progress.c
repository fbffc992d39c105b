/* The progress engine (progress.h). */
#include <sched.h>
#include <time.h>

#include "coll/sched.h"
#include "rma/rma.h"
#include "core/progress.h"
#include "core/tunables.h"
#include "pt2pt/engine.h"

int mica_locking;
pthread_mutex_t mica_big_lock = PTHREAD_MUTEX_INITIALIZER;

int mica_progress(void)
{
    if (!mica_runtime_up)
        return 0;
    int moved = mica_pt2pt_poll();
    if (mica_sched_active)
        moved |= mica_sched_poll();
    if (mica_rma_windows)
        moved |= mica_rma_poll();
    return moved;
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
    mica_unlock();
    if (idle - mica_spin_polls < (unsigned)mica_tunables.yield_polls) {
        sched_yield();
    } else {                          /* a long wait: stop burning a core */
        struct timespec ts = {0, mica_tunables.idle_sleep_ns};
        nanosleep(&ts, NULL);
    }
    mica_lock();
}
