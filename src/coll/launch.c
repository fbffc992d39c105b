/* The three forms of a collective (sched.h: mica_coll_launch): one algorithm, built as a
 * schedule, run to completion (blocking), started as a request (nonblocking) or bound to a
 * persistent request that builds it anew at every start. */
#include "coll/persist.h"
#include "coll/sched.h"

int mica_coll_launch(enum mica_coll_form form, int tag, mica_coll_build_fn *build,
                     const mica_coll_args_t *a, mica_comm_t *comm, MPI_Request *request)
{
    if (form == MICA_COLL_PERSISTENT)
        return mica_pcoll_init(comm, build, a, request);
    if (form == MICA_COLL_BLOCKING)
        return mica_sched_run(comm, tag, build, a);
    mica_sched_t *s = mica_sched_new(comm);
    if (s)
        build(s, a, comm);
    return mica_sched_start(s, request);
}
