/* np: 1 2 3 4 8 */
/* User-defined operations (MPI_Op_create): a non-commutative one — 2x2 matrix products modulo
 * a prime, on a contiguous type of 4 ints — must be applied in rank order by MPI_Reduce (every
 * root), MPI_Allreduce (short and long vectors, in place or not), MPI_Scan, MPI_Exscan,
 * MPI_Reduce_scatter_block and MPI_Reduce_scatter; a commutative one gives the plain sums; the
 * large-count form MPI_Op_create_c works too. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"

#define P 10007
typedef struct { int a, b, c, d; } mat;

static int rank, size;
static MPI_Datatype mat_type;

static mat mul(mat x, mat y)
{
    return (mat){(x.a * y.a + x.b * y.c) % P, (x.a * y.b + x.b * y.d) % P,
                 (x.c * y.a + x.d * y.c) % P, (x.c * y.b + x.d * y.d) % P};
}

/* inout = in x inout: `in` comes from the lower ranks. */
static void matmul(void *in, void *inout, int *len, MPI_Datatype *type)
{
    mat *x = in, *y = inout;
    if (*type != mat_type)
        abort();
    for (int i = 0; i < *len; i++)
        y[i] = mul(x[i], y[i]);
}

static void matmul_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *type)
{
    int n = (int)*len;
    matmul(in, inout, &n, type);
}

