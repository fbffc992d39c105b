/* np: 1 2 3 4 8 */
/* MPI_Scan, MPI_Exscan, MPI_Reduce_scatter_block, MPI_Reduce_scatter with predefined
 * operations: several types, MPI_IN_PLACE, uneven and zero counts, a derived vector type,
 * long vectors, the large-count forms. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"

static int rank, size;

static void scan(int n)
{
    int *in = malloc(n * sizeof(int)), *out = malloc(n * sizeof(int));
    double *din = malloc(n * sizeof(double)), *dout = malloc(n * sizeof(double));
    for (int i = 0; i < n; i++)
        in[i] = rank + i, din[i] = (rank % 4) * 0.25 + i, out[i] = -1;
    CHECK(MPI_Scan(in, out, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS);
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += out[i] != rank * (rank + 1) / 2 + (rank + 1) * i;
    CHECKF(!bad, "scan sum of %d ints: %d wrong", n, bad);
    memcpy(out, in, n * sizeof(int));
    CHECK(MPI_Scan(MPI_IN_PLACE, out, n, MPI_INT, MPI_MAX, MPI_COMM_WORLD) == MPI_SUCCESS);
    bad = 0;
    for (int i = 0; i < n; i++)
        bad += out[i] != rank + i;
    CHECKF(!bad, "scan max in place of %d ints: %d wrong", n, bad);
    for (int i = 0; i < n; i++)
        out[i] = -1;
    CHECK(MPI_Exscan(in, out, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS);
    bad = 0;
    for (int i = 0; i < n && rank > 0; i++)
        bad += out[i] != (rank - 1) * rank / 2 + rank * i;
    CHECKF(!bad, "exscan sum of %d ints: %d wrong", n, bad);
    memcpy(out, in, n * sizeof(int));
    CHECK(MPI_Exscan(MPI_IN_PLACE, out, n, MPI_INT, MPI_MIN, MPI_COMM_WORLD) == MPI_SUCCESS);
    bad = 0;
    for (int i = 0; i < n && rank > 0; i++)
        bad += out[i] != i;
    CHECKF(!bad, "exscan min in place of %d ints: %d wrong", n, bad);
    CHECK(MPI_Scan(din, dout, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS);
    bad = 0;
    for (int i = 0; i < n; i++) {
        double want = 0;
        for (int r = 0; r <= rank; r++)
            want += (r % 4) * 0.25 + i;
        bad += dout[i] != want;
    }
    CHECKF(!bad, "scan sum of %d doubles: %d wrong", n, bad);
    free(in), free(out), free(din), free(dout);
}

static void reduce_scatter(int n)
{
    int total = n * size, *in = malloc(total * sizeof(int)), *out = malloc(total * sizeof(int));
    for (int i = 0; i < total; i++)
        in[i] = rank * 2 + i;
    for (int i = 0; i < n; i++)
        out[i] = -1;
    CHECK(MPI_Reduce_scatter_block(in, out, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS);
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += out[i] != size * (size - 1) + size * (rank * n + i);
    CHECKF(!bad, "reduce_scatter_block of %d ints: %d wrong", n, bad);
    memcpy(out, in, total * sizeof(int));
    CHECK(MPI_Reduce_scatter_block(MPI_IN_PLACE, out, n, MPI_INT, MPI_MAX, MPI_COMM_WORLD) ==
          MPI_SUCCESS);
    bad = 0;
    for (int i = 0; i < n; i++)
        bad += out[i] != (size - 1) * 2 + rank * n + i;
    CHECKF(!bad, "reduce_scatter_block in place of %d ints: %d wrong", n, bad);

    /* Uneven counts (rank 1 gets none). */
    int *counts = malloc(size * sizeof(int)), sum = 0, before = 0;
    for (int r = 0; r < size; r++) {
        counts[r] = r == 1 ? 0 : n + r % 3;
        if (r < rank)
            before += counts[r];
        sum += counts[r];
    }
    int *vin = malloc(sum * sizeof(int)), *vout = malloc(sum * sizeof(int));
    for (int i = 0; i < sum; i++)
        vin[i] = rank ^ i;
    for (int pass = 0; pass < 3; pass++) {
        for (int i = 0; i < sum; i++)
            vout[i] = pass == 1 ? vin[i] : -1;
        int rc;
        if (pass == 0) {
            rc = MPI_Reduce_scatter(vin, vout, counts, MPI_INT, MPI_BXOR, MPI_COMM_WORLD);
        } else if (pass == 1) {
            rc = MPI_Reduce_scatter(MPI_IN_PLACE, vout, counts, MPI_INT, MPI_BXOR, MPI_COMM_WORLD);
        } else {
            MPI_Count *cc = malloc(size * sizeof *cc);
            for (int r = 0; r < size; r++)
                cc[r] = counts[r];
            rc = MPI_Reduce_scatter_c(vin, vout, cc, MPI_INT, MPI_BXOR, MPI_COMM_WORLD);
            free(cc);
        }
        CHECK(rc == MPI_SUCCESS);
        bad = 0;
        for (int i = 0; i < counts[rank]; i++) {
            int want = 0;
            for (int r = 0; r < size; r++)
                want ^= r ^ (before + i);
            bad += vout[i] != want;
        }
        CHECKF(!bad, "reduce_scatter pass %d of %d ints: %d wrong", pass, counts[rank], bad);
    }
    free(counts), free(vin), free(vout), free(in), free(out);
}

