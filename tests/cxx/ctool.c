/* A C profiling library: counts MPI_Send and reports at exit. It sees the C API's calls; the C++
 * binding calls the C PMPI_ functions, so it does not see the C++ program's MPI::Comm::Send. */
#include <mpi.h>
#include <stdio.h>

static int sends;

int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    sends++;
    return PMPI_Send(buf, count, datatype, dest, tag, comm);
}

__attribute__((destructor)) static void report(void)
{
    if (sends)
        printf("ctool: MPI_Send %d\n", sends);
}
