/* mica-prof core: configuration, per-thread blocks, the clock, call sites, communicator and
 * persistent-request caches, byte accounting, MPI_Pcontrol, and the hooks run at MPI_Init,
 * MPI_Finalize, MPI_Abort, exit and fatal signals. Only PMPI_ functions are called. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "prof.h"
#include "internal.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

mp_hot_t mp_hot = {.sites_on = 1, .depth = 1};
int mp_world_size, mp_world_rank;
__thread mp_thread *mp_tls __attribute__((tls_model("initial-exec")));

mp_config mp_cfg;
mp_state mp_st;
mp_thread *mp_threads;            /* every thread's block, newest first */
static int mp_ntids;

/* ---------------------------------------------------------------------------------------- */
/* Configuration, read once when the library is loaded                                       */

static int env_flag(const char *name, int dflt)
{
    const char *v = getenv(name);
    if (v == NULL || *v == 0)
        return dflt;
    if (!strcmp(v, "0") || !strcasecmp(v, "off") || !strcasecmp(v, "no") || !strcasecmp(v, "false"))
        return 0;
    return 1;
}

static long env_long(const char *name, long dflt, long lo, long hi)
{
    const char *v = getenv(name);
    if (v == NULL || *v == 0)
        return dflt;
    long x = strtol(v, NULL, 10);
    return x < lo ? lo : x > hi ? hi : x;
}

void mp_strlcpy(char *d, const char *s, size_t n)
{
    size_t k = strlen(s);
    if (k >= n)
        k = n - 1;
    memcpy(d, s, k);
    d[k] = 0;
}

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

static int tsc_invariant(void)
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

/* Ticks of mp_now() per second, measured against CLOCK_MONOTONIC since the start. */
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

static void install_signals(void);
static void at_exit(void);

__attribute__((constructor)) static void mp_load(void)
{
    const char *v;
    mp_cfg.sites = env_flag("MICA_PROF_SITES", 1);
    mp_cfg.depth = (int)env_long("MICA_PROF_DEPTH", 1, 1, MP_MAXDEPTH);
    mp_cfg.max_sites = (int)env_long("MICA_PROF_MAX_SITES", 4096, 64, 1 << 22);
    int b = 1;
    while ((1 << b) < mp_cfg.max_sites)
        b++;
    mp_cfg.max_sites = 1 << b;
    mp_cfg.trace = env_flag("MICA_PROF_TRACE", 0);
    mp_cfg.trace_max = env_long("MICA_PROF_TRACE_MAX", 200000, 16, 1L << 30);
    mp_cfg.top = (int)env_long("MICA_PROF_TOP", 20, 1, 100000);
    mp_cfg.signals = env_flag("MICA_PROF_SIGNALS", 1);
    mp_cfg.exit_wait = (double)env_long("MICA_PROF_EXIT_WAIT_MS", 3000, 0, 3600000) / 1000;
    mp_cfg.quiet = env_flag("MICA_PROF_QUIET", 0);
    v = getenv("MICA_PROF_REPORT");
    mp_cfg.per_rank = v && !strcasecmp(v, "rank");
    v = getenv("MICA_PROF_DIR");
    snprintf(mp_cfg.dir, sizeof mp_cfg.dir, "%s", v && *v ? v : ".");
    v = getenv("MICA_PROF_NAME");
    snprintf(mp_cfg.name, sizeof mp_cfg.name, "%s", v && *v ? v : "");
    v = getenv("MICA_PROF_ADDR2LINE");
    snprintf(mp_cfg.addr2line, sizeof mp_cfg.addr2line, "%s", v && *v ? v : "addr2line");
    if (v && (!strcmp(v, "0") || !strcasecmp(v, "off")))
        mp_cfg.addr2line[0] = 0;
    v = getenv("MICA_PROF_CLOCK");
    mp_use_tsc = (v && !strcasecmp(v, "monotonic")) ? 0 : (v && !strcasecmp(v, "tsc")) ? 1 : tsc_invariant();
    mp_sites_on = mp_cfg.sites;
    mp_depth = mp_cfg.depth;
    mp_trace_on = mp_cfg.trace;
    if (mp_sites_on && mp_depth > 1) {
        void *buf[4];
        backtrace(buf, 4);          /* loads the unwinder now, not inside a measured call */
    }
    mp_st.pid = (int)getpid();
    mp_st.mono0 = mp_mono_ns();
    mp_st.wall0 = mp_wall_ns();
    mp_st.tick0 = mp_now();
    mp_st.on_since = mp_st.tick0;
    mp_st.reset_at = mp_st.tick0;
    mp_st.rank = -1;
    snprintf(mp_st.id, sizeof mp_st.id, "%d", mp_st.pid);
    if (!env_flag("MICA_PROF_START", 1)) {
        mp_gen = 1;
        mp_st.on_total = 0;
    }
    if (mp_cfg.signals)
        install_signals();
    atexit(at_exit);
}

/* ---------------------------------------------------------------------------------------- */
/* Per-thread blocks                                                                         */

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

/* ---------------------------------------------------------------------------------------- */
/* Call sites and trace events                                                               */

