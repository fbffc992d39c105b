/* The three forms of a collective (sched.h: mica_coll_launch): one algorithm, built as a
 * schedule, run to completion (blocking), started as a request (nonblocking) or bound to a
 * persistent request that builds it anew at every start. */
#include "coll/persist.h"
#include "coll/sched.h"
#include "core/progress.h"

int mica_coll_launch(enum mica_coll_form form, int tag, mica_coll_build_fn *build,
                     const mica_coll_args_t *a, mica_comm_t *comm, MPI_Request *request)
{
    if (form == MICA_COLL_PERSISTENT)
        return mica_pcoll_init(comm, build, a, request);
    int rc;
    mica_lock();
    if (form == MICA_COLL_BLOCKING) {
        rc = mica_sched_run(comm, tag, build, a);
    } else {
        mica_sched_t *s = mica_sched_new(comm);
        if (s)
            build(s, a, comm);
        rc = mica_sched_start(s, request);
    }
    mica_unlock();
    return rc;
}

int mica_coll_run_locked(mica_coll_run_fn *run, const mica_coll_args_t *a, mica_comm_t *comm)
{
    mica_lock();
    int rc = run(a, comm);
    mica_unlock();
    return rc;
}
