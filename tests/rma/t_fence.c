/* np: 2 4 */
/* Active target with fences: put, get, accumulate (several ops), get_accumulate, exact values. */
#include <mpi.h>
#include <stdio.h>
#include "../check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int buf[16] = {0};
    MPI_Win win;
    CHECK(MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win)
          == MPI_SUCCESS);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;

    /* Put my rank into slot 0 of my right neighbour. */
    MPI_Win_fence(0, win);
    int v = 100 + rank;
    MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    CHECKF(buf[0] == 100 + left, "buf[0]=%d", buf[0]);

    /* Get slot 0 of the left neighbour: its left neighbour's value. */
    int got = -1;
    MPI_Get(&got, 1, MPI_INT, left, 0, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    CHECKF(got == 100 + (left + size - 1) % size, "got=%d", got);

    /* Everyone adds rank+1 into slot 1 of everyone; max into slot 2; replace into slot 3. */
    for (int t = 0; t < size; t++) {
        int a = rank + 1;
        MPI_Accumulate(&a, 1, MPI_INT, t, 1, 1, MPI_INT, MPI_SUM, win);
        MPI_Accumulate(&a, 1, MPI_INT, t, 2, 1, MPI_INT, MPI_MAX, win);
    }
    MPI_Win_fence(0, win);
    CHECKF(buf[1] == size * (size + 1) / 2, "sum=%d", buf[1]);
    CHECKF(buf[2] == size, "max=%d", buf[2]);

    /* A strided target datatype: every other int, slots 4, 6, 8. */
    MPI_Datatype vec;
    MPI_Type_vector(3, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    int three[3] = {rank * 10 + 1, rank * 10 + 2, rank * 10 + 3};
    MPI_Put(three, 3, MPI_INT, right, 4, 1, vec, win);
    MPI_Win_fence(0, win);
    CHECK(buf[4] == left * 10 + 1 && buf[6] == left * 10 + 2 && buf[8] == left * 10 + 3);
    CHECK(buf[5] == 0 && buf[7] == 0);
    int back[3] = {0};
    MPI_Get(back, 3, MPI_INT, left, 4, 1, vec, win);
    MPI_Win_fence(0, win);
    int ll = (left + size - 1) % size;
    CHECK(back[0] == ll * 10 + 1 && back[1] == ll * 10 + 2 && back[2] == ll * 10 + 3);
    MPI_Type_free(&vec);

    /* Get_accumulate with MPI_SUM on slot 10 of rank 0: results are prefix sums in some order;
     * the final value is exact. MPI_NO_OP reads. */
    int one = 1, old = -1;
    MPI_Get_accumulate(&one, 1, MPI_INT, &old, 1, MPI_INT, 0, 10, 1, MPI_INT, MPI_SUM, win);
    MPI_Win_fence(0, win);
    CHECK(old >= 0 && old < size);
    int now = -1;
    MPI_Get_accumulate(NULL, 0, MPI_INT, &now, 1, MPI_INT, 0, 10, 1, MPI_INT, MPI_NO_OP, win);
    MPI_Win_fence(0, win);
    CHECKF(now == size, "now=%d", now);
    double d = 1.5, dd[2] = {0};
    MPI_Win dwin;
    MPI_Win_create(dd, sizeof dd, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &dwin);
    MPI_Win_fence(0, dwin);
    MPI_Accumulate(&d, 1, MPI_DOUBLE, 0, 1, 1, MPI_DOUBLE, MPI_SUM, dwin);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, dwin);
    if (rank == 0)
        CHECKF(dd[1] == 1.5 * size, "dd[1]=%g", dd[1]);
    MPI_Win_free(&dwin);

    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    CHECK(MPI_Win_free(&win) == MPI_SUCCESS && win == MPI_WIN_NULL);
    MPI_Finalize();
    return CHECK_RESULT();
}
