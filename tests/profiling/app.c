/* The application of the interception tests (test_intercept_*.sh): MPI_Init, MPI_Comm_rank
 * three times, MPI_Comm_size, MPI_Finalize, printing every result. Its output must be the same
 * with and without the profiling library myprof.c. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rc, rank = -1, size = -1, i;

    rc = MPI_Init(&argc, &argv);
    printf("app: MPI_Init rc=%d\n", rc);
    for (i = 1; i <= 3; i++) {
        rank = -1;
        rc = MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        printf("app: MPI_Comm_rank call %d rc=%d rank=%d\n", i, rc, rank);
    }
    rc = MPI_Comm_size(MPI_COMM_WORLD, &size);
    printf("app: MPI_Comm_size rc=%d size=%d\n", rc, size);
    rc = MPI_Finalize();
    printf("app: MPI_Finalize rc=%d\n", rc);
    return 0;
}
