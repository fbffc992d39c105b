/* mica-prof: lock-free maps from MPI handles to the tool's records (map.h). */
#include "map.h"

#include <pthread.h>
#include <stdlib.h>

static unsigned map_hash(uint64_t k, unsigned mask)
{
    k ^= k >> 29;
    k *= 0xbf58476d1ce4e5b9ull;
    k ^= k >> 32;
    return (unsigned)k & mask;
}

/* The slot that holds k, or NULL. */
static mp_slot *find(mp_map *m, uint64_t k)
{
    mp_slot *s = __atomic_load_n(&m->s, __ATOMIC_ACQUIRE);
    if (s == NULL || k == 0)
        return NULL;
    unsigned i = map_hash(k, m->mask);
    for (unsigned n = 0; n <= m->mask && n < 256; n++, i = (i + 1) & m->mask) {
        uint64_t kk = __atomic_load_n(&s[i].key, __ATOMIC_ACQUIRE);
        if (kk == k)
            return &s[i];
        if (kk == 0)
            return NULL;
    }
    return NULL;
}

void *mp_map_get(mp_map *m, uint64_t k)
{
    mp_slot *slot = find(m, k);
    return slot ? __atomic_load_n(&slot->val, __ATOMIC_ACQUIRE) : NULL;
}

static pthread_mutex_t map_init_lock = PTHREAD_MUTEX_INITIALIZER;

/* Store v under k; returns the value it replaces (for the caller to free), or v itself if the
 * map is full (the caller keeps ownership). */
void *mp_map_put(mp_map *m, uint64_t k, void *v, unsigned cap)
{
    if (__atomic_load_n(&m->s, __ATOMIC_ACQUIRE) == NULL) {
        pthread_mutex_lock(&map_init_lock);
        if (m->s == NULL) {
            mp_slot *s = calloc(cap, sizeof *s);
            m->mask = cap - 1;
            __atomic_store_n(&m->s, s, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&map_init_lock);
    }
    mp_slot *s = m->s;
    if (s == NULL || k == 0)
        return v;
    unsigned i = map_hash(k, m->mask);
    for (unsigned n = 0; n <= m->mask && n < 256; n++, i = (i + 1) & m->mask) {
        uint64_t kk = __atomic_load_n(&s[i].key, __ATOMIC_ACQUIRE);
        if (kk == 0) {
            uint64_t zero = 0;
            if (__atomic_compare_exchange_n(&s[i].key, &zero, k, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
                kk = k;
            else
                kk = zero;
        }
        if (kk == k)
            return __atomic_exchange_n(&s[i].val, v, __ATOMIC_ACQ_REL);
    }
    return v;
}

void *mp_map_take(mp_map *m, uint64_t k)
{
    mp_slot *slot = find(m, k);
    return slot ? __atomic_exchange_n(&slot->val, NULL, __ATOMIC_ACQ_REL) : NULL;
}

