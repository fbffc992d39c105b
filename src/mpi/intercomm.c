/* Intercommunicators: MPI_Intercomm_create (and _from_groups), MPI_Intercomm_merge, the
 * remote-group queries, and MPI_Comm_dup and MPI_Comm_split (hence MPI_Comm_create and
 * split_type) on one.
 *
 * An intercommunicator keeps its local group as an intracommunicator does (rank, size, world)
 * and its remote group in remote_size and remote_world: point-to-point ranks name the remote
 * group (mica_comm_peer_world), and a packet's source is the sender's local rank, which is the
 * receiver's remote rank. It also keeps a hidden intracommunicator of its local group for the
 * local phases of its collectives (src/coll/inter.c).
 *
 * Context ids (core/comm.c): an intercommunicator takes two pairs, agreed by both groups: one
 * for itself, one for its hidden local communicator. Each group combines its members' offers
 * (an allreduce), the leaders swap theirs, and each group combines the two, so every member of
 * both groups chooses the same pairs, which none of them uses yet. When coll/comm.c's agreement
 * would, all members then confirm and try again if an id went elsewhere meanwhile. MPI_Comm_idup
 * agrees the same way without blocking (coll/comm.c, mica_coll_comm_iagree). */
#include <stdlib.h>
#include <string.h>

#include "coll/algorithms.h"
#include "coll/coll.h"
#include "coll/comm.h"
#include "core/errors.h"
#include "core/group.h"
#include "core/progress.h"
#include "core_api.h"
#include "mpi/intercomm.h"

#define INTS (&mica_type_MPI_INT)

/* How a group reaches the other while an intercommunicator is made: the local leader (rank
 * `leader` of the group's intracommunicator `local`) talks to the remote leader, rank `peer` of
 * `comm`, on comm's collective context with `tag`; comm and peer matter at the leader only.
 * `local_tag` 0: `local` is a communicator of its own, whose collectives run as usual; else it
 * is a provisional one on a shared context (MPI_Intercomm_create_from_groups), where only
 * mica_coll_allgather_tag_locked with that tag keeps its messages apart. */
typedef struct {
    mica_comm_t *local;
    int leader;
    mica_comm_t *comm;
    int peer, tag, local_tag;
} bridge_t;

/* n ints from the local leader to every member of the local group. */
static int local_bcast(const bridge_t *b, int *buf, int n)
{
    if (!b->local_tag)
        return mica_coll_bcast_locked(buf, n, INTS, b->leader, b->local);
    if (n == 0)
        return MPI_SUCCESS;
    int *all = malloc((size_t)b->local->size * n * sizeof *all);
    if (!all)
        return mica_error(MPI_ERR_NO_MEM, "no memory for %d ints", b->local->size * n);
    int rc = mica_coll_allgather_tag_locked(buf, n, INTS, all, n, INTS, b->local, b->local_tag);
    if (rc == MPI_SUCCESS)
        memcpy(buf, all + (size_t)b->leader * n, (size_t)n * sizeof *buf);
    free(all);
    return rc;
}

/* buf[n] becomes the result of `op` over the n ints of every member of the local group. */
static int local_allreduce(const bridge_t *b, int *buf, int n, mica_op_t *op)
{
    if (!b->local_tag)
        return mica_coll_allreduce_tag_locked(MPI_IN_PLACE, buf, n, INTS, op, b->local,
                                              MICA_TAG_ALLREDUCE);
    int *all = malloc((size_t)b->local->size * n * sizeof *all);
    if (!all)
        return mica_error(MPI_ERR_NO_MEM, "no memory for %d ints", b->local->size * n);
    int rc = mica_coll_allgather_tag_locked(buf, n, INTS, all, n, INTS, b->local, b->local_tag);
    for (int i = 1; rc == MPI_SUCCESS && i < b->local->size; i++)
        rc = mica_op_apply(op, all + (size_t)(i - 1) * n, all + (size_t)i * n, n, INTS);
    if (rc == MPI_SUCCESS)
        memcpy(buf, all + (size_t)(b->local->size - 1) * n, (size_t)n * sizeof *buf);
    free(all);
    return rc;
}

