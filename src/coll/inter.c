/* The blocking collectives on intercommunicators, with the standard's meaning: data moves
 * between the two groups. Rooted ones name the root by its rank in the remote group; in the
 * root's own group the root says MPI_ROOT and the others MPI_PROC_NULL (they do nothing).
 *
 * Simple algorithms: the rooted data movers and the all-to-all ones post a message per remote
 * process; the others run their local phase on the intercommunicator's hidden local
 * intracommunicator (comm->local) and the two leaders (local rank 0) swap the result:
 *  - barrier: local barrier, leaders swap an empty message, local barrier;
 *  - bcast: the root sends to remote rank 0, which broadcasts in its group;
 *  - reduce: a local reduce to rank 0, which sends to the root;
 *  - allreduce: a local reduce, the leaders swap, a local broadcast;
 *  - reduce_scatter: a local reduce of the whole vector, the leaders swap, a local scatterv.
 * Messages travel on the intercommunicator's collective context with each collective's tag.
 * MPI_IN_PLACE has no meaning on an intercommunicator: it is refused. */
#include <stdlib.h>

#include "coll/algorithms.h"
#include "coll/inter.h"
#include "core/errors.h"
#include "core/progress.h"

#define BYTE (&mica_type_MPI_BYTE)

static int no_in_place(const void *buf, const char *what)
{
    if (buf == MPI_IN_PLACE)
        return mica_error(MPI_ERR_BUFFER, "%s is MPI_IN_PLACE, which an intercommunicator does "
                          "not allow", what);
    return MPI_SUCCESS;
}

/* A check of the type and the buffer on one side of a data mover. */
static int check_side(const void *buf, const mica_type_t *type, const char *bufname,
                      const char *typename)
{
    int rc = no_in_place(buf, bufname);
    return rc != MPI_SUCCESS ? rc : mica_coll_check_type(type, typename);
}

/* The checks of allreduce and reduce_scatter: the operation, and neither buffer MPI_IN_PLACE. */
static int check_reduction(const void *sbuf, const void *rbuf, mica_op_t *op, mica_type_t *type)
{
    int rc = mica_coll_check_op(op, type);
    if (rc == MPI_SUCCESS)
        rc = no_in_place(sbuf, "sendbuf");
    if (rc == MPI_SUCCESS)
        rc = no_in_place(rbuf, "recvbuf");
    return rc;
}

/* --- one message per remote process ---------------------------------------------------------- */

/* Where block i of a buffer is: counts[i] elements of types[i] at byte displs[i]. */
typedef struct {
    const MPI_Count *counts;
    const MPI_Aint *displs;
    mica_type_t *const *types;
    void *mem;                        /* what blocks() allocated */
} blocks_t;

/* n blocks of `type`: counts[i] elements (counts NULL: `count` each) at element displs[i]
 * (displs NULL: one after the other; `same`: all the same block, at 0). */
static int blocks(int n, MPI_Count count, const MPI_Count *counts, const MPI_Aint *displs,
                  mica_type_t *type, int same, blocks_t *b)
{
    size_t each = sizeof(MPI_Count) + sizeof(MPI_Aint) + sizeof(mica_type_t *);
    char *mem = malloc((n > 0 ? (size_t)n : 1) * each);
    if (!mem)
        return mica_error(MPI_ERR_NO_MEM, "no memory for %d blocks", n);
    MPI_Count *c = (MPI_Count *)mem;
    MPI_Aint *d = (MPI_Aint *)(c + n);
    mica_type_t **t = (mica_type_t **)(d + n);
    MPI_Aint at = 0;
    for (int i = 0; i < n; i++) {
        c[i] = counts ? counts[i] : count;
        d[i] = same ? 0 : (displs ? displs[i] : at) * type->extent;
        t[i] = type;
        at += c[i];
    }
    *b = (blocks_t){c, d, t, mem};
    return MPI_SUCCESS;
}

/* Receive block i of rbuf from remote rank i and send block i of sbuf to it, for every i (a
 * NULL side is skipped). Lock held. */
static int exchange(mica_comm_t *comm, int tag, const void *sbuf, const blocks_t *s, void *rbuf,
                    const blocks_t *r)
{
    int n = comm->remote_size, rc = MPI_SUCCESS;
    mica_request_t **reqs = calloc(2 * (size_t)n, sizeof *reqs);
    if (!reqs)
        return mica_error(MPI_ERR_NO_MEM, "no memory for %d requests", 2 * n);
    for (int i = 0; r && i < n && rc == MPI_SUCCESS; i++)
        rc = mica_coll_irecv((char *)rbuf + r->displs[i], r->counts[i], r->types[i], i, tag,
                             comm, &reqs[i]);
    for (int i = 0; s && i < n && rc == MPI_SUCCESS; i++)
        rc = mica_coll_isend((const char *)sbuf + s->displs[i], s->counts[i], s->types[i], i,
                             tag, comm, &reqs[n + i]);
    int rc2 = mica_request_waitall(2 * n, reqs);
    free(reqs);
    return rc != MPI_SUCCESS ? rc : rc2;
}

