/* MPI_Reduce: a binomial tree. A process combines its partial result with its children's in
 * rank order (lower ranks on the left of the operator), so it is rooted at `root` for
 * commutative operations and at rank 0 for the others, which then hands the result to `root`. */
#include <string.h>
#include <stdlib.h>

#include "coll/algorithms.h"
#include "coll/inter.h"
#include "core/errors.h"
#include "core/progress.h"
#include "core_api.h"

void mica_coll_reduce_binomial(mica_sched_t *s, const mica_coll_args_t *a, mica_comm_t *comm)
{
    int size = comm->size, rank = comm->rank, root = a->root;
    void *rbuf = a->rbuf;
    const void *input = a->sbuf == MPI_IN_PLACE ? rbuf : a->sbuf;
    MPI_Count count = a->rcount;
    mica_type_t *type = a->rtype;
    mica_op_t *op = a->op;
    if (size == 1 || count * type->size == 0) {
        if (rank == root && input != rbuf)
            mica_sched_copy(s, input, count, type, rbuf, count, type);
        return;
    }
    int tree_root = op->commutative ? root : 0, vrank = (rank - tree_root + size) % size;
    /* The accumulator: the root's receive buffer when the result ends there, else a copy. */
    void *acc, *tmp = NULL;
    if (rank == root && rank == tree_root) {
        acc = rbuf;
        if (input != rbuf)
            mica_sched_copy(s, input, count, type, rbuf, count, type);
    } else {
        acc = mica_sched_tmp(s, count, type);
        mica_sched_copy(s, input, count, type, acc, count, type);
    }
    for (int mask = 1; mask < size; mask <<= 1) {
        if (vrank & mask) {
            mica_sched_send(s, acc, count, type, (vrank - mask + tree_root) % size);
            mica_sched_barrier(s);
            break;
        }
        if ((vrank | mask) >= size)
            continue;
        if (!tmp)
            tmp = mica_sched_tmp(s, count, type);
        mica_sched_recv(s, tmp, count, type, ((vrank | mask) + tree_root) % size);
        mica_sched_barrier(s);
        if (op->commutative) {
            mica_sched_reduce(s, tmp, acc, count, type, op);
        } else {                      /* acc holds the lower ranks: acc op tmp, into tmp */
            mica_sched_reduce(s, acc, tmp, count, type, op);
            void *t = acc;
            acc = tmp, tmp = t;
        }
    }
    if (root != tree_root) {
        if (rank == tree_root)
            mica_sched_send(s, acc, count, type, root);
        else if (rank == root)
            mica_sched_recv(s, rbuf, count, type, tree_root);
    } else if (rank == root && acc != rbuf) {
        mica_sched_copy(s, acc, count, type, rbuf, count, type);
    }
}

