/* np: 2 */
/* Matched probes under MPI_THREAD_MULTIPLE (issue 11, root cause 3): four threads of rank 1
 * each take their own tag's messages from rank 0's four sending threads with MPI_Mprobe,
 * MPI_Improbe (spinning), MPI_Probe + MPI_Recv and MPI_Iprobe + MPI_Recv, then MPI_Mrecv or
 * MPI_Imrecv, small (eager) and large (rendezvous) in turn, all at the same time; every message
 * arrives whole, in order, with its status (source, tag, count) and MPI_ERROR left alone;
 * a failed MPI_Improbe leaves MPI_MESSAGE_NULL. MPICH's threads/pt2pt/mt_*probe* compare
 * MPI_Message with MPI_REQUEST_NULL, which is the same value only in MPICH. */
#include <mpi.h>
#include <pthread.h>
#include <stdlib.h>

#include "../check.h"

enum { THREADS = 4, ITER = 300, SMALL = 4, LARGE = 40000 };

static int value(int t, int i, int k)
{
    return t * 1000003 + i * 1009 + k;
}

static void *sender(void *arg)
{
    int t = (int)(long)arg;
    int *buf = malloc(LARGE * sizeof *buf);
    for (int i = 0; i < ITER; i++) {
        int n = i % 3 == 2 ? LARGE : SMALL;
        for (int k = 0; k < n; k++)
            buf[k] = value(t, i, k);
        if (i % 2)
            MPI_Send(buf, n, MPI_INT, 1, t, MPI_COMM_WORLD);
        else
            MPI_Ssend(buf, n, MPI_INT, 1, t, MPI_COMM_WORLD);
    }
    free(buf);
    return NULL;
}

static void *receiver(void *arg)
{
    int t = (int)(long)arg;
    int *buf = malloc(LARGE * sizeof *buf);
    for (int i = 0; i < ITER; i++) {
        MPI_Message msg = MPI_MESSAGE_NULL;
        MPI_Status st = {.MPI_ERROR = -7}, st2 = {.MPI_ERROR = -9};
        int flag = 0, how = (i + t) % 4;
        if (how == 0) {
            MPI_Mprobe(0, t, MPI_COMM_WORLD, &msg, &st);
        } else if (how == 1) {
            while (!flag) {
                MPI_Improbe(0, t, MPI_COMM_WORLD, &flag, &msg, &st);
                CHECK(flag || msg == MPI_MESSAGE_NULL);
            }
        } else if (how == 2) {
            MPI_Probe(0, t, MPI_COMM_WORLD, &st);
        } else {
            while (!flag)
                MPI_Iprobe(0, t, MPI_COMM_WORLD, &flag, &st);
        }
        int n = -1, want = i % 3 == 2 ? LARGE : SMALL;
        MPI_Get_count(&st, MPI_INT, &n);
        CHECKF(n == want && st.MPI_SOURCE == 0 && st.MPI_TAG == t && st.MPI_ERROR == -7,
               "thread %d, message %d: probe status count %d source %d tag %d error %d", t, i,
               n, st.MPI_SOURCE, st.MPI_TAG, st.MPI_ERROR);
        if (how >= 2) {
            MPI_Recv(buf, n, MPI_INT, 0, t, MPI_COMM_WORLD, &st2);
        } else if (i % 2) {
            MPI_Mrecv(buf, n, MPI_INT, &msg, &st2);
        } else {
            MPI_Request req;
            MPI_Imrecv(buf, n, MPI_INT, &msg, &req);
            MPI_Wait(&req, &st2);
        }
        CHECK(msg == MPI_MESSAGE_NULL);
        int bad = 0;
        for (int k = 0; k < n; k++)
            bad += buf[k] != value(t, i, k);
        CHECKF(!bad && st2.MPI_SOURCE == 0 && st2.MPI_TAG == t && st2.MPI_ERROR == -9,
               "thread %d, message %d: %d wrong ints, error %d", t, i, bad, st2.MPI_ERROR);
    }
    free(buf);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, rank;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    CHECK(provided == MPI_THREAD_MULTIPLE);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    pthread_t th[THREADS];
    for (long t = 0; t < THREADS; t++)
        pthread_create(&th[t], NULL, rank == 0 ? sender : receiver, (void *)t);
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], NULL);
    MPI_Finalize();
    return CHECK_RESULT();
}
