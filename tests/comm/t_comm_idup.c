/* np: 1 2 3 4 */
/* MPI_Comm_idup and MPI_Comm_idup_with_info: the call returns before the other members have made
 * theirs (a member that has not called it yet is reached by point-to-point meanwhile); several
 * pending at once on one parent and on different parents, alongside other nonblocking collectives
 * on the parent and blocking constructors (MPI_Comm_dup, MPI_Comm_split) that all make distinct
 * communicators whose messages stay apart; an intercommunicator's duplicate; the attributes
 * copied at the call (the copy callback has run before the wait, and what is set later is not
 * copied); the duplicate passed to nonblocking collectives before the idup completes; errors. */
#include <mpi.h>
#include <stdlib.h>

#include "../check.h"

static int rank, size;

/* A ring exchange on c, receiving from any source with any tag: only c's own message arrives. */
static void ring(MPI_Comm c, int value)
{
    int r, n, got = -1;
    MPI_Comm_rank(c, &r);
    MPI_Comm_size(c, &n);
    MPI_Request req;
    MPI_Status st;
    CHECK(MPI_Isend(&value, 1, MPI_INT, (r + 1) % n, 7, c, &req) == MPI_SUCCESS);
    CHECK(MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, c, &st) == MPI_SUCCESS);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECKF(got == value && st.MPI_SOURCE == (r + n - 1) % n, "got %d from %d, wanted %d from %d",
           got, st.MPI_SOURCE, value, (r + n - 1) % n);
}

/* Every communicator of cs[n] (intracommunicators of the same members) carries its own messages:
 * all sends are posted first, then each is received on its own communicator. */
static void apart(MPI_Comm *cs, int n)
{
    int *got = malloc((size_t)n * sizeof *got), *val = malloc((size_t)n * sizeof *val);
    MPI_Request *req = malloc((size_t)n * sizeof *req);
    for (int i = 0; i < n; i++) {
        int r, m;
        MPI_Comm_rank(cs[i], &r);
        MPI_Comm_size(cs[i], &m);
        val[i] = 100 * i + r;
        CHECK(MPI_Isend(&val[i], 1, MPI_INT, (r + 1) % m, 0, cs[i], &req[i]) == MPI_SUCCESS);
    }
    for (int i = n - 1; i >= 0; i--) {
        int r, m;
        MPI_Comm_rank(cs[i], &r);
        MPI_Comm_size(cs[i], &m);
        CHECK(MPI_Recv(&got[i], 1, MPI_INT, MPI_ANY_SOURCE, 0, cs[i], MPI_STATUS_IGNORE) ==
              MPI_SUCCESS);
        CHECKF(got[i] == 100 * i + (r + m - 1) % m, "communicator %d got %d", i, got[i]);
    }
    MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
    free(got);
    free(val);
    free(req);
}

/* The call does not wait for the others: rank 0 makes its call only after rank 1's has returned
 * and told it so over MPI_COMM_WORLD. */
