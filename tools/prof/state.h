/* mica-prof: the process's state. The hot flags the wrappers read on every call (whether the
 * tool collects, the reset epoch, the clock), and the rest of what the tool knows of this
 * process and its job: whether MPI is initialized, the tool's communicator, the job's name, the
 * time origins. Written by the hooks (hooks.c), read everywhere. */
#ifndef MICA_PROF_STATE_H
#define MICA_PROF_STATE_H

#include <mpi.h>
#include <stdint.h>
#include "defs.h"

/* gen: bit 0 set = not collecting; the rest is the reset epoch (MPI_Pcontrol(2) adds 2).
 * type_gen: changes when a datatype is freed (the per-thread size caches are then stale). */
typedef struct {
    uint64_t gen, type_gen;
    int use_tsc, sites_on, depth, trace_on;
} mp_hot_t;
extern mp_hot_t mp_hot MP_HIDDEN;
#define mp_gen (mp_hot.gen)
#define mp_type_gen (mp_hot.type_gen)
#define mp_use_tsc (mp_hot.use_tsc)
#define mp_sites_on (mp_hot.sites_on)
#define mp_depth (mp_hot.depth)
#define mp_trace_on (mp_hot.trace_on)
extern int mp_world_size MP_HIDDEN, mp_world_rank MP_HIDDEN;

typedef struct {
    int inited, finalized, used, reported, resets;
    int rank, pid, cap_inter, cap_topo;
    MPI_Comm comm;                  /* the tool's own duplicate of MPI_COMM_WORLD */
    MPI_Group world_group;
    char id[128];                   /* the job's name in file names */
    uint64_t mono0, wall0, wall_base, tick0, init_at;
    uint64_t on_since, on_total, reset_at;
} mp_state;
extern mp_state mp_st;

/* Between MPI_Init and MPI_Finalize, as far as the tool saw them. */
static inline int mp_usable(void)
{
    return mp_st.inited && !mp_st.finalized;
}
/* The same, asking the library when the tool did not see MPI_Init (MPI_Session_init). */
int mp_mpi_active(void);

#endif
