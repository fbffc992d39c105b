/* mica-prof: byte accounting. What a call moves, from its arguments (MPI_IN_PLACE,
 * MPI_PROC_NULL, roots and intercommunicators follow the standard's rules of which arguments
 * are significant): the bytes sent and received of the call, its entry in the message-size
 * histogram of its category, and for point-to-point the row of the matrix. Persistent and
 * partitioned requests record what they move when they are made, and each start replays it. */
#ifndef MICA_PROF_ACCOUNT_H
#define MICA_PROF_ACCOUNT_H

#include <mpi.h>
#include <stdint.h>
#include <string.h>
#include "map.h"
#include "thread.h"

uint64_t mp_tsize_slow(mp_thread *t, MPI_Datatype dt, uint64_t key);

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

void mp_matrix_add(mp_thread *t, MPI_Comm comm, int peer, uint64_t bytes);
void mp_hist_add(mp_thread *t, int cat, uint64_t bytes);

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

/* mp_b_send for MPI_Send_init and friends: what each MPI_Start will move. */
void mp_b_send_defer(mp_thread *t, MPI_Count count, MPI_Datatype type, int dest, MPI_Comm comm);
void mp_b_recv(mp_thread *t, MPI_Count count, MPI_Datatype type, int src);

/* Collectives. The generator reads each one's rule from its parameters' kinds in the API table:
 * the shape of its send and receive sides, whether it has a root, is a reduction, a
 * neighborhood collective, has one buffer for both directions (MPI_Bcast); the count arrays'
 * width (MPI_Count for the _c forms) and the datatype arrays' language. */
enum { MP_SHAPE_NONE, MP_SHAPE_OWN, MP_SHAPE_EACH, MP_SHAPE_V, MP_SHAPE_W };
#define MP_COLL_SEND(shape) (unsigned)(shape)
#define MP_COLL_RECV(shape) ((unsigned)(shape) << 3)
enum {
    MP_COLL_ROOT = 1 << 6,          /* rooted (gather, scatter, bcast, reduce) */
    MP_COLL_OP = 1 << 7,            /* a reduction: the sides share their count */
    MP_COLL_NBR = 1 << 8,           /* peers are the topology's neighbours */
    MP_COLL_ONE = 1 << 9,           /* one buffer: the root's goes to the others */
    MP_COLL_WIDE = 1 << 10,         /* arrays of counts are MPI_Count (else int) */
    MP_COLL_FTYPES = 1 << 11        /* arrays of datatypes are Fortran integers */
};

/* One side of a collective, as the call passes it: the buffer, a count or an array of counts
 * (one per peer), a datatype or an array of datatypes. */
typedef struct {
    const void *buf;
    MPI_Count count;
    const void *counts;
    MPI_Datatype type;
    const void *types;
} mp_side;

void mp_b_coll(mp_thread *t, unsigned rule, const mp_side *s, const mp_side *r, int root,
               MPI_Comm comm);
/* One-sided: bytes put (sent) and got (received) by one call, none to MPI_PROC_NULL. */
void mp_b_rma(mp_thread *t, int target, uint64_t sent, uint64_t recv);
/* What one call of category cat moves (I/O). */
void mp_b_note(mp_thread *t, int cat, uint64_t sent, uint64_t recv);

/* Persistent and partitioned requests */
void mp_defer_begin(mp_thread *t);
void mp_defer_end(mp_thread *t, int ok, MPI_Request req);
void mp_b_start(mp_thread *t, MPI_Request req);
void mp_b_startall(mp_thread *t, int n, const void *reqs, int fortran);

/* Hooks of MPI_Type_free and MPI_Request_free */
void mp_type_freed(void);
void mp_req_forget(MPI_Request req);

#endif
