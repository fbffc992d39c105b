/* MPI_Barrier: the dissemination algorithm, ceil(log2 p) rounds for any p. In round k each
 * process signals rank + 2^k and waits for rank - 2^k; after the last round everyone has heard,
 * directly or not, from everyone. */
#include "coll/algorithms.h"
#include "coll/inter.h"
#include "core/progress.h"
#include "core_api.h"

void mica_coll_barrier_dissemination(mica_sched_t *s, const mica_coll_args_t *a, mica_comm_t *comm)
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

/* The blocking form's fast path: the same rounds by hand, without the schedule's machinery,
 * which costs 2-rank MPI_Barrier 31% more instructions (callgrind, besides progress polling:
 * 659 here, 865 through mica_sched_run) and showed in `bench/run.py --quick barrier` (best of
 * 6 interleaved runs on the loaded 2-core host: 4 ranks 7.35 us here, 7.90 us through it;
 * 8 ranks 38.1 us, 47.2 us). */
int mica_coll_barrier_dissemination_blocking(const mica_coll_args_t *a, mica_comm_t *comm)
{
    (void)a;
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

