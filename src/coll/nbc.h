/* The schedules of the nonblocking collectives (nbc.c) and their argument checks, shared with
 * the persistent collectives (persist.c), which build the same schedule at every start (the
 * checks and the widening of int arrays also serve blocking forms). The schedules run with the
 * lock held; the checks return MPI_SUCCESS or an error code naming the argument. */
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

/* Gather (gather = 1) and scatter (0): the significant buffers and datatypes. */
int mica_nbc_check_rooted(const void *sendbuf, mica_type_t *sendtype, const void *recvbuf,
                          mica_type_t *recvtype, int root, mica_comm_t *comm, int gather);
/* Allgather, alltoall: sendbuf may be MPI_IN_PLACE, recvbuf not. */
int mica_nbc_check_all(const void *sendbuf, mica_type_t *sendtype, const void *recvbuf,
                       mica_type_t *recvtype);
/* `aliased`: sendbuf == recvbuf matters here (the root of a reduce, everyone otherwise). */
int mica_nbc_check_reduction(const void *sendbuf, const void *recvbuf, MPI_Count count,
                             mica_type_t *type, mica_op_t *op, int aliased);
/* n counts (none negative) and displacements (not NULL). */
int mica_nbc_check_v(const MPI_Count *counts, const void *displs, int n, const char *cname,
                     const char *dname);
int mica_nbc_check_alltoallv(const void *sendbuf, const MPI_Count *sendcounts,
                             const MPI_Aint *sdispls, const MPI_Count *recvcounts,
                             const MPI_Aint *rdispls, int n);
/* Alltoallw's checks (n blocks a side), then its datatypes looked up into *types (malloc'd:
 * the n send types, unset at MPI_IN_PLACE, then the n receive types; NULL on error). */
int mica_nbc_check_alltoallw(const void *sendbuf, const MPI_Count *sendcounts,
                             const MPI_Aint *sdispls, const MPI_Datatype *sendtypes,
                             const void *recvbuf, const MPI_Count *recvcounts,
                             const MPI_Aint *rdispls, const MPI_Datatype *recvtypes, int n,
                             mica_type_t ***types);

/* The int count and displacement arrays of an MPI_X form widened for its MPI_X_c form: nsend
 * of each send array, nrecv of each receive array (a NULL array stays NULL). Free them with
 * mica_nbc_wide_free, also after an error. */
typedef struct {
    MPI_Count *sc, *rc;
    MPI_Aint *sd, *rd;
} mica_nbc_wide_t;
int mica_nbc_widen(int nsend, const int *sc, const int *sd, int nrecv, const int *rc,
                   const int *rd, mica_nbc_wide_t *w);
/* Alltoallv's and alltoallw's: n a side, the send side's left NULL at MPI_IN_PLACE. */
int mica_nbc_widen_alltoall(int n, const void *sendbuf, const int *sc, const int *sd,
                            const int *rc, const int *rd, mica_nbc_wide_t *w);
void mica_nbc_wide_free(mica_nbc_wide_t *w);
/* The counts of a _block form: n times count in *out (malloc'd; NULL on error). */
int mica_nbc_block_counts(int n, MPI_Count count, MPI_Count **out);

#endif
