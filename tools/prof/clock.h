/* mica-prof: the clock. The TSC where it is invariant (one instruction), else CLOCK_MONOTONIC in
 * nanoseconds; the reports turn ticks into seconds with the rate measured over the run. */
#ifndef MICA_PROF_CLOCK_H
#define MICA_PROF_CLOCK_H

#include <stdint.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif
#include "state.h"

MP_INLINE uint64_t mp_clock(int tsc)
{
#if defined(__x86_64__) || defined(__i386__)
    if (MP_LIKELY(tsc))
        return __rdtsc();
#endif
    (void)tsc;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

MP_INLINE uint64_t mp_now(void)
{
    return mp_clock(mp_use_tsc);
}

uint64_t mp_wall_ns(void);
uint64_t mp_mono_ns(void);
/* Does this processor have a TSC that ticks at one rate whatever the power state? */
int mp_clock_tsc_invariant(void);
/* Ticks of mp_now() per second, measured against CLOCK_MONOTONIC since the start. */
double mp_tick_rate(void);

#endif
