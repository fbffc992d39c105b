/* The neighborhood collectives, blocking (MPI_Neighbor_*), nonblocking (MPI_Ineighbor_*) and
 * persistent (MPI_Neighbor_*_init), all running one schedule (coll/sched.h): one round, every
 * receive from the in-neighbors is posted, then every send to the out-neighbors, on the
 * communicator's collective context. MPI_PROC_NULL neighbors are skipped, so their receive
 * blocks stay untouched. Block j of the receive buffer belongs to in-neighbor j, block j of the
 * send buffer to out-neighbor j (allgather: the whole send buffer goes to each). The neighbor
 * lists are mica_topo_peers': the messages it tags MICA_TAG_NEIGHBOR_UP travel on the schedule's
 * second tag (a blocking schedule's tag is MICA_TAG_NEIGHBOR, its second MICA_TAG_NEIGHBOR_UP).
 * The argument checks and the widening of int arrays are neighbor.c's. */
#include <stdlib.h>

#include "core/errors.h"
#include "core/progress.h"
#include "core_api.h"
#include "topo/neighbor.h"

/* Block j of one side: counts[j] elements (or count) of types[j] (or type) at byte
 * displacement displs[j] (with types), element displacement displs[j], or j * count; `whole`:
 * every block is the whole buffer (the send side of allgather). */
static void *block_at(const void *buf, MPI_Count count, const MPI_Count *counts,
                      const MPI_Aint *displs, mica_type_t *type, mica_type_t *const *types,
                      int whole, int j, MPI_Count *n, mica_type_t **t)
{
    *n = counts ? counts[j] : count;
    *t = types ? types[j] : type;
    if (whole)
        return (void *)buf;
    if (types)
        return (char *)buf + displs[j];
    return mica_coll_at(buf, displs ? displs[j] : (MPI_Count)j * count, type);
}

static void build(mica_sched_t *s, const mica_coll_args_t *a, mica_comm_t *comm, int whole)
{
    mica_topo_peers_t p;
    int rc = mica_topo_peers(comm, &p);
    if (rc != MPI_SUCCESS) {
        mica_sched_fail(s, rc);
        return;
    }
    MPI_Count n;
    mica_type_t *t;
    for (int j = 0; j < p.nin; j++) {
        if (p.in[j].rank == MPI_PROC_NULL)
            continue;
        void *at = block_at(a->rbuf, a->rcount, a->rcounts, a->rdispls, a->rtype, a->rtypes, 0,
                            j, &n, &t);
        if (p.in[j].tag == MICA_TAG_NEIGHBOR_UP)
            mica_sched_recv_alt(s, at, n, t, p.in[j].rank);
        else
            mica_sched_recv(s, at, n, t, p.in[j].rank);
    }
    for (int j = 0; j < p.nout; j++) {
        if (p.out[j].rank == MPI_PROC_NULL)
            continue;
        void *at = block_at(a->sbuf, a->scount, a->scounts, a->sdispls, a->stype, a->stypes,
                            whole, j, &n, &t);
        if (p.out[j].tag == MICA_TAG_NEIGHBOR_UP)
            mica_sched_send_alt(s, at, n, t, p.out[j].rank);
        else
            mica_sched_send(s, at, n, t, p.out[j].rank);
    }
    free(p.in);
}

static void build_allgather(mica_sched_t *s, const mica_coll_args_t *a, mica_comm_t *comm)
{
    build(s, a, comm, 1);
}

static void build_alltoall(mica_sched_t *s, const mica_coll_args_t *a, mica_comm_t *comm)
{
    build(s, a, comm, 0);
}

static int launch(enum mica_coll_form form, mica_coll_build_fn *build,
                  const mica_coll_args_t *a, mica_comm_t *comm, MPI_Request *request)
{
    return mica_coll_launch(form, MICA_TAG_NEIGHBOR, build, a, comm, request);
}

/* --- the collectives, in any form ----------------------------------------------------------- */

/* Allgather and alltoall (`build` tells which): one count and datatype a side. */
static int uniform(mica_coll_build_fn *build, const void *sendbuf, MPI_Count sendcount,
                   mica_type_t *sendtype, void *recvbuf, MPI_Count recvcount,
                   mica_type_t *recvtype, mica_comm_t *comm, enum mica_coll_form form,
                   MPI_Request *request)
{
    int nin, nout, rc = mica_neighbor_check_types(sendbuf, sendtype, recvbuf, recvtype);
    if (rc == MPI_SUCCESS)
        rc = mica_topo_degrees(comm, &nin, &nout);
    if (rc != MPI_SUCCESS)
        return rc;
    mica_coll_args_t a = {.sbuf = sendbuf, .scount = sendcount, .stype = sendtype,
                          .rbuf = recvbuf, .rcount = recvcount, .rtype = recvtype};
    return launch(form, build, &a, comm, request);
}