static void intsum(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

/* Rank r's i-th matrix: [[r + i + 1, 1], [1, 0]] - no two of them commute. */
static mat m_of(int r, int i)
{
    return (mat){(r + i + 1) % P, 1, 1, 0};
}

/* The product of ranks [from, to)'s i-th matrices, in rank order. */
static mat product(int from, int to, int i)
{
    mat m = {1, 0, 0, 1};
    for (int r = from; r < to; r++)
        m = mul(m, m_of(r, i));
    return m;
}

static int same(mat x, mat y)
{
    return x.a == y.a && x.b == y.b && x.c == y.c && x.d == y.d;
}

static int check_all(const mat *out, int n, int from, int to, int offset)
{
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += !same(out[i], product(from, to, i + offset));
    return bad;
}

static void noncommutative(MPI_Op op, int n)
{
    mat *in = malloc(n * size * sizeof *in), *out = malloc(n * size * sizeof *out);
    for (int i = 0; i < n * size; i++)
        in[i] = m_of(rank, i);

    CHECK(MPI_Allreduce(in, out, n, mat_type, op, MPI_COMM_WORLD) == MPI_SUCCESS);
    CHECKF(!check_all(out, n, 0, size, 0), "allreduce of %d matrices", n);
    memcpy(out, in, n * sizeof *in);
    CHECK(MPI_Allreduce(MPI_IN_PLACE, out, n, mat_type, op, MPI_COMM_WORLD) == MPI_SUCCESS);
    CHECKF(!check_all(out, n, 0, size, 0), "allreduce in place of %d matrices", n);

    for (int root = 0; root < size; root++) {
        memset(out, 0, n * sizeof *out);
        CHECK(MPI_Reduce(in, out, n, mat_type, op, root, MPI_COMM_WORLD) == MPI_SUCCESS);
        if (rank == root)
            CHECKF(!check_all(out, n, 0, size, 0), "reduce of %d matrices to %d", n, root);
        if (rank == root)
            memcpy(out, in, n * sizeof *in);
        CHECK(MPI_Reduce(rank == root ? MPI_IN_PLACE : in, out, n, mat_type, op, root,
                         MPI_COMM_WORLD) == MPI_SUCCESS);
        if (rank == root)
            CHECKF(!check_all(out, n, 0, size, 0), "reduce in place of %d matrices to %d", n,
                   root);
    }

    CHECK(MPI_Scan(in, out, n, mat_type, op, MPI_COMM_WORLD) == MPI_SUCCESS);
    CHECKF(!check_all(out, n, 0, rank + 1, 0), "scan of %d matrices", n);
    memcpy(out, in, n * sizeof *in);
    CHECK(MPI_Scan(MPI_IN_PLACE, out, n, mat_type, op, MPI_COMM_WORLD) == MPI_SUCCESS);
    CHECKF(!check_all(out, n, 0, rank + 1, 0), "scan in place of %d matrices", n);
    CHECK(MPI_Exscan(in, out, n, mat_type, op, MPI_COMM_WORLD) == MPI_SUCCESS);
    if (rank > 0)
        CHECKF(!check_all(out, n, 0, rank, 0), "exscan of %d matrices", n);
    memcpy(out, in, n * sizeof *in);
    CHECK(MPI_Exscan(MPI_IN_PLACE, out, n, mat_type, op, MPI_COMM_WORLD) == MPI_SUCCESS);
    if (rank > 0)
        CHECKF(!check_all(out, n, 0, rank, 0), "exscan in place of %d matrices", n);

    /* Reduce-scatter: block r (n matrices) to rank r. */
    CHECK(MPI_Reduce_scatter_block(in, out, n, mat_type, op, MPI_COMM_WORLD) == MPI_SUCCESS);
    CHECKF(!check_all(out, n, 0, size, rank * n), "reduce_scatter_block of %d matrices", n);
    memcpy(out, in, n * size * sizeof *in);
    CHECK(MPI_Reduce_scatter_block(MPI_IN_PLACE, out, n, mat_type, op, MPI_COMM_WORLD) ==
          MPI_SUCCESS);
    CHECKF(!check_all(out, n, 0, size, rank * n), "reduce_scatter_block in place");
    int *counts = malloc(size * sizeof *counts), total = 0, before = 0;
    for (int r = 0; r < size; r++) {
        counts[r] = (r * 3 + n) % 5;
        if (r < rank)
            before += counts[r];
        total += counts[r];
    }
    if (total <= n * size) {
        CHECK(MPI_Reduce_scatter(in, out, counts, mat_type, op, MPI_COMM_WORLD) == MPI_SUCCESS);
        CHECKF(!check_all(out, counts[rank], 0, size, before), "reduce_scatter");
    }
    free(counts);
    free(in), free(out);
}

static void commutative(void)
{
    MPI_Op op;
    CHECK(MPI_Op_create(intsum, 1, &op) == MPI_SUCCESS);
    int commute = -1;
    MPI_Op_commutative(op, &commute);
    CHECK(commute == 1);
    for (int n = 1; n <= 20000; n *= 20) {
        int *in = malloc(n * size * sizeof(int)), *out = malloc(n * size * sizeof(int));
        for (int i = 0; i < n * size; i++)
            in[i] = rank * 3 + i;
        CHECK(MPI_Allreduce(in, out, n, MPI_INT, op, MPI_COMM_WORLD) == MPI_SUCCESS);
        int bad = 0;
        for (int i = 0; i < n; i++)
            bad += out[i] != 3 * size * (size - 1) / 2 + size * i;
        CHECKF(!bad, "commutative allreduce of %d ints: %d wrong", n, bad);
        CHECK(MPI_Reduce_scatter_block(in, out, n, MPI_INT, op, MPI_COMM_WORLD) == MPI_SUCCESS);
        bad = 0;
        for (int i = 0; i < n; i++)
            bad += out[i] != 3 * size * (size - 1) / 2 + size * (rank * n + i);
        CHECKF(!bad, "commutative reduce_scatter_block of %d ints: %d wrong", n, bad);
        CHECK(MPI_Scan(in, out, n, MPI_INT, op, MPI_COMM_WORLD) == MPI_SUCCESS);
        bad = 0;
        for (int i = 0; i < n; i++)
            bad += out[i] != 3 * rank * (rank + 1) / 2 + (rank + 1) * i;
        CHECKF(!bad, "commutative scan of %d ints: %d wrong", n, bad);
        free(in), free(out);
    }
    MPI_Op_free(&op);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Type_contiguous(4, MPI_INT, &mat_type);
    MPI_Type_commit(&mat_type);

    MPI_Op op, op_c;
    CHECK(MPI_Op_create(matmul, 0, &op) == MPI_SUCCESS);
    CHECK(MPI_Op_create_c(matmul_c, 0, &op_c) == MPI_SUCCESS);
    noncommutative(op, 1);
    noncommutative(op, 5);
    noncommutative(op, 3000);         /* 48 KB: the long allreduce */
    noncommutative(op_c, 7);
    MPI_Op_free(&op);
    MPI_Op_free(&op_c);
    commutative();

    MPI_Type_free(&mat_type);
    MPI_Finalize();
    return CHECK_RESULT();
}
