/* np: 1 2 */
/* MPI_Type_create_darray: block (default and explicit darg), cyclic(k) and none, in C and
 * Fortran order, 1 to 3 dimensions, every rank of process grids of 1 to 12 processes (the call
 * needs no communication, so each process checks every rank). The data a rank's type selects
 * from an array holding each element's index must be exactly the elements the standard's
 * distribution gives that rank, in the array's order; every element belongs to one rank; the
 * extent is the whole array; the envelope and contents give back the arguments (int and _c
 * forms); bad arguments are MPI_ERR_ARG. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"

static int error_class(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

/* The process coordinate that owns index i of a dimension, by the standard's definitions. */
static int owner(int i, int g, int distrib, int darg, int p)
{
    if (distrib == MPI_DISTRIBUTE_NONE)
        return 0;
    if (distrib == MPI_DISTRIBUTE_BLOCK) {
        int b = darg == MPI_DISTRIBUTE_DFLT_DARG ? (g + p - 1) / p : darg;
        return i / b;
    }
    int k = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
    return i / k % p;
}

struct layout {
    int ndims, gsizes[3], distribs[3], dargs[3], psizes[3];
};

/* Check the type of every rank of `l` in `order`. */
static void check_layout(const struct layout *l, int order)
{
    int nd = l->ndims, size = 1, total = 1;
    for (int d = 0; d < nd; d++)
        size *= l->psizes[d], total *= l->gsizes[d];
    int *array = malloc(total * sizeof *array), *got = malloc(total * sizeof *got);
    int *seen = calloc(total, sizeof *seen);
    for (int i = 0; i < total; i++)
        array[i] = i;
    for (int rank = 0; rank < size; rank++) {
        MPI_Datatype t;
        int rc = MPI_Type_create_darray(size, rank, nd, l->gsizes, l->distribs, l->dargs,
                                        l->psizes, order, MPI_INT, &t);
        CHECKF(rc == MPI_SUCCESS, "darray nd %d size %d rank %d", nd, size, rank);
        if (rc != MPI_SUCCESS)
            continue;
        MPI_Type_commit(&t);
        MPI_Aint lb, extent;
        MPI_Type_get_extent(t, &lb, &extent);
        CHECKF(lb == 0 && extent == (MPI_Aint)(total * sizeof(int)), "lb %ld extent %ld",
               (long)lb, (long)extent);
        /* The rank's process coordinates: the grid is row-major in either order. */
        int coords[3];
        for (int d = nd - 1, r = rank; d >= 0; d--)
            coords[d] = r % l->psizes[d], r /= l->psizes[d];
        /* What it should select: the owned elements in memory order. */
        int want = 0, *expect = malloc(total * sizeof *expect);
        for (int i = 0; i < total; i++) {
            /* index i of memory -> its index in each dimension */
            int idx[3], rest = i;
            for (int k = 0; k < nd; k++) {
                int d = order == MPI_ORDER_C ? nd - 1 - k : k;
                idx[d] = rest % l->gsizes[d];
                rest /= l->gsizes[d];
            }
            int mine = 1;
            for (int d = 0; d < nd; d++)
                mine &= owner(idx[d], l->gsizes[d], l->distribs[d], l->dargs[d],
                              l->psizes[d]) == coords[d];
            if (mine)
                expect[want++] = i;
        }
        int size_t_ = -1;
        MPI_Type_size(t, &size_t_);
        CHECKF(size_t_ == want * (int)sizeof(int), "rank %d size %d, want %d elements", rank,
               size_t_, want);
        int pos = 0;
        if (size_t_ == want * (int)sizeof(int)) {
            CHECK(MPI_Pack(array, 1, t, got, total * sizeof(int), &pos, MPI_COMM_SELF) ==
                  MPI_SUCCESS);
            for (int j = 0; j < want; j++) {
                CHECKF(got[j] == expect[j], "nd %d order %d rank %d: element %d is %d, want %d",
                       nd, order, rank, j, got[j], expect[j]);
                seen[expect[j]]++;
            }
        }
        free(expect);
        /* The envelope and contents. */
        int ni, na, nd_, combiner;
        MPI_Type_get_envelope(t, &ni, &na, &nd_, &combiner);
        CHECK(combiner == MPI_COMBINER_DARRAY && ni == 4 * nd + 4 && na == 0 && nd_ == 1);
        int ints[16];
        MPI_Aint aints[1];
        MPI_Datatype types[1];
        CHECK(MPI_Type_get_contents(t, 16, 0, 1, ints, aints, types) == MPI_SUCCESS);
        CHECK(ints[0] == size && ints[1] == rank && ints[2] == nd && ints[3 + 4 * nd] == order);
        for (int d = 0; d < nd; d++)
            CHECK(ints[3 + d] == l->gsizes[d] && ints[3 + nd + d] == l->distribs[d] &&
                  ints[3 + 2 * nd + d] == l->dargs[d] && ints[3 + 3 * nd + d] == l->psizes[d]);
        CHECK(types[0] == MPI_INT);
        MPI_Type_free(&t);
    }
    for (int i = 0; i < total; i++)
        CHECKF(seen[i] == 1, "nd %d order %d: element %d held by %d ranks", nd, order, i, seen[i]);
    free(array);
    free(got);
    free(seen);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    const int B = MPI_DISTRIBUTE_BLOCK, C = MPI_DISTRIBUTE_CYCLIC, N = MPI_DISTRIBUTE_NONE;
    const int D = MPI_DISTRIBUTE_DFLT_DARG;
    static const struct layout layouts[] = {
        {1, {10}, {B}, {D}, {3}},              /* blocks of 4, 4, 2 */
        {1, {10}, {B}, {D}, {4}},              /* 3, 3, 3, 1 */
        {1, {10}, {B}, {D}, {12}},             /* ranks beyond the data hold nothing */
        {1, {10}, {B}, {5}, {3}},              /* explicit darg: 5, 5, nothing */
        {1, {10}, {C}, {D}, {3}},              /* cyclic(1) */
        {1, {10}, {C}, {3}, {2}},              /* cyclic(3): a short last block */
        {1, {7}, {N}, {D}, {1}},
        {2, {6, 5}, {B, C}, {D, 2}, {2, 2}},
        {2, {6, 5}, {C, B}, {1, D}, {3, 2}},
        {2, {4, 9}, {N, C}, {D, 2}, {1, 4}},
        {2, {4, 9}, {B, N}, {D, D}, {3, 1}},
        {3, {4, 3, 5}, {B, C, C}, {D, 1, 2}, {2, 1, 3}},
        {3, {5, 4, 6}, {C, N, B}, {2, D, 2}, {2, 1, 3}},
    };
    for (size_t i = 0; i < sizeof layouts / sizeof *layouts; i++) {
        check_layout(&layouts[i], MPI_ORDER_C);
        check_layout(&layouts[i], MPI_ORDER_FORTRAN);
    }

    /* A darray of a derived type: each element is its vector, the extent the array of them. */
    MPI_Datatype pair, t;
    MPI_Type_contiguous(2, MPI_DOUBLE, &pair);
    CHECK(MPI_Type_create_darray(2, 1, 1, (int[]){5}, (int[]){C}, (int[]){D}, (int[]){2},
                                 MPI_ORDER_C, pair, &t) == MPI_SUCCESS);
    MPI_Aint lb, extent;
    int size;
    MPI_Type_get_extent(t, &lb, &extent);
    MPI_Type_size(t, &size);
    CHECK(lb == 0 && extent == 5 * 16 && size == 2 * 16);   /* elements 1 and 3 */
    MPI_Type_free(&t);
    MPI_Type_free(&pair);

    /* The large-count form records the global sizes as counts. */
    MPI_Count gs[2] = {6, 4};
    CHECK(MPI_Type_create_darray_c(4, 3, 2, gs, (int[]){B, B}, (int[]){D, D}, (int[]){2, 2},
                                   MPI_ORDER_FORTRAN, MPI_INT, &t) == MPI_SUCCESS);
    MPI_Count ni, na, nc, ndt;
    int combiner;
    MPI_Type_get_envelope_c(t, &ni, &na, &nc, &ndt, &combiner);
    CHECK(combiner == MPI_COMBINER_DARRAY && ni == 3 * 2 + 4 && na == 0 && nc == 2 && ndt == 1);
    int ints[10];
    MPI_Aint aints[1];
    MPI_Count counts[2];
    MPI_Datatype types[1];
    CHECK(MPI_Type_get_contents_c(t, 10, 0, 2, 1, ints, aints, counts, types) == MPI_SUCCESS);
    CHECK(ints[0] == 4 && ints[1] == 3 && ints[2] == 2 && counts[0] == 6 && counts[1] == 4);
    CHECK(ints[3] == B && ints[5] == D && ints[7] == 2 && ints[9] == MPI_ORDER_FORTRAN);
    MPI_Type_size(t, &size);
    CHECK(size == 3 * 2 * 4);                             /* rows 3..5, columns 2..3 */
    MPI_Type_free(&t);

    /* Bad arguments. */
    int g[1] = {10}, dist[1] = {B}, darg[1] = {D}, ps[1] = {3};
    CHECK(error_class(MPI_Type_create_darray(4, 0, 1, g, dist, darg, ps, MPI_ORDER_C, MPI_INT,
                                             &t)) == MPI_ERR_ARG);     /* 3 processes, not 4 */
    CHECK(error_class(MPI_Type_create_darray(3, 0, 1, g, (int[]){99}, darg, ps, MPI_ORDER_C,
                                             MPI_INT, &t)) == MPI_ERR_ARG);
    CHECK(error_class(MPI_Type_create_darray(3, 0, 1, g, (int[]){N}, darg, ps, MPI_ORDER_C,
                                             MPI_INT, &t)) == MPI_ERR_ARG);   /* none over 3 */
    CHECK(error_class(MPI_Type_create_darray(3, 0, 1, g, dist, (int[]){3}, ps, MPI_ORDER_C,
                                             MPI_INT, &t)) == MPI_ERR_ARG);   /* 3 x 3 < 10 */
    CHECK(error_class(MPI_Type_create_darray(3, 0, 1, g, (int[]){C}, (int[]){0}, ps,
                                             MPI_ORDER_C, MPI_INT, &t)) == MPI_ERR_ARG);
    CHECK(error_class(MPI_Type_create_darray(3, 0, 1, (int[]){0}, dist, darg, ps, MPI_ORDER_C,
                                             MPI_INT, &t)) == MPI_ERR_ARG);
    CHECK(error_class(MPI_Type_create_darray(3, 0, 1, g, dist, darg, ps, 12345, MPI_INT,
                                             &t)) == MPI_ERR_ARG);
    CHECK(error_class(MPI_Type_create_darray(3, 3, 1, g, dist, darg, ps, MPI_ORDER_C, MPI_INT,
                                             &t)) != MPI_SUCCESS);    /* rank beyond size */

    MPI_Finalize();
    return CHECK_RESULT();
}
