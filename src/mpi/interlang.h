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

/* The MPI function and object an error of the Fortran binding's own belongs to: it is raised
 * through that object's error handler (kind MICA_COMM, MICA_WIN, MICA_FILE; 0: no object). */
typedef struct mica_fortran_call {
    const char *fn;                   /* "MPI_Isend" */
    unsigned kind;
    MPI_Fint handle;
} mica_fortran_call_t;

/* A new error of class `cls`, its message printf-style, raised as `call`'s; returns the code. */
MICA_INTERLANG_API int mica_fortran_raise(const mica_fortran_call_t *call, int cls,
                                          const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* mpi_f08's non-contiguous array sections (mpi/sections.c): *section becomes a new committed
 * datatype one element of which is the first `count` elements of datatype `type` (a Fortran
 * handle) laid out as an array section of `rank` dimensions, extent[i] elements sm[i] bytes
 * apart along dimension i, of elem_len bytes each. *section stays MPI_DATATYPE_NULL, with
 * MPI_SUCCESS, when `type` is not a committed datatype: the C function then reports it. The
 * binding frees it with mica_fortran_type_free once the routine has started. */
MICA_INTERLANG_API int mica_fortran_section(const mica_fortran_call_t *call, const char *arg,
                                            int rank, const MPI_Count *extent,
                                            const MPI_Count *sm, MPI_Count elem_len,
                                            MPI_Count count, MPI_Fint type,
                                            MPI_Datatype *section);
MICA_INTERLANG_API void mica_fortran_type_free(MPI_Datatype *section);

#endif