/* The bridge of an existing intercommunicator: the leaders are the local and remote rank 0. */
static bridge_t bridge_of(mica_comm_t *inter, int tag)
{
    return (bridge_t){.local = inter->local, .leader = 0, .comm = inter, .peer = 0, .tag = tag};
}

/* The leaders swap ints (nout of ours for nin of theirs); then each group has theirs. */
static int swap(const bridge_t *b, const int *out, int nout, int *in, int nin)
{
    int rc = MPI_SUCCESS;
    if (b->local->rank == b->leader)
        rc = mica_coll_sendrecv(out, nout, INTS, b->peer, in, nin, INTS, b->peer, b->tag,
                                b->comm);
    if (rc == MPI_SUCCESS)
        rc = local_bcast(b, in, nin);
    return rc;
}

/* buf[n] becomes the result of `op` over the n ints of every member of both groups (n up to
 * a context offer's). */
static int reduce_both(const bridge_t *b, int *buf, int n, mica_op_t *op)
{
    int theirs[MICA_CONTEXT_OFFER];
    int rc = local_allreduce(b, buf, n, op);
    if (rc == MPI_SUCCESS)
        rc = swap(b, buf, n, theirs, n);
    if (rc == MPI_SUCCESS)
        rc = mica_op_apply(op, theirs, buf, n, INTS);
    return rc;
}

/* Agree with every member of both groups on n pairs of context ids, ctx[n], and claim them
 * (lock held). */
static int agree_both(const bridge_t *b, int n, uint32_t *ctx)
{
    uint32_t offer[MICA_CONTEXT_OFFER], mine[MICA_CONTEXT_OFFER];
    for (;;) {
        mica_comm_context_offer(mine, mica_locking);
        memcpy(offer, mine, sizeof offer);
        int rc = reduce_both(b, (int *)offer, MICA_CONTEXT_OFFER, &mica_coll_op_context), ok;
        if (rc != MPI_SUCCESS) {
            mica_comm_context_withdraw(mine);
            return rc;
        }
        if (!mica_coll_comm_choose(offer, mine, n, ctx, &ok, &rc))
            return rc;
        int all_ok = ok;
        rc = reduce_both(b, &all_ok, 1, &mica_op_MPI_MIN);
        if (rc == MPI_SUCCESS && all_ok)
            return MPI_SUCCESS;
        for (int i = 0; ok && i < n; i++)   /* another member lost them: give back, try again */
            mica_comm_context_release(ctx[i]);
        if (rc != MPI_SUCCESS)
            return rc;
    }
}

static int *copy_ints(const int *a, int n)
{
    int *c = malloc((n > 0 ? (size_t)n : 1) * sizeof *c);
    if (c && n > 0)
        memcpy(c, a, (size_t)n * sizeof *c);
    return c;
}

/* The world ranks of an intracommunicator's members, as a new array. */
static int *members(const mica_comm_t *comm)
{
    int *w = malloc((size_t)comm->size * sizeof *w);
    if (w)
        for (int i = 0; i < comm->size; i++)
            w[i] = mica_comm_world_rank(comm, i);
    return w;
}

static void free_local(mica_comm_t *local)
{
    if (local) {
        mica_comm_context_release(local->context);
        free(local->world);
        free(local);
    }
}

/* The hidden local communicator goes with its intercommunicator; MPI_Comm_dup makes its own. */
static void free_extension(mica_comm_t *comm)
{
    free_local(comm->local);
}

void mica_intercomm_register(void)
{
    static const mica_comm_ext_t ext = {.free = free_extension};
    mica_comm_register_ext(&ext);
}

/* A new intercommunicator on the claimed context ids ctx[0] (its own) and ctx[1] (its hidden
 * local communicator's), taken over (given back if it fails), in which we are `rank` of the
 * local group `world` (`size` members) and `remote` (`rsize` members) is the remote group; both
 * arrays are malloc'd and taken over (NULL: out of memory). The error handler is `parent`'s. */
