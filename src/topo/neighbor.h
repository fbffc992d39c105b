/* What the blocking (neighbor.c), nonblocking and persistent (ineighbor.c) neighborhood
 * collectives share besides the neighbor lists of topo.h: their argument checks (MPI_SUCCESS
 * or an error code naming the argument). */
#ifndef MICA_NEIGHBOR_H
#define MICA_NEIGHBOR_H

#include "coll/coll.h"
#include "topo/topo.h"

/* Neither buffer may be MPI_IN_PLACE; check_types also checks both datatypes. */
int mica_neighbor_check_bufs(const void *sendbuf, const void *recvbuf);
int mica_neighbor_check_types(const void *sendbuf, mica_type_t *sendtype, const void *recvbuf,
                              mica_type_t *recvtype);
/* n counts and their displacements (both may be NULL when n is 0). */
int mica_neighbor_check_v(int n, const MPI_Count *counts, const MPI_Aint *displs,
                          const char *what, const char *dwhat);
/* The datatype handles of alltoallw as objects in out[n], checked. */
int mica_neighbor_lookup_types(int n, const MPI_Datatype *in, const MPI_Count *counts,
                               const char *what, mica_type_t **out);

/* The int arrays of the MPI_X forms of alltoallv and alltoallw, widened for the communicator's
 * degrees (displacements only where given); mica_neighbor_widen_free frees them. */
typedef struct {
    MPI_Count *sc, *rc;
    MPI_Aint *sd, *rd;
} mica_neighbor_wide_t;
int mica_neighbor_widen(mica_comm_t *comm, const int *sc, const int *sd, const int *rc,
                        const int *rd, mica_neighbor_wide_t *w);
void mica_neighbor_widen_free(mica_neighbor_wide_t *w);

#endif
