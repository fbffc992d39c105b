/* A shared library calling MPI, for test_sites.sh: its call site must resolve to this file. */
#include <mpi.h>

double site_reduce(double x)
{
    MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);   /* line 6 */
    return x;
}
