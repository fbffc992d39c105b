/* The collective algorithms, each written once as the builder of a schedule (sched.h) from a
 * collective's arguments (mica_coll_args_t): the blocking, nonblocking and persistent forms all
 * run what these build. mica_coll_build_X chooses among the algorithms of collective X by its
 * rules (message size, process count, the operation's commutativity) and builds the chosen one.
 *
 * The arguments each reads (the others are unused):
 *   barrier     -
 *   bcast       rbuf, rcount, rtype, root
 *   reduce      sbuf (MPI_IN_PLACE: rbuf is the input), rbuf, rcount, rtype, op, root
 *   allreduce   sbuf (MPI_IN_PLACE: rbuf is the input), rbuf, rcount, rtype, op */
#ifndef MICA_COLL_ALGORITHMS_H
#define MICA_COLL_ALGORITHMS_H

#include "coll/sched.h"

/* Dissemination: ceil(log2 p) rounds for any p. */
mica_coll_build_fn mica_coll_build_barrier;

/* Binomial tree; long messages on enough processors: scatter + ring allgather (van de Geijn). */
mica_coll_build_fn mica_coll_build_bcast;
mica_coll_build_fn mica_coll_bcast_binomial;
mica_coll_build_fn mica_coll_bcast_scatter_ring;

/* Binomial tree, rooted at 0 for non-commutative operations. */
mica_coll_build_fn mica_coll_build_reduce;

/* Recursive doubling; long vectors: Rabenseifner's reduce-scatter + allgather. */
mica_coll_build_fn mica_coll_build_allreduce;
mica_coll_build_fn mica_coll_allreduce_recursive_doubling;
mica_coll_build_fn mica_coll_allreduce_rabenseifner;

#endif