/* --- barrier, bcast, reduce, allreduce -------------------------------------------------------- */

static int inter_barrier(mica_comm_t *comm)
{
    int rc = mica_coll_barrier_locked(comm->local);
    if (rc == MPI_SUCCESS && comm->rank == 0)
        rc = mica_coll_sendrecv(NULL, 0, BYTE, 0, NULL, 0, BYTE, 0, MICA_TAG_BARRIER, comm);
    if (rc == MPI_SUCCESS)            /* the others wait until their leader has heard */
        rc = mica_coll_barrier_locked(comm->local);
    return rc;
}

static int inter_bcast(void *buf, MPI_Count count, mica_type_t *type, int root, mica_comm_t *comm)
{
    if (root == MPI_PROC_NULL)
        return MPI_SUCCESS;
    int rc = check_side(buf, type, "buffer", "datatype");
    if (rc != MPI_SUCCESS)
        return rc;
    if (root == MPI_ROOT) {
        rc = mica_coll_send(buf, count, type, 0, MICA_TAG_BCAST, comm);
    } else {
        if (comm->rank == 0)
            rc = mica_coll_recv(buf, count, type, root, MICA_TAG_BCAST, comm);
        if (rc == MPI_SUCCESS)
            rc = mica_coll_bcast_locked(buf, count, type, 0, comm->local);
    }
    return rc;
}

/* The reduction of the local group's sbufs at local rank 0, in *result (a temporary there, to
 * free with *mem; NULL elsewhere). Lock held. */
static int reduce_local(const void *sbuf, MPI_Count count, mica_type_t *type, mica_op_t *op,
                        mica_comm_t *comm, void **result, void **mem)
{
    *result = *mem = NULL;
    if (comm->rank == 0 && !(*result = mica_coll_tmp(count, type, mem)))
        return mica_coll_no_mem(count, type);
    return mica_coll_reduce_locked(sbuf, *result, count, type, op, 0, comm->local);
}

static int inter_reduce(const void *sbuf, void *rbuf, MPI_Count count, mica_type_t *type,
                        mica_op_t *op, int root, mica_comm_t *comm)
{
    if (root == MPI_PROC_NULL)
        return MPI_SUCCESS;
    int rc = mica_coll_check_op(op, type);
    if (rc == MPI_SUCCESS)
        rc = root == MPI_ROOT ? no_in_place(rbuf, "recvbuf") : no_in_place(sbuf, "sendbuf");
    if (rc != MPI_SUCCESS)
        return rc;
    if (root == MPI_ROOT) {
        rc = mica_coll_recv(rbuf, count, type, 0, MICA_TAG_REDUCE, comm);
    } else {
        void *acc, *mem;
        rc = reduce_local(sbuf, count, type, op, comm, &acc, &mem);
        if (rc == MPI_SUCCESS && comm->rank == 0)
            rc = mica_coll_send(acc, count, type, root, MICA_TAG_REDUCE, comm);
        free(mem);
    }
    return rc;
}

static int inter_allreduce(const void *sbuf, void *rbuf, MPI_Count count, mica_type_t *type,
                           mica_op_t *op, mica_comm_t *comm)
{
    int rc = check_reduction(sbuf, rbuf, op, type);
    if (rc != MPI_SUCCESS)
        return rc;
    void *acc, *mem;
    rc = reduce_local(sbuf, count, type, op, comm, &acc, &mem);
    if (rc == MPI_SUCCESS && comm->rank == 0)
        rc = mica_coll_sendrecv(acc, count, type, 0, rbuf, count, type, 0, MICA_TAG_ALLREDUCE,
                                comm);
    if (rc == MPI_SUCCESS)
        rc = mica_coll_bcast_locked(rbuf, count, type, 0, comm->local);
    free(mem);
    return rc;
}

/* --- gather, scatter -------------------------------------------------------------------------- */

/* Gather (gather = 1) and scatter. The root has a block per remote process on its side (a
 * gather's receive side, a scatter's send side); the others one message on the other side. */
