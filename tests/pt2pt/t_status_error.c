/* np: 2 */
/* A successful call leaves the MPI_ERROR field of the user's status alone (MPI 4.1 3.2.5: only
 * the multiple-completion functions write it, and only when they return MPI_ERR_IN_STATUS):
 * receive, probe, matched probe and receive, wait, test, sendrecv, waitall, waitsome (issue 11,
 * root cause 3; MPICH's test suite checks it). */
#include <mpi.h>

#include "../check.h"

#define MARK 12345

int main(int argc, char **argv)
{
    int rank, x = 7, y = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int peer = 1 - rank;
    MPI_Status s = {.MPI_ERROR = MARK}, ss[2] = {{.MPI_ERROR = MARK}, {.MPI_ERROR = MARK}};
    MPI_Request r[2];
    if (rank == 0) {
        for (int i = 0; i < 5; i++)
            MPI_Send(&x, 1, MPI_INT, 1, i, MPI_COMM_WORLD);
    } else {
        MPI_Recv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &s);
        CHECKF(s.MPI_ERROR == MARK, "MPI_Recv wrote MPI_ERROR=%d", s.MPI_ERROR);
        MPI_Probe(0, 1, MPI_COMM_WORLD, &s);
        CHECKF(s.MPI_ERROR == MARK, "MPI_Probe wrote MPI_ERROR=%d", s.MPI_ERROR);
        MPI_Message m;
        MPI_Mprobe(0, 1, MPI_COMM_WORLD, &m, &s);
        CHECKF(s.MPI_ERROR == MARK, "MPI_Mprobe wrote MPI_ERROR=%d", s.MPI_ERROR);
        MPI_Mrecv(&y, 1, MPI_INT, &m, &s);
        CHECKF(s.MPI_ERROR == MARK, "MPI_Mrecv wrote MPI_ERROR=%d", s.MPI_ERROR);
        MPI_Irecv(&y, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, &r[0]);
        MPI_Wait(&r[0], &s);
        CHECKF(s.MPI_ERROR == MARK, "MPI_Wait wrote MPI_ERROR=%d", s.MPI_ERROR);
        int flag = 0;
        MPI_Irecv(&y, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, &r[0]);
        while (!flag)
            MPI_Test(&r[0], &flag, &s);
        CHECKF(s.MPI_ERROR == MARK, "MPI_Test wrote MPI_ERROR=%d", s.MPI_ERROR);
        MPI_Irecv(&y, 1, MPI_INT, 0, 4, MPI_COMM_WORLD, &r[0]);
        r[1] = MPI_REQUEST_NULL;
        MPI_Waitall(2, r, ss);
        CHECKF(ss[0].MPI_ERROR == MARK && ss[1].MPI_ERROR == MARK,
               "MPI_Waitall wrote MPI_ERROR=%d, %d", ss[0].MPI_ERROR, ss[1].MPI_ERROR);
    }
    MPI_Sendrecv(&x, 1, MPI_INT, peer, 9, &y, 1, MPI_INT, peer, 9, MPI_COMM_WORLD, &s);
    CHECKF(s.MPI_ERROR == MARK, "MPI_Sendrecv wrote MPI_ERROR=%d", s.MPI_ERROR);
    MPI_Finalize();
    return CHECK_RESULT();
}
