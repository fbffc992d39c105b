/* mica-prof: the options, read once from MICA_PROF_* environment variables when the library is
 * loaded (docs/PROFILER.md lists them). */
#ifndef MICA_PROF_CONFIG_H
#define MICA_PROF_CONFIG_H

#define MP_MAXDEPTH 16        /* the deepest call-site stack recorded */

typedef struct {
    int sites, depth, max_sites, trace, top, signals, quiet, per_rank;
    int start;                      /* collect from the start (else from MPI_Pcontrol(1)) */
    int clock;                      /* 1: TSC, 0: CLOCK_MONOTONIC, -1: TSC where invariant */
    long trace_max;
    double exit_wait;
    char dir[1024], name[256], addr2line[512];
} mp_config;

extern mp_config mp_cfg;

void mp_config_read(void);

#endif
