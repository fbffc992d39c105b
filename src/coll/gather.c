/* MPI_Gather and MPI_Gatherv: the root posts a receive per process straight into its buffer
 * (so derived receive types cost no copy) and every other process sends once. */
#include <stdlib.h>

#include "coll/coll.h"
#include "coll/inter.h"
#include "core/errors.h"
#include "core/progress.h"
#include "core_api.h"

/* The root's side, for both forms: block i is rcounts[i] elements at element displs[i]
 * (rcounts NULL: rcount each, at i * rcount). */
static int gather_root(const void *sbuf, MPI_Count scount, mica_type_t *stype, void *rbuf,
                       MPI_Count rcount, const MPI_Count *rcounts, const MPI_Aint *displs,
                       mica_type_t *rtype, mica_comm_t *comm)
{
    int size = comm->size, rank = comm->rank, rc = MPI_SUCCESS;
    mica_request_t **reqs = calloc((size_t)size, sizeof *reqs);
    if (!reqs)
        return mica_error(MPI_ERR_NO_MEM, "no memory for %d requests", size);
    for (int i = 0; i < size && rc == MPI_SUCCESS; i++) {
        MPI_Count n = rcounts ? rcounts[i] : rcount;
        void *at = mica_coll_at(rbuf, rcounts ? displs[i] : i * rcount, rtype);
        if (i == rank) {
            if (sbuf != MPI_IN_PLACE)
                mica_type_copy(sbuf, scount, stype, at, n, rtype);
        } else {
            rc = mica_coll_irecv(at, n, rtype, i, MICA_TAG_GATHER, comm, &reqs[i]);
        }
    }
    int rc2 = mica_request_waitall(size, reqs);
    free(reqs);
    return rc != MPI_SUCCESS ? rc : rc2;
}

int mica_coll_gather_locked(const void *sbuf, MPI_Count scount, mica_type_t *stype, void *rbuf,
                            MPI_Count rcount, mica_type_t *rtype, int root, mica_comm_t *comm)
{
    if (comm->rank != root)
        return mica_coll_send(sbuf, scount, stype, root, MICA_TAG_GATHER, comm);
    return gather_root(sbuf, scount, stype, rbuf, rcount, NULL, NULL, rtype, comm);
}

int mica_coll_gatherv_locked(const void *sbuf, MPI_Count scount, mica_type_t *stype, void *rbuf,
                             const MPI_Count *rcounts, const MPI_Aint *displs, mica_type_t *rtype,
                             int root, mica_comm_t *comm)
{
    if (comm->rank != root)
        return mica_coll_send(sbuf, scount, stype, root, MICA_TAG_GATHER, comm);
    return gather_root(sbuf, scount, stype, rbuf, 0, rcounts, displs, rtype, comm);
}

/* What is significant where: the send side everywhere but at an MPI_IN_PLACE root, the
 * receive side at the root only. */
static int check(const void *sendbuf, mica_type_t *sendtype, const void *recvbuf,
                 mica_type_t *recvtype, int root, mica_comm_t *comm)
{
    int rc = MPI_SUCCESS;
    if (sendbuf != MPI_IN_PLACE)
        rc = mica_coll_check_type(sendtype, "sendtype");
    else if (comm->rank != root)
        rc = mica_error(MPI_ERR_BUFFER, "sendbuf is MPI_IN_PLACE on rank %d, which is not the "
                        "root (%d)", comm->rank, root);
    if (rc == MPI_SUCCESS && comm->rank == root) {
        rc = mica_coll_check_type(recvtype, "recvtype");
        if (rc == MPI_SUCCESS && recvbuf == MPI_IN_PLACE)
            rc = mica_error(MPI_ERR_BUFFER, "recvbuf is MPI_IN_PLACE: only sendbuf may be");
    }
    return rc;
}

int mica_gather_c(const void *sendbuf, MPI_Count sendcount, mica_type_t *sendtype, void *recvbuf,
                  MPI_Count recvcount, mica_type_t *recvtype, int root, mica_comm_t *comm)
{
    if (comm->inter)
        return mica_inter_gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                 root, comm);
    int rc = check(sendbuf, sendtype, recvbuf, recvtype, root, comm);
    if (rc != MPI_SUCCESS)
        return rc;
    mica_lock();
    rc = mica_coll_gather_locked(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                                 comm);
    mica_unlock();
    return rc;
}

int mica_gatherv_c(const void *sendbuf, MPI_Count sendcount, mica_type_t *sendtype,
                   void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                   mica_type_t *recvtype, int root, mica_comm_t *comm)
{
    if (comm->inter)
        return mica_inter_gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                  recvtype, root, comm);
    int rc = check(sendbuf, sendtype, recvbuf, recvtype, root, comm);
    if (rc == MPI_SUCCESS && comm->rank == root) {
        rc = mica_coll_check_counts(comm->size, recvcounts, "recvcounts");
        if (rc == MPI_SUCCESS && !displs)
            rc = mica_error(MPI_ERR_ARG, "displs is NULL");
    }
    if (rc != MPI_SUCCESS)
        return rc;
    mica_lock();
    rc = mica_coll_gatherv_locked(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                  recvtype, root, comm);
    mica_unlock();
    return rc;
}

int mica_gatherv(const void *sendbuf, int sendcount, mica_type_t *sendtype, void *recvbuf,
                 const int recvcounts[], const int displs[], mica_type_t *recvtype, int root,
                 mica_comm_t *comm)
{
    MPI_Count *c = NULL;
    MPI_Aint *d = NULL;
    int rc = MPI_SUCCESS;
    if (mica_comm_is_root(comm, root)) {   /* one count per remote process */
        rc = mica_coll_widen_counts(comm->remote_size, recvcounts, &c);
        if (rc == MPI_SUCCESS)
            rc = mica_coll_widen_displs(comm->remote_size, displs, &d);
    }
    if (rc == MPI_SUCCESS)
        rc = mica_gatherv_c(sendbuf, sendcount, sendtype, recvbuf, c, d, recvtype, root, comm);
    free(c);
    free(d);
    return rc;
}
