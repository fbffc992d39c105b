/* Persistent collectives on intracommunicators (persist.h): MPI_Barrier_init ...
 * MPI_Exscan_init. Each start runs the schedule of the nonblocking form (algorithms.h, nbc.c),
 * built from the arguments bound at init; the init checks are those of the nonblocking forms. */
#include <stdlib.h>
#include <string.h>

#include "coll/algorithms.h"
#include "coll/nbc.h"
#include "coll/persist.h"
#include "core/errors.h"
#include "core/progress.h"
#include "core/request.h"
#include "core_api.h"

struct mica_pcoll {
    mica_coll_build_fn *build;
    mica_coll_args_t args;            /* its arrays are the copies below */
    uint32_t seq;                     /* the collective sequence number taken at init */
    int nkept;
    mica_type_t **kept;               /* the datatypes kept alive */
    /* counts, displacements and datatype tables follow */
};

/* --- the request ---------------------------------------------------------------------------- */

/* Copy n elements of `size` bytes from `src` to *at (advancing it); NULL stays NULL. */
static void *copy_array(const void *src, size_t n, size_t size, char **at)
{
    if (!src)
        return NULL;
    void *dst = *at;
    memcpy(dst, src, n * size);
    *at += n * size;
    return dst;
}

static void keep(mica_pcoll_t *p, mica_type_t *type)
{
    if (type) {
        mica_type_retain(type);
        p->kept[p->nkept++] = type;
    }
}

int mica_pcoll_init(mica_comm_t *comm, mica_coll_build_fn *build, const mica_coll_args_t *a,
                    MPI_Request *request)
{
    MICA_INTRA_ONLY(comm);
    size_t n = (size_t)a->nsend + (size_t)a->nrecv;
    size_t bytes = sizeof(mica_pcoll_t) + n * (sizeof(MPI_Count) + sizeof(MPI_Aint)) +
                   (2 * n + 2) * sizeof(mica_type_t *);
    mica_pcoll_t *p = calloc(1, bytes);
    if (!p)
        return mica_error(MPI_ERR_NO_MEM, "no memory for a persistent collective's arguments");
    p->build = build;
    p->args = *a;
    char *at = (char *)(p + 1);       /* MPI_Count and MPI_Aint first: aligned for both */
    p->args.scounts = copy_array(a->scounts, a->nsend, sizeof(MPI_Count), &at);
    p->args.rcounts = copy_array(a->rcounts, a->nrecv, sizeof(MPI_Count), &at);
    p->args.sdispls = copy_array(a->sdispls, a->nsend, sizeof(MPI_Aint), &at);
    p->args.rdispls = copy_array(a->rdispls, a->nrecv, sizeof(MPI_Aint), &at);
    at = (char *)(p + 1) + n * (sizeof(MPI_Count) + sizeof(MPI_Aint));
    p->args.stypes = copy_array(a->stypes, a->nsend, sizeof(mica_type_t *), &at);
    p->args.rtypes = copy_array(a->rtypes, a->nrecv, sizeof(mica_type_t *), &at);
    p->kept = (mica_type_t **)at;

    mica_lock();
    mica_request_t *r = mica_request_new(MICA_REQ_COLL);
    if (!r) {
        mica_unlock();
        free(p);
        return mica_error(MPI_ERR_NO_MEM, "no memory for a request");
    }
    keep(p, a->stype);
    keep(p, a->rtype);
    for (int i = 0; a->stypes && i < a->nsend; i++)
        keep(p, a->stypes[i]);
    for (int i = 0; a->rtypes && i < a->nrecv; i++)
        keep(p, a->rtypes[i]);
    if (a->op)
        mica_op_retain(a->op);
    p->seq = mica_sched_reserve(comm);
    r->persistent = 1;
    r->pcoll = p;
    r->comm = comm;                   /* errors are raised on it; the request keeps it alive */
    mica_comm_retain(comm);
    mica_unlock();
    *request = (MPI_Request)r->obj.handle;
    return MPI_SUCCESS;
}

int mica_pcoll_start(mica_request_t *r)
{
    mica_pcoll_t *p = r->pcoll;
    mica_sched_t *s = mica_sched_new_seq(r->comm, p->seq);
    if (s)
        p->build(s, &p->args, r->comm);
    int rc = mica_sched_start_on(s, r);
    if (rc != MPI_SUCCESS)
        r->active = 0;
    return rc;
}

