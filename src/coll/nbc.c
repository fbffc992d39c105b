/* The nonblocking collectives (MPI_Ibarrier ... MPI_Iexscan) on intracommunicators: each builds
 * its schedule (sched.h) when called and returns it as a request. Simple algorithms, chosen to
 * be correct and to keep few messages in flight per process (barrier, bcast, reduce and allreduce
 * run the algorithms of their blocking forms, algorithms.h):
 *   reduce_scatter    reduce to 0 of the whole vector, then scatterv
 *   gather, scatter   linear, at the root
 *   allgather(v)      every block straight to every process
 *   alltoall(v,w)     every block straight to its process
 *   scan, exscan      a chain in rank order
 * The argument checks are those of the blocking forms. */
#include <stdlib.h>

#include "coll/algorithms.h"
#include "coll/nbc.h"
#include "core/errors.h"
#include "core/progress.h"
#include "core_api.h"

/* --- the schedules -------------------------------------------------------------------------- */

/* Block i of a gather's receive buffer or a scatter's send buffer: counts[i] elements at
 * element displs[i] (counts NULL: `count` each, at i * count). */
static void *block_at(const void *buf, MPI_Count count, const MPI_Count *counts,
                      const MPI_Aint *displs, mica_type_t *type, int i, MPI_Count *n)
{
    *n = counts ? counts[i] : count;
    return mica_coll_at(buf, counts ? displs[i] : i * count, type);
}

void mica_nbc_gather(mica_sched_t *s, const void *sbuf, MPI_Count scount, mica_type_t *stype,
                     void *rbuf, MPI_Count rcount, const MPI_Count *rcounts,
                     const MPI_Aint *displs, mica_type_t *rtype, int root, mica_comm_t *comm)
{
    if (comm->rank != root) {
        mica_sched_send(s, sbuf, scount, stype, root);
        return;
    }
    for (int i = 0; i < comm->size; i++) {
        MPI_Count n;
        void *at = block_at(rbuf, rcount, rcounts, displs, rtype, i, &n);
        if (i != root)
            mica_sched_recv(s, at, n, rtype, i);
        else if (sbuf != MPI_IN_PLACE)
            mica_sched_copy(s, sbuf, scount, stype, at, n, rtype);
    }
}

void mica_nbc_scatter(mica_sched_t *s, const void *sbuf, MPI_Count scount,
                      const MPI_Count *scounts, const MPI_Aint *displs, mica_type_t *stype,
                      void *rbuf, MPI_Count rcount, mica_type_t *rtype, int root,
                      mica_comm_t *comm)
{
    if (comm->rank != root) {
        mica_sched_recv(s, rbuf, rcount, rtype, root);
        return;
    }
    for (int i = 0; i < comm->size; i++) {
        MPI_Count n;
        void *at = block_at(sbuf, scount, scounts, displs, stype, i, &n);
        if (i != root)
            mica_sched_send(s, at, n, stype, i);
        else if (rbuf != MPI_IN_PLACE)
            mica_sched_copy(s, at, n, stype, rbuf, rcount, rtype);
    }
}

void mica_nbc_allgather(mica_sched_t *s, const void *sbuf, MPI_Count scount,
                        mica_type_t *stype, void *rbuf, MPI_Count rcount,
                        const MPI_Count *rcounts, const MPI_Aint *displs, mica_type_t *rtype,
                        mica_comm_t *comm)
{
    int size = comm->size, rank = comm->rank;
    MPI_Count mine;
    void *own = block_at(rbuf, rcount, rcounts, displs, rtype, rank, &mine);
    if (sbuf != MPI_IN_PLACE) {
        mica_sched_copy(s, sbuf, scount, stype, own, mine, rtype);
    } else {                          /* our block goes out from where it is */
        sbuf = own;
        scount = mine;
        stype = rtype;
    }
    for (int k = 1; k < size; k++) {
        int to = (rank + k) % size, from = (rank - k + size) % size;
        MPI_Count n;
        void *at = block_at(rbuf, rcount, rcounts, displs, rtype, from, &n);
        mica_sched_recv(s, at, n, rtype, from);
        mica_sched_send(s, sbuf, scount, stype, to);
    }
}

static void *side_block(const mica_nbc_side_t *b, int i, MPI_Count *n, mica_type_t **type)
{
    *type = b->types ? b->types[i] : b->type;
    *n = b->counts ? b->counts[i] : b->count;
    if (b->bytes)
        return (char *)b->buf + b->displs[i];
    return mica_coll_at(b->buf, b->counts ? b->displs[i] : i * b->count, *type);
}

