/* The bootstrap client against a scripted PMI-1 server: checks the exact
 * lines it sends and that it understands the answers, over PMI_FD and over
 * PMI_PORT (both the Hydra 4.0 "initack + set lines" handshake and the
 * later single-line initack), plus error paths.
 * Build: cc -I src/runtime tests/runtime/client_wire.c src/runtime/pmi.c */
#include "boot.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHECK(c)                                                           \
    do {                                                                   \
        if (!(c)) {                                                        \
            fprintf(stderr, "client_wire: FAIL line %d: %s\n", __LINE__, #c);   \
            exit(1);                                                       \
        }                                                                  \
    } while (0)

/* Child checks report their line number as exit status. */
#define CCHECK(c)                                                          \
    do {                                                                   \
        if (!(c)) {                                                        \
            fprintf(stderr, "client_wire: client check failed line %d: %s\n", __LINE__, #c); \
            _exit(100);                                                    \
        }                                                                  \
    } while (0)

static const char *common_init[] = {
    "cmd=init pmi_version=1 pmi_subversion=1",
    "cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0\n",
    "cmd=get_maxes", "cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=1024\n",
    "cmd=get_my_kvsname", "cmd=my_kvsname kvsname=kvs_77_0.host:x\n",
    "cmd=get_appnum", "cmd=appnum appnum=0\n",
    "cmd=get_universe_size", "cmd=universe_size size=-1\n",
};

/* Plays the server: for each pair, read one request, compare it, send the
 * reply (if any). */
static void serve(int fd, const char **script, int n)
{
    FILE *in = fdopen(dup(fd), "r");
    CHECK(in);
    char line[4096];
    for (int i = 0; i < n; i += 2) {
        CHECK(fgets(line, sizeof line, in));
        line[strcspn(line, "\n")] = '\0';
        if (strcmp(line, script[i]) != 0) {
            fprintf(stderr, "client_wire: expected \"%s\"\n        got      \"%s\"\n", script[i],
                    line);
            exit(1);
        }
        if (script[i + 1])
            CHECK(write(fd, script[i + 1], strlen(script[i + 1])) ==
                  (ssize_t)strlen(script[i + 1]));
    }
    fclose(in);
}

static int wait_child(pid_t pid)
{
    int st;
    CHECK(waitpid(pid, &st, 0) == pid);
    CHECK(WIFEXITED(st));
    return WEXITSTATUS(st);
}

static void clear_env(void)
{
    unsetenv("PMI_FD");
    unsetenv("PMI_PORT");
    unsetenv("PMI_ID");
    unsetenv("PMI_RANK");
    unsetenv("PMI_SIZE");
}

/* PMI_FD: the whole exchange, ending in an abort. */
static void test_fd(void)
{
    int sv[2];
    CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        close(sv[0]);
        char num[16];
        snprintf(num, sizeof num, "%d", sv[1]);
        clear_env();
        setenv("PMI_FD", num, 1);
        setenv("PMI_RANK", "2", 1);
        setenv("PMI_SIZE", "3", 1);
        mica_boot_t b;
        char got[64];
        CCHECK(mica_boot_init(&b) == 0);
        CCHECK(b.rank == 2 && b.size == 3 && b.appnum == 0 && b.universe_size == 3);
        CCHECK(strcmp(b.jobid, "kvs_77_0_host_x") == 0);
        CCHECK(b.key_max == 64 - 1 - 12 && b.val_max == 1023 && !b.singleton);
        CCHECK(mica_boot_put("a", "x=1") == 0);
        CCHECK(mica_boot_fence() == 0);
        CCHECK(mica_boot_get(1, "a", got, sizeof got) == 0 && strcmp(got, "y") == 0);
        CCHECK(mica_boot_get(0, "zz", got, sizeof got) == 1);
        CCHECK(mica_boot_get(0, "new", got, sizeof got) == 1);
        mica_boot_abort(3, "bad thing\\happened");
    }
    close(sv[1]);
    const char *script[] = {
        "cmd=put kvsname=kvs_77_0.host:x key=2:a value=x=1",
        "cmd=put_result rc=0 msg=success\n",
        "cmd=barrier_in", "cmd=barrier_out\n",
        "cmd=get kvsname=kvs_77_0.host:x key=1:a", "cmd=get_result rc=0 msg=success value=y\n",
        "cmd=get kvsname=kvs_77_0.host:x key=0:zz",
        "cmd=get_result rc=-1 msg=key_zz_not_found value=unknown\n",
        /* later MPICH servers say found=FALSE */
        "cmd=get kvsname=kvs_77_0.host:x key=0:new",
        "cmd=get_result rc=0 found=FALSE value=unknown\n",
        "cmd=abort exitcode=3 message=bad\\ thing\\\\happened", NULL,
    };
    serve(sv[0], common_init, 10);
    serve(sv[0], script, (int)(sizeof script / sizeof *script));
    CHECK(wait_child(pid) == 3);
    close(sv[0]);
}

static int listen_loopback(int *port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = { .sin_family = AF_INET };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    CHECK(fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof a) == 0 && listen(fd, 4) == 0);
    CHECK(getsockname(fd, (struct sockaddr *)&a, &len) == 0);
    *port = ntohs(a.sin_port);
    return fd;
}

