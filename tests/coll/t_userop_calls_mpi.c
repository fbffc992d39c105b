/* np: 1 2 4 */
/* A user's reduction operation that calls MPI (MPI_Type_get_extent, MPI_Type_size, as mpi4py's
 * operations do) under MPI_THREAD_MULTIPLE: the operation runs with the library's lock held,
 * and the nested call takes it again instead of deadlocking (mpi4py's test_op hung). */
#include <mpi.h>

#include "../check.h"

static void sum(void *in, void *inout, int *len, MPI_Datatype *type)
{
    MPI_Aint lb, extent;
    int size;
    MPI_Type_get_extent(*type, &lb, &extent);
    MPI_Type_size(*type, &size);
    for (int i = 0; i < *len; i++)
        *(int *)((char *)inout + i * extent) += *(int *)((char *)in + i * extent) * (size == 4);
}

int main(int argc, char **argv)
{
    int provided, rank, size;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Op op;
    MPI_Op_create(sum, 1, &op);
    int a[3] = {rank, 1, 2 * rank}, b[3];
    MPI_Allreduce(a, b, 3, MPI_INT, op, MPI_COMM_WORLD);
    CHECK(b[0] == size * (size - 1) / 2 && b[1] == size && b[2] == size * (size - 1));
    MPI_Request req;
    MPI_Iallreduce(a, b, 3, MPI_INT, op, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(b[1] == size);
    MPI_Reduce_local(a, b, 3, MPI_INT, op);
    CHECK(b[1] == size + 1);
    MPI_Op_free(&op);
    MPI_Finalize();
    return CHECK_RESULT();
}
