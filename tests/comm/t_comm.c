/* np: 1 2 3 4 8 */
/* Communicators: MPI_Comm_dup (and _with_info) isolates traffic (the same tag on a dup never
 * crosses, user messages never meet a collective's), MPI_Comm_split with key reordering and
 * MPI_UNDEFINED, MPI_Comm_split_type, MPI_Comm_create, MPI_Comm_create_group (only the members
 * call), MPI_Comm_compare, names, inherited
 * error handlers, MPI_Comm_free (not of the predefined ones), many communicators. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"

static int rank, size;

static int error_class(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

static int compare(MPI_Comm a, MPI_Comm b)
{
    int r = -1;
    CHECK(MPI_Comm_compare(a, b, &r) == MPI_SUCCESS);
    return r;
}

/* Messages with the same tag on MPI_COMM_WORLD and a dup of it: each receive gets its own. */
static void isolation(void)
{
    MPI_Comm dup;
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &dup) == MPI_SUCCESS);
    int r = -1, s = -1;
    MPI_Comm_rank(dup, &r);
    MPI_Comm_size(dup, &s);
    CHECK(r == rank && s == size);
    CHECK(compare(dup, MPI_COMM_WORLD) == MPI_CONGRUENT);
    CHECK(compare(dup, dup) == MPI_IDENT);
    if (size >= 2) {
        if (rank == 0) {
            int a = 111, b = 222;
            MPI_Request q[2];
            MPI_Isend(&a, 1, MPI_INT, 1, 5, dup, &q[0]);
            MPI_Isend(&b, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, &q[1]);
            MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
        } else if (rank == 1) {
            int x = -1, y = -1;
            MPI_Status st;
            MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            MPI_Recv(&y, 1, MPI_INT, 0, 5, dup, MPI_STATUS_IGNORE);
            CHECKF(x == 222 && y == 111, "world got %d, dup got %d", x, y);
            CHECK(st.MPI_SOURCE == 0 && st.MPI_TAG == 5);
        }
        /* A user message with every small tag, pending across collectives on the same
         * communicator: neither side sees the other's messages. */
        int msgs[16], got[16];
        MPI_Request q[16];
        for (int t = 0; t < 16; t++)
            msgs[t] = 1000 + t, got[t] = -1;
        if (rank == 0)
            for (int t = 0; t < 16; t++)
                MPI_Isend(&msgs[t], 1, MPI_INT, size - 1, t, MPI_COMM_WORLD, &q[t]);
        int v = rank == 0 ? 77 : -1, sum = 0;
        MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
        MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
        CHECK(v == 77 && sum == size * (size - 1) / 2);
        if (rank == size - 1) {
            for (int t = 15; t >= 0; t--)
                MPI_Recv(&got[t], 1, MPI_INT, 0, t, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            for (int t = 0; t < 16; t++)
                CHECKF(got[t] == 1000 + t, "tag %d got %d", t, got[t]);
        }
        if (rank == 0)
            MPI_Waitall(16, q, MPI_STATUSES_IGNORE);
    }
    /* Collectives on the dup and on the world, interleaved, stay apart. */
    int a = rank, b = -rank, ra = -1, rb = -1;
    MPI_Allreduce(&a, &ra, 1, MPI_INT, MPI_SUM, dup);
    MPI_Allreduce(&b, &rb, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(ra == size * (size - 1) / 2 && rb == -ra);
    CHECK(MPI_Comm_free(&dup) == MPI_SUCCESS && dup == MPI_COMM_NULL);

    MPI_Comm dup2;
    CHECK(MPI_Comm_dup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &dup2) == MPI_SUCCESS);
    CHECK(compare(dup2, MPI_COMM_WORLD) == MPI_CONGRUENT);
    MPI_Comm_free(&dup2);
}

