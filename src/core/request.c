/* Request objects: kept on a free list, since every nonblocking call makes one. */
#include <stdlib.h>
#include <string.h>

#include "coll/persist.h"
#include "core/progress.h"
#include "core/request.h"

static mica_request_t *free_list;     /* under the big lock */

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
    if (r->pcoll) {                   /* a persistent collective's bound arguments */
        mica_pcoll_free(r->pcoll);
        r->pcoll = NULL;
    }
    if (r->kind == MICA_REQ_COLL)     /* ... and a collective's its communicator (MPI_Comm_free) */
        mica_comm_release(r->comm);
    if (r->obj.fint) {                /* it has a Fortran index: let the arena forget it */
        mica_obj_free(r);
        return;
    }
    atomic_store_explicit(&r->obj.tag, 0, memory_order_release);
    r->next = free_list;
    free_list = r;
}
