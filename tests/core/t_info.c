/* np: 1 */
/* Info objects: before MPI_Init, while active and after MPI_Finalize; insertion order, limits,
 * MPI_Info_get_string's buflen, MPI_INFO_ENV, MPI_Info_create_env, MPI_INFO_NULL, and errors
 * raised on MPI_COMM_SELF's handler. Communicator hints. */
#include <limits.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../check.h"

static int class_of(int rc)
{
    int c = -1;
    MPI_Error_class(rc, &c);
    return c;
}

#define CHECK_CLASS(call, cls)                                                                \
    do {                                                                                      \
        int rc_ = (call);                                                                     \
        CHECKF(class_of(rc_) == (cls), "%s gave class %d", #call, class_of(rc_));            \
    } while (0)

/* The value of key as a string ("" when absent, which the caller tells by flag). */
static const char *get(MPI_Info info, const char *key, int *flag)
{
    static char buf[MPI_MAX_INFO_VAL];
    int len = sizeof buf;
    buf[0] = '\0';
    CHECK(MPI_Info_get_string(info, key, &len, buf, flag) == MPI_SUCCESS);
    return buf;
}

static int self_handler_calls;
static void self_handler(MPI_Comm *comm, int *code, ...)
{
    (void)code;
    if (*comm == MPI_COMM_SELF)
        self_handler_calls++;
}

/* Create, fill, read, dup and free: what must work at any time. */
static void basics(void)
{
    MPI_Info info, copy;
    int flag = 0, n = -1;
    CHECK(MPI_Info_create(&info) == MPI_SUCCESS && info != MPI_INFO_NULL);
    CHECK(MPI_Info_get_nkeys(info, &n) == MPI_SUCCESS && n == 0);
    CHECK(MPI_Info_set(info, "b", "2") == MPI_SUCCESS);
    CHECK(MPI_Info_set(info, "a", "1") == MPI_SUCCESS);
    CHECK(strcmp(get(info, "a", &flag), "1") == 0 && flag);
    get(info, "zz", &flag);
    CHECK(!flag);
    CHECK(MPI_Info_dup(info, &copy) == MPI_SUCCESS && copy != info);
    CHECK(MPI_Info_set(info, "a", "changed") == MPI_SUCCESS);
    CHECK(strcmp(get(copy, "a", &flag), "1") == 0 && flag);
    CHECK(MPI_Info_get_nkeys(copy, &n) == MPI_SUCCESS && n == 2);
    CHECK(MPI_Info_free(&info) == MPI_SUCCESS && info == MPI_INFO_NULL);
    CHECK(MPI_Info_free(&copy) == MPI_SUCCESS && copy == MPI_INFO_NULL);
}

static void order_and_limits(void)
{
    MPI_Info info;
    char key[MPI_MAX_INFO_KEY + 1], value[MPI_MAX_INFO_VAL + 1];
    int n = -1, flag = 0;
    MPI_Info_create(&info);

    /* Keys keep their first insertion's place; setting again replaces the value only. */
    const char *keys[] = {"zeta", "alpha", "mid", "beta"};
    for (int i = 0; i < 4; i++)
        CHECK(MPI_Info_set(info, keys[i], "v") == MPI_SUCCESS);
    CHECK(MPI_Info_set(info, "alpha", "again") == MPI_SUCCESS);
    CHECK(MPI_Info_get_nkeys(info, &n) == MPI_SUCCESS && n == 4);
    for (int i = 0; i < 4; i++) {
        CHECK(MPI_Info_get_nthkey(info, i, key) == MPI_SUCCESS);
        CHECKF(strcmp(key, keys[i]) == 0, "key %d is %s", i, key);
    }
    CHECK(strcmp(get(info, "alpha", &flag), "again") == 0 && flag);
    CHECK_CLASS(MPI_Info_get_nthkey(info, 4, key), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Info_get_nthkey(info, -1, key), MPI_ERR_ARG);

    /* Deleting closes the gap; a missing key is MPI_ERR_INFO_NOKEY. */
    CHECK(MPI_Info_delete(info, "alpha") == MPI_SUCCESS);
    CHECK_CLASS(MPI_Info_delete(info, "alpha"), MPI_ERR_INFO_NOKEY);
    CHECK(MPI_Info_get_nkeys(info, &n) == MPI_SUCCESS && n == 3);
    CHECK(MPI_Info_get_nthkey(info, 1, key) == MPI_SUCCESS && strcmp(key, "mid") == 0);
    get(info, "alpha", &flag);
    CHECK(!flag);

    /* Keys: 1 .. MPI_MAX_INFO_KEY-1 characters. Values: 0 .. MPI_MAX_INFO_VAL-1. */
    memset(key, 'k', sizeof key);
    key[MPI_MAX_INFO_KEY - 1] = '\0';
    CHECK(MPI_Info_set(info, key, "longest key") == MPI_SUCCESS);
    CHECK(MPI_Info_get_nthkey(info, 3, value) == MPI_SUCCESS && strcmp(value, key) == 0);
    key[MPI_MAX_INFO_KEY - 1] = 'k';
    key[MPI_MAX_INFO_KEY] = '\0';
    CHECK_CLASS(MPI_Info_set(info, key, "v"), MPI_ERR_INFO_KEY);
    CHECK_CLASS(MPI_Info_get_valuelen(info, key, &n, &flag), MPI_ERR_INFO_KEY);
    CHECK_CLASS(MPI_Info_delete(info, key), MPI_ERR_INFO_KEY);
    CHECK_CLASS(MPI_Info_set(info, "", "v"), MPI_ERR_INFO_KEY);
    CHECK_CLASS(MPI_Info_set(info, NULL, "v"), MPI_ERR_INFO_KEY);
    memset(value, 'v', sizeof value);
    value[MPI_MAX_INFO_VAL - 1] = '\0';
    CHECK(MPI_Info_set(info, "long", value) == MPI_SUCCESS);
    CHECK(MPI_Info_get_valuelen(info, "long", &n, &flag) == MPI_SUCCESS && flag &&
          n == MPI_MAX_INFO_VAL - 1);
    value[MPI_MAX_INFO_VAL - 1] = 'v';
    value[MPI_MAX_INFO_VAL] = '\0';
    CHECK_CLASS(MPI_Info_set(info, "toolong", value), MPI_ERR_INFO_VALUE);
    CHECK_CLASS(MPI_Info_set(info, "null", NULL), MPI_ERR_INFO_VALUE);
    CHECK(MPI_Info_set(info, "empty", "") == MPI_SUCCESS);
    CHECK(strcmp(get(info, "empty", &flag), "") == 0 && flag);
    MPI_Info_free(&info);
}

static void reading_values(void)
{
    MPI_Info info;
    char buf[16];
    int len, flag, n;
    MPI_Info_create(&info);
    MPI_Info_set(info, "key", "0123456789");

    /* MPI_Info_get_string: buflen counts the terminator, is set to the length needed, and the
     * value is cut to fit; buflen 0 asks for the length only (value may be NULL). */
    len = 0, flag = 0;
    CHECK(MPI_Info_get_string(info, "key", &len, NULL, &flag) == MPI_SUCCESS && flag && len == 11);
    memset(buf, 'x', sizeof buf);
    len = 5;
    CHECK(MPI_Info_get_string(info, "key", &len, buf, &flag) == MPI_SUCCESS && flag);
    CHECKF(len == 11 && strcmp(buf, "0123") == 0 && buf[5] == 'x', "len=%d buf=%s", len, buf);
    len = 11;
    CHECK(MPI_Info_get_string(info, "key", &len, buf, &flag) == MPI_SUCCESS && flag);
    CHECK(len == 11 && strcmp(buf, "0123456789") == 0);
    len = 1;
    CHECK(MPI_Info_get_string(info, "key", &len, buf, &flag) == MPI_SUCCESS && buf[0] == '\0');
    strcpy(buf, "keep");
    len = sizeof buf, flag = 1;
    CHECK(MPI_Info_get_string(info, "absent", &len, buf, &flag) == MPI_SUCCESS && !flag);
    CHECK(strcmp(buf, "keep") == 0);
    len = -1;
    CHECK_CLASS(MPI_Info_get_string(info, "key", &len, buf, &flag), MPI_ERR_ARG);
    len = 4;
    CHECK_CLASS(MPI_Info_get_string(info, "key", &len, NULL, &flag), MPI_ERR_ARG);

    /* MPI_Info_get: valuelen counts characters, the buffer has one more. */
    memset(buf, 'x', sizeof buf);
    CHECK(MPI_Info_get(info, "key", 4, buf, &flag) == MPI_SUCCESS && flag);
    CHECK(strcmp(buf, "0123") == 0 && buf[5] == 'x');
    CHECK(MPI_Info_get(info, "key", sizeof buf - 1, buf, &flag) == MPI_SUCCESS);
    CHECK(strcmp(buf, "0123456789") == 0);
    CHECK(MPI_Info_get(info, "absent", 4, buf, &flag) == MPI_SUCCESS && !flag);
    CHECK_CLASS(MPI_Info_get(info, "key", -1, buf, &flag), MPI_ERR_ARG);
    CHECK(MPI_Info_get_valuelen(info, "key", &n, &flag) == MPI_SUCCESS && flag && n == 10);
    n = -7;
    CHECK(MPI_Info_get_valuelen(info, "absent", &n, &flag) == MPI_SUCCESS && !flag && n == -7);
    MPI_Info_free(&info);
}

static void null_and_predefined(void)
{
    MPI_Info info = MPI_INFO_NULL, env = MPI_INFO_ENV, stale;
    char key[MPI_MAX_INFO_KEY];
    int n, flag, len = 4;

    /* MPI_INFO_NULL is no info object. */
    CHECK_CLASS(MPI_Info_set(MPI_INFO_NULL, "k", "v"), MPI_ERR_INFO);
    CHECK_CLASS(MPI_Info_get_nkeys(MPI_INFO_NULL, &n), MPI_ERR_INFO);
    CHECK_CLASS(MPI_Info_get_nthkey(MPI_INFO_NULL, 0, key), MPI_ERR_INFO);
    CHECK_CLASS(MPI_Info_get_string(MPI_INFO_NULL, "k", &len, key, &flag), MPI_ERR_INFO);
    CHECK_CLASS(MPI_Info_delete(MPI_INFO_NULL, "k"), MPI_ERR_INFO);
    CHECK_CLASS(MPI_Info_dup(MPI_INFO_NULL, &info), MPI_ERR_INFO);
    CHECK_CLASS(MPI_Info_free(&info), MPI_ERR_INFO);
    CHECK_CLASS(MPI_Info_set((MPI_Info)MPI_COMM_WORLD, "k", "v"), MPI_ERR_INFO);
    CHECK_CLASS(MPI_Info_create(NULL), MPI_ERR_ARG);

    /* A freed info is no longer valid. */
    MPI_Info_create(&stale);
    info = stale;
    MPI_Info_free(&info);
    CHECK_CLASS(MPI_Info_get_nkeys(stale, &n), MPI_ERR_INFO);

    /* MPI_INFO_ENV is readable, read-only and cannot be freed. */
    CHECK(MPI_Info_get_nkeys(MPI_INFO_ENV, &n) == MPI_SUCCESS && n >= 4);
    CHECK_CLASS(MPI_Info_free(&env), MPI_ERR_INFO);
    CHECK(env == MPI_INFO_ENV);
    CHECK_CLASS(MPI_Info_set(MPI_INFO_ENV, "k", "v"), MPI_ERR_INFO);
    CHECK_CLASS(MPI_Info_delete(MPI_INFO_ENV, "maxprocs"), MPI_ERR_INFO);
    CHECK(MPI_Info_dup(MPI_INFO_ENV, &info) == MPI_SUCCESS);
    CHECK(MPI_Info_get_nkeys(info, &flag) == MPI_SUCCESS && flag == n);
    CHECK(MPI_Info_set(info, "k", "v") == MPI_SUCCESS);    /* the copy is the user's */
    MPI_Info_free(&info);
}

/* The environment's keys hold what this process knows. */
static void check_env(MPI_Info env, const char *command, int size)
{
    char host[256], cwd[PATH_MAX];
    int flag;
    CHECK(atoi(get(env, "maxprocs", &flag)) == size && flag);
    gethostname(host, sizeof host);
    CHECK(strcmp(get(env, "host", &flag), host) == 0 && flag);
    CHECK(getcwd(cwd, sizeof cwd) && strcmp(get(env, "wdir", &flag), cwd) == 0 && flag);
    get(env, "arch", &flag);
    CHECK(flag);
    CHECK(strncmp(get(env, "thread_level", &flag), "MPI_THREAD_", 11) == 0 && flag);
    const char *c = get(env, "command", &flag);
    CHECKF(command ? flag && strcmp(c, command) == 0 : !flag, "command=%s", c);
}

static void environment(int argc, char **argv, int size)
{
    MPI_Info info;
    int flag;
    check_env(MPI_INFO_ENV, argv[0], size);
    CHECK(MPI_Info_create_env(argc, argv, &info) == MPI_SUCCESS);
    check_env(info, argv[0], size);
    MPI_Info_free(&info);

    char *args[] = {"prog", "one", "two words", NULL};
    CHECK(MPI_Info_create_env(3, args, &info) == MPI_SUCCESS);
    check_env(info, "prog", size);
    CHECK(strcmp(get(info, "argv", &flag), "one two words") == 0 && flag);
    MPI_Info_free(&info);

    CHECK(MPI_Info_create_env(0, NULL, &info) == MPI_SUCCESS);
    check_env(info, NULL, size);
    get(info, "argv", &flag);
    CHECK(!flag);
    MPI_Info_free(&info);
}

static void comm_hints(void)
{
    MPI_Info info, used;
    MPI_Comm dup;
    int n = -1;
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_assert_no_any_tag", "true");
    CHECK(MPI_Comm_set_info(MPI_COMM_WORLD, info) == MPI_SUCCESS);
    CHECK_CLASS(MPI_Comm_set_info(MPI_COMM_WORLD, MPI_INFO_NULL), MPI_ERR_INFO);
    /* Hints Mica ignores are not returned: the info used is a new, valid and empty object. */
    CHECK(MPI_Comm_get_info(MPI_COMM_WORLD, &used) == MPI_SUCCESS && used != info);
    CHECK(MPI_Info_get_nkeys(used, &n) == MPI_SUCCESS && n == 0);
    CHECK(MPI_Info_free(&used) == MPI_SUCCESS);
    CHECK(MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &dup) == MPI_SUCCESS);
    CHECK(MPI_Comm_get_info(dup, &used) == MPI_SUCCESS && MPI_Info_free(&used) == MPI_SUCCESS);
    CHECK(MPI_Comm_free(&dup) == MPI_SUCCESS);
    CHECK_CLASS(MPI_Comm_get_info(MPI_COMM_NULL, &used), MPI_ERR_COMM);
    MPI_Info_free(&info);
}

