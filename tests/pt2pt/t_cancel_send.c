/* np: 2 3 */
/* Cancelling sends (issue 11, root causes 5 and 3): rank 0 sends to rank 1 in every mode and
 * size (eager, rendezvous, synchronous, buffered, persistent) and cancels while rank 1 has not
 * posted a receive; every cancel succeeds, the cancelled messages never arrive, the attached
 * buffer is free again (MPI_Buffer_detach returns), and the same requests' later runs arrive.
 * A send already received is not cancelled. A buffered send completes at once even when the
 * receiver is not receiving (both ranks MPI_Bsend a large message to each other, then receive:
 * it used to deadlock, MPICH's bsendpending). */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"

enum { SMALL = 8, LARGE = 1 << 20 };
static const int sizes[] = {SMALL, LARGE};

/* Send in `mode` and cancel; report whether cancelled. The message's tag is unique. */
static int send_and_cancel(char *buf, int n, int mode, int tag, int persistent)
{
    MPI_Request req;
    MPI_Status st;
    int flag = -1;
    if (persistent) {
        if (mode == 0) MPI_Send_init(buf, n, MPI_CHAR, 1, tag, MPI_COMM_WORLD, &req);
        if (mode == 1) MPI_Ssend_init(buf, n, MPI_CHAR, 1, tag, MPI_COMM_WORLD, &req);
        if (mode == 2) MPI_Bsend_init(buf, n, MPI_CHAR, 1, tag, MPI_COMM_WORLD, &req);
        if (mode == 3) MPI_Rsend_init(buf, n, MPI_CHAR, 1, tag, MPI_COMM_WORLD, &req);
        MPI_Start(&req);
    } else {
        if (mode == 0) MPI_Isend(buf, n, MPI_CHAR, 1, tag, MPI_COMM_WORLD, &req);
        if (mode == 1) MPI_Issend(buf, n, MPI_CHAR, 1, tag, MPI_COMM_WORLD, &req);
        if (mode == 2) MPI_Ibsend(buf, n, MPI_CHAR, 1, tag, MPI_COMM_WORLD, &req);
        if (mode == 3) MPI_Irsend(buf, n, MPI_CHAR, 1, tag, MPI_COMM_WORLD, &req);
    }
    MPI_Cancel(&req);
    MPI_Wait(&req, &st);
    MPI_Test_cancelled(&st, &flag);
    if (persistent) {                 /* run it again: this one arrives (rank 1 receives it
                                       * once told that the first run is over) */
        MPI_Send(NULL, 0, MPI_CHAR, 1, 999, MPI_COMM_WORLD);
        MPI_Start(&req);
        MPI_Wait(&req, &st);
        int again = -1;
        MPI_Test_cancelled(&st, &again);
        CHECKF(!again, "a persistent request's next run is not cancelled (mode %d)", mode);
        MPI_Request_free(&req);
    }
    return flag;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char *buf = malloc(LARGE), *got = malloc(LARGE);
    int attached = 2 * (LARGE + MPI_BSEND_OVERHEAD);
    char *bbuf = malloc(attached);
    MPI_Buffer_attach(bbuf, attached);

    /* Cancelled sends: rank 1 then receives only the persistent reruns, and checks that
     * nothing else arrived. */
    int tag = 0;
    for (int persistent = 0; persistent < 2; persistent++)
        for (int s = 0; s < 2; s++)
            for (int mode = 0; mode < 4; mode++) {
                tag++;
                if (mode == 3)        /* a ready send needs its receive posted: rank 1 posts */
                    continue;         /* nothing, so it is not tried (erroneous) */
                if (rank == 0) {
                    memset(buf, tag, sizes[s]);
                    int cancelled = send_and_cancel(buf, sizes[s], mode, tag, persistent);
                    CHECKF(cancelled, "mode %d, %d bytes%s: not cancelled", mode, sizes[s],
                           persistent ? ", persistent" : "");
                } else if (rank == 1 && persistent) {
                    MPI_Status st;
                    MPI_Recv(NULL, 0, MPI_CHAR, 0, 999, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    MPI_Recv(got, LARGE, MPI_CHAR, 0, tag, MPI_COMM_WORLD, &st);
                    int n = -1;
                    MPI_Get_count(&st, MPI_CHAR, &n);
                    CHECKF(n == sizes[s] && got[0] == (char)tag && got[n - 1] == (char)tag,
                           "the rerun of tag %d: %d bytes", tag, n);
                }
            }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1)                    /* no cancelled message may be waiting */
        for (int t = 1; t <= tag; t++) {
            int flag = 1;
            MPI_Iprobe(0, t, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
            CHECKF(!flag, "the cancelled message of tag %d arrived", t);
        }

    /* A received send is not cancelled; its status is the send's. */
    if (rank == 0) {
        MPI_Request req;
        MPI_Status st;
        int flag = -1;
        MPI_Issend(buf, SMALL, MPI_CHAR, 1, 500, MPI_COMM_WORLD, &req);
        MPI_Recv(NULL, 0, MPI_CHAR, 1, 501, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Cancel(&req);
        MPI_Wait(&req, &st);
        MPI_Test_cancelled(&st, &flag);
        CHECKF(!flag, "a received message was cancelled");
    } else if (rank == 1) {
        MPI_Recv(got, SMALL, MPI_CHAR, 0, 500, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(NULL, 0, MPI_CHAR, 0, 501, MPI_COMM_WORLD);
    }

    /* The attached buffer is free: the cancelled buffered sends gave their space back. */
    void *out;
    int outsize;
    MPI_Buffer_detach(&out, &outsize);
    CHECK(out == bbuf && outsize == attached);

    /* Buffered sends are local: each rank sends a large message to its neighbour before
     * receiving its own. */
    MPI_Buffer_attach(bbuf, attached);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    memset(buf, rank + 1, LARGE);
    MPI_Bsend(buf, LARGE, MPI_CHAR, right, 600, MPI_COMM_WORLD);
    MPI_Request req;
    MPI_Ibsend(buf, LARGE, MPI_CHAR, right, 601, MPI_COMM_WORLD, &req);
    int done = 0;
    MPI_Test(&req, &done, MPI_STATUS_IGNORE);
    CHECKF(done, "an MPI_Ibsend is complete once its data is in the buffer");
    if (!done)
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    for (int t = 600; t <= 601; t++) {
        MPI_Recv(got, LARGE, MPI_CHAR, left, t, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECKF(got[0] == (char)(left + 1) && got[LARGE - 1] == (char)(left + 1), "tag %d", t);
    }
    MPI_Buffer_detach(&out, &outsize);

    free(bbuf);
    free(buf);
    free(got);
    MPI_Finalize();
    return CHECK_RESULT();
}
