/* The collective algorithms, each written once as the builder of a schedule (sched.h) from a
 * collective's arguments (mica_coll_args_t): the blocking, nonblocking and persistent forms all
 * run what these build. Which algorithm runs is chosen by the table src/coll/algorithms.tsv,
 * from which gen/coll.py generates, for each collective X (coll/algorithm_table.h):
 *   mica_coll_build_X  builds the chosen algorithm's schedule (nonblocking, persistent forms);
 *   mica_coll_run_X    runs it to completion, the caller holding the big lock: the blocking
 *                      form, and the library's own blocking collectives (arguments trusted);
 *   the core entry points mica_X_c, mica_iX_c, mica_X_init_c, which check the arguments with
 *   mica_coll_check_X (args.c: one check for the three forms) and launch.
 *
 * The arguments each reads (the others are unused; the v forms' arrays have nsend and nrecv
 * entries, rcounts NULL in the forms with one count):
 *   barrier          -
 *   bcast            rbuf, rcount, rtype, root
 *   reduce           sbuf (MPI_IN_PLACE: rbuf is the input), rbuf, rcount, rtype, op, root
 *   allreduce        sbuf (MPI_IN_PLACE: rbuf is the input), rbuf, rcount, rtype, op
 *   gather(v)        sbuf (MPI_IN_PLACE at the root), scount, stype, root; at the root rbuf,
 *                    rcount or rcounts and rdispls, rtype
 *   scatter(v)       rbuf (MPI_IN_PLACE at the root), rcount, rtype, root; at the root sbuf,
 *                    scount or scounts and sdispls, stype
 *   allgather(v)     sbuf (MPI_IN_PLACE: our block is in rbuf), scount, stype, rbuf, rcount or
 *                    rcounts and rdispls, rtype
 *   alltoall(v, w)   sbuf (MPI_IN_PLACE: the blocks to send are in rbuf), scount or scounts and
 *                    sdispls, stype or stypes; the same of the receive side (w: byte displs)
 *   reduce_scatter   sbuf (MPI_IN_PLACE: rbuf holds the whole vector), rbuf, rcounts (the
 *                    _block form: rcount), rtype, op
 *   (ex)scan         sbuf (MPI_IN_PLACE: rbuf is the input), rbuf, rcount, rtype, op */
#ifndef MICA_COLL_ALGORITHMS_H
#define MICA_COLL_ALGORITHMS_H

#include "coll/sched.h"

/* The algorithms (mica_coll_X_<name>), their blocking fast paths, the choice and the checks. */
#include "coll/algorithm_table.h"

/* Where bcast's scatter_ring algorithm starts (MICA_BCAST_LONG, auto resolved), bytes. */
long mica_coll_bcast_long(void);
/* The largest block, in bytes, an alltoall(v, w) receives here. */
MPI_Count mica_coll_alltoall_largest(const mica_coll_args_t *a, mica_comm_t *comm);

/* The library's own blocking collectives: lock held, arguments trusted (as mica_coll_run_X;
 * allgather_tag, allreduce_tag: on the given tag, for collectives of a group not yet a
 * communicator). */
static inline int mica_coll_barrier_locked(mica_comm_t *comm)
{
    return mica_coll_run_barrier(&(mica_coll_args_t){0}, comm);
}

static inline int mica_coll_bcast_locked(void *buf, MPI_Count count, mica_type_t *type, int root,
                                         mica_comm_t *comm)
{
    mica_coll_args_t a = {.rbuf = buf, .rcount = count, .rtype = type, .root = root};
    return mica_coll_run_bcast(&a, comm);
}

static inline int mica_coll_reduce_locked(const void *sbuf, void *rbuf, MPI_Count count,
                                          mica_type_t *type, mica_op_t *op, int root,
                                          mica_comm_t *comm)
{
    mica_coll_args_t a = {.sbuf = sbuf, .rbuf = rbuf, .rcount = count, .rtype = type, .op = op,
                          .root = root};
    return mica_coll_run_reduce(&a, comm);
}

static inline int mica_coll_allreduce_locked(const void *sbuf, void *rbuf, MPI_Count count,
                                             mica_type_t *type, mica_op_t *op, mica_comm_t *comm)
{
    mica_coll_args_t a = {.sbuf = sbuf, .rbuf = rbuf, .rcount = count, .rtype = type, .op = op};
    return mica_coll_run_allreduce(&a, comm);
}

/* Always recursive doubling, which combines whole vectors (an operation that tells the words
 * of its vector apart, such as the context ids' offers, needs this), on the given tag. */
int mica_coll_allreduce_tag_locked(const void *sbuf, void *rbuf, MPI_Count count,
                                   mica_type_t *type, mica_op_t *op, mica_comm_t *comm, int tag);

static inline int mica_coll_allgather_tag_locked(const void *sbuf, MPI_Count scount,
                                                 mica_type_t *stype, void *rbuf, MPI_Count rcount,
                                                 mica_type_t *rtype, mica_comm_t *comm, int tag)
{
    mica_coll_args_t a = {.sbuf = sbuf, .scount = scount, .stype = stype, .rbuf = rbuf,
                          .rcount = rcount, .rtype = rtype};
    return mica_sched_run(comm, tag, mica_coll_build_allgather, &a);
}

static inline int mica_coll_allgather_locked(const void *sbuf, MPI_Count scount,
                                             mica_type_t *stype, void *rbuf, MPI_Count rcount,
                                             mica_type_t *rtype, mica_comm_t *comm)
{
    return mica_coll_allgather_tag_locked(sbuf, scount, stype, rbuf, rcount, rtype, comm,
                                          MICA_TAG_ALLGATHER);
}

static inline int mica_coll_alltoall_locked(const void *sbuf, MPI_Count scount,
                                            mica_type_t *stype, void *rbuf, MPI_Count rcount,
                                            mica_type_t *rtype, mica_comm_t *comm)
{
    mica_coll_args_t a = {.sbuf = sbuf, .scount = scount, .stype = stype, .rbuf = rbuf,
                          .rcount = rcount, .rtype = rtype};
    return mica_coll_run_alltoall(&a, comm);
}

static inline int mica_coll_alltoallv_locked(const void *sbuf, const MPI_Count *scounts,
                                             const MPI_Aint *sdispls, mica_type_t *stype,
                                             void *rbuf, const MPI_Count *rcounts,
                                             const MPI_Aint *rdispls, mica_type_t *rtype,
                                             mica_comm_t *comm)
{
    mica_coll_args_t a = {.sbuf = sbuf, .scounts = scounts, .sdispls = sdispls, .stype = stype,
                          .rbuf = rbuf, .rcounts = rcounts, .rdispls = rdispls, .rtype = rtype,
                          .nsend = comm->size, .nrecv = comm->size};
    return mica_coll_run_alltoallv(&a, comm);
}

static inline int mica_coll_scatterv_locked(const void *sbuf, const MPI_Count *scounts,
                                            const MPI_Aint *sdispls, mica_type_t *stype,
                                            void *rbuf, MPI_Count rcount, mica_type_t *rtype,
                                            int root, mica_comm_t *comm)
{
    mica_coll_args_t a = {.sbuf = sbuf, .scounts = scounts, .sdispls = sdispls, .stype = stype,
                          .rbuf = rbuf, .rcount = rcount, .rtype = rtype, .root = root};
    return mica_coll_run_scatterv(&a, comm);
}

#endif
