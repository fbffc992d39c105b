/* The Fortran binding's helpers that belong to no object module (mpi/interlang.h). */
#include "core/comm.h"
#include "mpi/interlang.h"
#include "topo/topo.h"

void mica_fortran_peers(MPI_Comm comm, int neighbors, int *nsend, int *nrecv)
{
    mica_comm_t *c = mica_comm_lookup(comm);
    *nsend = *nrecv = 0;
    if (!c)
        return;
    if (!neighbors)
        *nsend = *nrecv = c->inter ? c->remote_size : c->size;
    else if (c->topo)
        (void)mica_topo_degrees(c, nrecv, nsend);
}
