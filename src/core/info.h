/* Info objects: (key, value) strings in the order their keys were first set. */
#ifndef MICA_INFO_H
#define MICA_INFO_H

#include "core/objects.h"

typedef struct mica_info_entry {
    char *key;                        /* one allocation: the key, then the value */
    char *value;
    size_t value_len;
} mica_info_entry_t;

struct mica_info {
    mica_obj_t obj;
    int n, cap;
    mica_info_entry_t *entries;       /* malloc'd; n used, in insertion order */
};

/* MPI_INFO_ENV: a predefined handle whose contents are built when first read (info.c). */
extern mica_info_t mica_info_env;

/* A new empty info object and its handle in *handle; MPI_ERR_NO_MEM when out of memory. */
int mica_info_new(MPI_Info *handle);
/* Set `key` (checked by the caller) to `value`, keeping the key's place if it exists. */
int mica_info_put(mica_info_t *info, const char *key, const char *value);

/* The value of `key` in `info` (MPI_INFO_ENV included), or NULL when absent or info is NULL. */
const char *mica_info_value(mica_info_t *info, const char *key);

#endif
