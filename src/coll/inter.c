/* The collectives on intercommunicators, with the standard's meaning: data moves between the
 * two groups. Rooted ones name the root by its rank in the remote group; in the root's own group
 * the root says MPI_ROOT and the others MPI_PROC_NULL (they do nothing).
 *
 * Each is written once as the builder of a schedule (sched.h), so the blocking, nonblocking and
 * persistent forms all run it (mica_coll_launch). Simple algorithms: the rooted data movers and
 * the all-to-all ones post a message per remote process; the others run their local phase on
 * the intercommunicator's hidden local intracommunicator (comm->local, mica_sched_on) with the
 * intracommunicator's own builders, and the two leaders (local rank 0) swap the result:
 *  - barrier: local barrier, leaders swap an empty message, local barrier;
 *  - bcast: the root sends to remote rank 0, which broadcasts in its group;
 *  - reduce: a local reduce to rank 0, which sends to the root;
 *  - allreduce: a local reduce, the leaders swap, a local broadcast;
 *  - reduce_scatter: a local reduce of the whole vector, the leaders swap, a local scatterv.
 * Messages travel on the two communicators' collective contexts with the schedule's tags: the
 * phases follow one another in the same order everywhere, so their messages meet in order.
 * MPI_IN_PLACE has no meaning on an intercommunicator: it is refused. */
#include <stdlib.h>

#include "coll/algorithms.h"
#include "coll/inter.h"
#include "core/errors.h"

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

/* The leaders swap: our leader sends `count` elements of `type` at sbuf to the remote leader and
 * receives as many into rbuf (both NULL: an empty message); the steps after it go on the local
 * communicator again. */
static void leaders_swap(mica_sched_t *s, mica_comm_t *comm, const void *sbuf, void *rbuf,
                         MPI_Count count, mica_type_t *type)
{
    if (comm->rank == 0) {
        mica_sched_on(s, comm);
        mica_sched_recv(s, rbuf, count, type, 0);
        mica_sched_send(s, sbuf, count, type, 0);
        mica_sched_barrier(s);
    }
    mica_sched_on(s, comm->local);
}

/* --- barrier, bcast, reduce, allreduce -------------------------------------------------------- */

static void build_barrier(mica_sched_t *s, const mica_coll_args_t *a, mica_comm_t *comm)
{
    mica_sched_on(s, comm->local);
    mica_coll_build_barrier(s, a, comm->local);
    mica_sched_barrier(s);
    leaders_swap(s, comm, NULL, NULL, 0, BYTE);
    mica_coll_build_barrier(s, a, comm->local);   /* the others wait until their leader heard */
}

static int check_bcast(const mica_coll_args_t *a)
{
    return a->root == MPI_PROC_NULL ? MPI_SUCCESS
                                    : check_side(a->rbuf, a->rtype, "buffer", "datatype");
}

static void build_bcast(mica_sched_t *s, const mica_coll_args_t *a, mica_comm_t *comm)
{
    if (a->root == MPI_PROC_NULL)
        return;
    if (a->root == MPI_ROOT) {
        mica_sched_send(s, a->rbuf, a->rcount, a->rtype, 0);
        return;
    }
    if (comm->rank == 0) {
        mica_sched_recv(s, a->rbuf, a->rcount, a->rtype, a->root);
        mica_sched_barrier(s);
    }
    mica_coll_args_t local = {.rbuf = a->rbuf, .rcount = a->rcount, .rtype = a->rtype, .root = 0};
    mica_sched_on(s, comm->local);
    mica_coll_build_bcast(s, &local, comm->local);
}

/* The reduction of the local group's sbufs, at local rank 0 into a temporary (returned there;
 * NULL elsewhere). */
static void *reduce_local(mica_sched_t *s, const void *sbuf, MPI_Count count, mica_type_t *type,
                          mica_op_t *op, mica_comm_t *comm)
{
    void *acc = comm->rank == 0 ? mica_sched_tmp(s, count, type) : NULL;
    mica_coll_args_t local = {.sbuf = sbuf, .rbuf = acc, .rcount = count, .rtype = type,
                              .op = op, .root = 0};
    mica_sched_on(s, comm->local);
    mica_coll_build_reduce(s, &local, comm->local);
    mica_sched_barrier(s);
    return acc;
}

static int check_reduce(const mica_coll_args_t *a)
{
    if (a->root == MPI_PROC_NULL)
        return MPI_SUCCESS;
    int rc = mica_coll_check_op(a->op, a->rtype);
    if (rc == MPI_SUCCESS)
        rc = a->root == MPI_ROOT ? no_in_place(a->rbuf, "recvbuf") : no_in_place(a->sbuf,
                                                                                  "sendbuf");
    return rc;
}

