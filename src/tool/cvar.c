/* MPI_T control variables: one a row of the tunables' table (src/core/tunables.tsv, generated
 * into core/tunables.h), in its order, named MICA_<NAME> as its environment variable.
 *
 *   type    int and bool: MPI_INT; size: MPI_COUNT (a long in the library; auto is -1); enum:
 *           MPI_INT with an MPI_T_enum of its words (tool.c), valued 0, 1, ...
 *   scope   the table's: constant, readonly, local; group and all are MPI_T_SCOPE_GROUP_EQ and
 *           MPI_T_SCOPE_ALL_EQ (every process that uses one must set the same value)
 *   verbosity MPI_T_VERBOSITY_USER_BASIC (each is a documented environment variable);
 *   binding MPI_T_BIND_NO_OBJECT
 *
 * A read gives the field the library uses (auto: -1, the code decides each time). A write is
 * refused with MPI_T_ERR_CVAR_SET_NEVER for constant and readonly rows (read once, at
 * start-up); the others are read where they are used (the progress engine's backoff, the
 * collectives' choices), so a write takes effect at the next use. An int or size must be in
 * the row's range (or -1 where auto is allowed): else MPI_T_ERR_INVALID. An enum takes any
 * int: one that is none of its items acts as auto (the generated choice has no case for it), as
 * MPICH takes any value, so that a generic client (MPICH's mpi_t/cvarwrite) reads back what it
 * wrote. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/tunables.h"
#include "core_api.h"
#include "tool/tool.h"

typedef struct cvar_handle {
    struct cvar_handle *next;
    int index;
} cvar_handle_t;

static cvar_handle_t *handles;

void mica_t_cvar_free_all(void)
{
    while (handles) {
        cvar_handle_t *h = handles;
        handles = h->next;
        free(h);
    }
}

static void name_of(int i, char *buf, size_t len)
{
    snprintf(buf, len, "MICA_%s", mica_tunable_table[i].name);
}

int mica_t_cvars_of(const char *cat, int len, int *indices)
{
    int n = 0;
    for (int i = 0; i < mica_tunable_count; i++)
        if (!strcmp(mica_tunable_table[i].category, cat)) {
            if (indices && n < len)
                indices[n] = i;
            n++;
        }
    return n;
}

int mica_t_cvar_get_num(int *num_cvar)
{
    MICA_T_CHECK_INIT();
    if (num_cvar)
        *num_cvar = mica_tunable_count;
    return MPI_SUCCESS;
}

int mica_t_cvar_get_info(int cvar_index, char *name, int *name_len, int *verbosity,
                         MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int *desc_len,
                         int *bind, int *scope)
{
    MICA_T_CHECK_INIT();
    if (cvar_index < 0 || cvar_index >= mica_tunable_count)
        return MPI_T_ERR_INVALID_INDEX;
    const mica_tunable_t *t = &mica_tunable_table[cvar_index];
    char buf[64];
    name_of(cvar_index, buf, sizeof buf);
    mica_t_string(buf, name, name_len);
    mica_t_string(t->description, desc, desc_len);
    if (verbosity)
        *verbosity = MPI_T_VERBOSITY_USER_BASIC;
    if (datatype)
        *datatype = t->type == MICA_TUNABLE_SIZE ? MPI_COUNT : MPI_INT;
    if (enumtype)
        *enumtype = mica_t_enum_of_tunable(cvar_index);
    if (bind)
        *bind = MPI_T_BIND_NO_OBJECT;
    if (scope) {
        static const int scopes[] = {
            [MICA_TUNABLE_SCOPE_CONSTANT] = MPI_T_SCOPE_CONSTANT,
            [MICA_TUNABLE_SCOPE_READONLY] = MPI_T_SCOPE_READONLY,
            [MICA_TUNABLE_SCOPE_LOCAL] = MPI_T_SCOPE_LOCAL,
            [MICA_TUNABLE_SCOPE_GROUP] = MPI_T_SCOPE_GROUP_EQ,
            [MICA_TUNABLE_SCOPE_ALL] = MPI_T_SCOPE_ALL_EQ,
        };
        *scope = scopes[t->scope];
    }
    return MPI_SUCCESS;
}

int mica_t_cvar_get_index(const char *name, int *cvar_index)
{
    MICA_T_CHECK_INIT();
    if (!name || !cvar_index)
        return MPI_T_ERR_INVALID;
    for (int i = 0; i < mica_tunable_count; i++) {
        char buf[64];
        name_of(i, buf, sizeof buf);
        if (!strcmp(buf, name)) {
            *cvar_index = i;
            return MPI_SUCCESS;
        }
    }
    return MPI_T_ERR_INVALID_NAME;
}

int mica_t_cvar_handle_alloc(int cvar_index, void *obj_handle, MPI_T_cvar_handle *handle,
                             int *count)
{
    (void)obj_handle;                 /* every one binds to no object */
    MICA_T_CHECK_INIT();
    if (cvar_index < 0 || cvar_index >= mica_tunable_count)
        return MPI_T_ERR_INVALID_INDEX;
    if (!handle || !count)
        return MPI_T_ERR_INVALID;
    cvar_handle_t *h = malloc(sizeof *h);
    if (!h)
        return MPI_T_ERR_OUT_OF_HANDLES;
    h->index = cvar_index;
    h->next = handles;
    handles = h;
    *handle = (MPI_T_cvar_handle)(void *)h;
    *count = 1;
    return MPI_SUCCESS;
}

