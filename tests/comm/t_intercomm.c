/* np: 2 4 5 */
/* Intercommunicators: MPI_Intercomm_create from the two halves of MPI_COMM_WORLD (uneven for
 * odd sizes, one half in reverse order; MPI_COMM_NULL as peer_comm off the leader), the queries
 * (test_inter, sizes, ranks, groups, remote group), point-to-point both ways (wildcards and
 * MPI_SOURCE as a remote rank, sendrecv, probe, mprobe, persistent, synchronous), dup isolating
 * traffic, compare, MPI_Intercomm_merge with both orders and with equal high flags, MPI_Comm_split
 * and MPI_Comm_create on an intercommunicator, free, MPI_Intercomm_create_from_groups; errors on
 * the intracommunicator-only calls. */
#include <mpi.h>
#include <stdlib.h>

#include "../check.h"

static int rank, size;
static int color, lsize, rsize, lrank;   /* our half, its size, the other half's size */
static int *remote_world;                /* world rank of each remote rank */

static int error_class(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

/* Half 0 is world ranks 0..size/2-1 in order, half 1 the rest in reverse order. */
static int half_of(int w) { return w < size / 2 ? 0 : 1; }
static int half_size(int h) { return h == 0 ? size / 2 : size - size / 2; }
static int world_of(int h, int r) { return h == 0 ? r : size - 1 - r; }

static MPI_Comm create(void)
{
    MPI_Comm local, inter;
    color = half_of(rank);
    CHECK(MPI_Comm_split(MPI_COMM_WORLD, color, color ? -rank : rank, &local) == MPI_SUCCESS);
    MPI_Comm_rank(local, &lrank);
    CHECK(lrank == (color ? size - 1 - rank : rank));
    /* The leaders are local rank 0: world rank 0 and world rank size - 1. */
    MPI_Comm peer = lrank == 0 ? MPI_COMM_WORLD : MPI_COMM_NULL;
    CHECK(MPI_Intercomm_create(local, 0, peer, color ? 0 : size - 1, 42, &inter) ==
          MPI_SUCCESS);
    MPI_Comm_free(&local);
    lsize = half_size(color);
    rsize = half_size(1 - color);
    free(remote_world);
    remote_world = malloc(rsize * sizeof *remote_world);
    for (int r = 0; r < rsize; r++)
        remote_world[r] = world_of(1 - color, r);
    return inter;
}

static void queries(MPI_Comm inter)
{
    int flag = -1, n = -1, r = -1;
    CHECK(MPI_Comm_test_inter(inter, &flag) == MPI_SUCCESS && flag == 1);
    CHECK(MPI_Comm_test_inter(MPI_COMM_WORLD, &flag) == MPI_SUCCESS && flag == 0);
    CHECK(MPI_Comm_size(inter, &n) == MPI_SUCCESS && n == lsize);
    CHECK(MPI_Comm_rank(inter, &r) == MPI_SUCCESS && r == lrank);
    CHECK(MPI_Comm_remote_size(inter, &n) == MPI_SUCCESS && n == rsize);

    MPI_Group world_group, local_group, remote_group;
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    CHECK(MPI_Comm_group(inter, &local_group) == MPI_SUCCESS);
    CHECK(MPI_Comm_remote_group(inter, &remote_group) == MPI_SUCCESS);
    MPI_Group_size(local_group, &n);
    CHECK(n == lsize);
    MPI_Group_rank(local_group, &r);
    CHECK(r == lrank);
    MPI_Group_size(remote_group, &n);
    CHECK(n == rsize);
    MPI_Group_rank(remote_group, &r);
    CHECK(r == MPI_UNDEFINED);
    for (int i = 0; i < lsize || i < rsize; i++) {
        int w = -1;
        if (i < lsize) {
            MPI_Group_translate_ranks(local_group, 1, &i, world_group, &w);
            CHECKF(w == world_of(color, i), "local rank %d is world %d", i, w);
        }
        if (i < rsize) {
            MPI_Group_translate_ranks(remote_group, 1, &i, world_group, &w);
            CHECKF(w == remote_world[i], "remote rank %d is world %d", i, w);
        }
    }
    MPI_Group_free(&local_group);
    MPI_Group_free(&remote_group);
    MPI_Group_free(&world_group);
}

/* Everyone sends to every remote process; everyone receives from anyone with any tag. */
static void all_to_all(MPI_Comm inter)
{
    MPI_Request *q = malloc(rsize * sizeof *q);
    int *out = malloc(rsize * sizeof *out);
    for (int j = 0; j < rsize; j++) {
        out[j] = 1000 * rank + j;
        CHECK(MPI_Isend(&out[j], 1, MPI_INT, j, lrank, inter, &q[j]) == MPI_SUCCESS);
    }
    int *seen = calloc(rsize, sizeof *seen);
    for (int k = 0; k < rsize; k++) {
        int v = -1, count = -1;
        MPI_Status st;
        CHECK(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, inter, &st) == MPI_SUCCESS);
        MPI_Get_count(&st, MPI_INT, &count);
        CHECK(count == 1);
        CHECKF(st.MPI_SOURCE >= 0 && st.MPI_SOURCE < rsize, "MPI_SOURCE %d", st.MPI_SOURCE);
        if (st.MPI_SOURCE < 0 || st.MPI_SOURCE >= rsize)
            continue;
        seen[st.MPI_SOURCE]++;
        CHECKF(st.MPI_TAG == st.MPI_SOURCE, "tag %d from %d", st.MPI_TAG, st.MPI_SOURCE);
        CHECKF(v == 1000 * remote_world[st.MPI_SOURCE] + lrank, "got %d from remote %d", v,
               st.MPI_SOURCE);
    }
    for (int j = 0; j < rsize; j++)
        CHECK(seen[j] == 1);
    CHECK(MPI_Waitall(rsize, q, MPI_STATUSES_IGNORE) == MPI_SUCCESS);
    /* No one's next messages may meet these wildcard receives. */
    CHECK(MPI_Barrier(inter) == MPI_SUCCESS);
    free(seen);
    free(out);
    free(q);
}

