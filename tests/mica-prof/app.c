/* The small program of the launch and link tests: rank i > 0 sends 100 ints to rank 0. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, n, buf[100] = {0};
    double x = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (rank > 0)
        MPI_Send(buf, 100, MPI_INT, 0, 0, MPI_COMM_WORLD);
    else
        for (int i = 1; i < n; i++)
            MPI_Recv(buf, 100, MPI_INT, i, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("app: sum %g\n", x);
    MPI_Finalize();
    return 0;
}
