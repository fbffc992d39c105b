/* The object arena and Fortran integer handles.
 *
 * User objects are carved from one reserved range of address space, in size classes, so that
 * validating a handle (objects.h) never dereferences memory that is not an object's. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/objects.h"

#define RESERVE ((size_t)1 << 36)     /* address space only; pages are committed as used */
#define RESERVE_MIN ((size_t)1 << 26) /* what is left to try where less is allowed (valgrind) */
#define CHUNK ((size_t)1 << 20)
#define CLASSES 8                     /* 64 B .. 8 KiB */

struct mica_arena mica_arena;
static struct {
    pthread_mutex_t lock;
    uintptr_t committed;              /* end of the read-write part of the reservation */
    size_t reserved;                  /* bytes of address space reserved */
    void *free[CLASSES];
} arena = {.lock = PTHREAD_MUTEX_INITIALIZER};

static unsigned size_class(size_t size)
{
    unsigned c = 0;
    while ((size_t)MICA_SLOT_ALIGN << c < size)
        c++;
    return c;
}

static void *carve(size_t bytes)
{
    if (!mica_arena.base) {
        void *p = MAP_FAILED;
        for (arena.reserved = RESERVE; p == MAP_FAILED && arena.reserved >= RESERVE_MIN; arena.reserved /= 4)
            p = mmap(NULL, arena.reserved, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED)
            return NULL;
        arena.reserved *= 4;          /* undo the loop's last step */
        arena.committed = (uintptr_t)p;
        mica_arena.top = (uintptr_t)p;
        __atomic_store_n(&mica_arena.base, (uintptr_t)p, __ATOMIC_RELEASE);
    }
    if (mica_arena.top + bytes > arena.committed) {
        if (arena.committed + CHUNK > mica_arena.base + arena.reserved ||
            mprotect((void *)arena.committed, CHUNK, PROT_READ | PROT_WRITE))
            return NULL;
        arena.committed += CHUNK;
    }
    void *p = (void *)mica_arena.top;
    /* Publish the new top only once the memory below it is readable. */
    __atomic_store_n(&mica_arena.top, mica_arena.top + bytes, __ATOMIC_RELEASE);
    return p;
}

/* A free slot keeps its link just past the header, whose tag is 0 so lookups reject it. */
#define NEXT(o) (*(void **)((mica_obj_t *)(o) + 1))

void *mica_obj_new(unsigned kind, size_t size)
{
    unsigned c = size_class(size);
    if (c >= CLASSES)
        abort();                      /* a bug: objects keep their large parts elsewhere */
    pthread_mutex_lock(&arena.lock);
    mica_obj_t *o = arena.free[c];
    if (o)
        arena.free[c] = NEXT(o);
    else
        o = carve((size_t)MICA_SLOT_ALIGN << c);
    pthread_mutex_unlock(&arena.lock);
    if (!o)
        return NULL;
    memset(o, 0, size);
    o->handle = (uintptr_t)o;
    o->refs = 1;
    o->size_class = c;
    __atomic_store_n(&o->tag, MICA_TAG | kind, __ATOMIC_RELEASE);
    return o;
}

static struct {
    pthread_mutex_t lock;
    mica_obj_t **slot[MICA_KINDS];
    int used[MICA_KINDS], cap[MICA_KINDS];
} fints = {.lock = PTHREAD_MUTEX_INITIALIZER};

void mica_obj_free(void *obj)
{
    mica_obj_t *o = obj;
    if (o->fint >= MICA_PREDEFINED_MAX) {
        pthread_mutex_lock(&fints.lock);
        fints.slot[o->tag & 0xff][o->fint - MICA_PREDEFINED_MAX] = NULL;
        pthread_mutex_unlock(&fints.lock);
    }
    __atomic_store_n(&o->tag, 0, __ATOMIC_RELEASE);
    pthread_mutex_lock(&arena.lock);
    NEXT(o) = arena.free[o->size_class];
    arena.free[o->size_class] = o;
    pthread_mutex_unlock(&arena.lock);
}

int mica_obj_to_fint(mica_obj_t *o)
{
    if (o->handle < MICA_PREDEFINED_MAX)
        return (int)o->handle;
    int f = __atomic_load_n(&o->fint, __ATOMIC_ACQUIRE);
    if (f)
        return f;
    unsigned kind = o->tag & 0xff;
    pthread_mutex_lock(&fints.lock);
    if (!o->fint) {
        if (fints.used[kind] == fints.cap[kind]) {
            int cap = fints.cap[kind] ? 2 * fints.cap[kind] : 64;
            mica_obj_t **s = realloc(fints.slot[kind], cap * sizeof *s);
            if (!s) {
                pthread_mutex_unlock(&fints.lock);
                return -1;
            }
            fints.slot[kind] = s;
            fints.cap[kind] = cap;
        }
        /* Indexes are not reused: a stale Fortran handle must not name a new object. */
        fints.slot[kind][fints.used[kind]] = o;
        __atomic_store_n(&o->fint, MICA_PREDEFINED_MAX + fints.used[kind]++, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&fints.lock);
    return o->fint;
}

mica_obj_t *mica_obj_from_fint(int fint, unsigned kind)
{
    if (fint >= 0 && fint < MICA_PREDEFINED_MAX)
        return mica_lookup((void *)(uintptr_t)fint, kind);
    mica_obj_t *o = NULL;
    pthread_mutex_lock(&fints.lock);
    if (fint >= MICA_PREDEFINED_MAX && fint - MICA_PREDEFINED_MAX < fints.used[kind])
        o = fints.slot[kind][fint - MICA_PREDEFINED_MAX];
    pthread_mutex_unlock(&fints.lock);
    return o;
}