void mica_pcoll_free(mica_pcoll_t *p)
{
    for (int i = 0; i < p->nkept; i++)
        mica_type_release(p->kept[i]);
    if (p->args.op)
        mica_op_release(p->args.op);
    free(p);
}

/* --- the schedules, from the bound arguments ------------------------------------------------ */

static void build_gather(mica_sched_t *s, const mica_coll_args_t *a, mica_comm_t *comm)
{
    mica_nbc_gather(s, a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rcounts,
                    a->rdispls, a->rtype, a->root, comm);
}

static void build_scatter(mica_sched_t *s, const mica_coll_args_t *a, mica_comm_t *comm)
{
    mica_nbc_scatter(s, a->sbuf, a->scount, a->scounts, a->sdispls, a->stype, a->rbuf,
                     a->rcount, a->rtype, a->root, comm);
}

static void build_allgather(mica_sched_t *s, const mica_coll_args_t *a, mica_comm_t *comm)
{
    mica_nbc_allgather(s, a->sbuf, a->scount, a->stype, a->rbuf, a->rcount, a->rcounts,
                       a->rdispls, a->rtype, comm);
}

static void build_alltoall(mica_sched_t *s, const mica_coll_args_t *a, mica_comm_t *comm)
{
    mica_nbc_side_t snd = {.buf = a->sbuf, .count = a->scount, .counts = a->scounts,
                           .displs = a->sdispls, .type = a->stype, .types = a->stypes,
                           .bytes = a->stypes != NULL};
    mica_nbc_side_t rcv = {.buf = a->rbuf, .count = a->rcount, .counts = a->rcounts,
                           .displs = a->rdispls, .type = a->rtype, .types = a->rtypes,
                           .bytes = a->rtypes != NULL};
    mica_nbc_alltoall(s, &snd, &rcv, comm);
}

static void build_reduce_scatter(mica_sched_t *s, const mica_coll_args_t *a, mica_comm_t *comm)
{
    mica_nbc_reduce_scatter(s, a->sbuf, a->rbuf, a->rcounts, a->rtype, a->op, comm);
}

static void build_scan(mica_sched_t *s, const mica_coll_args_t *a, mica_comm_t *comm)
{
    mica_nbc_scan(s, a->sbuf, a->rbuf, a->rcount, a->rtype, a->op, 0, comm);
}

static void build_exscan(mica_sched_t *s, const mica_coll_args_t *a, mica_comm_t *comm)
{
    mica_nbc_scan(s, a->sbuf, a->rbuf, a->rcount, a->rtype, a->op, 1, comm);
}

/* --- entry points --------------------------------------------------------------------------- */

/* Gather(v) and scatter(v): counts and displs are those of the root's side (NULL for the
 * non-v forms, and anywhere but at the root). */
static int rooted_init(const void *sendbuf, MPI_Count sendcount, mica_type_t *sendtype,
                       void *recvbuf, MPI_Count recvcount, mica_type_t *recvtype,
                       const MPI_Count *counts, const MPI_Aint *displs, int v, int root,
                       mica_comm_t *comm, int gather, MPI_Request *request)
{
    int rc = mica_coll_check_rooted(sendbuf, sendtype, recvbuf, recvtype, root, comm, gather);
    int n = comm->rank == root && v ? comm->size : 0;
    if (rc == MPI_SUCCESS && n)
        rc = mica_coll_check_v(counts, displs, n, gather ? "recvcounts" : "sendcounts", "displs");
    if (rc != MPI_SUCCESS)
        return rc;
    mica_coll_args_t a = {.sbuf = sendbuf, .scount = sendcount, .stype = sendtype,
                          .rbuf = recvbuf, .rcount = recvcount, .rtype = recvtype, .root = root};
    if (gather) {
        a.rcounts = n ? counts : NULL;
        a.rdispls = n ? displs : NULL;
        a.nrecv = n;
    } else {
        a.scounts = n ? counts : NULL;
        a.sdispls = n ? displs : NULL;
        a.nsend = n;
    }
    return mica_pcoll_init(comm, gather ? build_gather : build_scatter, &a, request);
}

int mica_gather_init_c(const void *sendbuf, MPI_Count sendcount, mica_type_t *sendtype,
                       void *recvbuf, MPI_Count recvcount, mica_type_t *recvtype, int root,
                       mica_comm_t *comm, mica_info_t *info, MPI_Request *request)
{
    MICA_INTRA_ONLY(comm);
    (void)info;
    return rooted_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, NULL, NULL,
                       0, root, comm, 1, request);
}

