/* np: 2 */
/* 200,000 communicators alive at once, far more than the reused context ids (core/comm.c): the
 * ones beyond take fresh ids, every one carries its own messages, and once they are all freed
 * the ids come back to new ones. */
#include <mpi.h>
#include <stdlib.h>

#include "../check.h"

enum { N = 200000 };

/* A message each way on c: each member sends `value` to the other, received from any source
 * with any tag. */
static void exchange(MPI_Comm c, int value)
{
    int r, got = -1;
    MPI_Comm_rank(c, &r);
    MPI_Sendrecv(&value, 1, MPI_INT, 1 - r, 0, &got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, c,
                 MPI_STATUS_IGNORE);
    CHECKF(got == value, "got %d, wanted %d", got, value);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm *c = malloc(N * sizeof *c);
    MPI_Request *r = malloc(N / 1000 * sizeof *r);
    int *got = malloc(N / 1000 * sizeof *got), rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    /* A receive from any source waits on every 1000th: a later communicator on the same id
     * would take its message. */
    for (int i = 0; i < N; i++) {
        CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &c[i]) == MPI_SUCCESS);
        if (i % 1000 == 0)
            MPI_Irecv(&got[i / 1000], 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, c[i], &r[i / 1000]);
        else if (i % 1000 == 1 || i == N - 1)
            exchange(c[i], i);
    }
    for (int i = N - 1000; i >= 0; i -= 1000)
        MPI_Send(&i, 1, MPI_INT, 1 - rank, 1, c[i]);
    for (int i = 0; i < N / 1000; i++) {
        MPI_Wait(&r[i], MPI_STATUS_IGNORE);
        CHECKF(got[i] == 1000 * i, "communicator %d got %d", 1000 * i, got[i]);
    }
    for (int i = 0; i < N; i++)
        CHECK(MPI_Comm_free(&c[i]) == MPI_SUCCESS);
    MPI_Comm d;                       /* the freed ids serve again */
    for (int i = 0; i < 5000; i++) {
        MPI_Comm_dup(MPI_COMM_WORLD, &d);
        if (i % 1000 == 0)
            exchange(d, -i);
        MPI_Comm_free(&d);
    }
    free(c);
    free(r);
    free(got);
    MPI_Finalize();
    return CHECK_RESULT();
}
