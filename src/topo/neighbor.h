/* The argument checks of the neighborhood collectives (neighbor.c, for neighbor_coll.c):
 * MPI_SUCCESS or an error code naming the argument. */
#ifndef MICA_NEIGHBOR_H
#define MICA_NEIGHBOR_H

#include "coll/coll.h"
#include "coll/nbc.h"
#include "topo/topo.h"

/* Neither buffer may be MPI_IN_PLACE; check_types also checks both datatypes. */
int mica_neighbor_check_bufs(const void *sendbuf, const void *recvbuf);
int mica_neighbor_check_types(const void *sendbuf, mica_type_t *sendtype, const void *recvbuf,
                              mica_type_t *recvtype);
/* n counts and their displacements (both may be NULL when n is 0). */
int mica_neighbor_check_v(int n, const MPI_Count *counts, const MPI_Aint *displs,
                          const char *what, const char *dwhat);
/* Allgatherv's checks, with the communicator's in-degree in *nin. */
int mica_neighbor_check_allgatherv(const void *sendbuf, mica_type_t *sendtype, const void *recvbuf,
                                   const MPI_Count *recvcounts, const MPI_Aint *displs,
                                   mica_type_t *recvtype, mica_comm_t *comm, int *nin);
/* The communicator's degrees, then the counts and displacements of both sides (alltoallv and
 * alltoallw: the buffers are checked before). */
int mica_neighbor_check_vv(mica_comm_t *comm, const MPI_Count *sendcounts,
                           const MPI_Aint *sdispls, const MPI_Count *recvcounts,
                           const MPI_Aint *rdispls, int *nin, int *nout);
/* All of alltoallw's checks, then its datatypes looked up into *types (malloc'd: the nout send
 * types, then the nin receive types; NULL on error). */
int mica_neighbor_check_alltoallw(const void *sendbuf, const MPI_Count *sendcounts,
                                  const MPI_Aint *sdispls, const MPI_Datatype *sendtypes,
                                  const void *recvbuf, const MPI_Count *recvcounts,
                                  const MPI_Aint *rdispls, const MPI_Datatype *recvtypes,
                                  mica_comm_t *comm, int *nin, int *nout, mica_type_t ***types);

/* The int arrays of the MPI_X forms of the v and w collectives, widened for the communicator's
 * degrees (NULL arrays stay NULL); free them with mica_coll_wide_free, also after an error. */
int mica_neighbor_widen(mica_comm_t *comm, const int *sc, const int *sd, const int *rc,
                        const int *rd, mica_coll_wide_t *w);

#endif
