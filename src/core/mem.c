/* MPI_Alloc_mem and MPI_Free_mem: aligned memory from the C library.
 *
 * Every block handed out is remembered (an open-addressing set of addresses), so MPI_Free_mem
 * answers a pointer that did not come from MPI_Alloc_mem, or was freed already, with
 * MPI_ERR_BASE instead of corrupting the heap. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/errors.h"
#include "core/info.h"
#include "core_api.h"

#define DEFAULT_ALIGN 64              /* a cache line: no false sharing with other data */

static struct {
    pthread_mutex_t lock;
    uintptr_t *slot;                  /* 0: empty */
    size_t cap, used;                 /* cap is a power of two, kept at least twice used */
} blocks = {.lock = PTHREAD_MUTEX_INITIALIZER};

static size_t home(uintptr_t p, size_t cap)
{
    return (size_t)(((uint64_t)p >> 6) * 0x9e3779b97f4a7c15ull >> 17) & (cap - 1);
}

static size_t find(uintptr_t p)
{
    size_t i = home(p, blocks.cap);
    while (blocks.slot[i] && blocks.slot[i] != p)
        i = (i + 1) & (blocks.cap - 1);
    return i;
}

static int grow(void)
{
    size_t cap = blocks.cap ? 2 * blocks.cap : 64;
    uintptr_t *old = blocks.slot, *slot = calloc(cap, sizeof *slot);
    size_t old_cap = blocks.cap;
    if (!slot)
        return -1;
    blocks.slot = slot;
    blocks.cap = cap;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i])
            blocks.slot[find(old[i])] = old[i];
    free(old);
    return 0;
}

static int remember(uintptr_t p)
{
    pthread_mutex_lock(&blocks.lock);
    int rc = 0;
    if (2 * (blocks.used + 1) > blocks.cap)
        rc = grow();
    if (!rc) {
        blocks.slot[find(p)] = p;
        blocks.used++;
    }
    pthread_mutex_unlock(&blocks.lock);
    return rc;
}

/* Forget p; 0 if it was remembered. Later entries of its probe run move back into the gap. */
static int forget(uintptr_t p)
{
    pthread_mutex_lock(&blocks.lock);
    size_t i = blocks.cap ? find(p) : 0;
    if (!blocks.cap || !blocks.slot[i]) {
        pthread_mutex_unlock(&blocks.lock);
        return -1;
    }
    blocks.slot[i] = 0;
    blocks.used--;
    for (size_t j = (i + 1) & (blocks.cap - 1); blocks.slot[j]; j = (j + 1) & (blocks.cap - 1)) {
        uintptr_t q = blocks.slot[j];
        blocks.slot[j] = 0;
        blocks.slot[find(q)] = q;
    }
    pthread_mutex_unlock(&blocks.lock);
    return 0;
}

/* The alignment asked for with the mpi_minimum_memory_alignment hint, if it is a power of two
 * above the default; any other value is a hint to ignore. */
static size_t alignment(mica_info_t *info)
{
    const char *v = info ? mica_info_value(info, "mpi_minimum_memory_alignment") : NULL;
    if (!v)
        return DEFAULT_ALIGN;
    char *end;
    unsigned long long a = strtoull(v, &end, 10);
    if (end == v || *end || a <= DEFAULT_ALIGN || (a & (a - 1)) || a > (size_t)1 << 30)
        return DEFAULT_ALIGN;
    return (size_t)a;
}

int mica_alloc_mem(MPI_Aint size, mica_info_t *info, void *baseptr)
{
    if (size < 0)
        return mica_error(MPI_ERR_ARG, "size=%lld is negative", (long long)size);
    if (!baseptr)
        return mica_error(MPI_ERR_ARG, "baseptr is NULL");
    void *p;
    /* Size 0 still gets a block of its own, so every successful call can be freed. */
    if (posix_memalign(&p, alignment(info), size ? (size_t)size : 1))
        return mica_error(MPI_ERR_NO_MEM, "no memory for size=%lld bytes", (long long)size);
    if (remember((uintptr_t)p)) {
        free(p);
        return mica_error(MPI_ERR_NO_MEM, "no memory to keep track of size=%lld bytes",
                          (long long)size);
    }
    memcpy(baseptr, &p, sizeof p);     /* baseptr is really a void ** */
    return MPI_SUCCESS;
}

int mica_free_mem(void *base)
{
    if (!base)
        return MPI_SUCCESS;           /* like free(NULL) */
    if (forget((uintptr_t)base))
        return mica_error(MPI_ERR_BASE, "base=%p was not allocated by MPI_Alloc_mem, or was "
                          "freed already", base);
    free(base);
    return MPI_SUCCESS;
}
