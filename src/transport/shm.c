/* Shared-memory transport (see shm.h and transport.h). Each rank creates one segment holding
 * the rings that bring packets to it, one per sender, and shares it without a name
 * (segment.h), so a job leaves nothing in /dev/shm, however it ends. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/uio.h>
#include <unistd.h>

#include "core/counters.h"
#include "core/tunables.h"
#include "runtime/boot.h"
#include "transport/segment.h"
#include "transport/shm.h"

/* A ring: the consumer's head and the producer's tail on their own cache lines, then slots. */
typedef struct ring {
    _Alignas(64) _Atomic uint64_t head;   /* slots consumed, published by the consumer */
    _Alignas(64) uint64_t tail_unused;    /* keeps the slots off the head's cache line */
    _Alignas(64) char slots[];
} ring_t;

static struct {
    int rank, size;
    int cma_failed;                   /* process_vm_readv was refused here: expose no more */
    size_t ring_bytes, nslots;
    char *mine;                       /* my segment: the rings from each sender */
    char **seg;                       /* every rank's segment, mapped */
    size_t seg_bytes;
    /* Producer side, per destination: my position in its ring and the head I last saw. */
    struct out { uint64_t tail, head_seen; } *out;
    /* Consumer side, per source. */
    uint64_t *head;
} shm;

static ring_t *ring_at(char *seg, int src)
{
    return (ring_t *)(seg + (size_t)src * (sizeof(ring_t) + shm.ring_bytes));
}

static size_t ring_size(int nranks)
{
    int kb = mica_tunables.shm_ring_kb;
    if (kb == MICA_TUNABLE_AUTO)
        kb = nranks <= 8 ? 256 : nranks <= 32 ? 128 : 64;
    return (size_t)kb * 1024;
}

/* Under Yama's ptrace_scope 1 (Ubuntu's default) a process may read another's memory only if
 * that one is its descendant or names it: let the job's other processes read ours, as Open
 * MPI does for the same reason. The kernel's own rule still holds: only processes of this
 * user (or an administrator) can; ptrace_scope 2 and 3 stay as they are (single copy is then
 * refused, and the packets carry large messages). */
static void allow_single_copy(void)
{
    FILE *f = fopen("/proc/sys/kernel/yama/ptrace_scope", "r");
    int scope = 0;
    if (!f)
        return;                       /* no Yama: nothing stands in the way */
    if (fscanf(f, "%d", &scope) == 1 && scope == 1)
        prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
    fclose(f);
}

