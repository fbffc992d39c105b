/* The blocking neighborhood collectives: every receive from the in-neighbors is posted, then
 * every send to the out-neighbors, on the communicator's collective context; MPI_PROC_NULL
 * neighbors are skipped, so their receive blocks stay untouched. Block j of the receive buffer
 * belongs to in-neighbor j, block j of the send buffer to out-neighbor j (allgather: the whole
 * send buffer goes to each). */
#include <stdlib.h>

#include "coll/coll.h"
#include "core/errors.h"
#include "core/progress.h"
#include "core_api.h"
#include "topo/neighbor.h"

/* One side (send or receive) of an exchange, and where its block j lies. */
typedef struct {
    const void *buf;
    MPI_Count count;                  /* every block's count, when counts is NULL */
    const MPI_Count *counts;
    const MPI_Aint *displs;           /* elements of `type`; bytes when `types` is set */
    mica_type_t *type;
    mica_type_t *const *types;
    int whole;                        /* every block is the whole buffer */
} side_t;

static void *block_at(const side_t *s, int j)
{
    if (s->whole)
        return (void *)s->buf;
    if (s->types)
        return (char *)s->buf + s->displs[j];
    return mica_coll_at(s->buf, s->displs ? s->displs[j] : (MPI_Count)j * s->count, s->type);
}

#define BLOCK_N(s, j) ((s)->counts ? (s)->counts[j] : (s)->count)
#define BLOCK_TYPE(s, j) ((s)->types ? (s)->types[j] : (s)->type)

static int exchange(mica_comm_t *comm, const side_t *send, const side_t *recv)
{
    mica_topo_peers_t p;
    int rc = mica_topo_peers(comm, &p);
    if (rc != MPI_SUCCESS)
        return rc;
    mica_request_t **reqs = calloc((size_t)p.nin + p.nout + 1, sizeof *reqs);
    if (!reqs) {
        free(p.in);
        return mica_error(MPI_ERR_NO_MEM, "no memory for %d requests", p.nin + p.nout);
    }
    mica_lock();
    for (int j = 0; j < p.nin && rc == MPI_SUCCESS; j++)
        if (p.in[j].rank != MPI_PROC_NULL)
            rc = mica_coll_irecv(block_at(recv, j), BLOCK_N(recv, j), BLOCK_TYPE(recv, j),
                                 p.in[j].rank, p.in[j].tag, comm, &reqs[j]);
    for (int j = 0; j < p.nout && rc == MPI_SUCCESS; j++)
        if (p.out[j].rank != MPI_PROC_NULL)
            rc = mica_coll_isend(block_at(send, j), BLOCK_N(send, j), BLOCK_TYPE(send, j),
                                 p.out[j].rank, p.out[j].tag, comm, &reqs[p.nin + j]);
    int rc2 = mica_request_waitall(p.nin + p.nout, reqs);   /* whatever was started */
    mica_unlock();
    free(reqs);
    free(p.in);
    return rc != MPI_SUCCESS ? rc : rc2;
}

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
                        const int *rd, mica_nbc_wide_t *w)
{
    *w = (mica_nbc_wide_t){0};
    int nin, nout, err = mica_topo_degrees(comm, &nin, &nout);
    return err != MPI_SUCCESS ? err : mica_nbc_widen(nout, sc, sd, nin, rc, rd, w);
}

/* --- allgather, alltoall --------------------------------------------------------------------- */

/* Allgather (whole = 1: the whole send buffer to each) and alltoall. */
static int uniform(const void *sendbuf, MPI_Count sendcount, mica_type_t *sendtype,
                   void *recvbuf, MPI_Count recvcount, mica_type_t *recvtype, mica_comm_t *comm,
                   int whole)
{
    int rc = mica_neighbor_check_types(sendbuf, sendtype, recvbuf, recvtype);
    if (rc != MPI_SUCCESS)
        return rc;
    side_t s = {.buf = sendbuf, .count = sendcount, .type = sendtype, .whole = whole};
    side_t r = {.buf = recvbuf, .count = recvcount, .type = recvtype};
    return exchange(comm, &s, &r);
}

int mica_neighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, mica_type_t *sendtype,
                              void *recvbuf, MPI_Count recvcount, mica_type_t *recvtype,
                              mica_comm_t *comm)
{
    return uniform(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, 1);
}