void mica_nbc_alltoall(mica_sched_t *s, const mica_nbc_side_t *snd, const mica_nbc_side_t *rcv,
                       mica_comm_t *comm)
{
    int size = comm->size, rank = comm->rank, in_place = snd->buf == MPI_IN_PLACE;
    for (int k = 1; k < size; k++) {
        int from = (rank - k + size) % size, to = (rank + k) % size;
        MPI_Count n;
        mica_type_t *t;
        void *at = side_block(rcv, to, &n, &t);
        if (in_place) {               /* what goes out is copied before anything comes in */
            MPI_Count bytes;
            void *copy = mica_sched_packed(s, at, n, t, &bytes);
            mica_sched_send(s, copy, bytes, &mica_type_MPI_BYTE, to);
        } else {
            void *from_at = side_block(snd, to, &n, &t);
            mica_sched_send(s, from_at, n, t, to);
        }
        at = side_block(rcv, from, &n, &t);
        mica_sched_recv(s, at, n, t, from);
    }
    if (!in_place) {
        MPI_Count sn, rn;
        mica_type_t *st, *rt;
        void *sat = side_block(snd, rank, &sn, &st), *rat = side_block(rcv, rank, &rn, &rt);
        mica_sched_copy(s, sat, sn, st, rat, rn, rt);
    }
}

void mica_nbc_reduce_scatter(mica_sched_t *s, const void *sbuf, void *rbuf,
                             const MPI_Count *rcounts, mica_type_t *type, mica_op_t *op,
                             mica_comm_t *comm)
{
    int size = comm->size, rank = comm->rank;
    MPI_Count total = 0;
    for (int i = 0; i < size; i++)
        total += rcounts[i];
    mica_coll_args_t whole = {.sbuf = sbuf == MPI_IN_PLACE ? rbuf : sbuf, .rcount = total,
                              .rtype = type, .op = op,
                              .rbuf = rank == 0 ? mica_sched_tmp(s, total, type) : NULL};
    void *all = whole.rbuf;
    mica_coll_build_reduce(s, &whole, comm);
    mica_sched_barrier(s);
    if (rank != 0) {
        mica_sched_recv(s, rbuf, rcounts[rank], type, 0);
        return;
    }
    MPI_Count at = 0;
    for (int i = 0; i < size; i++) {
        void *block = mica_coll_at(all, at, type);
        if (i == 0)
            mica_sched_copy(s, block, rcounts[0], type, rbuf, rcounts[0], type);
        else
            mica_sched_send(s, block, rcounts[i], type, i);
        at += rcounts[i];
    }
}

/* Rank r receives the reduction over ranks 0 .. r-1 from r - 1, combines, passes it on. */
void mica_nbc_scan(mica_sched_t *s, const void *sbuf, void *rbuf, MPI_Count count,
                   mica_type_t *type, mica_op_t *op, int exclusive, mica_comm_t *comm)
{
    int size = comm->size, rank = comm->rank;
    const void *input = sbuf == MPI_IN_PLACE ? rbuf : sbuf;
    if (!exclusive && sbuf != MPI_IN_PLACE)
        mica_sched_copy(s, sbuf, count, type, rbuf, count, type);
    if (size == 1 || count * type->size == 0)
        return;
    if (!exclusive) {
        if (rank > 0) {
            void *prefix = mica_sched_tmp(s, count, type);
            mica_sched_recv(s, prefix, count, type, rank - 1);
            mica_sched_barrier(s);
            mica_sched_reduce(s, prefix, rbuf, count, type, op);
        }
        if (rank < size - 1)
            mica_sched_send(s, rbuf, count, type, rank + 1);
        return;
    }
    if (rank == 0) {
        mica_sched_send(s, input, count, type, 1);
        return;
    }
    void *mine = NULL;
    if (rank < size - 1) {            /* kept before the prefix lands in rbuf (MPI_IN_PLACE) */
        mine = mica_sched_tmp(s, count, type);
        mica_sched_copy(s, input, count, type, mine, count, type);
    }
    mica_sched_recv(s, rbuf, count, type, rank - 1);
    mica_sched_barrier(s);
    if (mine) {
        mica_sched_reduce(s, rbuf, mine, count, type, op);
        mica_sched_send(s, mine, count, type, rank + 1);
    }
}

/* --- entry points ------------------------------------------------------------------------------ */

