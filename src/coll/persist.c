/* Persistent collectives on intracommunicators (persist.h): MPI_Barrier_init ...
 * MPI_Exscan_init and the neighborhood ones. Each start builds the collective's schedule
 * (algorithms.h) anew from the arguments bound at init, with their arrays copied. */
#include <stdlib.h>
#include <string.h>

#include "coll/algorithms.h"
#include "coll/persist.h"
#include "core/errors.h"
#include "core/progress.h"
#include "core/request.h"
#include "core_api.h"

struct mica_pcoll {
    mica_coll_build_fn *build;
    mica_coll_args_t args;            /* its arrays are the copies below */
    uint32_t seq;                     /* the collective sequence number taken at init */
    int nkept;
    mica_type_t **kept;               /* the datatypes kept alive */
    /* counts, displacements and datatype tables follow */
};

/* --- the request ---------------------------------------------------------------------------- */

/* Copy n elements of `size` bytes from `src` to *at (advancing it); NULL stays NULL. */
static void *copy_array(const void *src, size_t n, size_t size, char **at)
{
    if (!src)
        return NULL;
    void *dst = *at;
    memcpy(dst, src, n * size);
    *at += n * size;
    return dst;
}

static void keep(mica_pcoll_t *p, mica_type_t *type)
{
    if (type) {
        mica_type_retain(type);
        p->kept[p->nkept++] = type;
    }
}

int mica_pcoll_init(mica_comm_t *comm, mica_coll_build_fn *build, const mica_coll_args_t *a,
                    MPI_Request *request)
{
    size_t n = (size_t)a->nsend + (size_t)a->nrecv;
    size_t bytes = sizeof(mica_pcoll_t) + n * (sizeof(MPI_Count) + sizeof(MPI_Aint)) +
                   (2 * n + 2) * sizeof(mica_type_t *);
    mica_pcoll_t *p = calloc(1, bytes);
    if (!p)
        return mica_error(MPI_ERR_NO_MEM, "no memory for a persistent collective's arguments");
    p->build = build;
    p->args = *a;
    char *at = (char *)(p + 1);       /* MPI_Count and MPI_Aint first: aligned for both */
    p->args.scounts = copy_array(a->scounts, a->nsend, sizeof(MPI_Count), &at);
    p->args.rcounts = copy_array(a->rcounts, a->nrecv, sizeof(MPI_Count), &at);
    p->args.sdispls = copy_array(a->sdispls, a->nsend, sizeof(MPI_Aint), &at);
    p->args.rdispls = copy_array(a->rdispls, a->nrecv, sizeof(MPI_Aint), &at);
    at = (char *)(p + 1) + n * (sizeof(MPI_Count) + sizeof(MPI_Aint));
    p->args.stypes = copy_array(a->stypes, a->nsend, sizeof(mica_type_t *), &at);
    p->args.rtypes = copy_array(a->rtypes, a->nrecv, sizeof(mica_type_t *), &at);
    p->kept = (mica_type_t **)at;

    mica_request_t *r = mica_request_new(MICA_REQ_COLL);
    if (!r) {
        free(p);
        return mica_error(MPI_ERR_NO_MEM, "no memory for a request");
    }
    keep(p, a->stype);
    keep(p, a->rtype);
    for (int i = 0; a->stypes && i < a->nsend; i++)
        keep(p, a->stypes[i]);
    for (int i = 0; a->rtypes && i < a->nrecv; i++)
        keep(p, a->rtypes[i]);
    if (a->op)
        mica_op_retain(a->op);
    p->seq = mica_sched_reserve(comm);
    r->persistent = 1;
    r->ext = p;
    r->comm = comm;                   /* errors are raised on it; the request keeps it alive */
    mica_comm_retain(comm);
    *request = (MPI_Request)r->obj.handle;
    return MPI_SUCCESS;
}

int mica_pcoll_start(mica_request_t *r)
{
    mica_pcoll_t *p = r->ext;
    mica_sched_t *s = mica_sched_new_seq(r->comm, p->seq);
    if (s)
        p->build(s, &p->args, r->comm);
    int rc = mica_sched_start_on(s, r);
    if (rc != MPI_SUCCESS)
        r->active = 0;
    return rc;
}

void mica_pcoll_free(mica_pcoll_t *p)
{
    for (int i = 0; i < p->nkept; i++)
        mica_type_release(p->kept[i]);
    if (p->args.op)
        mica_op_release(p->args.op);
    free(p);
}
