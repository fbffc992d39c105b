/* Communicators: queries, construction (dup, split, split_type, create, create_group),
 * comparison, groups, names, and freeing.
 *
 * Context ids: every communicator uses `context` for point-to-point and `context + 1` for its
 * collectives (MPI_COMM_WORLD 0/1, MPI_COMM_SELF 2/3). Each process keeps the next id it has
 * never used; a new communicator takes the largest such id of all the members of its parent
 * (agreed by an allgather over the parent), so no member can already use it, and every
 * member then moves past it. Ids are never reused: 2^30 communicators are enough. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coll/coll.h"
#include "core/attr.h"
#include "core/comm.h"
#include "core/errors.h"
#include "core/group.h"
#include "mpi/intercomm.h"
#include "core/progress.h"
#include "core_api.h"
#include "topo/topo.h"

void mica_errhandler_release(mica_errhandler_t *eh);

static uint32_t next_context = MICA_CONTEXT_FIRST_FREE;    /* under the big lock */

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

/* The world ranks of `comm`'s members, as a new array. */
static int *world_ranks(const mica_comm_t *comm)
{
    int *w = malloc((comm->size ? (size_t)comm->size : 1) * sizeof *w);
    if (w)
        for (int i = 0; i < comm->size; i++)
            w[i] = mica_comm_world_rank(comm, i);
    return w;
}

/* The largest candidate of an allgathered table of n ints per process. */
static uint32_t largest(const int *everyone, int n, int size)
{
    uint32_t ctx = 0;
    for (int i = 0; i < size; i++)
        if ((uint32_t)everyone[i * n] > ctx)
            ctx = (uint32_t)everyone[i * n];
    return ctx;
}

/* Agree with the other members of `comm` on a fresh context id (lock held). With `extra`,
 * each member also contributes `nextra` ints, gathered into all[p * (nextra + 1)]: the
 * context candidate first, then the ints (split uses this to learn every color and key).
 *
 * With MPI_THREAD_MULTIPLE another thread may create a communicator while we wait (the lock is
 * released then), so the largest candidate may have been given away here meanwhile: each member
 * takes it only if no id at or above it has gone, and all confirm, else they try again. */
static int agree(mica_comm_t *comm, int tag, const int *extra, int nextra, uint32_t *context,
                 int **all)
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
        mine[0] = (int)next_context;
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
        int ok = next_context <= ctx;
        if (ok)
            next_context = ctx + 2;
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

uint32_t mica_comm_context_candidate(void)
{
    return next_context;
}

int mica_comm_context_claim(uint32_t ctx, uint32_t span)
{
    if (next_context > ctx)
        return 0;
    next_context = ctx + span;
    return 1;
}

/* A new communicator of `size` members (their world ranks in `world`, malloc'd: taken over)
 * in which we are `rank`, with the error handler of `parent`. */
