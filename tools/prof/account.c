/* mica-prof: byte accounting (account.h): datatype sizes, the matrix and the histograms, what
 * each byte-moving call moves, persistent requests. Only PMPI_ functions are called. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "account.h"
#include "comms.h"
#include "map.h"

#include <stdlib.h>

static mp_map req_map;

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
    void *old = mp_map_put(&req_map, mp_hkey(&req, sizeof req), d, 1u << 16);
    free(old);                      /* (old == d: the map is full; its starts move no bytes) */
}

void mp_req_forget(MPI_Request req)
{
    if (req != MPI_REQUEST_NULL)
        free(mp_map_take(&req_map, mp_hkey(&req, sizeof req)));
}

void mp_b_start(mp_thread *t, MPI_Request req)
{
    const mp_deferred *d = mp_map_get(&req_map, mp_hkey(&req, sizeof req));
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