static void returns_at_once(void)
{
    MPI_Comm dup;
    MPI_Request req;
    int flag = 1, token = 42;
    if (rank == 0 && size > 1) {
        CHECK(MPI_Recv(&token, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE) ==
              MPI_SUCCESS);
        CHECK(token == 43);
    }
    CHECK(MPI_Comm_idup(MPI_COMM_WORLD, &dup, &req) == MPI_SUCCESS);
    if (rank == 1) {
        CHECK(MPI_Test(&req, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        CHECK(!flag);                 /* rank 0 has not called it yet */
        token = 43;
        CHECK(MPI_Send(&token, 1, MPI_INT, 0, 3, MPI_COMM_WORLD) == MPI_SUCCESS);
    }
    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    CHECK(req == MPI_REQUEST_NULL);
    int result;
    MPI_Comm_compare(dup, MPI_COMM_WORLD, &result);
    CHECK(result == MPI_CONGRUENT);
    ring(dup, 1);
    CHECK(MPI_Barrier(dup) == MPI_SUCCESS);
    MPI_Comm_free(&dup);
}

/* Several idups pending on two parents, with nonblocking collectives on the parent between them
 * and blocking constructors on a third communicator while they are pending; completed in
 * another order than started. Repeated, so that ids are given back and taken again. */
static void many_pending(void)
{
    enum { N = 6, ROUNDS = 20 };
    MPI_Comm half, other;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Comm_dup(MPI_COMM_WORLD, &other);
    for (int round = 0; round < ROUNDS; round++) {
        MPI_Comm c[N + 2];
        MPI_Request req[N + 2];
        int in = rank + 1, sum = 0, b = round;
        for (int i = 0; i < N; i++) {
            CHECK(MPI_Comm_idup(i % 2 ? half : MPI_COMM_WORLD, &c[i], &req[i]) == MPI_SUCCESS);
            if (i == 1)
                CHECK(MPI_Iallreduce(&in, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req[N]) ==
                      MPI_SUCCESS);
            if (i == 3)
                CHECK(MPI_Ibcast(&b, 1, MPI_INT, 0, half, &req[N + 1]) == MPI_SUCCESS);
        }
        /* Blocking constructors while those are pending get communicators of their own. */
        MPI_Comm d, s;
        CHECK(MPI_Comm_dup(other, &d) == MPI_SUCCESS);
        CHECK(MPI_Comm_split(other, 0, size - rank, &s) == MPI_SUCCESS);
        if (round % 2) {
            for (int i = N + 1; i >= 0; i--)
                CHECK(MPI_Wait(&req[i], MPI_STATUS_IGNORE) == MPI_SUCCESS);
        } else {
            CHECK(MPI_Waitall(N + 2, req, MPI_STATUSES_IGNORE) == MPI_SUCCESS);
        }
        CHECK(sum == size * (size + 1) / 2);
        CHECK(b == round);
        MPI_Comm world_like[N / 2 + 3], half_like[N / 2];
        for (int i = 0; i < N; i++)
            (i % 2 ? half_like : world_like)[i / 2] = c[i];
        world_like[N / 2] = d;
        world_like[N / 2 + 1] = other;
        world_like[N / 2 + 2] = MPI_COMM_WORLD;
        apart(world_like, N / 2 + 3);
        apart(half_like, N / 2);
        ring(s, round);
        for (int i = 0; i < N; i++)
            MPI_Comm_free(&c[i]);
        MPI_Comm_free(&d);
        MPI_Comm_free(&s);
    }
    MPI_Comm_free(&half);
    MPI_Comm_free(&other);
}

/* The duplicate's handle goes to nonblocking collectives before the idup has completed, an idup
 * of it among them: they start once it has its context. */
static void used_before_completion(void)
{
    MPI_Comm dup, dup2;
    MPI_Request req[4];
    int in = rank, out = -1, b = rank == 0 ? 11 : 0;
    CHECK(MPI_Comm_idup(MPI_COMM_WORLD, &dup, &req[0]) == MPI_SUCCESS);
    CHECK(MPI_Iallreduce(&in, &out, 1, MPI_INT, MPI_MAX, dup, &req[1]) == MPI_SUCCESS);
    CHECK(MPI_Comm_idup(dup, &dup2, &req[2]) == MPI_SUCCESS);
    CHECK(MPI_Ibcast(&b, 1, MPI_INT, 0, dup, &req[3]) == MPI_SUCCESS);
    CHECK(MPI_Waitall(4, req, MPI_STATUSES_IGNORE) == MPI_SUCCESS);
    CHECK(out == size - 1 && b == 11);
    ring(dup2, 3);
    MPI_Comm_free(&dup2);
    MPI_Comm_free(&dup);
}

/* Ranks idup one communicator and run a nonblocking collective on another, in opposite orders on
 * even and odd ranks (allowed: they are different communicators). */
static void opposite_orders(void)
{
    MPI_Comm dup, newcomm;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Request req[2];
    int in = 1, out = 0;
    if (rank % 2) {
        CHECK(MPI_Comm_idup(dup, &newcomm, &req[0]) == MPI_SUCCESS);
        CHECK(MPI_Iallreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req[1]) ==
              MPI_SUCCESS);
    } else {
        CHECK(MPI_Iallreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req[1]) ==
              MPI_SUCCESS);
        CHECK(MPI_Comm_idup(dup, &newcomm, &req[0]) == MPI_SUCCESS);
    }
    CHECK(MPI_Waitall(2, req, MPI_STATUSES_IGNORE) == MPI_SUCCESS);
    CHECK(out == size);
    ring(newcomm, 5);
    MPI_Comm_free(&newcomm);
    MPI_Comm_free(&dup);
}

/* The idup of an intercommunicator between the two halves, pending alongside a nonblocking
 * collective on it; the duplicate has the same groups and carries its own messages. */
