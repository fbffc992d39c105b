/* np: 1 2 4 */
/* Exclusive locks that are contended: every rank increments a counter at rank 0 by a get, a
 * local add and a put under MPI_LOCK_EXCLUSIVE, many times; the counter is exact only if no
 * two epochs overlap, so the operations of an origin whose lock is not granted yet wait at the
 * target. Then epochs with MPI_MODE_NOCHECK (lock and lock_all), and a lock of its own window
 * that is held when MPI_Win_lock returns (a local store under it is seen by the others). */
#include <mpi.h>
#include "../check.h"

#define ROUNDS 200

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long *mem;
    MPI_Win win;
    MPI_Win_allocate(2 * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    mem[0] = mem[1] = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < ROUNDS; i++) {
        long v = -1;
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        MPI_Get(&v, 1, MPI_LONG, 0, 0, 1, MPI_LONG, win);
        MPI_Win_flush(0, win);
        v++;
        MPI_Put(&v, 1, MPI_LONG, 0, 0, 1, MPI_LONG, win);
        MPI_Win_unlock(0, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        CHECKF(mem[0] == (long)ROUNDS * size, "counter %ld, expected %ld", mem[0],
               (long)ROUNDS * size);

    /* NOCHECK: each rank writes its own slot of a window of rank-sized slots. */
    MPI_Win w2;
    int *slots;
    MPI_Win_allocate(size * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &slots,
                     &w2);
    for (int i = 0; i < size; i++)
        slots[i] = -1;
    MPI_Barrier(MPI_COMM_WORLD);
    int me = rank;
    for (int t = 0; t < size; t++) {
        MPI_Win_lock(MPI_LOCK_SHARED, t, MPI_MODE_NOCHECK, w2);
        MPI_Put(&me, 1, MPI_INT, t, rank, 1, MPI_INT, w2);
        MPI_Win_unlock(t, w2);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < size; i++)
        CHECKF(slots[i] == i, "slot %d = %d", i, slots[i]);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, w2);
    int back = -1;
    MPI_Get(&back, 1, MPI_INT, (rank + 1) % size, rank, 1, MPI_INT, w2);
    MPI_Win_unlock_all(w2);
    CHECKF(back == rank, "lock_all NOCHECK get %d", back);
    MPI_Win_free(&w2);

    /* Its own window locked: the lock is held on return, so a store and an unlock publish. */
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        mem[1] = 77;
        MPI_Win_unlock(0, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    long got = 0;
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
    MPI_Get(&got, 1, MPI_LONG, 0, 1, 1, MPI_LONG, win);
    MPI_Win_unlock(0, win);
    CHECKF(got == 77, "got %ld", got);
    MPI_Win_free(&win);
    MPI_Finalize();
    return CHECK_RESULT();
}
