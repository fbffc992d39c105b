/* The argument checks shared by the collectives' entry points (blocking, nonblocking and
 * persistent alike), and the widening of the int count and displacement arrays of their MPI_X
 * forms for the MPI_Count core of their MPI_X_c forms (coll.h). */
#include <stdlib.h>

#include "coll/algorithms.h"
#include "core/errors.h"

/* --- argument checks ------------------------------------------------------------------------ */

int mica_coll_check_type(const mica_type_t *type, const char *what)
{
    if (MICA_LIKELY(mica_type_ready(type)))
        return MPI_SUCCESS;
    return mica_error(MPI_ERR_TYPE, "%s is not committed: call MPI_Type_commit first", what);
}

int mica_coll_check_op(const mica_op_t *op, const mica_type_t *type)
{
    int rc = mica_coll_check_type(type, "datatype");
    if (rc == MPI_SUCCESS && mica_op_rma_only(op))
        return mica_error(MPI_ERR_OP, "op is %s, which only the one-sided accumulate functions "
                          "may use", mica_op_name(op));
    return rc != MPI_SUCCESS ? rc : mica_op_check(op, type);
}

int mica_coll_check_counts(int n, const MPI_Count *counts, const char *what)
{
    if (!counts)
        return mica_error(MPI_ERR_ARG, "%s is NULL", what);
    for (int i = 0; i < n; i++)
        if (counts[i] < 0)
            return mica_error(MPI_ERR_COUNT, "%s[%d]=%lld is negative", what, i,
                              (long long)counts[i]);
    return MPI_SUCCESS;
}

int mica_coll_check_rooted(const void *sendbuf, mica_type_t *sendtype, const void *recvbuf,
                           mica_type_t *recvtype, int root, mica_comm_t *comm, int gather)
{
    /* A gather's send side and a scatter's receive side are significant everywhere (but at an
     * MPI_IN_PLACE root); the other side only at the root. */
    const void *everywhere_buf = gather ? sendbuf : recvbuf;
    const void *root_buf = gather ? recvbuf : sendbuf;
    mica_type_t *everywhere_type = gather ? sendtype : recvtype;
    mica_type_t *root_type = gather ? recvtype : sendtype;
    const char *ename = gather ? "sendbuf" : "recvbuf", *rname = gather ? "recvbuf" : "sendbuf";
    int rc = MPI_SUCCESS;
    if (everywhere_buf != MPI_IN_PLACE)
        rc = mica_coll_check_type(everywhere_type, gather ? "sendtype" : "recvtype");
    else if (comm->rank != root)
        rc = mica_error(MPI_ERR_BUFFER, "%s is MPI_IN_PLACE on rank %d, which is not the root "
                        "(%d)", ename, comm->rank, root);
    if (rc == MPI_SUCCESS && comm->rank == root) {
        rc = mica_coll_check_type(root_type, gather ? "recvtype" : "sendtype");
        if (rc == MPI_SUCCESS && root_buf == MPI_IN_PLACE)
            rc = mica_error(MPI_ERR_BUFFER, "%s is MPI_IN_PLACE: only %s may be", rname, ename);
    }
    return rc;
}

int mica_coll_check_all(const void *sendbuf, mica_type_t *sendtype, const void *recvbuf,
                        mica_type_t *recvtype)
{
    int rc = sendbuf == MPI_IN_PLACE ? MPI_SUCCESS : mica_coll_check_type(sendtype, "sendtype");
    if (rc == MPI_SUCCESS)
        rc = mica_coll_check_type(recvtype, "recvtype");
    if (rc == MPI_SUCCESS && recvbuf == MPI_IN_PLACE)
        rc = mica_error(MPI_ERR_BUFFER, "recvbuf is MPI_IN_PLACE: only sendbuf may be");
    return rc;
}

int mica_coll_check_reduction(const void *sendbuf, const void *recvbuf, MPI_Count count,
                              mica_type_t *type, mica_op_t *op, int aliased)
{
    int rc = mica_coll_check_op(op, type);
    if (rc == MPI_SUCCESS && recvbuf == MPI_IN_PLACE)
        rc = mica_error(MPI_ERR_BUFFER, "recvbuf is MPI_IN_PLACE: only sendbuf may be");
    if (rc == MPI_SUCCESS && aliased && sendbuf == recvbuf && count > 0)
        rc = mica_error(MPI_ERR_BUFFER, "sendbuf and recvbuf are the same buffer: use "
                        "MPI_IN_PLACE as sendbuf");
    return rc;
}

int mica_coll_check_v(const MPI_Count *counts, const void *displs, int n, const char *cname,
                      const char *dname)
{
    int rc = mica_coll_check_counts(n, counts, cname);
    if (rc == MPI_SUCCESS && !displs)
        rc = mica_error(MPI_ERR_ARG, "%s is NULL", dname);
    return rc;
}

