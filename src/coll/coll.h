/* Collectives: the algorithms, callable inside the library with the big lock held (the MPI
 * entry points take the lock and call these), and the helpers they share.
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
#include "pt2pt/pt2pt.h"

enum mica_coll_tag {
    MICA_TAG_BARRIER = 1, MICA_TAG_BCAST, MICA_TAG_REDUCE, MICA_TAG_ALLREDUCE, MICA_TAG_GATHER,
    MICA_TAG_SCATTER, MICA_TAG_ALLGATHER, MICA_TAG_ALLTOALL, MICA_TAG_REDUCE_SCATTER,
    MICA_TAG_SCAN, MICA_TAG_EXSCAN,
    /* Neighborhood collectives (src/topo): graphs, and Cartesian messages to the -1 neighbor;
     * Cartesian messages to the +1 neighbor, received in the peer's -1 block (MPI 4.1 8.6). */
    MICA_TAG_NEIGHBOR, MICA_TAG_NEIGHBOR_UP
};

/* MPI_Comm_create_group's messages travel on the parent's collective context with negative
 * tags below MPI_ANY_TAG (-2), one per user tag modulo 2^30, apart from every collective's
 * (blocking ones use the small positive tags above, nonblocking ones those of coll/sched.h). */
static inline int mica_coll_group_tag(int tag)
{
    return MPI_ANY_TAG - 1 - (tag & 0x3fffffff);
}

/* Algorithm switch points (bytes of the whole message); the environment variable of the same
 * name overrides each (for measurements, and for tests that need every algorithm). */
#define MICA_BCAST_LONG (256 * 1024)          /* scatter + ring allgather from here on */
#define MICA_ALLREDUCE_LONG (16 * 1024)       /* reduce-scatter + allgather from here on */
#define MICA_ALLTOALL_SHORT 1024              /* per block: post everything at once below */
#define MICA_COLL_TUNABLE(name) mica_coll_tunable(#name, name)
/* The value of environment variable `name` (read once), or `dflt` if it is not set. */
long mica_coll_tunable(const char *name, long dflt);

/* --- the algorithms (lock held) ------------------------------------------------------------ */

int mica_coll_barrier(mica_comm_t *comm);
int mica_coll_bcast(void *buf, MPI_Count count, mica_type_t *type, int root, mica_comm_t *comm);
int mica_coll_reduce(const void *sbuf, void *rbuf, MPI_Count count, mica_type_t *type,
                     mica_op_t *op, int root, mica_comm_t *comm);
int mica_coll_allreduce(const void *sbuf, void *rbuf, MPI_Count count, mica_type_t *type,
                        mica_op_t *op, mica_comm_t *comm);
int mica_coll_gather(const void *sbuf, MPI_Count scount, mica_type_t *stype, void *rbuf,
                     MPI_Count rcount, mica_type_t *rtype, int root, mica_comm_t *comm);
int mica_coll_gatherv(const void *sbuf, MPI_Count scount, mica_type_t *stype, void *rbuf,
                      const MPI_Count *rcounts, const MPI_Aint *displs, mica_type_t *rtype,
                      int root, mica_comm_t *comm);
int mica_coll_scatter(const void *sbuf, MPI_Count scount, mica_type_t *stype, void *rbuf,
                      MPI_Count rcount, mica_type_t *rtype, int root, mica_comm_t *comm);
int mica_coll_scatterv(const void *sbuf, const MPI_Count *scounts, const MPI_Aint *displs,
                       mica_type_t *stype, void *rbuf, MPI_Count rcount, mica_type_t *rtype,
                       int root, mica_comm_t *comm);
int mica_coll_allgather(const void *sbuf, MPI_Count scount, mica_type_t *stype, void *rbuf,
                        MPI_Count rcount, mica_type_t *rtype, mica_comm_t *comm);
/* The same with another tag: for MPI_Comm_create_group, which runs among some processes of a
 * communicator, on its collective context with mica_coll_group_tag(tag). */
int mica_coll_allgather_tag(const void *sbuf, MPI_Count scount, mica_type_t *stype, void *rbuf,
                            MPI_Count rcount, mica_type_t *rtype, mica_comm_t *comm, int tag);
int mica_coll_allgatherv(const void *sbuf, MPI_Count scount, mica_type_t *stype, void *rbuf,
                         const MPI_Count *rcounts, const MPI_Aint *displs, mica_type_t *rtype,
                         mica_comm_t *comm);
int mica_coll_alltoall(const void *sbuf, MPI_Count scount, mica_type_t *stype, void *rbuf,
                       MPI_Count rcount, mica_type_t *rtype, mica_comm_t *comm);
int mica_coll_alltoallv(const void *sbuf, const MPI_Count *scounts, const MPI_Aint *sdispls,
                        mica_type_t *stype, void *rbuf, const MPI_Count *rcounts,
                        const MPI_Aint *rdispls, mica_type_t *rtype, mica_comm_t *comm);
/* Alltoallw: displacements in bytes, a datatype per peer. */
int mica_coll_alltoallw(const void *sbuf, const MPI_Count *scounts, const MPI_Aint *sdispls,
                        mica_type_t *const *stypes, void *rbuf, const MPI_Count *rcounts,
                        const MPI_Aint *rdispls, mica_type_t *const *rtypes, mica_comm_t *comm);
int mica_coll_reduce_scatter(const void *sbuf, void *rbuf, const MPI_Count *rcounts,
                             mica_type_t *type, mica_op_t *op, mica_comm_t *comm);
int mica_coll_scan(const void *sbuf, void *rbuf, MPI_Count count, mica_type_t *type,
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

/* Argument checks shared by the entry points: MPI_SUCCESS or an error code naming `what`. */
int mica_coll_check_type(const mica_type_t *type, const char *what);
int mica_coll_check_op(const mica_op_t *op, const mica_type_t *type);
int mica_coll_check_counts(int n, const MPI_Count *counts, const char *what);

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
