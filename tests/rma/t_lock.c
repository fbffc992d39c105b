/* np: 2 4 */
/* Passive target: a shared counter with MPI_Fetch_and_op from every rank under shared locks
 * (the final value is exact, every fetched value distinct), exclusive locks with put/get,
 * lock_all with flush, compare-and-swap electing one winner, request-based operations, and
 * PSCW. The target progresses inside MPI calls (the barriers). */
#include <mpi.h>
#include <stdlib.h>
#include "../check.h"

#define ROUNDS 20

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long *mem;
    MPI_Win win;
    CHECK(MPI_Win_allocate(4 * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &mem,
                           &win) == MPI_SUCCESS);
    mem[0] = mem[1] = mem[2] = mem[3] = 0;
    MPI_Barrier(MPI_COMM_WORLD);

    /* The counter at rank 0: fetched values are all distinct, the final value exact. */
    long seen[ROUNDS], one = 1;
    for (int i = 0; i < ROUNDS; i++) {
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        MPI_Fetch_and_op(&one, &seen[i], MPI_LONG, 0, 0, MPI_SUM, win);
        MPI_Win_unlock(0, win);
    }
    for (int i = 1; i < ROUNDS; i++)
        CHECK(seen[i] > seen[i - 1]);
    long *all = malloc(size * ROUNDS * sizeof *all);
    MPI_Allgather(seen, ROUNDS, MPI_LONG, all, ROUNDS, MPI_LONG, MPI_COMM_WORLD);
    char *hit = calloc(size * ROUNDS, 1);
    for (int i = 0; i < size * ROUNDS; i++) {
        CHECK(all[i] >= 0 && all[i] < size * ROUNDS);
        if (all[i] >= 0 && all[i] < size * ROUNDS) {
            CHECKF(!hit[all[i]], "value %ld fetched twice", all[i]);
            hit[all[i]] = 1;
        }
    }
    long final = -1;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
    MPI_Get(&final, 1, MPI_LONG, 0, 0, 1, MPI_LONG, win);
    MPI_Win_unlock(0, win);
    CHECKF(final == (long)size * ROUNDS, "counter=%ld", final);

    /* Compare-and-swap: slot 1 of the last rank goes from 0 to exactly one rank + 1. */
    long mine = rank + 1, zero = 0, was = -1;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, size - 1, 0, win);
    MPI_Compare_and_swap(&mine, &zero, &was, MPI_LONG, size - 1, 1, win);
    MPI_Win_unlock(size - 1, win);
    int won = was == 0, winners = 0;
    MPI_Allreduce(&won, &winners, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECKF(winners == 1, "winners=%d", winners);

    /* Lock_all: each rank puts into its slot-2 of the right neighbour, flushes, reads back. */
    int right = (rank + 1) % size;
    MPI_Win_lock_all(0, win);
    long val = 1000 + rank, back = 0;
    MPI_Put(&val, 1, MPI_LONG, right, 2, 1, MPI_LONG, win);
    MPI_Win_flush(right, win);
    MPI_Request req;
    MPI_Rget(&back, 1, MPI_LONG, right, 2, 1, MPI_LONG, win, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECKF(back == 1000 + rank, "back=%ld", back);
    MPI_Win_flush_all(win);
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(mem[2] == 1000 + (rank + size - 1) % size);

    /* PSCW: rank 0 exposes to all others, each adds into slot 3. */
    MPI_Group world, g;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    if (rank == 0) {
        int n = size - 1, *r = malloc((n + 1) * sizeof *r);
        for (int i = 0; i < n; i++)
            r[i] = i + 1;
        MPI_Group_incl(world, n, r, &g);
        MPI_Win_post(g, 0, win);
        MPI_Win_wait(win);
        CHECKF(mem[3] == (long)n * (n + 1) / 2, "mem[3]=%ld", mem[3]);
        free(r);
    } else {
        int zr = 0;
        MPI_Group_incl(world, 1, &zr, &g);
        MPI_Win_start(g, 0, win);
        long a = rank;
        MPI_Accumulate(&a, 1, MPI_LONG, 0, 3, 1, MPI_LONG, MPI_SUM, win);
        MPI_Win_complete(win);
    }
    MPI_Group_free(&g);
    MPI_Group_free(&world);

    MPI_Win_free(&win);
    free(all);
    free(hit);
    MPI_Finalize();
    return CHECK_RESULT();
}
