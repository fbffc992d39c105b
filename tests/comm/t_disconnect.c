/* np: 1 2 4 */
/* MPI_Comm_get_parent of a process the launcher started: MPI_COMM_NULL. MPI_Comm_disconnect of
 * an intra- and an intercommunicator after their messages: the handle becomes MPI_COMM_NULL and
 * the communicator is gone; of a predefined or the null communicator: MPI_ERR_COMM. */
#include <mpi.h>
#include "../check.h"

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm parent = MPI_COMM_WORLD;
    CHECK(MPI_Comm_get_parent(&parent) == MPI_SUCCESS && parent == MPI_COMM_NULL);

    MPI_Comm dup, copy;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    copy = dup;
    int token = rank, got = -1;
    MPI_Request reqs[2];
    MPI_Irecv(&got, 1, MPI_INT, (rank + size - 1) % size, 0, dup, &reqs[0]);
    MPI_Isend(&token, 1, MPI_INT, (rank + 1) % size, 0, dup, &reqs[1]);
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    CHECK(got == (rank + size - 1) % size);
    CHECK(MPI_Comm_disconnect(&dup) == MPI_SUCCESS && dup == MPI_COMM_NULL);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    int n;
    CHECK(check_class(MPI_Comm_size(copy, &n)) == MPI_ERR_COMM);      /* gone */

    if (size > 1) {                   /* an intercommunicator between the two halves */
        MPI_Comm half, inter;
        int low = rank < size / 2;
        MPI_Comm_split(MPI_COMM_WORLD, low, rank, &half);
        MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, low ? size / 2 : 0, 7, &inter);
        int x = rank, y = -1;
        MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_MAX, inter);
        CHECK(y == (low ? size - 1 : size / 2 - 1));
        CHECK(MPI_Comm_disconnect(&inter) == MPI_SUCCESS && inter == MPI_COMM_NULL);
        MPI_Comm_free(&half);
    }

    MPI_Comm world = MPI_COMM_WORLD, null = MPI_COMM_NULL;
    CHECK(check_class(MPI_Comm_disconnect(&world)) == MPI_ERR_COMM && world == MPI_COMM_WORLD);
    CHECK(check_class(MPI_Comm_disconnect(&null)) == MPI_ERR_COMM);
    MPI_Finalize();
    return CHECK_RESULT();
}
