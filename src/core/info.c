/* Info objects (MPI_Info_*), MPI_INFO_ENV and MPI_Info_create_env.
 *
 * An info object keeps its entries in an array, in the order their keys were first set, so
 * MPI_Info_get_nthkey numbers them stably. Info functions are valid at any time, even before
 * MPI_Init and after MPI_Finalize: their objects come from the arena, which needs no MPI_Init. */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "core/comm.h"
#include "core/errors.h"
#include "core/info.h"
#include "core/state.h"
#include "core_api.h"

mica_info_t mica_info_env = {.obj = {.tag = MICA_TAG | MICA_INFO, .handle = (uintptr_t)MPI_INFO_ENV}};

static int find(const mica_info_t *info, const char *key)
{
    for (int i = 0; i < info->n; i++)
        if (!strcmp(info->entries[i].key, key))
            return i;
    return -1;
}

static void clear(mica_info_t *info)
{
    for (int i = 0; i < info->n; i++)
        free(info->entries[i].key);
    free(info->entries);
    info->entries = NULL;
    info->n = info->cap = 0;
}

int mica_info_put(mica_info_t *info, const char *key, const char *value)
{
    size_t klen = strlen(key), vlen = strlen(value);
    char *kv = malloc(klen + vlen + 2);
    if (!kv)
        return mica_error(MPI_ERR_NO_MEM, "no memory for the value of key \"%s\"", key);
    memcpy(kv, key, klen + 1);
    memcpy(kv + klen + 1, value, vlen + 1);
    mica_info_entry_t e = {.key = kv, .value = kv + klen + 1, .value_len = vlen};
    int i = find(info, key);
    if (i >= 0) {
        free(info->entries[i].key);
        info->entries[i] = e;
        return MPI_SUCCESS;
    }
    if (info->n == info->cap) {
        int cap = info->cap ? 2 * info->cap : 8;
        mica_info_entry_t *entries = realloc(info->entries, cap * sizeof *entries);
        if (!entries) {
            free(kv);
            return mica_error(MPI_ERR_NO_MEM, "no memory for key \"%s\"", key);
        }
        info->entries = entries;
        info->cap = cap;
    }
    info->entries[info->n++] = e;
    return MPI_SUCCESS;
}

int mica_info_new(MPI_Info *handle)
{
    mica_info_t *info = mica_obj_new(MICA_INFO, sizeof *info);
    if (!info)
        return mica_error(MPI_ERR_NO_MEM, "no memory for an info object");
    *handle = (MPI_Info)info->obj.handle;
    return MPI_SUCCESS;
}

static void release(mica_info_t *info)
{
    clear(info);
    mica_obj_free(info);
}

static int check_key(const char *key)
{
    if (!key)
        return mica_error(MPI_ERR_INFO_KEY, "key is NULL");
    size_t len = strnlen(key, MPI_MAX_INFO_KEY);
    if (!len)
        return mica_error(MPI_ERR_INFO_KEY, "key is empty");
    if (len == MPI_MAX_INFO_KEY)
        return mica_error(MPI_ERR_INFO_KEY, "key is longer than MPI_MAX_INFO_KEY-1 (%d) characters",
                          MPI_MAX_INFO_KEY - 1);
    return MPI_SUCCESS;
}

/* ---- MPI_INFO_ENV and MPI_Info_create_env ---- */

static const char *thread_level_name(int level)
{
    switch (level) {
    case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    case MPI_THREAD_MULTIPLE: return "MPI_THREAD_MULTIPLE";
    default: return "MPI_THREAD_SINGLE";
    }
}

/* The standard's environment keys this process knows: command and argv from argc/argv (left out
 * when not given), maxprocs (the world's size; 1 before MPI_Init), host, arch, wdir and
 * thread_level. soft and file describe mpiexec options Mica's launcher does not take. */
static int fill_env(mica_info_t *info, int argc, char **argv)
{
    char value[MPI_MAX_INFO_VAL];
    int rc = MPI_SUCCESS;
    if (argc > 0 && argv[0])
        rc |= mica_info_put(info, "command", argv[0]);
    if (argc > 1 && argv[1]) {
        /* Space-separated; an argument list too long for a value is cut at the limit. */
        size_t len = 0;
        value[0] = '\0';
        for (int i = 1; i < argc && argv[i] && len < sizeof value - 1; i++)
            len += snprintf(value + len, sizeof value - len, "%s%s", i > 1 ? " " : "", argv[i]);
        rc |= mica_info_put(info, "argv", value);
    }
    snprintf(value, sizeof value, "%d", mica_phase == MICA_BEFORE ? 1 : mica_comm_world.size);
    rc |= mica_info_put(info, "maxprocs", value);
    if (!gethostname(value, sizeof value)) {
        value[sizeof value - 1] = '\0';
        rc |= mica_info_put(info, "host", value);
    }
    struct utsname u;
    if (!uname(&u))
        rc |= mica_info_put(info, "arch", u.machine);
    char cwd[PATH_MAX];
    if (getcwd(cwd, sizeof cwd) && strlen(cwd) < MPI_MAX_INFO_VAL)
        rc |= mica_info_put(info, "wdir", cwd);
    rc |= mica_info_put(info, "thread_level", thread_level_name(mica_thread_level));
    return rc ? mica_error(MPI_ERR_NO_MEM, "no memory for the environment's info") : MPI_SUCCESS;
}

