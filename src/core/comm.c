/* Communicator objects: queries, the object's construction and destruction, context ids,
 * comparison, groups and names. Building a communicator that its members must agree on is the
 * business of the floors above (coll/comm.c, mpi/comm.c, mpi/intercomm.c).
 *
 * Context ids: every communicator uses `context` for point-to-point and `context + 1` for its
 * collectives (MPI_COMM_WORLD 0/1, MPI_COMM_SELF 2/3); an intercommunicator has a second pair
 * for its hidden local communicator. The ids above those are handed out in two ways:
 *   - a window of MICA_CONTEXT_SLOTS pairs is reused, as MPICH does with its mask: each process
 *     keeps a bit per pair, set while no communicator of its own uses the pair. The members of
 *     the parent combine their offers (mica_comm_context_combine: the bitwise AND of the masks,
 *     by a reduction over the parent) and take the lowest pair free at all of them; the pair
 *     comes back when the communicator object is destroyed, i.e. when its last reference goes
 *     (MPI_Comm_free, and any pending request or nonblocking collective still using it), so no
 *     message of the old communicator can meet the new one. A program that dups and frees for
 *     ever never runs out.
 *   - when no pair is free at every member (thousands of communicators alive at once), the
 *     members take ids above the window from the largest of their high-water marks (the next id
 *     each has never used, part of the same offer) and all move past them. These are never
 *     reused: 2^30 of them are enough, and no bound on live communicators follows from the
 *     window's size.
 * A process that takes part in an agreement but gets no communicator (MPI_UNDEFINED) gives its
 * ids back at once.
 * Agreements may overlap at a process: a nonblocking one (MPI_Comm_idup) is pending while others
 * run, and with MPI_THREAD_MULTIPLE another thread may agree while the lock is let go during a
 * reduction. So the window pairs a process offers are promised to that agreement until it ends
 * (mica_comm_context_withdraw): offers made meanwhile leave them out, and the pair an agreement
 * chooses, free in every member's offer, cannot have gone to another. (An agreement that
 * overlaps another here thus finds few pairs free in the window, maybe none: then it takes ids
 * above it.)
 * Ids above the window cannot be promised that way (the members take the largest high-water
 * mark): successive offers at a process start further up, and every member claims the chosen
 * ids (all or none) and all confirm, or else give them back and try again, when the choice is
 * above the window or a member runs threads (coll/comm.c, mpi/intercomm.c). */
#include <stdlib.h>
#include <string.h>

#include "core/attr.h"
#include "core/comm.h"
#include "core/errors.h"
#include "core/group.h"
#include "core/state.h"
#include "core_api.h"

/* Both under the big lock. A set bit of `used` is a window pair in use here (static zero: all
 * free); next_context is the first id above the window never used here. */
static uint32_t used[MICA_CONTEXT_WORDS];
static uint32_t next_context = MICA_CONTEXT_HIGH;
/* The window pairs promised to agreements under way here, and where the next offer's
 * high-water mark starts (at least next_context). */
static uint32_t promised[MICA_CONTEXT_WORDS];
static uint32_t next_offer = MICA_CONTEXT_HIGH;

int mica_comm_size(mica_comm_t *comm, int *size)
{
    *size = comm->size;
    return MPI_SUCCESS;
}

int mica_comm_rank(mica_comm_t *comm, int *rank)
{
    *rank = comm->rank;
    return MPI_SUCCESS;
}

/* --- construction ------------------------------------------------------------------------ */

static int is_predefined(const mica_comm_t *comm)
{
    return comm->eo.obj.handle < MICA_PREDEFINED_MAX;
}

int *mica_comm_world_ranks(const mica_comm_t *comm)
{
    int *w = malloc((comm->size ? (size_t)comm->size : 1) * sizeof *w);
    if (w)
        for (int i = 0; i < comm->size; i++)
            w[i] = mica_comm_world_rank(comm, i);
    return w;
}

/* --- context ids ---------------------------------------------------------------------------- */

static int in_window(uint32_t ctx)
{
    return ctx >= MICA_CONTEXT_FIRST_FREE && ctx < MICA_CONTEXT_HIGH;
}

void mica_comm_context_offer(uint32_t offer[MICA_CONTEXT_OFFER], int confirm)
{
    for (int w = 0; w < MICA_CONTEXT_WORDS; w++) {
        offer[w] = ~used[w] & ~promised[w];
        promised[w] |= offer[w];
    }
    if (next_offer < next_context)
        next_offer = next_context;
    offer[MICA_CONTEXT_NEXT] = next_offer;
    /* An intercommunicator's agreement takes 2 pairs: the next offer starts past them. */
    if (next_offer <= (uint32_t)INT32_MAX - 4)
        next_offer += 4;
    offer[MICA_CONTEXT_CONFIRM] = confirm != 0;
}

void mica_comm_context_withdraw(const uint32_t offer[MICA_CONTEXT_OFFER])
{
    for (int w = 0; w < MICA_CONTEXT_WORDS; w++)
        promised[w] &= ~offer[w];
}

