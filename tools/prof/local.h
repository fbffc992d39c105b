/* mica-prof: this rank's figures, merged over its threads: statistics per function, histograms,
 * run, collected and MPI times; and its row of the point-to-point matrix. No allocation: usable
 * in a signal handler. */
#ifndef MICA_PROF_LOCAL_H
#define MICA_PROF_LOCAL_H

#include "thread.h"

typedef struct {
    mp_stat f[MP_NFUNC];
    uint64_t hist[MP_NCAT][MP_NBUCKET], hbytes[MP_NCAT];
    int nthreads;
    uint64_t sites_lost, ev_lost;
    uint64_t now;
    double rate, run, collected, mpi;
} mp_local;

/* The last merge (mp_local_merge). */
extern mp_local mp_loc;
/* The categories' names in reports, by MP_CAT_ value. */
extern const char *const mp_cat_names[MP_NCAT];

void mp_local_merge(void);
/* The matrix row of this rank: bytes[n+1] then messages[n+1] (last column: outside the world). */
void mp_local_row(uint64_t *row, int n);

#endif
