/* Micro-benchmarks, plain MPI so the same source builds with any MPI:
 *   mpibench latency   ping-pong one-way time, 0 B .. 4 MiB          (2 ranks)
 *   mpibench bandwidth streaming bandwidth with a window of sends    (2 ranks)
 *   mpibench barrier   time per MPI_Barrier                          (any ranks)
 *   mpibench allreduce time per MPI_Allreduce of 8 B and of 8 MiB    (any ranks)
 *   mpibench bcast     time per MPI_Bcast of 8 B and of 8 MiB        (any ranks)
 *   mpibench reduce    time per MPI_Reduce of 8 B and of 8 MiB       (any ranks)
 *   mpibench gather    time per MPI_Gather of 8 B and of 64 KiB a rank (any ranks)
 *   mpibench alltoall  time per MPI_Alltoall of 8 B and of 64 KiB a pair (any ranks)
 *   mpibench large     one-way time of one 256 MiB message and of one of 2^31+8 bytes (2 ranks;
 *                      bench/run.py runs it as large_hog too, beside a busy process per core)
 *   mpibench init      MPI_Init + MPI_Finalize only (start-up is timed from outside)
 * Rank 0 prints lines "name value unit". Each figure is the best of several repetitions, which
 * is the most repeatable statistic on a shared, oversubscribed machine. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;

/* Iterations that take about `seconds` at the rate `per_iter` seconds each, the same on every
 * rank (a slow case, like a barrier that sleeps, must not take minutes). */
static int iterations(double per_iter, double seconds, int most)
{
    int n = per_iter > 0 ? (int)(seconds / per_iter) : most;
    n = n < 5 ? 5 : n > most ? most : n;
    MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return n;
}

static double best_of(int reps, double (*run)(void *), void *arg)
{
    double best = 1e30;
    for (int i = 0; i < reps; i++) {
        double t = run(arg);
        if (t < best)
            best = t;
    }
    return best;
}

struct msg { char *buf; int bytes, iters; };

