/* np: 1 */
/* MPI_Dims_create: the standard's examples, fixed entries, errors for impossible input, and
 * against a brute-force search: the result is a nonincreasing factorization whose largest
 * and smallest free dimensions are as close as any factorization allows (up to 300, where
 * setting a lone large prime aside changes nothing); ties and the rest as MPICH (src/topo/dims.c
 * states the rule; MPICH's topo/dims1-5 check it up to 5 dimensions). */
#include <mpi.h>
#include <string.h>

#include "../check.h"

static int error_class(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

/* dims_create(nnodes, nd, in) gives `want`. */
static void expect(int nnodes, int nd, const int *in, const int *want)
{
    int dims[8];
    memcpy(dims, in, (size_t)nd * sizeof *dims);
    CHECKF(MPI_Dims_create(nnodes, nd, dims) == MPI_SUCCESS, "nnodes %d ndims %d", nnodes, nd);
    for (int i = 0; i < nd; i++)
        CHECKF(dims[i] == want[i], "nnodes %d ndims %d: dims[%d]=%d, want %d", nnodes, nd, i,
               dims[i], want[i]);
}

static void expect_error(int nnodes, int nd, const int *in, int cls)
{
    int dims[8] = {0};
    if (in && nd > 0)
        memcpy(dims, in, (size_t)nd * sizeof *dims);
    int got = error_class(MPI_Dims_create(nnodes, nd, in ? dims : NULL));
    CHECKF(got == cls, "nnodes %d ndims %d: class %d, want %d", nnodes, nd, got, cls);
}

/* The smallest spread (largest - smallest) of any factorization of m into k factors. */
static int best_spread(int m, int k, int largest_so_far, int cap)
{
    if (k == 0)
        return m == 1 ? 0 : -1;
    int best = -1;
    for (int f = 1; f <= cap && f <= m; f++) {
        if (m % f)
            continue;
        int top = largest_so_far ? largest_so_far : f;
        if (k == 1) {
            if (f == m && (best < 0 || top - f < best))
                best = top - f;
            continue;
        }
        int rest = best_spread(m / f, k - 1, top, f);
        if (rest >= 0) {
            /* rest measures from `top` to the smallest below: the same spread */
            if (best < 0 || rest < best)
                best = rest;
        }
    }
    return best;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* The standard's examples. */
    expect(6, 2, (int[]){0, 0}, (int[]){3, 2});
    expect(7, 2, (int[]){0, 0}, (int[]){7, 1});
    expect(6, 3, (int[]){0, 3, 0}, (int[]){2, 3, 1});
    expect_error(7, 3, (int[]){0, 3, 0}, MPI_ERR_DIMS);
    /* More: balanced, nonincreasing. */
    expect(12, 3, (int[]){0, 0, 0}, (int[]){3, 2, 2});
    expect(16, 3, (int[]){0, 0, 0}, (int[]){4, 2, 2});
    expect(24, 3, (int[]){0, 0, 0}, (int[]){4, 3, 2});
    expect(30, 2, (int[]){0, 0}, (int[]){6, 5});
    expect(64, 3, (int[]){0, 0, 0}, (int[]){4, 4, 4});
    expect(210, 3, (int[]){0, 0, 0}, (int[]){7, 6, 5});
    expect(1, 3, (int[]){0, 0, 0}, (int[]){1, 1, 1});
    expect(4, 4, (int[]){0, 0, 0, 0}, (int[]){2, 2, 1, 1});
    expect(1000000, 2, (int[]){0, 0}, (int[]){1000, 1000});
    expect(2147483647, 2, (int[]){0, 0}, (int[]){2147483647, 1});   /* a prime */
    expect(1 << 30, 3, (int[]){0, 0, 0}, (int[]){1024, 1024, 1024});
    /* Equal spreads: MPICH's choice (the largest dimensions, then the most even between). */
    expect(5040, 3, (int[]){0, 0, 0}, (int[]){21, 16, 15});   /* not 20 18 14 */
    expect(360, 3, (int[]){0, 0, 0}, (int[]){10, 6, 6});      /* not 9 8 5 */
    expect(2520, 4, (int[]){0, 0, 0, 0}, (int[]){10, 7, 6, 6});
    expect(20, 4, (int[]){0, 0, 0, 0}, (int[]){5, 2, 2, 1});  /* not 5 4 1 1 */
    /* From the smallest dimension up, the first that differs is the larger (MPICH's dims5). */
    expect(98784, 5, (int[]){0, 0, 0, 0, 0}, (int[]){14, 14, 9, 8, 7});   /* not 14 12 12 7 7 */
    expect(119952, 5, (int[]){0, 0, 0, 0, 0}, (int[]){17, 14, 9, 8, 7});
    expect(720720, 5, (int[]){0, 0, 0, 0, 0}, (int[]){20, 18, 14, 13, 11});
    expect(98784, 6, (int[]){0, 0, 0, 0, 0, 0}, (int[]){8, 7, 7, 7, 6, 6});
    /* A prime whose square exceeds nnodes is a dimension of its own, and the rest is balanced
     * apart: 1009 x (1008 as 12 12 7), not 1009 14 9 8 whose smallest is larger. */
    expect(1009 * 1008, 4, (int[]){0, 0, 0, 0}, (int[]){1009, 12, 12, 7});
    expect(1009 * 1008, 6, (int[]){0, 0, 0, 0, 0, 0}, (int[]){1009, 7, 4, 4, 3, 3});
    /* Fixed entries stay; the free ones share what is left. */
    expect(12, 3, (int[]){0, 0, 2}, (int[]){3, 2, 2});
    expect(12, 3, (int[]){2, 0, 0}, (int[]){2, 3, 2});
    expect(12, 2, (int[]){3, 4}, (int[]){3, 4});
    expect(12, 3, (int[]){1, 0, 1}, (int[]){1, 12, 1});
    expect(1, 0, (int[]){0}, (int[]){0});
    /* Impossible input. */
    expect_error(6, 2, (int[]){4, 0}, MPI_ERR_DIMS);       /* 4 does not divide 6 */
    expect_error(6, 2, (int[]){2, 2}, MPI_ERR_DIMS);       /* all fixed, product 4 */
    expect_error(6, 2, (int[]){-2, 0}, MPI_ERR_DIMS);
    expect_error(2, 0, (int[]){0}, MPI_ERR_DIMS);          /* no dimensions make 1 */
    expect_error(0, 2, (int[]){0, 0}, MPI_ERR_DIMS);
    expect_error(-1, 2, (int[]){0, 0}, MPI_ERR_ARG);
    expect_error(6, -1, (int[]){0, 0}, MPI_ERR_ARG);
    expect_error(6, 2, NULL, MPI_ERR_ARG);
    expect_error(1 << 30, 2, (int[]){1 << 20, 1 << 20}, MPI_ERR_DIMS);   /* product overflows */

    /* Every nnodes up to 300 in 1..4 dimensions against the brute force. */
    for (int nnodes = 1; nnodes <= 300; nnodes++)
        for (int nd = 1; nd <= 4; nd++) {
            int dims[4] = {0, 0, 0, 0};
            CHECK(MPI_Dims_create(nnodes, nd, dims) == MPI_SUCCESS);
            long long product = 1;
            for (int i = 0; i < nd; i++) {
                product *= dims[i];
                CHECKF(i == 0 || dims[i] <= dims[i - 1], "%d in %d: not nonincreasing", nnodes,
                       nd);
            }
            CHECKF(product == nnodes, "%d in %d: product %lld", nnodes, nd, product);
            int want = best_spread(nnodes, nd, 0, nnodes);
            CHECKF(dims[0] - dims[nd - 1] == want, "%d in %d: spread %d, best %d", nnodes, nd,
                   dims[0] - dims[nd - 1], want);
        }

    MPI_Finalize();
    return CHECK_RESULT();
}
