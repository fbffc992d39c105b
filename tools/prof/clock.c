/* mica-prof: the clock (clock.h): wall and monotonic time, the TSC's invariance, the tick rate. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "clock.h"

#include <stdio.h>
#include <string.h>

uint64_t mp_wall_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t mp_mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int mp_clock_tsc_invariant(void)
{
#if defined(__x86_64__) || defined(__i386__)
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[4096];
    int ok = 0;
    if (f == NULL)
        return 0;
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "flags", 5)) {
            ok = strstr(line, " constant_tsc") && strstr(line, " nonstop_tsc");
            break;
        }
    }
    fclose(f);
    return ok;
#else
    return 0;
#endif
}


double mp_tick_rate(void)
{
    if (!mp_use_tsc)
        return 1e9;
    uint64_t ns = mp_mono_ns() - mp_st.mono0;
    uint64_t tk = mp_now() - mp_st.tick0;
    if (ns < 1000000) {             /* too short to measure well: measure 1 ms now */
        uint64_t n0 = mp_mono_ns(), k0 = mp_now();
        while (mp_mono_ns() - n0 < 1000000)
            ;
        return (double)(mp_now() - k0) / ((double)(mp_mono_ns() - n0) * 1e-9);
    }
    return (double)tk / ((double)ns * 1e-9);
}