static double pingpong(void *a)
{
    struct msg *m = a;
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime();
    for (int i = 0; i < m->iters; i++) {
        if (rank == 0) {
            MPI_Send(m->buf, m->bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
            MPI_Recv(m->buf, m->bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            MPI_Recv(m->buf, m->bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(m->buf, m->bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
        }
    }
    t = MPI_Wtime() - t;
    MPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    return t / m->iters / 2;
}

static double stream(void *a)
{
    enum { WINDOW = 16 };
    struct msg *m = a;
    MPI_Request r[WINDOW];
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime();
    for (int i = 0; i < m->iters; i++) {
        for (int w = 0; w < WINDOW; w++) {
            if (rank == 0)
                MPI_Isend(m->buf, m->bytes, MPI_BYTE, 1, w, MPI_COMM_WORLD, &r[w]);
            else
                MPI_Irecv(m->buf, m->bytes, MPI_BYTE, 0, w, MPI_COMM_WORLD, &r[w]);
        }
        MPI_Waitall(WINDOW, r, MPI_STATUSES_IGNORE);
    }
    if (rank == 0)
        MPI_Recv(NULL, 0, MPI_BYTE, 1, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    else
        MPI_Send(NULL, 0, MPI_BYTE, 0, 99, MPI_COMM_WORLD);
    t = MPI_Wtime() - t;
    MPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    return (double)m->bytes * WINDOW * m->iters / t;
}

static double barrier(void *a)
{
    int iters = *(int *)a;
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime();
    for (int i = 0; i < iters; i++)
        MPI_Barrier(MPI_COMM_WORLD);
    t = MPI_Wtime() - t;
    MPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    return t / iters;
}

/* A collective on `count` doubles (a block per rank for gather and alltoall). */
struct coll { const char *name; double *in, *out; int count, iters; };

static void one(struct coll *x)
{
    switch (x->name[0] == 'a' ? x->name[4] : x->name[0]) {
    case 'e':                         /* allreduce */
        MPI_Allreduce(x->in, x->out, x->count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        break;
    case 'o':                         /* alltoall */
        MPI_Alltoall(x->in, x->count, MPI_DOUBLE, x->out, x->count, MPI_DOUBLE, MPI_COMM_WORLD);
        break;
    case 'b':
        MPI_Bcast(x->in, x->count, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        break;
    case 'r':
        MPI_Reduce(x->in, x->out, x->count, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        break;
    case 'g':
        MPI_Gather(x->in, x->count, MPI_DOUBLE, x->out, x->count, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        break;
    }
}

static double collective(void *a)
{
    struct coll *x = a;
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime();
    for (int i = 0; i < x->iters; i++)
        one(x);
    t = MPI_Wtime() - t;
    MPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    return t / x->iters;
}

/* One message of `blocks` 8-byte elements from rank 0 to rank 1, and a 0-byte answer, so the
 * time includes the whole transfer; a contiguous type of 8 bytes lets every MPI count past
 * 2^31 bytes with an int count. */
struct big { char *buf; MPI_Datatype type; int blocks; };

static double one_large(void *a)
{
    struct big *b = a;
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime();
    if (rank == 0) {
        MPI_Send(b->buf, b->blocks, b->type, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(NULL, 0, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Recv(b->buf, b->blocks, b->type, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(NULL, 0, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
    }
    t = MPI_Wtime() - t;
    MPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    return t;
}

static void large(void)
{
    const int sizes[] = {1 << 25, (1 << 28) + 1};          /* 256 MiB, 2^31 + 8 bytes */
    const char *names[] = {"256MiB", "2GiB+8B"};
    for (int k = 0; k < 2; k++) {
        struct big b = {malloc((size_t)sizes[k] * 8), MPI_DATATYPE_NULL, sizes[k]};
        memset(b.buf, rank + 1, (size_t)sizes[k] * 8);      /* touched: no first-touch faults */
        MPI_Type_contiguous(8, MPI_BYTE, &b.type);
        MPI_Type_commit(&b.type);
        double v = best_of(k ? 1 : 3, one_large, &b);
        if (rank == 0)
            printf("large_%s %.3f s\n", names[k], v);
        MPI_Type_free(&b.type);
        free(b.buf);
    }
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "latency";
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (!strcmp(what, "latency") || !strcmp(what, "bandwidth")) {
        int lat = !strcmp(what, "latency");
        char *buf = calloc(1, 4 << 20);
        for (int bytes = lat ? 0 : 1024; bytes <= 4 << 20; bytes = bytes ? bytes * 4 : 1) {
            struct msg m = {buf, bytes, 0};
            m.iters = lat ? (bytes < 65536 ? 20000 : 200) : (bytes < 65536 ? 500 : 20);
            double v = best_of(5, lat ? pingpong : stream, &m);
            if (rank == 0) {
                if (lat)
                    printf("latency_%dB %.3f us\n", bytes, v * 1e6);
                else
                    printf("bandwidth_%dB %.3f GB/s\n", bytes, v / 1e9);
            }
        }
        free(buf);
    } else if (!strcmp(what, "barrier")) {
        int iters = 5;
        iters = iterations(barrier(&iters), 0.2, 2000);
        double v = best_of(5, barrier, &iters);
        if (rank == 0)
            printf("barrier_%dranks %.3f us\n", size, v * 1e6);
    } else if (!strcmp(what, "large")) {
        large();
    } else if (strcmp(what, "init")) {
        int blocks = !strcmp(what, "gather") || !strcmp(what, "alltoall");
        int counts[] = {1, blocks ? 8192 : 1 << 20};
        for (int k = 0; k < 2; k++) {
            size_t n = (size_t)counts[k] * (blocks ? size : 1);
            struct coll x = {what, calloc(n, 8), calloc(n, 8), counts[k], 3};
            x.iters = iterations(collective(&x), 0.2, k ? 10 : 5000);
            double v = best_of(5, collective, &x);
            if (rank == 0)
                printf("%s_%dB_%dranks %.3f us\n", what, counts[k] * 8, size, v * 1e6);
            free(x.in);
            free(x.out);
        }
    }
    MPI_Finalize();
    return 0;
}
