/* The argument checks of the neighborhood collectives (neighbor.h), one per collective for its
 * three forms; the collectives themselves are neighbor_coll.c. */
#include <stdlib.h>

#include "coll/coll.h"
#include "core/errors.h"
#include "topo/neighbor.h"

/* --- argument checks ------------------------------------------------------------------------- */

static int check_bufs(const void *sendbuf, const void *recvbuf)
{
    if (sendbuf == MPI_IN_PLACE || recvbuf == MPI_IN_PLACE)
        return mica_error(MPI_ERR_BUFFER, "%s is MPI_IN_PLACE, which neighborhood collectives "
                          "do not take", sendbuf == MPI_IN_PLACE ? "sendbuf" : "recvbuf");
    return MPI_SUCCESS;
}

static int check_types(const void *sendbuf, mica_type_t *sendtype, const void *recvbuf,
                       mica_type_t *recvtype)
{
    int rc = check_bufs(sendbuf, recvbuf);
    if (rc == MPI_SUCCESS)
        rc = mica_coll_check_type(sendtype, "sendtype");
    if (rc == MPI_SUCCESS)
        rc = mica_coll_check_type(recvtype, "recvtype");
    return rc;
}

static int check_v(int n, const MPI_Count *counts, const MPI_Aint *displs, const char *what,
                   const char *dwhat)
{
    if (n == 0)                       /* no neighbors: the arrays may be NULL */
        return MPI_SUCCESS;
    int rc = mica_coll_check_counts(n, counts, what);
    if (rc == MPI_SUCCESS && !displs)
        rc = mica_error(MPI_ERR_ARG, "%s is NULL", dwhat);
    return rc;
}

/* --- one check per collective, for its three forms (algorithms.tsv) ---------------------- */

int mica_topo_check_neighbor_allgather(const mica_coll_args_t *a, mica_comm_t *comm)
{
    (void)comm;
    return check_types(a->sbuf, a->stype, a->rbuf, a->rtype);
}

int mica_topo_check_neighbor_alltoall(const mica_coll_args_t *a, mica_comm_t *comm)
{
    (void)comm;
    return check_types(a->sbuf, a->stype, a->rbuf, a->rtype);
}

int mica_topo_check_neighbor_allgatherv(const mica_coll_args_t *a, mica_comm_t *comm)
{
    (void)comm;
    int rc = check_types(a->sbuf, a->stype, a->rbuf, a->rtype);
    if (rc == MPI_SUCCESS)
        rc = check_v(a->nrecv, a->rcounts, a->rdispls, "recvcounts", "displs");
    if (rc == MPI_SUCCESS)
        rc = mica_coll_check_vbuf(a->rbuf, a->nrecv, a->rcounts, a->rdispls, a->rtype, NULL,
                                  "recvbuf");
    return rc;
}

/* Both sides' counts and displacements, and the buffers they place data in. */
static int check_vv(const mica_coll_args_t *a)
{
    int rc = check_v(a->nsend, a->scounts, a->sdispls, "sendcounts", "sdispls");
    if (rc == MPI_SUCCESS)
        rc = check_v(a->nrecv, a->rcounts, a->rdispls, "recvcounts", "rdispls");
    if (rc == MPI_SUCCESS)
        rc = mica_coll_check_vbuf(a->sbuf, a->nsend, a->scounts, a->sdispls, a->stype, a->stypes,
                                  "sendbuf");
    if (rc == MPI_SUCCESS)
        rc = mica_coll_check_vbuf(a->rbuf, a->nrecv, a->rcounts, a->rdispls, a->rtype, a->rtypes,
                                  "recvbuf");
    return rc;
}

int mica_topo_check_neighbor_alltoallv(const mica_coll_args_t *a, mica_comm_t *comm)
{
    (void)comm;
    int rc = check_types(a->sbuf, a->stype, a->rbuf, a->rtype);
    return rc != MPI_SUCCESS ? rc : check_vv(a);
}

/* The datatypes are checked as mica_coll_lookup_alltoallw looks them up. */
int mica_topo_check_neighbor_alltoallw(const mica_coll_args_t *a, mica_comm_t *comm)
{
    (void)comm;
    int rc = check_bufs(a->sbuf, a->rbuf);
    return rc != MPI_SUCCESS ? rc : check_vv(a);
}
