/* Communicators that the members make by a collective over their parent (comm.h): the context
 * id they agree on (core/comm.c says how ids are chosen), and the intracommunicator duplicate
 * and split. */
#include <stdlib.h>

#include "coll/algorithms.h"
#include "coll/coll.h"
#include "coll/comm.h"
#include "core/errors.h"
#include "core/progress.h"

/* The largest candidate of an allgathered table of n ints per process. */
static uint32_t largest(const int *everyone, int n, int size)
{
    uint32_t ctx = 0;
    for (int i = 0; i < size; i++)
        if ((uint32_t)everyone[i * n] > ctx)
            ctx = (uint32_t)everyone[i * n];
    return ctx;
}

/* With MPI_THREAD_MULTIPLE another thread may create a communicator while we wait (the lock is
 * released then), so the largest candidate may have been given away here meanwhile: each member
 * takes it only if no id at or above it has gone, and all confirm, else they try again. */
int mica_coll_comm_agree(mica_comm_t *comm, int tag, const int *extra, int nextra,
                         uint32_t *context, int **all)
{
    int n = nextra + 1, size = comm->size, rc;
    int *mine = malloc((size_t)n * sizeof *mine);
    int *everyone = malloc((size_t)n * size * sizeof *everyone);
    int *oks = malloc((size_t)size * sizeof *oks);
    if (!mine || !everyone || !oks) {
        rc = mica_error(MPI_ERR_NO_MEM, "no memory to create a communicator of %d processes",
                        size);
        goto out;
    }
    mica_type_t *byte = &mica_type_MPI_BYTE;
    for (int i = 0; i < nextra; i++)
        mine[i + 1] = extra[i];
    for (int round = 0;; round++) {
        mine[0] = (int)mica_comm_context_candidate();
        if (round == 0)
            rc = mica_coll_allgather_tag_locked(mine, n * (MPI_Count)sizeof(int), byte, everyone,
                                                n * (MPI_Count)sizeof(int), byte, comm, tag);
        else                          /* the extra ints are known already */
            rc = mica_coll_allgather_tag_locked(mine, sizeof(int), byte, oks, sizeof(int), byte,
                                                comm, tag);
        if (rc != MPI_SUCCESS)
            goto out;
        uint32_t ctx = round == 0 ? largest(everyone, n, size) : largest(oks, 1, size);
        if (ctx > (uint32_t)INT32_MAX - 2) {
            rc = mica_error(MPI_ERR_INTERN, "out of communicator context ids");
            goto out;
        }
        int ok = mica_comm_context_claim(ctx, 2);
        *context = ctx;
        if (!mica_locking)            /* one thread calls MPI at a time: nothing can interfere */
            break;
        rc = mica_coll_allgather_tag_locked(&ok, sizeof ok, byte, oks, sizeof ok, byte, comm, tag);
        if (rc != MPI_SUCCESS)
            goto out;
        int all_ok = 1;
        for (int i = 0; i < size; i++)
            all_ok &= oks[i];
        if (all_ok)
            break;
    }
    if (all) {
        *all = everyone;
        everyone = NULL;
    }
out:
    free(mine);
    free(everyone);
    free(oks);
    return rc;
}

int mica_coll_comm_dup_hidden(mica_comm_t *comm, MPI_Comm *newcomm)
{
    uint32_t ctx;
    int rc = mica_coll_comm_agree(comm, MICA_TAG_ALLGATHER, NULL, 0, &ctx, NULL);
    if (rc != MPI_SUCCESS)
        return rc;
    int *world = NULL;
    if (comm->world && !(world = mica_comm_world_ranks(comm)))
        return mica_error(MPI_ERR_NO_MEM, "no memory for a new communicator");
    return mica_comm_make(comm, ctx, comm->size, comm->rank, world, newcomm);
}

int mica_coll_comm_split(mica_comm_t *comm, int color, int key, MPI_Comm *newcomm)
{
    int extra[2] = {color, key}, *all, size = comm->size;
    uint32_t ctx;
    int rc = mica_coll_comm_agree(comm, MICA_TAG_ALLGATHER, extra, 2, &ctx, &all);
    if (rc != MPI_SUCCESS)
        return rc;
    if (color == MPI_UNDEFINED) {
        free(all);
        *newcomm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    mica_comm_member_t *m = malloc((size_t)size * sizeof *m);
    int n = 0, rank = -1;
    if (!m) {
        free(all);
        return mica_error(MPI_ERR_NO_MEM, "no memory to split a communicator of %d processes",
                          size);
    }
    for (int i = 0; i < size; i++)
        if (all[3 * i + 1] == color)
            m[n++] = (mica_comm_member_t){all[3 * i + 2], i};
    free(all);
    qsort(m, (size_t)n, sizeof *m, mica_comm_member_order);
    int *world = malloc((size_t)n * sizeof *world);
    if (!world) {
        free(m);
        return mica_error(MPI_ERR_NO_MEM, "no memory for a new communicator");
    }
    for (int i = 0; i < n; i++) {
        world[i] = mica_comm_world_rank(comm, m[i].rank);
        if (m[i].rank == comm->rank)
            rank = i;
    }
    free(m);
    return mica_comm_make(comm, ctx, n, rank, world, newcomm);
}
