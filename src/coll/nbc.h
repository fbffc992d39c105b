/* The schedules of the nonblocking collectives (nbc.c) not yet shared with their blocking forms,
 * which the persistent collectives (persist.c) build anew at every start. They run with the lock
 * held. */
#ifndef MICA_NBC_H
#define MICA_NBC_H

#include "coll/sched.h"

/* The v forms give counts and displs, the others count (and NULL arrays). */
void mica_nbc_gather(mica_sched_t *s, const void *sbuf, MPI_Count scount, mica_type_t *stype,
                     void *rbuf, MPI_Count rcount, const MPI_Count *rcounts,
                     const MPI_Aint *displs, mica_type_t *rtype, int root, mica_comm_t *comm);
void mica_nbc_scatter(mica_sched_t *s, const void *sbuf, MPI_Count scount,
                      const MPI_Count *scounts, const MPI_Aint *displs, mica_type_t *stype,
                      void *rbuf, MPI_Count rcount, mica_type_t *rtype, int root,
                      mica_comm_t *comm);
void mica_nbc_allgather(mica_sched_t *s, const void *sbuf, MPI_Count scount,
                        mica_type_t *stype, void *rbuf, MPI_Count rcount,
                        const MPI_Count *rcounts, const MPI_Aint *displs, mica_type_t *rtype,
                        mica_comm_t *comm);

/* The three all-to-alls: block i of a buffer is counts[i] (or count) elements of types[i] (or
 * type) at byte displacement displs[i] (bytes) or element displacement displs[i] (or i * count). */
typedef struct {
    const void *buf;
    MPI_Count count;
    const MPI_Count *counts;
    const MPI_Aint *displs;
    mica_type_t *type;
    mica_type_t *const *types;
    int bytes;
} mica_nbc_side_t;
void mica_nbc_alltoall(mica_sched_t *s, const mica_nbc_side_t *snd, const mica_nbc_side_t *rcv,
                       mica_comm_t *comm);

void mica_nbc_reduce_scatter(mica_sched_t *s, const void *sbuf, void *rbuf,
                             const MPI_Count *rcounts, mica_type_t *type, mica_op_t *op,
                             mica_comm_t *comm);
void mica_nbc_scan(mica_sched_t *s, const void *sbuf, void *rbuf, MPI_Count count,
                   mica_type_t *type, mica_op_t *op, int exclusive, mica_comm_t *comm);

#endif
