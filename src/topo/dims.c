/* MPI_Dims_create: the grid dimensions "as close to each other as possible", in nonincreasing
 * order, filling the zero entries of dims.
 *
 * The standard does not define "close" nor rank the factorizations it leaves equal; Mica takes
 * MPICH's rule (MPICH 4's dims_create.c, which Open MPI's results agree with on MPICH's tests
 * topo/dims1-5), so that programs keep their grids when they change implementation:
 *  1. A prime factor p of the free part m with p * p > m (at most one, the largest) can only be
 *     a dimension of its own, the largest: it is set aside, and the rule starts again on m / p
 *     with one dimension less, while more than one is left.
 *  2. The rest is split to make the spread, largest minus smallest dimension, the smallest:
 *     the spread of the rest alone, not counting the primes set aside.
 *  3. Of equal spreads, the one whose smallest dimension is the largest; of those, the one whose
 *     next smallest is the largest, and so on upwards (98784 in 5-d: 14x14x9x8x7, not
 *     14x12x12x7x7; 5040 in 3-d: 21x16x15, not 20x18x14).
 * The factorizations are searched exhaustively (branch and bound over the divisors).
 * docs/CHOICES.md says the same for users. */
#include <stdlib.h>

#include "core/errors.h"
#include "core_api.h"

typedef struct {
    const int *divisors;              /* of the number to factor, increasing */
    int ndivisors;
    int *cur, *best;                  /* factors, nonincreasing */
    int best_spread, found;
} search_t;

/* Is the factorization cur better than best: a smaller spread; the same, and from the smallest
 * factor upwards the first that differs is larger? */
static int better(const search_t *s, int k, int spread)
{
    if (!s->found || spread != s->best_spread)
        return !s->found || spread < s->best_spread;
    for (int j = k - 1; j >= 0; j--)
        if (s->cur[j] != s->best[j])
            return s->cur[j] > s->best[j];
    return 0;
}

/* Is r^k <= m? (r >= 1, k >= 1; no overflow.) */
static int power_fits(int r, int k, int m)
{
    long long p = 1;
    for (int i = 0; i < k; i++)
        if ((p *= r) > m)
            return 0;
    return 1;
}

/* The largest r with r^k <= m (m, k >= 1). */
static int root_floor(int m, int k)
{
    int lo = 1, hi = m;
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (power_fits(mid, k, m))
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* Choose factors i..k-1 of m, none above `cap`; cur[0] is the largest of all once i > 0. */
static void search(search_t *s, int i, int k, int m, int cap)
{
    if (m == 1) {
        for (int j = i; j < k; j++)
            s->cur[j] = 1;
        int spread = s->cur[0] - s->cur[k - 1];
        if (better(s, k, spread)) {
            s->best_spread = spread;
            s->found = 1;
            for (int j = 0; j < k; j++)
                s->best[j] = s->cur[j];
        }
        return;
    }
    if (i == k)
        return;
    if (s->found && i > 0 && s->cur[0] - root_floor(m, k - i) > s->best_spread)
        return;                       /* even the best ending cannot match what we have */
    /* The factor here is the largest still to come: at least the (k - i)-th root of m. */
    int low = root_floor(m, k - i);
    for (int d = 0; d < s->ndivisors; d++) {
        int f = s->divisors[d];
        if (f > cap || f > m)
            break;
        if (f < low || m % f)
            continue;
        if (s->found && i == 0 && f - low > s->best_spread)
            break;                    /* larger first factors only spread more */
        s->cur[i] = f;
        search(s, i + 1, k, m / f, f);
    }
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* m as k factors, nonincreasing and as balanced as possible (rules 2 and 3), into out[]. */
static int balance_rest(int m, int k, int *out)
{
    int n = 0;
    for (int d = 1; (long long)d * d <= m; d++)
        n += m % d == 0 ? 1 + (d != m / d) : 0;
    int *divisors = malloc((size_t)n * sizeof *divisors);
    int *cur = malloc((size_t)k * sizeof *cur);
    if (!divisors || !cur) {
        free(divisors);
        free(cur);
        return mica_error(MPI_ERR_NO_MEM, "no memory to factor %d", m);
    }
    n = 0;
    for (int d = 1; (long long)d * d <= m; d++)
        if (m % d == 0) {
            divisors[n++] = d;
            if (d != m / d)
                divisors[n++] = m / d;
        }
    qsort(divisors, (size_t)n, sizeof *divisors, cmp_int);
    search_t s = {divisors, n, cur, out, 0, 0};
    search(&s, 0, k, m, m);
    free(divisors);
    free(cur);
    return MPI_SUCCESS;
}

/* The largest prime factor of m (> 1) if it divides m once and its square exceeds m, else 0. */
static int lone_prime(int m)
{
    int p = m, r = m;
    for (int d = 2; (long long)d * d <= r; d++)
        while (r % d == 0) {
            p = d;
            r /= d;
        }
    if (r > 1)
        p = r;                        /* what is left is a prime, the largest */
    return m % ((long long)p * p) != 0 && (long long)p * p > m ? p : 0;
}

/* m as k factors, nonincreasing: rule 1, then the rest. */
static int balance(int m, int k, int *out)
{
    int i = 0, p;
    while (k - i > 1 && m > 1 && (p = lone_prime(m))) {
        out[i++] = p;
        m /= p;
    }
    return balance_rest(m, k - i, out + i);
}

int mica_dims_create(int nnodes, int ndims, int dims[])
{
    if (nnodes < 0)
        return mica_error(MPI_ERR_ARG, "nnodes=%d is negative", nnodes);
    if (ndims < 0)
        return mica_error(MPI_ERR_ARG, "ndims=%d is negative", ndims);
    if (ndims > 0 && !dims)
        return mica_error(MPI_ERR_ARG, "dims is NULL");
    long long fixed = 1;
    int free_dims = 0;
    for (int d = 0; d < ndims; d++) {
        if (dims[d] < 0)
            return mica_error(MPI_ERR_DIMS, "dims[%d]=%d is negative", d, dims[d]);
        if (dims[d] == 0)
            free_dims++;
        else if (fixed <= nnodes)
            fixed *= dims[d];
    }
    if (nnodes == 0 || nnodes % fixed || (free_dims == 0 && fixed != nnodes))
        return mica_error(MPI_ERR_DIMS, "nnodes=%d is not the product of %d dimensions with "
                          "the fixed ones of dims (their product: %lld)", nnodes, ndims, fixed);
    if (free_dims == 0)
        return MPI_SUCCESS;
    int *factors = malloc((size_t)free_dims * sizeof *factors);
    if (!factors)
        return mica_error(MPI_ERR_NO_MEM, "no memory for %d dimensions", free_dims);
    int rc = balance((int)(nnodes / fixed), free_dims, factors);
    if (rc == MPI_SUCCESS)
        for (int d = 0, j = 0; d < ndims; d++)
            if (dims[d] == 0)
                dims[d] = factors[j++];
    free(factors);
    return rc;
}