static void build_reduce(mica_sched_t *s, const mica_coll_args_t *a, mica_comm_t *comm)
{
    if (a->root == MPI_PROC_NULL)
        return;
    if (a->root == MPI_ROOT) {
        mica_sched_recv(s, a->rbuf, a->rcount, a->rtype, 0);
        return;
    }
    void *acc = reduce_local(s, a->sbuf, a->rcount, a->rtype, a->op, comm);
    if (comm->rank == 0) {
        mica_sched_on(s, comm);
        mica_sched_send(s, acc, a->rcount, a->rtype, a->root);
    }
}

static void build_allreduce(mica_sched_t *s, const mica_coll_args_t *a, mica_comm_t *comm)
{
    void *acc = reduce_local(s, a->sbuf, a->rcount, a->rtype, a->op, comm);
    leaders_swap(s, comm, acc, a->rbuf, a->rcount, a->rtype);
    mica_coll_args_t local = {.rbuf = a->rbuf, .rcount = a->rcount, .rtype = a->rtype, .root = 0};
    mica_coll_build_bcast(s, &local, comm->local);
}

/* --- gather, scatter -------------------------------------------------------------------------- */

/* Gather (gather = 1) and scatter: the significant buffers, and the root's counts. */
static int check_rooted(const mica_coll_args_t *a, mica_comm_t *comm, int gather, int v)
{
    if (a->root == MPI_PROC_NULL)
        return MPI_SUCCESS;
    int rc, n = comm->remote_size;
    if ((a->root == MPI_ROOT) == gather)   /* this process receives */
        rc = check_side(a->rbuf, a->rtype, "recvbuf", "recvtype");
    else
        rc = check_side(a->sbuf, a->stype, "sendbuf", "sendtype");
    if (rc == MPI_SUCCESS && a->root == MPI_ROOT && v)
        rc = gather ? mica_coll_check_v(a->rcounts, a->rdispls, n, "recvcounts", "displs")
                    : mica_coll_check_v(a->scounts, a->sdispls, n, "sendcounts", "displs");
    return rc;
}

/* The root has a block per remote process on its side (a gather's receive side, a scatter's
 * send side); the others one message on the other side. */
static void build_rooted(mica_sched_t *s, const mica_coll_args_t *a, mica_comm_t *comm,
                         int gather)
{
    if (a->root == MPI_PROC_NULL)
        return;
    if (a->root != MPI_ROOT) {
        if (gather)
            mica_sched_send(s, a->sbuf, a->scount, a->stype, a->root);
        else
            mica_sched_recv(s, a->rbuf, a->rcount, a->rtype, a->root);
        return;
    }
    for (int i = 0; i < comm->remote_size; i++) {
        MPI_Count n;
        if (gather) {
            void *p = mica_coll_block(a->rbuf, a->rcount, a->rcounts, a->rdispls, a->rtype, i,
                                      &n);
            mica_sched_recv(s, p, n, a->rtype, i);
        } else {
            void *p = mica_coll_block(a->sbuf, a->scount, a->scounts, a->sdispls, a->stype, i,
                                      &n);
            mica_sched_send(s, p, n, a->stype, i);
        }
    }
}

static void build_gather(mica_sched_t *s, const mica_coll_args_t *a, mica_comm_t *comm)
{
    build_rooted(s, a, comm, 1);
}

static void build_scatter(mica_sched_t *s, const mica_coll_args_t *a, mica_comm_t *comm)
{
    build_rooted(s, a, comm, 0);
}

/* --- allgather, alltoall ---------------------------------------------------------------------- */

/* Every process receives a block from every remote process, and sends it its one block
 * (allgather: `same`) or its block of the send buffer. */
static void build_all(mica_sched_t *s, const mica_coll_args_t *a, mica_comm_t *comm, int same)
{
    int n = comm->remote_size;
    for (int i = 0; i < n; i++) {
        MPI_Count c;
        void *p = mica_coll_block(a->rbuf, a->rcount, a->rcounts, a->rdispls, a->rtype, i, &c);
        mica_sched_recv(s, p, c, a->rtype, i);
    }
    for (int i = 0; i < n; i++) {
        MPI_Count c = a->scount;
        const void *p = same ? a->sbuf : mica_coll_block(a->sbuf, a->scount, a->scounts,
                                                         a->sdispls, a->stype, i, &c);
        mica_sched_send(s, p, c, a->stype, i);
    }
}

