/* The shared-memory transport's rings seen from inside (linked statically against libmpi.a,
 * see test_shm_ring.sh), where MPI cannot steer them: a singleton's ring to itself, driven
 * against a model of the producer's tail and the consumer's head. Every packet lands where
 * the model says (at slot 0 after a padding packet when it would not fit before the end of
 * the ring, never wrapping), send_begin refuses exactly when the ring has no room (padding
 * included, and then writes nothing), the consumer never sees padding, an uncommitted packet
 * or a stale ready word inside an earlier long packet, and gets every packet whole, in order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/boot.h"
#include "transport/shm.h"
#include "transport/transport.h"

static int failures;
#define EXPECT(cond) do { if (!(cond)) { failures++; printf("FAILED line %d: %s\n", __LINE__, #cond); \
                                         if (failures > 20) exit(1); } } while (0)

static unsigned seed = 12345;
static unsigned rnd(void) { return (seed = seed * 1103515245u + 12345u) >> 8; }

static const mica_transport_t *tp = &mica_shm_transport;
static size_t limit, nslots;
static char *base;                    /* slot 0 of the ring */
static uint64_t tail, head;           /* the model: slots handed out and given back */
static uint64_t sent, received;       /* packets */
static uint64_t pads, fulls;          /* how often each path was taken */
static size_t lens[4096];             /* payload lengths of the packets in flight, a queue */

static size_t slots_for(size_t len) { return (MICA_TRANSPORT_PKT + len + MICA_SHM_SLOT - 1) / MICA_SHM_SLOT; }

/* Every byte of packet `seq`'s payload is non-zero, so a stale word would look ready. */
static unsigned char pattern(uint64_t seq, size_t i) { return (unsigned char)(1 + (seq * 31 + i) % 251); }

static int try_send(size_t len)
{
    size_t n = slots_for(len), at = tail % nslots;
    size_t skip = at + n > nslots ? nslots - at : 0;
    int room = tail + skip + n - head <= nslots;
    mica_transport_pkt_t *p = tp->send_begin(0, len);
    EXPECT(!p == !room);
    if (!p) {
        fulls++;
        if (tail == head)             /* nothing committed: the consumer must see nothing */
            EXPECT(tp->recv_begin(0) == NULL);
        return 0;
    }
    if (!base)
        base = (char *)p;             /* the first packet starts at slot 0 */
    pads += skip != 0;
    EXPECT((char *)p == base + (skip ? 0 : at) * MICA_SHM_SLOT);
    EXPECT(p->len == len);
    p->am = (uint16_t)(1 + sent % MICA_TRANSPORT_AM_MAX);
    uint64_t *h = mica_transport_header(p);
    for (int i = 0; i < MICA_TRANSPORT_HEADER / 8; i++)
        h[i] = sent * 8 + (uint64_t)i;
    unsigned char *pay = mica_transport_payload(p);
    for (size_t i = 0; i < len; i++)
        pay[i] = pattern(sent, i);
    if (tail == head) {               /* not committed yet: invisible; padding is passed over */
        EXPECT(tp->recv_begin(0) == NULL);
        head += skip;
    }
    tp->send_commit(0, p);
    tail += skip + n;
    lens[sent % 4096] = len;
    sent++;
    return 1;
}

static int try_recv(void)
{
    mica_transport_pkt_t *p = tp->recv_begin(0);
    EXPECT(!p == (sent == received));
    if (!p)
        return 0;
    size_t len = lens[received % 4096];
    EXPECT(p->am == 1 + received % MICA_TRANSPORT_AM_MAX);
    EXPECT(p->len == len);
    const uint64_t *h = mica_transport_header(p);
    for (int i = 0; i < MICA_TRANSPORT_HEADER / 8; i++)
        EXPECT(h[i] == received * 8 + (uint64_t)i);
    const unsigned char *pay = mica_transport_payload(p);
    size_t bad = 0;
    for (size_t i = 0; i < len; i++)
        bad += pay[i] != pattern(received, i);
    EXPECT(bad == 0);
    /* Where the model's head is after any padding before this packet. */
    size_t at = head % nslots, n = slots_for(len);
    if (at + n > nslots) {
        head += nslots - at;
        at = 0;
    }
    EXPECT((char *)p == base + at * MICA_SHM_SLOT);
    tp->recv_commit(0, p);
    head += n;
    received++;
    return 1;
}

