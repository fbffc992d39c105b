/* mica-prof: the measurement core shared by the generated wrappers (mp_wrappers*.c,
 * mp_fwrappers.c) and the tool's own C files. Everything here is written once; the generator
 * only emits, per MPI function, a wrapper that calls these hooks and the function's PMPI_ twin.
 *
 * The hot path (mp_enter / mp_now / mp_leave and the point-to-point byte helper) touches only
 * the calling thread's own block: no locks, no allocation, a flat array indexed by the
 * generated function id. Per-thread blocks are merged when the report is written. */
#ifndef MICA_PROF_H
#define MICA_PROF_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif
#include "mp_gen.h"

#define MP_API __attribute__((visibility("default")))
#define MP_LIKELY(x) __builtin_expect(!!(x), 1)
#define MP_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define MP_INLINE static inline __attribute__((always_inline))

/* Categories of byte-moving functions, for the message-size histograms. */
enum { MP_CAT_NONE, MP_CAT_P2P, MP_CAT_COLL, MP_CAT_RMA, MP_CAT_IO, MP_NCAT };
#define MP_NBUCKET 65        /* 0 bytes, then [2^(k-1), 2^k) for k = 1..64 */
#define MP_BUCKET(b) (63 - __builtin_clzll(((uint64_t)(b) << 1) | 1))   /* b < 2^63 */
#define MP_MAXDEPTH 16

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

/* Global state (prof.c). gen: bit 0 set = not collecting; the rest is the reset epoch. */
typedef struct {
    uint64_t gen, type_gen;
    int use_tsc, sites_on, depth, trace_on;
} mp_hot_t;
#define MP_HIDDEN __attribute__((visibility("hidden")))
extern mp_hot_t mp_hot MP_HIDDEN;
#define mp_gen (mp_hot.gen)
#define mp_type_gen (mp_hot.type_gen)
#define mp_use_tsc (mp_hot.use_tsc)
#define mp_sites_on (mp_hot.sites_on)
#define mp_depth (mp_hot.depth)
#define mp_trace_on (mp_hot.trace_on)
extern int mp_world_size MP_HIDDEN, mp_world_rank MP_HIDDEN;
extern __thread mp_thread *mp_tls __attribute__((tls_model("initial-exec"))) MP_HIDDEN;
extern const char *const mp_fname[MP_NFUNC];
extern mp_site mp_nosite MP_HIDDEN;
extern const unsigned char mp_fcat[MP_NFUNC];

mp_thread *mp_thread_new(void);
mp_thread *mp_enter_slow(mp_thread *t);
void mp_backtrace(mp_thread *t);
void mp_backtrace_from(mp_thread *t, uintptr_t ra);
/* Out-of-line forms for the Fortran wrappers (the stub that took ra is exported per name). */
mp_thread *mp_fbegin(void *ra, uint64_t *t0);
void mp_fend(mp_thread *t, int fid, uint64_t t0, uint64_t t1);
void mp_trace_add(mp_thread *t, int fid, uint64_t t0, uint64_t dt);
mp_stat *mp_leave_extra(mp_thread *t, int fid, uint64_t t0, uint64_t dt);
uint64_t mp_tsize_slow(mp_thread *t, MPI_Datatype dt, uint64_t key);
void mp_b_send_defer(mp_thread *t, MPI_Count count, MPI_Datatype type, int dest, MPI_Comm comm);
void mp_matrix_add(mp_thread *t, MPI_Comm comm, int peer, uint64_t bytes);
void mp_hist_add(mp_thread *t, int cat, uint64_t bytes);

/* Hooks that run on every call of a few functions, collecting or not. */
void mp_after_init(void);
void mp_after_session_init(void);
void mp_before_finalize(void);
void mp_on_abort(void);
void mp_pcontrol(int level);
int mp_mpi_active(void);    /* between MPI_Init and MPI_Finalize */
void mp_type_freed(void);
void mp_comm_created(MPI_Comm comm);
void mp_comm_forget(MPI_Comm comm);
void mp_req_forget(MPI_Request req);

