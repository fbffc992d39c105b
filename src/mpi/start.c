/* MPI_Start and MPI_Startall: a persistent request of any kind (a send, a receive, a
 * collective) starts through its kind's operation (core/request.h). */
#include <string.h>

#include "core/errors.h"
#include "core/progress.h"
#include "core/request.h"
#include "core_api.h"

static int start(mica_request_t *r, mica_errobj_t **eo)
{
    *eo = r->comm ? &r->comm->eo : NULL;
    if (!r->persistent)
        return mica_error(MPI_ERR_REQUEST, "request is not a persistent request");
    if (r->active)
        return mica_error(MPI_ERR_REQUEST, "request is already active");
    r->active = 1;
    atomic_store_explicit(&r->done, 0, memory_order_relaxed);
    memset(&r->status, 0, sizeof r->status);
    return mica_request_ops[r->kind].start(r);
}

int mica_start(MPI_Request *request, mica_errobj_t **eo)
{
    int rc = start(mica_request_lookup(*request), eo);
    return rc;
}

int mica_startall(int count, MPI_Request array_of_requests[], mica_errobj_t **eo)
{
    int rc = MPI_SUCCESS;
    for (int i = 0; i < count && rc == MPI_SUCCESS; i++) {
        mica_request_t *r = mica_request_lookup(array_of_requests[i]);
        rc = r ? start(r, eo) : mica_error(MPI_ERR_REQUEST, "array_of_requests[%d] is not a valid request", i);
    }
    return rc;
}
