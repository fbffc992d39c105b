/* MPI_Alltoall, MPI_Alltoallv, MPI_Alltoallw: one engine for the three. Block j goes to
 * process j from (sbuf + sdispls[j] bytes, scounts[j], stypes[j]) and block j comes from
 * process j into (rbuf + rdispls[j] bytes, rcounts[j], rtypes[j]).
 *  - small blocks: every receive and send posted at once, then one wait;
 *  - otherwise pairwise exchange, p - 1 steps: with a power-of-two p step i pairs rank with
 *    rank ^ i, else rank sends to rank + i and receives from rank - i.
 * MPI_IN_PLACE: the outgoing blocks are first packed out of the receive buffer. */
#include <stdlib.h>

#include "coll/coll.h"
#include "coll/inter.h"
#include "coll/nbc.h"
#include "core/errors.h"
#include "core/progress.h"
#include "core_api.h"

typedef struct {
    const char *sbuf;
    const MPI_Count *scounts;
    const MPI_Aint *sdispls;          /* bytes */
    mica_type_t *const *stypes;
    char *rbuf;
    const MPI_Count *rcounts;
    const MPI_Aint *rdispls;          /* bytes */
    mica_type_t *const *rtypes;
} a2a_t;

static int exchange(const a2a_t *a, mica_comm_t *comm)
{
    int size = comm->size, rank = comm->rank, rc = MPI_SUCCESS;
    mica_type_copy(a->sbuf + a->sdispls[rank], a->scounts[rank], a->stypes[rank],
                   a->rbuf + a->rdispls[rank], a->rcounts[rank], a->rtypes[rank]);
    if (size == 1)
        return MPI_SUCCESS;
    MPI_Count largest = 0;
    for (int j = 0; j < size; j++) {
        MPI_Count b = a->scounts[j] * a->stypes[j]->size;
        if (b > largest)
            largest = b;
    }
    if (largest <= mica_tunables.alltoall_short) {
        mica_request_t **reqs = calloc(2 * (size_t)size, sizeof *reqs);
        if (!reqs)
            return mica_error(MPI_ERR_NO_MEM, "no memory for %d requests", 2 * size);
        for (int i = 1; i < size && rc == MPI_SUCCESS; i++) {
            int src = (rank - i + size) % size;
            rc = mica_coll_irecv(a->rbuf + a->rdispls[src], a->rcounts[src], a->rtypes[src], src,
                                 MICA_TAG_ALLTOALL, comm, &reqs[i]);
        }
        for (int i = 1; i < size && rc == MPI_SUCCESS; i++) {
            int dst = (rank + i) % size;
            rc = mica_coll_isend(a->sbuf + a->sdispls[dst], a->scounts[dst], a->stypes[dst], dst,
                                 MICA_TAG_ALLTOALL, comm, &reqs[size + i]);
        }
        int rc2 = mica_request_waitall(2 * size, reqs);
        free(reqs);
        return rc != MPI_SUCCESS ? rc : rc2;
    }
    int pof2 = (size & (size - 1)) == 0;
    for (int i = 1; i < size; i++) {
        int dst = pof2 ? rank ^ i : (rank + i) % size;
        int src = pof2 ? rank ^ i : (rank - i + size) % size;
        rc = mica_coll_sendrecv(a->sbuf + a->sdispls[dst], a->scounts[dst], a->stypes[dst], dst,
                                a->rbuf + a->rdispls[src], a->rcounts[src], a->rtypes[src], src,
                                MICA_TAG_ALLTOALL, comm);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

/* MPI_IN_PLACE: pack block j of the receive buffer (what goes to j) into one contiguous copy,
 * then send from that as bytes. */
static int exchange_in_place(a2a_t *a, mica_comm_t *comm)
{
    int size = comm->size;
    MPI_Count total = 0;
    for (int j = 0; j < size; j++)
        total += a->rcounts[j] * a->rtypes[j]->size;
    MPI_Count *counts = malloc(2 * (size_t)size * sizeof *counts);
    MPI_Aint *displs = (MPI_Aint *)(counts + size);
    mica_type_t **types = malloc((size_t)size * sizeof *types);
    char *copy = malloc(total ? (size_t)total : 1);
    int rc = MPI_SUCCESS;
    if (!counts || !types || !copy) {
        rc = mica_error(MPI_ERR_NO_MEM, "no memory for a copy of %lld bytes", (long long)total);
        goto out;
    }
    MPI_Count at = 0;
    for (int j = 0; j < size; j++) {
        counts[j] = a->rcounts[j] * a->rtypes[j]->size;
        displs[j] = (MPI_Aint)at;
        types[j] = &mica_type_MPI_BYTE;
        mica_type_pack(a->rbuf + a->rdispls[j], a->rcounts[j], a->rtypes[j], 0, copy + at,
                       counts[j]);
        at += counts[j];
    }
    a->sbuf = copy;
    a->scounts = counts;
    a->sdispls = displs;
    a->stypes = types;
    rc = exchange(a, comm);
out:
    free(counts);
    free(types);
    free(copy);
    return rc;
}

/* Per-peer arrays for the uniform forms; *mem is what to free. */
static int expand(int size, MPI_Count count, const MPI_Count *counts, const MPI_Aint *displs,
                  mica_type_t *type, const MPI_Count **ocounts, const MPI_Aint **odispls,
                  mica_type_t *const **otypes, void **mem)
{
    size_t n = (size_t)size;
    char *m = malloc(n * (sizeof(MPI_Count) + sizeof(MPI_Aint) + sizeof(mica_type_t *)));
    if (!(*mem = m))
        return mica_error(MPI_ERR_NO_MEM, "no memory for the block table of %d processes", size);
    MPI_Count *c = (MPI_Count *)m;
    MPI_Aint *d = (MPI_Aint *)(m + n * sizeof *c);
    mica_type_t **t = (mica_type_t **)(m + n * (sizeof *c + sizeof *d));
    for (int j = 0; j < size; j++) {
        c[j] = counts ? counts[j] : count;
        d[j] = (MPI_Aint)(counts ? displs[j] : (MPI_Count)j * count) * type->extent;
        t[j] = type;
    }
    *ocounts = c;
    *odispls = d;
    *otypes = t;
    return MPI_SUCCESS;
}

static int alltoall_any(const void *sbuf, MPI_Count scount, const MPI_Count *scounts,
                        const MPI_Aint *sdispls, mica_type_t *stype, void *rbuf,
                        MPI_Count rcount, const MPI_Count *rcounts, const MPI_Aint *rdispls,
                        mica_type_t *rtype, mica_comm_t *comm)
{
    a2a_t a = {.sbuf = sbuf, .rbuf = rbuf};
    void *smem = NULL, *rmem = NULL;
    int rc = expand(comm->size, rcount, rcounts, rdispls, rtype, &a.rcounts, &a.rdispls,
                    &a.rtypes, &rmem);
    if (rc == MPI_SUCCESS && sbuf == MPI_IN_PLACE)
        rc = exchange_in_place(&a, comm);
    else if (rc == MPI_SUCCESS) {
        rc = expand(comm->size, scount, scounts, sdispls, stype, &a.scounts, &a.sdispls,
                    &a.stypes, &smem);
        if (rc == MPI_SUCCESS)
            rc = exchange(&a, comm);
    }
    free(smem);
    free(rmem);
    return rc;
}

int mica_coll_alltoall_locked(const void *sbuf, MPI_Count scount, mica_type_t *stype, void *rbuf,
                              MPI_Count rcount, mica_type_t *rtype, mica_comm_t *comm)
{
    return alltoall_any(sbuf, scount, NULL, NULL, stype, rbuf, rcount, NULL, NULL, rtype, comm);
}

int mica_coll_alltoallv_locked(const void *sbuf, const MPI_Count *scounts, const MPI_Aint *sdispls,
                               mica_type_t *stype, void *rbuf, const MPI_Count *rcounts,
                               const MPI_Aint *rdispls, mica_type_t *rtype, mica_comm_t *comm)
{
    return alltoall_any(sbuf, 0, scounts, sdispls, stype, rbuf, 0, rcounts, rdispls, rtype,
                        comm);
}

int mica_coll_alltoallw_locked(const void *sbuf, const MPI_Count *scounts, const MPI_Aint *sdispls,
                               mica_type_t *const *stypes, void *rbuf, const MPI_Count *rcounts,
                               const MPI_Aint *rdispls, mica_type_t *const *rtypes,
                               mica_comm_t *comm)
{
    a2a_t a = {sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes};
    return sbuf == MPI_IN_PLACE ? exchange_in_place(&a, comm) : exchange(&a, comm);
}

/* --- entry points ----------------------------------------------------------------------------- */

/* The argument checks are the nonblocking forms' (nbc.h). */

int mica_alltoall_c(const void *sendbuf, MPI_Count sendcount, mica_type_t *sendtype,
                    void *recvbuf, MPI_Count recvcount, mica_type_t *recvtype, mica_comm_t *comm)
{
    if (comm->inter)
        return mica_inter_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                   comm);
    int rc = mica_coll_check_all(sendbuf, sendtype, recvbuf, recvtype);
    if (rc != MPI_SUCCESS)
        return rc;
    mica_lock();
    rc = mica_coll_alltoall_locked(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                   comm);
    mica_unlock();
    return rc;
}

int mica_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     mica_type_t *sendtype, void *recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], mica_type_t *recvtype, mica_comm_t *comm)
{
    if (comm->inter)
        return mica_inter_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                    rdispls, recvtype, comm);
    int rc = mica_coll_check_all(sendbuf, sendtype, recvbuf, recvtype);
    if (rc == MPI_SUCCESS)
        rc = mica_coll_check_alltoallv(sendbuf, sendcounts, sdispls, recvcounts, rdispls,
                                       comm->size);
    if (rc != MPI_SUCCESS)
        return rc;
    mica_lock();
    rc = mica_coll_alltoallv_locked(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                    rdispls, recvtype, comm);
    mica_unlock();
    return rc;
}