/* Local rank i and remote rank i talk in pairs (the larger half's extra ranks sit out). */
static void pairs(MPI_Comm inter)
{
    int peer = lrank < rsize ? lrank : MPI_PROC_NULL;
    int out = 10 * rank + 1, in = -1;
    MPI_Status st;
    CHECK(MPI_Sendrecv(&out, 1, MPI_INT, peer, 3, &in, 1, MPI_INT, peer, 3, inter, &st) ==
          MPI_SUCCESS);
    if (peer != MPI_PROC_NULL) {
        CHECKF(in == 10 * remote_world[peer] + 1, "sendrecv got %d", in);
        CHECK(st.MPI_SOURCE == peer && st.MPI_TAG == 3);
    } else {
        CHECK(st.MPI_SOURCE == MPI_PROC_NULL && in == -1);
    }
    if (peer == MPI_PROC_NULL)
        return;

    /* Half 0 sends (synchronous, then persistent); half 1 probes, mprobes and receives. */
    if (color == 0) {
        int a = 7 * rank, b = 9 * rank;
        CHECK(MPI_Ssend(&a, 1, MPI_INT, peer, 11, inter) == MPI_SUCCESS);
        MPI_Request q;
        CHECK(MPI_Send_init(&b, 1, MPI_INT, peer, 12, inter, &q) == MPI_SUCCESS);
        CHECK(MPI_Start(&q) == MPI_SUCCESS);
        CHECK(MPI_Wait(&q, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        MPI_Request_free(&q);
    } else {
        int a = -1, b = -1, flag = 0, count = -1;
        MPI_Status st2;
        CHECK(MPI_Probe(MPI_ANY_SOURCE, 11, inter, &st2) == MPI_SUCCESS);
        CHECK(st2.MPI_SOURCE == peer && st2.MPI_TAG == 11);
        MPI_Message m;
        CHECK(MPI_Mprobe(peer, MPI_ANY_TAG, inter, &m, &st2) == MPI_SUCCESS);
        MPI_Get_count(&st2, MPI_INT, &count);
        CHECK(st2.MPI_SOURCE == peer && count == 1);
        CHECK(MPI_Mrecv(&a, 1, MPI_INT, &m, &st2) == MPI_SUCCESS);
        CHECKF(a == 7 * remote_world[peer], "ssend got %d", a);
        MPI_Request q;
        CHECK(MPI_Recv_init(&b, 1, MPI_INT, MPI_ANY_SOURCE, 12, inter, &q) == MPI_SUCCESS);
        CHECK(MPI_Start(&q) == MPI_SUCCESS);
        while (!flag)
            CHECK(MPI_Test(&q, &flag, &st2) == MPI_SUCCESS);
        CHECK(st2.MPI_SOURCE == peer && b == 9 * remote_world[peer]);
        MPI_Request_free(&q);
        CHECK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, inter, &flag, MPI_STATUS_IGNORE) ==
              MPI_SUCCESS && !flag);
    }
}

