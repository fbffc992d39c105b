/* MPI_Pcontrol levels, for test_pcontrol.sh (2 ranks). With an argument "noinitial" the first
 * MPI_Pcontrol(0), before MPI_Init, is left out (the test sets MICA_PROF_START=off instead). */
#include <mpi.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, n, x = 1;
    if (argc < 2 || strcmp(argv[1], "noinitial"))
        MPI_Pcontrol(0);                       /* before MPI_Init: stop collecting */
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    for (int i = 0; i < 3; i++)
        MPI_Barrier(MPI_COMM_WORLD);           /* not collected */
    MPI_Pcontrol(1);                           /* resume */
    for (int i = 0; i < 2; i++)
        MPI_Barrier(MPI_COMM_WORLD);           /* collected, then reset */
    MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Pcontrol(2);                           /* reset */
    for (int i = 0; i < 4; i++) {              /* 4 sends and 4 receives of 4 bytes per rank */
        int next = (rank + 1) % n, prev = (rank + n - 1) % n;
        if (rank % 2 == 0) {
            MPI_Send(&x, 1, MPI_INT, next, 0, MPI_COMM_WORLD);
            MPI_Recv(&x, 1, MPI_INT, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&x, 1, MPI_INT, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(&x, 1, MPI_INT, next, 0, MPI_COMM_WORLD);
        }
    }
    MPI_Pcontrol(0);                           /* stop (this call is counted) */
    for (int i = 0; i < 2; i++)
        MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Pcontrol(1);                           /* resume (not counted: it starts stopped) */
    MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Pcontrol(3);                           /* each rank writes its statistics so far */
    MPI_Finalize();
    return 0;
}