/* Start a schedule with the lock held: the last argument is the statement that fills `s_`. */
#define START(comm, request, ...)                                                          \
    do {                                                                                     \
        mica_lock();                                                                         \
        mica_sched_t *s_ = mica_sched_new(comm);                                             \
        if (s_) {                                                                            \
            __VA_ARGS__;                                                                     \
        }                                                                                    \
        int rc_ = mica_sched_start(s_, request);                                             \
        mica_unlock();                                                                       \
        return rc_;                                                                          \
    } while (0)

int mica_igather_c(const void *sendbuf, MPI_Count sendcount, mica_type_t *sendtype,
                   void *recvbuf, MPI_Count recvcount, mica_type_t *recvtype, int root,
                   mica_comm_t *comm, MPI_Request *request)
{
    MICA_INTRA_ONLY(comm);
    int rc = mica_coll_check_rooted(sendbuf, sendtype, recvbuf, recvtype, root, comm, 1);
    if (rc != MPI_SUCCESS)
        return rc;
    START(comm, request, mica_nbc_gather(s_, sendbuf, sendcount, sendtype, recvbuf, recvcount, NULL,
                                         NULL, recvtype, root, comm));
}

int mica_igatherv_c(const void *sendbuf, MPI_Count sendcount, mica_type_t *sendtype,
                    void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                    mica_type_t *recvtype, int root, mica_comm_t *comm, MPI_Request *request)
{
    MICA_INTRA_ONLY(comm);
    int rc = mica_coll_check_rooted(sendbuf, sendtype, recvbuf, recvtype, root, comm, 1);
    if (rc == MPI_SUCCESS && comm->rank == root)
        rc = mica_coll_check_v(recvcounts, displs, comm->size, "recvcounts", "displs");
    if (rc != MPI_SUCCESS)
        return rc;
    START(comm, request, mica_nbc_gather(s_, sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts,
                                         displs, recvtype, root, comm));
}

int mica_igatherv(const void *sendbuf, int sendcount, mica_type_t *sendtype, void *recvbuf,
                  const int recvcounts[], const int displs[], mica_type_t *recvtype, int root,
                  mica_comm_t *comm, MPI_Request *request)
{
    MICA_INTRA_ONLY(comm);
    int at_root = comm->rank == root;  /* the arrays matter only there */
    mica_coll_wide_t w;
    int rc = mica_coll_widen(0, NULL, NULL, comm->size, at_root ? recvcounts : NULL,
                             at_root ? displs : NULL, &w);
    if (rc == MPI_SUCCESS)
        rc = mica_igatherv_c(sendbuf, sendcount, sendtype, recvbuf, w.rc, w.rd, recvtype, root,
                             comm, request);
    mica_coll_wide_free(&w);
    return rc;
}

int mica_iscatter_c(const void *sendbuf, MPI_Count sendcount, mica_type_t *sendtype,
                    void *recvbuf, MPI_Count recvcount, mica_type_t *recvtype, int root,
                    mica_comm_t *comm, MPI_Request *request)
{
    MICA_INTRA_ONLY(comm);
    int rc = mica_coll_check_rooted(sendbuf, sendtype, recvbuf, recvtype, root, comm, 0);
    if (rc != MPI_SUCCESS)
        return rc;
    START(comm, request, mica_nbc_scatter(s_, sendbuf, sendcount, NULL, NULL, sendtype, recvbuf,
                                          recvcount, recvtype, root, comm));
}

int mica_iscatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                     mica_type_t *sendtype, void *recvbuf, MPI_Count recvcount,
                     mica_type_t *recvtype, int root, mica_comm_t *comm, MPI_Request *request)
{
    MICA_INTRA_ONLY(comm);
    int rc = mica_coll_check_rooted(sendbuf, sendtype, recvbuf, recvtype, root, comm, 0);
    if (rc == MPI_SUCCESS && comm->rank == root)
        rc = mica_coll_check_v(sendcounts, displs, comm->size, "sendcounts", "displs");
    if (rc != MPI_SUCCESS)
        return rc;
    START(comm, request, mica_nbc_scatter(s_, sendbuf, 0, sendcounts, displs, sendtype, recvbuf,
                                          recvcount, recvtype, root, comm));
}

int mica_iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                   mica_type_t *sendtype, void *recvbuf, int recvcount, mica_type_t *recvtype,
                   int root, mica_comm_t *comm, MPI_Request *request)
{
    MICA_INTRA_ONLY(comm);
    int at_root = comm->rank == root;  /* the arrays matter only there */
    mica_coll_wide_t w;
    int rc = mica_coll_widen(comm->size, at_root ? sendcounts : NULL, at_root ? displs : NULL, 0,
                             NULL, NULL, &w);
    if (rc == MPI_SUCCESS)
        rc = mica_iscatterv_c(sendbuf, w.sc, w.sd, sendtype, recvbuf, recvcount, recvtype, root,
                              comm, request);
    mica_coll_wide_free(&w);
    return rc;
}

