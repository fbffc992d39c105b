/* np: 1 2 3 */
/* MPI_T performance variables with real values: a counter of messages (bytes, eager and
 * rendezvous sends) goes up by exactly what the process sent or received between start and
 * stop, and not at all while stopped; reset, write and readreset act on the handle alone; the
 * unexpected and posted-receive queues' levels and high-water marks follow the queues; a
 * collective's algorithm counter says which ran, and writing the control variable that forces
 * it changes which; a full shared-memory ring is counted; sessions and handles answer errors with the standard's codes. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHECK(cond) do { if (!(cond)) { printf("FAIL rank %d line %d: %s\n", rank, __LINE__, #cond); exit(1); } } while (0)
#define RC(call, want) do { int rc_ = (call); if (rc_ != (want)) { \
    printf("FAIL rank %d line %d: %s returned %d, wanted %d\n", rank, __LINE__, #call, rc_, (want)); exit(1); } } while (0)

static int rank, size;
static MPI_T_pvar_session ses;

static MPI_T_pvar_handle handle(const char *name, int cls)
{
    int i, count, ro, cont, atomic, vcls;
    MPI_T_pvar_handle h;
    MPI_Datatype dt;
    RC(MPI_T_pvar_get_index(name, cls, &i), MPI_SUCCESS);
    RC(MPI_T_pvar_get_info(i, NULL, NULL, NULL, &vcls, &dt, NULL, NULL, NULL, NULL, &ro, &cont, &atomic), MPI_SUCCESS);
    CHECK(vcls == cls && dt == MPI_UNSIGNED_LONG_LONG && atomic);
    CHECK(cls == MPI_T_PVAR_CLASS_COUNTER ? !ro && !cont : ro && cont);
    RC(MPI_T_pvar_handle_alloc(ses, i, NULL, &h, &count), MPI_SUCCESS);
    CHECK(count == 1);
    return h;
}

static unsigned long long rd(MPI_T_pvar_handle h)
{
    unsigned long long v = 12345;
    RC(MPI_T_pvar_read(ses, h, &v), MPI_SUCCESS);
    return v;
}

/* Each rank sends n messages of `ints` ints to the next rank and receives as many from the
 * previous one. */
