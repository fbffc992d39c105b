/* The transports compiled in, and which one serves each peer (see transport.h). */
#include <stdio.h>
#include <stdlib.h>

#include "transport/shm.h"
#include "transport/transport.h"

/* In order of preference: a peer gets the first transport that reaches it. A network
 * transport goes after shared memory, for the peers on other machines. */
static const mica_transport_t *const transports[] = {&mica_shm_transport};
#define NTRANSPORTS (sizeof transports / sizeof *transports)

static struct {
    int size;
    const mica_transport_t **of;      /* per world rank */
    unsigned started;                 /* how many of transports[] are initialised */
} tp;

int mica_transport_init(const mica_boot_t *boot)
{
    tp.size = boot->size;
    tp.of = calloc((size_t)boot->size, sizeof *tp.of);
    if (!tp.of)
        return -1;
    for (; tp.started < NTRANSPORTS; tp.started++)
        if (transports[tp.started]->init(boot))
            goto fail;
    for (int peer = 0; peer < boot->size; peer++) {
        for (unsigned t = 0; t < NTRANSPORTS && !tp.of[peer]; t++)
            if (transports[t]->reaches(peer))
                tp.of[peer] = transports[t];
        if (!tp.of[peer]) {
            fprintf(stderr, "mica: rank %d: no transport reaches rank %d\n", boot->rank, peer);
            goto fail;
        }
    }
    return 0;
fail:
    mica_transport_finalize();
    return -1;
}

void mica_transport_finalize(void)
{
    while (tp.started)
        transports[--tp.started]->finalize();
    free(tp.of);
    tp.of = NULL;
    tp.size = 0;
}

const mica_transport_t *mica_transport_of(int peer)
{
    return tp.of[peer];
}