static int compare(MPI_Comm a, MPI_Comm b)
{
    int r = -1;
    CHECK(MPI_Comm_compare(a, b, &r) == MPI_SUCCESS);
    return r;
}

/* A dup is an intercommunicator of the same groups whose traffic stays apart. */
static void dup(MPI_Comm inter)
{
    MPI_Comm d;
    CHECK(MPI_Comm_dup(inter, &d) == MPI_SUCCESS);
    int flag = 0, n = -1;
    MPI_Comm_test_inter(d, &flag);
    MPI_Comm_remote_size(d, &n);
    CHECK(flag == 1 && n == rsize);
    CHECK(compare(inter, d) == MPI_CONGRUENT);
    CHECK(compare(inter, inter) == MPI_IDENT);
    CHECK(compare(inter, MPI_COMM_WORLD) == MPI_UNEQUAL);
    /* The same tag on both, received in the other order. */
    if (lrank < rsize) {
        int a = 100 + rank, b = 200 + rank, x = -1, y = -1;
        MPI_Request q[2];
        MPI_Isend(&a, 1, MPI_INT, lrank, 5, inter, &q[0]);
        MPI_Isend(&b, 1, MPI_INT, lrank, 5, d, &q[1]);
        CHECK(MPI_Recv(&y, 1, MPI_INT, lrank, 5, d, MPI_STATUS_IGNORE) == MPI_SUCCESS);
        CHECK(MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 5, inter, MPI_STATUS_IGNORE) ==
              MPI_SUCCESS);
        CHECKF(x == 100 + remote_world[lrank] && y == 200 + remote_world[lrank], "x %d y %d", x,
               y);
        MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
    }
    /* A collective on the dup while the original is idle. */
    CHECK(MPI_Barrier(d) == MPI_SUCCESS);
    CHECK(MPI_Comm_free(&d) == MPI_SUCCESS && d == MPI_COMM_NULL);
}

/* The merged communicator's members in order, as world ranks, checked for agreement. */
static void merge(MPI_Comm inter, int high, int expect_first)
{
    MPI_Comm m;
    CHECK(MPI_Intercomm_merge(inter, high, &m) == MPI_SUCCESS);
    int flag = 1, n = -1, r = -1;
    MPI_Comm_test_inter(m, &flag);
    MPI_Comm_size(m, &n);
    MPI_Comm_rank(m, &r);
    CHECK(flag == 0 && n == size);
    int *all = malloc(size * sizeof *all);
    CHECK(MPI_Allgather(&rank, 1, MPI_INT, all, 1, MPI_INT, m) == MPI_SUCCESS);
    /* One half in its local order, then the other. */
    int first = expect_first >= 0 ? expect_first : half_of(all[0]);
    for (int i = 0; i < size; i++) {
        int h = i < half_size(first) ? first : 1 - first;
        int lr = i < half_size(first) ? i : i - half_size(first);
        CHECKF(all[i] == world_of(h, lr), "high %d: merged rank %d is world %d", high, i,
               all[i]);
    }
    CHECK(all[r] == rank);
    free(all);
    CHECK(MPI_Comm_free(&m) == MPI_SUCCESS);
}

/* Split by local rank parity, keys reversing the order: intercommunicators of the matching
 * parities, or MPI_COMM_NULL where the other half has none of ours. */
