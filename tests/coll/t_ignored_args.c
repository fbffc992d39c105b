/* np: 3 */
/* Arguments the standard says are ignored are not checked (issue 11, root cause 2): a send count
 * of -1 with MPI_IN_PLACE in MPI_Gather (at the root), MPI_Allgather, MPI_Alltoall and
 * MPI_Igather, a receive count of -1 outside the root of MPI_Gather, and MPI_Get_accumulate's
 * origin (NULL, count 0, MPI_DATATYPE_NULL) with MPI_NO_OP. */
#include <mpi.h>

#include "../check.h"

int main(int argc, char **argv)
{
    int rank, size, buf[16] = {0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Comm_set_errhandler(w, MPI_ERRORS_RETURN);
    for (int i = 0; i < size; i++)
        buf[i] = rank == 0 || i == rank ? i + 1 : 0;
    if (rank == 0)
        CHECK(MPI_Gather(MPI_IN_PLACE, -1, MPI_INT, buf, 1, MPI_INT, 0, w) == MPI_SUCCESS);
    else
        CHECK(MPI_Gather(&buf[rank], 1, MPI_INT, NULL, -1, MPI_INT, 0, w) == MPI_SUCCESS);
    for (int i = 0; rank == 0 && i < size; i++)
        CHECK(buf[i] == i + 1);
    for (int i = 0; i < size; i++)
        buf[i] = i == rank ? 10 * rank : -1;
    CHECK(MPI_Allgather(MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, buf, 1, MPI_INT, w) == MPI_SUCCESS);
    for (int i = 0; i < size; i++)
        CHECK(buf[i] == 10 * i);
    for (int i = 0; i < size; i++)
        buf[i] = 100 * rank + i;
    CHECK(MPI_Alltoall(MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, buf, 1, MPI_INT, w) == MPI_SUCCESS);
    for (int i = 0; i < size; i++)
        CHECK(buf[i] == 100 * i + rank);
    MPI_Request r;
    CHECK(MPI_Igather(rank == 0 ? MPI_IN_PLACE : &buf[0], rank == 0 ? -1 : 1, MPI_INT, buf, 1,
                      MPI_INT, 0, w, &r) == MPI_SUCCESS);
    MPI_Wait(&r, MPI_STATUS_IGNORE);

    MPI_Win win;
    int mem = 40 + rank, result = -1;
    MPI_Win_create(&mem, sizeof mem, sizeof mem, MPI_INFO_NULL, w, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    MPI_Win_fence(0, win);
    int target = (rank + 1) % size;
    CHECK(MPI_Get_accumulate(NULL, 0, MPI_DATATYPE_NULL, &result, 1, MPI_INT, target, 0, 1,
                             MPI_INT, MPI_NO_OP, win) == MPI_SUCCESS);
    MPI_Win_fence(0, win);
    CHECKF(result == 40 + target, "MPI_NO_OP fetched %d", result);
    MPI_Win_free(&win);
    MPI_Finalize();
    return CHECK_RESULT();
}