__attribute__((noinline)) void mp_backtrace(mp_thread *t)
{
    void *buf[MP_MAXDEPTH + 2];
    int n = backtrace(buf, mp_depth + 2);
    for (int i = 0; i < mp_depth; i++)
        t->pcs[i] = i + 2 < n ? (uintptr_t)buf[i + 2] : 0;
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

mp_site mp_nosite = {.fid = UINT32_MAX};

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

/* ---------------------------------------------------------------------------------------- */
/* Datatype sizes                                                                            */

uint64_t mp_tsize_slow(mp_thread *t, MPI_Datatype dt, uint64_t key)
{
    uint64_t g = __atomic_load_n(&mp_type_gen, __ATOMIC_ACQUIRE);
    if (t->tc_gen != g) {
        memset(t->tc_key, 0, sizeof t->tc_key);
        memset(t->tc_size, 0, sizeof t->tc_size);
        t->tl_key = t->tl_size = 0;
        t->tc_gen = g;
    }
    unsigned slot = (unsigned)(key ^ (key >> 5) ^ (key >> 13)) & 15;
    uint64_t size = 0;
    if (key != 0 && t->tc_key[slot] == key) {
        size = t->tc_size[slot];
    } else if (dt != MPI_DATATYPE_NULL && mp_st.inited && !mp_st.finalized) {
#if defined(MP_HAVE_TYPE_SIZE_C)
        MPI_Count c = 0;
        if (PMPI_Type_size_c(dt, &c) == MPI_SUCCESS && c > 0)
            size = (uint64_t)c;
#elif defined(MP_HAVE_TYPE_SIZE_X)
        MPI_Count c = 0;
        if (PMPI_Type_size_x(dt, &c) == MPI_SUCCESS && c > 0)
            size = (uint64_t)c;
#else
        int c = 0;
        if (PMPI_Type_size(dt, &c) == MPI_SUCCESS && c > 0)
            size = (uint64_t)c;
#endif
        if (key != 0) {
            t->tc_key[slot] = key;
            t->tc_size[slot] = size;
        }
    } else {
        return 0;
    }
    if (key != 0) {
        t->tl_key = key;
        t->tl_size = size;
    }
    return size;
}

void mp_type_freed(void)
{
    __atomic_fetch_add(&mp_type_gen, 1, __ATOMIC_RELEASE);
}

/* ---------------------------------------------------------------------------------------- */
/* Lock-free handle maps: insert with CAS on the key, values published with release stores;
 * a removed entry keeps its key with a null value (handles are reused by MPI libraries).   */

typedef struct {
    uint64_t key;
    void *val;
} mp_slot;

typedef struct {
    mp_slot *s;
    unsigned mask;
} mp_map;

static mp_map comm_map, req_map;

static unsigned map_hash(uint64_t k, unsigned mask)
{
    k ^= k >> 29;
    k *= 0xbf58476d1ce4e5b9ull;
    k ^= k >> 32;
    return (unsigned)k & mask;
}

static void *map_get(mp_map *m, uint64_t k)
{
    mp_slot *s = __atomic_load_n(&m->s, __ATOMIC_ACQUIRE);
    if (s == NULL || k == 0)
        return NULL;
    unsigned i = map_hash(k, m->mask);
    for (unsigned n = 0; n <= m->mask && n < 256; n++, i = (i + 1) & m->mask) {
        uint64_t kk = __atomic_load_n(&s[i].key, __ATOMIC_ACQUIRE);
        if (kk == k)
            return __atomic_load_n(&s[i].val, __ATOMIC_ACQUIRE);
        if (kk == 0)
            return NULL;
    }
    return NULL;
}

static pthread_mutex_t map_init_lock = PTHREAD_MUTEX_INITIALIZER;

/* Store v under k; returns the value it replaces (for the caller to free), or v itself if the
 * map is full (the caller keeps ownership). */
static void *map_put(mp_map *m, uint64_t k, void *v, unsigned cap)
{
    if (__atomic_load_n(&m->s, __ATOMIC_ACQUIRE) == NULL) {
        pthread_mutex_lock(&map_init_lock);
        if (m->s == NULL) {
            mp_slot *s = calloc(cap, sizeof *s);
            m->mask = cap - 1;
            __atomic_store_n(&m->s, s, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&map_init_lock);
    }
    mp_slot *s = m->s;
    if (s == NULL || k == 0)
        return v;
    unsigned i = map_hash(k, m->mask);
    for (unsigned n = 0; n <= m->mask && n < 256; n++, i = (i + 1) & m->mask) {
        uint64_t kk = __atomic_load_n(&s[i].key, __ATOMIC_ACQUIRE);
        if (kk == 0) {
            uint64_t zero = 0;
            if (__atomic_compare_exchange_n(&s[i].key, &zero, k, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
                kk = k;
            else
                kk = zero;
        }
        if (kk == k)
            return __atomic_exchange_n(&s[i].val, v, __ATOMIC_ACQ_REL);
    }
    return v;
}

static void *map_take(mp_map *m, uint64_t k)
{
    mp_slot *s = __atomic_load_n(&m->s, __ATOMIC_ACQUIRE);
    if (s == NULL || k == 0)
        return NULL;
    unsigned i = map_hash(k, m->mask);
    for (unsigned n = 0; n <= m->mask && n < 256; n++, i = (i + 1) & m->mask) {
        uint64_t kk = __atomic_load_n(&s[i].key, __ATOMIC_ACQUIRE);
        if (kk == k)
            return __atomic_exchange_n(&s[i].val, NULL, __ATOMIC_ACQ_REL);
        if (kk == 0)
            return NULL;
    }
    return NULL;
}

/* ---------------------------------------------------------------------------------------- */
/* Communicators: rank translation to MPI_COMM_WORLD, built once per communicator            */

static mp_cinfo world_info;
static __thread mp_cinfo *spare_info;   /* when the map is full: the last one built */

static mp_cinfo *cinfo_build(MPI_Comm c)
{
    int rank = 0, size = 0, inter = 0, n;
    if (mp_st.world_group == MPI_GROUP_NULL)
        return NULL;
    if (PMPI_Comm_rank(c, &rank) != MPI_SUCCESS || PMPI_Comm_size(c, &size) != MPI_SUCCESS)
        return NULL;
#ifdef MP_HAVE_COMM_TEST_INTER
    if (mp_st.cap_inter && PMPI_Comm_test_inter(c, &inter) != MPI_SUCCESS)
        inter = 0;
#endif
    MPI_Group g;
    int rc;
#ifdef MP_HAVE_COMM_REMOTE_GROUP
    rc = inter ? PMPI_Comm_remote_group(c, &g) : PMPI_Comm_group(c, &g);
#else
    inter = 0;
    rc = PMPI_Comm_group(c, &g);
#endif
    if (rc != MPI_SUCCESS)
        return NULL;
    PMPI_Group_size(g, &n);
    mp_cinfo *ci = calloc(1, sizeof *ci + sizeof(int) * (size_t)n * 2);
    if (ci == NULL) {
        PMPI_Group_free(&g);
        return NULL;
    }
    ci->rank = rank;
    ci->size = size;
    ci->np = n;
    ci->inter = inter;
    ci->indeg = ci->outdeg = 0;
    ci->world = ci->ranks;
    int *tmp = ci->ranks + n;
    for (int i = 0; i < n; i++)
        tmp[i] = i;
    if (n > 0 && PMPI_Group_translate_ranks(g, n, tmp, mp_st.world_group, ci->world) != MPI_SUCCESS)
        for (int i = 0; i < n; i++)
            ci->world[i] = MPI_UNDEFINED;
    PMPI_Group_free(&g);
#ifdef MP_HAVE_TOPO_TEST
    int topo = MPI_UNDEFINED;
    if (mp_st.cap_topo && !inter && PMPI_Topo_test(c, &topo) == MPI_SUCCESS) {
        if (topo == MPI_CART) {
#ifdef MP_HAVE_CARTDIM_GET
            int nd = 0;
            PMPI_Cartdim_get(c, &nd);
            ci->indeg = ci->outdeg = 2 * nd;
#endif
        } else if (topo == MPI_GRAPH) {
#ifdef MP_HAVE_GRAPH_NEIGHBORS_COUNT
            int nn = 0;
            PMPI_Graph_neighbors_count(c, rank, &nn);
            ci->indeg = ci->outdeg = nn;
#endif
        } else if (topo == MPI_DIST_GRAPH) {
#ifdef MP_HAVE_DIST_GRAPH_NEIGHBORS_COUNT
            int in = 0, out = 0, w = 0;
            PMPI_Dist_graph_neighbors_count(c, &in, &out, &w);
            ci->indeg = in;
            ci->outdeg = out;
#endif
        }
    }
#endif
    return ci;
}

static int usable(void)
{
    return mp_st.inited && !mp_st.finalized;
}

const mp_cinfo *mp_comm_get(MPI_Comm c)
{
    if (c == MPI_COMM_WORLD)
        return usable() ? &world_info : NULL;
    uint64_t k = mp_hkey(&c, sizeof c);
    mp_cinfo *ci = map_get(&comm_map, k);
    if (MP_LIKELY(ci != NULL))
        return ci;
    if (!usable() || c == MPI_COMM_NULL)
        return NULL;
    if (spare_info && spare_info->key == k)
        return spare_info;
    /* Not seen at creation (made through a path the tool does not wrap): build it now. */
    ci = cinfo_build(c);
    if (ci == NULL)
        return NULL;
    ci->key = k;
    void *old = map_put(&comm_map, k, ci, 1u << 14);
    if (old == ci) {                    /* map full */
        free(spare_info);
        spare_info = ci;
    } else {
        free(old);
    }
    return ci;
}

void mp_comm_created(MPI_Comm c)
{
    if (!usable() || c == MPI_COMM_NULL || c == MPI_COMM_WORLD)
        return;
    uint64_t k = mp_hkey(&c, sizeof c);
    mp_cinfo *ci = cinfo_build(c);
    if (ci == NULL)
        return;
    ci->key = k;
    void *old = map_put(&comm_map, k, ci, 1u << 14);
    if (old == ci)
        free(ci);
    else
        free(old);
}

void mp_comm_forget(MPI_Comm c)
{
    if (c == MPI_COMM_NULL || c == MPI_COMM_WORLD)
        return;
    free(map_take(&comm_map, mp_hkey(&c, sizeof c)));
}

/* ---------------------------------------------------------------------------------------- */
/* The matrix and the histograms                                                             */

static int world_of(MPI_Comm comm, int peer)
{
    if (comm == MPI_COMM_WORLD)
        return peer >= 0 && peer < mp_world_size ? peer : -1;
    const mp_cinfo *ci = mp_comm_get(comm);
    if (ci == NULL || peer < 0 || peer >= ci->np)
        return -1;
    int w = ci->world[peer];
    return w >= 0 && w < mp_world_size ? w : -1;
}

static void row_add(mp_thread *t, int w, uint64_t bytes)
{
    if (t->row == NULL) {
        if (mp_world_size <= 0)
            return;
        t->row = calloc(2 * (size_t)(mp_world_size + 1), sizeof(uint64_t));
        if (t->row == NULL)
            return;
        t->row_n = mp_world_size;
    }
    int i = w < 0 || w >= t->row_n ? t->row_n : w;
    t->row[2 * i] += bytes;
    t->row[2 * i + 1]++;
}

void mp_matrix_add(mp_thread *t, MPI_Comm comm, int peer, uint64_t bytes)
{
    int w = world_of(comm, peer);
    if (t->defer) {
        t->dfr.world = w;
        return;
    }
    row_add(t, w, bytes);
}

void mp_hist_add(mp_thread *t, int cat, uint64_t b)
{
    t->hist[cat][b >> 63 ? 64 : MP_BUCKET(b)]++;
    t->hbytes[cat] += b;
}

/* What one call moves: sent and received bytes, and one histogram entry of size max(s, r). */
static void note(mp_thread *t, int cat, uint64_t sent, uint64_t recv)
{
    uint64_t h = sent > recv ? sent : recv;
    if (t->defer) {
        t->dfr.sent += sent;
        t->dfr.recv += recv;
        t->dfr.hsize = h;
        t->dfr.cat = cat;
        return;
    }
    t->cur_sent += sent;
    t->cur_recv += recv;
    if (cat)
        mp_hist_add(t, cat, h);
}

/* ---------------------------------------------------------------------------------------- */
/* Byte helpers                                                                              */

static uint64_t csum(const void *a, int w, int n)
{
    uint64_t s = 0;
    if (a == NULL)
        return 0;
    for (int i = 0; i < n; i++) {
        long long c = w ? (long long)((const MPI_Count *)a)[i] : (long long)((const int *)a)[i];
        if (c > 0)
            s += (uint64_t)c;
    }
    return s;
}

static uint64_t cat_(const void *a, int w, int i)
{
    long long c = w ? (long long)((const MPI_Count *)a)[i] : (long long)((const int *)a)[i];
    return c > 0 ? (uint64_t)c : 0;
}

static uint64_t wsum(mp_thread *t, const void *counts, const void *types, int w, int ft, int n)
{
    uint64_t s = 0;
    if (counts == NULL || types == NULL)
        return 0;
    for (int i = 0; i < n; i++) {
        uint64_t c = cat_(counts, w, i);
        if (c == 0)
            continue;
        MPI_Datatype dt = ft ? PMPI_Type_f2c(((const MPI_Fint *)types)[i]) : ((const MPI_Datatype *)types)[i];
        s += c * mp_tsize(t, dt);
    }
    return s;
}

/* 1: this rank is the root, 0: it contributes or receives as a non-root, -1: no data
 * (MPI_PROC_NULL in the root's group of an intercommunicator). */
static int role(const mp_cinfo *ci, int root)
{
    if (ci->inter)
        return root == MPI_ROOT ? 1 : root == MPI_PROC_NULL ? -1 : 0;
    return root == ci->rank ? 1 : 0;
}

/* mp_b_send for MPI_Send_init and friends: what each MPI_Start will move. */
void mp_b_send_defer(mp_thread *t, MPI_Count count, MPI_Datatype type, int dest, MPI_Comm comm)
{
    if (dest == MPI_PROC_NULL)
        return;
    uint64_t b = mp_bytes(t, count, type);
    t->dfr.sent += b;
    t->dfr.hsize = b;
    t->dfr.cat = MP_CAT_P2P;
    t->dfr.mbytes = b;
    mp_matrix_add(t, comm, dest, b);    /* sets dfr.world */
}

void mp_b_recv(mp_thread *t, MPI_Count count, MPI_Datatype type, int src)
{
    if (src == MPI_PROC_NULL)
        return;
    uint64_t b = mp_bytes(t, count, type);
    if (t->defer)
        t->dfr.recv += b;
    else
        t->cur_recv += b;
}

void mp_b_bcast(mp_thread *t, MPI_Count count, MPI_Datatype type, int root, MPI_Comm comm)
{
    const mp_cinfo *ci = mp_comm_get(comm);
    if (ci == NULL)
        return;
    int r = role(ci, root);
    uint64_t b = r < 0 ? 0 : mp_bytes(t, count, type);
    note(t, MP_CAT_COLL, r == 1 ? b : 0, r == 0 ? b : 0);
}

/* A rooted collective (gather, scatter): the root moves `all` bytes one way, and a process's
 * own block `own` moves the other way (`gathers`: the root receives `all`). */
static void rooted(mp_thread *t, int r, uint64_t all, uint64_t own, int gathers)
{
    uint64_t mine = r == 1 ? all : 0; /* the direction of `all` */
    note(t, MP_CAT_COLL, gathers ? own : mine, gathers ? mine : own);
}

/* Does this process's own block move? Not at the root of an intercommunicator, nor with
 * MPI_IN_PLACE at the root (whose own type is then not to be looked at), nor at MPI_PROC_NULL. */
static int own_moves(const mp_cinfo *ci, int r, const void *buf)
{
    return r == 0 || (r == 1 && !ci->inter && buf != MPI_IN_PLACE);
}

void mp_b_gather(mp_thread *t, const void *sbuf, MPI_Count sc, MPI_Datatype st, MPI_Count rc,
                 MPI_Datatype rt, int root, MPI_Comm comm)
{
    const mp_cinfo *ci = mp_comm_get(comm);
    if (ci == NULL)
        return;
    int r = role(ci, root);
    uint64_t all = r == 1 ? (uint64_t)ci->np * mp_bytes(t, rc, rt) : 0;
    rooted(t, r, all, own_moves(ci, r, sbuf) ? mp_bytes(t, sc, st) : 0, 1);
}

void mp_b_gatherv(mp_thread *t, const void *sbuf, MPI_Count sc, MPI_Datatype st, const void *rcs,
                  int w, MPI_Datatype rt, int root, MPI_Comm comm)
{
    const mp_cinfo *ci = mp_comm_get(comm);
    if (ci == NULL)
        return;
    int r = role(ci, root);
    uint64_t n = r == 1 ? csum(rcs, w, ci->np) : 0;
    rooted(t, r, n ? n * mp_tsize(t, rt) : 0, own_moves(ci, r, sbuf) ? mp_bytes(t, sc, st) : 0, 1);
}

void mp_b_scatter(mp_thread *t, MPI_Count sc, MPI_Datatype st, const void *rbuf, MPI_Count rc,
                  MPI_Datatype rt, int root, MPI_Comm comm)
{
    const mp_cinfo *ci = mp_comm_get(comm);
    if (ci == NULL)
        return;
    int r = role(ci, root);
    uint64_t all = r == 1 ? (uint64_t)ci->np * mp_bytes(t, sc, st) : 0;
    rooted(t, r, all, own_moves(ci, r, rbuf) ? mp_bytes(t, rc, rt) : 0, 0);
}

void mp_b_scatterv(mp_thread *t, const void *scs, int w, MPI_Datatype st, const void *rbuf,
                   MPI_Count rc, MPI_Datatype rt, int root, MPI_Comm comm)
{
    const mp_cinfo *ci = mp_comm_get(comm);
    if (ci == NULL)
        return;
    int r = role(ci, root);
    uint64_t n = r == 1 ? csum(scs, w, ci->np) : 0;
    rooted(t, r, n ? n * mp_tsize(t, st) : 0, own_moves(ci, r, rbuf) ? mp_bytes(t, rc, rt) : 0, 0);
}

void mp_b_allgather(mp_thread *t, const void *sbuf, MPI_Count sc, MPI_Datatype st, MPI_Count rc,
                    MPI_Datatype rt, MPI_Comm comm)
{
    const mp_cinfo *ci = mp_comm_get(comm);
    if (ci == NULL)
        return;
    uint64_t rb = mp_bytes(t, rc, rt);
    uint64_t s = sbuf == MPI_IN_PLACE ? rb : mp_bytes(t, sc, st);
    note(t, MP_CAT_COLL, s, (uint64_t)ci->np * rb);
}

void mp_b_allgatherv(mp_thread *t, const void *sbuf, MPI_Count sc, MPI_Datatype st,
                     const void *rcs, int w, MPI_Datatype rt, MPI_Comm comm)
{
    const mp_cinfo *ci = mp_comm_get(comm);
    if (ci == NULL || rcs == NULL)
        return;
    uint64_t ts = mp_tsize(t, rt);
    uint64_t s = sbuf == MPI_IN_PLACE ? (ci->rank < ci->np ? cat_(rcs, w, ci->rank) * ts : 0)
                                      : mp_bytes(t, sc, st);
    note(t, MP_CAT_COLL, s, csum(rcs, w, ci->np) * ts);
}

void mp_b_alltoall(mp_thread *t, const void *sbuf, MPI_Count sc, MPI_Datatype st, MPI_Count rc,
                   MPI_Datatype rt, MPI_Comm comm)
{
    const mp_cinfo *ci = mp_comm_get(comm);
    if (ci == NULL)
        return;
    uint64_t rb = (uint64_t)ci->np * mp_bytes(t, rc, rt);
    uint64_t s = sbuf == MPI_IN_PLACE ? rb : (uint64_t)ci->np * mp_bytes(t, sc, st);
    note(t, MP_CAT_COLL, s, rb);
}

void mp_b_alltoallv(mp_thread *t, const void *sbuf, const void *scs, MPI_Datatype st,
                    const void *rcs, MPI_Datatype rt, int w, MPI_Comm comm)
{
    const mp_cinfo *ci = mp_comm_get(comm);
    if (ci == NULL)
        return;
    uint64_t nr = csum(rcs, w, ci->np), rb = nr ? nr * mp_tsize(t, rt) : 0;
    uint64_t s = rb;
    if (sbuf != MPI_IN_PLACE) {
        uint64_t ns = csum(scs, w, ci->np);
        s = ns ? ns * mp_tsize(t, st) : 0;
    }
    note(t, MP_CAT_COLL, s, rb);
}

void mp_b_alltoallw(mp_thread *t, const void *sbuf, const void *scs, const void *sts,
                    const void *rcs, const void *rts, int w, int ft, MPI_Comm comm)
{
    const mp_cinfo *ci = mp_comm_get(comm);
    if (ci == NULL)
        return;
    uint64_t rb = wsum(t, rcs, rts, w, ft, ci->np);
    uint64_t s = sbuf == MPI_IN_PLACE ? rb : wsum(t, scs, sts, w, ft, ci->np);
    note(t, MP_CAT_COLL, s, rb);
}

void mp_b_reduce(mp_thread *t, MPI_Count count, MPI_Datatype type, int root, MPI_Comm comm)
{
    const mp_cinfo *ci = mp_comm_get(comm);
    if (ci == NULL)
        return;
    int r = role(ci, root);
    uint64_t b = r < 0 ? 0 : mp_bytes(t, count, type);
    if (ci->inter)
        note(t, MP_CAT_COLL, r == 0 ? b : 0, r == 1 ? b : 0);
    else
        note(t, MP_CAT_COLL, b, r == 1 ? b : 0);
}

void mp_b_allreduce(mp_thread *t, MPI_Count count, MPI_Datatype type, MPI_Comm comm)
{
    (void)comm;
    uint64_t b = mp_bytes(t, count, type);
    note(t, MP_CAT_COLL, b, b);
}

void mp_b_reduce_scatter(mp_thread *t, const void *rcs, int w, MPI_Datatype type, MPI_Comm comm)
{
    const mp_cinfo *ci = mp_comm_get(comm);
    if (ci == NULL || rcs == NULL)
        return;
    uint64_t ts = mp_tsize(t, type);
    uint64_t mine = ci->rank < ci->size ? cat_(rcs, w, ci->rank) : 0;
    note(t, MP_CAT_COLL, csum(rcs, w, ci->size) * ts, mine * ts);
}

void mp_b_reduce_scatter_block(mp_thread *t, MPI_Count rc, MPI_Datatype type, MPI_Comm comm)
{
    const mp_cinfo *ci = mp_comm_get(comm);
    if (ci == NULL)
        return;
    uint64_t b = mp_bytes(t, rc, type);
    note(t, MP_CAT_COLL, (uint64_t)ci->size * b, b);
}

void mp_b_barrier(mp_thread *t)
{
    note(t, MP_CAT_COLL, 0, 0);
}

void mp_b_nbr(mp_thread *t, MPI_Count sc, MPI_Datatype st, MPI_Count rc, MPI_Datatype rt,
              MPI_Comm comm)
{
    const mp_cinfo *ci = mp_comm_get(comm);
    if (ci == NULL)
        return;
    note(t, MP_CAT_COLL, (uint64_t)ci->outdeg * mp_bytes(t, sc, st),
         (uint64_t)ci->indeg * mp_bytes(t, rc, rt));
}

void mp_b_nbr_allgatherv(mp_thread *t, MPI_Count sc, MPI_Datatype st, const void *rcs, int w,
                         MPI_Datatype rt, MPI_Comm comm)
{
    const mp_cinfo *ci = mp_comm_get(comm);
    if (ci == NULL)
        return;
    uint64_t n = csum(rcs, w, ci->indeg);
    note(t, MP_CAT_COLL, (uint64_t)ci->outdeg * mp_bytes(t, sc, st), n ? n * mp_tsize(t, rt) : 0);
}

void mp_b_nbr_alltoallv(mp_thread *t, const void *scs, MPI_Datatype st, const void *rcs,
                        MPI_Datatype rt, int w, MPI_Comm comm)
{
    const mp_cinfo *ci = mp_comm_get(comm);
    if (ci == NULL)
        return;
    uint64_t ns = csum(scs, w, ci->outdeg), nr = csum(rcs, w, ci->indeg);
    note(t, MP_CAT_COLL, ns ? ns * mp_tsize(t, st) : 0, nr ? nr * mp_tsize(t, rt) : 0);
}

void mp_b_nbr_alltoallw(mp_thread *t, const void *scs, const void *sts, const void *rcs,
                        const void *rts, int w, int ft, MPI_Comm comm)
{
    const mp_cinfo *ci = mp_comm_get(comm);
    if (ci == NULL)
        return;
    note(t, MP_CAT_COLL, wsum(t, scs, sts, w, ft, ci->outdeg), wsum(t, rcs, rts, w, ft, ci->indeg));
}

void mp_b_rma(mp_thread *t, MPI_Count sc, MPI_Datatype st, MPI_Count rc, MPI_Datatype rt,
              int target)
{
    if (target == MPI_PROC_NULL) {
        note(t, MP_CAT_RMA, 0, 0);
        return;
    }
    note(t, MP_CAT_RMA, sc > 0 ? mp_bytes(t, sc, st) : 0, rc > 0 ? mp_bytes(t, rc, rt) : 0);
}

void mp_b_io(mp_thread *t, MPI_Count count, MPI_Datatype type, int write)
{
    uint64_t b = mp_bytes(t, count, type);
    note(t, MP_CAT_IO, write ? b : 0, write ? 0 : b);
}

/* ---------------------------------------------------------------------------------------- */
/* Persistent and partitioned requests: what each start moves                                */

void mp_defer_begin(mp_thread *t)
{
    memset(&t->dfr, 0, sizeof t->dfr);
    t->dfr.world = -2;             /* -2: no matrix entry */
    t->defer = 1;
}

void mp_defer_end(mp_thread *t, int ok, MPI_Request req)
{
    t->defer = 0;
    if (!ok || req == MPI_REQUEST_NULL)
        return;
    mp_deferred *d = malloc(sizeof *d);
    if (d == NULL)
        return;
    *d = t->dfr;
    void *old = map_put(&req_map, mp_hkey(&req, sizeof req), d, 1u << 16);
    free(old);                      /* (old == d: the map is full; its starts move no bytes) */
}

void mp_req_forget(MPI_Request req)
{
    if (req != MPI_REQUEST_NULL)
        free(map_take(&req_map, mp_hkey(&req, sizeof req)));
}

void mp_b_start(mp_thread *t, MPI_Request req)
{
    const mp_deferred *d = map_get(&req_map, mp_hkey(&req, sizeof req));
    if (d == NULL)
        return;
    t->cur_sent += d->sent;
    t->cur_recv += d->recv;
    if (d->cat)
        mp_hist_add(t, d->cat, d->hsize);
    if (d->world != -2)
        row_add(t, d->world, d->mbytes);
}

void mp_b_startall(mp_thread *t, int n, const void *reqs, int fortran)
{
    if (reqs == NULL)
        return;
    for (int i = 0; i < n; i++)
        mp_b_start(t, fortran ? PMPI_Request_f2c(((const MPI_Fint *)reqs)[i]) : ((const MPI_Request *)reqs)[i]);
}

/* ---------------------------------------------------------------------------------------- */
/* Fortran: the MPI library's own entry points, and its MPI_IN_PLACE                         */

extern void *mp_fsyms[][6];
extern const char *const mp_fsym_names[][6];

static void *find_fortran(const char *const names[6], int scheme)
{
    static const int order[6][6] = {
        {0, 1, 2, 3, -1, -1}, {1, 0, 2, 3, -1, -1}, {2, 1, 0, 3, -1, -1},
        {3, 1, 0, 2, -1, -1}, {4, 5, -1, -1, -1, -1}, {5, 4, -1, -1, -1, -1}};
    for (int i = 0; i < 6 && order[scheme][i] >= 0; i++) {
        void *p = dlsym(RTLD_NEXT, names[order[scheme][i]]);
        if (p)
            return p;
    }
    /* no profiling entry point: the library's MPI_ name, after ours */
    for (int i = 0; i < 6 && order[scheme][i] >= 0; i++) {
        void *p = dlsym(RTLD_NEXT, names[order[scheme][i]] + 1);
        if (p)
            return p;
    }
    return NULL;
}

void *mp_fsym_slow(int ffid, int scheme)
{
    void *p = find_fortran(mp_fsym_names[ffid], scheme);
    if (p == NULL) {
        fprintf(stderr, "mica-prof: the MPI library has no Fortran entry point %s\n",
                mp_fsym_names[ffid][scheme] + 1);
        abort();
    }
    __atomic_store_n(&mp_fsyms[ffid][scheme], p, __ATOMIC_RELEASE);
    return p;
}

static const void *f_in_place[4];
static int f_in_place_done;

const void *mp_fbuf(const void *p)
{
    if (!f_in_place_done) {
        int n = 0;
        /* Open MPI: the address of a common block variable */
        static const char *ompi[] = {"mpi_fortran_in_place_", "mpi_fortran_in_place",
                                     "mpi_fortran_in_place__", "MPI_FORTRAN_IN_PLACE"};
        for (int i = 0; i < 4 && n < 3; i++) {
            void *a = dlsym(RTLD_DEFAULT, ompi[i]);
            if (a)
                f_in_place[n++] = a;
        }
        /* MPICH: a pointer set by its Fortran initialization, else COMMON /MPIPRIV1/ MPI_BOTTOM,
         * MPI_IN_PLACE */
        void **pp = dlsym(RTLD_DEFAULT, "MPIR_F_MPI_IN_PLACE");
        if (pp && *pp && n < 4)
            f_in_place[n++] = *pp;
        else {
            char *c = dlsym(RTLD_DEFAULT, "mpipriv1_");
            if (c && n < 4)
                f_in_place[n++] = c + sizeof(MPI_Fint);
        }
        if (mp_st.inited)
            f_in_place_done = 1;
    }
    for (int i = 0; i < 4 && f_in_place[i]; i++)
        if (p == f_in_place[i])
            return MPI_IN_PLACE;
    return p;
}

mp_thread *mp_fbegin(void *ra, uint64_t *t0)
{
    MP_BEGIN_AT(ra);
    *t0 = t0_;
    return t_;
}

void mp_fend(mp_thread *t, int fid, uint64_t t0, uint64_t t1)
{
    mp_leave(t, fid, t0, t1);
}

/* MPI_PCONTROL(LEVEL): recorded here, passed on to the library, then acted upon. */
void mp_fpcontrol(MPI_Fint *level, int scheme, void *ra);
void mp_fpcontrol(MPI_Fint *level, int scheme, void *ra)
{
    static void *fn[6];
    static const char *const names[6] = {"pmpi_pcontrol", "pmpi_pcontrol_", "pmpi_pcontrol__",
                                         "PMPI_PCONTROL", "pmpi_pcontrol_f08_", "PMPI_Pcontrol_f08"};
    void *f = __atomic_load_n(&fn[scheme], __ATOMIC_ACQUIRE);
    if (f == NULL) {
        f = find_fortran(names, scheme);
        __atomic_store_n(&fn[scheme], f, __ATOMIC_RELEASE);
    }
    MP_BEGIN_AT(ra);
    if (f && mp_mpi_active())
        ((void (*)(MPI_Fint *))f)(level);
    if (t_)
        mp_leave(t_, MP_F_MPI_Pcontrol, t0_, MP_END_TIME());
    mp_pcontrol((int)*level);
}

/* ---------------------------------------------------------------------------------------- */
/* MPI_Pcontrol                                                                              */

int mp_mpi_active(void)
{
    int a = 0, b = 0;
    if (mp_st.inited)
        return !mp_st.finalized;
    PMPI_Initialized(&a);
    if (a)
        PMPI_Finalized(&b);
    return a && !b;
}

void mp_pcontrol(int level)
{
    uint64_t now = mp_now();
    switch (level) {
    case 0:
        if (!(__atomic_fetch_or(&mp_gen, 1, __ATOMIC_ACQ_REL) & 1))
            mp_st.on_total += now - mp_st.on_since;
        break;
    case 1:
        if (__atomic_fetch_and(&mp_gen, ~(uint64_t)1, __ATOMIC_ACQ_REL) & 1)
            mp_st.on_since = now;
        break;
    case 2:
        __atomic_fetch_add(&mp_gen, 2, __ATOMIC_ACQ_REL);
        mp_st.on_total = 0;
        mp_st.on_since = now;
        mp_st.reset_at = now;
        mp_st.resets++;
        break;
    case 3:
        mp_write_rank_file("MPI_Pcontrol(3)", 1);
        break;
    default:
        break;
    }
}

/* ---------------------------------------------------------------------------------------- */
/* Init, finalize, abort, exit, signals                                                      */

void mp_after_init(void)
{
    int flag = 0;
    if (mp_st.inited || (PMPI_Initialized(&flag), !flag))
        return;
    mp_st.inited = 1;
    mp_st.used = 1;
    PMPI_Comm_rank(MPI_COMM_WORLD, &mp_world_rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &mp_world_size);
    mp_st.rank = mp_world_rank;
    /* The tool's own communicator. Should the library fail to make it, the program goes on and
     * each rank writes its own file at the end: MPI_COMM_WORLD's error handler is set to return
     * errors for this one call (no user code runs meanwhile), then put back. */
    MPI_Errhandler eh;
    int have_eh = PMPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh) == MPI_SUCCESS;
    if (have_eh)
        PMPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rc = mp_cfg.per_rank ? MPI_ERR_OTHER : PMPI_Comm_dup(MPI_COMM_WORLD, &mp_st.comm);
    if (PMPI_Comm_group(MPI_COMM_WORLD, &mp_st.world_group) != MPI_SUCCESS)
        mp_st.world_group = MPI_GROUP_NULL;
    if (have_eh) {
        PMPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
        PMPI_Errhandler_free(&eh);
    }
    if (rc != MPI_SUCCESS) {
        mp_st.comm = MPI_COMM_NULL;
        if (!mp_cfg.per_rank)
            fprintf(stderr, "mica-prof: rank %d: MPI_Comm_dup failed; each rank writes its own file\n",
                    mp_world_rank);
    } else {
        PMPI_Comm_set_errhandler(mp_st.comm, MPI_ERRORS_RETURN);
    }
    /* functions a library may not have yet (Mica): tried once on the tool's communicator */
#ifdef MP_HAVE_COMM_TEST_INTER
    mp_st.cap_inter = mp_st.comm != MPI_COMM_NULL && PMPI_Comm_test_inter(mp_st.comm, &flag) == MPI_SUCCESS;
#endif
#ifdef MP_HAVE_TOPO_TEST
    mp_st.cap_topo = mp_st.comm != MPI_COMM_NULL && PMPI_Topo_test(mp_st.comm, &flag) == MPI_SUCCESS;
#endif
    world_info.rank = mp_world_rank;
    world_info.size = world_info.np = mp_world_size;
    world_info.world = calloc((size_t)mp_world_size + 1, sizeof(int));
    for (int i = 0; world_info.world && i < mp_world_size; i++)
        world_info.world[i] = i;
    /* One name for the job's files: the batch job id, else rank 0's process id. */
    struct {
        char id[64];
        uint64_t wall0;
    } job;
    memset(&job, 0, sizeof job);
    if (mp_world_rank == 0) {
        const char *e = NULL;
        static const char *vars[] = {"SLURM_JOB_ID", "PBS_JOBID", "LSB_JOBID", "JOB_ID", "COBALT_JOBID"};
        for (unsigned i = 0; e == NULL && i < sizeof vars / sizeof *vars; i++)
            e = getenv(vars[i]);
        mp_strlcpy(job.id, e && *e ? e : mp_st.id, sizeof job.id);
        for (char *c = job.id; *c; c++)
            if (*c == '/' || *c == ' ')
                *c = '_';
        job.wall0 = mp_st.wall0;
    }
    if (mp_st.comm != MPI_COMM_NULL)
        PMPI_Bcast(&job, (int)sizeof job, MPI_BYTE, 0, mp_st.comm);
    else
        mp_strlcpy(job.id, mp_st.id, sizeof job.id);
    mp_strlcpy(mp_st.id, job.id, sizeof mp_st.id);
    mp_st.wall_base = job.wall0;
    mp_st.init_at = mp_now();
    /* The MPI library may have installed signal handlers of its own: go in front again. */
    if (mp_cfg.signals)
        install_signals();
    /* Threads created before MPI_Init get their matrix row on first use. */
}

void mp_after_session_init(void)
{
    mp_st.used = 1;
}

void mp_before_finalize(void)
{
    if (!mp_st.inited || mp_st.finalized || mp_st.reported)
        return;
    mp_st.reported = 1;
    if (mp_st.comm != MPI_COMM_NULL)
        mp_report_final();
    else
        mp_write_rank_file(mp_cfg.per_rank ? "MPI_Finalize" : "no communicator for the job report", 1);
    mp_st.finalized = 1;
    if (mp_st.world_group != MPI_GROUP_NULL)
        PMPI_Group_free(&mp_st.world_group);
    if (mp_st.comm != MPI_COMM_NULL)
        PMPI_Comm_free(&mp_st.comm);
}

/* Write this rank's file with the launcher's termination signals held back: when one rank
 * exits early, launchers stop the others, which may be writing their own files just then. */
static void write_shielded(const char *why)
{
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGHUP);
    sigaddset(&block, SIGQUIT);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    mp_write_rank_file(why, 1);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

void mp_on_abort(void)
{
    if (__atomic_exchange_n(&mp_st.reported, 1, __ATOMIC_ACQ_REL))
        return;
    write_shielded("MPI_Abort");
}

static void at_exit(void)
{
    if (!mp_st.used || __atomic_exchange_n(&mp_st.reported, 1, __ATOMIC_ACQ_REL))
        return;
    write_shielded("exit without MPI_Finalize");
    if (mp_st.inited && !mp_st.finalized)
        mp_wait_rank_files();
}

static const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM, SIGINT, SIGHUP,
                           SIGQUIT, SIGXCPU};
#define NSIGS ((int)(sizeof sigs / sizeof *sigs))
static struct sigaction old_act[NSIGS];
static int have_old[NSIGS];

static void on_signal(int sig)
{
    int i;
    for (i = 0; i < NSIGS && sigs[i] != sig; i++)
        ;
    if (mp_st.used && !__atomic_exchange_n(&mp_st.reported, 1, __ATOMIC_ACQ_REL)) {
        char why[32];
        snprintf(why, sizeof why, "signal %d", sig);
        mp_write_rank_file(why, 0);
    }
    if (i < NSIGS && have_old[i])
        sigaction(sig, &old_act[i], NULL);
    else
        signal(sig, SIG_DFL);
    raise(sig);
}

static void install_signals(void)
{
    for (int i = 0; i < NSIGS; i++) {
        struct sigaction cur, sa;
        if (sigaction(sigs[i], NULL, &cur) != 0)
            continue;
        if (!(cur.sa_flags & SA_SIGINFO) && cur.sa_handler == on_signal)
            continue;
        if (!(cur.sa_flags & SA_SIGINFO) && cur.sa_handler == SIG_IGN)
            continue;                /* ignored on purpose (nohup): leave it so */
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        for (int k = 0; k < NSIGS; k++)
            sigaddset(&sa.sa_mask, sigs[k]);
        sa.sa_flags = SA_RESETHAND;
        if (sigaction(sigs[i], &sa, NULL) == 0) {
            old_act[i] = cur;
            have_old[i] = 1;
        }
    }
}