static void split(MPI_Comm inter)
{
    MPI_Comm s;
    int parity = lrank % 2;
    CHECK(MPI_Comm_split(inter, parity, -lrank, &s) == MPI_SUCCESS);
    int mine = (lsize + 1 - parity) / 2, theirs = (rsize + 1 - parity) / 2;
    if (theirs == 0) {
        CHECK(s == MPI_COMM_NULL);
    } else {
        int flag = 0, n = -1, r = -1;
        CHECK(s != MPI_COMM_NULL);
        MPI_Comm_test_inter(s, &flag);
        MPI_Comm_size(s, &n);
        CHECK(flag == 1 && n == mine);
        MPI_Comm_remote_size(s, &n);
        CHECK(n == theirs);
        MPI_Comm_rank(s, &r);
        CHECKF(r == mine - 1 - lrank / 2, "split rank %d", r);
        /* Split rank k of the other half is its local rank parity + 2 (theirs - 1 - k). */
        int peer = r < theirs ? r : MPI_PROC_NULL, in = -1;
        CHECK(MPI_Sendrecv(&rank, 1, MPI_INT, peer, 1, &in, 1, MPI_INT, peer, 1, s,
                           MPI_STATUS_IGNORE) == MPI_SUCCESS);
        if (peer != MPI_PROC_NULL)
            CHECKF(in == remote_world[parity + 2 * (theirs - 1 - r)], "split peer %d", in);
        CHECK(MPI_Comm_free(&s) == MPI_SUCCESS);
    }
}

/* MPI_Comm_create with our half minus its local rank 0. */
static void create_sub(MPI_Comm inter)
{
    MPI_Group g, sub;
    MPI_Comm_group(inter, &g);
    int zero = 0;
    MPI_Group_excl(g, 1, &zero, &sub);
    MPI_Comm c;
    CHECK(MPI_Comm_create(inter, sub, &c) == MPI_SUCCESS);
    if (lrank == 0 || rsize == 1) {
        CHECK(c == MPI_COMM_NULL);
    } else {
        int n = -1, r = -1, flag = 0;
        CHECK(c != MPI_COMM_NULL);
        MPI_Comm_test_inter(c, &flag);
        MPI_Comm_size(c, &n);
        MPI_Comm_rank(c, &r);
        CHECK(flag == 1 && n == lsize - 1 && r == lrank - 1);
        MPI_Comm_remote_size(c, &n);
        CHECK(n == rsize - 1);
        /* Remote rank k is the other half's local rank k + 1. */
        int peer = r < rsize - 1 ? r : MPI_PROC_NULL, v = -1;
        CHECK(MPI_Sendrecv(&rank, 1, MPI_INT, peer, 2, &v, 1, MPI_INT, peer, 2, c,
                           MPI_STATUS_IGNORE) == MPI_SUCCESS);
        if (peer != MPI_PROC_NULL)
            CHECKF(v == remote_world[r + 1], "create peer %d", v);
        MPI_Comm_free(&c);
    }
    MPI_Group_free(&sub);
    MPI_Group_free(&g);
}

/* MPI_Intercomm_create_from_groups: the same halves, given as groups of MPI_COMM_WORLD's. */
static void from_groups(void)
{
    MPI_Group world_group, mine, theirs;
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    int *ranks = malloc(size * sizeof *ranks);
    for (int r = 0; r < lsize; r++)
        ranks[r] = world_of(color, r);
    MPI_Group_incl(world_group, lsize, ranks, &mine);
    MPI_Group_incl(world_group, rsize, remote_world, &theirs);
    MPI_Comm ic;
    CHECK(MPI_Intercomm_create_from_groups(mine, lsize - 1, theirs, rsize - 1, "t_intercomm",
                                           MPI_INFO_NULL, MPI_ERRORS_RETURN, &ic) ==
          MPI_SUCCESS);
    int flag = 0, n = -1, r = -1;
    MPI_Comm_test_inter(ic, &flag);
    MPI_Comm_size(ic, &n);
    MPI_Comm_rank(ic, &r);
    CHECK(flag == 1 && n == lsize && r == lrank);
    MPI_Comm_remote_size(ic, &n);
    CHECK(n == rsize);
    MPI_Errhandler eh;
    CHECK(MPI_Comm_get_errhandler(ic, &eh) == MPI_SUCCESS && eh == MPI_ERRORS_RETURN);
    all_to_all(ic);
    merge(ic, color, 0);
    /* Not a member of local_group. */
    MPI_Comm bad;
    CHECK(error_class(MPI_Intercomm_create_from_groups(theirs, 0, mine, 0, "bad", MPI_INFO_NULL,
                                                       MPI_ERRORS_RETURN, &bad)) ==
          MPI_ERR_GROUP);
    CHECK(MPI_Comm_free(&ic) == MPI_SUCCESS);
    MPI_Group_free(&mine);
    MPI_Group_free(&theirs);
    MPI_Group_free(&world_group);
    free(ranks);
}

