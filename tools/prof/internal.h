/* mica-prof: state shared by prof.c and report.c (not used by the generated wrappers). */
#ifndef MICA_PROF_INTERNAL_H
#define MICA_PROF_INTERNAL_H
#include "prof.h"

typedef struct {
    int sites, depth, max_sites, trace, top, signals, quiet, per_rank;
    long trace_max;
    double exit_wait;
    char dir[1024], name[256], addr2line[512];
} mp_config;

typedef struct {
    int inited, finalized, used, reported, resets;
    int rank, pid, cap_inter, cap_topo;
    MPI_Comm comm;                  /* the tool's own duplicate of MPI_COMM_WORLD */
    MPI_Group world_group;
    char id[128];                   /* the job's name in file names */
    uint64_t mono0, wall0, wall_base, tick0, init_at;
    uint64_t on_since, on_total, reset_at;
} mp_state;

typedef struct {
    uint64_t key;
    int rank, size, np, inter, indeg, outdeg;
    int *world;                     /* MPI_COMM_WORLD rank of each peer (the remote group of an
                                     * intercommunicator) */
    int ranks[];
} mp_cinfo;

extern mp_config mp_cfg;
extern mp_state mp_st;
extern mp_thread *mp_threads;

const mp_cinfo *mp_comm_get(MPI_Comm c);
double mp_tick_rate(void);
uint64_t mp_wall_ns(void);
void mp_strlcpy(char *d, const char *s, size_t n);
uint64_t mp_mono_ns(void);

void mp_report_final(void);
/* This rank's own files; safe = 0 in a signal handler (no allocation, no address lookup). */
void mp_write_rank_file(const char *why, int safe);
/* After an exit without MPI_Finalize: wait up to mp_cfg.exit_wait seconds for every rank's file.
 * Launchers stop the job when its first rank exits (Hydra with SIGKILL, which no handler sees),
 * so the first ranks out keep it alive while the others, on their way out too, write theirs. */
void mp_wait_rank_files(void);

#endif
