/* User-defined error classes and codes (MPI_Add_error_class & co.) and their strings.
 *
 * Mica's own codes are a class in the low MICA_CLASS_BITS bits and a message slot above them,
 * all at most MPI_ERR_LASTCODE; user classes and codes take the values above it, one table
 * entry each, so neither can ever be mistaken for the other. A removed value is reused once
 * every value above it is removed too, so MPI_LASTUSEDCODE always names the largest one in use. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/attr.h"
#include "core/errors.h"
#include "core_api.h"

#define FIRST_USER (MPI_ERR_LASTCODE + 1)

struct user_code {
    int cls;          /* its class (itself for a class); -1: the value is free */
    int codes;        /* a class: how many user codes it has */
    char *string;     /* MPI_Add_error_string's, or NULL */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct user_code *table;       /* table[i] is value FIRST_USER + i */
static int table_len, table_cap;

/* The entry of user value `v` in use, or NULL (the lock held). */
static struct user_code *entry(int v)
{
    if (v < FIRST_USER || v - FIRST_USER >= table_len || table[v - FIRST_USER].cls < 0)
        return NULL;
    return &table[v - FIRST_USER];
}

static void publish_last(void)
{
    while (table_len && table[table_len - 1].cls < 0)
        table_len--;
    mica_attr_set_lastusedcode(MPI_ERR_LASTCODE + table_len);
}

/* A new value of class `cls` (-1: a new class), or a negative MPI error code. */
static int add(int cls, int *out)
{
    int v = -1;
    for (int i = 0; i < table_len && v < 0; i++)
        if (table[i].cls < 0)
            v = FIRST_USER + i;
    if (v < 0) {
        if (table_len == INT32_MAX - FIRST_USER)
            return mica_error(MPI_ERR_NO_SPACE, "every error code value is in use");
        if (table_len == table_cap) {
            int cap = table_cap ? 2 * table_cap : 16;
            struct user_code *t = realloc(table, (size_t)cap * sizeof *t);
            if (!t)
                return mica_error(MPI_ERR_NO_MEM, "no memory for a new error code");
            table = t, table_cap = cap;
        }
        v = FIRST_USER + table_len++;
    }
    table[v - FIRST_USER] = (struct user_code){.cls = cls < 0 ? v : cls};
    if (cls >= 0 && entry(cls))
        entry(cls)->codes++;
    publish_last();
    *out = v;
    return MPI_SUCCESS;
}

int mica_add_error_class(int *errorclass)
{
    pthread_mutex_lock(&lock);
    int rc = add(-1, errorclass);
    pthread_mutex_unlock(&lock);
    return rc;
}

int mica_add_error_code(int errorclass, int *errorcode)
{
    pthread_mutex_lock(&lock);
    int rc;
    struct user_code *c = entry(errorclass);
    if (errorclass <= 0 || (errorclass > MPI_ERR_LASTCODE ? !c || c->cls != errorclass
                                                          : mica_error_class_of(errorclass) != errorclass))
        rc = mica_error(MPI_ERR_ARG, "errorclass=%d is not an error class", errorclass);
    else
        rc = add(errorclass, errorcode);
    pthread_mutex_unlock(&lock);
    return rc;
}

int mica_add_error_string(int errorcode, const char *string)
{
    if (errorcode >= 0 && errorcode <= MPI_ERR_LASTCODE)
        return mica_error(MPI_ERR_ARG, "errorcode=%d is predefined: its string cannot change",
                          errorcode);
    if (!string)
        return mica_error(MPI_ERR_ARG, "string is NULL");
    if (strlen(string) >= MPI_MAX_ERROR_STRING)
        return mica_error(MPI_ERR_ARG, "string is longer than MPI_MAX_ERROR_STRING-1 (%d)",
                          MPI_MAX_ERROR_STRING - 1);
    char *copy = strdup(string);
    if (!copy)
        return mica_error(MPI_ERR_NO_MEM, "no memory for the error string");
    pthread_mutex_lock(&lock);
    int rc = MPI_SUCCESS;
    struct user_code *c = entry(errorcode);
    if (!c) {
        rc = mica_error(MPI_ERR_ARG, "errorcode=%d is not a user error class or code", errorcode);
        free(copy);
    } else {
        free(c->string);              /* a new string replaces the old one */
        c->string = copy;
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

/* Remove user value `v`, a class if `cls` else a code. */
static int remove_value(int v, int cls)
{
    const char *what = cls ? "errorclass" : "errorcode";
    pthread_mutex_lock(&lock);
    int rc = MPI_SUCCESS;
    struct user_code *c = entry(v);
    if (!c || (c->cls == v) != cls)
        rc = mica_error(MPI_ERR_ARG, "%s=%d is not a user error %s (never added, or removed)",
                        what, v, cls ? "class" : "code");
    else if (c->string)
        rc = mica_error(MPI_ERR_ARG, "%s=%d still has a string: MPI_Remove_error_string first",
                        what, v);
    else if (cls && c->codes)
        rc = mica_error(MPI_ERR_ARG, "errorclass=%d still has %d error code(s): remove them "
                        "first", v, c->codes);
    else {
        if (!cls && entry(c->cls))
            entry(c->cls)->codes--;
        c->cls = -1;
        publish_last();
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

int mica_remove_error_class(int errorclass) { return remove_value(errorclass, 1); }
int mica_remove_error_code(int errorcode) { return remove_value(errorcode, 0); }

int mica_remove_error_string(int errorcode)
{
    pthread_mutex_lock(&lock);
    int rc = MPI_SUCCESS;
    struct user_code *c = entry(errorcode);
    if (!c || !c->string)
        rc = mica_error(MPI_ERR_ARG, "errorcode=%d has no string added by MPI_Add_error_string",
                        errorcode);
    else {
        free(c->string);
        c->string = NULL;
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

int mica_user_error_class(int code)
{
    pthread_mutex_lock(&lock);
    struct user_code *c = entry(code);
    int cls = c ? c->cls : -1;
    pthread_mutex_unlock(&lock);
    return cls;
}

void mica_user_error_text(int code, char *buf, size_t len)
{
    pthread_mutex_lock(&lock);
    struct user_code *c = entry(code);
    snprintf(buf, len, "%s", c && c->string ? c->string : "");
    pthread_mutex_unlock(&lock);
}
