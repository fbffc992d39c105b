/* A position-independent executable calling MPI directly and through libsite.so. */
#include <mpi.h>
#include <stdio.h>

double site_reduce(double x);

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    double s = site_reduce(1) + site_reduce(2);
    MPI_Barrier(MPI_COMM_WORLD);
    printf("sites: %g\n", s);
    MPI_Finalize();
    return 0;
}
