/* MPI_Barrier: the dissemination algorithm, ceil(log2 p) rounds for any p. In round k each
 * process signals rank + 2^k and waits for rank - 2^k; after the last round everyone has heard,
 * directly or not, from everyone. */
#include "coll/algorithms.h"
#include "coll/inter.h"
#include "core/progress.h"
#include "core_api.h"

void mica_coll_build_barrier(mica_sched_t *s, const mica_coll_args_t *a, mica_comm_t *comm)
{
    (void)a;
    int size = comm->size, rank = comm->rank;
    mica_type_t *byte = &mica_type_MPI_BYTE;
    for (int k = 1; k < size; k <<= 1) {
        mica_sched_recv(s, NULL, 0, byte, (rank - k + size) % size);
        mica_sched_send(s, NULL, 0, byte, (rank + k) % size);
        mica_sched_barrier(s);
    }
}

int mica_coll_barrier_locked(mica_comm_t *comm)
{
    mica_coll_args_t a = {0};
    return mica_sched_run(comm, MICA_TAG_BARRIER, mica_coll_build_barrier, &a);
}

int mica_barrier(mica_comm_t *comm)
{
    if (comm->inter)
        return mica_inter_barrier(comm);
    mica_lock();
    int rc = mica_coll_barrier_locked(comm);
    mica_unlock();
    return rc;
}
