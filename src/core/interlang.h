/* What the core offers the Fortran binding library (libmpi_fort) beyond handle conversion
 * (objects.h): the Fortran binding creates keyvals, operations and error handlers through the C
 * functions (a tool sees those calls) with the Fortran user's procedure in place of a C function,
 * then marks them here, and the core calls that procedure with Fortran's conventions: every
 * argument by reference, INTEGER handles, INTEGER(KIND=MPI_ADDRESS_KIND) attribute values and
 * extra states (INTEGER ones for the deprecated MPI_KEYVAL_CREATE), LOGICAL flags. The standard
 * asks exactly this of implementations: callbacks are tagged with their language.
 *
 * Attribute values follow the standard's interlanguage rule (MPI-4.0 19.3.7): an attribute
 * remembers whether C or Fortran set it, and how. Fortran reads the value either way (C's
 * pointer as an integer; INTEGER truncates, INTEGER(KIND=MPI_ADDRESS_KIND) sign-extends); C
 * reads a value Fortran set as a pointer to an MPI_Aint (MPI_COMM_SET_ATTR & co.) or MPI_Fint
 * (MPI_ATTR_PUT) holding it, valid while the attribute is. Fortran callbacks get the value, C
 * callbacks what C would read. A user copy callback's copy is set in its own language,
 * MPI_*_DUP_FN's in the original's. The predefined attributes are apart: the binding reads
 * their int.
 *
 * These, mpi/interlang.h's and mica_fortran_c2f/f2c are the only internal entry points
 * libmpi.so exports. */
#ifndef MICA_INTERLANG_H
#define MICA_INTERLANG_H

#include "core/objects.h"

#define MICA_INTERLANG_API __attribute__((visibility("default")))

/* The callbacks' style of a Fortran keyval, and how Fortran set an attribute (0 is C's). */
enum mica_fortran_attr_style {
    MICA_FORTRAN_AINT = 1,            /* MPI_COMM_CREATE_KEYVAL & co., MPI_COMM_SET_ATTR & co. */
    MICA_FORTRAN_INT = 2,             /* MPI_KEYVAL_CREATE, MPI_ATTR_PUT */
};

/* Mark a keyval's callbacks (attr.c), a user operation's function (op.c), a communicator error
 * handler's function (errhandler.c) as Fortran procedures. Invalid arguments are ignored: the
 * binding only marks what the C function has just created. */
MICA_INTERLANG_API void mica_fortran_keyval(int keyval, int style);
MICA_INTERLANG_API void mica_fortran_op(MPI_Op op);
MICA_INTERLANG_API void mica_fortran_errhandler(MPI_Errhandler errhandler);

/* Mark the attribute of `keyval` on object `handle` (kind MICA_COMM, MICA_TYPE or MICA_WIN),
 * which the C function has just set, as set in Fortran with `style` (attr.c). Nothing if there
 * is no such attribute. */
MICA_INTERLANG_API void mica_fortran_attr(unsigned kind, const void *handle, int keyval,
                                          int style);
/* What Fortran reads of that attribute, given `value`, what the C function read: the integer
 * Fortran set, or `value` itself if C set it. */
MICA_INTERLANG_API MPI_Aint mica_fortran_attr_value(unsigned kind, const void *handle,
                                                    int keyval, void *value);

#endif
