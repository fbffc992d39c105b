/* np: 2 3 */
/* The unexpected-message queue, message by message: each sender's messages wait at rank 0
 * (a probe of the last one has drained everything before it into the queue), then receives with
 * chosen tags take them out of the middle, the head and the tail, a rendezvous message among
 * them, and messages that arrive after the tail was taken must still be found. Each receive must
 * match exactly the message MPI's non-overtaking order names, whatever the other sender's
 * messages queued in between. */
#include <mpi.h>
#include <stdlib.h>
#include "../check.h"

enum { LARGE = 40000, GO = 100 };     /* LARGE ints: above the eager limit (rendezvous) */

/* Message i of each sender: its tag. Index 3 is the large one; 8 and 9 are sent after rank 0
 * has taken index 7, the queue's tail. */
static const int tags[] = {1, 2, 1, 4, 3, 2, 1, 9, 1, 5};

/* Receive from `src` with `tag` and check that it is message `idx` (all ints carry it). */
static void take(int src, int tag, int idx, int *buf)
{
    MPI_Status st;
    int count;
    MPI_Recv(buf, LARGE, MPI_INT, src, tag, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    CHECKF(buf[0] == src && buf[1] == idx && st.MPI_TAG == tags[idx] && st.MPI_SOURCE == src,
           "source %d tag %d: got message %d of %d with tag %d, expected message %d", src, tag,
           buf[1], buf[0], st.MPI_TAG, idx);
    CHECKF(count == (idx == 3 ? LARGE : 2), "message %d: count %d", idx, count);
    if (idx == 3)
        CHECK(buf[LARGE - 1] == 3);
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int *buf = malloc(LARGE * sizeof *buf);
    if (rank != 0) {
        int msgs[10][2];
        MPI_Request reqs[10];
        for (int i = 0; i < LARGE; i++)
            buf[i] = 3;
        buf[0] = rank, buf[1] = 3;
        for (int i = 0; i < 10; i++) {
            msgs[i][0] = rank, msgs[i][1] = i;
            if (i == 8)
                MPI_Recv(NULL, 0, MPI_INT, 0, GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Isend(i == 3 ? buf : msgs[i], i == 3 ? LARGE : 2, MPI_INT, 0, tags[i],
                      MPI_COMM_WORLD, &reqs[i]);
        }
        MPI_Waitall(10, reqs, MPI_STATUSES_IGNORE);
    } else {
        for (int s = 1; s < size; s++) {
            MPI_Probe(s, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            take(s, 2, 1, buf);                   /* from the middle */
            take(s, 3, 4, buf);                   /* past the rendezvous message */
            take(s, MPI_ANY_TAG, 0, buf);         /* the head */
            take(s, 9, 7, buf);                   /* the tail */
            MPI_Send(NULL, 0, MPI_INT, s, GO, MPI_COMM_WORLD);
            MPI_Probe(s, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            take(s, 1, 2, buf);
            take(s, MPI_ANY_TAG, 3, buf);         /* the rendezvous message, in its place */
            /* A matched probe takes its message off the queue: the next receive of tag 1
             * gets the one after it. */
            int flag = 0;
            MPI_Message m;
            MPI_Status st;
            MPI_Improbe(s, 1, MPI_COMM_WORLD, &flag, &m, &st);
            CHECK(flag);
            take(s, 1, 8, buf);                   /* queued after the tail was taken */
            MPI_Mrecv(buf, 2, MPI_INT, &m, MPI_STATUS_IGNORE);
            CHECKF(buf[0] == s && buf[1] == 6, "matched probe: message %d", buf[1]);
            take(s, MPI_ANY_TAG, 5, buf);
            take(s, MPI_ANY_TAG, 9, buf);
            int pending = 1;
            MPI_Iprobe(s, MPI_ANY_TAG, MPI_COMM_WORLD, &pending, MPI_STATUS_IGNORE);
            CHECKF(!pending, "sender %d: a message is left over", s);
        }
    }
    free(buf);
    MPI_Finalize();
    return CHECK_RESULT();
}