int mica_comm_context_above(const uint32_t *ctx, int n)
{
    for (int i = 0; i < n; i++)
        if (!in_window(ctx[i]))
            return 1;
    return 0;
}

void mica_comm_context_combine(const uint32_t *in, uint32_t *inout)
{
    for (int w = 0; w < MICA_CONTEXT_WORDS; w++)
        inout[w] &= in[w];
    for (int w = MICA_CONTEXT_NEXT; w <= MICA_CONTEXT_CONFIRM; w++)
        if (in[w] > inout[w])
            inout[w] = in[w];
}

int mica_comm_context_choose(const uint32_t agreed[MICA_CONTEXT_OFFER], int n, uint32_t *ctx)
{
    int found = 0;
    for (int w = 0; w < MICA_CONTEXT_WORDS && found < n; w++)
        for (uint32_t bits = agreed[w]; bits && found < n; bits &= bits - 1)
            ctx[found++] = MICA_CONTEXT_FIRST_FREE + 2 * (32 * (uint32_t)w + __builtin_ctz(bits));
    if (found == n)
        return 1;
    /* Not n pairs free at every member: all take fresh ids above everyone's high-water mark. */
    uint32_t next = agreed[MICA_CONTEXT_NEXT];
    if (next > (uint32_t)INT32_MAX - 2 * (uint32_t)n)
        return 0;
    for (int i = 0; i < n; i++)
        ctx[i] = next + 2 * (uint32_t)i;
    return 1;
}

int mica_comm_context_claim(const uint32_t *ctx, int n)
{
    uint32_t next = next_context;
    for (int i = 0; i < n; i++) {
        uint32_t slot = (ctx[i] - MICA_CONTEXT_FIRST_FREE) / 2;
        if (in_window(ctx[i]) ? used[slot / 32] >> slot % 32 & 1 : ctx[i] < next_context)
            return 0;                 /* gone to another thread meanwhile: take none */
    }
    for (int i = 0; i < n; i++) {
        uint32_t slot = (ctx[i] - MICA_CONTEXT_FIRST_FREE) / 2;
        if (in_window(ctx[i]))
            used[slot / 32] |= 1u << slot % 32;
        else if (ctx[i] + 2 > next)
            next = ctx[i] + 2;
    }
    next_context = next;
    return 1;
}

void mica_comm_context_release(uint32_t ctx)
{
    uint32_t slot = (ctx - MICA_CONTEXT_FIRST_FREE) / 2;
    if (in_window(ctx))               /* ids above the window are never reused */
        used[slot / 32] &= ~(1u << slot % 32);
}

int mica_comm_make(mica_comm_t *parent, uint32_t context, int size, int rank, int *world,
                   MPI_Comm *newcomm)
{
    mica_comm_t *c = mica_obj_new(MICA_COMM, sizeof *c);
    if (!c) {
        free(world);
        mica_comm_context_release(context);
        return mica_error(MPI_ERR_NO_MEM, "no memory for a new communicator");
    }
    /* The same processes in the same order as MPI_COMM_WORLD: no table needed. */
    int identity = world && size == mica_comm_world.size;
    for (int i = 0; identity && i < size; i++)
        identity = world[i] == i;
    if (identity) {
        free(world);
        world = NULL;
    }
    c->rank = rank;
    c->size = c->remote_size = size;
    c->world = world;
    c->context = context;
    mica_errhandler_t *eh = parent->eo.errhandler;
    if (eh->obj.handle >= MICA_PREDEFINED_MAX)
        __atomic_add_fetch(&eh->obj.refs, 1, __ATOMIC_RELAXED);
    c->eo.errhandler = eh;
    *newcomm = (MPI_Comm)c->eo.obj.handle;
    return MPI_SUCCESS;
}

/* --- extensions ---------------------------------------------------------------------------- */

/* The registered kinds of extension (comm.h). */
#define MAX_EXTENSIONS 4
static const mica_comm_ext_t *extensions[MAX_EXTENSIONS];
static int nextensions;

void mica_comm_register_ext(const mica_comm_ext_t *ext)
{
    for (int i = 0; i < nextensions; i++)
        if (extensions[i] == ext)
            return;
    if (nextensions == MAX_EXTENSIONS)
        mica_abort_job(1, "Mica: internal error: too many kinds of communicator extension\n");
    extensions[nextensions++] = ext;
}

int mica_comm_copy_ext(const mica_comm_t *comm, mica_comm_t *dup)
{
    int rc = MPI_SUCCESS;
    for (int i = 0; i < nextensions && rc == MPI_SUCCESS; i++)
        if (extensions[i]->copy)
            rc = extensions[i]->copy(comm, dup);
    return rc;
}

/* --- destruction --------------------------------------------------------------------------- */

/* A communicator's memory, once nothing refers to it (its attributes are gone). */
void mica_comm_destroy(mica_comm_t *c)
{
    /* Nothing uses its ids any more: pending requests and collectives held a reference. */
    mica_comm_context_release(c->context);
    free(c->world);
    free(c->remote_world);
    free(c->bsend);
    for (int i = 0; i < nextensions; i++)
        extensions[i]->free(c);
    mica_errhandler_release(c->eo.errhandler);
    mica_obj_free(c);
}

