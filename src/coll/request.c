/* What a collective's request (nonblocking or persistent) does for the core (core/request.h):
 * it holds its communicator, a persistent one also its bound arguments, and MPI_Start builds
 * and runs a persistent one's schedule again; none can be cancelled. */
#include "coll/coll.h"
#include "coll/persist.h"
#include "core/errors.h"

static void release(mica_request_t *r)
{
    if (r->ext) {
        mica_pcoll_free(r->ext);
        r->ext = NULL;
    }
    mica_comm_release(r->comm);       /* kept alive past MPI_Comm_free till now */
}

static int cancel(mica_request_t *r)
{
    (void)r;
    return mica_error(MPI_ERR_REQUEST, "request is a nonblocking collective's, which cannot be "
                      "cancelled");
}

void mica_coll_register(void)
{
    static const mica_request_ops_t ops = {.start = mica_pcoll_start, .free = release,
                                           .cancel = cancel};
    mica_request_set_ops(MICA_REQ_COLL, &ops);
}