/* Colors rank % 3, keys reversing the order; the last rank (when not alone) opts out. */
static void split(void)
{
    int color = rank % 3, out = size > 1 && rank == size - 1;
    MPI_Comm sub;
    CHECK(MPI_Comm_split(MPI_COMM_WORLD, out ? MPI_UNDEFINED : color, -rank, &sub) == MPI_SUCCESS);
    if (out) {
        CHECK(sub == MPI_COMM_NULL);
    } else {
        /* Members: ranks r with r % 3 == color, except the last; new rank in reverse order. */
        int n = 0, above = 0, sum = 0;
        for (int r = 0; r < size - (size > 1); r++)
            if (r % 3 == color) {
                n++;
                sum += r;
                if (r > rank)
                    above++;
            }
        int sr = -1, ss = -1;
        MPI_Comm_rank(sub, &sr);
        MPI_Comm_size(sub, &ss);
        CHECKF(ss == n && sr == above, "split: rank %d of %d, want %d of %d", sr, ss, above, n);
        int got = -1;
        MPI_Allreduce(&rank, &got, 1, MPI_INT, MPI_SUM, sub);
        CHECK(got == sum);
        /* Rank 0 of sub is the highest world rank of the color. */
        int top = sr == 0 ? rank : -1;
        MPI_Bcast(&top, 1, MPI_INT, 0, sub);
        CHECK(top >= rank && top % 3 == color);
        CHECK(compare(sub, MPI_COMM_WORLD) == (n == size ? MPI_SIMILAR : MPI_UNEQUAL) ||
              (n == 1 && size == 1));
        /* Point-to-point inside: a ring. */
        int from = -1, to = sr;
        MPI_Sendrecv(&to, 1, MPI_INT, (sr + 1) % ss, 9, &from, 1, MPI_INT, (sr - 1 + ss) % ss, 9,
                     sub, MPI_STATUS_IGNORE);
        CHECK(from == (sr - 1 + ss) % ss);
        /* Split again: into halves of sub. */
        MPI_Comm half;
        CHECK(MPI_Comm_split(sub, sr % 2, 0, &half) == MPI_SUCCESS);
        int hs = -1, hr = -1;
        MPI_Comm_size(half, &hs);
        MPI_Comm_rank(half, &hr);
        CHECK(hs == (ss + 1 - sr % 2) / 2 && hr == sr / 2);
        int hsum = 0;
        MPI_Allreduce(&sr, &hsum, 1, MPI_INT, MPI_SUM, half);
        int want = 0;
        for (int i = sr % 2; i < ss; i += 2)
            want += i;
        CHECK(hsum == want);
        MPI_Comm_free(&half);
        MPI_Comm_free(&sub);
    }
    /* One color, the same key: congruent to the parent; reversed keys: similar. */
    MPI_Comm same, rev;
    CHECK(MPI_Comm_split(MPI_COMM_WORLD, 7, 0, &same) == MPI_SUCCESS);
    CHECK(compare(same, MPI_COMM_WORLD) == MPI_CONGRUENT);
    CHECK(MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &rev) == MPI_SUCCESS);
    int rr = -1;
    MPI_Comm_rank(rev, &rr);
    CHECK(rr == size - 1 - rank);
    CHECK(compare(rev, MPI_COMM_WORLD) == (size > 1 ? MPI_SIMILAR : MPI_CONGRUENT));
    CHECK(compare(rev, same) == (size > 1 ? MPI_SIMILAR : MPI_CONGRUENT));
    CHECK(compare(MPI_COMM_SELF, MPI_COMM_WORLD) == (size == 1 ? MPI_CONGRUENT : MPI_UNEQUAL));
    CHECK(compare(MPI_COMM_WORLD, MPI_COMM_WORLD) == MPI_IDENT);
    MPI_Comm_free(&same);
    MPI_Comm_free(&rev);
}

static void split_type_and_create(void)
{
    MPI_Comm node;
    CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node) ==
          MPI_SUCCESS);
    int ns = -1;
    MPI_Comm_size(node, &ns);
    CHECK(ns == size);                /* one host */
    MPI_Comm_free(&node);
    CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, rank % 2 ? MPI_UNDEFINED : MPI_COMM_TYPE_SHARED, 0,
                              MPI_INFO_NULL, &node) == MPI_SUCCESS);
    CHECK(rank % 2 ? node == MPI_COMM_NULL : node != MPI_COMM_NULL);
    if (node != MPI_COMM_NULL) {
        MPI_Comm_size(node, &ns);
        CHECK(ns == (size + 1) / 2);
        MPI_Comm_free(&node);
    }

    /* MPI_Comm_create from the even ranks, in reverse order. */
    MPI_Group world, evens;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int n = (size + 1) / 2, *ranks = malloc(n * sizeof(int));
    for (int i = 0; i < n; i++)
        ranks[i] = 2 * (n - 1 - i);
    MPI_Group_incl(world, n, ranks, &evens);
    MPI_Comm ec;
    CHECK(MPI_Comm_create(MPI_COMM_WORLD, evens, &ec) == MPI_SUCCESS);
    if (rank % 2) {
        CHECK(ec == MPI_COMM_NULL);
    } else {
        int er = -1, es = -1, sum = -1;
        MPI_Comm_rank(ec, &er);
        MPI_Comm_size(ec, &es);
        CHECK(es == n && er == n - 1 - rank / 2);
        MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, ec);
        CHECK(sum == n * (n - 1));
        MPI_Group g;
        int cmp = -1;
        MPI_Comm_group(ec, &g);
        MPI_Group_compare(g, evens, &cmp);
        CHECK(cmp == MPI_IDENT);
        MPI_Group_free(&g);
        MPI_Comm_free(&ec);
    }
    /* MPI_Comm_create_group: only the members call. Evens (reversed) and odds at once, with
     * the same tag; then everyone, with another. */
    MPI_Group odds, mine_g;
    MPI_Group_excl(world, n, ranks, &odds);
    mine_g = rank % 2 ? odds : evens;
    MPI_Comm gc;
    CHECK(MPI_Comm_create_group(MPI_COMM_WORLD, mine_g, 7, &gc) == MPI_SUCCESS);
    int gs = -1, gr = -1, gsum = -1, want = 0;
    MPI_Comm_size(gc, &gs);
    MPI_Comm_rank(gc, &gr);
    CHECK(gs == (rank % 2 ? size / 2 : n));
    CHECK(gr == (rank % 2 ? rank / 2 : n - 1 - rank / 2));
    MPI_Allreduce(&rank, &gsum, 1, MPI_INT, MPI_SUM, gc);
    for (int r = rank % 2; r < size; r += 2)
        want += r;
    CHECK(gsum == want);
    MPI_Comm_free(&gc);
    CHECK(MPI_Comm_create_group(MPI_COMM_WORLD, world, 123456789, &gc) == MPI_SUCCESS);
    CHECK(compare(gc, MPI_COMM_WORLD) == MPI_CONGRUENT);
    MPI_Comm_free(&gc);
    free(ranks);
    MPI_Group_free(&odds);
    MPI_Group_free(&evens);
    MPI_Group_free(&world);
}