void mica_comm_retain(mica_comm_t *comm)
{
    if (!is_predefined(comm))
        __atomic_add_fetch(&comm->eo.obj.refs, 1, __ATOMIC_RELAXED);
}

void mica_comm_release(mica_comm_t *c)
{
    if (!is_predefined(c) && !__atomic_sub_fetch(&c->eo.obj.refs, 1, __ATOMIC_ACQ_REL))
        mica_comm_destroy(c);
}

int mica_comm_free(MPI_Comm *comm)
{
    mica_comm_t *c = mica_comm_lookup(*comm);
    if (is_predefined(c))
        return mica_error(MPI_ERR_COMM, "%s cannot be freed",
                          c == &mica_comm_world ? "MPI_COMM_WORLD" : "MPI_COMM_SELF");
    /* The delete callbacks run first, and any of them can refuse: then nothing is freed. */
    int rc = mica_attr_delete_all(c->eo.obj.handle, &c->attrs);
    if (rc != MPI_SUCCESS)
        return rc;
    mica_comm_release(c);             /* pending nonblocking collectives may still hold it */
    *comm = MPI_COMM_NULL;
    return MPI_SUCCESS;
}

/* --- comparison and groups ------------------------------------------------------------------ */

/* How two groups of world ranks compare: MPI_CONGRUENT (the same order), MPI_SIMILAR (the same
 * members), MPI_UNEQUAL; -1 when out of memory. NULL lists are the identity. */
static int compare_members(const int *w1, int n1, const int *w2, int n2)
{
    if (n1 != n2)
        return MPI_UNEQUAL;
    int same_order = 1;
    for (int i = 0; same_order && i < n1; i++)
        same_order = (w1 ? w1[i] : i) == (w2 ? w2[i] : i);
    if (same_order)
        return MPI_CONGRUENT;
    unsigned char *in1 = calloc((size_t)mica_comm_world.size + 1, 1);
    if (!in1)
        return -1;
    for (int i = 0; i < n1; i++)
        in1[w1 ? w1[i] : i] = 1;
    int result = MPI_SIMILAR;
    for (int i = 0; i < n2; i++)
        if (!in1[w2 ? w2[i] : i]) {
            result = MPI_UNEQUAL;
            break;
        }
    free(in1);
    return result;
}

int mica_comm_compare(mica_comm_t *comm1, mica_comm_t *comm2, int *result)
{
    if (comm1 == comm2) {
        *result = MPI_IDENT;
        return MPI_SUCCESS;
    }
    if (comm1->inter != comm2->inter) {
        *result = MPI_UNEQUAL;
        return MPI_SUCCESS;
    }
    /* Intercommunicators compare both groups; the weaker outcome counts. */
    int local = compare_members(comm1->world, comm1->size, comm2->world, comm2->size);
    int remote = comm1->inter ? compare_members(comm1->remote_world, comm1->remote_size,
                                                comm2->remote_world, comm2->remote_size)
                              : MPI_CONGRUENT;
    if (local < 0 || remote < 0)
        return mica_error(MPI_ERR_NO_MEM, "no memory to compare communicators");
    *result = local == MPI_UNEQUAL || remote == MPI_UNEQUAL ? MPI_UNEQUAL
            : local == MPI_SIMILAR || remote == MPI_SIMILAR ? MPI_SIMILAR : MPI_CONGRUENT;
    return MPI_SUCCESS;
}

int mica_comm_group(mica_comm_t *comm, MPI_Group *group)
{
    int *world = mica_comm_world_ranks(comm);
    mica_group_t *g = world ? mica_group_new(world, comm->size) : NULL;
    if (!g)
        return mica_error(MPI_ERR_NO_MEM, "no memory for a new group");
    *group = mica_group_handle(g);
    return MPI_SUCCESS;
}

/* --- names ------------------------------------------------------------------------------------ */

int mica_comm_set_name(mica_comm_t *comm, const char *comm_name)
{
    if (!comm_name)
        return mica_error(MPI_ERR_ARG, "comm_name is NULL");
    size_t n = strnlen(comm_name, MPI_MAX_OBJECT_NAME - 1);
    memcpy(comm->name, comm_name, n);
    comm->name[n] = '\0';
    return MPI_SUCCESS;
}

int mica_comm_get_name(mica_comm_t *comm, char *comm_name, int *resultlen)
{
    if (!comm_name)
        return mica_error(MPI_ERR_ARG, "comm_name is NULL");
    size_t n = strnlen(comm->name, MPI_MAX_OBJECT_NAME - 1);
    memcpy(comm_name, comm->name, n);
    comm_name[n] = '\0';
    *resultlen = (int)n;
    return MPI_SUCCESS;
}

int mica_comm_member_order(const void *a, const void *b)
{
    const mica_comm_member_t *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->rank < y->rank ? -1 : x->rank > y->rank;
}
