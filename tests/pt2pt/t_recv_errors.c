/* np: 2 */
/* Receive errors and where they go: a message that ends inside an element of the receive
 * datatype (3 chars into MPI_INTs) is MPI_ERR_TYPE, a whole number of elements is fine; a
 * truncated MPI_Mrecv or MPI_Imrecv raises on the communicator the message was matched on
 * (here MPI_ERRORS_RETURN on a duplicate, while MPI_COMM_WORLD's and MPI_COMM_SELF's are fatal). */
#include <mpi.h>
#include "../check.h"

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    char c[8] = "abcdefg";
    int in[4] = {0}, n = -1;
    MPI_Status st;
    if (rank == 1) {
        MPI_Send(c, 3, MPI_CHAR, 0, 1, comm);
        MPI_Send(c, 8, MPI_CHAR, 0, 2, comm);
        MPI_Send(in, 4, MPI_INT, 0, 3, comm);
        MPI_Send(in, 4, MPI_INT, 0, 4, comm);
    } else {
        CHECK(check_class(MPI_Recv(in, 4, MPI_INT, 1, 1, comm, &st)) == MPI_ERR_TYPE);
        CHECK(MPI_Recv(in, 4, MPI_INT, 1, 2, comm, &st) == MPI_SUCCESS);
        CHECK(MPI_Get_count(&st, MPI_INT, &n) == MPI_SUCCESS && n == 2);
        MPI_Message msg;
        CHECK(MPI_Mprobe(1, 3, comm, &msg, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        CHECK(check_class(MPI_Mrecv(in, 3, MPI_INT, &msg, &st)) == MPI_ERR_TRUNCATE);
        CHECK(msg == MPI_MESSAGE_NULL);
        MPI_Request req;
        CHECK(MPI_Mprobe(1, 4, comm, &msg, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        CHECK(MPI_Imrecv(in, 2, MPI_INT, &msg, &req) == MPI_SUCCESS);
        CHECK(check_class(MPI_Wait(&req, &st)) == MPI_ERR_TRUNCATE);
    }
    MPI_Comm_free(&comm);
    MPI_Finalize();
    return CHECK_RESULT();
}
