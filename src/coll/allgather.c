/* MPI_Allgather and MPI_Allgatherv, in the receive buffer itself (own block first):
 *  - power-of-two sizes: recursive doubling, log2 p exchanges, each of the blocks gathered so
 *    far (they are adjacent in the buffer, so one message of the receive type);
 *  - otherwise, and for Allgatherv: a ring, p - 1 steps passing each block on to the right. */
#include <stdlib.h>

#include "coll/coll.h"
#include "coll/inter.h"
#include "core/errors.h"
#include "core/progress.h"
#include "core_api.h"

/* Block i: counts[i] elements at element displs[i] (counts NULL: rcount at i * rcount). */
#define BLOCK_N(i) (counts ? counts[i] : rcount)
#define BLOCK_AT(i) mica_coll_at(rbuf, counts ? displs[i] : (MPI_Count)(i) * rcount, rtype)

static int ring(void *rbuf, MPI_Count rcount, const MPI_Count *counts, const MPI_Aint *displs,
                mica_type_t *rtype, mica_comm_t *comm, int tag)
{
    int size = comm->size, rank = comm->rank;
    int left = (rank - 1 + size) % size, right = (rank + 1) % size;
    for (int i = 0; i < size - 1; i++) {
        int sb = (rank - i + size) % size, rb = (rank - i - 1 + size) % size;
        int rc = mica_coll_sendrecv(BLOCK_AT(sb), BLOCK_N(sb), rtype, right, BLOCK_AT(rb),
                                    BLOCK_N(rb), rtype, left, tag, comm);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

static int doubling(void *rbuf, MPI_Count rcount, mica_type_t *rtype, mica_comm_t *comm, int tag)
{
    int size = comm->size, rank = comm->rank;
    for (int mask = 1; mask < size; mask <<= 1) {
        int peer = rank ^ mask;
        int mine = rank & ~(mask - 1), theirs = peer & ~(mask - 1);
        int rc = mica_coll_sendrecv(mica_coll_at(rbuf, (MPI_Count)mine * rcount, rtype),
                                    mask * rcount, rtype, peer,
                                    mica_coll_at(rbuf, (MPI_Count)theirs * rcount, rtype),
                                    mask * rcount, rtype, peer, tag, comm);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

int mica_coll_allgather_tag_locked(const void *sbuf, MPI_Count scount, mica_type_t *stype,
                                   void *rbuf, MPI_Count rcount, mica_type_t *rtype,
                                   mica_comm_t *comm, int tag)
{
    const MPI_Count *counts = NULL;
    const MPI_Aint *displs = NULL;
    int size = comm->size;
    if (sbuf != MPI_IN_PLACE)
        mica_type_copy(sbuf, scount, stype, BLOCK_AT(comm->rank), rcount, rtype);
    if (size == 1)
        return MPI_SUCCESS;
    if ((size & (size - 1)) == 0)
        return doubling(rbuf, rcount, rtype, comm, tag);
    return ring(rbuf, rcount, NULL, NULL, rtype, comm, tag);
}

int mica_coll_allgather_locked(const void *sbuf, MPI_Count scount, mica_type_t *stype, void *rbuf,
                               MPI_Count rcount, mica_type_t *rtype, mica_comm_t *comm)
{
    return mica_coll_allgather_tag_locked(sbuf, scount, stype, rbuf, rcount, rtype, comm,
                                          MICA_TAG_ALLGATHER);
}

int mica_coll_allgatherv_locked(const void *sbuf, MPI_Count scount, mica_type_t *stype, void *rbuf,
                                const MPI_Count *counts, const MPI_Aint *displs, mica_type_t *rtype,
                                mica_comm_t *comm)
{
    MPI_Count rcount = 0;
    if (sbuf != MPI_IN_PLACE)
        mica_type_copy(sbuf, scount, stype, BLOCK_AT(comm->rank), BLOCK_N(comm->rank), rtype);
    return ring(rbuf, rcount, counts, displs, rtype, comm, MICA_TAG_ALLGATHER);
}

int mica_allgather_c(const void *sendbuf, MPI_Count sendcount, mica_type_t *sendtype,
                     void *recvbuf, MPI_Count recvcount, mica_type_t *recvtype, mica_comm_t *comm)
{
    if (comm->inter)
        return mica_inter_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                    comm);
    int rc = mica_coll_check_all(sendbuf, sendtype, recvbuf, recvtype);
    if (rc != MPI_SUCCESS)
        return rc;
    mica_lock();
    rc = mica_coll_allgather_locked(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                    comm);
    mica_unlock();
    return rc;
}

int mica_allgatherv_c(const void *sendbuf, MPI_Count sendcount, mica_type_t *sendtype,
                      void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                      mica_type_t *recvtype, mica_comm_t *comm)
{
    if (comm->inter)
        return mica_inter_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                     recvtype, comm);
    int rc = mica_coll_check_all(sendbuf, sendtype, recvbuf, recvtype);
    if (rc == MPI_SUCCESS)
        rc = mica_coll_check_counts(comm->size, recvcounts, "recvcounts");
    if (rc == MPI_SUCCESS && !displs)
        rc = mica_error(MPI_ERR_ARG, "displs is NULL");
    if (rc != MPI_SUCCESS)
        return rc;
    mica_lock();
    rc = mica_coll_allgatherv_locked(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                     recvtype, comm);
    mica_unlock();
    return rc;
}

int mica_allgatherv(const void *sendbuf, int sendcount, mica_type_t *sendtype, void *recvbuf,
                    const int recvcounts[], const int displs[], mica_type_t *recvtype,
                    mica_comm_t *comm)
{
    MPI_Count *c;
    MPI_Aint *d = NULL;
    int rc = mica_coll_widen_counts(comm->remote_size, recvcounts, &c);
    if (rc == MPI_SUCCESS)
        rc = mica_coll_widen_displs(comm->remote_size, displs, &d);
    if (rc == MPI_SUCCESS)
        rc = mica_allgatherv_c(sendbuf, sendcount, sendtype, recvbuf, c, d, recvtype, comm);
    free(c);
    free(d);
    return rc;
}
