/* mica-prof: this rank's figures merged over its threads (local.h): statistics, histograms,
 * times, the matrix row. No allocation: usable in a signal handler. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "local.h"
#include "clock.h"
#include "config.h"

#include <string.h>

mp_local mp_loc;
const char *const mp_cat_names[MP_NCAT] = {"other", "p2p", "coll", "rma", "io"};

void mp_local_merge(void)
{
    memset(&mp_loc, 0, sizeof mp_loc);
    for (int i = 0; i < MP_NFUNC; i++)
        mp_loc.f[i].tmin = UINT64_MAX;
    for (mp_thread *t = __atomic_load_n(&mp_threads, __ATOMIC_ACQUIRE); t; t = t->next) {
        if (!mp_thread_current(t))
            continue;
        mp_loc.nthreads++;
        for (int i = 0; i < MP_NFUNC; i++)
            if (t->f[i].calls)
                mp_stat_add(&mp_loc.f[i], &t->f[i]);
        /* with call sites on, calls are recorded per site only */
        for (int i = 0; t->sites && i < mp_cfg.max_sites; i++)
            if (t->sites[i].used)
                mp_stat_add(&mp_loc.f[t->sites[i].fid], &t->sites[i].st);
        for (int c = 0; c < MP_NCAT; c++) {
            for (int b = 0; b < MP_NBUCKET; b++)
                mp_loc.hist[c][b] += t->hist[c][b];
            mp_loc.hbytes[c] += t->hbytes[c];
        }
        mp_loc.sites_lost += t->sites_lost;
        mp_loc.ev_lost += t->ev_lost;
    }
    mp_loc.now = mp_now();
    mp_loc.rate = mp_tick_rate();
    uint64_t from = mp_st.reset_at > mp_st.tick0 ? mp_st.reset_at : mp_st.tick0;
    mp_loc.run = (double)(mp_loc.now - from) / mp_loc.rate;
    uint64_t on = mp_st.on_total;
    if (!(__atomic_load_n(&mp_gen, __ATOMIC_ACQUIRE) & 1))
        on += mp_loc.now - mp_st.on_since;
    mp_loc.collected = (double)on / mp_loc.rate;
    uint64_t mpi = 0;
    for (int i = 0; i < MP_NFUNC; i++)
        mpi += mp_loc.f[i].ticks;
    mp_loc.mpi = (double)mpi / mp_loc.rate;
}

/* The matrix row of this rank: bytes[n+1] then messages[n+1] (last column: outside world);
 * the threads keep (bytes, messages) pairs. */
void mp_local_row(uint64_t *row, int n)
{
    memset(row, 0, sizeof(uint64_t) * 2 * (size_t)(n + 1));
    for (mp_thread *t = __atomic_load_n(&mp_threads, __ATOMIC_ACQUIRE); t; t = t->next) {
        if (!mp_thread_current(t) || t->row == NULL || t->row_n != n)
            continue;
        for (int i = 0; i <= n; i++) {
            row[i] += t->row[2 * i];
            row[n + 1 + i] += t->row[2 * i + 1];
        }
    }
}