static void intercomm(void)
{
    if (size < 2)
        return;
    int color = rank < size / 2, lrank, lsize, rsize, result;
    MPI_Comm local, inter, dup;
    MPI_Comm_split(MPI_COMM_WORLD, color, rank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, color ? size / 2 : 0, 11, &inter);
    MPI_Comm_rank(inter, &lrank);
    MPI_Comm_size(inter, &lsize);
    MPI_Comm_remote_size(inter, &rsize);
    MPI_Request req[3];
    int one = 1, sum = 0;
    CHECK(MPI_Comm_idup(inter, &dup, &req[0]) == MPI_SUCCESS);
    CHECK(MPI_Iallreduce(&one, &sum, 1, MPI_INT, MPI_SUM, inter, &req[1]) == MPI_SUCCESS);
    CHECK(MPI_Ibarrier(local, &req[2]) == MPI_SUCCESS);
    CHECK(MPI_Waitall(3, req, MPI_STATUSES_IGNORE) == MPI_SUCCESS);
    CHECK(sum == rsize);
    int flag = 0, n = -1;
    MPI_Comm_test_inter(dup, &flag);
    MPI_Comm_remote_size(dup, &n);
    CHECK(flag && n == rsize);
    MPI_Comm_compare(dup, inter, &result);
    CHECK(result == MPI_CONGRUENT);
    /* Leaders swap a message on each, the dup's sent first but received last. */
    if (lrank == 0) {
        int a = 1, b = 2, x = 0, y = 0;
        MPI_Request r[2];
        MPI_Isend(&a, 1, MPI_INT, 0, 0, dup, &r[0]);
        MPI_Isend(&b, 1, MPI_INT, 0, 0, inter, &r[1]);
        CHECK(MPI_Recv(&y, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, inter, MPI_STATUS_IGNORE) ==
              MPI_SUCCESS);
        CHECK(MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, dup, MPI_STATUS_IGNORE) ==
              MPI_SUCCESS);
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
        CHECK(x == 1 && y == 2);
    }
    int mine = 10 + color, theirs = -1;
    CHECK(MPI_Allreduce(&mine, &theirs, 1, MPI_INT, MPI_MAX, dup) == MPI_SUCCESS);
    CHECK(theirs == 10 + !color);
    /* An idup of the duplicate, with MPI_Comm_idup_with_info. */
    MPI_Comm dup2;
    CHECK(MPI_Comm_idup_with_info(dup, MPI_INFO_NULL, &dup2, &req[0]) == MPI_SUCCESS);
    CHECK(MPI_Wait(&req[0], MPI_STATUS_IGNORE) == MPI_SUCCESS);
    CHECK(MPI_Barrier(dup2) == MPI_SUCCESS);
    MPI_Comm_free(&dup2);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
    (void)lsize;
}

static int copies;

static int copy_fn(MPI_Comm c, int key, void *extra, void *in, void *out, int *flag)
{
    (void)c, (void)key, (void)extra;
    copies++;
    *(void **)out = (char *)in + 1;
    *flag = 1;
    return MPI_SUCCESS;
}

/* Attributes are copied at the call: the copy callback has run before the wait, and what the
 * parent gets after the call is not in the duplicate. */
static void attributes(void)
{
    int key, later;
    static char base[4];
    MPI_Comm parent, dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &parent);
    MPI_Comm_create_keyval(copy_fn, MPI_COMM_NULL_DELETE_FN, &key, NULL);
    MPI_Comm_create_keyval(copy_fn, MPI_COMM_NULL_DELETE_FN, &later, NULL);
    MPI_Comm_set_attr(parent, key, base);
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_assert_no_any_tag", "false");
    MPI_Request req;
    copies = 0;
    CHECK(MPI_Comm_idup_with_info(parent, info, &dup, &req) == MPI_SUCCESS);
    MPI_Info_free(&info);
    CHECK(copies == 1);
    MPI_Comm_set_attr(parent, later, base);
    MPI_Comm_set_attr(parent, key, base + 2);
    CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    void *v = NULL;
    int flag = 0;
    MPI_Comm_get_attr(dup, key, &v, &flag);
    CHECK(flag && v == base + 1);
    MPI_Comm_get_attr(dup, later, &v, &flag);
    CHECK(!flag);
    ring(dup, 9);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&parent);
    MPI_Comm_free_keyval(&key);
    MPI_Comm_free_keyval(&later);
}

static void errors(void)
{
    MPI_Comm c = MPI_COMM_NULL;
    MPI_Request req = MPI_REQUEST_NULL;
    int rc = MPI_Comm_idup(MPI_COMM_NULL, &c, &req), cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_COMM);
    CHECK(req == MPI_REQUEST_NULL);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);   /* MPI_COMM_NULL's errors */
    returns_at_once();
    many_pending();
    opposite_orders();
    used_before_completion();
    intercomm();
    attributes();
    errors();
    MPI_Finalize();
    return CHECK_RESULT();
}