/* Byte helpers: what the call moves, from its arguments (MPI_IN_PLACE, MPI_PROC_NULL, roots and
 * intercommunicators follow the standard's rules of which arguments are significant).
 * w: counts arrays are MPI_Count (1) or int (0); ft: datatype arrays are Fortran integers (1). */
void mp_b_recv(mp_thread *t, MPI_Count count, MPI_Datatype type, int src);
void mp_b_bcast(mp_thread *t, MPI_Count count, MPI_Datatype type, int root, MPI_Comm comm);
void mp_b_gather(mp_thread *t, const void *sbuf, MPI_Count sc, MPI_Datatype st, MPI_Count rc,
                 MPI_Datatype rt, int root, MPI_Comm comm);
void mp_b_gatherv(mp_thread *t, const void *sbuf, MPI_Count sc, MPI_Datatype st, const void *rcs,
                  int w, MPI_Datatype rt, int root, MPI_Comm comm);
void mp_b_scatter(mp_thread *t, MPI_Count sc, MPI_Datatype st, const void *rbuf, MPI_Count rc,
                  MPI_Datatype rt, int root, MPI_Comm comm);
void mp_b_scatterv(mp_thread *t, const void *scs, int w, MPI_Datatype st, const void *rbuf,
                   MPI_Count rc, MPI_Datatype rt, int root, MPI_Comm comm);
void mp_b_allgather(mp_thread *t, const void *sbuf, MPI_Count sc, MPI_Datatype st, MPI_Count rc,
                    MPI_Datatype rt, MPI_Comm comm);
void mp_b_allgatherv(mp_thread *t, const void *sbuf, MPI_Count sc, MPI_Datatype st,
                     const void *rcs, int w, MPI_Datatype rt, MPI_Comm comm);
void mp_b_alltoall(mp_thread *t, const void *sbuf, MPI_Count sc, MPI_Datatype st, MPI_Count rc,
                   MPI_Datatype rt, MPI_Comm comm);
void mp_b_alltoallv(mp_thread *t, const void *sbuf, const void *scs, MPI_Datatype st,
                    const void *rcs, MPI_Datatype rt, int w, MPI_Comm comm);
void mp_b_alltoallw(mp_thread *t, const void *sbuf, const void *scs, const void *sts,
                    const void *rcs, const void *rts, int w, int ft, MPI_Comm comm);
void mp_b_reduce(mp_thread *t, MPI_Count count, MPI_Datatype type, int root, MPI_Comm comm);
void mp_b_allreduce(mp_thread *t, MPI_Count count, MPI_Datatype type, MPI_Comm comm);
void mp_b_reduce_scatter(mp_thread *t, const void *rcs, int w, MPI_Datatype type, MPI_Comm comm);
void mp_b_reduce_scatter_block(mp_thread *t, MPI_Count rc, MPI_Datatype type, MPI_Comm comm);
void mp_b_barrier(mp_thread *t);
void mp_b_nbr(mp_thread *t, MPI_Count sc, MPI_Datatype st, MPI_Count rc, MPI_Datatype rt,
              MPI_Comm comm);
void mp_b_nbr_allgatherv(mp_thread *t, MPI_Count sc, MPI_Datatype st, const void *rcs, int w,
                         MPI_Datatype rt, MPI_Comm comm);
void mp_b_nbr_alltoallv(mp_thread *t, const void *scs, MPI_Datatype st, const void *rcs,
                        MPI_Datatype rt, int w, MPI_Comm comm);
void mp_b_nbr_alltoallw(mp_thread *t, const void *scs, const void *sts, const void *rcs,
                        const void *rts, int w, int ft, MPI_Comm comm);
void mp_b_rma(mp_thread *t, MPI_Count sc, MPI_Datatype st, MPI_Count rc, MPI_Datatype rt,
              int target);
void mp_b_io(mp_thread *t, MPI_Count count, MPI_Datatype type, int write);
void mp_defer_begin(mp_thread *t);
void mp_defer_end(mp_thread *t, int ok, MPI_Request req);
void mp_b_start(mp_thread *t, MPI_Request req);
void mp_b_startall(mp_thread *t, int n, const void *reqs, int fortran);
const void *mp_fbuf(const void *p);