int main(int argc, char **argv)
{
    int size, flag;
    MPI_Info early, late;

    /* Before MPI_Init: info objects work, and MPI_INFO_ENV knows one process. */
    basics();
    CHECK(MPI_Info_create(&early) == MPI_SUCCESS && MPI_Info_set(early, "k", "v") == MPI_SUCCESS);
    CHECK(atoi(get(MPI_INFO_ENV, "maxprocs", &flag)) == 1 && flag);

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    CHECK(strcmp(get(early, "k", &flag), "v") == 0 && flag);

    basics();
    order_and_limits();
    reading_values();
    null_and_predefined();
    environment(argc, argv, size);
    comm_hints();

    /* Errors of info functions, which have no communicator, go to MPI_COMM_SELF's handler. */
    MPI_Errhandler eh;
    MPI_Comm_create_errhandler(self_handler, &eh);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, eh);
    CHECK_CLASS(MPI_Info_delete(early, "absent"), MPI_ERR_INFO_NOKEY);
    CHECK(self_handler_calls == 1);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&eh);

    MPI_Finalize();

    /* After MPI_Finalize: still valid. */
    basics();
    CHECK(MPI_Info_dup(early, &late) == MPI_SUCCESS);
    CHECK(strcmp(get(late, "k", &flag), "v") == 0 && flag);
    CHECK(atoi(get(MPI_INFO_ENV, "maxprocs", &flag)) == size && flag);
    CHECK(MPI_Info_free(&late) == MPI_SUCCESS && MPI_Info_free(&early) == MPI_SUCCESS);
    return CHECK_RESULT();
}
