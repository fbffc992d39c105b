/* np: 1 2 3 4 8 */
/* Arguments the standard says are ignored must not be checked: with MPI_IN_PLACE the send count
 * and type of MPI_Allgather(v), MPI_Alltoall(v) and of the root's MPI_Gather(v), and the receive
 * count and type of the root's MPI_Scatter(v); the receive side of MPI_Gather(v) and the send
 * side of MPI_Scatter(v) at the other processes. Passing MPI_DATATYPE_NULL there is valid.
 * (Not yet a test - rename to t_in_place_null.c once the generated bindings skip these
 * checks: see gen/bindings.py.) */
#include <mpi.h>
#include <stdlib.h>

#include "../check.h"

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int *buf = malloc(size * sizeof(int)), *counts = malloc(size * sizeof(int));
    int *displs = malloc(size * sizeof(int)), x = rank;
    for (int r = 0; r < size; r++)
        counts[r] = 1, displs[r] = r;

    for (int r = 0; r < size; r++)
        buf[r] = r == rank ? rank : -1;
    CHECK(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, 1, MPI_INT, MPI_COMM_WORLD) ==
          MPI_SUCCESS);
    for (int r = 0; r < size; r++)
        CHECK(buf[r] == r);
    CHECK(MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, counts, displs, MPI_INT,
                         MPI_COMM_WORLD) == MPI_SUCCESS);
    for (int r = 0; r < size; r++)
        buf[r] = rank * size + r;
    CHECK(MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, 1, MPI_INT, MPI_COMM_WORLD) ==
          MPI_SUCCESS);
    for (int r = 0; r < size; r++)
        CHECK(buf[r] == r * size + rank);
    CHECK(MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, buf, counts, displs,
                        MPI_INT, MPI_COMM_WORLD) == MPI_SUCCESS);

    for (int root = 0; root < size; root++) {
        int me = rank == root;
        buf[root] = root;
        CHECK(MPI_Gather(me ? MPI_IN_PLACE : &x, me ? 0 : 1, me ? MPI_DATATYPE_NULL : MPI_INT,
                         me ? buf : NULL, me ? 1 : 0, me ? MPI_INT : MPI_DATATYPE_NULL, root,
                         MPI_COMM_WORLD) == MPI_SUCCESS);
        if (me)
            for (int r = 0; r < size; r++)
                CHECK(buf[r] == r);
        CHECK(MPI_Gatherv(me ? MPI_IN_PLACE : &x, me ? 0 : 1, me ? MPI_DATATYPE_NULL : MPI_INT,
                          me ? buf : NULL, me ? counts : NULL, me ? displs : NULL,
                          me ? MPI_INT : MPI_DATATYPE_NULL, root, MPI_COMM_WORLD) == MPI_SUCCESS);
        int y = -1;
        CHECK(MPI_Scatter(me ? buf : NULL, me ? 1 : 0, me ? MPI_INT : MPI_DATATYPE_NULL,
                          me ? MPI_IN_PLACE : &y, me ? 0 : 1, me ? MPI_DATATYPE_NULL : MPI_INT,
                          root, MPI_COMM_WORLD) == MPI_SUCCESS);
        CHECK(me || y == rank);
        CHECK(MPI_Scatterv(me ? buf : NULL, me ? counts : NULL, me ? displs : NULL,
                           me ? MPI_INT : MPI_DATATYPE_NULL, me ? MPI_IN_PLACE : &y, me ? 0 : 1,
                           me ? MPI_DATATYPE_NULL : MPI_INT, root, MPI_COMM_WORLD) == MPI_SUCCESS);
    }
    free(buf), free(counts), free(displs);
    MPI_Finalize();
    return CHECK_RESULT();
}