static int allgatherv(const void *sendbuf, MPI_Count sendcount, mica_type_t *sendtype,
                      void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                      mica_type_t *recvtype, mica_comm_t *comm, enum mica_coll_form form,
                      MPI_Request *request)
{
    int nin, rc = mica_neighbor_check_allgatherv(sendbuf, sendtype, recvbuf, recvcounts, displs,
                                                 recvtype, comm, &nin);
    if (rc != MPI_SUCCESS)
        return rc;
    mica_coll_args_t a = {.sbuf = sendbuf, .scount = sendcount, .stype = sendtype,
                          .rbuf = recvbuf, .rcounts = nin ? recvcounts : NULL,
                          .rdispls = nin ? displs : NULL, .rtype = recvtype, .nrecv = nin};
    return launch(form, build_allgather, &a, comm, request);
}

static int alltoallv(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     mica_type_t *sendtype, void *recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], mica_type_t *recvtype, mica_comm_t *comm,
                     enum mica_coll_form form, MPI_Request *request)
{
    int nin, nout, rc = mica_neighbor_check_types(sendbuf, sendtype, recvbuf, recvtype);
    if (rc == MPI_SUCCESS)
        rc = mica_neighbor_check_vv(comm, sendcounts, sdispls, recvcounts, rdispls, &nin, &nout);
    if (rc != MPI_SUCCESS)
        return rc;
    mica_coll_args_t a = {.sbuf = sendbuf, .scounts = nout ? sendcounts : NULL,
                          .sdispls = nout ? sdispls : NULL, .stype = sendtype,
                          .rbuf = recvbuf, .rcounts = nin ? recvcounts : NULL,
                          .rdispls = nin ? rdispls : NULL, .rtype = recvtype, .nsend = nout,
                          .nrecv = nin};
    return launch(form, build_alltoall, &a, comm, request);
}

static int alltoallw(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], mica_comm_t *comm,
                     enum mica_coll_form form, MPI_Request *request)
{
    int nin, nout;
    mica_type_t **types;
    int rc = mica_neighbor_check_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                                           recvcounts, rdispls, recvtypes, comm, &nin, &nout,
                                           &types);
    if (rc != MPI_SUCCESS)
        return rc;
    /* The schedule (or the persistent request) keeps the datatypes it uses. */
    mica_coll_args_t a = {.sbuf = sendbuf, .scounts = nout ? sendcounts : NULL,
                          .sdispls = nout ? sdispls : NULL, .stypes = nout ? types : NULL,
                          .rbuf = recvbuf, .rcounts = nin ? recvcounts : NULL,
                          .rdispls = nin ? rdispls : NULL, .rtypes = nin ? types + nout : NULL,
                          .nsend = nout, .nrecv = nin};
    rc = launch(form, build_alltoall, &a, comm, request);
    free(types);
    return rc;
}

/* The int forms of the v and w collectives: their arrays widened. */
static int allgatherv_int(const void *sendbuf, int sendcount, mica_type_t *sendtype,
                          void *recvbuf, const int recvcounts[], const int displs[],
                          mica_type_t *recvtype, mica_comm_t *comm, enum mica_coll_form form,
                          MPI_Request *request)
{
    mica_coll_wide_t w;
    int rc = mica_neighbor_widen(comm, NULL, NULL, recvcounts, displs, &w);
    if (rc == MPI_SUCCESS)
        rc = allgatherv(sendbuf, sendcount, sendtype, recvbuf, w.rc, w.rd, recvtype, comm,
                        form, request);
    mica_coll_wide_free(&w);
    return rc;
}

static int alltoallv_int(const void *sendbuf, const int sendcounts[], const int sdispls[],
                         mica_type_t *sendtype, void *recvbuf, const int recvcounts[],
                         const int rdispls[], mica_type_t *recvtype, mica_comm_t *comm,
                         enum mica_coll_form form, MPI_Request *request)
{
    mica_coll_wide_t w;
    int rc = mica_neighbor_widen(comm, sendcounts, sdispls, recvcounts, rdispls, &w);
    if (rc == MPI_SUCCESS)
        rc = alltoallv(sendbuf, w.sc, w.sd, sendtype, recvbuf, w.rc, w.rd, recvtype, comm,
                       form, request);
    mica_coll_wide_free(&w);
    return rc;
}