static int make(mica_comm_t *parent, uint32_t context, int size, int rank, int *world,
                MPI_Comm *newcomm)
{
    mica_comm_t *c = mica_obj_new(MICA_COMM, sizeof *c);
    if (!c) {
        free(world);
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

int mica_comm_make(mica_comm_t *parent, uint32_t context, int size, int rank, int *world,
                   MPI_Comm *newcomm)
{
    return make(parent, context, size, rank, world, newcomm);
}

/* A communicator's memory, once nothing refers to it (its attributes are gone). */
static void destroy(mica_comm_t *c)
{
    free(c->world);
    free(c->remote_world);
    mica_intercomm_free_local(c->local);
    free(c->bsend);
    mica_topo_free(c->topo);
    mica_errhandler_release(c->eo.errhandler);
    mica_obj_free(c);
}

static int dup_intra(mica_comm_t *comm, MPI_Comm *newcomm)
{
    uint32_t ctx;
    mica_lock();
    int rc = agree(comm, MICA_TAG_ALLGATHER, NULL, 0, &ctx, NULL);
    mica_unlock();
    if (rc != MPI_SUCCESS)
        return rc;
    int *world = NULL;
    if (comm->world && !(world = world_ranks(comm)))
        return mica_error(MPI_ERR_NO_MEM, "no memory for a new communicator");
    return make(comm, ctx, comm->size, comm->rank, world, newcomm);
}

static int dup_comm(mica_comm_t *comm, MPI_Comm *newcomm)
{
    int rc = comm->inter ? mica_intercomm_dup(comm, newcomm) : dup_intra(comm, newcomm);
    if (rc != MPI_SUCCESS)
        return rc;
    /* The duplicate has the same topology, and the attributes their copy callbacks copy; a
     * failure leaves no half-made communicator. */
    mica_comm_t *c = mica_comm_lookup(*newcomm);
    if (comm->topo)
        rc = mica_topo_copy(comm->topo, &c->topo);
    if (rc == MPI_SUCCESS)
        rc = mica_attr_copy_all(comm->eo.obj.handle, &comm->attrs, c->eo.obj.handle, &c->attrs);
    if (rc != MPI_SUCCESS) {
        destroy(c);
        *newcomm = MPI_COMM_NULL;
    }
    return rc;
}

int mica_comm_dup_hidden(mica_comm_t *comm, MPI_Comm *newcomm)
{
    return dup_intra(comm, newcomm);
}

int mica_comm_dup(mica_comm_t *comm, MPI_Comm *newcomm)
{
    return dup_comm(comm, newcomm);
}

int mica_comm_dup_with_info(mica_comm_t *comm, mica_info_t *info, MPI_Comm *newcomm)
{
    (void)info;                       /* no hints are acted on yet */
    return dup_comm(comm, newcomm);
}

/* The members of one color, in (key, parent rank) order. */
typedef struct {
    int key, rank;
} member_t;

static int by_key(const void *a, const void *b)
{
    const member_t *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* MPI_Comm_split with the lock held. */
static int split(mica_comm_t *comm, int color, int key, MPI_Comm *newcomm)
{
    if (comm->inter)
        return mica_intercomm_split(comm, color, key, newcomm);
    int extra[2] = {color, key}, *all, size = comm->size;
    uint32_t ctx;
    int rc = agree(comm, MICA_TAG_ALLGATHER, extra, 2, &ctx, &all);
    if (rc != MPI_SUCCESS)
        return rc;
    if (color == MPI_UNDEFINED) {
        free(all);
        *newcomm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    member_t *m = malloc((size_t)size * sizeof *m);
    int n = 0, rank = -1;
    if (!m) {
        free(all);
        return mica_error(MPI_ERR_NO_MEM, "no memory to split a communicator of %d processes",
                          size);
    }
    for (int i = 0; i < size; i++)
        if (all[3 * i + 1] == color)
            m[n++] = (member_t){all[3 * i + 2], i};
    free(all);
    qsort(m, (size_t)n, sizeof *m, by_key);
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
    return make(comm, ctx, n, rank, world, newcomm);
}

static int check_color(int color)
{
    if (color < 0 && color != MPI_UNDEFINED)
        return mica_error(MPI_ERR_ARG, "color=%d is negative (and not MPI_UNDEFINED)", color);
    return MPI_SUCCESS;
}

int mica_comm_split(mica_comm_t *comm, int color, int key, MPI_Comm *newcomm)
{
    int rc = check_color(color);
    if (rc != MPI_SUCCESS)
        return rc;
    mica_lock();
    rc = split(comm, color, key, newcomm);
    mica_unlock();
    return rc;
}

/* MPI_COMM_TYPE_SHARED: the processes of one host share memory. The host names are gathered,
 * and a process's color is the lowest rank on its host. */
static int host_color(mica_comm_t *comm, int *color)
{
    char name[MPI_MAX_PROCESSOR_NAME];
    memset(name, 0, sizeof name);
    if (gethostname(name, sizeof name - 1))
        strcpy(name, "localhost");
    char *all = malloc((size_t)comm->size * sizeof name);
    if (!all)
        return mica_error(MPI_ERR_NO_MEM, "no memory for %d host names", comm->size);
    mica_type_t *byte = &mica_type_MPI_BYTE;
    int rc = mica_coll_allgather_locked(name, sizeof name, byte, all, sizeof name, byte, comm);
    if (rc == MPI_SUCCESS)
        for (int i = 0; i < comm->size; i++)
            if (!strcmp(all + i * sizeof name, name)) {
                *color = i;
                break;
            }
    free(all);
    return rc;
}

int mica_comm_split_type(mica_comm_t *comm, int split_type, int key, mica_info_t *info,
                         MPI_Comm *newcomm)
{
    (void)info;
    int color = MPI_UNDEFINED, rc = MPI_SUCCESS;
    switch (split_type) {
    case MPI_UNDEFINED:
    case MPI_COMM_TYPE_SHARED:
    /* No hardware or resource hierarchy is known: these give MPI_COMM_NULL, as the standard
     * allows when no finer subset (or no recognised resource type) exists. */
    case MPI_COMM_TYPE_HW_UNGUIDED:
    case MPI_COMM_TYPE_HW_GUIDED:
    case MPI_COMM_TYPE_RESOURCE_GUIDED:
        break;
    default:
        return mica_error(MPI_ERR_ARG, "split_type=%d is not a split type", split_type);
    }
    mica_lock();
    /* Everyone takes part in the host exchange: the split type may differ between processes
     * (MPI_UNDEFINED). */
    int shared;
    rc = host_color(comm->inter ? comm->local : comm, &shared);
    if (rc == MPI_SUCCESS) {
        if (split_type == MPI_COMM_TYPE_SHARED)
            color = shared;
        rc = split(comm, color, key, newcomm);
    }
    mica_unlock();
    return rc;
}

/* Is every member of `group` in `comm`? */
static int check_subset(mica_comm_t *comm, mica_group_t *group)
{
    unsigned char *in = calloc((size_t)mica_comm_world.size + 1, 1);
    if (!in)
        return mica_error(MPI_ERR_NO_MEM, "no memory to create a communicator");
    for (int i = 0; i < comm->size; i++)
        in[mica_comm_world_rank(comm, i)] = 1;
    int rc = MPI_SUCCESS;
    for (int i = 0; i < group->size && rc == MPI_SUCCESS; i++)
        if (!in[group->world[i]])
            rc = mica_error(MPI_ERR_GROUP, "group member %d (world rank %d) is not in the "
                            "communicator", i, group->world[i]);
    free(in);
    return rc;
}

/* The new communicator of the members of `group`, which agreed on `ctx`. */
static int make_from_group(mica_comm_t *comm, mica_group_t *group, uint32_t ctx,
                           MPI_Comm *newcomm)
{
    int *world = malloc((size_t)group->size * sizeof *world);
    if (!world)
        return mica_error(MPI_ERR_NO_MEM, "no memory for a new communicator");
    memcpy(world, group->world, (size_t)group->size * sizeof *world);
    return make(comm, ctx, group->size, group->rank, world, newcomm);
}

int mica_comm_create(mica_comm_t *comm, mica_group_t *group, MPI_Comm *newcomm)
{
    int rc = check_subset(comm, group);
    if (rc != MPI_SUCCESS)
        return rc;
    if (comm->inter) {                /* each group's members of `group`, in the group's order */
        mica_lock();
        rc = mica_intercomm_split(comm, group->rank == MPI_UNDEFINED ? MPI_UNDEFINED : 0,
                                  group->rank, newcomm);
        mica_unlock();
        return rc;
    }
    uint32_t ctx;
    mica_lock();
    rc = agree(comm, MICA_TAG_ALLGATHER, NULL, 0, &ctx, NULL);
    mica_unlock();
    if (rc != MPI_SUCCESS)
        return rc;
    if (group->rank == MPI_UNDEFINED) {
        *newcomm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    return make_from_group(comm, group, ctx, newcomm);
}

/* Only the members of `group` take part: they agree among themselves, as a provisional
 * communicator of the group's processes that talks on `comm`'s collective context with tags
 * of their own. */
int mica_comm_create_group(mica_comm_t *comm, mica_group_t *group, int tag, MPI_Comm *newcomm)
{
    if (comm->inter)
        return mica_error(MPI_ERR_COMM, "comm is an intercommunicator: MPI_Comm_create_group "
                          "takes an intracommunicator");
    int rc = check_subset(comm, group);
    if (rc != MPI_SUCCESS)
        return rc;
    if (group->rank == MPI_UNDEFINED) {
        *newcomm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    mica_comm_t among = {.rank = group->rank, .size = group->size, .remote_size = group->size,
                         .world = group->world, .context = comm->context};
    uint32_t ctx;
    mica_lock();
    rc = agree(&among, mica_coll_group_tag(tag), NULL, 0, &ctx, NULL);
    mica_unlock();
    if (rc != MPI_SUCCESS)
        return rc;
    return make_from_group(comm, group, ctx, newcomm);
}

/* MPI_Comm_create_from_group (sessions): every process of the job is in MPI_COMM_WORLD's
 * process space, so the members agree as MPI_Comm_create_group's do, on its collective context,
 * with tags of the string tag, the even ones (MPI_Intercomm_create_from_groups takes the odd:
 * the two never match). */
int mica_comm_create_from_group(mica_group_t *group, const char *stringtag, mica_info_t *info,
                                mica_errhandler_t *errhandler, MPI_Comm *newcomm)
{
    (void)info;                       /* no hints are acted on */
    if (!stringtag)
        return mica_error(MPI_ERR_ARG, "stringtag is NULL");
    if (group->rank == MPI_UNDEFINED)
        return mica_error(MPI_ERR_GROUP, "this process is not a member of group");
    if (errhandler->kind && errhandler->kind != MICA_COMM)
        return mica_error(MPI_ERR_ARG, "errhandler is not a communicator error handler");
    mica_comm_t among = {.rank = group->rank, .size = group->size, .remote_size = group->size,
                         .world = group->world, .context = mica_comm_world.context};
    uint32_t ctx;
    mica_lock();
    int rc = agree(&among, mica_coll_group_tag(mica_string_tag(stringtag) & ~1), NULL, 0, &ctx,
                   NULL);
    mica_unlock();
    if (rc != MPI_SUCCESS)
        return rc;
    mica_comm_t parent = {.eo.errhandler = errhandler};    /* whose error handler it gets */
    return make_from_group(&parent, group, ctx, newcomm);
}

void mica_comm_retain(mica_comm_t *comm)
{
    if (!is_predefined(comm))
        __atomic_add_fetch(&comm->eo.obj.refs, 1, __ATOMIC_RELAXED);
}

void mica_comm_release(mica_comm_t *c)
{
    if (!is_predefined(c) && !__atomic_sub_fetch(&c->eo.obj.refs, 1, __ATOMIC_ACQ_REL))
        destroy(c);
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
    int *world = world_ranks(comm);
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
