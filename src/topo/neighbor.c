/* The argument checks of the neighborhood collectives (neighbor.h), and the widening of the int
 * arrays of their MPI_X forms; the collectives themselves are neighbor_coll.c. */
#include <stdlib.h>

#include "coll/coll.h"
#include "core/errors.h"
#include "topo/neighbor.h"

/* --- argument checks ------------------------------------------------------------------------- */

int mica_neighbor_check_bufs(const void *sendbuf, const void *recvbuf)
{
    if (sendbuf == MPI_IN_PLACE || recvbuf == MPI_IN_PLACE)
        return mica_error(MPI_ERR_BUFFER, "%s is MPI_IN_PLACE, which neighborhood collectives "
                          "do not take", sendbuf == MPI_IN_PLACE ? "sendbuf" : "recvbuf");
    return MPI_SUCCESS;
}

int mica_neighbor_check_types(const void *sendbuf, mica_type_t *sendtype, const void *recvbuf,
                              mica_type_t *recvtype)
{
    int rc = mica_neighbor_check_bufs(sendbuf, recvbuf);
    if (rc == MPI_SUCCESS)
        rc = mica_coll_check_type(sendtype, "sendtype");
    if (rc == MPI_SUCCESS)
        rc = mica_coll_check_type(recvtype, "recvtype");
    return rc;
}

int mica_neighbor_check_v(int n, const MPI_Count *counts, const MPI_Aint *displs,
                          const char *what, const char *dwhat)
{
    if (n == 0)                       /* no neighbors: the arrays may be NULL */
        return MPI_SUCCESS;
    int rc = mica_coll_check_counts(n, counts, what);
    if (rc == MPI_SUCCESS && !displs)
        rc = mica_error(MPI_ERR_ARG, "%s is NULL", dwhat);
    return rc;
}

int mica_neighbor_check_allgatherv(const void *sendbuf, mica_type_t *sendtype, const void *recvbuf,
                                   const MPI_Count *recvcounts, const MPI_Aint *displs,
                                   mica_type_t *recvtype, mica_comm_t *comm, int *nin)
{
    int nout, rc = mica_neighbor_check_types(sendbuf, sendtype, recvbuf, recvtype);
    if (rc == MPI_SUCCESS)
        rc = mica_topo_degrees(comm, nin, &nout);
    if (rc == MPI_SUCCESS)
        rc = mica_neighbor_check_v(*nin, recvcounts, displs, "recvcounts", "displs");
    return rc;
}

int mica_neighbor_check_vv(mica_comm_t *comm, const MPI_Count *sendcounts,
                           const MPI_Aint *sdispls, const MPI_Count *recvcounts,
                           const MPI_Aint *rdispls, int *nin, int *nout)
{
    int rc = mica_topo_degrees(comm, nin, nout);
    if (rc == MPI_SUCCESS)
        rc = mica_neighbor_check_v(*nout, sendcounts, sdispls, "sendcounts", "sdispls");
    if (rc == MPI_SUCCESS)
        rc = mica_neighbor_check_v(*nin, recvcounts, rdispls, "recvcounts", "rdispls");
    return rc;
}

/* The datatype handles in[n] as objects in out[n], checked (in may be NULL when n is 0). */
static int lookup_types(int n, const MPI_Datatype *in, const MPI_Count *counts,
                        const char *what, mica_type_t **out)
{
    return n == 0 ? MPI_SUCCESS : mica_coll_lookup_types(n, in, counts, what, out);
}

int mica_neighbor_check_alltoallw(const void *sendbuf, const MPI_Count *sendcounts,
                                  const MPI_Aint *sdispls, const MPI_Datatype *sendtypes,
                                  const void *recvbuf, const MPI_Count *recvcounts,
                                  const MPI_Aint *rdispls, const MPI_Datatype *recvtypes,
                                  mica_comm_t *comm, int *nin, int *nout, mica_type_t ***types)
{
    *types = NULL;
    int rc = mica_neighbor_check_bufs(sendbuf, recvbuf);
    if (rc == MPI_SUCCESS)
        rc = mica_neighbor_check_vv(comm, sendcounts, sdispls, recvcounts, rdispls, nin, nout);
    if (rc != MPI_SUCCESS)
        return rc;
    mica_type_t **t = malloc(((size_t)*nin + *nout + 1) * sizeof *t);
    if (!t)
        return mica_error(MPI_ERR_NO_MEM, "no memory for %d datatypes", *nin + *nout);
    rc = lookup_types(*nout, sendtypes, sendcounts, "sendtypes", t);
    if (rc == MPI_SUCCESS)
        rc = lookup_types(*nin, recvtypes, recvcounts, "recvtypes", t + *nout);
    if (rc != MPI_SUCCESS)
        free(t);
    else
        *types = t;
    return rc;
}

int mica_neighbor_widen(mica_comm_t *comm, const int *sc, const int *sd, const int *rc,
                        const int *rd, mica_coll_wide_t *w)
{
    *w = (mica_coll_wide_t){0};
    int nin, nout, err = mica_topo_degrees(comm, &nin, &nout);
    return err != MPI_SUCCESS ? err : mica_coll_widen(nout, sc, sd, nin, rc, rd, w);
}
