/* A job that does not reach MPI_Finalize, for test_noexit.sh (2 ranks):
 *   noexit exit     every rank calls exit(0)
 *   noexit abort    rank 0 calls MPI_Abort, rank 1 waits for a message that never comes
 *   noexit signal   rank 1 dies of SIGSEGV, rank 0 waits */
#include <mpi.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, n;
    double a[10] = {0}, b[10];
    MPI_Request rq;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    for (int i = 0; i < 3; i++) {
        MPI_Isend(a, 10, MPI_DOUBLE, (rank + 1) % n, 0, MPI_COMM_WORLD, &rq);
        MPI_Recv(b, 10, MPI_DOUBLE, (rank + n - 1) % n, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (argc > 1 && !strcmp(argv[1], "abort")) {
        if (rank == 0)
            MPI_Abort(MPI_COMM_WORLD, 3);
        MPI_Recv(b, 10, MPI_DOUBLE, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (argc > 1 && !strcmp(argv[1], "signal")) {
        if (rank == 1)
            raise(SIGSEGV);
        MPI_Recv(b, 10, MPI_DOUBLE, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    exit(0);
}
