/* Request objects: kept on a free list, since every nonblocking call makes one; each kind's
 * operations; the library's own waits. */
#include <stdlib.h>
#include <string.h>

#include "core/progress.h"
#include "core/request.h"

static mica_request_t *free_list;     /* under the big lock */

mica_request_ops_t mica_request_ops[MICA_REQ_KINDS];

void mica_request_set_ops(enum mica_req_kind kind, const mica_request_ops_t *ops)
{
    mica_request_ops[kind] = *ops;
}

mica_request_t *mica_request_new(enum mica_req_kind kind)
{
    mica_request_t *r = free_list;
    if (r) {
        free_list = r->next;
        memset((char *)r + sizeof r->obj, 0, sizeof *r - sizeof r->obj);
        r->obj.refs = 1;
        atomic_store_explicit(&r->obj.tag, MICA_TAG | MICA_REQUEST, memory_order_release);
    } else if (!(r = mica_obj_new(MICA_REQUEST, sizeof *r))) {
        return NULL;
    }
    r->kind = (uint8_t)kind;
    return r;
}

void mica_request_release(mica_request_t *r)
{
    free(r->scratch);
    r->scratch = NULL;
    if (r->type)                      /* a request keeps its datatype alive (MPI_Type_free) */
        mica_type_release(r->type);
    void (*free_kind)(mica_request_t *) = mica_request_ops[r->kind].free;
    if (free_kind)                    /* e.g. a collective's communicator and bound arguments */
        free_kind(r);
    if (r->obj.fint) {                /* it has a Fortran index: let the arena forget it */
        mica_obj_free(r);
        return;
    }
    atomic_store_explicit(&r->obj.tag, 0, memory_order_release);
    r->next = free_list;
    free_list = r;
}

/* --- the library's own waits ----------------------------------------------------------------- */

int mica_request_wait(mica_request_t *r, MPI_Status *status)
{
    MICA_WAIT_UNTIL(mica_request_done(r));
    if (status)
        mica_status_give(status, &r->status);
    int rc = r->status.MPI_ERROR;
    mica_request_release(r);
    return rc;
}

int mica_request_waitall(int n, mica_request_t **reqs)
{
    int rc = MPI_SUCCESS;
    for (int i = 0; i < n; i++)
        if (reqs[i]) {
            int e = mica_request_wait(reqs[i], NULL);
            if (rc == MPI_SUCCESS)
                rc = e;
        }
    return rc;
}