int mica_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   mica_type_t *sendtype, void *recvbuf, const int recvcounts[],
                   const int rdispls[], mica_type_t *recvtype, mica_comm_t *comm)
{
    mica_coll_wide_t w;               /* one block per remote process */
    int rc = mica_coll_widen_alltoall(comm->remote_size, sendbuf, sendcounts, sdispls,
                                      recvcounts, rdispls, &w);
    if (rc == MPI_SUCCESS)
        rc = mica_alltoallv_c(sendbuf, w.sc, w.sd, sendtype, recvbuf, w.rc, w.rd, recvtype, comm);
    mica_coll_wide_free(&w);
    return rc;
}

int mica_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], mica_comm_t *comm)
{
    int n = comm->remote_size;  /* one block per remote process */
    mica_type_t **types;
    int rc = mica_coll_check_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                                       recvcounts, rdispls, recvtypes, n, &types);
    if (rc != MPI_SUCCESS)
        return rc;
    mica_lock();
    rc = (comm->inter ? mica_inter_alltoallw : mica_coll_alltoallw_locked)(
        sendbuf, sendcounts, sdispls, types, recvbuf, recvcounts, rdispls, types + n, comm);
    mica_unlock();
    free(types);
    return rc;
}

int mica_alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                   const int rdispls[], const MPI_Datatype recvtypes[], mica_comm_t *comm)
{
    mica_coll_wide_t w;               /* one block per remote process */
    int rc = mica_coll_widen_alltoall(comm->remote_size, sendbuf, sendcounts, sdispls,
                                      recvcounts, rdispls, &w);
    if (rc == MPI_SUCCESS)
        rc = mica_alltoallw_c(sendbuf, w.sc, w.sd, sendtypes, recvbuf, w.rc, w.rd, recvtypes, comm);
    mica_coll_wide_free(&w);
    return rc;
}
