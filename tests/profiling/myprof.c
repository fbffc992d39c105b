/* A profiling library for the interception tests (test_intercept_*.sh): it defines MPI_Init
 * and MPI_Comm_rank, counts the calls, calls PMPI_Init / PMPI_Comm_rank, and at exit (a
 * handler registered by its MPI_Init) prints its counts, every line starting with "myprof:". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int init_calls, rank_calls;

static void myprof_report(void)
{
    fprintf(stderr, "myprof: MPI_Init called %d times\n", init_calls);
    fprintf(stderr, "myprof: MPI_Comm_rank called %d times\n", rank_calls);
    fflush(stderr);
}

int MPI_Init(int *argc, char ***argv)
{
    if (init_calls++ == 0)
        atexit(myprof_report);
    return PMPI_Init(argc, argv);
}

int MPI_Comm_rank(MPI_Comm comm, int *rank)
{
    rank_calls++;
    return PMPI_Comm_rank(comm, rank);
}
