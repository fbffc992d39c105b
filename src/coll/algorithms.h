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
 * The arguments each reads (the others are unused):
 *   barrier     -
 *   bcast       rbuf, rcount, rtype, root
 *   reduce      sbuf (MPI_IN_PLACE: rbuf is the input), rbuf, rcount, rtype, op, root
 *   allreduce   sbuf (MPI_IN_PLACE: rbuf is the input), rbuf, rcount, rtype, op */
#ifndef MICA_COLL_ALGORITHMS_H
#define MICA_COLL_ALGORITHMS_H

#include "coll/sched.h"

/* The algorithms (mica_coll_X_<name>), their blocking fast paths, the choice and the checks. */
#include "coll/algorithm_table.h"

/* Where bcast's scatter_ring algorithm starts (MICA_BCAST_LONG, auto resolved), bytes. */
long mica_coll_bcast_long(void);

/* The library's own blocking barrier, bcast, reduce and allreduce: lock held, arguments
 * trusted (as mica_coll_run_X). */
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

#endif