int mica_neighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount, mica_type_t *sendtype,
                             void *recvbuf, MPI_Count recvcount, mica_type_t *recvtype,
                             mica_comm_t *comm)
{
    return uniform(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, 0);
}

/* --- the v forms ----------------------------------------------------------------------------- */

int mica_neighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, mica_type_t *sendtype,
                               void *recvbuf, const MPI_Count recvcounts[],
                               const MPI_Aint displs[], mica_type_t *recvtype, mica_comm_t *comm)
{
    int nin, rc = mica_neighbor_check_allgatherv(sendbuf, sendtype, recvbuf, recvcounts, displs,
                                                 recvtype, comm, &nin);
    if (rc != MPI_SUCCESS)
        return rc;
    side_t s = {.buf = sendbuf, .count = sendcount, .type = sendtype, .whole = 1};
    side_t r = {.buf = recvbuf, .counts = recvcounts, .displs = displs, .type = recvtype};
    return exchange(comm, &s, &r);
}

int mica_neighbor_allgatherv(const void *sendbuf, int sendcount, mica_type_t *sendtype,
                             void *recvbuf, const int recvcounts[], const int displs[],
                             mica_type_t *recvtype, mica_comm_t *comm)
{
    mica_nbc_wide_t w;
    int rc = mica_neighbor_widen(comm, NULL, NULL, recvcounts, displs, &w);
    if (rc == MPI_SUCCESS)
        rc = mica_neighbor_allgatherv_c(sendbuf, sendcount, sendtype, recvbuf, w.rc, w.rd,
                                        recvtype, comm);
    mica_nbc_wide_free(&w);
    return rc;
}

int mica_neighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
                              const MPI_Aint sdispls[], mica_type_t *sendtype, void *recvbuf,
                              const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                              mica_type_t *recvtype, mica_comm_t *comm)
{
    int nin, nout, rc = mica_neighbor_check_types(sendbuf, sendtype, recvbuf, recvtype);
    if (rc == MPI_SUCCESS)
        rc = mica_neighbor_check_vv(comm, sendcounts, sdispls, recvcounts, rdispls, &nin, &nout);
    if (rc != MPI_SUCCESS)
        return rc;
    side_t s = {.buf = sendbuf, .counts = sendcounts, .displs = sdispls, .type = sendtype};
    side_t r = {.buf = recvbuf, .counts = recvcounts, .displs = rdispls, .type = recvtype};
    return exchange(comm, &s, &r);
}

int mica_neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                            mica_type_t *sendtype, void *recvbuf, const int recvcounts[],
                            const int rdispls[], mica_type_t *recvtype, mica_comm_t *comm)
{
    mica_nbc_wide_t w;
    int rc = mica_neighbor_widen(comm, sendcounts, sdispls, recvcounts, rdispls, &w);
    if (rc == MPI_SUCCESS)
        rc = mica_neighbor_alltoallv_c(sendbuf, w.sc, w.sd, sendtype, recvbuf, w.rc, w.rd,
                                       recvtype, comm);
    mica_nbc_wide_free(&w);
    return rc;
}

/* --- alltoallw ------------------------------------------------------------------------------- */

int mica_neighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[],
                              const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                              void *recvbuf, const MPI_Count recvcounts[],
                              const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                              mica_comm_t *comm)
{
    int nin, nout;
    mica_type_t **types;
    int rc = mica_neighbor_check_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                                           recvcounts, rdispls, recvtypes, comm, &nin, &nout,
                                           &types);
    if (rc != MPI_SUCCESS)
        return rc;
    side_t s = {.buf = sendbuf, .counts = sendcounts, .displs = sdispls, .types = types};
    side_t r = {.buf = recvbuf, .counts = recvcounts, .displs = rdispls, .types = types + nout};
    rc = exchange(comm, &s, &r);
    free(types);
    return rc;
}

int mica_neighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                            const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                            mica_comm_t *comm)
{
    mica_nbc_wide_t w;
    int rc = mica_neighbor_widen(comm, sendcounts, NULL, recvcounts, NULL, &w);
    if (rc == MPI_SUCCESS)
        rc = mica_neighbor_alltoallw_c(sendbuf, w.sc, sdispls, sendtypes, recvbuf, w.rc, rdispls,
                                       recvtypes, comm);
    mica_nbc_wide_free(&w);
    return rc;
}
