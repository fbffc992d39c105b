/* np: 3 4 5 8 */
/* The long-message algorithms on short messages: with MICA_BCAST_LONG=0 and
 * MICA_ALLREDUCE_LONG=0 (set before MPI_Init) every broadcast takes the scatter + ring
 * algorithm, down to messages shorter than the process count (empty pieces), and every
 * allreduce Rabenseifner's (as long as there are enough elements), in the blocking,
 * nonblocking and persistent forms alike; a non-commutative operation checks the order. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"

static int rank, size;

/* inout = in "then" inout for affine maps x -> a x + b (mod 2^32): not commutative. */
static void compose(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    unsigned *f = in, *g = inout;
    for (int i = 0; i < *len; i++, f += 2, g += 2) {
        unsigned a = g[0] * f[0], b = g[0] * f[1] + g[1];
        g[0] = a, g[1] = b;
    }
}

static void bcasts(void)
{
    for (int n = 0; n <= 3 * size; n++)
        for (int root = 0; root < size; root++) {
            char buf[64], ibuf[64];
            for (int i = 0; i < n; i++)
                buf[i] = ibuf[i] = rank == root ? (char)(root + i) : -1;
            MPI_Request req;
            MPI_Ibcast(ibuf, n, MPI_CHAR, root, MPI_COMM_WORLD, &req);
            CHECK(MPI_Bcast(buf, n, MPI_CHAR, root, MPI_COMM_WORLD) == MPI_SUCCESS);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            for (int i = 0; i < n; i++)
                CHECKF(buf[i] == (char)(root + i) && ibuf[i] == buf[i], "n %d root %d [%d]", n,
                       root, i);
        }
}

static void allreduces(MPI_Op op, MPI_Datatype affine)
{
    for (int n = 1; n <= 2 * size + 1; n++) {
        unsigned mine[64][2], r[3][64][2];
        for (int i = 0; i < n; i++)
            mine[i][0] = 2 * (unsigned)rank + 3, mine[i][1] = (unsigned)(rank + i);
        MPI_Request req[2];
        MPI_Iallreduce(mine, r[0], n, affine, op, MPI_COMM_WORLD, &req[0]);
        MPI_Allreduce_init(mine, r[1], n, affine, op, MPI_COMM_WORLD, MPI_INFO_NULL, &req[1]);
        MPI_Start(&req[1]);
        MPI_Allreduce(mine, r[2], n, affine, op, MPI_COMM_WORLD);
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
        MPI_Request_free(&req[1]);
        for (int i = 0; i < n; i++) {
            unsigned want[2] = {1, 0};  /* rank 0's map applied first */
            for (int p = 0; p < size; p++) {
                unsigned f[2] = {2 * (unsigned)p + 3, (unsigned)(p + i)};
                int one = 1;
                compose(want, f, &one, NULL);   /* f = want then f */
                memcpy(want, f, sizeof f);
            }
            for (int k = 0; k < 3; k++)
                CHECKF(!memcmp(r[k][i], want, sizeof want), "n %d form %d [%d]", n, k, i);
        }
    }
}

int main(int argc, char **argv)
{
    setenv("MICA_BCAST_LONG", "0", 1);
    setenv("MICA_ALLREDUCE_LONG", "0", 1);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Op op;
    MPI_Datatype affine;
    MPI_Op_create(compose, 0, &op);
    MPI_Type_contiguous(2, MPI_UNSIGNED, &affine);
    MPI_Type_commit(&affine);
    bcasts();
    allreduces(op, affine);
    MPI_Op_free(&op);
    MPI_Type_free(&affine);
    MPI_Finalize();
    return CHECK_RESULT();
}
