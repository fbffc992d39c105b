/* np: 2 3 */
/* Large messages between every kind of buffer, read by the receiver from the sender's buffer
 * (or its packed copy), into place or a piece at a time through a buffer of its own;
 * unexpected, probed, buffered, synchronous and truncated messages; and, once a process may no
 * longer read another's memory (a seccomp filter makes process_vm_readv fail with EPERM, as a
 * Yama ptrace_scope would), every message still arrives. */
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <mpi.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include "../check.h"

enum { N = 300000 };                  /* ints: past the eager limit */

static int rank, size;

static int value(int i, int seed) { return i * 7 + seed * 1000003; }

/* Every other int of 2N ints: not contiguous. */
static MPI_Datatype strided(void)
{
    MPI_Datatype t;
    MPI_Type_vector(N, 1, 2, MPI_INT, &t);
    MPI_Type_commit(&t);
    return t;
}

/* Send N ints with seed `seed` from rank 0 to rank 1, the sender's and the receiver's buffers
 * contiguous or strided; check what arrives. */
static void one(int seed, int send_strided, int recv_strided, int unexpected)
{
    int *buf = calloc(2 * N, sizeof *buf);
    MPI_Datatype vec = strided();
    int stride_out = send_strided ? 2 : 1, stride_in = recv_strided ? 2 : 1;
    if (rank == 0) {
        for (int i = 0; i < N; i++)
            buf[i * stride_out] = value(i, seed);
        if (unexpected)
            MPI_Barrier(MPI_COMM_WORLD);  /* the receive is posted after the RTS is in */
        if (send_strided)
            MPI_Send(buf, 1, vec, 1, seed, MPI_COMM_WORLD);
        else
            MPI_Send(buf, N, MPI_INT, 1, seed, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Request req;
        MPI_Status st;
        if (unexpected) {
            MPI_Barrier(MPI_COMM_WORLD);
            int flag = 0;                 /* wait until the RTS is queued as unexpected */
            while (!flag)
                MPI_Iprobe(0, seed, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        }
        if (recv_strided)
            MPI_Irecv(buf, 1, vec, 0, seed, MPI_COMM_WORLD, &req);
        else
            MPI_Irecv(buf, N, MPI_INT, 0, seed, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, &st);
        int count = -1, bad = 0;
        MPI_Get_count(&st, MPI_INT, &count);
        for (int i = 0; i < N; i++)
            bad += buf[i * stride_in] != value(i, seed);
        CHECKF(count == N && bad == 0, "seed %d, send %s, receive %s%s: count %d, %d wrong", seed,
               send_strided ? "strided" : "contiguous", recv_strided ? "strided" : "contiguous",
               unexpected ? ", unexpected" : "", count, bad);
    } else if (unexpected) {
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Type_free(&vec);
    free(buf);
}

static void all_kinds(int seed)
{
    for (int k = 0; k < 8; k++)
        one(seed + k, k & 1, (k >> 1) & 1, k >> 2);
}

/* Matched probe, buffered, synchronous and truncated large messages, 0 to 1. */
static void modes(int seed)
{
    int *buf = calloc(N, sizeof *buf);
    if (rank == 0) {
        for (int i = 0; i < N; i++)
            buf[i] = value(i, seed);
        MPI_Send(buf, N, MPI_INT, 1, 1, MPI_COMM_WORLD);     /* matched probe */
        int bytes = N * (int)sizeof(int) + MPI_BSEND_OVERHEAD;
        void *att = malloc((size_t)bytes);
        MPI_Buffer_attach(att, bytes);
        MPI_Bsend(buf, N, MPI_INT, 1, 2, MPI_COMM_WORLD);
        for (int i = 0; i < N; i++)   /* the copy was taken: changing buf changes nothing */
            buf[i] = -1;
        MPI_Buffer_detach(&att, &bytes);
        free(att);
        for (int i = 0; i < N; i++)
            buf[i] = value(i, seed);
        MPI_Ssend(buf, N, MPI_INT, 1, 3, MPI_COMM_WORLD);
        MPI_Send(buf, N, MPI_INT, 1, 4, MPI_COMM_WORLD);     /* truncated */
        MPI_Send(buf, N, MPI_INT, 1, 5, MPI_COMM_WORLD);     /* taken by a receive of 0 */
    } else if (rank == 1) {
        MPI_Message msg;
        MPI_Status st;
        int count = -1, bad = 0, cls = -1;
        MPI_Mprobe(0, 1, MPI_COMM_WORLD, &msg, &st);
        MPI_Get_count(&st, MPI_INT, &count);
        CHECK(count == N);
        MPI_Mrecv(buf, N, MPI_INT, &msg, &st);
        for (int tag = 2; tag <= 3; tag++) {
            for (int i = 0; i < N; i++)
                bad += buf[i] != value(i, seed);
            memset(buf, 0, N * sizeof *buf);
            MPI_Recv(buf, N, MPI_INT, 0, tag, MPI_COMM_WORLD, &st);
        }
        for (int i = 0; i < N; i++)
            bad += buf[i] != value(i, seed);
        CHECKF(bad == 0, "matched probe, buffered or synchronous: %d wrong", bad);
        memset(buf, 0, N * sizeof *buf);
        int rc = MPI_Recv(buf, N / 2, MPI_INT, 0, 4, MPI_COMM_WORLD, &st);
        MPI_Error_class(rc, &cls);
        MPI_Get_count(&st, MPI_INT, &count);
        bad = 0;
        for (int i = 0; i < N; i++)
            bad += buf[i] != (i < N / 2 ? value(i, seed) : 0);
        CHECKF(cls == MPI_ERR_TRUNCATE && count == N / 2 && bad == 0,
               "truncated: class %d, count %d, %d wrong", cls, count, bad);
        rc = MPI_Recv(buf, 0, MPI_INT, 0, 5, MPI_COMM_WORLD, &st);
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_TRUNCATE);
    }
    free(buf);
}

/* From now on process_vm_readv fails with EPERM in this process. 0, or -1 where seccomp
 * filters are not available. */
static int deny_cross_memory_reads(void)
{
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_process_vm_readv, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = {sizeof filter / sizeof filter[0], filter};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
        return -1;
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    all_kinds(0);
    modes(100);
    /* Rank 1 may no longer read rank 0's memory: the same messages, by packets. */
    int denied = rank == 1 ? deny_cross_memory_reads() : 0, everywhere;
    MPI_Allreduce(&denied, &everywhere, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (everywhere == 0) {
        all_kinds(200);
        modes(300);
    } else if (rank == 1) {
        printf("seccomp filters unavailable: the fallback was not tried\n");
    }
    MPI_Finalize();
    return CHECK_RESULT();
}
