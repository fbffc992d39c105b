/* Context ids, seen from inside (test_ctx_ids.sh links this with libmpi.a, whose hidden
 * mica_ symbols are still there): a communicator's id comes back when it is freed, so dup and
 * free for ever stay on the same few ids; ids of live communicators never clash, beyond the
 * window of reused ids too; a pending request keeps its communicator's id out of reach; members
 * with different ids in use agree on one free at all of them. MPI programs cannot see ids:
 * t_ctx_reuse.c checks what they can see. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "../check.h"
#include "core/comm.h"

static int rank, size;

static uint32_t ctx(MPI_Comm c)
{
    return mica_comm_lookup(c)->context;
}

/* Far more dup + free rounds than the window has ids, each on the id the first one had. */
static void reused(void)
{
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    uint32_t first = ctx(c);
    MPI_Comm_free(&c);
    CHECKF(first == MICA_CONTEXT_FIRST_FREE, "the first dup's id is %u", first);
    int moved = 0;
    for (int i = 0; i < 3 * MICA_CONTEXT_SLOTS; i++) {
        MPI_Comm_dup(MPI_COMM_WORLD, &c);
        moved += ctx(c) != first;
        MPI_Comm_free(&c);
    }
    CHECKF(moved == 0, "%d of %d dups took another id than %u", moved, 3 * MICA_CONTEXT_SLOTS,
           first);
}

static int by_id(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* More live communicators than the window holds: the rest take ids above it, all distinct;
 * once they are freed, the window serves again. */
static void many_live(void)
{
    enum { N = MICA_CONTEXT_SLOTS + 500 };
    MPI_Comm *c = malloc(N * sizeof *c);
    uint32_t *ids = malloc(N * sizeof *ids);
    for (int i = 0; i < N; i++) {
        MPI_Comm_dup(MPI_COMM_WORLD, &c[i]);
        ids[i] = ctx(c[i]);
    }
    CHECKF(ids[MICA_CONTEXT_SLOTS - 1] < MICA_CONTEXT_HIGH, "id %u", ids[MICA_CONTEXT_SLOTS - 1]);
    CHECKF(ids[MICA_CONTEXT_SLOTS] >= MICA_CONTEXT_HIGH, "id %u", ids[MICA_CONTEXT_SLOTS]);
    qsort(ids, N, sizeof *ids, by_id);
    int clash = 0;
    for (int i = 1; i < N; i++)
        clash += ids[i] < ids[i - 1] + 2;        /* each takes a pair */
    CHECKF(clash == 0, "%d live communicators share ids", clash);
    for (int i = 0; i < N; i++)
        MPI_Comm_free(&c[i]);
    MPI_Comm d;
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    CHECKF(ctx(d) == MICA_CONTEXT_FIRST_FREE, "after freeing them all, a dup takes id %u", ctx(d));
    MPI_Comm_free(&d);
    free(c);
    free(ids);
}

/* A receive pending on a freed communicator keeps its id: a new communicator gets another, and
 * the id comes back once the receive completes. */
static void pending(void)
{
    if (size < 2)
        return;
    MPI_Comm a, b;
    MPI_Request r;
    int got = -1, v = 5;
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    uint32_t id = ctx(a);
    if (rank == 0)
        MPI_Irecv(&got, 1, MPI_INT, 1, 0, a, &r);
    else if (rank == 1)
        MPI_Send(&v, 1, MPI_INT, 0, 0, a);
    MPI_Comm_free(&a);
    if (rank == 0) {                  /* only rank 0 still uses the id: MPI_COMM_SELF decides */
        MPI_Comm_dup(MPI_COMM_SELF, &b);
        CHECKF(ctx(b) != id, "a new communicator took id %u of a pending receive", id);
        MPI_Comm_free(&b);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        CHECK(got == 5);
        MPI_Comm_dup(MPI_COMM_SELF, &b);
        CHECKF(ctx(b) == id, "the id %u did not come back: got %u", id, ctx(b));
        MPI_Comm_free(&b);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Members with different ids in use: each split half holds its own, then a dup of the world must
 * take an id that no member uses; a split half's own dups reuse ids the other half holds. */
static void different_masks(void)
{
    MPI_Comm half, held[3], d, hd;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    int n = 1 + rank % 2;             /* the odd half holds one more */
    for (int i = 0; i < n; i++)
        MPI_Comm_dup(half, &held[i]);
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    uint32_t mine[4] = {ctx(half), ctx(held[0]), n > 1 ? ctx(held[1]) : ctx(held[0]), ctx(d)};
    uint32_t *all = malloc((size_t)size * 4 * sizeof *all);
    MPI_Allgather(mine, 4, MPI_UINT32_T, all, 4, MPI_UINT32_T, MPI_COMM_WORLD);
    for (int p = 0; p < size; p++) {
        CHECKF(all[4 * p + 3] == ctx(d), "rank %d has the dup on %u, we on %u", p, all[4 * p + 3],
               ctx(d));
        for (int j = 0; j < 3; j++)
            CHECKF(all[4 * p + j] != ctx(d), "the dup's id %u is in use at rank %d", ctx(d), p);
    }
    MPI_Comm_dup(half, &hd);          /* within a half: an id free in that half only is fine */
    for (int j = 0; j < 4; j++)
        CHECKF(mine[j] != ctx(hd), "a dup of the half took id %u in use here", ctx(hd));
    MPI_Comm_free(&hd);
    for (int i = 0; i < n; i++)
        MPI_Comm_free(&held[i]);
    MPI_Comm_free(&d);
    MPI_Comm_free(&half);
    free(all);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    reused();
    many_live();
    pending();
    different_masks();
    reused();                         /* everything came back */
    MPI_Finalize();
    return CHECK_RESULT();
}
