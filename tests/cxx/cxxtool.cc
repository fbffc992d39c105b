// A C++ profiling library (the MPI-2 C++ profiling interface): it defines the one MPI:: member
// it observes and calls the PMPI:: object inside, then reports at exit how often it saw it.
#include <mpi.h>
#include <stdio.h>

static int sends;

void MPI::Comm::Send(const void* buf, int count, const MPI::Datatype& datatype, int dest,
                     int tag) const
{
    sends++;
    pmpi_comm.Send(buf, count, datatype.pmpi_datatype, dest, tag);
}

__attribute__((destructor)) static void report()
{
    if (sends)
        printf("cxxtool: MPI::Comm::Send %d\n", sends);
}
