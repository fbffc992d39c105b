/* mica-prof: per-thread blocks (thread.h): making them, entering a recorded call, call sites
 * (the return address or a backtrace, found in the thread's site table), trace events. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "thread.h"
#include "config.h"

#include <execinfo.h>
#include <stdlib.h>
#include <string.h>

__thread mp_thread *mp_tls __attribute__((tls_model("initial-exec")));
mp_thread *mp_threads;
static int mp_ntids;
mp_site mp_nosite = {.fid = UINT32_MAX};

void mp_stat_add(mp_stat *d, const mp_stat *s)
{
    d->calls += s->calls;
    d->ticks += s->ticks;
    d->sent += s->sent;
    d->recv += s->recv;
    if (s->tmin < d->tmin)
        d->tmin = s->tmin;
    if (s->tmax > d->tmax)
        d->tmax = s->tmax;
}


static void thread_clear(mp_thread *t)
{
    memset(t->f, 0, sizeof t->f);
    for (int i = 0; i < MP_NFUNC; i++)
        t->f[i].tmin = UINT64_MAX;
    memset(t->hist, 0, sizeof t->hist);
    memset(t->hbytes, 0, sizeof t->hbytes);
    if (t->row)
        memset(t->row, 0, sizeof(uint64_t) * 2 * (size_t)(t->row_n + 1));
    if (t->sites)
        memset(t->sites, 0, sizeof(mp_site) * (size_t)mp_cfg.max_sites);
    t->last_site = &mp_nosite;
    t->sites_lost = 0;
    t->nev = t->ev_lost = 0;
}

mp_thread *mp_thread_new(void)
{
    mp_thread *t = calloc(1, sizeof *t);
    if (t == NULL)
        return NULL;
    if (mp_cfg.sites)
        t->sites = calloc((size_t)mp_cfg.max_sites, sizeof(mp_site));
    if (mp_cfg.trace)
        t->ev = malloc(sizeof(mp_event) * (size_t)mp_cfg.trace_max);
    thread_clear(t);
    t->fl = (mp_sites_on ? (mp_depth == 1 ? MP_FL_SITE1 : MP_FL_SITES) : 0) |
            (mp_trace_on ? MP_FL_TRACE : 0) | (mp_use_tsc ? MP_FL_TSC : 0);
    t->tid = __atomic_fetch_add(&mp_ntids, 1, __ATOMIC_RELAXED);
    t->gen = __atomic_load_n(&mp_gen, __ATOMIC_RELAXED) & ~(uint64_t)1;
    t->next = __atomic_load_n(&mp_threads, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(&mp_threads, &t->next, t, 1, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
        ;
    mp_tls = t;
    return t;
}

mp_thread *mp_enter_slow(mp_thread *t)
{
    if (t == NULL) {
        t = mp_thread_new();
        if (t == NULL)
            return NULL;
    }
    uint64_t g = __atomic_load_n(&mp_gen, __ATOMIC_ACQUIRE);
    if ((g | t->gen) & 1)
        return NULL;                /* stopped (MPI_Pcontrol(0), MICA_PROF_START=off), or nested */
    if (t->gen != g)                /* statistics were reset (MPI_Pcontrol(2)) */
        thread_clear(t);
    t->gen = g | 1;
    t->cur_sent = t->cur_recv = 0;
    return t;
}


/* The stack above the wrapper, whose frame is found by the return address into it rather than
 * counted: a backtrace interceptor (AddressSanitizer's) adds a frame of its own. */
__attribute__((noinline)) void mp_backtrace(mp_thread *t)
{
    void *buf[MP_MAXDEPTH + 4];
    uintptr_t ra = (uintptr_t)__builtin_return_address(0);
    int n = backtrace(buf, mp_depth + 4), k = 0;
    while (k < n && (uintptr_t)buf[k] != ra)
        k++;
    k = k < n ? k + 1 : 2;
    for (int i = 0; i < mp_depth; i++)
        t->pcs[i] = k + i < n ? (uintptr_t)buf[k + i] : 0;
}

/* The stack from the frame that returns to ra (found in the unwound stack, so that it does
 * not matter whether the stub that took ra was turned into a tail call). */
__attribute__((noinline)) void mp_backtrace_from(mp_thread *t, uintptr_t ra)
{
    void *buf[MP_MAXDEPTH + 8];
    int n = backtrace(buf, mp_depth + 8), k = 0;
    while (k < n && (uintptr_t)buf[k] != ra)
        k++;
    if (k == n) {
        t->pcs[0] = ra;
        for (int i = 1; i < mp_depth; i++)
            t->pcs[i] = 0;
        return;
    }
    for (int i = 0; i < mp_depth; i++)
        t->pcs[i] = k + i < n ? (uintptr_t)buf[k + i] : 0;
}


/* The statistics of this call's site (found in the thread's open-addressing table, or added
 * to it), or the function's own when the table is full or there is none. */
static mp_stat *site_stat(mp_thread *t, int fid)
{
    int d = mp_depth;
    mp_site *s = t->last_site;
    if (s->fid == (uint32_t)fid && !memcmp(s->pc, t->pcs, sizeof(uintptr_t) * (size_t)d))
        return &s->st;
    if (t->sites == NULL)
        return &t->f[fid];
    uint64_t h = ((uint64_t)fid + 1) * 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < d; i++)
        h = (h ^ t->pcs[i]) * 0xff51afd7ed558ccdull;
    unsigned mask = (unsigned)mp_cfg.max_sites - 1;
    unsigned idx = (unsigned)(h >> 40) & mask;
    for (int probe = 0; probe < 64; probe++, idx = (idx + 1) & mask) {
        s = &t->sites[idx];
        if (!s->used) {
            s->used = 1;
            s->fid = (uint32_t)fid;
            memcpy(s->pc, t->pcs, sizeof(uintptr_t) * (size_t)d);
            s->st.tmin = UINT64_MAX;
        } else if (s->fid != (uint32_t)fid || memcmp(s->pc, t->pcs, sizeof(uintptr_t) * (size_t)d)) {
            continue;
        }
        t->last_site = s;
        return &s->st;
    }
    t->sites_lost++;
    return &t->f[fid];
}

mp_stat *mp_leave_extra(mp_thread *t, int fid, uint64_t t0, uint64_t dt)
{
    if (t->fl & MP_FL_TRACE)
        mp_trace_add(t, fid, t0, dt);
    if (t->fl & (MP_FL_SITE1 | MP_FL_SITES))
        return site_stat(t, fid);
    return &t->f[fid];
}

void mp_trace_add(mp_thread *t, int fid, uint64_t t0, uint64_t dt)
{
    if (t->ev == NULL || t->nev >= (uint64_t)mp_cfg.trace_max) {
        t->ev_lost++;
        return;
    }
    mp_event *e = &t->ev[t->nev++];
    e->fid = (uint32_t)fid;
    e->tid = (uint32_t)t->tid;
    e->t0 = t0;
    e->dt = dt;
}

