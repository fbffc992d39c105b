/* Error codes and how they reach the user.
 *
 * An error code is an error class in its low 7 bits and, above them, a slot of a ring that holds
 * the message naming the bad argument (the function's name is added when it is raised), so
 * MPI_Error_string can say exactly what went wrong. Every code fits under MPI_ERR_LASTCODE. */
#ifndef MICA_ERRORS_H
#define MICA_ERRORS_H

#include "core/objects.h"

#define MICA_CLASS_BITS 7

/* A new error code of class `cls` whose message says what was wrong. */
int mica_error(int cls, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A handle that is null or not of its kind: the class of that kind, naming argument `arg`. */
int mica_bad_handle(unsigned kind, const void *handle, const char *arg);
/* Called outside MPI_Init..MPI_Finalize. */
int mica_error_inactive(const char *fn);

int mica_error_class_of(int code);  /* -1 if `code` is not a valid error code */
/* User classes and codes (above MPI_ERR_LASTCODE): the class, or -1; the string, or "". */
int mica_user_error_class(int code);
void mica_user_error_text(int code, char *buf, size_t len);
/* The text of `code` as MPI_Error_string gives it; the function, the message and the class. */
void mica_error_text(int code, char *buf, size_t len);

/* Raise `code` from MPI function `fn` on object `eo` (NULL: no object, so MPI_COMM_SELF's handler
 * while MPI is active, else the initial error handler) and return what the caller returns: the
 * code as a user's handler left it (it gets a pointer to it), as MPICH and Open MPI do. */
int mica_raise(mica_errobj_t *eo, int code, const char *fn);
/* Call the error handler of `eo` with `code` (MPI_X_call_errhandler); returns, if the handler
 * does, the code as the handler left it. */
int mica_errhandler_invoke(mica_errobj_t *eo, int code, const char *fn);

/* Give `eo` (an object of `kind`) error handler `eh` (retained), releasing its old one. */
int mica_errobj_set_errhandler(mica_errobj_t *eo, unsigned kind, mica_errhandler_t *eh);
/* A new error handler of objects of `kind` calling `fn` (the user's function, argument `arg`). */
int mica_errhandler_new(unsigned kind, void (*fn)(void *, int *, ...), const char *arg,
                        MPI_Errhandler *errhandler);
/* Take or drop a reference to `eh` (predefined handlers are never freed); retain returns eh. */
mica_errhandler_t *mica_errhandler_retain(mica_errhandler_t *eh);
void mica_errhandler_release(mica_errhandler_t *eh);
/* Name function `fn` in the message of error `code` (error.c). */
void mica_error_set_function(int code, const char *fn);

/* The error object behind a handle, or NULL when the handle is not valid. Objects that carry
 * an error handler start with their mica_errobj_t. */
static inline mica_errobj_t *mica_errobj_of_comm(MPI_Comm h) { return mica_lookup(h, MICA_COMM); }
static inline mica_errobj_t *mica_errobj_of_win(MPI_Win h) { return mica_lookup(h, MICA_WIN); }
static inline mica_errobj_t *mica_errobj_of_session(MPI_Session h) { return mica_lookup(h, MICA_SESSION); }

#endif