/* PMI_PORT: handshake, then finalize. `initack` is the server's answer. */
static void test_port(const char *initack, int rank, int size)
{
    int port, lfd = listen_loopback(&port);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        close(lfd);
        char hp[64], id[16];
        snprintf(hp, sizeof hp, "localhost:%d", port);
        snprintf(id, sizeof id, "%d", rank);
        clear_env();
        setenv("PMI_PORT", hp, 1);
        setenv("PMI_ID", id, 1);
        mica_boot_t b;
        CCHECK(mica_boot_init(&b) == 0);
        CCHECK(b.rank == rank && b.size == size);
        CCHECK(mica_boot_fence() == 0);
        CCHECK(mica_boot_finalize() == 0);
        _exit(0);
    }
    int fd = accept(lfd, NULL, NULL);
    CHECK(fd >= 0);
    char expect[64];
    snprintf(expect, sizeof expect, "cmd=initack pmiid=%d", rank);
    const char *hs[] = { expect, initack };
    serve(fd, hs, 2);
    serve(fd, common_init, 10);
    const char *script[] = {
        "cmd=barrier_in", "cmd=barrier_out\n",
        "cmd=finalize", "cmd=finalize_ack\n",
    };
    serve(fd, script, 4);
    CHECK(wait_child(pid) == 0);
    close(fd);
    close(lfd);
}

/* Failures must come back as -1, not hang or crash. */
static void test_errors(void)
{
    /* PMI_FD without PMI_RANK/PMI_SIZE. */
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        clear_env();
        setenv("PMI_FD", "1", 1);
        mica_boot_t b;
        _exit(mica_boot_init(&b) == -1 ? 0 : 1);
    }
    CHECK(wait_child(pid) == 0);

    /* The server goes away in the middle of init. */
    int sv[2];
    CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
    pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        close(sv[0]);
        char num[16];
        snprintf(num, sizeof num, "%d", sv[1]);
        clear_env();
        setenv("PMI_FD", num, 1);
        setenv("PMI_RANK", "0", 1);
        setenv("PMI_SIZE", "1", 1);
        mica_boot_t b;
        _exit(mica_boot_init(&b) == -1 ? 0 : 1);
    }
    close(sv[1]);
    const char *script[] = { "cmd=init pmi_version=1 pmi_subversion=1", NULL };
    serve(sv[0], script, 2);
    close(sv[0]);
    CHECK(wait_child(pid) == 0);

    /* Nobody listening at PMI_PORT. */
    int port, lfd = listen_loopback(&port);
    close(lfd);
    pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        char hp[64];
        snprintf(hp, sizeof hp, "127.0.0.1:%d", port);
        clear_env();
        setenv("PMI_PORT", hp, 1);
        setenv("PMI_RANK", "0", 1);
        mica_boot_t b;
        _exit(mica_boot_init(&b) == -1 ? 0 : 1);
    }
    CHECK(wait_child(pid) == 0);
}

int main(void)
{
    fprintf(stderr, "client_wire: error messages from the client are expected below\n");
    test_fd();
    test_port("cmd=initack\ncmd=set size=8\ncmd=set rank=5\ncmd=set debug=0\n", 5, 8);
    test_port("cmd=initack rc=0 rank=1 size=2 appnum=0 debug=0\n", 1, 2);
    test_errors();
    printf("client_wire: ok\n");
    return 0;
}