static void build_allgather(mica_sched_t *s, const mica_coll_args_t *a, mica_comm_t *comm)
{
    build_all(s, a, comm, 1);
}

static void build_alltoall(mica_sched_t *s, const mica_coll_args_t *a, mica_comm_t *comm)
{
    build_all(s, a, comm, 0);
}

/* A datatype per block, byte displacements. */
static void build_alltoallw(mica_sched_t *s, const mica_coll_args_t *a, mica_comm_t *comm)
{
    int n = comm->remote_size;
    for (int i = 0; i < n; i++)
        mica_sched_recv(s, (char *)a->rbuf + a->rdispls[i], a->rcounts[i], a->rtypes[i], i);
    for (int i = 0; i < n; i++)
        mica_sched_send(s, (const char *)a->sbuf + a->sdispls[i], a->scounts[i], a->stypes[i],
                        i);
}

static int check_all(const mica_coll_args_t *a)
{
    int rc = check_side(a->sbuf, a->stype, "sendbuf", "sendtype");
    return rc != MPI_SUCCESS ? rc : check_side(a->rbuf, a->rtype, "recvbuf", "recvtype");
}

/* --- reduce_scatter --------------------------------------------------------------------------- */

/* Our group's blocks (a->rcounts, or a->rcount each) split the other group's result: the two
 * totals are equal. */
static void build_reduce_scatter(mica_sched_t *s, const mica_coll_args_t *a, mica_comm_t *comm)
{
    int size = comm->size;
    MPI_Count *counts = mica_sched_mem(s, (size_t)size * sizeof *counts), total = 0;
    MPI_Aint *displs = mica_sched_mem(s, (size_t)size * sizeof *displs);
    if (!counts || !displs)
        return;                       /* the schedule fails */
    for (int i = 0; i < size; i++) {
        counts[i] = a->rcounts ? a->rcounts[i] : a->rcount;
        displs[i] = (MPI_Aint)total;
        total += counts[i];
    }
    void *acc = reduce_local(s, a->sbuf, total, a->rtype, a->op, comm);
    void *result = comm->rank == 0 ? mica_sched_tmp(s, total, a->rtype) : NULL;
    leaders_swap(s, comm, acc, result, total, a->rtype);
    mica_coll_args_t local = {.sbuf = result, .scounts = counts, .sdispls = displs,
                              .stype = a->rtype, .rbuf = a->rbuf, .rcount = counts[comm->rank],
                              .rtype = a->rtype, .root = 0, .nsend = size};
    mica_coll_build_scatterv(s, &local, comm->local);
}

static int undefined(const char *what)
{
    return mica_error(MPI_ERR_COMM, "comm is an intercommunicator, on which %s is not defined",
                      what);
}

/* --- the entry points' forms (algorithms.tsv): the arguments as the intracommunicator's ------- */

/* Launch the collective that `build` builds in `form` if its checks (rc) passed. */
static int run(int rc, enum mica_coll_form form, int tag, mica_coll_build_fn *build,
               const mica_coll_args_t *a, mica_comm_t *comm, MPI_Request *request)
{
    return rc != MPI_SUCCESS ? rc : mica_coll_launch(form, tag, build, a, comm, request);
}

int mica_coll_inter_barrier(enum mica_coll_form form, const mica_coll_args_t *a,
                            mica_comm_t *comm, MPI_Request *request)
{
    return run(MPI_SUCCESS, form, MICA_TAG_BARRIER, build_barrier, a, comm, request);
}

int mica_coll_inter_bcast(enum mica_coll_form form, const mica_coll_args_t *a, mica_comm_t *comm,
                          MPI_Request *request)
{
    return run(check_bcast(a), form, MICA_TAG_BCAST, build_bcast, a, comm, request);
}

int mica_coll_inter_reduce(enum mica_coll_form form, const mica_coll_args_t *a,
                           mica_comm_t *comm, MPI_Request *request)
{
    return run(check_reduce(a), form, MICA_TAG_REDUCE, build_reduce, a, comm, request);
}

int mica_coll_inter_allreduce(enum mica_coll_form form, const mica_coll_args_t *a,
                              mica_comm_t *comm, MPI_Request *request)
{
    return run(check_reduction(a->sbuf, a->rbuf, a->op, a->rtype),
               form, MICA_TAG_ALLREDUCE, build_allreduce, a, comm, request);
}

int mica_coll_inter_gather(enum mica_coll_form form, const mica_coll_args_t *a,
                           mica_comm_t *comm, MPI_Request *request)
{
    return run(check_rooted(a, comm, 1, 0), form, MICA_TAG_GATHER, build_gather, a, comm, request);
}

