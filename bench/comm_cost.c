/* The cost of making and freeing a communicator (issue 9, point 8: context ids are reused): `n`
 * rounds of MPI_Comm_dup + MPI_Comm_free of MPI_COMM_WORLD, then `live` duplicates held at once
 * (made, then freed); rank 0 prints the time per round of each.
 *   install/bin/mpicc -O2 -o comm_cost bench/comm_cost.c
 *   install/bin/mpiexec -n 4 ./comm_cost 20000 0      # interleave with another build's runs
 * Times swing with the machine's load: count instructions too, with callgrind on rank 0 (as
 * bench/send_cost.sh does), PMPI_Comm_dup's and PMPI_Comm_free's inclusive cost per call. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, n = argc > 1 ? atoi(argv[1]) : 100000, live = argc > 2 ? atoi(argv[2]) : 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm c, *held = malloc((live > 0 ? (size_t)live : 1) * sizeof *held);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < n; i++) {
        MPI_Comm_dup(MPI_COMM_WORLD, &c);
        MPI_Comm_free(&c);
    }
    double t1 = MPI_Wtime();
    for (int i = 0; i < live; i++)
        MPI_Comm_dup(MPI_COMM_WORLD, &held[i]);
    double t2 = MPI_Wtime();
    for (int i = 0; i < live; i++)
        MPI_Comm_free(&held[i]);
    double t3 = MPI_Wtime();
    if (rank == 0) {
        printf("dup+free: %d rounds, %.2f us each\n", n, n ? 1e6 * (t1 - t0) / n : 0.0);
        if (live)
            printf("%d live: dup %.2f us each, free %.2f us each\n", live,
                   1e6 * (t2 - t1) / live, 1e6 * (t3 - t2) / live);
    }
    free(held);
    MPI_Finalize();
    return 0;
}