static int make_inter(mica_comm_t *parent, const uint32_t *ctx, int size, int rank, int *world,
                      int rsize, int *remote, MPI_Comm *newcomm)
{
    mica_comm_t *local = calloc(1, sizeof *local);
    int *local_world = world ? copy_ints(world, size) : NULL;
    if (!local || !local_world || !world || !remote) {
        free(local);
        free(local_world);
        free(world);
        free(remote);
        mica_comm_context_release(ctx[0]);
        mica_comm_context_release(ctx[1]);
        return mica_error(MPI_ERR_NO_MEM, "no memory for a new intercommunicator");
    }
    /* Never a handle: only the collectives of its intercommunicator use it. */
    local->rank = rank;
    local->size = local->remote_size = size;
    local->world = local_world;
    local->context = ctx[1];
    local->eo.errhandler = &mica_errors_return;
    int rc = mica_comm_make(parent, ctx[0], size, rank, world, newcomm);
    if (rc != MPI_SUCCESS) {
        free_local(local);
        free(remote);
        return rc;
    }
    mica_comm_t *c = mica_comm_lookup(*newcomm);
    c->inter = 1;
    c->remote_size = rsize;
    c->remote_world = remote;
    c->local = local;
    return MPI_SUCCESS;
}

/* --- MPI_Intercomm_create -------------------------------------------------------------------- */

/* At the local leader: check the leader's own arguments, swap the groups' sizes and members
 * with the remote leader. *remote is the remote group (malloc'd). */
static int leader_exchange(mica_comm_t *local_comm, mica_comm_t *peer_comm, int remote_leader,
                           int tag, int *rsize, int **remote)
{
    if (!peer_comm)
        return mica_error(MPI_ERR_COMM, "peer_comm is MPI_COMM_NULL at the local leader");
    if (remote_leader < 0 || remote_leader >= peer_comm->remote_size)
        return mica_error(MPI_ERR_RANK, "remote_leader=%d is not a rank of peer_comm (size %d)",
                          remote_leader, peer_comm->remote_size);
    if (mica_comm_peer_world(peer_comm, remote_leader) == mica_comm_world.rank)
        return mica_error(MPI_ERR_RANK, "remote_leader=%d is the local leader itself",
                          remote_leader);
    int size = local_comm->size, rc;
    rc = mica_coll_sendrecv(&size, 1, INTS, remote_leader, rsize, 1, INTS, remote_leader, tag,
                            peer_comm);
    if (rc != MPI_SUCCESS)
        return rc;
    int *mine = members(local_comm);
    *remote = malloc((*rsize > 0 ? (size_t)*rsize : 1) * sizeof **remote);
    unsigned char *in = calloc((size_t)mica_comm_world.size, 1);
    if (!mine || !*remote || !in)
        rc = mica_error(MPI_ERR_NO_MEM, "no memory for the groups of an intercommunicator");
    else
        rc = mica_coll_sendrecv(mine, size, INTS, remote_leader, *remote, *rsize, INTS,
                                remote_leader, tag, peer_comm);
    /* The groups must be disjoint: a process in both could not tell them apart. */
    for (int i = 0; rc == MPI_SUCCESS && i < size; i++)
        in[mine[i]] = 1;
    for (int i = 0; rc == MPI_SUCCESS && i < *rsize; i++)
        if (in[(*remote)[i]])
            rc = mica_error(MPI_ERR_COMM, "world rank %d is in both groups: the groups of an "
                            "intercommunicator must be disjoint", (*remote)[i]);
    free(mine);
    free(in);
    return rc;
}

