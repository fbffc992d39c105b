/* np: 1 2 4 */
/* Aliased buffers (the standard forbids them; MPI_IN_PLACE is the way): a collective whose send
 * buffer is its receive buffer, or this process's own block of it, is MPI_ERR_BUFFER on every
 * process where both are significant, as MPICH reports it (its errors/coll/noalias*); with no
 * data to move, or with MPI_IN_PLACE, it is fine. */
#include <mpi.h>
#include "../check.h"

enum { MAXP = 64 };

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    static int buf[MAXP * 2];
    int counts[MAXP], displs[MAXP];
    for (int i = 0; i < size; i++)
        counts[i] = 1, displs[i] = i;
    MPI_Request req;
    int root = size - 1, at_root = rank == root;

    CHECK(check_class(MPI_Allgather(buf, 1, MPI_INT, buf, 1, MPI_INT, MPI_COMM_WORLD)) ==
          MPI_ERR_BUFFER);
    CHECK(check_class(MPI_Allgather(&buf[rank], 1, MPI_INT, buf, 1, MPI_INT, MPI_COMM_WORLD)) ==
          MPI_ERR_BUFFER);
    CHECK(check_class(MPI_Allgatherv(&buf[rank], 1, MPI_INT, buf, counts, displs, MPI_INT,
                             MPI_COMM_WORLD)) == MPI_ERR_BUFFER);
    CHECK(check_class(MPI_Alltoall(buf, 1, MPI_INT, buf, 1, MPI_INT, MPI_COMM_WORLD)) == MPI_ERR_BUFFER);
    CHECK(check_class(MPI_Ialltoall(buf, 1, MPI_INT, buf, 1, MPI_INT, MPI_COMM_WORLD, &req)) ==
          MPI_ERR_BUFFER);
    CHECK(check_class(MPI_Alltoallv(buf, counts, displs, MPI_INT, buf, counts, displs, MPI_INT,
                            MPI_COMM_WORLD)) == MPI_ERR_BUFFER);
    CHECK(check_class(MPI_Allreduce(buf, buf, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD)) == MPI_ERR_BUFFER);
    int rc = MPI_Gather(buf, 1, MPI_INT, buf, 1, MPI_INT, root, MPI_COMM_WORLD);
    CHECKF(at_root ? check_class(rc) == MPI_ERR_BUFFER : rc == MPI_SUCCESS, "gather: %d", rc);
    if (size == 1)                    /* only the root can tell: the others would wait */
        CHECK(check_class(MPI_Iscatter(buf, 1, MPI_INT, buf, 1, MPI_INT, 0, MPI_COMM_WORLD, &req)) ==
              MPI_ERR_BUFFER);

    /* Valid: nothing moves, or MPI_IN_PLACE says it. */
    CHECK(MPI_Alltoall(buf, 0, MPI_INT, buf, 0, MPI_INT, MPI_COMM_WORLD) == MPI_SUCCESS);
    CHECK(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, 1, MPI_INT, MPI_COMM_WORLD) ==
          MPI_SUCCESS);
    CHECK(MPI_Gather(at_root ? MPI_IN_PLACE : buf, 1, MPI_INT, buf, 1, MPI_INT, root,
                     MPI_COMM_WORLD) == MPI_SUCCESS);
    MPI_Finalize();
    return CHECK_RESULT();
}