/* The process's own command line, as MPI_Init's argc/argv would have it (Fortran programs and
 * MPI_Init(NULL, NULL) included); *buf holds the strings. */
static int command_line(char **buf, char ***argv)
{
    *buf = NULL;
    *argv = NULL;
    FILE *f = fopen("/proc/self/cmdline", "r");
    if (!f)
        return 0;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + 1 >= cap) {
            char *b = realloc(*buf, cap = cap ? 2 * cap : 4096);
            if (!b)
                break;
            *buf = b;
        }
        size_t got = fread(*buf + len, 1, cap - len - 1, f);
        if (!got)
            break;
        len += got;
    }
    fclose(f);
    int argc = 0;
    if (!*buf || !len)
        return 0;
    (*buf)[len] = '\0';
    for (size_t i = 0; i < len; i += strlen(*buf + i) + 1)
        argc++;
    if (!(*argv = malloc((argc + 1) * sizeof **argv)))
        return 0;
    argc = 0;
    for (size_t i = 0; i < len; i += strlen(*buf + i) + 1)
        (*argv)[argc++] = *buf + i;
    (*argv)[argc] = NULL;
    return argc;
}

/* MPI_INFO_ENV's contents, built when first read and once more when first read after MPI_Init
 * (maxprocs and thread_level are known then). A replaced snapshot is not freed: another thread
 * may still be reading it. */
static struct {
    pthread_mutex_t lock;
    mica_info_t *contents;
    enum mica_phase built;
} env = {.lock = PTHREAD_MUTEX_INITIALIZER};

static mica_info_t *env_contents(void)
{
    pthread_mutex_lock(&env.lock);
    if (!env.contents || (env.built == MICA_BEFORE && mica_phase != MICA_BEFORE)) {
        mica_info_t *t = calloc(1, sizeof *t);
        char *buf, **argv;
        int argc = command_line(&buf, &argv);
        if (t && fill_env(t, argc, argv) == MPI_SUCCESS) {
            env.contents = t;
            env.built = mica_phase;
        } else if (t) {
            clear(t);
            free(t);
        }
        free(argv);
        free(buf);
    }
    mica_info_t *t = env.contents;
    pthread_mutex_unlock(&env.lock);
    return t;
}

int mica_info_create_env(int argc, char *argv[], MPI_Info *info)
{
    if (argc < 0)
        return mica_error(MPI_ERR_ARG, "argc=%d is negative", argc);
    if (argc > 0 && !argv)
        return mica_error(MPI_ERR_ARG, "argv is NULL but argc=%d", argc);
    MPI_Info h = MPI_INFO_NULL;
    int rc = mica_info_new(&h);
    if (rc != MPI_SUCCESS)
        return rc;
    mica_info_t *i = mica_info_lookup(h);
    if ((rc = fill_env(i, argc, argv)) != MPI_SUCCESS) {
        release(i);
        return rc;
    }
    *info = h;
    return MPI_SUCCESS;
}

/* ---- Access ---- */

/* The object to read: MPI_INFO_NULL (NULL here) is no info object; MPI_INFO_ENV reads its
 * current contents. */
static int readable(mica_info_t **info)
{
    if (!*info)
        return mica_bad_handle(MICA_INFO, MPI_INFO_NULL, "info");
    if (*info == &mica_info_env && !(*info = env_contents()))
        return mica_error(MPI_ERR_NO_MEM, "no memory for MPI_INFO_ENV's contents");
    return MPI_SUCCESS;
}

/* MPI_INFO_ENV describes the environment; it is not the user's to change (MPI Forum issue 815
 * proposes making that erroneous). */
static int writable(mica_info_t *info)
{
    if (!info)
        return mica_bad_handle(MICA_INFO, MPI_INFO_NULL, "info");
    if (info == &mica_info_env)
        return mica_error(MPI_ERR_INFO, "info is MPI_INFO_ENV, which cannot be modified");
    return MPI_SUCCESS;
}

const char *mica_info_value(mica_info_t *info, const char *key)
{
    if (readable(&info) != MPI_SUCCESS)
        return NULL;
    int i = find(info, key);
    return i < 0 ? NULL : info->entries[i].value;
}

int mica_info_create(MPI_Info *info)
{
    return mica_info_new(info);
}

int mica_info_free(MPI_Info *info)
{
    mica_info_t *i = mica_info_lookup(*info);
    if (i == &mica_info_env)
        return mica_error(MPI_ERR_INFO, "*info is MPI_INFO_ENV, a predefined info object that "
                          "cannot be freed");
    release(i);
    *info = MPI_INFO_NULL;
    return MPI_SUCCESS;
}