int mica_intercomm_create(mica_comm_t *local_comm, int local_leader, mica_comm_t *peer_comm,
                          int remote_leader, int tag, MPI_Comm *newintercomm)
{
    if (local_comm->inter)
        return mica_error(MPI_ERR_COMM, "local_comm is an intercommunicator");
    if (local_leader < 0 || local_leader >= local_comm->size)
        return mica_error(MPI_ERR_RANK, "local_leader=%d is not a rank of local_comm (size %d)",
                          local_leader, local_comm->size);
    /* The leaders talk on peer_comm's collective context, with a tag apart from every
     * collective's (the one MPI_Comm_create_group uses for the same user tag). */
    bridge_t b = {.local = local_comm, .leader = local_leader, .comm = peer_comm,
                  .peer = remote_leader, .tag = mica_coll_group_tag(tag)};
    int leader = local_comm->rank == local_leader;
    int head[2] = {MPI_SUCCESS, 0};   /* the leader's outcome, the remote group's size */
    int *remote = NULL, rc, rc_leader = MPI_SUCCESS;
    uint32_t ctx[2];
    if (leader) {
        rc_leader = leader_exchange(local_comm, peer_comm, remote_leader, b.tag, &head[1],
                                    &remote);
        head[0] = rc_leader == MPI_SUCCESS ? MPI_SUCCESS : mica_error_class_of(rc_leader);
    }
    /* Everyone learns whether the leader succeeded, so no one waits for it in vain. */
    rc = mica_coll_bcast_locked(head, 2, INTS, local_leader, local_comm);
    if (rc == MPI_SUCCESS && head[0] != MPI_SUCCESS)
        rc = leader ? rc_leader
                    : mica_error(head[0], "the local leader (rank %d) failed to make the "
                                 "intercommunicator", local_leader);
    if (rc == MPI_SUCCESS && !leader && !(remote = malloc((size_t)head[1] * sizeof *remote)))
        rc = mica_error(MPI_ERR_NO_MEM, "no memory for a group of %d processes", head[1]);
    /* A failure above is the same at every member; from here on all take part. */
    if (rc == MPI_SUCCESS)
        rc = mica_coll_bcast_locked(remote, head[1], INTS, local_leader, local_comm);
    if (rc == MPI_SUCCESS)
        rc = agree_both(&b, 2, ctx);
    if (rc != MPI_SUCCESS) {
        free(remote);
        return rc;
    }
    return make_inter(local_comm, ctx, local_comm->size, local_comm->rank, members(local_comm),
                      head[1], remote, newintercomm);
}

/* --- MPI_Intercomm_create_from_groups ------------------------------------------------------- */

/* A tag of a string: its FNV-1a hash (intercomm.h). */
int mica_string_tag(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return (int)(h & 0x3fffffff);
}

/* Every process of the job is in MPI_COMM_WORLD, so the groups talk on its collective context,
 * with a tag of the string tag (apart from the collectives', like MPI_Comm_create_group's):
 * each group as a provisional communicator of its members, the leaders by world rank. Both
 * groups are known to all already; only the context ids need agreeing. */
int mica_intercomm_create_from_groups(mica_group_t *local_group, int local_leader,
                                      mica_group_t *remote_group, int remote_leader,
                                      const char *stringtag, mica_info_t *info,
                                      mica_errhandler_t *errhandler, MPI_Comm *newintercomm)
{
    (void)info;                       /* no hints are acted on */
    if (!stringtag)
        return mica_error(MPI_ERR_ARG, "stringtag is NULL");
    if (local_group->rank == MPI_UNDEFINED)
        return mica_error(MPI_ERR_GROUP, "this process is not a member of local_group");
    if (local_leader < 0 || local_leader >= local_group->size)
        return mica_error(MPI_ERR_RANK, "local_leader=%d is not a rank of local_group (size %d)",
                          local_leader, local_group->size);
    if (remote_leader < 0 || remote_leader >= remote_group->size)
        return mica_error(MPI_ERR_RANK, "remote_leader=%d is not a rank of remote_group (size "
                          "%d)", remote_leader, remote_group->size);
    if (errhandler->kind && errhandler->kind != MICA_COMM)
        return mica_error(MPI_ERR_ARG, "errhandler is not a communicator error handler");
    for (int i = 0; i < remote_group->size; i++)
        if (remote_group->world[i] == mica_comm_world.rank)
            return mica_error(MPI_ERR_GROUP, "this process is in both groups: the groups of an "
                              "intercommunicator must be disjoint");
    /* The provisional communicators' messages carry group ranks, the leaders' world ranks:
     * their tags differ (even, odd) so neither kind can match the other. */
    int h = mica_string_tag(stringtag) & ~1;
    mica_comm_t among = {.rank = local_group->rank, .size = local_group->size,
                         .remote_size = local_group->size, .world = local_group->world,
                         .context = mica_comm_world.context};
    bridge_t b = {.local = &among, .leader = local_leader, .comm = &mica_comm_world,
                  .peer = remote_group->world[remote_leader], .tag = mica_coll_group_tag(h | 1),
                  .local_tag = mica_coll_group_tag(h)};
    uint32_t ctx[2];
    int rc = agree_both(&b, 2, ctx);
    if (rc != MPI_SUCCESS)
        return rc;
    mica_comm_t parent = {.eo.errhandler = errhandler};    /* whose error handler it gets */
    return make_inter(&parent, ctx, local_group->size, local_group->rank,
                      copy_ints(local_group->world, local_group->size), remote_group->size,
                      copy_ints(remote_group->world, remote_group->size), newintercomm);
}

