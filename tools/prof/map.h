/* mica-prof: lock-free maps from MPI handles to the tool's records (communicators, persistent
 * requests). Insert with CAS on the key, values published with release stores; a removed entry
 * keeps its key with a null value (handles are reused by MPI libraries). */
#ifndef MICA_PROF_MAP_H
#define MICA_PROF_MAP_H

#include <stdint.h>
#include <string.h>
#include "defs.h"

/* The key of a handle (its first 8 bytes: handles are integers or pointers). */
MP_INLINE uint64_t mp_hkey(const void *h, size_t n)
{
    uint64_t k = 0;
    memcpy(&k, h, n < sizeof k ? n : sizeof k);
    return k;
}

typedef struct {
    uint64_t key;
    void *val;
} mp_slot;

/* A zero-initialized map is empty; its table is made on the first insertion. */
typedef struct {
    mp_slot *s;
    unsigned mask;
} mp_map;

void *mp_map_get(mp_map *m, uint64_t k);
/* Store v under k (cap: the table's size, a power of two, when it is made); returns the value
 * it replaces (for the caller to free), or v itself if the map is full (the caller keeps it). */
void *mp_map_put(mp_map *m, uint64_t k, void *v, unsigned cap);
/* Remove k's value and return it. */
void *mp_map_take(mp_map *m, uint64_t k);

#endif
