/* Communicators that the members make by a collective over their parent (comm.h): the context
 * id they agree on (core/comm.c says how ids are chosen and reused), and the intracommunicator
 * duplicate and split. */
#include <stdlib.h>

#include "coll/algorithms.h"
#include "coll/coll.h"
#include "coll/comm.h"
#include "core/errors.h"
#include "core/progress.h"
#include "core/state.h"

/* The context offers' reduction (core/comm.h), as an operation, so that the allreduce and the
 * intercommunicators' exchanges (mpi/intercomm.c) apply it like any other. */
static void combine_offers(void *in, void *inout, MPI_Count *len, MPI_Datatype *type)
{
    (void)type;
    if (*len != MICA_CONTEXT_OFFER)   /* its words differ in kind: only whole offers combine */
        mica_abort_job(1, "Mica: internal error: a context offer was split\n");
    mica_comm_context_combine(in, inout);
}

mica_op_t mica_coll_op_context = {.commutative = 1, .user_c = combine_offers};

int mica_coll_comm_agree(mica_comm_t *comm, int tag, uint32_t *context)
{
    uint32_t offer[MICA_CONTEXT_OFFER];
    for (;;) {
        mica_comm_context_offer(offer, mica_locking);
        int rc = mica_coll_allreduce_tag_locked(MPI_IN_PLACE, offer, MICA_CONTEXT_OFFER,
                                                &mica_type_MPI_UINT32_T, &mica_coll_op_context,
                                                comm, tag);
        if (rc != MPI_SUCCESS)
            return rc;
        if (!mica_comm_context_choose(offer, 1, context))
            return mica_error(MPI_ERR_INTERN, "out of communicator context ids");
        int ok = mica_comm_context_claim(context, 1), all_ok;
        /* No member runs threads that could have taken the id meanwhile: it is ours. Every
         * member decides this alike, from the combined offer. */
        if (!offer[MICA_CONTEXT_CONFIRM])
            return ok ? MPI_SUCCESS
                      : mica_error(MPI_ERR_INTERN, "context id %u is in use already", *context);
        rc = mica_coll_allreduce_tag_locked(&ok, &all_ok, 1, &mica_type_MPI_INT, &mica_op_MPI_MIN,
                                            comm, tag);
        if (rc == MPI_SUCCESS && all_ok)
            return MPI_SUCCESS;
        if (ok)                       /* another member lost it: give it back, try again */
            mica_comm_context_release(*context);
        if (rc != MPI_SUCCESS)
            return rc;
    }
}

int mica_coll_comm_dup_hidden(mica_comm_t *comm, MPI_Comm *newcomm)
{
    uint32_t ctx;
    int rc = mica_coll_comm_agree(comm, MICA_TAG_ALLREDUCE, &ctx);
    if (rc != MPI_SUCCESS)
        return rc;
    int *world = NULL;
    if (comm->world && !(world = mica_comm_world_ranks(comm))) {
        mica_comm_context_release(ctx);
        return mica_error(MPI_ERR_NO_MEM, "no memory for a new communicator");
    }
    return mica_comm_make(comm, ctx, comm->size, comm->rank, world, newcomm);
}

int mica_coll_comm_split(mica_comm_t *comm, int color, int key, MPI_Comm *newcomm)
{
    int mine[2] = {color, key}, size = comm->size;
    int *all = malloc((size_t)size * 2 * sizeof *all);
    if (!all)
        return mica_error(MPI_ERR_NO_MEM, "no memory to split a communicator of %d processes",
                          size);
    uint32_t ctx;
    int rc = mica_coll_allgather_locked(mine, 2, &mica_type_MPI_INT, all, 2, &mica_type_MPI_INT,
                                        comm);
    if (rc == MPI_SUCCESS)
        rc = mica_coll_comm_agree(comm, MICA_TAG_ALLREDUCE, &ctx);
    if (rc != MPI_SUCCESS || color == MPI_UNDEFINED) {
        free(all);
        if (rc == MPI_SUCCESS)        /* in no new communicator: the id is not ours to keep */
            mica_comm_context_release(ctx);
        *newcomm = MPI_COMM_NULL;
        return rc;
    }
    mica_comm_member_t *m = malloc((size_t)size * sizeof *m);
    int n = 0, rank = -1;
    if (!m) {
        free(all);
        mica_comm_context_release(ctx);
        return mica_error(MPI_ERR_NO_MEM, "no memory to split a communicator of %d processes",
                          size);
    }
    for (int i = 0; i < size; i++)
        if (all[2 * i] == color)
            m[n++] = (mica_comm_member_t){all[2 * i + 1], i};
    free(all);
    qsort(m, (size_t)n, sizeof *m, mica_comm_member_order);
    int *world = malloc((size_t)n * sizeof *world);
    if (!world) {
        free(m);
        mica_comm_context_release(ctx);
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
