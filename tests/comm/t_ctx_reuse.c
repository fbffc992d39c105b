/* np: 2 3 4 */
/* Communicators made and freed for ever reuse context ids (core/comm.c), and nothing of a freed
 * communicator meets a new one: thousands of dup + free rounds with a message each, while a
 * receive from any source waits on a communicator made before them all; splits of different
 * colors held for different times, so that members have different ids in use; a receive still
 * pending on a freed communicator gets its own message, not one of a newer communicator.
 * ctx_ids.c looks at the ids themselves. */
#include <mpi.h>
#include <stdlib.h>

#include "../check.h"

static int rank, size;

/* A ring exchange on c: each member sends `value` to the next and receives from any source with
 * any tag; the message must be the previous member's, with its value. */
static void ring(MPI_Comm c, int value, int tag)
{
    int r, n, got = -1;
    MPI_Comm_rank(c, &r);
    MPI_Comm_size(c, &n);
    MPI_Request req;
    MPI_Status st;
    MPI_Isend(&value, 1, MPI_INT, (r + 1) % n, tag, c, &req);
    MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, c, &st);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECKF(got == value && st.MPI_SOURCE == (r + n - 1) % n && st.MPI_TAG == tag,
           "got %d from %d tag %d, wanted %d from %d tag %d", got, st.MPI_SOURCE, st.MPI_TAG,
           value, (r + n - 1) % n, tag);
}

/* (a) Many more dup + free rounds than there are reusable ids (2048 pairs). */
static void dup_free_rounds(void)
{
    MPI_Comm held, c;
    MPI_Comm_dup(MPI_COMM_WORLD, &held);
    int got = -1;
    MPI_Request r;
    MPI_Irecv(&got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, held, &r);
    for (int i = 0; i < 10000; i++) {
        MPI_Comm_dup(MPI_COMM_WORLD, &c);
        ring(c, i, i % 100);
        MPI_Comm_free(&c);
    }
    int flag = 1;
    MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
    CHECKF(!flag, "the held receive got %d", got);
    MPI_Barrier(MPI_COMM_WORLD);      /* no member's message on held comes before the test */
    int v = 1000 + rank;
    MPI_Send(&v, 1, MPI_INT, (rank + 1) % size, 3, held);   /* a tag some rounds used too */
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    CHECKF(got == 1000 + (rank + size - 1) % size, "the held receive got %d", got);
    MPI_Comm_free(&held);
}

/* (b) Splits by colors that change every round, each held for a number of rounds that depends
 * on the color, with a receive pending on it: the members' ids in use differ, and every new
 * communicator must avoid all of them. */
enum { KEEP = 4 };
typedef struct {
    MPI_Comm comm;
    int born, due, got;
    MPI_Request recv;
} held_t;

/* The oldest held split due by round i, or -1: its members agree on which, wherever each keeps
 * it. */
static int oldest_due(const held_t *h, int i)
{
    int k = -1;
    for (int j = 0; j < KEEP; j++)
        if (h[j].comm != MPI_COMM_NULL && h[j].due <= i && (k < 0 || h[j].born < h[k].born))
            k = j;
    return k;
}

static void mixed_splits(void)
{
    held_t h[KEEP];
    for (int k = 0; k < KEEP; k++)
        h[k].comm = MPI_COMM_NULL;
    for (int i = 0; i < 3000; i++) {
        int color = (rank + i) % 3;
        MPI_Comm c, d;
        MPI_Comm_split(MPI_COMM_WORLD, color, size - rank, &c);
        ring(c, i, 1);
        for (int k = oldest_due(h, i); k >= 0; k = oldest_due(h, i)) {
            int r, n, v;
            MPI_Comm_rank(h[k].comm, &r);
            MPI_Comm_size(h[k].comm, &n);
            v = r + 1000 * h[k].born;
            MPI_Send(&v, 1, MPI_INT, (r + 1) % n, 2, h[k].comm);
            MPI_Wait(&h[k].recv, MPI_STATUS_IGNORE);
            CHECKF(h[k].got == (r + n - 1) % n + 1000 * h[k].born,
                   "round %d: a held split's receive got %d", i, h[k].got);
            MPI_Comm_free(&h[k].comm);
        }
        for (int k = 0; k < KEEP; k++)
            if (h[k].comm == MPI_COMM_NULL) {     /* held for 1 to 3 rounds, by color */
                h[k] = (held_t){.comm = c, .born = i, .due = i + 1 + color};
                MPI_Irecv(&h[k].got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, c, &h[k].recv);
                break;
            }
        MPI_Comm_dup(MPI_COMM_WORLD, &d);   /* every member, whatever it holds */
        ring(d, -i, 2);
        MPI_Comm_free(&d);
    }
    for (int k = oldest_due(h, 1 << 30); k >= 0; k = oldest_due(h, 1 << 30)) {
        MPI_Cancel(&h[k].recv);
        MPI_Wait(&h[k].recv, MPI_STATUS_IGNORE);
        MPI_Comm_free(&h[k].comm);
    }
}

/* (c) A receive pending on a freed communicator gets its message, sent after a newer
 * communicator of the receiver alone already carries one with the same source rank and tag. */
static void pending_on_freed(void)
{
    MPI_Comm a, self;
    MPI_Request r, s;
    int got = -1, mine = -1, v;
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    if (rank == 0)
        MPI_Irecv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 5, a, &r);
    if (rank != 1)
        MPI_Comm_free(&a);            /* rank 1 still sends on it below */
    if (rank == 0) {
        MPI_Comm_dup(MPI_COMM_SELF, &self);
        v = 99;
        MPI_Isend(&v, 1, MPI_INT, 0, 5, self, &s);
        MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);    /* now rank 1 may send on a */
        MPI_Recv(&mine, 1, MPI_INT, 0, 5, self, MPI_STATUS_IGNORE);
        MPI_Wait(&s, MPI_STATUS_IGNORE);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        CHECKF(mine == 99 && got == 42, "got %d on the new communicator, %d on the freed one",
               mine, got);
        MPI_Comm_free(&self);
    } else if (rank == 1) {
        MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        v = 42;
        MPI_Send(&v, 1, MPI_INT, 0, 5, a);
        MPI_Comm_free(&a);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    dup_free_rounds();
    mixed_splits();
    pending_on_freed();
    MPI_Finalize();
    return CHECK_RESULT();
}