static int rooted(const void *sbuf, MPI_Count scount, const MPI_Count *scounts,
                  mica_type_t *stype, void *rbuf, MPI_Count rcount, const MPI_Count *rcounts,
                  mica_type_t *rtype, const MPI_Aint *displs, int root, mica_comm_t *comm,
                  int gather, int v)
{
    if (root == MPI_PROC_NULL)
        return MPI_SUCCESS;
    int rc, n = comm->remote_size, tag = gather ? MICA_TAG_GATHER : MICA_TAG_SCATTER;
    if ((root == MPI_ROOT) == gather) /* this process receives */
        rc = check_side(rbuf, rtype, "recvbuf", "recvtype");
    else
        rc = check_side(sbuf, stype, "sendbuf", "sendtype");
    if (rc == MPI_SUCCESS && root == MPI_ROOT && v)
        rc = gather ? mica_coll_check_v(rcounts, displs, n, "recvcounts", "displs")
                    : mica_coll_check_v(scounts, displs, n, "sendcounts", "displs");
    if (rc != MPI_SUCCESS)
        return rc;
    if (root != MPI_ROOT) {
        rc = gather ? mica_coll_send(sbuf, scount, stype, root, tag, comm)
                    : mica_coll_recv(rbuf, rcount, rtype, root, tag, comm);
    } else {
        blocks_t b;
        rc = gather ? blocks(n, rcount, rcounts, displs, rtype, 0, &b)
                    : blocks(n, scount, scounts, displs, stype, 0, &b);
        if (rc == MPI_SUCCESS)
            rc = gather ? exchange(comm, tag, NULL, NULL, rbuf, &b)
                        : exchange(comm, tag, sbuf, &b, NULL, NULL);
        free(b.mem);
    }
    return rc;
}

static int inter_gather(const void *sbuf, MPI_Count scount, mica_type_t *stype, void *rbuf,
                        MPI_Count rcount, mica_type_t *rtype, int root, mica_comm_t *comm)
{
    return rooted(sbuf, scount, NULL, stype, rbuf, rcount, NULL, rtype, NULL, root, comm, 1, 0);
}

static int inter_gatherv(const void *sbuf, MPI_Count scount, mica_type_t *stype, void *rbuf,
                         const MPI_Count *rcounts, const MPI_Aint *displs, mica_type_t *rtype,
                         int root, mica_comm_t *comm)
{
    return rooted(sbuf, scount, NULL, stype, rbuf, 0, rcounts, rtype, displs, root, comm, 1, 1);
}

static int inter_scatter(const void *sbuf, MPI_Count scount, mica_type_t *stype, void *rbuf,
                         MPI_Count rcount, mica_type_t *rtype, int root, mica_comm_t *comm)
{
    return rooted(sbuf, scount, NULL, stype, rbuf, rcount, NULL, rtype, NULL, root, comm, 0, 0);
}

static int inter_scatterv(const void *sbuf, const MPI_Count *scounts, const MPI_Aint *displs,
                          mica_type_t *stype, void *rbuf, MPI_Count rcount, mica_type_t *rtype,
                          int root, mica_comm_t *comm)
{
    return rooted(sbuf, 0, scounts, stype, rbuf, rcount, NULL, rtype, displs, root, comm, 0, 1);
}

/* --- allgather, alltoall ---------------------------------------------------------------------- */

/* Both sides of an all-to-all data mover: every process sends (its one block to every remote
 * process when `same`) and receives a block from every remote process. */
static int all_blocks(const void *sbuf, MPI_Count scount, const MPI_Count *scounts,
                      const MPI_Aint *sdispls, mica_type_t *stype, int same, void *rbuf,
                      MPI_Count rcount, const MPI_Count *rcounts, const MPI_Aint *rdispls,
                      mica_type_t *rtype, int tag, mica_comm_t *comm)
{
    int rc = check_side(sbuf, stype, "sendbuf", "sendtype");
    if (rc == MPI_SUCCESS)
        rc = check_side(rbuf, rtype, "recvbuf", "recvtype");
    if (rc != MPI_SUCCESS)
        return rc;
    int n = comm->remote_size;
    blocks_t s = {0}, r = {0};
    rc = blocks(n, scount, scounts, sdispls, stype, same, &s);
    if (rc == MPI_SUCCESS)
        rc = blocks(n, rcount, rcounts, rdispls, rtype, 0, &r);
    if (rc == MPI_SUCCESS) {
        rc = exchange(comm, tag, sbuf, &s, rbuf, &r);
    }
    free(s.mem);
    free(r.mem);
    return rc;
}

