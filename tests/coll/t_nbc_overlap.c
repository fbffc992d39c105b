/* np: 2 4 */
/* Point-to-point traffic on a communicator while nonblocking collectives on it are pending:
 * wildcard receives and probes never see the collectives' messages (whatever the tags), and a
 * collective progresses while the process waits for something else entirely. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include "../check.h"

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank - 1 + size) % size;

    /* A ring of wildcard receives, tags like the internal ones, while collectives run. */
    enum { N = 3000 };
    static int a[N], b[N];
    for (int i = 0; i < N; i++)
        a[i] = rank + i;
    MPI_Request coll[3], p2p[2];
    int token = -1, sum = -1;
    MPI_Iallreduce(a, b, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &coll[0]);
    MPI_Ibarrier(MPI_COMM_WORLD, &coll[1]);
    MPI_Iallreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &coll[2]);
    for (int tag = 0; tag < 40; tag++) {
        MPI_Status st;
        int out = rank * 100 + tag;
        MPI_Irecv(&token, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &p2p[0]);
        MPI_Isend(&out, 1, MPI_INT, right, tag, MPI_COMM_WORLD, &p2p[1]);
        MPI_Wait(&p2p[0], &st);
        MPI_Wait(&p2p[1], MPI_STATUS_IGNORE);
        CHECK(token == left * 100 + tag && st.MPI_TAG == tag && st.MPI_SOURCE == left);
    }
    MPI_Waitall(3, coll, MPI_STATUSES_IGNORE);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += b[i] != size * (size - 1) / 2 + size * i;
    CHECK(!bad);
    CHECK(sum == size * (size - 1) / 2);

    /* Rank 0 waits in a blocking receive for a message that rank 1 sends only once the
     * allreduce, which needs rank 0's part in it, has completed there. */
    int total = -1, msg = -1;
    MPI_Request r;
    MPI_Iallreduce(&rank, &total, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &r);
    if (rank == 0) {
        MPI_Recv(&msg, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(msg == size - 1);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    } else {
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        if (rank == 1)
            MPI_Send(&total, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
    }
    CHECK(total == size - 1);

    /* Probing with wildcards while a broadcast is pending finds the user's message only. */
    int x = rank == 0 ? 77 : -1;
    MPI_Ibcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD, &r);
    MPI_Send(&rank, 1, MPI_INT, right, 16, MPI_COMM_WORLD);
    MPI_Status st;
    MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 16);
    int got = -1;
    MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(got == left);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    CHECK(x == 77);
    MPI_Finalize();
    return CHECK_RESULT();
}