int mica_gatherv_init_c(const void *sendbuf, MPI_Count sendcount, mica_type_t *sendtype,
                        void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                        mica_type_t *recvtype, int root, mica_comm_t *comm, mica_info_t *info,
                        MPI_Request *request)
{
    MICA_INTRA_ONLY(comm);
    (void)info;
    return rooted_init(sendbuf, sendcount, sendtype, recvbuf, 0, recvtype, recvcounts, displs,
                       1, root, comm, 1, request);
}

int mica_gatherv_init(const void *sendbuf, int sendcount, mica_type_t *sendtype, void *recvbuf,
                      const int recvcounts[], const int displs[], mica_type_t *recvtype,
                      int root, mica_comm_t *comm, mica_info_t *info, MPI_Request *request)
{
    MICA_INTRA_ONLY(comm);
    int at_root = comm->rank == root;  /* the arrays matter only there */
    mica_coll_wide_t w;
    int rc = mica_coll_widen(0, NULL, NULL, comm->size, at_root ? recvcounts : NULL,
                             at_root ? displs : NULL, &w);
    if (rc == MPI_SUCCESS)
        rc = mica_gatherv_init_c(sendbuf, sendcount, sendtype, recvbuf, w.rc, w.rd, recvtype,
                                 root, comm, info, request);
    mica_coll_wide_free(&w);
    return rc;
}

int mica_scatter_init_c(const void *sendbuf, MPI_Count sendcount, mica_type_t *sendtype,
                        void *recvbuf, MPI_Count recvcount, mica_type_t *recvtype, int root,
                        mica_comm_t *comm, mica_info_t *info, MPI_Request *request)
{
    MICA_INTRA_ONLY(comm);
    (void)info;
    return rooted_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, NULL, NULL,
                       0, root, comm, 0, request);
}

int mica_scatterv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                         const MPI_Aint displs[], mica_type_t *sendtype, void *recvbuf,
                         MPI_Count recvcount, mica_type_t *recvtype, int root, mica_comm_t *comm,
                         mica_info_t *info, MPI_Request *request)
{
    MICA_INTRA_ONLY(comm);
    (void)info;
    return rooted_init(sendbuf, 0, sendtype, recvbuf, recvcount, recvtype, sendcounts, displs,
                       1, root, comm, 0, request);
}

int mica_scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[],
                       mica_type_t *sendtype, void *recvbuf, int recvcount,
                       mica_type_t *recvtype, int root, mica_comm_t *comm, mica_info_t *info,
                       MPI_Request *request)
{
    MICA_INTRA_ONLY(comm);
    int at_root = comm->rank == root;  /* the arrays matter only there */
    mica_coll_wide_t w;
    int rc = mica_coll_widen(comm->size, at_root ? sendcounts : NULL, at_root ? displs : NULL, 0,
                             NULL, NULL, &w);
    if (rc == MPI_SUCCESS)
        rc = mica_scatterv_init_c(sendbuf, w.sc, w.sd, sendtype, recvbuf, recvcount, recvtype,
                                  root, comm, info, request);
    mica_coll_wide_free(&w);
    return rc;
}

/* Allgather and alltoall (`build` tells which): one count and datatype a side. */
static int uniform_init(mica_coll_build_fn *build, const void *sendbuf, MPI_Count sendcount,
                        mica_type_t *sendtype, void *recvbuf, MPI_Count recvcount,
                        mica_type_t *recvtype, mica_comm_t *comm, MPI_Request *request)
{
    int rc = mica_coll_check_all(sendbuf, sendtype, recvbuf, recvtype);
    if (rc != MPI_SUCCESS)
        return rc;
    mica_coll_args_t a = {.sbuf = sendbuf, .scount = sendcount, .rbuf = recvbuf,
                          .rcount = recvcount, .rtype = recvtype,
                          .stype = sendbuf == MPI_IN_PLACE ? NULL : sendtype};
    return mica_pcoll_init(comm, build, &a, request);
}

int mica_allgather_init_c(const void *sendbuf, MPI_Count sendcount, mica_type_t *sendtype,
                          void *recvbuf, MPI_Count recvcount, mica_type_t *recvtype,
                          mica_comm_t *comm, mica_info_t *info, MPI_Request *request)
{
    MICA_INTRA_ONLY(comm);
    (void)info;
    return uniform_init(build_allgather, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                        recvtype, comm, request);
}