int mica_coll_check_vbuf(const void *buf, int n, const MPI_Count *counts, const MPI_Aint *displs,
                         const mica_type_t *type, mica_type_t *const *types, const char *what)
{
    if (buf)
        return MPI_SUCCESS;
    for (int i = 0; i < n; i++) {
        const mica_type_t *t = types ? types[i] : type;
        MPI_Aint at = !displs || !t ? 0 : types ? displs[i] : displs[i] * t->extent;
        if (counts[i] > 0 && t && t->size > 0 && at + t->true_lb == 0)
            return mica_error(MPI_ERR_BUFFER, "%s is NULL with %lld elements at its offset 0",
                              what, (long long)counts[i]);
    }
    return MPI_SUCCESS;
}

/* Alltoallw's datatype arrays come as handles: look each one up and check it. */
int mica_coll_lookup_types(int n, const MPI_Datatype *in, const MPI_Count *counts,
                           const char *what, mica_type_t **out)
{
    if (!in)
        return mica_error(MPI_ERR_ARG, "%s is NULL", what);
    for (int j = 0; j < n; j++) {
        out[j] = mica_type_lookup(in[j]);
        if (!out[j]) {
            if (counts && counts[j] == 0) {   /* a zero count's type is never used: any goes */
                out[j] = &mica_type_MPI_BYTE;
                continue;
            }
            return mica_error(MPI_ERR_TYPE, "%s[%d] is not a valid datatype", what, j);
        }
        if (!mica_type_ready(out[j]))
            return mica_error(MPI_ERR_TYPE, "%s[%d] is not committed: call MPI_Type_commit "
                              "first", what, j);
    }
    return MPI_SUCCESS;
}

int mica_coll_lookup_alltoallw(mica_coll_args_t *a, const MPI_Datatype *sendtypes,
                               const MPI_Datatype *recvtypes, mica_type_t ***types)
{
    int ns = a->nsend, nr = a->nrecv, rc = MPI_SUCCESS;
    mica_type_t **t = *types = malloc(((size_t)ns + nr + 1) * sizeof *t);
    if (!t)
        return mica_error(MPI_ERR_NO_MEM, "no memory for %d datatypes", ns + nr);
    if (ns)
        rc = mica_coll_lookup_types(ns, sendtypes, a->scounts, "sendtypes", t);
    if (rc == MPI_SUCCESS && nr)
        rc = mica_coll_lookup_types(nr, recvtypes, a->rcounts, "recvtypes", t + ns);
    a->stypes = ns ? t : NULL;
    a->rtypes = nr ? t + ns : NULL;
    return rc;
}

/* --- widening the int arrays ---------------------------------------------------------------- */

int mica_coll_widen_counts(int n, const int *in, MPI_Count **out)
{
    *out = NULL;
    if (!in)
        return MPI_SUCCESS;
    MPI_Count *a = malloc((n > 0 ? (size_t)n : 1) * sizeof *a);
    if (!a)
        return mica_error(MPI_ERR_NO_MEM, "no memory for %d counts", n);
    for (int i = 0; i < n; i++)
        a[i] = in[i];
    *out = a;
    return MPI_SUCCESS;
}

int mica_coll_widen_displs(int n, const int *in, MPI_Aint **out)
{
    *out = NULL;
    if (!in)
        return MPI_SUCCESS;
    MPI_Aint *a = malloc((n > 0 ? (size_t)n : 1) * sizeof *a);
    if (!a)
        return mica_error(MPI_ERR_NO_MEM, "no memory for %d displacements", n);
    for (int i = 0; i < n; i++)
        a[i] = in[i];
    *out = a;
    return MPI_SUCCESS;
}

/* --- one check per collective, for its three forms (algorithms.h) --------------------------- */

/* The standard forbids aliased buffers: a send buffer that is the receive buffer, or this
 * process's own block of it (`slot`), is an error, as MPICH reports it (its errors/coll/noalias*),
 * unless no data moves; MPI_IN_PLACE is the way to say it. */
static int check_alias(const void *sendbuf, const void *recvbuf, const void *slot,
                       MPI_Count count, const mica_type_t *type)
{
    if (sendbuf == MPI_IN_PLACE || !sendbuf || (sendbuf != recvbuf && sendbuf != slot) ||
        (type && count * type->size <= 0))
        return MPI_SUCCESS;
    return mica_error(MPI_ERR_BUFFER, "sendbuf and recvbuf are the same memory (%s): use "
                      "MPI_IN_PLACE", sendbuf == recvbuf ? "the same address"
                                                         : "this process's own block");
}

