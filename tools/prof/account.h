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

/* Collectives, one-sided and I/O. w: counts arrays are MPI_Count (1) or int (0); ft: datatype
 * arrays are Fortran integers (1). */
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

/* Persistent and partitioned requests */
void mp_defer_begin(mp_thread *t);
void mp_defer_end(mp_thread *t, int ok, MPI_Request req);
void mp_b_start(mp_thread *t, MPI_Request req);
void mp_b_startall(mp_thread *t, int n, const void *reqs, int fortran);

/* Hooks of MPI_Type_free and MPI_Request_free */
void mp_type_freed(void);
void mp_req_forget(MPI_Request req);

#endif
