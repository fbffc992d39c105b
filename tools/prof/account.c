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

/* A process's own block moves unless it is the root of an intercommunicator, or the root with
 * MPI_IN_PLACE (whose own type is then not to be looked at), or MPI_PROC_NULL. */
static int own_moves(const mp_cinfo *ci, int r, const void *buf)
{
    return r == 0 || (r == 1 && !ci->inter && buf != MPI_IN_PLACE);
}

/* All of one side: one block (OWN), one block per peer (EACH), counts per peer (V), counts
 * and datatypes per peer (W), over n peers. */
static uint64_t side_all(mp_thread *t, unsigned rule, int shape, const mp_side *x, int n)
{
    int w = !!(rule & MP_COLL_WIDE), ft = !!(rule & MP_COLL_FTYPES);
    switch (shape) {
    case MP_SHAPE_OWN:
        return mp_bytes(t, x->count, x->type);
    case MP_SHAPE_EACH:
        return (uint64_t)n * mp_bytes(t, x->count, x->type);
    case MP_SHAPE_V: {
        uint64_t c = csum(x->counts, w, n);
        return c ? c * mp_tsize(t, x->type) : 0;
    }
    case MP_SHAPE_W:
        return wsum(t, x->counts, x->types, w, ft, n);
    default:
        return 0;
    }
}

/* The block of peer i of one side (of n peers). */
static uint64_t side_part(mp_thread *t, unsigned rule, int shape, const mp_side *x, int i, int n)
{
    int w = !!(rule & MP_COLL_WIDE);
    if (shape == MP_SHAPE_OWN || shape == MP_SHAPE_EACH)
        return mp_bytes(t, x->count, x->type);
    if (shape == MP_SHAPE_V && x->counts && i < n)
        return cat_(x->counts, w, i) * mp_tsize(t, x->type);
    return 0;
}

void mp_b_coll(mp_thread *t, unsigned rule, const mp_side *s, const mp_side *r, int root,
               MPI_Comm comm)
{
    int ss = rule & 7, rs = (rule >> 3) & 7;
    if (!(rule & MP_COLL_ROOT) && ss <= MP_SHAPE_OWN && rs <= MP_SHAPE_OWN) {
        /* no peers to count, no root: no need to know the communicator (MPI_Allreduce) */
        note(t, MP_CAT_COLL, ss ? side_all(t, rule, ss, s, 1) : 0, rs ? side_all(t, rule, rs, r, 1) : 0);
        return;
    }
    const mp_cinfo *ci = mp_comm_get(comm);
    if (ci == NULL)
        return;
    /* peers: the neighbours out (sending) and in (receiving) of a topology; the local group
     * of a reduction; else the remote group (the group of an intracommunicator) */
    int sn = rule & MP_COLL_NBR ? ci->outdeg : rule & MP_COLL_OP ? ci->size : ci->np;
    int rn = rule & MP_COLL_NBR ? ci->indeg : rule & MP_COLL_OP ? ci->size : ci->np;
    if (rule & MP_COLL_ROOT) {
        int ro = role(ci, root);
        if (rule & MP_COLL_ONE) {           /* MPI_Bcast: the root's buffer goes to the others */
            uint64_t b = ro < 0 ? 0 : side_all(t, rule, ss, s, sn);
            note(t, MP_CAT_COLL, ro == 1 ? b : 0, ro == 0 ? b : 0);
        } else if (rule & MP_COLL_OP) {     /* MPI_Reduce: all contribute, the root receives */
            uint64_t b = ro < 0 ? 0 : side_all(t, rule, ss, s, sn);
            if (ci->inter)
                note(t, MP_CAT_COLL, ro == 0 ? b : 0, ro == 1 ? b : 0);
            else
                note(t, MP_CAT_COLL, b, ro == 1 ? b : 0);
        } else {
            /* gather, scatter: the side of one block per peer moves at the root only; the
             * other side is the process's own block */
            int gathers = rs > MP_SHAPE_OWN;
            const mp_side *own = gathers ? s : r;
            uint64_t all = ro != 1 ? 0 : gathers ? side_all(t, rule, rs, r, rn) : side_all(t, rule, ss, s, sn);
            uint64_t mine = own_moves(ci, ro, own->buf) ? side_all(t, rule, gathers ? ss : rs, own, 1) : 0;
            note(t, MP_CAT_COLL, gathers ? mine : all, gathers ? all : mine);
        }
        return;
    }
    if (rule & MP_COLL_OP) {                /* reduce-scatter: all of it in, one's part out */
        note(t, MP_CAT_COLL, side_all(t, rule, ss, s, sn), side_part(t, rule, rs, r, ci->rank, rn));
        return;
    }
    /* all to all, all gather, neighbours: with MPI_IN_PLACE, what is sent is the receive
     * buffer's: this process's block of it (one block sent), or all of it (one per peer) */
    uint64_t recv = side_all(t, rule, rs, r, rn);
    uint64_t sent = s->buf != MPI_IN_PLACE ? side_all(t, rule, ss, s, sn)
                    : ss == MP_SHAPE_OWN ? side_part(t, rule, rs, r, ci->rank, rn) : recv;
    note(t, MP_CAT_COLL, sent, recv);
}

void mp_b_rma(mp_thread *t, int target, uint64_t sent, uint64_t recv)
{
    if (target == MPI_PROC_NULL)
        sent = recv = 0;
    note(t, MP_CAT_RMA, sent, recv);
}

void mp_b_note(mp_thread *t, int cat, uint64_t sent, uint64_t recv)
{
    note(t, cat, sent, recv);
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

