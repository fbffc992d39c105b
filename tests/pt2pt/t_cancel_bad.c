/* np: 1 */
/* MPI_Cancel of what is not a request (issue 9): the null request, a made-up handle and a NULL
 * pointer raise an error through the error handler (MPI_ERR_REQUEST, MPI_ERR_ARG), never a
 * crash. */
#include <mpi.h>
#include <stdint.h>

#include "../check.h"

static int error_class(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Request null = MPI_REQUEST_NULL, garbage = (MPI_Request)(uintptr_t)0x5eed5eed;
    CHECK(error_class(MPI_Cancel(&null)) == MPI_ERR_REQUEST);
    CHECK(error_class(MPI_Cancel(&garbage)) == MPI_ERR_REQUEST);
    CHECK(error_class(MPI_Cancel(NULL)) == MPI_ERR_ARG);
    MPI_Finalize();
    return CHECK_RESULT();
}
