/* np: 1 2 3 4 8 */
/* Groups: MPI_Comm_group, size, rank (MPI_UNDEFINED outside), translate_ranks (MPI_PROC_NULL,
 * non-members), compare, incl, excl, range_incl, range_excl, union, intersection, difference,
 * MPI_GROUP_EMPTY, free; errors for bad ranks. */
#include <mpi.h>
#include <stdlib.h>

#include "../check.h"

static int rank, size;

static int gsize(MPI_Group g) { int s = -1; CHECK(MPI_Group_size(g, &s) == MPI_SUCCESS); return s; }
static int grank(MPI_Group g) { int r = -2; CHECK(MPI_Group_rank(g, &r) == MPI_SUCCESS); return r; }
static int gcmp(MPI_Group a, MPI_Group b)
{
    int r = -1;
    CHECK(MPI_Group_compare(a, b, &r) == MPI_SUCCESS);
    return r;
}

/* The world ranks of g's members, in order, into w (size entries at most). */
static void members(MPI_Group g, MPI_Group world, int *w)
{
    int n = gsize(g), *r = malloc((n + 1) * sizeof(int));
    for (int i = 0; i < n; i++)
        r[i] = i;
    CHECK(MPI_Group_translate_ranks(g, n, r, world, w) == MPI_SUCCESS);
    free(r);
}