static int inter_allgather(const void *sbuf, MPI_Count scount, mica_type_t *stype, void *rbuf,
                           MPI_Count rcount, mica_type_t *rtype, mica_comm_t *comm)
{
    return all_blocks(sbuf, scount, NULL, NULL, stype, 1, rbuf, rcount, NULL, NULL, rtype,
                      MICA_TAG_ALLGATHER, comm);
}

static int inter_allgatherv(const void *sbuf, MPI_Count scount, mica_type_t *stype, void *rbuf,
                            const MPI_Count *rcounts, const MPI_Aint *displs, mica_type_t *rtype,
                            mica_comm_t *comm)
{
    int rc = mica_coll_check_v(rcounts, displs, comm->remote_size, "recvcounts", "displs");
    if (rc != MPI_SUCCESS)
        return rc;
    return all_blocks(sbuf, scount, NULL, NULL, stype, 1, rbuf, 0, rcounts, displs, rtype,
                      MICA_TAG_ALLGATHER, comm);
}

static int inter_alltoall(const void *sbuf, MPI_Count scount, mica_type_t *stype, void *rbuf,
                          MPI_Count rcount, mica_type_t *rtype, mica_comm_t *comm)
{
    return all_blocks(sbuf, scount, NULL, NULL, stype, 0, rbuf, rcount, NULL, NULL, rtype,
                      MICA_TAG_ALLTOALL, comm);
}

static int inter_alltoallv(const void *sbuf, const MPI_Count *scounts, const MPI_Aint *sdispls,
                           mica_type_t *stype, void *rbuf, const MPI_Count *rcounts,
                           const MPI_Aint *rdispls, mica_type_t *rtype, mica_comm_t *comm)
{
    int rc = no_in_place(sbuf, "sendbuf");
    if (rc == MPI_SUCCESS)
        rc = mica_coll_check_v(scounts, sdispls, comm->remote_size, "sendcounts", "sdispls");
    if (rc == MPI_SUCCESS)
        rc = mica_coll_check_v(rcounts, rdispls, comm->remote_size, "recvcounts", "rdispls");
    if (rc != MPI_SUCCESS)
        return rc;
    return all_blocks(sbuf, 0, scounts, sdispls, stype, 0, rbuf, 0, rcounts, rdispls, rtype,
                      MICA_TAG_ALLTOALL, comm);
}

static int inter_alltoallw(const void *sbuf, const MPI_Count *scounts, const MPI_Aint *sdispls,
                           mica_type_t *const *stypes, void *rbuf, const MPI_Count *rcounts,
                           const MPI_Aint *rdispls, mica_type_t *const *rtypes, mica_comm_t *comm)
{
    int rc = no_in_place(sbuf, "sendbuf");
    if (rc == MPI_SUCCESS)
        rc = no_in_place(rbuf, "recvbuf");
    if (rc != MPI_SUCCESS)
        return rc;
    blocks_t s = {scounts, sdispls, stypes, NULL}, r = {rcounts, rdispls, rtypes, NULL};
    return exchange(comm, MICA_TAG_ALLTOALL, sbuf, &s, rbuf, &r);
}

/* --- reduce_scatter --------------------------------------------------------------------------- */

static int inter_reduce_scatter(const void *sbuf, void *rbuf, MPI_Count rcount,
                                const MPI_Count *rcounts, mica_type_t *type, mica_op_t *op,
                                mica_comm_t *comm)
{
    int size = comm->size;
    int rc = check_reduction(sbuf, rbuf, op, type);
    if (rc != MPI_SUCCESS)
        return rc;
    /* Our group's blocks, which split the other group's result (the two totals are equal). */
    MPI_Count *counts = malloc((size_t)size * sizeof *counts), total = 0;
    MPI_Aint *displs = malloc((size_t)size * sizeof *displs);
    void *acc = NULL, *mem = NULL, *mem2 = NULL, *result = NULL;
    if (!counts || !displs) {
        free(counts);
        free(displs);
        return mica_error(MPI_ERR_NO_MEM, "no memory for %d counts", size);
    }
    for (int i = 0; i < size; i++) {
        counts[i] = rcounts ? rcounts[i] : rcount;
        displs[i] = (MPI_Aint)total;
        total += counts[i];
    }
    rc = reduce_local(sbuf, total, type, op, comm, &acc, &mem);
    if (rc == MPI_SUCCESS && comm->rank == 0) {
        if (!(result = mica_coll_tmp(total, type, &mem2)))
            rc = mica_coll_no_mem(total, type);
        else
            rc = mica_coll_sendrecv(acc, total, type, 0, result, total, type, 0,
                                    MICA_TAG_REDUCE_SCATTER, comm);
    }
    if (rc == MPI_SUCCESS)
        rc = mica_coll_scatterv_locked(result, counts, displs, type, rbuf, counts[comm->rank], type,
                                       0, comm->local);
    free(mem);
    free(mem2);
    free(counts);
    free(displs);
    return rc;
}