/* --- MPI_Intercomm_merge --------------------------------------------------------------------- */

int mica_intercomm_merge(mica_comm_t *intercomm, int high, MPI_Comm *newintracomm)
{
    if (!intercomm->inter)
        return mica_error(MPI_ERR_COMM, "intercomm is an intracommunicator");
    bridge_t b = bridge_of(intercomm, MICA_TAG_ALLGATHER);
    int ours = high != 0, theirs, rc;
    uint32_t ctx;
    rc = swap(&b, &ours, 1, &theirs, 1);
    if (rc == MPI_SUCCESS)
        rc = agree_both(&b, 1, &ctx);
    if (rc != MPI_SUCCESS)
        return rc;
    /* The group that said high = false comes first. When both said the same, the standard
     * leaves the order to the implementation: the group whose leader has the lower world rank
     * comes first, which both groups can tell alike. */
    int size = intercomm->size, rsize = intercomm->remote_size;
    int first = ours != theirs ? !ours
                               : mica_comm_world_rank(intercomm, 0) < intercomm->remote_world[0];
    int *world = malloc((size_t)(size + rsize) * sizeof *world);
    if (!world) {
        mica_comm_context_release(ctx);
        return mica_error(MPI_ERR_NO_MEM, "no memory for a communicator of %d processes",
                          size + rsize);
    }
    int *mine = world + (first ? 0 : rsize), *other = world + (first ? size : 0);
    for (int i = 0; i < size; i++)
        mine[i] = mica_comm_world_rank(intercomm, i);
    memcpy(other, intercomm->remote_world, (size_t)rsize * sizeof *other);
    return mica_comm_make(intercomm, ctx, size + rsize, intercomm->rank + (first ? 0 : rsize),
                          world, newintracomm);
}

/* --- dup and split ---------------------------------------------------------------------------- */

int mica_intercomm_dup(mica_comm_t *comm, MPI_Comm *newcomm)
{
    bridge_t b = bridge_of(comm, MICA_TAG_ALLGATHER);
    uint32_t ctx[2];
    int rc = agree_both(&b, 2, ctx);
    if (rc != MPI_SUCCESS)
        return rc;
    return make_inter(comm, ctx, comm->size, comm->rank, members(comm->local), comm->remote_size,
                      copy_ints(comm->remote_world, comm->remote_size), newcomm);
}

int mica_intercomm_dup_pending(mica_comm_t *comm, MPI_Comm *newcomm)
{
    const uint32_t none[2] = {MICA_CONTEXT_NONE, MICA_CONTEXT_NONE};
    return make_inter(comm, none, comm->size, comm->rank, members(comm->local),
                      comm->remote_size, copy_ints(comm->remote_world, comm->remote_size),
                      newcomm);
}

/* The world ranks of the members of `color` in a (color, key) table of n processes whose world
 * ranks are world[]; *rank: where world rank `me` lands (if it is there). */
