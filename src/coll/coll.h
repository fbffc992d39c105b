/* Collectives: the blocking collectives callable inside the library, and the helpers they share.
 *
 * Two internal APIs: mica_X_c and mica_X (core_api.h) are the core entry points the MPI
 * bindings call: they check the arguments, switch to the intercommunicator forms and take the
 * big lock. mica_coll_X_locked (below) are for the library itself: the caller holds the big lock
 * and the arguments are trusted.
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

/* Algorithm switch points: mica_tunables (src/core/tunables.tsv), MICA_<NAME> overrides each. */

/* --- the blocking collectives, with the lock held ------------------------------------------- */

int mica_coll_gather_locked(const void *sbuf, MPI_Count scount, mica_type_t *stype, void *rbuf,
                            MPI_Count rcount, mica_type_t *rtype, int root, mica_comm_t *comm);
int mica_coll_gatherv_locked(const void *sbuf, MPI_Count scount, mica_type_t *stype, void *rbuf,
                             const MPI_Count *rcounts, const MPI_Aint *displs, mica_type_t *rtype,
                             int root, mica_comm_t *comm);
int mica_coll_scatter_locked(const void *sbuf, MPI_Count scount, mica_type_t *stype, void *rbuf,
                             MPI_Count rcount, mica_type_t *rtype, int root, mica_comm_t *comm);
int mica_coll_scatterv_locked(const void *sbuf, const MPI_Count *scounts, const MPI_Aint *displs,
                              mica_type_t *stype, void *rbuf, MPI_Count rcount, mica_type_t *rtype,
                              int root, mica_comm_t *comm);
int mica_coll_allgather_locked(const void *sbuf, MPI_Count scount, mica_type_t *stype, void *rbuf,
                               MPI_Count rcount, mica_type_t *rtype, mica_comm_t *comm);
/* The same with another tag: for MPI_Comm_create_group, which runs among some processes of a
 * communicator, on its collective context with mica_coll_group_tag(tag). */
int mica_coll_allgather_tag_locked(const void *sbuf, MPI_Count scount, mica_type_t *stype,
                                   void *rbuf, MPI_Count rcount, mica_type_t *rtype,
                                   mica_comm_t *comm, int tag);
int mica_coll_allgatherv_locked(const void *sbuf, MPI_Count scount, mica_type_t *stype, void *rbuf,
                                const MPI_Count *rcounts, const MPI_Aint *displs,
                                mica_type_t *rtype, mica_comm_t *comm);
int mica_coll_alltoall_locked(const void *sbuf, MPI_Count scount, mica_type_t *stype, void *rbuf,
                              MPI_Count rcount, mica_type_t *rtype, mica_comm_t *comm);
int mica_coll_alltoallv_locked(const void *sbuf, const MPI_Count *scounts, const MPI_Aint *sdispls,
                               mica_type_t *stype, void *rbuf, const MPI_Count *rcounts,
                               const MPI_Aint *rdispls, mica_type_t *rtype, mica_comm_t *comm);
/* Alltoallw: displacements in bytes, a datatype per peer. */
int mica_coll_alltoallw_locked(const void *sbuf, const MPI_Count *scounts, const MPI_Aint *sdispls,
                               mica_type_t *const *stypes, void *rbuf, const MPI_Count *rcounts,
                               const MPI_Aint *rdispls, mica_type_t *const *rtypes,
                               mica_comm_t *comm);
int mica_coll_reduce_scatter_locked(const void *sbuf, void *rbuf, const MPI_Count *rcounts,
                                    mica_type_t *type, mica_op_t *op, mica_comm_t *comm);
int mica_coll_scan_locked(const void *sbuf, void *rbuf, MPI_Count count, mica_type_t *type,
                          mica_op_t *op, mica_comm_t *comm, int exclusive);

/* --- helpers -------------------------------------------------------------------------------- */

/* Nonblocking point-to-point on the collective context (lock held). */
int mica_coll_isend(const void *buf, MPI_Count count, mica_type_t *type, int dest, int tag,
                    mica_comm_t *comm, mica_request_t **req);
int mica_coll_irecv(void *buf, MPI_Count count, mica_type_t *type, int source, int tag,
                    mica_comm_t *comm, mica_request_t **req);

/* Address of element `i` of a buffer of `type` elements. */
static inline void *mica_coll_at(const void *buf, MPI_Count i, const mica_type_t *type)
{
    return (char *)buf + (MPI_Aint)i * type->extent;
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
int mica_coll_check_alltoallv(const void *sendbuf, const MPI_Count *sendcounts,
                              const MPI_Aint *sdispls, const MPI_Count *recvcounts,
                              const MPI_Aint *rdispls, int n);
/* Alltoallw's checks (n blocks a side), then its datatypes looked up into *types (malloc'd:
 * the n send types, unset at MPI_IN_PLACE, then the n receive types; NULL on error). */
int mica_coll_check_alltoallw(const void *sendbuf, const MPI_Count *sendcounts,
                              const MPI_Aint *sdispls, const MPI_Datatype *sendtypes,
                              const void *recvbuf, const MPI_Count *recvcounts,
                              const MPI_Aint *rdispls, const MPI_Datatype *recvtypes, int n,
                              mica_type_t ***types);

/* The int count and displacement arrays of an MPI_X form widened for its MPI_X_c form: nsend
 * of each send array, nrecv of each receive array (a NULL array stays NULL). Free them with
 * mica_coll_wide_free, also after an error. */
typedef struct {
    MPI_Count *sc, *rc;
    MPI_Aint *sd, *rd;
} mica_coll_wide_t;
int mica_coll_widen(int nsend, const int *sc, const int *sd, int nrecv, const int *rc,
                    const int *rd, mica_coll_wide_t *w);
/* Alltoallv's and alltoallw's: n a side, the send side's left NULL at MPI_IN_PLACE. */
int mica_coll_widen_alltoall(int n, const void *sendbuf, const int *sc, const int *sd,
                             const int *rc, const int *rd, mica_coll_wide_t *w);
void mica_coll_wide_free(mica_coll_wide_t *w);
/* The counts of a _block form: n times count in *out (malloc'd; NULL on error). */
int mica_coll_block_counts(int n, MPI_Count count, MPI_Count **out);

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