static int undefined(const char *what)
{
    return mica_error(MPI_ERR_COMM, "comm is an intercommunicator, on which %s is not defined",
                      what);
}

int mica_coll_inter_not_yet(const char *fn)
{
    return mica_error(MPI_ERR_UNSUPPORTED_OPERATION, "comm is an intercommunicator: %s is not "
                      "implemented on intercommunicators yet", fn);
}

/* --- the entry points' forms (algorithms.tsv): the arguments as the intracommunicator's ------- */

int mica_coll_inter_barrier(const mica_coll_args_t *a, mica_comm_t *comm)
{
    (void)a;
    return inter_barrier(comm);
}

int mica_coll_inter_bcast(const mica_coll_args_t *a, mica_comm_t *comm)
{
    return inter_bcast(a->rbuf, a->rcount, a->rtype, a->root, comm);
}

int mica_coll_inter_reduce(const mica_coll_args_t *a, mica_comm_t *comm)
{
    return inter_reduce(a->sbuf, a->rbuf, a->rcount, a->rtype, a->op, a->root, comm);
}

int mica_coll_inter_allreduce(const mica_coll_args_t *a, mica_comm_t *comm)
{
    return inter_allreduce(a->sbuf, a->rbuf, a->rcount, a->rtype, a->op, comm);
}

int mica_coll_inter_gather(const mica_coll_args_t *a, mica_comm_t *comm)
{
    return inter_gather(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype, a->root,
                        comm);
}

int mica_coll_inter_gatherv(const mica_coll_args_t *a, mica_comm_t *comm)
{
    return inter_gatherv(a->sbuf, a->scount, a->stype, a->rbuf, a->rcounts, a->rdispls,
                         a->rtype, a->root, comm);
}

int mica_coll_inter_scatter(const mica_coll_args_t *a, mica_comm_t *comm)
{
    return inter_scatter(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype, a->root,
                         comm);
}

int mica_coll_inter_scatterv(const mica_coll_args_t *a, mica_comm_t *comm)
{
    return inter_scatterv(a->sbuf, a->scounts, a->sdispls, a->stype, a->rbuf, a->rcount,
                          a->rtype, a->root, comm);
}

int mica_coll_inter_allgather(const mica_coll_args_t *a, mica_comm_t *comm)
{
    return inter_allgather(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype, comm);
}

int mica_coll_inter_allgatherv(const mica_coll_args_t *a, mica_comm_t *comm)
{
    return inter_allgatherv(a->sbuf, a->scount, a->stype, a->rbuf, a->rcounts, a->rdispls,
                            a->rtype, comm);
}

int mica_coll_inter_alltoall(const mica_coll_args_t *a, mica_comm_t *comm)
{
    return inter_alltoall(a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rtype, comm);
}

int mica_coll_inter_alltoallv(const mica_coll_args_t *a, mica_comm_t *comm)
{
    return inter_alltoallv(a->sbuf, a->scounts, a->sdispls, a->stype, a->rbuf, a->rcounts,
                           a->rdispls, a->rtype, comm);
}

int mica_coll_inter_alltoallw(const mica_coll_args_t *a, mica_comm_t *comm)
{
    int rc = inter_alltoallw(a->sbuf, a->scounts, a->sdispls, a->stypes, a->rbuf, a->rcounts,
                             a->rdispls, a->rtypes, comm);
    return rc;
}

int mica_coll_inter_reduce_scatter(const mica_coll_args_t *a, mica_comm_t *comm)
{
    int rc = mica_coll_check_counts(comm->size, a->rcounts, "recvcounts");
    return rc != MPI_SUCCESS ? rc : inter_reduce_scatter(a->sbuf, a->rbuf, 0, a->rcounts,
                                                         a->rtype, a->op, comm);
}

int mica_coll_inter_reduce_scatter_block(const mica_coll_args_t *a, mica_comm_t *comm)
{
    return inter_reduce_scatter(a->sbuf, a->rbuf, a->rcount, NULL, a->rtype, a->op, comm);
}

int mica_coll_inter_scan(const mica_coll_args_t *a, mica_comm_t *comm)
{
    (void)a, (void)comm;
    return undefined("MPI_Scan");
}

int mica_coll_inter_exscan(const mica_coll_args_t *a, mica_comm_t *comm)
{
    (void)a, (void)comm;
    return undefined("MPI_Exscan");
}
