/* Communicator construction: MPI_Comm_dup, split, split_type, create, create_group and
 * create_from_group. The members agree on a context id by a collective (coll/comm.h); an
 * intercommunicator's forms are in intercomm.c; the communicator object is the core's
 * (core/comm.c). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coll/algorithms.h"
#include "coll/coll.h"
#include "coll/comm.h"
#include "core/attr.h"
#include "core/comm.h"
#include "core/errors.h"
#include "core/group.h"
#include "core/progress.h"
#include "core_api.h"
#include "mpi/intercomm.h"

/* The duplicate has the same extensions (its topology), and the attributes their copy
 * callbacks copy; a failure leaves no half-made communicator. */
static int copy_into(mica_comm_t *comm, MPI_Comm *newcomm)
{
    mica_comm_t *c = mica_comm_lookup(*newcomm);
    int rc = mica_comm_copy_ext(comm, c);
    if (rc == MPI_SUCCESS)
        rc = mica_attr_copy_all(comm->eo.obj.handle, &comm->attrs, c->eo.obj.handle, &c->attrs);
    if (rc != MPI_SUCCESS) {
        mica_comm_destroy(c);
        *newcomm = MPI_COMM_NULL;
    }
    return rc;
}

static int dup_comm(mica_comm_t *comm, MPI_Comm *newcomm)
{
    int rc = comm->inter ? mica_intercomm_dup(comm, newcomm)
                         : mica_coll_comm_dup_hidden(comm, newcomm);
    return rc != MPI_SUCCESS ? rc : copy_into(comm, newcomm);
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

/* --- MPI_Comm_idup ---------------------------------------------------------------------------- */

/* The duplicate is made at the call, as MPI_Comm_dup would make it (the attributes' copy
 * callbacks run now, as the standard asks), but on no context yet; its members agree on its
 * context ids without blocking (coll/comm.h) and the request completes when they have. Until then
 * the user may not use it; the request keeps both communicators alive. */
typedef struct idup {
    mica_comm_t *comm;                /* the duplicate */
    mica_request_t *req;
} idup_t;

static void idup_agreed(void *arg, int rc, const uint32_t *ctx)
{
    idup_t *d = arg;
    mica_comm_t *c = d->comm;
    mica_request_t *r = d->req;
    free(d);
    if (rc == MPI_SUCCESS) {
        c->context = ctx[0];
        if (c->inter)
            c->local->context = ctx[1];
    }
    mica_comm_release(c);
    r->status = (MPI_Status){.MPI_SOURCE = MPI_ANY_SOURCE, .MPI_TAG = MPI_ANY_TAG,
                             .MPI_ERROR = rc};
    if (r->freed)
        mica_request_release(r);
    else
        mica_request_complete(r);
}

/* A duplicate that will not be handed out after all: its attributes go, then the object. */
static void discard(mica_comm_t *c)
{
    mica_attr_delete_all(c->eo.obj.handle, &c->attrs);
    mica_comm_release(c);
}

static int idup(mica_comm_t *comm, MPI_Comm *newcomm, MPI_Request *request)
{
    int rc;
    if (comm->inter) {
        rc = mica_intercomm_dup_pending(comm, newcomm);
    } else {
        int *world = NULL;
        if (comm->world && !(world = mica_comm_world_ranks(comm)))
            return mica_error(MPI_ERR_NO_MEM, "no memory for a new communicator");
        rc = mica_comm_make(comm, MICA_CONTEXT_NONE, comm->size, comm->rank, world, newcomm);
    }
    if (rc == MPI_SUCCESS)
        rc = copy_into(comm, newcomm);
    if (rc != MPI_SUCCESS)
        return rc;
    mica_comm_t *c = mica_comm_lookup(*newcomm);
    idup_t *d = malloc(sizeof *d);
    mica_request_t *r = d ? mica_request_new(MICA_REQ_COLL) : NULL;
    if (!r) {
        free(d);
        discard(c);
        *newcomm = MPI_COMM_NULL;
        return mica_error(MPI_ERR_NO_MEM, "no memory for a request");
    }
    r->comm = comm;                   /* errors are raised on it; the request keeps it alive */
    mica_comm_retain(comm);
    mica_comm_retain(c);
    *d = (idup_t){c, r};
    *request = (MPI_Request)r->obj.handle;
    rc = mica_coll_comm_iagree(comm, idup_agreed, d);
    if (rc != MPI_SUCCESS) {          /* nothing was sent: as if never called */
        free(d);
        mica_comm_release(c);
        discard(c);
        mica_request_release(r);
        *newcomm = MPI_COMM_NULL;
        *request = MPI_REQUEST_NULL;
    }
    return rc;
}

int mica_comm_idup(mica_comm_t *comm, MPI_Comm *newcomm, MPI_Request *request)
{
    return idup(comm, newcomm, request);
}

int mica_comm_idup_with_info(mica_comm_t *comm, mica_info_t *info, MPI_Comm *newcomm,
                             MPI_Request *request)
{
    (void)info;                       /* no hints are acted on yet */
    return idup(comm, newcomm, request);
}

/* MPI_Comm_split with the lock held. */
static int split(mica_comm_t *comm, int color, int key, MPI_Comm *newcomm)
{
    return comm->inter ? mica_intercomm_split(comm, color, key, newcomm)
                       : mica_coll_comm_split(comm, color, key, newcomm);
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
    rc = split(comm, color, key, newcomm);
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
    /* Everyone takes part in the host exchange: the split type may differ between processes
     * (MPI_UNDEFINED). */
    int shared;
    rc = host_color(comm->inter ? comm->local : comm, &shared);
    if (rc == MPI_SUCCESS) {
        if (split_type == MPI_COMM_TYPE_SHARED)
            color = shared;
        rc = split(comm, color, key, newcomm);
    }
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
    if (!world) {
        mica_comm_context_release(ctx);
        return mica_error(MPI_ERR_NO_MEM, "no memory for a new communicator");
    }
    memcpy(world, group->world, (size_t)group->size * sizeof *world);
    return mica_comm_make(comm, ctx, group->size, group->rank, world, newcomm);
}

int mica_comm_create(mica_comm_t *comm, mica_group_t *group, MPI_Comm *newcomm)
{
    int rc = check_subset(comm, group);
    if (rc != MPI_SUCCESS)
        return rc;
    if (comm->inter) {                /* each group's members of `group`, in the group's order */
        rc = mica_intercomm_split(comm, group->rank == MPI_UNDEFINED ? MPI_UNDEFINED : 0,
                                  group->rank, newcomm);
        return rc;
    }
    uint32_t ctx;
    rc = mica_coll_comm_agree(comm, MICA_TAG_ALLREDUCE, &ctx);
    if (rc != MPI_SUCCESS)
        return rc;
    if (group->rank == MPI_UNDEFINED) {   /* not a member: the id is not ours to keep */
        mica_comm_context_release(ctx);
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
    rc = mica_coll_comm_agree(&among, mica_coll_group_tag(tag), &ctx);
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
    int tag = mica_coll_group_tag(mica_string_tag(stringtag) & ~1);
    int rc = mica_coll_comm_agree(&among, tag, &ctx);
    if (rc != MPI_SUCCESS)
        return rc;
    mica_comm_t parent = {.eo.errhandler = errhandler};    /* whose error handler it gets */
    return make_from_group(&parent, group, ctx, newcomm);
}
