/* Programs that must die: `fatal MODE`, used by test_fatal.sh. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    int rank;
    if (!strcmp(mode, "before-init"))
        return MPI_Comm_rank(MPI_COMM_WORLD, &rank) == MPI_SUCCESS ? 0 : 3;
    MPI_Init(&argc, &argv);
    printf("started\n");
    if (!strcmp(mode, "null-comm"))
        MPI_Comm_rank(MPI_COMM_NULL, &rank);
    else if (!strcmp(mode, "bad-handle"))
        MPI_Comm_size((MPI_Comm)0x7777, &rank);
    else if (!strcmp(mode, "null-output"))
        MPI_Comm_rank(MPI_COMM_WORLD, NULL);
    else if (!strcmp(mode, "errors-abort")) {
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ABORT);
        MPI_Comm_rank(MPI_COMM_WORLD, NULL);
    } else if (!strcmp(mode, "abort"))
        MPI_Abort(MPI_COMM_WORLD, 7);
    else if (!strcmp(mode, "after-finalize")) {
        MPI_Finalize();
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    }
    printf("survived\n");
    return 0;
}