static int alltoallw_int(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                         const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                         const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                         mica_comm_t *comm, enum mica_coll_form form, MPI_Request *request)
{
    mica_coll_wide_t w;
    int rc = mica_neighbor_widen(comm, sendcounts, NULL, recvcounts, NULL, &w);
    if (rc == MPI_SUCCESS)
        rc = alltoallw(sendbuf, w.sc, sdispls, sendtypes, recvbuf, w.rc, rdispls, recvtypes,
                       comm, form, request);
    mica_coll_wide_free(&w);
    return rc;
}

/* --- entry points: blocking --------------------------------------------------------------- */

int mica_neighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, mica_type_t *sendtype,
                              void *recvbuf, MPI_Count recvcount, mica_type_t *recvtype,
                              mica_comm_t *comm)
{
    return uniform(build_allgather, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                   recvtype, comm, MICA_COLL_BLOCKING, NULL);
}

int mica_neighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount, mica_type_t *sendtype,
                             void *recvbuf, MPI_Count recvcount, mica_type_t *recvtype,
                             mica_comm_t *comm)
{
    return uniform(build_alltoall, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                   recvtype, comm, MICA_COLL_BLOCKING, NULL);
}

int mica_neighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, mica_type_t *sendtype,
                               void *recvbuf, const MPI_Count recvcounts[],
                               const MPI_Aint displs[], mica_type_t *recvtype, mica_comm_t *comm)
{
    return allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm,
                      MICA_COLL_BLOCKING, NULL);
}

int mica_neighbor_allgatherv(const void *sendbuf, int sendcount, mica_type_t *sendtype,
                             void *recvbuf, const int recvcounts[], const int displs[],
                             mica_type_t *recvtype, mica_comm_t *comm)
{
    return allgatherv_int(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                          comm, MICA_COLL_BLOCKING, NULL);
}

int mica_neighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
                              const MPI_Aint sdispls[], mica_type_t *sendtype, void *recvbuf,
                              const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                              mica_type_t *recvtype, mica_comm_t *comm)
{
    return alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                     recvtype, comm, MICA_COLL_BLOCKING, NULL);
}

int mica_neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                            mica_type_t *sendtype, void *recvbuf, const int recvcounts[],
                            const int rdispls[], mica_type_t *recvtype, mica_comm_t *comm)
{
    return alltoallv_int(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                         recvtype, comm, MICA_COLL_BLOCKING, NULL);
}

int mica_neighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[],
                              const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                              void *recvbuf, const MPI_Count recvcounts[],
                              const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                              mica_comm_t *comm)
{
    return alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                     recvtypes, comm, MICA_COLL_BLOCKING, NULL);
}

int mica_neighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                            const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                            mica_comm_t *comm)
{
    return alltoallw_int(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                         recvtypes, comm, MICA_COLL_BLOCKING, NULL);
}

/* --- entry points: nonblocking ---------------------------------------------------------- */

int mica_ineighbor_allgather_c(const void *sendbuf, MPI_Count sendcount, mica_type_t *sendtype,
                               void *recvbuf, MPI_Count recvcount, mica_type_t *recvtype,
                               mica_comm_t *comm, MPI_Request *request)
{
    return uniform(build_allgather, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                   recvtype, comm, MICA_COLL_NONBLOCKING, request);
}

int mica_ineighbor_alltoall_c(const void *sendbuf, MPI_Count sendcount, mica_type_t *sendtype,
                              void *recvbuf, MPI_Count recvcount, mica_type_t *recvtype,
                              mica_comm_t *comm, MPI_Request *request)
{
    return uniform(build_alltoall, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                   recvtype, comm, MICA_COLL_NONBLOCKING, request);
}

int mica_ineighbor_allgatherv_c(const void *sendbuf, MPI_Count sendcount, mica_type_t *sendtype,
                                void *recvbuf, const MPI_Count recvcounts[],
                                const MPI_Aint displs[], mica_type_t *recvtype,
                                mica_comm_t *comm, MPI_Request *request)
{
    return allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm,
                      MICA_COLL_NONBLOCKING, request);
}

int mica_ineighbor_allgatherv(const void *sendbuf, int sendcount, mica_type_t *sendtype,
                              void *recvbuf, const int recvcounts[], const int displs[],
                              mica_type_t *recvtype, mica_comm_t *comm, MPI_Request *request)
{
    return allgatherv_int(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                          comm, MICA_COLL_NONBLOCKING, request);
}