/* Where block i of a gathered buffer starts: at i * count elements, or displs[i] elements. */
static const void *block(const void *buf, int i, MPI_Count count, const MPI_Aint *displs,
                         const mica_type_t *type)
{
    MPI_Aint at = displs ? displs[i] : (MPI_Aint)(i * count);
    return (const char *)buf + at * type->extent;
}

int mica_coll_check_barrier(const mica_coll_args_t *a, mica_comm_t *comm)
{
    (void)a, (void)comm;
    return MPI_SUCCESS;
}

int mica_coll_check_bcast(const mica_coll_args_t *a, mica_comm_t *comm)
{
    (void)comm;
    int rc = mica_coll_check_type(a->rtype, "datatype");
    if (rc == MPI_SUCCESS && a->rbuf == MPI_IN_PLACE)
        rc = mica_error(MPI_ERR_BUFFER, "buffer is MPI_IN_PLACE, which a broadcast does not allow");
    return rc;
}

int mica_coll_check_reduce(const mica_coll_args_t *a, mica_comm_t *comm)
{
    int root = comm->rank == a->root;
    int rc = mica_coll_check_reduction(a->sbuf, a->rbuf, a->rcount, a->rtype, a->op, root);
    if (rc == MPI_SUCCESS && a->sbuf == MPI_IN_PLACE && !root)
        rc = mica_error(MPI_ERR_BUFFER, "sendbuf is MPI_IN_PLACE on rank %d, which is not the "
                        "root (%d)", comm->rank, a->root);
    return rc;
}

int mica_coll_check_allreduce(const mica_coll_args_t *a, mica_comm_t *comm)
{
    (void)comm;
    return mica_coll_check_reduction(a->sbuf, a->rbuf, a->rcount, a->rtype, a->op, 1);
}

int mica_coll_check_gather(const mica_coll_args_t *a, mica_comm_t *comm)
{
    int rc = mica_coll_check_rooted(a->sbuf, a->stype, a->rbuf, a->rtype, a->root, comm, 1);
    if (rc == MPI_SUCCESS && comm->rank == a->root)
        rc = check_alias(a->sbuf, a->rbuf, block(a->rbuf, comm->rank, a->rcount, a->rdispls,
                                                  a->rtype), a->scount, a->stype);
    return rc;
}

int mica_coll_check_gatherv(const mica_coll_args_t *a, mica_comm_t *comm)
{
    int rc = mica_coll_check_gather(a, comm);
    if (rc == MPI_SUCCESS && comm->rank == a->root)
        rc = mica_coll_check_v(a->rcounts, a->rdispls, a->nrecv, "recvcounts", "displs");
    if (rc == MPI_SUCCESS && comm->rank == a->root)
        rc = mica_coll_check_vbuf(a->rbuf, a->nrecv, a->rcounts, a->rdispls, a->rtype, NULL,
                                  "recvbuf");
    return rc;
}

int mica_coll_check_scatter(const mica_coll_args_t *a, mica_comm_t *comm)
{
    int rc = mica_coll_check_rooted(a->sbuf, a->stype, a->rbuf, a->rtype, a->root, comm, 0);
    if (rc == MPI_SUCCESS && comm->rank == a->root && a->rbuf != MPI_IN_PLACE)
        rc = check_alias(a->rbuf, a->sbuf, block(a->sbuf, comm->rank, a->scount, a->sdispls,
                                                  a->stype), a->rcount, a->rtype);
    return rc;
}

int mica_coll_check_scatterv(const mica_coll_args_t *a, mica_comm_t *comm)
{
    int rc = mica_coll_check_scatter(a, comm);
    if (rc == MPI_SUCCESS && comm->rank == a->root)
        rc = mica_coll_check_v(a->scounts, a->sdispls, a->nsend, "sendcounts", "displs");
    if (rc == MPI_SUCCESS && comm->rank == a->root)
        rc = mica_coll_check_vbuf(a->sbuf, a->nsend, a->scounts, a->sdispls, a->stype, NULL,
                                  "sendbuf");
    return rc;
}

int mica_coll_check_allgather(const mica_coll_args_t *a, mica_comm_t *comm)
{
    int rc = mica_coll_check_all(a->sbuf, a->stype, a->rbuf, a->rtype);
    if (rc == MPI_SUCCESS && (!a->rdispls || a->rcounts))   /* allgatherv: its arrays first */
        rc = check_alias(a->sbuf, a->rbuf, block(a->rbuf, comm->rank, a->rcount, a->rdispls,
                                                 a->rtype), a->scount, a->stype);
    return rc;
}