/* The handle's row, or NULL when it is not a live handle. */
static cvar_handle_t *lookup(MPI_T_cvar_handle handle)
{
    for (cvar_handle_t *h = handles; h; h = h->next)
        if ((MPI_T_cvar_handle)(void *)h == handle)
            return h;
    return NULL;
}

int mica_t_cvar_handle_free(MPI_T_cvar_handle *handle)
{
    MICA_T_CHECK_INIT();
    if (!handle)
        return MPI_T_ERR_INVALID;
    cvar_handle_t *h = lookup(*handle);
    if (!h)
        return MPI_T_ERR_INVALID_HANDLE;
    for (cvar_handle_t **p = &handles; *p; p = &(*p)->next)
        if (*p == h) {
            *p = h->next;
            break;
        }
    free(h);
    *handle = MPI_T_CVAR_HANDLE_NULL;
    return MPI_SUCCESS;
}

int mica_t_cvar_read(MPI_T_cvar_handle handle, void *buf)
{
    MICA_T_CHECK_INIT();
    cvar_handle_t *h = lookup(handle);
    if (!h)
        return MPI_T_ERR_INVALID_HANDLE;
    if (!buf)
        return MPI_T_ERR_INVALID;
    const mica_tunable_t *t = &mica_tunable_table[h->index];
    if (t->type == MICA_TUNABLE_SIZE)
        *(MPI_Count *)buf = *(const long *)t->value;
    else
        *(int *)buf = *(const int *)t->value;
    return MPI_SUCCESS;
}

int mica_t_cvar_write(MPI_T_cvar_handle handle, const void *buf)
{
    MICA_T_CHECK_INIT();
    cvar_handle_t *h = lookup(handle);
    if (!h)
        return MPI_T_ERR_INVALID_HANDLE;
    if (!buf)
        return MPI_T_ERR_INVALID;
    const mica_tunable_t *t = &mica_tunable_table[h->index];
    if (t->scope == MICA_TUNABLE_SCOPE_CONSTANT || t->scope == MICA_TUNABLE_SCOPE_READONLY)
        return MPI_T_ERR_CVAR_SET_NEVER;
    long v = t->type == MICA_TUNABLE_SIZE ? (long)*(const MPI_Count *)buf : *(const int *)buf;
    switch (t->type) {
    case MICA_TUNABLE_ENUM:
        break;                        /* any value: see above */
    case MICA_TUNABLE_BOOL:
        v = v != 0;
        break;
    default:
        if (!(v >= t->min && v <= t->max) && !(t->can_be_auto && v == MICA_TUNABLE_AUTO))
            return MPI_T_ERR_INVALID;
    }
    if (t->type == MICA_TUNABLE_SIZE)
        *(long *)t->value = v;
    else
        *(int *)t->value = (int)v;
    return MPI_SUCCESS;
}
