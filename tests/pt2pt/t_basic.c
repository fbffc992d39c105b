/* np: 1 2 4 8 */
/* Point-to-point basics: a ring of sends, self-sends, MPI_PROC_NULL, wildcards, statuses, and
 * non-overtaking order of many small messages. */
#include <mpi.h>
#include <stdlib.h>
#include "../check.h"

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;

    /* A ring: everyone sends to the next and receives from the previous. */
    int out = 1000 + rank, in = -1;
    MPI_Status st;
    MPI_Sendrecv(&out, 1, MPI_INT, next, 7, &in, 1, MPI_INT, prev, 7, MPI_COMM_WORLD, &st);
    CHECK(in == 1000 + prev && st.MPI_SOURCE == prev && st.MPI_TAG == 7);
    int count = -1;
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == 1);

    /* Self: an eager send to myself, received later. */
    double d = 3.5, e = 0;
    MPI_Request req;
    MPI_Isend(&d, 1, MPI_DOUBLE, rank, 1, MPI_COMM_WORLD, &req);
    MPI_Recv(&e, 1, MPI_DOUBLE, rank, 1, MPI_COMM_WORLD, &st);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(e == 3.5 && req == MPI_REQUEST_NULL);

    /* MPI_PROC_NULL: completes at once, nothing moves. */
    in = 5;
    CHECK(MPI_Send(&out, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD) == MPI_SUCCESS);
    CHECK(MPI_Recv(&in, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st) == MPI_SUCCESS);
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(in == 5 && st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && count == 0);

    /* Many small messages to rank 0 arrive in order per sender; wildcards at the receiver. */
    enum { N = 2000 };
    if (rank != 0) {
        for (int i = 0; i < N; i++)
            MPI_Send(&i, 1, MPI_INT, 0, i % 5, MPI_COMM_WORLD);
    } else {
        int *expect = calloc(size, sizeof *expect);
        for (int i = 0; i < N * (size - 1); i++) {
            int v;
            MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            CHECK(v == expect[st.MPI_SOURCE] && st.MPI_TAG == v % 5);
            expect[st.MPI_SOURCE]++;
        }
        for (int r = 1; r < size; r++)
            CHECK(expect[r] == N);
        free(expect);
    }

    /* Tags select: messages with different tags are received in the order asked for. */
    if (size > 1 && rank < 2) {
        int other = 1 - rank, a = 1, b = 2, x = 0, y = 0;
        if (rank == 0) {
            MPI_Send(&a, 1, MPI_INT, other, 10, MPI_COMM_WORLD);
            MPI_Send(&b, 1, MPI_INT, other, 20, MPI_COMM_WORLD);
        } else {
            MPI_Recv(&y, 1, MPI_INT, other, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Recv(&x, 1, MPI_INT, other, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            CHECK(x == 1 && y == 2);
        }
    }
    MPI_Finalize();
    return CHECK_RESULT();
}
