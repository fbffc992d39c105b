/* Communicators: queries. */
#include "core/comm.h"
#include "core_api.h"

int mica_comm_size(mica_comm_t *comm, int *size)
{
    *size = comm->size;
    return MPI_SUCCESS;
}

int mica_comm_rank(mica_comm_t *comm, int *rank)
{
    *rank = comm->rank;
    return MPI_SUCCESS;
}
