/* What the core offers the Fortran binding library (libmpi_fort) beyond handle conversion
 * (objects.h): the Fortran binding creates keyvals, operations and error handlers through the C
 * functions (a tool sees those calls) with the Fortran user's procedure in place of a C function,
 * then marks them here, and the core calls that procedure with Fortran's conventions: every
 * argument by reference, INTEGER handles, INTEGER(KIND=MPI_ADDRESS_KIND) attribute values and
 * extra states (INTEGER ones for the deprecated MPI_KEYVAL_CREATE), LOGICAL flags. The standard
 * asks exactly this of implementations: callbacks are tagged with their language.
 *
 * Attribute values are the stored address-sized word in both languages (a Fortran INTEGER
 * sign-extended), the predefined attributes aside (the binding reads their int). Not yet: the
 * standard has C read an attribute that Fortran set as a pointer to the integer value.
 *
 * These, mpi/interlang.h's and mica_fortran_c2f/f2c are the only internal entry points
 * libmpi.so exports. */
#ifndef MICA_INTERLANG_H
#define MICA_INTERLANG_H

#include "core/objects.h"

#define MICA_INTERLANG_API __attribute__((visibility("default")))

/* The callbacks' style of a Fortran keyval (0 is C's). */
enum mica_fortran_attr_style {
    MICA_FORTRAN_AINT = 1,            /* MPI_COMM_CREATE_KEYVAL, MPI_TYPE_CREATE_KEYVAL */
    MICA_FORTRAN_INT = 2,             /* MPI_KEYVAL_CREATE */
};

/* Mark a keyval's callbacks (attr.c), a user operation's function (op.c), a communicator error
 * handler's function (errhandler.c) as Fortran procedures. Invalid arguments are ignored: the
 * binding only marks what the C function has just created. */
MICA_INTERLANG_API void mica_fortran_keyval(int keyval, int style);
MICA_INTERLANG_API void mica_fortran_op(MPI_Op op);
MICA_INTERLANG_API void mica_fortran_errhandler(MPI_Errhandler errhandler);

#endif