/* A length of one of the kinds that matter: empty, small, ending exactly on a slot, the limit. */
static size_t some_len(void)
{
    switch (rnd() % 6) {
    case 0: return 0;
    case 1: return rnd() % 64;
    case 2: return (rnd() % 4 + 1) * MICA_SHM_SLOT - MICA_TRANSPORT_PKT;   /* fills its slots */
    case 3: return (rnd() % 4 + 1) * MICA_SHM_SLOT - MICA_TRANSPORT_PKT + 1;
    case 4: return limit;
    default: return rnd() % (limit + 1);
    }
}

int main(void)
{
    mica_boot_t boot = {.rank = 0, .size = 1, .universe_size = 1, .singleton = 1};
    strcpy(boot.jobid, "shm-ring-test");
    setenv("MICA_SHM_RING_KB", "16", 1);   /* a small ring wraps often (any size works) */
    if (tp->init(&boot)) {
        printf("FAILED: init\n");
        return 1;
    }
    EXPECT(tp->reaches(0));
    limit = tp->payload_limit();
    nslots = (limit + MICA_TRANSPORT_PKT) * 4 / MICA_SHM_SLOT;   /* the limit is a quarter ring */
    EXPECT(tp->recv_begin(0) == NULL);

    /* Fill the ring with one-slot packets: exactly nslots fit, then it is full. */
    for (size_t i = 0; i < nslots; i++)
        EXPECT(try_send(0));
    EXPECT(!try_send(0));
    while (try_recv())
        ;
    /* At the last slot with one slot free: a two-slot packet needs padding, and there is no
     * room for both, so nothing is written; a one-slot packet fits. */
    for (size_t i = 0; i < nslots - 1; i++)
        EXPECT(try_send(0));
    EXPECT(try_recv());
    EXPECT(!try_send(MICA_SHM_SLOT));
    EXPECT(pads == 0);
    EXPECT(try_send(0));
    while (try_recv())
        ;
    /* At slot 0 again; at the last slot with an empty ring, the two-slot packet goes to slot 0
     * after a padding packet, which the consumer never sees. */
    for (size_t i = 0; i < nslots - 1; i++)
        EXPECT(try_send(0));
    while (try_recv())
        ;
    EXPECT(try_send(MICA_SHM_SLOT) && pads == 1);
    EXPECT(try_send(0));
    EXPECT(try_recv() && try_recv() && !try_recv());
    /* A packet that ends exactly on the last slot takes no padding. */
    while (tail % nslots) {
        size_t left = nslots - tail % nslots, n = left < 4 ? left : 4;
        EXPECT(try_send(n * MICA_SHM_SLOT - MICA_TRANSPORT_PKT));
        EXPECT(try_recv());
    }
    EXPECT(pads == 1);
    EXPECT(try_send(limit) && try_recv());

    /* Then at random: bursts of sends and of receives, many times round the ring. */
    for (int round = 0; round < 200000; round++) {
        int burst = (int)(rnd() % 8) + 1;
        if (rnd() % 2) {
            for (int i = 0; i < burst && sent - received < 4096; i++)
                try_send(some_len());
        } else {
            for (int i = 0; i < burst; i++)
                try_recv();
        }
    }
    while (try_recv())
        ;
    EXPECT(pads > 1000 && fulls > 1000);
    EXPECT(tail / nslots > 1000);
    tp->finalize();
    printf("%s: %llu packets, %llu times round a ring of %zu slots, %llu paddings, %llu times full\n",
           failures ? "FAILED" : "PASS", (unsigned long long)sent,
           (unsigned long long)(tail / nslots), nslots, (unsigned long long)pads,
           (unsigned long long)fulls);
    return failures != 0;
}