static int shm_init(const mica_boot_t *boot)
{
    shm.rank = boot->rank;
    shm.size = boot->size;
    shm.ring_bytes = ring_size(boot->size);
    shm.nslots = shm.ring_bytes / MICA_SHM_SLOT;
    shm.seg_bytes = (size_t)boot->size * (sizeof(ring_t) + shm.ring_bytes);
    shm.seg = calloc(boot->size, sizeof *shm.seg);
    shm.out = calloc(boot->size, sizeof *shm.out);
    shm.head = calloc(boot->size, sizeof *shm.head);
    if (!shm.seg || !shm.out || !shm.head)
        return -1;
    if (boot->size == 1) {            /* a singleton needs no shared memory */
        shm.seg[0] = mmap(NULL, shm.seg_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (shm.seg[0] == MAP_FAILED)
            shm.seg[0] = NULL;
    } else if (mica_segment_share(boot, shm.seg_bytes, shm.seg)) {
        return -1;
    } else if (mica_tunables.single_copy) {
        allow_single_copy();
    }
    shm.mine = shm.seg[boot->rank];
    return shm.mine ? 0 : -1;
}

static void shm_finalize(void)
{
    for (int r = 0; r < shm.size; r++)
        if (shm.seg && shm.seg[r])
            munmap(shm.seg[r], shm.seg_bytes);
    free(shm.seg);
    free(shm.out);
    free(shm.head);
    memset(&shm, 0, sizeof shm);
}

static int shm_reaches(int peer)
{
    return peer >= 0 && peer < shm.size;
}

static size_t shm_payload_limit(void)
{
    return shm.ring_bytes / 4 - MICA_TRANSPORT_PKT;
}

static size_t slots_for(size_t payload)
{
    return (MICA_TRANSPORT_PKT + payload + MICA_SHM_SLOT - 1) / MICA_SHM_SLOT;
}

static mica_transport_pkt_t *shm_send_begin(int dest, size_t payload)
{
    struct out *o = &shm.out[dest];
    size_t n = slots_for(payload);
    size_t at = o->tail % shm.nslots;
    size_t skip = at + n > shm.nslots ? shm.nslots - at : 0;   /* packets never wrap */
    ring_t *ring = ring_at(shm.seg[dest], shm.rank);
    if (o->tail + skip + n - o->head_seen > shm.nslots) {
        o->head_seen = atomic_load_explicit(&ring->head, memory_order_acquire);
        if (o->tail + skip + n - o->head_seen > shm.nslots) {
            mica_counters.shm_ring_full++;
            return NULL;
        }
    }
    if (skip) {                       /* a padding packet to the end of the ring */
        mica_transport_pkt_t *pad = (mica_transport_pkt_t *)(ring->slots + at * MICA_SHM_SLOT);
        pad->am = 0;
        atomic_store_explicit(&pad->ready, (uint32_t)skip, memory_order_release);
        o->tail += skip;
        at = 0;
    }
    mica_transport_pkt_t *p = (mica_transport_pkt_t *)(ring->slots + at * MICA_SHM_SLOT);
    p->len = payload;
    return p;
}

static void shm_send_commit(int dest, mica_transport_pkt_t *pkt)
{
    size_t n = slots_for(pkt->len);
    shm.out[dest].tail += n;
    atomic_store_explicit(&pkt->ready, (uint32_t)n, memory_order_release);
}

static void shm_recv_commit(int src, mica_transport_pkt_t *pkt)
{
    ring_t *ring = ring_at(shm.mine, src);
    uint32_t n = atomic_load_explicit(&pkt->ready, memory_order_relaxed);
    /* Clear the ready word of every slot the packet covered: a later packet may start there. */
    for (uint32_t i = 0; i < n; i++)
        atomic_store_explicit(&((mica_transport_pkt_t *)((char *)pkt + i * MICA_SHM_SLOT))->ready,
                              0, memory_order_relaxed);
    shm.head[src] += n;
    atomic_store_explicit(&ring->head, shm.head[src], memory_order_release);
}

static mica_transport_pkt_t *shm_recv_begin(int src)
{
    ring_t *ring = ring_at(shm.mine, src);
    for (;;) {
        mica_transport_pkt_t *p =
            (mica_transport_pkt_t *)(ring->slots + (shm.head[src] % shm.nslots) * MICA_SHM_SLOT);
        uint32_t n = atomic_load_explicit(&p->ready, memory_order_acquire);
        if (!n)
            return NULL;
        if (p->am)
            return p;
        shm_recv_commit(src, p);      /* padding */
    }
}

/* --- single copy ------------------------------------------------------------------------------
 * A large message is read by the receiver straight out of the sender's memory with
 * process_vm_readv ("cross-memory attach"): one copy, and no hand-off per chunk, which on a
 * loaded machine costs a scheduler round trip each. The kernel allows it only between processes
 * of one user (the ptrace access check), which is what a job is. Where it is refused (a Yama
 * ptrace_scope above 0, a seccomp filter), get fails and pt2pt falls back to the packet
 * pipeline; this process then stops exposing its own buffers, as its peers will fail alike. */
typedef struct cma_key {
    int32_t pid;
    uint32_t unused;
    uint64_t addr, len;
} cma_key_t;
_Static_assert(sizeof(cma_key_t) <= MICA_TRANSPORT_KEY, "a key must fit");

static int shm_expose(const void *buf, size_t len, mica_transport_key_t *key)
{
    if (shm.cma_failed)
        return -1;
    cma_key_t k = {.pid = (int32_t)getpid(), .addr = (uint64_t)(uintptr_t)buf, .len = len};
    memset(key, 0, sizeof *key);
    memcpy(key->bytes, &k, sizeof k);
    return 0;
}

static void shm_unexpose(const void *buf, size_t len)
{
    (void)buf, (void)len;             /* nothing was registered */
}

/* Synchronous: done(arg) has been called when it returns 0. */
static int shm_get(int peer, void *dst, const mica_transport_key_t *key, size_t offset,
                   size_t len, void (*done)(void *arg), void *arg)
{
    (void)peer;
    cma_key_t k;
    memcpy(&k, key->bytes, sizeof k);
    if (offset > k.len || len > k.len - offset)
        return -1;
    size_t got = 0;
    while (got < len) {               /* the kernel moves at most about 2 GiB a call */
        struct iovec local = {(char *)dst + got, len - got};
        struct iovec remote = {(void *)(uintptr_t)(k.addr + offset + got), len - got};
        ssize_t n = process_vm_readv(k.pid, &local, 1, &remote, 1, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (got == 0 && (errno == EPERM || errno == ENOSYS || errno == EACCES))
                shm.cma_failed = 1;
            return -1;
        }
        got += (size_t)n;
    }
    done(arg);
    return 0;
}

const mica_transport_t mica_shm_transport = {
    .name = "shm",
    .init = shm_init,
    .finalize = shm_finalize,
    .reaches = shm_reaches,
    .payload_limit = shm_payload_limit,
    .send_begin = shm_send_begin,
    .send_commit = shm_send_commit,
    .recv_begin = shm_recv_begin,
    .recv_commit = shm_recv_commit,
    .expose = shm_expose,
    .unexpose = shm_unexpose,
    .get = shm_get,
};