static void names_and_errhandlers(void)
{
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    CHECK(MPI_Comm_get_name(MPI_COMM_WORLD, name, &len) == MPI_SUCCESS);
    CHECK(!strcmp(name, "MPI_COMM_WORLD") && len == 14);
    CHECK(MPI_Comm_get_name(MPI_COMM_SELF, name, &len) == MPI_SUCCESS && !strcmp(name, "MPI_COMM_SELF"));
    MPI_Comm dup;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    CHECK(MPI_Comm_get_name(dup, name, &len) == MPI_SUCCESS && len == 0 && name[0] == '\0');
    CHECK(MPI_Comm_set_name(dup, "my communicator") == MPI_SUCCESS);
    CHECK(MPI_Comm_get_name(dup, name, &len) == MPI_SUCCESS && !strcmp(name, "my communicator") &&
          len == 15);
    char longname[300];
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    CHECK(MPI_Comm_set_name(dup, longname) == MPI_SUCCESS);
    CHECK(MPI_Comm_get_name(dup, name, &len) == MPI_SUCCESS && len == MPI_MAX_OBJECT_NAME - 1);
    /* The dup inherited MPI_ERRORS_RETURN. */
    MPI_Errhandler eh;
    CHECK(MPI_Comm_get_errhandler(dup, &eh) == MPI_SUCCESS && eh == MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&eh);
    CHECK(error_class(MPI_Send(NULL, 0, MPI_INT, size, 0, dup)) == MPI_ERR_RANK);
    MPI_Comm_free(&dup);

    /* Predefined communicators cannot be freed; a freed handle is no communicator. (Errors of
     * MPI_Comm_free have no communicator to go to but MPI_COMM_SELF.) */
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm w = MPI_COMM_WORLD, s = MPI_COMM_SELF;
    CHECK(error_class(MPI_Comm_free(&w)) == MPI_ERR_COMM && w == MPI_COMM_WORLD);
    CHECK(error_class(MPI_Comm_free(&s)) == MPI_ERR_COMM);
    MPI_Comm gone = MPI_COMM_NULL;
    CHECK(error_class(MPI_Comm_free(&gone)) == MPI_ERR_COMM);
    CHECK(error_class(MPI_Comm_split(MPI_COMM_WORLD, -5, 0, &gone)) == MPI_ERR_ARG);
    CHECK(error_class(MPI_Comm_dup(MPI_COMM_NULL, &gone)) == MPI_ERR_COMM);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
}

/* Many communicators, created and freed: context ids never run into each other. */
static void many(void)
{
    MPI_Comm c[20];
    for (int round = 0; round < 30; round++) {
        for (int i = 0; i < 20; i++) {
            if (i % 2)
                MPI_Comm_dup(i ? c[i - 1] : MPI_COMM_WORLD, &c[i]);
            else
                MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &c[i]);
        }
        int sum = 0;
        MPI_Allreduce(&round, &sum, 1, MPI_INT, MPI_SUM, c[19]);
        CHECK(sum == round * size);
        for (int i = 0; i < 20; i++)
            MPI_Comm_free(&c[i]);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    isolation();
    split();
    split_type_and_create();
    names_and_errhandlers();
    many();
    MPI_Finalize();
    return CHECK_RESULT();
}