static void ring(int n, int ints)
{
    int *sbuf = calloc(ints, sizeof(int)), *rbuf = calloc(ints, sizeof(int));
    MPI_Request *reqs = malloc(n * sizeof *reqs);
    for (int i = 0; i < n; i++)
        MPI_Isend(sbuf, ints, MPI_INT, (rank + 1) % size, 1, MPI_COMM_WORLD, &reqs[i]);
    for (int i = 0; i < n; i++)
        MPI_Recv(rbuf, ints, MPI_INT, (rank + size - 1) % size, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
    free(sbuf), free(rbuf), free(reqs);
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    RC(MPI_T_pvar_session_create(&ses), MPI_T_ERR_NOT_INITIALIZED);
    RC(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);
    RC(MPI_T_pvar_session_create(&ses), MPI_SUCCESS);

    int n, i;
    RC(MPI_T_pvar_get_num(&n), MPI_SUCCESS);
    CHECK(n >= 14);
    for (i = 0; i < n; i++) {          /* every variable: its name finds it */
        char name[128], desc[512];
        int nlen = sizeof name, dlen = sizeof desc, cls, j, bind;
        RC(MPI_T_pvar_get_info(i, name, &nlen, NULL, &cls, NULL, NULL, desc, &dlen, &bind, NULL, NULL, NULL), MPI_SUCCESS);
        CHECK(nlen == (int)strlen(name) + 1 && dlen > 10 && bind == MPI_T_BIND_NO_OBJECT);
        RC(MPI_T_pvar_get_index(name, cls, &j), MPI_SUCCESS);
        CHECK(j == i);
        RC(MPI_T_pvar_get_index(name, cls == MPI_T_PVAR_CLASS_COUNTER ? MPI_T_PVAR_CLASS_LEVEL
                                                                     : MPI_T_PVAR_CLASS_COUNTER, &j),
           MPI_T_ERR_INVALID_NAME);
    }

    MPI_T_pvar_handle sent = handle("pt2pt_messages_sent", MPI_T_PVAR_CLASS_COUNTER);
    MPI_T_pvar_handle bsent = handle("pt2pt_bytes_sent", MPI_T_PVAR_CLASS_COUNTER);
    MPI_T_pvar_handle recvd = handle("pt2pt_messages_received", MPI_T_PVAR_CLASS_COUNTER);
    MPI_T_pvar_handle brecvd = handle("pt2pt_bytes_received", MPI_T_PVAR_CLASS_COUNTER);
    MPI_T_pvar_handle eager = handle("pt2pt_eager_sends", MPI_T_PVAR_CLASS_COUNTER);
    MPI_T_pvar_handle rndv = handle("pt2pt_rendezvous_sends", MPI_T_PVAR_CLASS_COUNTER);
    MPI_T_pvar_handle polls = handle("progress_polls", MPI_T_PVAR_CLASS_COUNTER);

    /* Stopped at first: a counter counts nothing. */
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(rd(sent) == 0 && rd(recvd) == 0);

    /* 10 eager messages of 400 bytes each way. */
    RC(MPI_T_pvar_start(ses, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS);
    ring(10, 100);
    RC(MPI_T_pvar_stop(ses, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS);
    CHECK(rd(sent) == 10 && rd(bsent) == 4000 && rd(recvd) == 10 && rd(brecvd) == 4000);
    CHECK(rd(eager) == 10 && rd(rndv) == 0);

    /* Stopped again: nothing more is counted. */
    ring(3, 100);
    CHECK(rd(sent) == 10 && rd(recvd) == 10);

    /* Started again: it adds on. One message of 256 KiB goes by rendezvous. */
    RC(MPI_T_pvar_start(ses, sent), MPI_SUCCESS);
    RC(MPI_T_pvar_start(ses, rndv), MPI_SUCCESS);
    RC(MPI_T_pvar_start(ses, eager), MPI_SUCCESS);
    RC(MPI_T_pvar_start(ses, bsent), MPI_SUCCESS);
    ring(1, 65536);
    CHECK(rd(sent) == 11 && rd(rndv) == 1 && rd(eager) == 10 && rd(bsent) == 4000 + 262144);

    /* reset, write, readreset: the handle's value only. */
    RC(MPI_T_pvar_reset(ses, sent), MPI_SUCCESS);
    CHECK(rd(sent) == 0);
    unsigned long long v = 100;
    RC(MPI_T_pvar_write(ses, sent, &v), MPI_SUCCESS);
    ring(2, 1);
    CHECK(rd(sent) == 102);
    RC(MPI_T_pvar_readreset(ses, sent, &v), MPI_SUCCESS);
    CHECK(v == 102 && rd(sent) == 0);
    ring(1, 1);
    CHECK(rd(sent) == 1);
    MPI_T_pvar_session other;            /* another session's handle counts on its own */
    MPI_T_pvar_handle osent;
    int idx, count;
    RC(MPI_T_pvar_session_create(&other), MPI_SUCCESS);
    RC(MPI_T_pvar_get_index("pt2pt_messages_sent", MPI_T_PVAR_CLASS_COUNTER, &idx), MPI_SUCCESS);
    RC(MPI_T_pvar_handle_alloc(other, idx, NULL, &osent, &count), MPI_SUCCESS);
    RC(MPI_T_pvar_start(other, osent), MPI_SUCCESS);
    ring(4, 1);
    RC(MPI_T_pvar_read(other, osent, &v), MPI_SUCCESS);
    CHECK(v == 4 && rd(sent) == 5);
    RC(MPI_T_pvar_read(ses, osent, &v), MPI_T_ERR_INVALID_HANDLE);   /* not of this session */
    RC(MPI_T_pvar_session_free(&other), MPI_SUCCESS);                /* frees its handles */
    CHECK(other == MPI_T_PVAR_SESSION_NULL);
    RC(MPI_T_pvar_read(other, osent, &v), MPI_T_ERR_INVALID_SESSION);
    RC(MPI_T_pvar_stop(ses, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS);

    /* The queues: 3 messages wait unexpected at `dst` until it receives them; a receive
     * posted for nothing waits in the posted queue until cancelled. */
    MPI_T_pvar_handle ulen = handle("pt2pt_unexpected_queue_length", MPI_T_PVAR_CLASS_LEVEL);
    MPI_T_pvar_handle uhwm = handle("pt2pt_unexpected_queue_highwatermark", MPI_T_PVAR_CLASS_HIGHWATERMARK);
    MPI_T_pvar_handle umsgs = handle("pt2pt_unexpected_messages", MPI_T_PVAR_CLASS_COUNTER);
    MPI_T_pvar_handle plen = handle("pt2pt_posted_queue_length", MPI_T_PVAR_CLASS_LEVEL);
    MPI_T_pvar_handle phwm = handle("pt2pt_posted_queue_highwatermark", MPI_T_PVAR_CLASS_HIGHWATERMARK);
    RC(MPI_T_pvar_start(ses, ulen), MPI_T_ERR_PVAR_NO_STARTSTOP);
    RC(MPI_T_pvar_stop(ses, uhwm), MPI_T_ERR_PVAR_NO_STARTSTOP);
    RC(MPI_T_pvar_write(ses, ulen, &v), MPI_T_ERR_PVAR_NO_WRITE);
    RC(MPI_T_pvar_reset(ses, uhwm), MPI_T_ERR_PVAR_NO_WRITE);
    RC(MPI_T_pvar_readreset(ses, plen, &v), MPI_T_ERR_PVAR_NO_WRITE);
    RC(MPI_T_pvar_start(ses, umsgs), MPI_SUCCESS);
    MPI_Barrier(MPI_COMM_WORLD);
    RC(MPI_T_pvar_reset(ses, polls), MPI_SUCCESS);
    RC(MPI_T_pvar_start(ses, polls), MPI_SUCCESS);
    int src = 0, dst = size > 1 ? 1 : 0, x = 0;
    MPI_Request reqs[4], ack;
    if (rank == src) {
        for (i = 0; i < 3; i++)
            MPI_Isend(&x, 1, MPI_INT, dst, 7, MPI_COMM_WORLD, &reqs[i]);
        MPI_Isend(&x, 1, MPI_INT, dst, 8, MPI_COMM_WORLD, &reqs[3]);
    }
    if (rank == dst) {
        CHECK(rd(plen) == 0);
        MPI_Recv(&x, 1, MPI_INT, src, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(rd(ulen) == 3 && rd(uhwm) >= 3);
        unsigned long long u = rd(umsgs);
        CHECK(u == 3 || u == 4);           /* the message of tag 8 too if it came first */
        for (i = 0; i < 3; i++)
            MPI_Recv(&x, 1, MPI_INT, src, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(rd(ulen) == 0 && rd(uhwm) >= 3 && rd(umsgs) == u);
        MPI_Request r;
        MPI_Irecv(&x, 1, MPI_INT, src, 99, MPI_COMM_WORLD, &r);
        CHECK(rd(plen) == 1 && rd(phwm) >= 1);
        MPI_Cancel(&r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        CHECK(rd(plen) == 0);
        MPI_Isend(&x, 1, MPI_INT, src, 9, MPI_COMM_WORLD, &ack);
        for (i = 0; i < size; i++)     /* the others wait until now: nothing else arrives */
            if (i != src && i != dst)
                MPI_Send(&x, 1, MPI_INT, i, 10, MPI_COMM_WORLD);
    }
    if (rank != src && rank != dst)
        MPI_Recv(&x, 1, MPI_INT, dst, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank == src) {
        MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE);
        MPI_Recv(&x, 1, MPI_INT, dst, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (rank == dst)
        MPI_Wait(&ack, MPI_STATUS_IGNORE);
    if (rank == src)                  /* the answer came while it waited, polling */
        CHECK(rd(polls) > 0);

    /* The shared-memory ring fills: 64 messages of 16000 bytes, more than any ring holds (256
     * KiB at most by default), sent while the receiver sleeps a second (long enough for a
     * loaded machine to let the sender fill it). */
    if (size > 1) {
        MPI_T_pvar_handle full = handle("shm_ring_full", MPI_T_PVAR_CLASS_COUNTER);
        RC(MPI_T_pvar_start(ses, full), MPI_SUCCESS);
        static char big[64][16000];
        MPI_Request many[64];
        if (rank == 0) {
            for (i = 0; i < 64; i++)
                MPI_Isend(big[i], 16000, MPI_CHAR, 1, 11, MPI_COMM_WORLD, &many[i]);
            MPI_Waitall(64, many, MPI_STATUSES_IGNORE);
            CHECK(rd(full) > 0);
        } else if (rank == 1) {
            struct timespec ts = {1, 0};
            nanosleep(&ts, NULL);
            for (i = 0; i < 64; i++)
                MPI_Recv(big[i], 16000, MPI_CHAR, 0, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            CHECK(rd(full) == 0);          /* it sent nothing */
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }

    /* A collective's algorithm: the one the control variable forces runs. 4096 doubles: past
     * ALLREDUCE_LONG, so auto picks Rabenseifner's. */
    MPI_T_pvar_handle rab = handle("coll_allreduce_rabenseifner", MPI_T_PVAR_CLASS_COUNTER);
    MPI_T_pvar_handle rd2 = handle("coll_allreduce_recursive_doubling", MPI_T_PVAR_CLASS_COUNTER);
    RC(MPI_T_pvar_start(ses, rab), MPI_SUCCESS);
    RC(MPI_T_pvar_start(ses, rd2), MPI_SUCCESS);
    static double in[4096], out[4096];
    MPI_Allreduce(in, out, 4096, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    CHECK(rd(rab) == 1 && rd(rd2) == 0);
    MPI_T_cvar_handle alg;
    RC(MPI_T_cvar_get_index("MICA_ALLREDUCE_ALGORITHM", &idx), MPI_SUCCESS);
    RC(MPI_T_cvar_handle_alloc(idx, NULL, &alg, &count), MPI_SUCCESS);
    int forced = 2, autov = 0;          /* auto|rabenseifner|recursive_doubling */
    RC(MPI_T_cvar_write(alg, &forced), MPI_SUCCESS);
    MPI_Allreduce(in, out, 4096, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    CHECK(rd(rab) == 1 && rd(rd2) == 1);
    RC(MPI_T_cvar_write(alg, &autov), MPI_SUCCESS);
    MPI_Allreduce(in, out, 4096, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    CHECK(rd(rab) == 2 && rd(rd2) == 1);
    RC(MPI_T_cvar_handle_free(&alg), MPI_SUCCESS);

    /* Errors. */
    MPI_T_pvar_handle h;
    RC(MPI_T_pvar_read(ses, MPI_T_PVAR_ALL_HANDLES, &v), MPI_T_ERR_INVALID_HANDLE);
    RC(MPI_T_pvar_write(ses, MPI_T_PVAR_ALL_HANDLES, &v), MPI_T_ERR_INVALID_HANDLE);
    RC(MPI_T_pvar_readreset(ses, MPI_T_PVAR_ALL_HANDLES, &v), MPI_T_ERR_INVALID_HANDLE);
    RC(MPI_T_pvar_read(ses, MPI_T_PVAR_HANDLE_NULL, &v), MPI_T_ERR_INVALID_HANDLE);
    RC(MPI_T_pvar_read(MPI_T_PVAR_SESSION_NULL, sent, &v), MPI_T_ERR_INVALID_SESSION);
    RC(MPI_T_pvar_handle_alloc(ses, n, NULL, &h, &count), MPI_T_ERR_INVALID_INDEX);
    RC(MPI_T_pvar_handle_alloc(ses, -1, NULL, &h, &count), MPI_T_ERR_INVALID_INDEX);
    RC(MPI_T_pvar_get_info(n, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_T_ERR_INVALID_INDEX);
    RC(MPI_T_pvar_get_index("no_such_variable", MPI_T_PVAR_CLASS_COUNTER, &i), MPI_T_ERR_INVALID_NAME);
    RC(MPI_T_pvar_reset(ses, MPI_T_PVAR_ALL_HANDLES), MPI_SUCCESS);   /* the writable ones */
    CHECK(rd(sent) == 0 && rd(rab) == 0);
    RC(MPI_T_pvar_handle_free(ses, &sent), MPI_SUCCESS);
    CHECK(sent == MPI_T_PVAR_HANDLE_NULL);
    RC(MPI_T_pvar_handle_free(ses, &sent), MPI_T_ERR_INVALID_HANDLE);
    RC(MPI_T_pvar_session_free(&ses), MPI_SUCCESS);
    RC(MPI_T_pvar_session_free(&ses), MPI_T_ERR_INVALID_SESSION);
    RC(MPI_T_finalize(), MPI_SUCCESS);
    MPI_Finalize();
    if (rank == 0)
        printf("ok: %d performance variables\n", n);
    return 0;
}