int mica_allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, mica_type_t *sendtype,
                           void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                           mica_type_t *recvtype, mica_comm_t *comm, mica_info_t *info,
                           MPI_Request *request)
{
    MICA_INTRA_ONLY(comm);
    (void)info;
    int rc = mica_coll_check_all(sendbuf, sendtype, recvbuf, recvtype);
    if (rc == MPI_SUCCESS)
        rc = mica_coll_check_v(recvcounts, displs, comm->size, "recvcounts", "displs");
    if (rc != MPI_SUCCESS)
        return rc;
    mica_coll_args_t a = {.sbuf = sendbuf, .scount = sendcount, .rbuf = recvbuf,
                          .rcounts = recvcounts, .rdispls = displs, .rtype = recvtype,
                          .stype = sendbuf == MPI_IN_PLACE ? NULL : sendtype,
                          .nrecv = comm->size};
    return mica_pcoll_init(comm, build_allgather, &a, request);
}

int mica_allgatherv_init(const void *sendbuf, int sendcount, mica_type_t *sendtype,
                         void *recvbuf, const int recvcounts[], const int displs[],
                         mica_type_t *recvtype, mica_comm_t *comm, mica_info_t *info,
                         MPI_Request *request)
{
    MICA_INTRA_ONLY(comm);
    mica_coll_wide_t w;
    int rc = mica_coll_widen(0, NULL, NULL, comm->size, recvcounts, displs, &w);
    if (rc == MPI_SUCCESS)
        rc = mica_allgatherv_init_c(sendbuf, sendcount, sendtype, recvbuf, w.rc, w.rd, recvtype,
                                    comm, info, request);
    mica_coll_wide_free(&w);
    return rc;
}

int mica_alltoall_init_c(const void *sendbuf, MPI_Count sendcount, mica_type_t *sendtype,
                         void *recvbuf, MPI_Count recvcount, mica_type_t *recvtype,
                         mica_comm_t *comm, mica_info_t *info, MPI_Request *request)
{
    MICA_INTRA_ONLY(comm);
    (void)info;
    return uniform_init(build_alltoall, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                        recvtype, comm, request);
}

int mica_alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                          const MPI_Aint sdispls[], mica_type_t *sendtype, void *recvbuf,
                          const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                          mica_type_t *recvtype, mica_comm_t *comm, mica_info_t *info,
                          MPI_Request *request)
{
    MICA_INTRA_ONLY(comm);
    (void)info;
    int in_place = sendbuf == MPI_IN_PLACE;
    int rc = mica_coll_check_all(sendbuf, sendtype, recvbuf, recvtype);
    if (rc == MPI_SUCCESS)
        rc = mica_coll_check_alltoallv(sendbuf, sendcounts, sdispls, recvcounts, rdispls,
                                       comm->size);
    if (rc != MPI_SUCCESS)
        return rc;
    mica_coll_args_t a = {.sbuf = sendbuf, .rbuf = recvbuf, .rcounts = recvcounts,
                          .rdispls = rdispls, .rtype = recvtype, .nrecv = comm->size};
    if (!in_place) {
        a.scounts = sendcounts;
        a.sdispls = sdispls;
        a.stype = sendtype;
        a.nsend = comm->size;
    }
    return mica_pcoll_init(comm, build_alltoall, &a, request);
}

int mica_alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                        mica_type_t *sendtype, void *recvbuf, const int recvcounts[],
                        const int rdispls[], mica_type_t *recvtype, mica_comm_t *comm,
                        mica_info_t *info, MPI_Request *request)
{
    MICA_INTRA_ONLY(comm);
    mica_coll_wide_t w;
    int rc = mica_coll_widen_alltoall(comm->size, sendbuf, sendcounts, sdispls, recvcounts,
                                      rdispls, &w);
    if (rc == MPI_SUCCESS)
        rc = mica_alltoallv_init_c(sendbuf, w.sc, w.sd, sendtype, recvbuf, w.rc, w.rd, recvtype,
                                   comm, info, request);
    mica_coll_wide_free(&w);
    return rc;
}

