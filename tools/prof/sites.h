/* mica-prof: this rank's call sites, merged over its threads and resolved to locations. */
#ifndef MICA_PROF_SITES_H
#define MICA_PROF_SITES_H

#include "thread.h"

typedef struct {
    int fid;
    char *loc;                      /* frames joined by \x1e */
    mp_stat st;
} mp_lsite;

/* The sites by (function, location), equal ones merged; the caller frees each loc and the
 * array. NULL when there are none. */
mp_lsite *mp_sites_local(int *count);

#endif