/* A vector type: the gaps keep their values. */
static void vector_type(void)
{
    MPI_Datatype vec;
    MPI_Type_vector(3, 1, 2, MPI_DOUBLE, &vec);
    MPI_Type_commit(&vec);
    double in[5], out[5];
    for (int i = 0; i < 5; i++)
        in[i] = rank + i, out[i] = -1;
    CHECK(MPI_Scan(in, out, 1, vec, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS);
    for (int i = 0; i < 5; i++)
        CHECKF(out[i] == (i % 2 ? -1 : rank * (rank + 1) / 2.0 + (rank + 1) * i), "out[%d]=%g",
               i, out[i]);
    double *many = malloc(5 * size * sizeof(double)), got[5] = {-1, -1, -1, -1, -1};
    MPI_Aint lb, ext;
    MPI_Type_get_extent(vec, &lb, &ext);
    CHECK(ext == 5 * sizeof(double));
    for (int i = 0; i < 5 * size; i++)
        many[i] = i;
    CHECK(MPI_Reduce_scatter_block(many, got, 1, vec, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS);
    for (int i = 0; i < 5; i++)
        CHECKF(got[i] == (i % 2 ? -1 : size * (double)(5 * rank + i)), "got[%d]=%g", i, got[i]);
    free(many);
    MPI_Type_free(&vec);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    scan(1);
    scan(17);
    scan(100000);
    reduce_scatter(1);
    reduce_scatter(9);
    reduce_scatter(20000);
    vector_type();
    long long x = rank + 1, y = -1;
    CHECK(MPI_Scan_c(&x, &y, 1, MPI_LONG_LONG, MPI_PROD, MPI_COMM_WORLD) == MPI_SUCCESS);
    long long f = 1;
    for (int r = 1; r <= rank + 1; r++)
        f *= r;
    CHECK(y == f);
    CHECK(MPI_Exscan_c(&x, &y, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS);
    CHECK(rank == 0 || y == (long long)rank * (rank + 1) / 2);
    long long *blk = malloc(size * sizeof *blk);
    for (int r = 0; r < size; r++)
        blk[r] = r + rank;
    CHECK(MPI_Reduce_scatter_block_c(blk, &y, 1, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD) ==
          MPI_SUCCESS);
    CHECK(y == rank);
    free(blk);
    MPI_Finalize();
    return CHECK_RESULT();
}