int mica_coll_check_allgatherv(const mica_coll_args_t *a, mica_comm_t *comm)
{
    int rc = mica_coll_check_allgather(a, comm);
    if (rc == MPI_SUCCESS)
        rc = mica_coll_check_v(a->rcounts, a->rdispls, a->nrecv, "recvcounts", "displs");
    return rc != MPI_SUCCESS ? rc : mica_coll_check_vbuf(a->rbuf, a->nrecv, a->rcounts, a->rdispls,
                                                         a->rtype, NULL, "recvbuf");
}

int mica_coll_check_alltoall(const mica_coll_args_t *a, mica_comm_t *comm)
{
    (void)comm;
    int rc = mica_coll_check_all(a->sbuf, a->stype, a->rbuf, a->rtype);
    if (rc == MPI_SUCCESS && !a->scounts)       /* alltoallv, alltoallw: check_both_v's */
        rc = check_alias(a->sbuf, a->rbuf, a->rbuf, a->scount, a->stype);
    return rc;
}

/* Both sides' arrays (the send side's are ignored with MPI_IN_PLACE: nsend is 0 then), the
 * buffers they place data in (alltoallw: its types per process, displacements in bytes), and
 * that they are two buffers where any data moves. */
static int check_both_v(const mica_coll_args_t *a)
{
    int rc = MPI_SUCCESS, any = 0;
    for (int i = 0; a->sbuf != MPI_IN_PLACE && a->scounts && i < a->nsend && !any; i++)
        any = a->scounts[i] > 0;
    if (a->sbuf != MPI_IN_PLACE)
        rc = mica_coll_check_v(a->scounts, a->sdispls, a->nsend, "sendcounts", "sdispls");
    if (rc == MPI_SUCCESS)
        rc = mica_coll_check_v(a->rcounts, a->rdispls, a->nrecv, "recvcounts", "rdispls");
    if (rc == MPI_SUCCESS && a->sbuf != MPI_IN_PLACE)
        rc = mica_coll_check_vbuf(a->sbuf, a->nsend, a->scounts, a->sdispls, a->stype, a->stypes,
                                  "sendbuf");
    if (rc == MPI_SUCCESS)
        rc = mica_coll_check_vbuf(a->rbuf, a->nrecv, a->rcounts, a->rdispls, a->rtype, a->rtypes,
                                  "recvbuf");
    return rc != MPI_SUCCESS || !any ? rc : check_alias(a->sbuf, a->rbuf, a->rbuf, 1, NULL);
}

int mica_coll_check_alltoallv(const mica_coll_args_t *a, mica_comm_t *comm)
{
    int rc = mica_coll_check_alltoall(a, comm);
    return rc != MPI_SUCCESS ? rc : check_both_v(a);
}

/* The datatypes are checked as mica_coll_lookup_alltoallw looks them up. */
int mica_coll_check_alltoallw(const mica_coll_args_t *a, mica_comm_t *comm)
{
    (void)comm;
    if (a->rbuf == MPI_IN_PLACE)
        return mica_error(MPI_ERR_BUFFER, "recvbuf is MPI_IN_PLACE: only sendbuf may be");
    return check_both_v(a);
}

int mica_coll_check_reduce_scatter(const mica_coll_args_t *a, mica_comm_t *comm)
{
    int rc = mica_coll_check_counts(a->nrecv, a->rcounts, "recvcounts");
    MPI_Count mine = rc == MPI_SUCCESS ? a->rcounts[comm->rank] : 0, all = 0;
    for (int i = 0; rc == MPI_SUCCESS && i < a->nrecv; i++)
        all += a->rcounts[i];
    if (rc == MPI_SUCCESS)
        rc = mica_coll_check_reduction(a->sbuf, a->rbuf, mine, a->rtype, a->op, 1);
    if (rc == MPI_SUCCESS)
        rc = mica_coll_check_vbuf(a->sbuf, 1, &all, NULL, a->rtype, NULL, "sendbuf");
    return rc != MPI_SUCCESS ? rc : mica_coll_check_vbuf(a->rbuf, 1, &mine, NULL, a->rtype, NULL,
                                                         "recvbuf");
}

int mica_coll_check_reduce_scatter_block(const mica_coll_args_t *a, mica_comm_t *comm)
{
    (void)comm;
    return mica_coll_check_reduction(a->sbuf, a->rbuf, a->rcount, a->rtype, a->op, 1);
}

int mica_coll_check_scan(const mica_coll_args_t *a, mica_comm_t *comm)
{
    (void)comm;
    return mica_coll_check_reduction(a->sbuf, a->rbuf, a->rcount, a->rtype, a->op, 1);
}

int mica_coll_check_exscan(const mica_coll_args_t *a, mica_comm_t *comm)
{
    return mica_coll_check_scan(a, comm);
}
