/* The job's key-value store: an open-addressing hash table of strings.
 * One store per job (PMI-1 gives every job a single keyval space). */
#include "mpiexec.h"

#include <stdlib.h>
#include <string.h>

struct mica_kvs {
    size_t cap, count;   /* cap is a power of two; load kept below 1/2 */
    char **key, **val;
};

static size_t hash(const char *s)
{
    size_t h = 14695981039346656037ull;  /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static size_t slot(const mica_kvs_t *kvs, const char *key)
{
    size_t i = hash(key) & (kvs->cap - 1);
    while (kvs->key[i] && strcmp(kvs->key[i], key) != 0)
        i = (i + 1) & (kvs->cap - 1);
    return i;
}

static int alloc_table(mica_kvs_t *kvs, size_t cap)
{
    kvs->key = calloc(cap, sizeof *kvs->key);
    kvs->val = calloc(cap, sizeof *kvs->val);
    if (!kvs->key || !kvs->val) {
        free(kvs->key);
        free(kvs->val);
        return -1;
    }
    kvs->cap = cap;
    return 0;
}

mica_kvs_t *mica_kvs_new(void)
{
    mica_kvs_t *kvs = calloc(1, sizeof *kvs);
    if (kvs && alloc_table(kvs, 256)) {
        free(kvs);
        return NULL;
    }
    return kvs;
}

static int grow(mica_kvs_t *kvs)
{
    mica_kvs_t old = *kvs;
    if (alloc_table(kvs, old.cap * 2)) {
        *kvs = old;
        return -1;
    }
    for (size_t i = 0; i < old.cap; i++) {
        if (old.key[i]) {
            size_t j = slot(kvs, old.key[i]);
            kvs->key[j] = old.key[i];
            kvs->val[j] = old.val[i];
        }
    }
    free(old.key);
    free(old.val);
    return 0;
}

/* A repeated key replaces its value: harmless, and simpler for clients
 * that republish. 0 on success, -1 out of memory. */
int mica_kvs_put(mica_kvs_t *kvs, const char *key, const char *val)
{
    if ((kvs->count + 1) * 2 > kvs->cap && grow(kvs))
        return -1;
    size_t i = slot(kvs, key);
    char *v = strdup(val);
    if (!v)
        return -1;
    if (kvs->key[i]) {
        free(kvs->val[i]);
        kvs->val[i] = v;
        return 0;
    }
    char *k = strdup(key);
    if (!k) {
        free(v);
        return -1;
    }
    kvs->key[i] = k;
    kvs->val[i] = v;
    kvs->count++;
    return 0;
}

const char *mica_kvs_get(const mica_kvs_t *kvs, const char *key)
{
    size_t i = slot(kvs, key);
    return kvs->key[i] ? kvs->val[i] : NULL;
}

void mica_kvs_free(mica_kvs_t *kvs)
{
    if (!kvs)
        return;
    for (size_t i = 0; i < kvs->cap; i++) {
        free(kvs->key[i]);
        free(kvs->val[i]);
    }
    free(kvs->key);
    free(kvs->val);
    free(kvs);
}