int mica_iallgather_c(const void *sendbuf, MPI_Count sendcount, mica_type_t *sendtype,
                      void *recvbuf, MPI_Count recvcount, mica_type_t *recvtype,
                      mica_comm_t *comm, MPI_Request *request)
{
    MICA_INTRA_ONLY(comm);
    int rc = mica_coll_check_all(sendbuf, sendtype, recvbuf, recvtype);
    if (rc != MPI_SUCCESS)
        return rc;
    START(comm, request, mica_nbc_allgather(s_, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                            NULL, NULL, recvtype, comm));
}

int mica_iallgatherv_c(const void *sendbuf, MPI_Count sendcount, mica_type_t *sendtype,
                       void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                       mica_type_t *recvtype, mica_comm_t *comm, MPI_Request *request)
{
    MICA_INTRA_ONLY(comm);
    int rc = mica_coll_check_all(sendbuf, sendtype, recvbuf, recvtype);
    if (rc == MPI_SUCCESS)
        rc = mica_coll_check_v(recvcounts, displs, comm->size, "recvcounts", "displs");
    if (rc != MPI_SUCCESS)
        return rc;
    START(comm, request, mica_nbc_allgather(s_, sendbuf, sendcount, sendtype, recvbuf, 0,
                                            recvcounts, displs, recvtype, comm));
}

int mica_iallgatherv(const void *sendbuf, int sendcount, mica_type_t *sendtype, void *recvbuf,
                     const int recvcounts[], const int displs[], mica_type_t *recvtype,
                     mica_comm_t *comm, MPI_Request *request)
{
    MICA_INTRA_ONLY(comm);
    mica_coll_wide_t w;
    int rc = mica_coll_widen(0, NULL, NULL, comm->size, recvcounts, displs, &w);
    if (rc == MPI_SUCCESS)
        rc = mica_iallgatherv_c(sendbuf, sendcount, sendtype, recvbuf, w.rc, w.rd, recvtype, comm,
                                request);
    mica_coll_wide_free(&w);
    return rc;
}

int mica_ialltoall_c(const void *sendbuf, MPI_Count sendcount, mica_type_t *sendtype,
                     void *recvbuf, MPI_Count recvcount, mica_type_t *recvtype,
                     mica_comm_t *comm, MPI_Request *request)
{
    MICA_INTRA_ONLY(comm);
    int rc = mica_coll_check_all(sendbuf, sendtype, recvbuf, recvtype);
    if (rc != MPI_SUCCESS)
        return rc;
    mica_nbc_side_t snd = {.buf = sendbuf, .count = sendcount, .type = sendtype};
    mica_nbc_side_t rcv = {.buf = recvbuf, .count = recvcount, .type = recvtype};
    START(comm, request, mica_nbc_alltoall(s_, &snd, &rcv, comm));
}

int mica_ialltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                      mica_type_t *sendtype, void *recvbuf, const MPI_Count recvcounts[],
                      const MPI_Aint rdispls[], mica_type_t *recvtype, mica_comm_t *comm,
                      MPI_Request *request)
{
    MICA_INTRA_ONLY(comm);
    int rc = mica_coll_check_all(sendbuf, sendtype, recvbuf, recvtype);
    if (rc == MPI_SUCCESS)
        rc = mica_coll_check_alltoallv(sendbuf, sendcounts, sdispls, recvcounts, rdispls,
                                       comm->size);
    if (rc != MPI_SUCCESS)
        return rc;
    mica_nbc_side_t snd = {.buf = sendbuf, .counts = sendcounts, .displs = sdispls,
                           .type = sendtype};
    mica_nbc_side_t rcv = {.buf = recvbuf, .counts = recvcounts, .displs = rdispls,
                           .type = recvtype};
    START(comm, request, mica_nbc_alltoall(s_, &snd, &rcv, comm));
}

int mica_ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                    mica_type_t *sendtype, void *recvbuf, const int recvcounts[],
                    const int rdispls[], mica_type_t *recvtype, mica_comm_t *comm,
                    MPI_Request *request)
{
    MICA_INTRA_ONLY(comm);
    mica_coll_wide_t w;
    int rc = mica_coll_widen_alltoall(comm->size, sendbuf, sendcounts, sdispls, recvcounts,
                                      rdispls, &w);
    if (rc == MPI_SUCCESS)
        rc = mica_ialltoallv_c(sendbuf, w.sc, w.sd, sendtype, recvbuf, w.rc, w.rd, recvtype, comm,
                               request);
    mica_coll_wide_free(&w);
    return rc;
}

