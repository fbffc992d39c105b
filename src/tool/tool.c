/* MPI_T: initialization (a counter: MPI_T_init_thread and MPI_T_finalize nest), the tool's
 * lock, strings, and the enumerations of the enum tunables. */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "core/tunables.h"
#include "core_api.h"
#include "tool/tool.h"

/* Recursive: an event callback, called with it held, may call MPI_T functions. Taken after
 * the big lock, never before (the bindings, and event delivery under the big lock). */
static pthread_mutex_t tool_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static int init_count;

void mica_t_enter(void)
{
    pthread_mutex_lock(&tool_lock);
}

void mica_t_leave(void)
{
    pthread_mutex_unlock(&tool_lock);
}

int mica_t_active(void)
{
    return init_count > 0;
}

int mica_t_init_thread(int required, int *provided)
{
    if (!provided)
        return MPI_T_ERR_INVALID;
    if (required != MPI_THREAD_SINGLE && required != MPI_THREAD_FUNNELED &&
        required != MPI_THREAD_SERIALIZED && required != MPI_THREAD_MULTIPLE)
        return MPI_T_ERR_INVALID;
    if (!init_count++) {
        mica_tunables_read();         /* the control variables show MICA_<NAME> before MPI_Init */
        mica_t_pvar_setup();
        mica_t_event_setup();
    }
    *provided = required;             /* every level: the tool's lock serialises its calls */
    return MPI_SUCCESS;
}

int mica_t_finalize(void)
{
    MICA_T_CHECK_INIT();
    if (!--init_count) {
        mica_t_cvar_free_all();
        mica_t_pvar_free_all();
        mica_t_event_free_all();
    }
    return MPI_SUCCESS;
}

void mica_t_string(const char *s, char *buf, int *len)
{
    if (!len)
        return;
    int full = (int)strlen(s) + 1;
    if (!buf || *len <= 0) {
        *len = full;
        return;
    }
    int n = full < *len ? full : *len;
    memcpy(buf, s, (size_t)n - 1);
    buf[n - 1] = '\0';
    *len = n;
}

int mica_t_new_info(MPI_Info *info)
{
    if (info && mica_info_create(info) != MPI_SUCCESS)
        return MPI_T_ERR_MEMORY;
    return MPI_SUCCESS;
}

/* --- enumerations: one an enum tunable, its words the items, valued 0, 1, ... ------------ */

/* An MPI_T_enum is the address of its tunable's row; checked against the table before use. */
MPI_T_enum mica_t_enum_of_tunable(int tunable)
{
    const mica_tunable_t *t = &mica_tunable_table[tunable];
    return t->type == MICA_TUNABLE_ENUM ? (MPI_T_enum)(void *)(uintptr_t)t : MPI_T_ENUM_NULL;
}

static const mica_tunable_t *enum_tunable(MPI_T_enum e)
{
    for (int i = 0; i < mica_tunable_count; i++)
        if (e != MPI_T_ENUM_NULL && mica_t_enum_of_tunable(i) == e)
            return &mica_tunable_table[i];
    return NULL;
}

static int word_count(const char *values)
{
    int n = 1;
    for (const char *p = values; *p; p++)
        n += *p == '|';
    return n;
}

int mica_t_enum_get_info(MPI_T_enum enumtype, int *num, char *name, int *name_len)
{
    MICA_T_CHECK_INIT();
    const mica_tunable_t *t = enum_tunable(enumtype);
    if (!t)
        return MPI_T_ERR_INVALID_HANDLE;
    if (num)
        *num = word_count(t->values);
    char buf[64];
    size_t i = 0;
    for (; t->name[i] && i < sizeof buf - 1; i++)
        buf[i] = (char)(t->name[i] >= 'A' && t->name[i] <= 'Z' ? t->name[i] + 32 : t->name[i]);
    buf[i] = '\0';
    mica_t_string(buf, name, name_len);   /* e.g. bcast_algorithm */
    return MPI_SUCCESS;
}

int mica_t_enum_get_item(MPI_T_enum enumtype, int indx, int *value, char *name, int *name_len)
{
    MICA_T_CHECK_INIT();
    const mica_tunable_t *t = enum_tunable(enumtype);
    if (!t)
        return MPI_T_ERR_INVALID_HANDLE;
    if (indx < 0 || indx >= word_count(t->values))
        return MPI_T_ERR_INVALID_ITEM;
    const char *p = t->values;
    for (int i = 0; i < indx; i++)
        p = strchr(p, '|') + 1;
    char buf[64];
    size_t n = strcspn(p, "|");
    if (n >= sizeof buf)
        n = sizeof buf - 1;
    memcpy(buf, p, n);
    buf[n] = '\0';
    if (value)
        *value = indx;
    mica_t_string(buf, name, name_len);
    return MPI_SUCCESS;
}
