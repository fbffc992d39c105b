/* Helper program run under a launcher by the test_*.sh scripts (not a test
 * by itself). Build: cc -I src/runtime tests/runtime/rt_prog.c src/runtime/pmi.c
 *
 *   rt_prog kvs [rounds]     put/fence/get exchange checks, prints "kvs ok"
 *   rt_prog ok               init, fence, finalize
 *   rt_prog exit CODE RANK   RANK exits CODE after a fence; others wait
 *   rt_prog segv RANK        RANK dies of SIGSEGV
 *   rt_prog abort CODE RANK  RANK calls mica_boot_abort(CODE, "...")
 *   rt_prog nofin RANK       RANK returns 0 without finalize
 *   rt_prog hang             every rank (and a child it forks) sleeps
 *   rt_prog lines K          each rank prints K lines in pieces
 *   rt_prog info             prints "rank R size S jobid J"
 *
 * With RT_DIR set, every rank writes its pid (and, for `hang`, its child's)
 * to $RT_DIR/pid.*, creates /dev/shm/mica-<jobid>-rt<rank>, and rank 0
 * writes the jobid to $RT_DIR/jobid: the scripts check both are gone. */
#include "boot.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static mica_boot_t b;

#define CHECK(c)                                                                    \
    do {                                                                            \
        if (!(c)) {                                                                 \
            fprintf(stderr, "rt_prog rank %d: check failed at line %d: %s\n", b.rank, \
                    __LINE__, #c);                                                  \
            exit(99);                                                               \
        }                                                                           \
    } while (0)

static void write_file(const char *name, const char *text)
{
    const char *dir = getenv("RT_DIR");
    if (!dir)
        return;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void record(const char *tag, pid_t pid)
{
    char name[64], text[32];
    snprintf(name, sizeof name, "pid.%s%d", tag, b.rank);
    snprintf(text, sizeof text, "%d\n", (int)pid);
    write_file(name, text);
}

static void mark_job(void)
{
    if (!getenv("RT_DIR"))
        return;
    record("", getpid());
    char path[256];
    snprintf(path, sizeof path, "/dev/shm/mica-%s-rt%d", b.jobid, b.rank);
    int fd = open(path, O_CREAT | O_RDWR, 0600);
    CHECK(fd >= 0);
    close(fd);
    if (b.rank == 0) {
        char text[80];
        snprintf(text, sizeof text, "%s\n", b.jobid);
        write_file("jobid", text);
    }
}

/* Blocks for good: the launcher must end us. */
static void wait_forever(void)
{
    mica_boot_fence();
    for (;;)
        pause();
}

static void kvs(int rounds)
{
    char key[64], val[8192], got[8192];
    for (int round = 0; round < rounds; round++) {
        snprintf(key, sizeof key, "k%d", round);
        snprintf(val, sizeof val, "v%d-%d-%x=ok", round, b.rank, 0xabc0 + b.rank);
        CHECK(mica_boot_put(key, val) == 0);
        CHECK(mica_boot_fence() == 0);
        for (int r = 0; r < b.size; r++) {
            int q = (b.rank + r) % b.size;
            snprintf(val, sizeof val, "v%d-%d-%x=ok", round, q, 0xabc0 + q);
            CHECK(mica_boot_get(q, key, got, sizeof got) == 0);
            CHECK(strcmp(got, val) == 0);
        }
    }
    /* The longest value the server allows. */
    int n = b.val_max < (int)sizeof val - 1 ? b.val_max : (int)sizeof val - 1;
    for (int i = 0; i < n; i++)
        val[i] = (char)('a' + (i + b.rank) % 26);
    val[n] = '\0';
    CHECK(mica_boot_put("big", val) == 0);
    CHECK(mica_boot_fence() == 0);
    int peer = (b.rank + 1) % b.size;
    CHECK(mica_boot_get(peer, "big", got, sizeof got) == 0);
    CHECK((int)strlen(got) == n);
    CHECK(got[0] == (char)('a' + peer % 26));
    CHECK(mica_boot_get(peer, "never-put", got, sizeof got) == 1);
    CHECK(mica_boot_fence() == 0);
    if (b.rank == 0)
        printf("kvs ok: %d ranks, %d rounds, val_max %d\n", b.size, rounds, b.val_max);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "ok";
    int a2 = argc > 2 ? atoi(argv[2]) : 0, a3 = argc > 3 ? atoi(argv[3]) : 0;
    if (mica_boot_init(&b) != 0)
        return 98;
    CHECK(b.size >= 1 && b.rank >= 0 && b.rank < b.size && b.jobid[0]);
    mark_job();

    if (!strcmp(mode, "kvs")) {
        kvs(a2 > 0 ? a2 : 3);
    } else if (!strcmp(mode, "ok")) {
        CHECK(mica_boot_fence() == 0);
    } else if (!strcmp(mode, "exit")) {
        CHECK(mica_boot_fence() == 0);
        if (b.rank == a3)
            exit(a2);
        wait_forever();
    } else if (!strcmp(mode, "segv")) {
        CHECK(mica_boot_fence() == 0);
        if (b.rank == a2)
            raise(SIGSEGV);           /* not a null store: UBSan would report that instead */
        wait_forever();
    } else if (!strcmp(mode, "abort")) {
        CHECK(mica_boot_fence() == 0);
        if (b.rank == a3)
            mica_boot_abort(a2, "test abort: something went wrong");
        wait_forever();
    } else if (!strcmp(mode, "nofin")) {
        CHECK(mica_boot_fence() == 0);
        if (b.rank == a2)
            return 0;
        wait_forever();
    } else if (!strcmp(mode, "hang")) {
        pid_t c = fork();
        if (c == 0) {
            for (;;)
                pause();
        }
        record("child", c);
        printf("rank %d hanging\n", b.rank);
        fflush(stdout);
        for (;;)
            pause();
    } else if (!strcmp(mode, "lines")) {
        /* Pieces of a line in separate writes, with pauses, to tempt the
         * launcher into mixing lines of different ranks. */
        for (int i = 0; i < a2; i++) {
            char part[64];
            int n = snprintf(part, sizeof part, "rank %d line %d ", b.rank, i);
            CHECK(write(1, part, (size_t)n) == n);
            usleep(1000);
            CHECK(write(1, "end\n", 4) == 4);
        }
        CHECK(mica_boot_fence() == 0);
    } else if (!strcmp(mode, "info")) {
        printf("rank %d size %d jobid %s\n", b.rank, b.size, b.jobid);
        CHECK(mica_boot_fence() == 0);
    } else {
        fprintf(stderr, "rt_prog: unknown mode %s\n", mode);
        return 97;
    }
    CHECK(mica_boot_finalize() == 0);
    return 0;
}