int mica_ineighbor_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
                               const MPI_Aint sdispls[], mica_type_t *sendtype, void *recvbuf,
                               const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                               mica_type_t *recvtype, mica_comm_t *comm, MPI_Request *request)
{
    return alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                     recvtype, comm, MICA_COLL_NONBLOCKING, request);
}

int mica_ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                             mica_type_t *sendtype, void *recvbuf, const int recvcounts[],
                             const int rdispls[], mica_type_t *recvtype, mica_comm_t *comm,
                             MPI_Request *request)
{
    return alltoallv_int(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                         recvtype, comm, MICA_COLL_NONBLOCKING, request);
}

int mica_ineighbor_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[],
                               const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                               void *recvbuf, const MPI_Count recvcounts[],
                               const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                               mica_comm_t *comm, MPI_Request *request)
{
    return alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                     recvtypes, comm, MICA_COLL_NONBLOCKING, request);
}

int mica_ineighbor_alltoallw(const void *sendbuf, const int sendcounts[],
                             const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                             void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                             const MPI_Datatype recvtypes[], mica_comm_t *comm,
                             MPI_Request *request)
{
    return alltoallw_int(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                         recvtypes, comm, MICA_COLL_NONBLOCKING, request);
}

/* --- entry points: persistent (no hints are used: info is ignored) ----------------------- */

int mica_neighbor_allgather_init_c(const void *sendbuf, MPI_Count sendcount,
                                   mica_type_t *sendtype, void *recvbuf, MPI_Count recvcount,
                                   mica_type_t *recvtype, mica_comm_t *comm, mica_info_t *info,
                                   MPI_Request *request)
{
    (void)info;
    return uniform(build_allgather, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                   recvtype, comm, MICA_COLL_PERSISTENT, request);
}

int mica_neighbor_alltoall_init_c(const void *sendbuf, MPI_Count sendcount,
                                  mica_type_t *sendtype, void *recvbuf, MPI_Count recvcount,
                                  mica_type_t *recvtype, mica_comm_t *comm, mica_info_t *info,
                                  MPI_Request *request)
{
    (void)info;
    return uniform(build_alltoall, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                   recvtype, comm, MICA_COLL_PERSISTENT, request);
}

int mica_neighbor_allgatherv_init_c(const void *sendbuf, MPI_Count sendcount,
                                    mica_type_t *sendtype, void *recvbuf,
                                    const MPI_Count recvcounts[], const MPI_Aint displs[],
                                    mica_type_t *recvtype, mica_comm_t *comm, mica_info_t *info,
                                    MPI_Request *request)
{
    (void)info;
    return allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm,
                      MICA_COLL_PERSISTENT, request);
}

int mica_neighbor_allgatherv_init(const void *sendbuf, int sendcount, mica_type_t *sendtype,
                                  void *recvbuf, const int recvcounts[], const int displs[],
                                  mica_type_t *recvtype, mica_comm_t *comm, mica_info_t *info,
                                  MPI_Request *request)
{
    (void)info;
    return allgatherv_int(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                          comm, MICA_COLL_PERSISTENT, request);
}

int mica_neighbor_alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                                   const MPI_Aint sdispls[], mica_type_t *sendtype,
                                   void *recvbuf, const MPI_Count recvcounts[],
                                   const MPI_Aint rdispls[], mica_type_t *recvtype,
                                   mica_comm_t *comm, mica_info_t *info, MPI_Request *request)
{
    (void)info;
    return alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                     recvtype, comm, MICA_COLL_PERSISTENT, request);
}

int mica_neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[],
                                 const int sdispls[], mica_type_t *sendtype, void *recvbuf,
                                 const int recvcounts[], const int rdispls[],
                                 mica_type_t *recvtype, mica_comm_t *comm, mica_info_t *info,
                                 MPI_Request *request)
{
    (void)info;
    return alltoallv_int(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                         recvtype, comm, MICA_COLL_PERSISTENT, request);
}

int mica_neighbor_alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                                   const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                   void *recvbuf, const MPI_Count recvcounts[],
                                   const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                                   mica_comm_t *comm, mica_info_t *info, MPI_Request *request)
{
    (void)info;
    return alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                     recvtypes, comm, MICA_COLL_PERSISTENT, request);
}

int mica_neighbor_alltoallw_init(const void *sendbuf, const int sendcounts[],
                                 const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                 void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                                 const MPI_Datatype recvtypes[], mica_comm_t *comm,
                                 mica_info_t *info, MPI_Request *request)
{
    (void)info;
    return alltoallw_int(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                         recvtypes, comm, MICA_COLL_PERSISTENT, request);
}
