/* The program of test_no_internal_calls.sh: only collectives, which are built on point-to-point
 * inside the library. It checks its own results and prints one line per rank. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int rank, size, bad = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int x = rank == 2 % size ? 99 : -1;
    MPI_Bcast(&x, 1, MPI_INT, 2 % size, MPI_COMM_WORLD);
    bad += x != 99;
    /* Long enough for the scatter + allgather broadcast and reduce-scatter allreduce. */
    int n = 1 << 18;
    double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    for (int i = 0; i < n; i++)
        a[i] = rank == 0 ? i : -1;
    MPI_Bcast(a, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (int i = 0; i < n; i++)
        bad += a[i] != i;
    MPI_Allreduce(a, b, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    for (int i = 0; i < n; i++)
        bad += b[i] != (double)i * size;
    int sum = 0;
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    bad += sum != size * (size - 1) / 2;
    x = rank == 1 % size ? 7 : -1;
    MPI_Bcast(&x, 1, MPI_INT, 1 % size, MPI_COMM_WORLD);
    bad += x != 7;
    printf("app: rank %d of %d: %s\n", rank, size, bad ? "WRONG RESULTS" : "results ok");
    free(a), free(b);
    MPI_Finalize();
    return bad != 0;
}