static void errors(MPI_Comm inter)
{
    int n, x = 1, y;
    MPI_Comm c;
    CHECK(error_class(MPI_Comm_remote_size(MPI_COMM_WORLD, &n)) == MPI_ERR_COMM);
    MPI_Group g;
    CHECK(error_class(MPI_Comm_remote_group(MPI_COMM_WORLD, &g)) == MPI_ERR_COMM);
    CHECK(error_class(MPI_Intercomm_merge(MPI_COMM_WORLD, 0, &c)) == MPI_ERR_COMM);
    CHECK(error_class(MPI_Intercomm_create(inter, 0, MPI_COMM_WORLD, 0, 1, &c)) == MPI_ERR_COMM);
    CHECK(error_class(MPI_Scan(&x, &y, 1, MPI_INT, MPI_SUM, inter)) == MPI_ERR_COMM);
    CHECK(error_class(MPI_Exscan(&x, &y, 1, MPI_INT, MPI_SUM, inter)) == MPI_ERR_COMM);
    int dims[1] = {lsize}, periods[1] = {0};
    CHECK(error_class(MPI_Cart_create(inter, 1, dims, periods, 0, &c)) == MPI_ERR_COMM);
    CHECK(error_class(MPI_Send(&x, 1, MPI_INT, rsize, 0, inter)) == MPI_ERR_RANK);
    CHECK(error_class(MPI_Bcast(&x, 1, MPI_INT, rsize, inter)) == MPI_ERR_ROOT);
    CHECK(error_class(MPI_Bcast(&x, 1, MPI_INT, MPI_ROOT, MPI_COMM_WORLD)) == MPI_ERR_ROOT);
    /* The nonblocking and persistent forms check alike, before anything is sent. */
    MPI_Request rq = MPI_REQUEST_NULL;
    CHECK(error_class(MPI_Iscan(&x, &y, 1, MPI_INT, MPI_SUM, inter, &rq)) == MPI_ERR_COMM);
    CHECK(error_class(MPI_Exscan_init(&x, &y, 1, MPI_INT, MPI_SUM, inter, MPI_INFO_NULL, &rq)) ==
          MPI_ERR_COMM);
    CHECK(error_class(MPI_Ibcast(&x, 1, MPI_INT, rsize, inter, &rq)) == MPI_ERR_ROOT);
    CHECK(error_class(MPI_Iallreduce(MPI_IN_PLACE, &y, 1, MPI_INT, MPI_SUM, inter, &rq)) ==
          MPI_ERR_BUFFER);
    CHECK(rq == MPI_REQUEST_NULL);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    MPI_Comm inter = create();
    queries(inter);
    all_to_all(inter);
    pairs(inter);
    dup(inter);
    merge(inter, color, 0);           /* half 0 says low: it comes first */
    merge(inter, !color, 1);          /* half 1 says low */
    merge(inter, 0, -1);              /* the same flag: some order both halves agree on */
    merge(inter, 1, -1);
    split(inter);
    create_sub(inter);
    errors(inter);
    from_groups();
    /* A second intercommunicator of the same halves, while the first lives. */
    MPI_Comm again = create();
    all_to_all(again);
    CHECK(MPI_Comm_free(&again) == MPI_SUCCESS);
    CHECK(MPI_Comm_free(&inter) == MPI_SUCCESS && inter == MPI_COMM_NULL);
    free(remote_world);

    MPI_Finalize();
    return CHECK_RESULT();
}