int mica_alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                          const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                          void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                          const MPI_Datatype recvtypes[], mica_comm_t *comm, mica_info_t *info,
                          MPI_Request *request)
{
    MICA_INTRA_ONLY(comm);
    (void)info;
    int n = comm->size;
    mica_type_t **types;
    int rc = mica_coll_check_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                                       recvcounts, rdispls, recvtypes, n, &types);
    if (rc != MPI_SUCCESS)
        return rc;
    mica_coll_args_t a = {.sbuf = sendbuf, .rbuf = recvbuf, .rcounts = recvcounts,
                          .rdispls = rdispls, .rtypes = types + n, .nrecv = n};
    if (sendbuf != MPI_IN_PLACE) {
        a.scounts = sendcounts;
        a.sdispls = sdispls;
        a.stypes = types;
        a.nsend = n;
    }
    rc = mica_pcoll_init(comm, build_alltoall, &a, request);
    free(types);
    return rc;
}

int mica_alltoallw_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                        const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                        const int rdispls[], const MPI_Datatype recvtypes[], mica_comm_t *comm,
                        mica_info_t *info, MPI_Request *request)
{
    MICA_INTRA_ONLY(comm);
    mica_coll_wide_t w;
    int rc = mica_coll_widen_alltoall(comm->size, sendbuf, sendcounts, sdispls, recvcounts,
                                      rdispls, &w);
    if (rc == MPI_SUCCESS)
        rc = mica_alltoallw_init_c(sendbuf, w.sc, w.sd, sendtypes, recvbuf, w.rc, w.rd,
                                   recvtypes, comm, info, request);
    mica_coll_wide_free(&w);
    return rc;
}

int mica_reduce_scatter_init_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                               mica_type_t *datatype, mica_op_t *op, mica_comm_t *comm,
                               mica_info_t *info, MPI_Request *request)
{
    MICA_INTRA_ONLY(comm);
    (void)info;
    int rc = mica_coll_check_counts(comm->size, recvcounts, "recvcounts");
    if (rc == MPI_SUCCESS)
        rc = mica_coll_check_reduction(sendbuf, recvbuf, recvcounts[comm->rank], datatype, op, 1);
    if (rc != MPI_SUCCESS)
        return rc;
    mica_coll_args_t a = {.sbuf = sendbuf, .rbuf = recvbuf, .rcounts = recvcounts,
                          .rtype = datatype, .op = op, .nrecv = comm->size};
    return mica_pcoll_init(comm, build_reduce_scatter, &a, request);
}

int mica_reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[],
                             mica_type_t *datatype, mica_op_t *op, mica_comm_t *comm,
                             mica_info_t *info, MPI_Request *request)
{
    MICA_INTRA_ONLY(comm);
    MPI_Count *c;
    int rc = mica_coll_widen_counts(comm->size, recvcounts, &c);
    if (rc == MPI_SUCCESS)
        rc = mica_reduce_scatter_init_c(sendbuf, recvbuf, c, datatype, op, comm, info, request);
    free(c);
    return rc;
}

int mica_reduce_scatter_block_init_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                     mica_type_t *datatype, mica_op_t *op, mica_comm_t *comm,
                                     mica_info_t *info, MPI_Request *request)
{
    MICA_INTRA_ONLY(comm);
    MPI_Count *counts;
    int rc = mica_coll_block_counts(comm->size, recvcount, &counts);
    if (rc == MPI_SUCCESS)
        rc = mica_reduce_scatter_init_c(sendbuf, recvbuf, counts, datatype, op, comm, info,
                                        request);
    free(counts);
    return rc;
}

static int scan_init(const void *sendbuf, void *recvbuf, MPI_Count count, mica_type_t *datatype,
                     mica_op_t *op, mica_comm_t *comm, int exclusive, MPI_Request *request)
{
    int rc = mica_coll_check_reduction(sendbuf, recvbuf, count, datatype, op, 1);
    if (rc != MPI_SUCCESS)
        return rc;
    mica_coll_args_t a = {.sbuf = sendbuf, .rbuf = recvbuf, .rcount = count, .rtype = datatype,
                          .op = op};
    return mica_pcoll_init(comm, exclusive ? build_exscan : build_scan, &a, request);
}

int mica_scan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, mica_type_t *datatype,
                     mica_op_t *op, mica_comm_t *comm, mica_info_t *info, MPI_Request *request)
{
    MICA_INTRA_ONLY(comm);
    (void)info;
    return scan_init(sendbuf, recvbuf, count, datatype, op, comm, 0, request);
}

int mica_exscan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count,
                       mica_type_t *datatype, mica_op_t *op, mica_comm_t *comm,
                       mica_info_t *info, MPI_Request *request)
{
    MICA_INTRA_ONLY(comm);
    (void)info;
    return scan_init(sendbuf, recvbuf, count, datatype, op, comm, 1, request);
}