int mica_coll_inter_gatherv(enum mica_coll_form form, const mica_coll_args_t *a,
                            mica_comm_t *comm, MPI_Request *request)
{
    return run(check_rooted(a, comm, 1, 1), form, MICA_TAG_GATHER, build_gather, a, comm, request);
}

int mica_coll_inter_scatter(enum mica_coll_form form, const mica_coll_args_t *a,
                            mica_comm_t *comm, MPI_Request *request)
{
    return run(check_rooted(a, comm, 0, 0),
               form, MICA_TAG_SCATTER, build_scatter, a, comm, request);
}

int mica_coll_inter_scatterv(enum mica_coll_form form, const mica_coll_args_t *a,
                             mica_comm_t *comm, MPI_Request *request)
{
    return run(check_rooted(a, comm, 0, 1),
               form, MICA_TAG_SCATTER, build_scatter, a, comm, request);
}

int mica_coll_inter_allgather(enum mica_coll_form form, const mica_coll_args_t *a,
                              mica_comm_t *comm, MPI_Request *request)
{
    return run(check_all(a), form, MICA_TAG_ALLGATHER, build_allgather, a, comm, request);
}

int mica_coll_inter_allgatherv(enum mica_coll_form form, const mica_coll_args_t *a,
                               mica_comm_t *comm, MPI_Request *request)
{
    int rc = mica_coll_check_v(a->rcounts, a->rdispls, comm->remote_size, "recvcounts",
                               "displs");
    return run(rc != MPI_SUCCESS ? rc : check_all(a),
               form, MICA_TAG_ALLGATHER, build_allgather, a, comm, request);
}

int mica_coll_inter_alltoall(enum mica_coll_form form, const mica_coll_args_t *a,
                             mica_comm_t *comm, MPI_Request *request)
{
    return run(check_all(a), form, MICA_TAG_ALLTOALL, build_alltoall, a, comm, request);
}

int mica_coll_inter_alltoallv(enum mica_coll_form form, const mica_coll_args_t *a,
                              mica_comm_t *comm, MPI_Request *request)
{
    int rc = no_in_place(a->sbuf, "sendbuf");
    if (rc == MPI_SUCCESS)
        rc = mica_coll_check_v(a->scounts, a->sdispls, comm->remote_size, "sendcounts",
                               "sdispls");
    if (rc == MPI_SUCCESS)
        rc = mica_coll_check_v(a->rcounts, a->rdispls, comm->remote_size, "recvcounts",
                               "rdispls");
    return run(rc, form, MICA_TAG_ALLTOALL, build_alltoall, a, comm, request);
}

int mica_coll_inter_alltoallw(enum mica_coll_form form, const mica_coll_args_t *a,
                              mica_comm_t *comm, MPI_Request *request)
{
    int rc = no_in_place(a->sbuf, "sendbuf");
    return run(rc != MPI_SUCCESS ? rc : no_in_place(a->rbuf, "recvbuf"),
               form, MICA_TAG_ALLTOALL, build_alltoallw, a, comm, request);
}

int mica_coll_inter_reduce_scatter(enum mica_coll_form form, const mica_coll_args_t *a,
                                   mica_comm_t *comm, MPI_Request *request)
{
    int rc = mica_coll_check_counts(comm->size, a->rcounts, "recvcounts");
    return run(rc != MPI_SUCCESS ? rc : check_reduction(a->sbuf, a->rbuf, a->op, a->rtype),
               form, MICA_TAG_REDUCE_SCATTER, build_reduce_scatter, a, comm, request);
}

int mica_coll_inter_reduce_scatter_block(enum mica_coll_form form, const mica_coll_args_t *a,
                                         mica_comm_t *comm, MPI_Request *request)
{
    return run(check_reduction(a->sbuf, a->rbuf, a->op, a->rtype),
               form, MICA_TAG_REDUCE_SCATTER, build_reduce_scatter, a, comm, request);
}

int mica_coll_inter_scan(enum mica_coll_form form, const mica_coll_args_t *a, mica_comm_t *comm,
                         MPI_Request *request)
{
    (void)form, (void)a, (void)comm, (void)request;
    return undefined("MPI_Scan");
}

int mica_coll_inter_exscan(enum mica_coll_form form, const mica_coll_args_t *a,
                           mica_comm_t *comm, MPI_Request *request)
{
    (void)form, (void)a, (void)comm, (void)request;
    return undefined("MPI_Exscan");
}
