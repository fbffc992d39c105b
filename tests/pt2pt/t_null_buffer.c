/* np: 2 */
/* A NULL buffer with a positive count (issue 9): MPI_ERR_BUFFER from every function with a
 * choice buffer (the generator checks it; a few are tried here), never a crash; a zero count,
 * and MPI_BOTTOM with a datatype of absolute addresses, stay valid. A zero count may go with
 * MPI_DATATYPE_NULL (MPICH's part/nonblocking_pready), except where an operation applies. */
#include <mpi.h>

#include "../check.h"

static int error_class(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

int main(int argc, char **argv)
{
    int rank, x[4] = {1, 2, 3, 4}, y[4];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);    /* MPI_Reduce_local's */
    int peer = 1 - rank;
    MPI_Request req;
    CHECK(error_class(MPI_Send(NULL, 4, MPI_INT, peer, 0, MPI_COMM_WORLD)) == MPI_ERR_BUFFER);
    CHECK(error_class(MPI_Recv(NULL, 4, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE)) ==
          MPI_ERR_BUFFER);
    CHECK(error_class(MPI_Isend(NULL, 4, MPI_INT, peer, 0, MPI_COMM_WORLD, &req)) ==
          MPI_ERR_BUFFER);
    CHECK(error_class(MPI_Allreduce(NULL, y, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD)) ==
          MPI_ERR_BUFFER);
    CHECK(error_class(MPI_Allreduce(x, NULL, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD)) ==
          MPI_ERR_BUFFER);
    CHECK(error_class(MPI_Bcast(NULL, 4, MPI_INT, 0, MPI_COMM_WORLD)) == MPI_ERR_BUFFER);
    CHECK(error_class(MPI_Reduce_local(NULL, y, 4, MPI_INT, MPI_SUM)) == MPI_ERR_BUFFER);

    /* Valid: nothing to move, and absolute addresses from MPI_BOTTOM. */
    CHECK(MPI_Sendrecv(NULL, 0, MPI_INT, peer, 1, NULL, 0, MPI_INT, peer, 1, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE) == MPI_SUCCESS);
    MPI_Aint at;
    MPI_Get_address(rank == 0 ? x : y, &at);
    int len = 4;
    MPI_Datatype abs;
    MPI_Type_create_struct(1, &len, &at, (MPI_Datatype[]){MPI_INT}, &abs);
    MPI_Type_commit(&abs);
    if (rank == 0)
        CHECK(MPI_Send(MPI_BOTTOM, 1, abs, 1, 2, MPI_COMM_WORLD) == MPI_SUCCESS);
    else
        CHECK(MPI_Recv(MPI_BOTTOM, 1, abs, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE) ==
              MPI_SUCCESS && y[3] == 4);
    MPI_Type_free(&abs);

    /* No data, no datatype: the message still travels, with its tag. */
    MPI_Status st;
    if (rank == 0) {
        CHECK(MPI_Send(NULL, 0, MPI_DATATYPE_NULL, 1, 3, MPI_COMM_WORLD) == MPI_SUCCESS);
        CHECK(MPI_Isend(NULL, 0, MPI_DATATYPE_NULL, 1, 4, MPI_COMM_WORLD, &req) == MPI_SUCCESS);
        CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    } else {
        CHECK(MPI_Recv(NULL, 0, MPI_DATATYPE_NULL, 0, 3, MPI_COMM_WORLD, &st) == MPI_SUCCESS);
        int n = -1;
        CHECK(st.MPI_TAG == 3 && MPI_Get_count(&st, MPI_INT, &n) == MPI_SUCCESS && n == 0);
        CHECK(MPI_Irecv(NULL, 0, MPI_DATATYPE_NULL, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &req) ==
              MPI_SUCCESS);
        CHECK(MPI_Wait(&req, &st) == MPI_SUCCESS && st.MPI_TAG == 4);
    }
    CHECK(MPI_Bcast(NULL, 0, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD) == MPI_SUCCESS);
    CHECK(error_class(MPI_Send(NULL, 1, MPI_DATATYPE_NULL, peer, 5, MPI_COMM_WORLD)) ==
          MPI_ERR_TYPE);
    CHECK(error_class(MPI_Allreduce(x, y, 0, MPI_DATATYPE_NULL, MPI_SUM, MPI_COMM_WORLD)) ==
          MPI_ERR_TYPE);
    MPI_Finalize();
    return CHECK_RESULT();
}