int mica_info_dup(mica_info_t *info, MPI_Info *newinfo)
{
    int rc = readable(&info);
    MPI_Info h = MPI_INFO_NULL;
    if (rc != MPI_SUCCESS || (rc = mica_info_new(&h)) != MPI_SUCCESS)
        return rc;
    mica_info_t *copy = mica_info_lookup(h);
    for (int i = 0; i < info->n && rc == MPI_SUCCESS; i++)
        rc = mica_info_put(copy, info->entries[i].key, info->entries[i].value);
    if (rc != MPI_SUCCESS) {
        release(copy);
        return rc;
    }
    *newinfo = h;
    return MPI_SUCCESS;
}

int mica_info_set(mica_info_t *info, const char *key, const char *value)
{
    int rc = writable(info);
    if (rc != MPI_SUCCESS || (rc = check_key(key)) != MPI_SUCCESS)
        return rc;
    if (!value)
        return mica_error(MPI_ERR_INFO_VALUE, "value is NULL");
    /* An empty value is a value (MPI 5.0 gives "" a meaning for mpi_memory_alloc_kinds). */
    if (strnlen(value, MPI_MAX_INFO_VAL) == MPI_MAX_INFO_VAL)
        return mica_error(MPI_ERR_INFO_VALUE, "value is longer than MPI_MAX_INFO_VAL-1 (%d) "
                          "characters", MPI_MAX_INFO_VAL - 1);
    return mica_info_put(info, key, value);
}

int mica_info_delete(mica_info_t *info, const char *key)
{
    int rc = writable(info);
    if (rc != MPI_SUCCESS || (rc = check_key(key)) != MPI_SUCCESS)
        return rc;
    int i = find(info, key);
    if (i < 0)
        return mica_error(MPI_ERR_INFO_NOKEY, "key \"%s\" is not in info", key);
    free(info->entries[i].key);
    memmove(&info->entries[i], &info->entries[i + 1], (info->n - i - 1) * sizeof *info->entries);
    info->n--;
    return MPI_SUCCESS;
}

/* The entry of `key`, or NULL when absent; validates info and key first. */
static int lookup_key(mica_info_t **info, const char *key, const mica_info_entry_t **e)
{
    int rc = readable(info);
    if (rc != MPI_SUCCESS || (rc = check_key(key)) != MPI_SUCCESS)
        return rc;
    int i = find(*info, key);
    *e = i < 0 ? NULL : &(*info)->entries[i];
    return MPI_SUCCESS;
}

int mica_info_get(mica_info_t *info, const char *key, int valuelen, char *value, int *flag)
{
    const mica_info_entry_t *e;
    int rc = lookup_key(&info, key, &e);
    if (rc != MPI_SUCCESS)
        return rc;
    if (valuelen < 0)
        return mica_error(MPI_ERR_ARG, "valuelen=%d is negative", valuelen);
    *flag = e != NULL;
    if (e) {
        /* valuelen counts characters; the buffer has one more for the terminator. */
        size_t n = e->value_len < (size_t)valuelen ? e->value_len : (size_t)valuelen;
        memcpy(value, e->value, n);
        value[n] = '\0';
    }
    return MPI_SUCCESS;
}

int mica_info_get_string(mica_info_t *info, const char *key, int *buflen, char *value, int *flag)
{
    const mica_info_entry_t *e;
    int rc = lookup_key(&info, key, &e);
    if (rc != MPI_SUCCESS)
        return rc;
    if (*buflen < 0)
        return mica_error(MPI_ERR_ARG, "*buflen=%d is negative", *buflen);
    if (*buflen > 0 && !value)
        return mica_error(MPI_ERR_ARG, "value is NULL but *buflen=%d", *buflen);
    *flag = e != NULL;
    if (!e)
        return MPI_SUCCESS;
    /* buflen counts the terminator too; the value is cut to fit, and *buflen tells what fits all. */
    if (*buflen > 0) {
        size_t n = e->value_len < (size_t)*buflen - 1 ? e->value_len : (size_t)*buflen - 1;
        memcpy(value, e->value, n);
        value[n] = '\0';
    }
    *buflen = (int)e->value_len + 1;
    return MPI_SUCCESS;
}

int mica_info_get_valuelen(mica_info_t *info, const char *key, int *valuelen, int *flag)
{
    const mica_info_entry_t *e;
    int rc = lookup_key(&info, key, &e);
    if (rc != MPI_SUCCESS)
        return rc;
    *flag = e != NULL;
    if (e)
        *valuelen = (int)e->value_len;
    return MPI_SUCCESS;
}

int mica_info_get_nkeys(mica_info_t *info, int *nkeys)
{
    int rc = readable(&info);
    if (rc == MPI_SUCCESS)
        *nkeys = info->n;
    return rc;
}

int mica_info_get_nthkey(mica_info_t *info, int n, char *key)
{
    int rc = readable(&info);
    if (rc != MPI_SUCCESS)
        return rc;
    if (n < 0 || n >= info->n)
        return mica_error(MPI_ERR_ARG, "n=%d is not the index of a key (the info has %d)", n, info->n);
    strcpy(key, info->entries[n].key);
    return MPI_SUCCESS;
}