static int error_class(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int *w = malloc(2 * size * sizeof(int)), *ranks = malloc(2 * size * sizeof(int));

    MPI_Group world, self, world2;
    CHECK(MPI_Comm_group(MPI_COMM_WORLD, &world) == MPI_SUCCESS);
    CHECK(MPI_Comm_group(MPI_COMM_SELF, &self) == MPI_SUCCESS);
    CHECK(MPI_Comm_group(MPI_COMM_WORLD, &world2) == MPI_SUCCESS);
    CHECK(gsize(world) == size && grank(world) == rank);
    CHECK(gsize(self) == 1 && grank(self) == 0);
    CHECK(gcmp(world, world2) == MPI_IDENT);
    CHECK(gcmp(world, self) == (size == 1 ? MPI_IDENT : MPI_UNEQUAL));
    int zero = 0, mine = -1;
    CHECK(MPI_Group_translate_ranks(self, 1, &zero, world, &mine) == MPI_SUCCESS && mine == rank);

    /* Reverse order: similar, and rank translation flips. */
    for (int i = 0; i < size; i++)
        ranks[i] = size - 1 - i;
    MPI_Group rev;
    CHECK(MPI_Group_incl(world, size, ranks, &rev) == MPI_SUCCESS);
    CHECK(gsize(rev) == size && grank(rev) == size - 1 - rank);
    CHECK(gcmp(rev, world) == (size > 1 ? MPI_SIMILAR : MPI_IDENT));
    members(rev, world, w);
    for (int i = 0; i < size; i++)
        CHECK(w[i] == size - 1 - i);
    int in[3] = {0, MPI_PROC_NULL, size - 1}, out[3];
    CHECK(MPI_Group_translate_ranks(world, 3, in, rev, out) == MPI_SUCCESS);
    CHECK(out[0] == size - 1 && out[1] == MPI_PROC_NULL && out[2] == 0);

    /* Evens by incl, odds by excl, both by range. */
    int ne = (size + 1) / 2, no = size / 2;
    for (int i = 0; i < ne; i++)
        ranks[i] = 2 * i;
    MPI_Group evens, odds, evens_r, odds_r, all, none, diff, both;
    CHECK(MPI_Group_incl(world, ne, ranks, &evens) == MPI_SUCCESS);
    CHECK(MPI_Group_excl(world, ne, ranks, &odds) == MPI_SUCCESS);
    CHECK(gsize(evens) == ne && gsize(odds) == no);
    CHECK(grank(evens) == (rank % 2 ? MPI_UNDEFINED : rank / 2));
    CHECK(grank(odds) == (rank % 2 ? rank / 2 : MPI_UNDEFINED));
    int range[1][3] = {{0, size - 1, 2}};
    CHECK(MPI_Group_range_incl(world, 1, range, &evens_r) == MPI_SUCCESS);
    CHECK(MPI_Group_range_excl(world, 1, range, &odds_r) == MPI_SUCCESS);
    CHECK(gcmp(evens, evens_r) == MPI_IDENT);
    CHECK(no == 0 ? odds_r == MPI_GROUP_EMPTY || gsize(odds_r) == 0 : gcmp(odds, odds_r) == MPI_IDENT);
    /* A descending range. */
    int down[1][3] = {{size - 1, 0, -1}};
    MPI_Group rev2;
    CHECK(MPI_Group_range_incl(world, 1, down, &rev2) == MPI_SUCCESS);
    CHECK(gcmp(rev2, rev) == MPI_IDENT);
    MPI_Group_free(&rev2);
    /* Odd ranks translate to MPI_UNDEFINED in evens. */
    for (int i = 0; i < size; i++)
        ranks[i] = i;
    CHECK(MPI_Group_translate_ranks(world, size, ranks, evens, w) == MPI_SUCCESS);
    for (int i = 0; i < size; i++)
        CHECK(w[i] == (i % 2 ? MPI_UNDEFINED : i / 2));

    /* Set operations. */
    CHECK(MPI_Group_union(odds, evens, &all) == MPI_SUCCESS);
    CHECK(gsize(all) == size);
    members(all, world, w);
    for (int i = 0; i < no; i++)
        CHECK(w[i] == 2 * i + 1);
    for (int i = 0; i < ne; i++)
        CHECK(w[no + i] == 2 * i);
    CHECK(gcmp(all, world) == (size > 1 ? MPI_SIMILAR : MPI_IDENT));
    CHECK(MPI_Group_intersection(evens, odds, &none) == MPI_SUCCESS);
    CHECK(gsize(none) == 0 && grank(none) == MPI_UNDEFINED);
    CHECK(gcmp(none, MPI_GROUP_EMPTY) == MPI_IDENT);
    CHECK(MPI_Group_difference(world, odds, &diff) == MPI_SUCCESS);
    CHECK(gcmp(diff, evens) == MPI_IDENT);
    CHECK(MPI_Group_intersection(rev, evens, &both) == MPI_SUCCESS);
    members(both, world, w);      /* in rev's order: descending evens */
    for (int i = 0; i < ne; i++)
        CHECK(w[i] == 2 * (ne - 1 - i));
    MPI_Group u2;
    CHECK(MPI_Group_union(world, rev, &u2) == MPI_SUCCESS);
    CHECK(gcmp(u2, world) == MPI_IDENT);
    MPI_Group_free(&u2);

    /* MPI_GROUP_EMPTY. */
    CHECK(gsize(MPI_GROUP_EMPTY) == 0 && grank(MPI_GROUP_EMPTY) == MPI_UNDEFINED);
    MPI_Group e;
    CHECK(MPI_Group_incl(world, 0, NULL, &e) == MPI_SUCCESS && gsize(e) == 0);
    CHECK(gcmp(e, MPI_GROUP_EMPTY) == MPI_IDENT);
    CHECK(MPI_Group_free(&e) == MPI_SUCCESS && e == MPI_GROUP_NULL);
    MPI_Group u3;
    CHECK(MPI_Group_union(MPI_GROUP_EMPTY, self, &u3) == MPI_SUCCESS && gcmp(u3, self) == MPI_IDENT);
    MPI_Group_free(&u3);

    /* Errors. */
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Group bad;
    int dup2[2] = {0, 0}, oob = size;
    CHECK(error_class(MPI_Group_incl(world, 1, &oob, &bad)) == MPI_ERR_RANK);
    CHECK(size < 2 || error_class(MPI_Group_incl(world, 2, dup2, &bad)) == MPI_ERR_RANK);
    CHECK(error_class(MPI_Group_excl(world, 1, &oob, &bad)) == MPI_ERR_RANK);
    CHECK(error_class(MPI_Group_translate_ranks(world, 1, &oob, self, w)) == MPI_ERR_RANK);
    CHECK(error_class(MPI_Group_size(MPI_GROUP_NULL, w)) == MPI_ERR_GROUP);
    int zero_stride[1][3] = {{0, 0, 0}};
    CHECK(error_class(MPI_Group_range_incl(world, 1, zero_stride, &bad)) == MPI_ERR_ARG);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);

    MPI_Group *gs[] = {&world, &self, &world2, &rev, &evens, &odds, &evens_r, &odds_r, &all,
                       &none, &diff, &both};
    for (unsigned i = 0; i < sizeof gs / sizeof *gs; i++) {
        CHECK(MPI_Group_free(gs[i]) == MPI_SUCCESS);
        CHECK(*gs[i] == MPI_GROUP_NULL);
    }
    free(w), free(ranks);
    MPI_Finalize();
    return CHECK_RESULT();
}
