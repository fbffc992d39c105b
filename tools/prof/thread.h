/* mica-prof: per-thread blocks. Each thread that makes an MPI call gets a block of its own
 * (statistics per function, call sites, trace events, byte histograms, its row of the
 * point-to-point matrix), so the hot path takes no lock and allocates nothing: a flat array
 * indexed by the generated function id. The blocks are linked into one list and merged when a
 * report is written (local.c). */
#ifndef MICA_PROF_THREAD_H
#define MICA_PROF_THREAD_H

#include <mpi.h>
#include <stdint.h>
#include "mp_gen.h"
#include "config.h"
#include "state.h"

/* Categories of byte-moving functions, for the message-size histograms. */
enum { MP_CAT_NONE, MP_CAT_P2P, MP_CAT_COLL, MP_CAT_RMA, MP_CAT_IO, MP_NCAT };
#define MP_NBUCKET 65        /* 0 bytes, then [2^(k-1), 2^k) for k = 1..64 */
#define MP_BUCKET(b) (63 - __builtin_clzll(((uint64_t)(b) << 1) | 1))   /* b < 2^63 */

typedef struct {
    uint64_t calls, ticks, tmin, tmax, sent, recv;
} mp_stat;

typedef struct {
    uint32_t fid, used;
    uintptr_t pc[MP_MAXDEPTH];
    mp_stat st;
} mp_site;

typedef struct {
    uint32_t fid, tid;
    uint64_t t0, dt;
} mp_event;

/* What a persistent or partitioned request moves each time it is started, recorded when it is
 * created (MPI_Send_init, MPI_Bcast_init, ...) and replayed by MPI_Start / MPI_Startall. */
typedef struct {
    uint64_t sent, recv, hsize, mbytes;
    int cat, world;          /* world: the receiver's MPI_COMM_WORLD rank, -1 if none */
} mp_deferred;

/* Bits of mp_thread.fl, fixed when the thread's block is made (options do not change). */
enum { MP_FL_SITE1 = 1, MP_FL_SITES = 2, MP_FL_TRACE = 4, MP_FL_TSC = 8 };

typedef struct mp_thread {
    uint64_t gen;            /* the reset epoch this block records (mp_gen when collecting);
                              * bit 0 set: inside an intercepted call, whose nested MPI calls
                              * are not counted. One comparison with mp_gen decides a call. */
    int fl;                  /* MP_FL_ bits */
    uint64_t cur_sent, cur_recv;
    uintptr_t pcs[MP_MAXDEPTH];
    mp_site *last_site;      /* the call site of the previous call (loops call from one place);
                              * &mp_nosite when there is none */
    /* datatype sizes: the last one, and 16 direct-mapped entries; valid while tc_gen ==
     * mp_type_gen (MPI_Type_free changes it) */
    uint64_t tl_key, tl_size, tc_gen;
    uint64_t tc_key[16];
    uint64_t tc_size[16];
    /* point-to-point matrix row: (bytes, messages) per world rank, then outside the world;
     * row_n: the world size once the row exists, else 0 */
    uint64_t *row;
    int row_n;
    int defer;               /* recording a persistent request's transfer into .dfr */
    mp_deferred dfr;
    int tid;
    mp_site *sites;
    uint64_t sites_lost;
    mp_event *ev;
    uint64_t nev, ev_lost;
    struct mp_thread *next;
    uint64_t hist[MP_NCAT][MP_NBUCKET];
    uint64_t hbytes[MP_NCAT];
    mp_stat f[MP_NFUNC];
} mp_thread;

extern __thread mp_thread *mp_tls __attribute__((tls_model("initial-exec"))) MP_HIDDEN;
extern mp_thread *mp_threads;       /* every thread's block, newest first */
extern mp_site mp_nosite MP_HIDDEN;

mp_thread *mp_thread_new(void);
mp_thread *mp_enter_slow(mp_thread *t);
void mp_backtrace(mp_thread *t);
void mp_backtrace_from(mp_thread *t, uintptr_t ra);
void mp_trace_add(mp_thread *t, int fid, uint64_t t0, uint64_t dt);
mp_stat *mp_leave_extra(mp_thread *t, int fid, uint64_t t0, uint64_t dt);
void mp_stat_add(mp_stat *d, const mp_stat *s);

/* Does the block record the current epoch (not left over from before MPI_Pcontrol(2))? */
static inline int mp_thread_current(const mp_thread *t)
{
    return (t->gen & ~(uint64_t)1) == (__atomic_load_n(&mp_gen, __ATOMIC_ACQUIRE) & ~(uint64_t)1);
}

/* The calling thread's block if this call is to be recorded (and marks it inside), else NULL:
 * not collecting, or nested inside another intercepted call (a Fortran wrapper, or an MPI
 * library whose functions call its own MPI_ entry points). */
MP_INLINE mp_thread *mp_enter(void)
{
    mp_thread *t = mp_tls;
    uint64_t g = __atomic_load_n(&mp_gen, __ATOMIC_RELAXED);
    if (MP_LIKELY(t != NULL && t->gen == g)) {
        t->gen = g | 1;
        t->cur_sent = t->cur_recv = 0;
        return t;
    }
    if (t != NULL && ((g | t->gen) & 1))
        return NULL;        /* stopped or nested: decided here, so the wrapper can tail-call */
    return mp_enter_slow(t);
}

/* End of a recorded call. With call sites on, a call is recorded in its site's statistics only
 * (a function's figures are the sum of its sites', added up in the report), so sites cost
 * little more than the site lookup: inline when the call comes from the previous call's site. */
MP_INLINE void mp_leave(mp_thread *t, int fid, uint64_t t0, uint64_t t1)
{
    uint64_t dt = t1 - t0;
    mp_stat *s = &t->f[fid];
    if (MP_UNLIKELY(t->fl & (MP_FL_SITE1 | MP_FL_SITES | MP_FL_TRACE))) {
        const mp_site *ls = t->last_site;
        if (!(t->fl & (MP_FL_SITES | MP_FL_TRACE)) && ls->fid == (uint32_t)fid && ls->pc[0] == t->pcs[0])
            s = &t->last_site->st;
        else
            s = mp_leave_extra(t, fid, t0, dt);
    }
    s->calls++;
    s->ticks += dt;
    if (dt < s->tmin)
        s->tmin = dt;
    if (dt > s->tmax)
        s->tmax = dt;
    s->sent += t->cur_sent;
    s->recv += t->cur_recv;
    t->gen &= ~(uint64_t)1;
}

#endif
