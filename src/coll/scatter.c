/* MPI_Scatter and MPI_Scatterv: the root starts a send per process straight from its buffer
 * and every other process receives once. */
#include <stdlib.h>

#include "coll/coll.h"
#include "coll/inter.h"
#include "core/errors.h"
#include "core/progress.h"
#include "core_api.h"

/* The root's side, for both forms: block i is scounts[i] elements at element displs[i]
 * (scounts NULL: scount each, at i * scount). */
static int scatter_root(const void *sbuf, MPI_Count scount, const MPI_Count *scounts,
                        const MPI_Aint *displs, mica_type_t *stype, void *rbuf, MPI_Count rcount,
                        mica_type_t *rtype, mica_comm_t *comm)
{
    int size = comm->size, rank = comm->rank, rc = MPI_SUCCESS;
    mica_request_t **reqs = calloc((size_t)size, sizeof *reqs);
    if (!reqs)
        return mica_error(MPI_ERR_NO_MEM, "no memory for %d requests", size);
    for (int k = 1; k <= size && rc == MPI_SUCCESS; k++) {
        int i = (rank + k) % size;    /* the root's own block last */
        MPI_Count n = scounts ? scounts[i] : scount;
        const void *at = mica_coll_at(sbuf, scounts ? displs[i] : i * scount, stype);
        if (i == rank) {
            if (rbuf != MPI_IN_PLACE)
                mica_type_copy(at, n, stype, rbuf, rcount, rtype);
        } else {
            rc = mica_coll_isend(at, n, stype, i, MICA_TAG_SCATTER, comm, &reqs[i]);
        }
    }
    int rc2 = mica_request_waitall(size, reqs);
    free(reqs);
    return rc != MPI_SUCCESS ? rc : rc2;
}

int mica_coll_scatter_locked(const void *sbuf, MPI_Count scount, mica_type_t *stype, void *rbuf,
                             MPI_Count rcount, mica_type_t *rtype, int root, mica_comm_t *comm)
{
    if (comm->rank != root)
        return mica_coll_recv(rbuf, rcount, rtype, root, MICA_TAG_SCATTER, comm);
    return scatter_root(sbuf, scount, NULL, NULL, stype, rbuf, rcount, rtype, comm);
}

int mica_coll_scatterv_locked(const void *sbuf, const MPI_Count *scounts, const MPI_Aint *displs,
                              mica_type_t *stype, void *rbuf, MPI_Count rcount, mica_type_t *rtype,
                              int root, mica_comm_t *comm)
{
    if (comm->rank != root)
        return mica_coll_recv(rbuf, rcount, rtype, root, MICA_TAG_SCATTER, comm);
    return scatter_root(sbuf, 0, scounts, displs, stype, rbuf, rcount, rtype, comm);
}

/* The send side is significant at the root only; the receive side everywhere but at an
 * MPI_IN_PLACE root. */
static int check(const void *sendbuf, mica_type_t *sendtype, const void *recvbuf,
                 mica_type_t *recvtype, int root, mica_comm_t *comm)
{
    int rc = MPI_SUCCESS;
    if (recvbuf != MPI_IN_PLACE)
        rc = mica_coll_check_type(recvtype, "recvtype");
    else if (comm->rank != root)
        rc = mica_error(MPI_ERR_BUFFER, "recvbuf is MPI_IN_PLACE on rank %d, which is not the "
                        "root (%d)", comm->rank, root);
    if (rc == MPI_SUCCESS && comm->rank == root) {
        rc = mica_coll_check_type(sendtype, "sendtype");
        if (rc == MPI_SUCCESS && sendbuf == MPI_IN_PLACE)
            rc = mica_error(MPI_ERR_BUFFER, "sendbuf is MPI_IN_PLACE: only recvbuf may be");
    }
    return rc;
}

int mica_scatter_c(const void *sendbuf, MPI_Count sendcount, mica_type_t *sendtype,
                   void *recvbuf, MPI_Count recvcount, mica_type_t *recvtype, int root,
                   mica_comm_t *comm)
{
    if (comm->inter)
        return mica_inter_scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                  root, comm);
    int rc = check(sendbuf, sendtype, recvbuf, recvtype, root, comm);
    if (rc != MPI_SUCCESS)
        return rc;
    mica_lock();
    rc = mica_coll_scatter_locked(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                                  comm);
    mica_unlock();
    return rc;
}

int mica_scatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                    mica_type_t *sendtype, void *recvbuf, MPI_Count recvcount,
                    mica_type_t *recvtype, int root, mica_comm_t *comm)
{
    if (comm->inter)
        return mica_inter_scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                                   recvtype, root, comm);
    int rc = check(sendbuf, sendtype, recvbuf, recvtype, root, comm);
    if (rc == MPI_SUCCESS && comm->rank == root) {
        rc = mica_coll_check_counts(comm->size, sendcounts, "sendcounts");
        if (rc == MPI_SUCCESS && !displs)
            rc = mica_error(MPI_ERR_ARG, "displs is NULL");
    }
    if (rc != MPI_SUCCESS)
        return rc;
    mica_lock();
    rc = mica_coll_scatterv_locked(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                                   recvtype, root, comm);
    mica_unlock();
    return rc;
}

int mica_scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                  mica_type_t *sendtype, void *recvbuf, int recvcount, mica_type_t *recvtype,
                  int root, mica_comm_t *comm)
{
    MPI_Count *c = NULL;
    MPI_Aint *d = NULL;
    int rc = MPI_SUCCESS;
    if (mica_comm_is_root(comm, root)) {   /* one count per remote process */
        rc = mica_coll_widen_counts(comm->remote_size, sendcounts, &c);
        if (rc == MPI_SUCCESS)
            rc = mica_coll_widen_displs(comm->remote_size, displs, &d);
    }
    if (rc == MPI_SUCCESS)
        rc = mica_scatterv_c(sendbuf, c, d, sendtype, recvbuf, recvcount, recvtype, root, comm);
    free(c);
    free(d);
    return rc;
}
