/* The progress engine (progress.h). */
#include <sched.h>
#include <time.h>

#include "core/progress.h"
#include "pt2pt/engine.h"

int mica_locking;
pthread_mutex_t mica_big_lock = PTHREAD_MUTEX_INITIALIZER;

int mica_progress(void)
{
    return mica_phase == MICA_ACTIVE ? mica_pt2pt_poll() : 0;
}

/* Spin briefly (a message is often microseconds away), then give the core away on every idle
 * poll: with more ranks than cores, the rank we wait for may need this very core to run. */
void mica_progress_idle(unsigned idle)
{
    if (idle < 64) {
        __builtin_ia32_pause();
        return;
    }
    mica_unlock();
    if (idle < 100000) {
        sched_yield();
    } else {                          /* a long wait: stop burning a core */
        struct timespec ts = {0, 50000};
        nanosleep(&ts, NULL);
    }
    mica_lock();
}
