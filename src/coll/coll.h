/* Collectives: the helpers the algorithms share (the algorithms themselves: algorithms.h).
 *
 * Every message of a collective travels on the communicator's collective context, with one
 * internal tag per collective: blocking collectives are called in the same order by every
 * member, and messages between two processes do not overtake each other, so nothing more is
 * needed to keep consecutive collectives apart. Nothing here calls an MPI_ function. */
#ifndef MICA_COLL_H
#define MICA_COLL_H

#include "core/comm.h"
#include "core/datatype.h"
#include "core/op.h"
#include "core/tunables.h"
#include "pt2pt/pt2pt.h"

enum mica_coll_tag {
    MICA_TAG_BARRIER = 1, MICA_TAG_BCAST, MICA_TAG_REDUCE, MICA_TAG_ALLREDUCE, MICA_TAG_GATHER,
    MICA_TAG_SCATTER, MICA_TAG_ALLGATHER, MICA_TAG_ALLTOALL, MICA_TAG_REDUCE_SCATTER,
    MICA_TAG_SCAN, MICA_TAG_EXSCAN,
    /* Neighborhood collectives (src/topo): graphs, and Cartesian messages to the -1 neighbor;
     * Cartesian messages to the +1 neighbor, received in the peer's -1 block (MPI 4.1 8.6). */
    MICA_TAG_NEIGHBOR, MICA_TAG_NEIGHBOR_UP
};

/* Hang the collectives' request operations on the core's seams (request.c; at MPI's start). */
void mica_coll_register(void);

/* MPI_Comm_create_group's messages travel on the parent's collective context with negative
 * tags below MPI_ANY_TAG (-2), one per user tag modulo 2^30, apart from every collective's
 * (blocking ones use the small positive tags above, nonblocking ones those of coll/sched.h). */
static inline int mica_coll_group_tag(int tag)
{
    return MPI_ANY_TAG - 1 - (tag & 0x3fffffff);
}

/* --- helpers -------------------------------------------------------------------------------- */

/* Blocking point-to-point on the collective context (lock held). */
int mica_coll_send(const void *buf, MPI_Count count, mica_type_t *type, int dest, int tag,
                   mica_comm_t *comm);
int mica_coll_recv(void *buf, MPI_Count count, mica_type_t *type, int source, int tag,
                   mica_comm_t *comm);
int mica_coll_sendrecv(const void *sbuf, MPI_Count scount, mica_type_t *stype, int dest,
                       void *rbuf, MPI_Count rcount, mica_type_t *rtype, int source, int tag,
                       mica_comm_t *comm);

/* Nonblocking point-to-point on the collective context (lock held). */
int mica_coll_isend(const void *buf, MPI_Count count, mica_type_t *type, int dest, int tag,
                    mica_comm_t *comm, mica_request_t **req);
int mica_coll_irecv(void *buf, MPI_Count count, mica_type_t *type, int source, int tag,
                    mica_comm_t *comm, mica_request_t **req);
/* The error of a completed collective receive: its own, or, for a message shorter than the
 * receiver expects, one saying that the processes' counts or datatypes differ (erroneous; a
 * longer one is truncated). After such an error an algorithm goes on sending: the others wait. */
int mica_coll_recv_error(const mica_request_t *r);

/* Address of element `i` of a buffer of `type` elements. */
static inline void *mica_coll_at(const void *buf, MPI_Count i, const mica_type_t *type)
{
    return (char *)buf + (MPI_Aint)i * type->extent;
}

/* Block i of a rooted or all-to-all buffer of one datatype: counts[i] elements at element
 * displs[i], or (counts NULL) `count` elements at i * count; its count in *n. */
static inline void *mica_coll_block(const void *buf, MPI_Count count, const MPI_Count *counts,
                                    const MPI_Aint *displs, const mica_type_t *type, int i,
                                    MPI_Count *n)
{
    *n = counts ? counts[i] : count;
    return mica_coll_at(buf, counts ? displs[i] : (MPI_Count)i * count, type);
}

/* A temporary buffer for `count` elements of `type`, laid out as a user buffer would be: the
 * result is what to pass with (count, type); *mem is what to free. NULL when out of memory. */
void *mica_coll_tmp(MPI_Count count, const mica_type_t *type, void **mem);
/* An error code for a failed temporary allocation. */
int mica_coll_no_mem(MPI_Count count, const mica_type_t *type);

/* --- argument checks and widening (args.c) -------------------------------------------------- */

/* Argument checks shared by the entry points: MPI_SUCCESS or an error code naming `what`. */
int mica_coll_check_type(const mica_type_t *type, const char *what);
int mica_coll_check_op(const mica_op_t *op, const mica_type_t *type);
int mica_coll_check_counts(int n, const MPI_Count *counts, const char *what);
/* Gather (gather = 1) and scatter (0): the significant buffers and datatypes. */
int mica_coll_check_rooted(const void *sendbuf, mica_type_t *sendtype, const void *recvbuf,
                           mica_type_t *recvtype, int root, mica_comm_t *comm, int gather);
/* Allgather, alltoall: sendbuf may be MPI_IN_PLACE, recvbuf not. */
int mica_coll_check_all(const void *sendbuf, mica_type_t *sendtype, const void *recvbuf,
                        mica_type_t *recvtype);
/* `aliased`: sendbuf == recvbuf matters here (the root of a reduce, everyone otherwise). */
int mica_coll_check_reduction(const void *sendbuf, const void *recvbuf, MPI_Count count,
                              mica_type_t *type, mica_op_t *op, int aliased);
/* n counts (none negative) and displacements (not NULL). */
int mica_coll_check_v(const MPI_Count *counts, const void *displs, int n, const char *cname,
                      const char *dname);
/* A NULL buffer (MPI_BOTTOM) with a positive count placed at address 0 (an element of a type
 * whose data starts at its offset 0, at displacement 0) would be read or written there:
 * MPI_ERR_BUFFER, as the bindings check scalar counts. n counts, displacements in elements of
 * `type` (NULL: all 0), or with `types` per process (alltoallw) in bytes. */
int mica_coll_check_vbuf(const void *buf, int n, const MPI_Count *counts, const MPI_Aint *displs,
                         const mica_type_t *type, mica_type_t *const *types, const char *what);

/* The datatypes of MPI_Alltoallw's `what` (sendtypes, recvtypes) as objects in out[n]: each must
 * be committed, except where its count is zero (then any handle goes, and MPI_BYTE stands in). */
int mica_coll_lookup_types(int n, const MPI_Datatype *in, const MPI_Count *counts,
                           const char *what, mica_type_t **out);

/* The int arrays of the MPI_X forms, widened for the MPI_X_c core (malloc'd; *out is NULL if
 * `in` is NULL). Returns MPI_SUCCESS or MPI_ERR_NO_MEM. */
int mica_coll_widen_counts(int n, const int *in, MPI_Count **out);
int mica_coll_widen_displs(int n, const int *in, MPI_Aint **out);

/* The largest power of two not above n (n >= 1). */
static inline int mica_coll_pof2(int n)
{
    int p = 1;
    while (p * 2 <= n)
        p *= 2;
    return p;
}

#endif