int mica_ialltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                      const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                      const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], mica_comm_t *comm,
                      MPI_Request *request)
{
    MICA_INTRA_ONLY(comm);
    int n = comm->size;
    mica_type_t **types;
    int rc = mica_coll_check_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                                       recvcounts, rdispls, recvtypes, n, &types);
    if (rc != MPI_SUCCESS)
        return rc;
    /* The schedule keeps the datatypes it uses; the table is needed only to build it. */
    mica_nbc_side_t snd = {.buf = sendbuf, .counts = sendcounts, .displs = sdispls,
                           .types = types, .bytes = 1};
    mica_nbc_side_t rcv = {.buf = recvbuf, .counts = recvcounts, .displs = rdispls,
                           .types = types + n, .bytes = 1};
    mica_lock();
    mica_sched_t *s = mica_sched_new(comm);
    if (s)
        mica_nbc_alltoall(s, &snd, &rcv, comm);
    rc = mica_sched_start(s, request);
    mica_unlock();
    free(types);
    return rc;
}

int mica_ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                    const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                    const int rdispls[], const MPI_Datatype recvtypes[], mica_comm_t *comm,
                    MPI_Request *request)
{
    MICA_INTRA_ONLY(comm);
    mica_coll_wide_t w;
    int rc = mica_coll_widen_alltoall(comm->size, sendbuf, sendcounts, sdispls, recvcounts,
                                      rdispls, &w);
    if (rc == MPI_SUCCESS)
        rc = mica_ialltoallw_c(sendbuf, w.sc, w.sd, sendtypes, recvbuf, w.rc, w.rd, recvtypes, comm,
                               request);
    mica_coll_wide_free(&w);
    return rc;
}

int mica_ireduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                           mica_type_t *datatype, mica_op_t *op, mica_comm_t *comm,
                           MPI_Request *request)
{
    MICA_INTRA_ONLY(comm);
    int rc = mica_coll_check_counts(comm->size, recvcounts, "recvcounts");
    if (rc == MPI_SUCCESS)
        rc = mica_coll_check_reduction(sendbuf, recvbuf, recvcounts[comm->rank], datatype, op, 1);
    if (rc != MPI_SUCCESS)
        return rc;
    START(comm, request, mica_nbc_reduce_scatter(s_, sendbuf, recvbuf, recvcounts, datatype, op,
                                                 comm));
}

int mica_ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                         mica_type_t *datatype, mica_op_t *op, mica_comm_t *comm,
                         MPI_Request *request)
{
    MICA_INTRA_ONLY(comm);
    MPI_Count *c;
    int rc = mica_coll_widen_counts(comm->size, recvcounts, &c);
    if (rc == MPI_SUCCESS)
        rc = mica_ireduce_scatter_c(sendbuf, recvbuf, c, datatype, op, comm, request);
    free(c);
    return rc;
}

int mica_ireduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                 mica_type_t *datatype, mica_op_t *op, mica_comm_t *comm,
                                 MPI_Request *request)
{
    MICA_INTRA_ONLY(comm);
    MPI_Count *counts;
    int rc = mica_coll_block_counts(comm->size, recvcount, &counts);
    if (rc == MPI_SUCCESS)
        rc = mica_ireduce_scatter_c(sendbuf, recvbuf, counts, datatype, op, comm, request);
    free(counts);
    return rc;
}

static int iscan(const void *sendbuf, void *recvbuf, MPI_Count count, mica_type_t *datatype,
                 mica_op_t *op, mica_comm_t *comm, int exclusive, MPI_Request *request)
{
    int rc = mica_coll_check_reduction(sendbuf, recvbuf, count, datatype, op, 1);
    if (rc != MPI_SUCCESS)
        return rc;
    START(comm, request, mica_nbc_scan(s_, sendbuf, recvbuf, count, datatype, op, exclusive, comm));
}

int mica_iscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, mica_type_t *datatype,
                 mica_op_t *op, mica_comm_t *comm, MPI_Request *request)
{
    MICA_INTRA_ONLY(comm);
    return iscan(sendbuf, recvbuf, count, datatype, op, comm, 0, request);
}

int mica_iexscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, mica_type_t *datatype,
                   mica_op_t *op, mica_comm_t *comm, MPI_Request *request)
{
    MICA_INTRA_ONLY(comm);
    return iscan(sendbuf, recvbuf, count, datatype, op, comm, 1, request);
}
