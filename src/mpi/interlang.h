/* What the orchestrators offer the Fortran binding library beyond core/interlang.h: the
 * helpers that ask more than one object module (here the topology). */
#ifndef MICA_MPI_INTERLANG_H
#define MICA_MPI_INTERLANG_H

#include "core/interlang.h"

/* The lengths of the per-process arrays of MPI_ALLTOALLW-like functions on `comm`: the group
 * size (remote group of an intercommunicator) for both, or with `neighbors` the
 * out- and in-degree of its topology. 0 and 0 for an invalid communicator or one without a
 * topology: the C function then reports the error. */
MICA_INTERLANG_API void mica_fortran_peers(MPI_Comm comm, int neighbors, int *nsend, int *nrecv);

/* Mark a generalized request's query, free and cancel functions as Fortran procedures:
 * SUBROUTINE QUERY_FN(EXTRA_STATE, STATUS, IERROR), FREE_FN(EXTRA_STATE, IERROR),
 * CANCEL_FN(EXTRA_STATE, COMPLETE, IERROR) (mpi/wait.c). */
MICA_INTERLANG_API void mica_fortran_grequest(MPI_Request request);

#endif