/* The clock: the TSC where it is invariant (one instruction), else CLOCK_MONOTONIC in ns. */
MP_INLINE uint64_t mp_clock(int tsc)
{
#if defined(__x86_64__) || defined(__i386__)
    if (MP_LIKELY(tsc))
        return __rdtsc();
#endif
    (void)tsc;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

MP_INLINE uint64_t mp_now(void)
{
    return mp_clock(mp_use_tsc);
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

/* Start of a recorded call: the call site (return address of the wrapper); the wrapper then
 * notes what the call moves (its arguments are all inputs) and reads the clock, MP_T0(). */
#define MP_BEGIN_NOCLOCK()                                                      \
    mp_thread *t_ = mp_enter();                                                 \
    uint64_t t0_ = 0;                                                           \
    if (t_ && (t_->fl & (MP_FL_SITE1 | MP_FL_SITES))) {                         \
        if (t_->fl & MP_FL_SITE1)                                               \
            t_->pcs[0] = (uintptr_t)__builtin_return_address(0);               \
        else                                                                    \
            mp_backtrace(t_);                                                   \
    }
#define MP_T0() (t0_ = mp_clock(t_->fl & MP_FL_TSC))
#define MP_BEGIN()                                                              \
    MP_BEGIN_NOCLOCK();                                                         \
    if (t_)                                                                     \
        MP_T0();

/* The same where the caller's return address was taken by a small exported stub (Fortran). */
#define MP_BEGIN_AT(ra)                                                         \
    mp_thread *t_ = mp_enter();                                                 \
    uint64_t t0_ = 0;                                                           \
    if (t_) {                                                                   \
        if (t_->fl & MP_FL_SITE1)                                               \
            t_->pcs[0] = (uintptr_t)(ra);                                       \
        else if (t_->fl & MP_FL_SITES)                                          \
            mp_backtrace_from(t_, (uintptr_t)(ra));                             \
        t0_ = mp_clock(t_->fl & MP_FL_TSC);                                     \
    }

/* The clock at the end of a recorded call. */
#define MP_END_TIME() mp_clock(t_->fl & MP_FL_TSC)

MP_INLINE uint64_t mp_hkey(const void *h, size_t n)
{
    uint64_t k = 0;
    memcpy(&k, h, n < sizeof k ? n : sizeof k);
    return k;
}

/* Size in bytes of a datatype, cached per thread (MPI_Type_free invalidates every cache). */
MP_INLINE uint64_t mp_tsize(mp_thread *t, MPI_Datatype dt)
{
    uint64_t k = mp_hkey(&dt, sizeof dt);
    if (MP_LIKELY(k == t->tl_key && t->tc_gen == __atomic_load_n(&mp_type_gen, __ATOMIC_RELAXED)))
        return t->tl_size;
    return mp_tsize_slow(t, dt, k);
}

MP_INLINE uint64_t mp_bytes(mp_thread *t, MPI_Count count, MPI_Datatype dt)
{
    return count > 0 ? (uint64_t)count * mp_tsize(t, dt) : 0;
}

/* A point-to-point send: the fast path of MPI_Send and friends. */
MP_INLINE void mp_b_send(mp_thread *t, MPI_Count count, MPI_Datatype type, int dest, MPI_Comm comm)
{
    if (MP_UNLIKELY(dest == MPI_PROC_NULL))
        return;
    uint64_t b = mp_bytes(t, count, type);
    t->cur_sent += b;
    t->hist[MP_CAT_P2P][MP_BUCKET(b)]++;
    t->hbytes[MP_CAT_P2P] += b;
    if (MP_LIKELY(comm == MPI_COMM_WORLD && (unsigned)dest < (unsigned)t->row_n)) {
        uint64_t *p = t->row + 2 * (unsigned)dest;
        p[0] += b;
        p[1]++;
        return;
    }
    mp_matrix_add(t, comm, dest, b);
}

#endif
