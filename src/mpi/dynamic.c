/* Dynamic processes (MPI 4.0 chapter 11), what Mica has of them so far: every job is started by
 * a launcher, none by MPI_Comm_spawn (not yet), so no process has a parent; and
 * MPI_Comm_disconnect of the communicators it does have. */
#include "core/comm.h"
#include "core_api.h"

int mica_comm_get_parent(MPI_Comm *parent)
{
    *parent = MPI_COMM_NULL;
    return MPI_SUCCESS;
}

/* Collective. The standard lets it be called only once every message on the communicator is
 * complete and matched: when all processes have come this far, none is in flight, and the
 * communicator goes as MPI_Comm_free lets it go (a nonblocking collective still pending keeps
 * it alive until it ends). */
int mica_comm_disconnect(MPI_Comm *comm)
{
    mica_comm_t *c = mica_comm_lookup(*comm);
    if (c == &mica_comm_world || c == &mica_comm_self)
        return mica_comm_free(comm);  /* its error: a predefined communicator stays */
    int rc = mica_barrier(c);
    return rc == MPI_SUCCESS ? mica_comm_free(comm) : rc;
}
