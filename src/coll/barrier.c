/* MPI_Barrier: the dissemination algorithm, ceil(log2 p) rounds for any p. In round k each
 * process signals rank + 2^k and waits for rank - 2^k; after the last round everyone has heard,
 * directly or not, from everyone. */
#include "coll/coll.h"
#include "coll/inter.h"
#include "core/progress.h"
#include "core_api.h"

int mica_coll_barrier(mica_comm_t *comm)
{
    int size = comm->size, rank = comm->rank;
    mica_type_t *byte = &mica_type_MPI_BYTE;
    for (int k = 1; k < size; k <<= 1) {
        int rc = mica_coll_sendrecv(NULL, 0, byte, (rank + k) % size, NULL, 0, byte,
                                    (rank - k + size) % size, MICA_TAG_BARRIER, comm);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

int mica_barrier(mica_comm_t *comm)
{
    if (comm->inter)
        return mica_inter_barrier(comm);
    mica_lock();
    int rc = mica_coll_barrier(comm);
    mica_unlock();
    return rc;
}