static int *pick(const int *table, int n, int color, const int *world, int me, int *count,
                 int *rank)
{
    mica_comm_member_t *m = malloc((n > 0 ? (size_t)n : 1) * sizeof *m);
    int *out = malloc((n > 0 ? (size_t)n : 1) * sizeof *out), k = 0;
    if (!m || !out) {
        free(m);
        free(out);
        return NULL;
    }
    for (int i = 0; i < n; i++)
        if (table[2 * i] == color)
            m[k++] = (mica_comm_member_t){table[2 * i + 1], i};
    qsort(m, (size_t)k, sizeof *m, mica_comm_member_order);
    for (int i = 0; i < k; i++) {
        out[i] = world[m[i].rank];
        if (out[i] == me)
            *rank = i;
    }
    free(m);
    *count = k;
    return out;
}

int mica_intercomm_split(mica_comm_t *comm, int color, int key, MPI_Comm *newcomm)
{
    int size = comm->size, rsize = comm->remote_size, mine[2] = {color, key};
    int *ours = malloc((size_t)size * 2 * sizeof *ours);
    int *theirs = malloc((size_t)rsize * 2 * sizeof *theirs);
    bridge_t b = bridge_of(comm, MICA_TAG_ALLGATHER);
    uint32_t ctx[2];
    if (!ours || !theirs) {
        free(ours);
        free(theirs);
        return mica_error(MPI_ERR_NO_MEM, "no memory to split an intercommunicator");
    }
    int rc = mica_coll_allgather_locked(mine, 2, INTS, ours, 2, INTS, comm->local);
    if (rc == MPI_SUCCESS)
        rc = swap(&b, ours, 2 * size, theirs, 2 * rsize);
    int agreed = 0;
    if (rc == MPI_SUCCESS && (rc = agree_both(&b, 2, ctx)) == MPI_SUCCESS)
        agreed = 1;
    *newcomm = MPI_COMM_NULL;
    int n = 0, rn = 0, rank = -1, unused;
    int *world = NULL, *remote = NULL;
    if (rc == MPI_SUCCESS && color != MPI_UNDEFINED) {
        int *local_world = members(comm->local);
        if (local_world) {
            world = pick(ours, size, color, local_world, mica_comm_world.rank, &n, &rank);
            remote = pick(theirs, rsize, color, comm->remote_world, -1, &rn, &unused);
        }
        free(local_world);
        if (!world || !remote)
            rc = mica_error(MPI_ERR_NO_MEM, "no memory to split an intercommunicator");
    }
    free(ours);
    free(theirs);
    if (rc != MPI_SUCCESS || color == MPI_UNDEFINED || rn == 0) {
        free(world);
        free(remote);
        for (int i = 0; agreed && i < 2; i++)   /* in no new communicator: not ours to keep */
            mica_comm_context_release(ctx[i]);
        return rc;
    }
    return make_inter(comm, ctx, n, rank, world, rn, remote, newcomm);
}

/* --- queries ---------------------------------------------------------------------------------- */

int mica_comm_test_inter(mica_comm_t *comm, int *flag)
{
    *flag = comm->inter;
    return MPI_SUCCESS;
}

int mica_comm_remote_size(mica_comm_t *comm, int *size)
{
    if (!comm->inter)
        return mica_error(MPI_ERR_COMM, "comm is an intracommunicator: it has no remote group");
    *size = comm->remote_size;
    return MPI_SUCCESS;
}

int mica_comm_remote_group(mica_comm_t *comm, MPI_Group *group)
{
    if (!comm->inter)
        return mica_error(MPI_ERR_COMM, "comm is an intracommunicator: it has no remote group");
    int *world = copy_ints(comm->remote_world, comm->remote_size);
    mica_group_t *g = world ? mica_group_new(world, comm->remote_size) : NULL;
    if (!g)
        return mica_error(MPI_ERR_NO_MEM, "no memory for a new group");
    *group = mica_group_handle(g);
    return MPI_SUCCESS;
}
