/* Singleton bootstrap: no process manager in the environment, so the
 * process is rank 0 of 1 and the key-value store is local.
 * Build: cc -I src/runtime tests/runtime/client_singleton.c src/runtime/pmi.c */
#include "boot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHECK(c)                                                              \
    do {                                                                      \
        if (!(c)) {                                                           \
            fprintf(stderr, "client_singleton: FAIL line %d: %s\n", __LINE__, #c); \
            exit(1);                                                          \
        }                                                                     \
    } while (0)

int main(void)
{
    unsetenv("PMI_FD");
    unsetenv("PMI_PORT");
    unsetenv("PMI_ID");

    fprintf(stderr, "client_singleton: error messages from the client are expected below\n");
    /* The API refuses use before init. */
    char got[64];
    CHECK(mica_boot_put("k", "v") == -1);
    CHECK(mica_boot_get(0, "k", got, sizeof got) == -1);

    mica_boot_t b, again;
    CHECK(mica_boot_init(&b) == 0);
    CHECK(b.rank == 0 && b.size == 1 && b.singleton == 1 && b.universe_size == 1);
    CHECK(b.jobid[0] == 's');
    for (const char *p = b.jobid; *p; p++)
        CHECK(strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-", *p));
    CHECK(b.key_max > 8 && b.val_max >= 1023);
    CHECK(mica_boot_init(&again) == 0 && memcmp(&b, &again, sizeof b) == 0);

    CHECK(mica_boot_put("addr", "0a0b0c0d=") == 0);
    CHECK(mica_boot_fence() == 0);
    CHECK(mica_boot_get(0, "addr", got, sizeof got) == 0 && strcmp(got, "0a0b0c0d=") == 0);
    CHECK(mica_boot_put("addr", "replaced") == 0);
    CHECK(mica_boot_get(0, "addr", got, sizeof got) == 0 && strcmp(got, "replaced") == 0);
    CHECK(mica_boot_get(0, "missing", got, sizeof got) == 1);
    CHECK(mica_boot_get(1, "addr", got, sizeof got) == -1);    /* no rank 1 */
    CHECK(mica_boot_get(0, "addr", got, 4) == -1);             /* buffer too small */

    /* What cannot travel in a PMI-1 line is refused, not mangled. */
    CHECK(mica_boot_put("k", "two words") == -1);
    CHECK(mica_boot_put("k", "") == -1);
    CHECK(mica_boot_put("k", "back\\slash") == -1);
    CHECK(mica_boot_put("key with space", "v") == -1);

    /* Abort exits with the code, even as a singleton. */
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0)
        mica_boot_abort(7, "expected abort from client_singleton");
    int st;
    CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 7);

    CHECK(mica_boot_finalize() == 0);
    CHECK(mica_boot_fence() == -1);  /* finalized */
    printf("client_singleton: ok (jobid %s)\n", b.jobid);
    return 0;
}
