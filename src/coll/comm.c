/* Communicators that the members make by a collective over their parent (comm.h): the context
 * id they agree on (core/comm.c says how ids are chosen and reused), and the intracommunicator
 * duplicate and split. */
#include <stdlib.h>
#include <string.h>

#include "coll/algorithms.h"
#include "coll/coll.h"
#include "coll/comm.h"
#include "coll/sched.h"
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

/* A reference of its own for ever: a nonblocking agreement's schedule keeps it alive. */
mica_op_t mica_coll_op_context = {.obj.refs = 1, .commutative = 1, .user_c = combine_offers};

int mica_coll_comm_choose(const uint32_t *agreed, const uint32_t *mine, int n, uint32_t *ctx,
                            int *ok, int *rc)
{
    *ok = 0;
    *rc = MPI_SUCCESS;
    int chosen = mica_comm_context_choose(agreed, n, ctx);
    if (chosen)
        *ok = mica_comm_context_claim(ctx, n);
    mica_comm_context_withdraw(mine);
    if (!chosen) {
        *rc = mica_error(MPI_ERR_INTERN, "out of communicator context ids");
        return 0;
    }
    if (agreed[MICA_CONTEXT_CONFIRM] || mica_comm_context_above(ctx, n))
        return 1;
    if (!*ok)
        *rc = mica_error(MPI_ERR_INTERN, "context id %u is in use already", ctx[0]);
    return 0;
}

int mica_coll_comm_agree(mica_comm_t *comm, int tag, uint32_t *context)
{
    uint32_t offer[MICA_CONTEXT_OFFER], mine[MICA_CONTEXT_OFFER];
    for (;;) {
        mica_comm_context_offer(mine, mica_locking);
        memcpy(offer, mine, sizeof offer);
        int rc = mica_coll_allreduce_tag_locked(MPI_IN_PLACE, offer, MICA_CONTEXT_OFFER,
                                                &mica_type_MPI_UINT32_T, &mica_coll_op_context,
                                                comm, tag);
        if (rc != MPI_SUCCESS) {
            mica_comm_context_withdraw(mine);
            return rc;
        }
        int ok, all_ok;
        if (!mica_coll_comm_choose(offer, mine, 1, context, &ok, &rc))
            return rc;
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

/* --- the nonblocking agreement (MPI_Comm_idup) ----------------------------------------------- */

/* The rounds of mica_coll_comm_agree as schedules, each started when the one before completes,
 * all on the tags of the one sequence number taken at the call: the members run them in the same
 * order, one after the other, so their messages meet in order. */
typedef struct iagree {
    mica_comm_t *comm;
    uint32_t seq;
    int n;                            /* pairs: 1, or 2 for an intercommunicator */
    uint32_t mine[MICA_CONTEXT_OFFER], offer[MICA_CONTEXT_OFFER], theirs[MICA_CONTEXT_OFFER];
    int ok, all_ok, their_ok;
    uint32_t ctx[2];
    mica_coll_agreed_fn *done;
    void *arg;
} iagree_t;

/* buf (n elements of type) becomes the combination by `op` of every member's: over an
 * intracommunicator an allreduce (recursive doubling: whole vectors); over an intercommunicator
 * the same in each group, the leaders swap, a broadcast in each group, and each combines the
 * other group's result into its own (`theirs`: room for it). */
static void build_combine(mica_sched_t *s, mica_comm_t *comm, void *buf, void *theirs, int n,
                          mica_type_t *type, mica_op_t *op)
{
    mica_comm_t *local = comm->inter ? comm->local : comm;
    mica_coll_args_t a = {.sbuf = MPI_IN_PLACE, .rbuf = buf, .rcount = n, .rtype = type,
                          .op = op};
    mica_sched_on(s, local);
    mica_coll_allreduce_recursive_doubling(s, &a, local);
    if (!comm->inter)
        return;
    mica_sched_barrier(s);
    if (comm->rank == 0) {
        mica_sched_on(s, comm);
        mica_sched_send(s, buf, n, type, 0);
        mica_sched_recv(s, theirs, n, type, 0);
        mica_sched_barrier(s);
        mica_sched_on(s, local);
    }
    mica_coll_args_t b = {.rbuf = theirs, .rcount = n, .rtype = type, .root = 0};
    mica_coll_build_bcast(s, &b, local);
    mica_sched_barrier(s);
    mica_sched_reduce(s, theirs, buf, n, type, op);
}

static int start_round(iagree_t *g, mica_sched_done_fn *next, void *buf, void *theirs, int n,
                       mica_type_t *type, mica_op_t *op)
{
    mica_sched_t *s = mica_sched_new_seq(g->comm, g->seq);
    if (s)
        build_combine(s, g->comm, buf, theirs, n, type, op);
    return mica_sched_start_cb(s, next, g);
}

static void end(iagree_t *g, int rc)
{
    g->done(g->arg, rc, g->ctx);
    free(g);
}

static void offered(void *arg, int rc);

/* Start a round of offers; on error nothing was sent. */
static int offer_round(iagree_t *g)
{
    mica_comm_context_offer(g->mine, mica_locking);
    memcpy(g->offer, g->mine, sizeof g->offer);
    int rc = start_round(g, offered, g->offer, g->theirs, MICA_CONTEXT_OFFER,
                         &mica_type_MPI_UINT32_T, &mica_coll_op_context);
    if (rc != MPI_SUCCESS)
        mica_comm_context_withdraw(g->mine);
    return rc;
}

/* The confirmation: all claimed, or all give back and offer again. */
static void confirmed(void *arg, int rc)
{
    iagree_t *g = arg;
    if (rc == MPI_SUCCESS && g->all_ok) {
        end(g, MPI_SUCCESS);
        return;
    }
    for (int i = 0; g->ok && i < g->n; i++)
        mica_comm_context_release(g->ctx[i]);
    if (rc == MPI_SUCCESS)
        rc = offer_round(g);
    if (rc != MPI_SUCCESS)
        end(g, rc);
}

/* The offers are combined: choose, claim, and confirm when it must be. */
static void offered(void *arg, int rc)
{
    iagree_t *g = arg;
    if (rc != MPI_SUCCESS) {
        mica_comm_context_withdraw(g->mine);
        end(g, rc);
        return;
    }
    if (!mica_coll_comm_choose(g->offer, g->mine, g->n, g->ctx, &g->ok, &rc)) {
        end(g, rc);
        return;
    }
    g->all_ok = g->ok;
    rc = start_round(g, confirmed, &g->all_ok, &g->their_ok, 1, &mica_type_MPI_INT,
                     &mica_op_MPI_MIN);
    if (rc != MPI_SUCCESS) {
        for (int i = 0; g->ok && i < g->n; i++)
            mica_comm_context_release(g->ctx[i]);
        end(g, rc);
    }
}

int mica_coll_comm_iagree(mica_comm_t *comm, mica_coll_agreed_fn *done, void *arg)
{
    iagree_t *g = calloc(1, sizeof *g);
    uint32_t seq = mica_sched_reserve(comm);    /* taken even if we fail: the others go on */
    if (!g)
        return mica_error(MPI_ERR_NO_MEM, "no memory for a communicator's agreement");
    *g = (iagree_t){.comm = comm, .seq = seq, .n = comm->inter ? 2 : 1, .done = done,
                    .arg = arg};
    int rc = offer_round(g);          /* g may be gone already when it succeeds */
    if (rc != MPI_SUCCESS)
        free(g);
    return rc;
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
