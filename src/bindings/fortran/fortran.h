/* What every generated Fortran binding file (gen/fortran.py) includes: the conversions between
 * Fortran's view of the arguments and C's.
 *
 * The Fortran binding is a layer above the C binding: each entry point converts its arguments and
 * calls the C function of the same MPI function, MPI_X from the Fortran MPI_ names and PMPI_X from
 * the Fortran PMPI_ names, and nothing else of the MPI API (handles convert through the core's
 * mica_fortran_f2c/c2f, not MPI_X_f2c, so tools never see a conversion as a user call).
 * gfortran's conventions: arguments by reference, INTEGER = MPI_Fint, LOGICAL .TRUE. = 1, and
 * each CHARACTER argument's length passed as a hidden size_t after all the others. */
#ifndef MICA_FORTRAN_H
#define MICA_FORTRAN_H

#include <stddef.h>
#include <stdint.h>

#include "mpi/interlang.h"
#include "core/objects.h"

#define MICA_F_API __attribute__((visibility("default")))
/* The Fortran MPI_ names are weak, so a tool's own definitions replace them in static links. */
#if defined(MICA_NO_WEAK)
#define MICA_F_WEAK
#else
#define MICA_F_WEAK __attribute__((weak))
#endif

/* The COMMON blocks of mpif.h whose addresses stand for C's special arguments: a Fortran
 * MPI_BOTTOM is /MPI_FORTRAN_BOTTOM/, and so on (fortran.c defines them). */
extern MICA_F_API MPI_Fint mpi_fortran_bottom_, mpi_fortran_in_place_,
    mpi_fortran_buffer_automatic_, mpi_fortran_unweighted_, mpi_fortran_weights_empty_;
extern MICA_F_API MPI_Fint mpi_fortran_status_ignore_[MPI_F_STATUS_SIZE],
    mpi_fortran_statuses_ignore_[MPI_F_STATUS_SIZE], mpi_fortran_errcodes_ignore_;
extern MICA_F_API char mpi_fortran_argv_null_, mpi_fortran_argvs_null_;

/* IERROR: optional in mpi_f08, where an absent one arrives as NULL. */
static inline void mica_f_ierror(MPI_Fint *ierror, int rc)
{
    if (ierror)
        *ierror = rc;
}

/* Fortran INTEGER handle -> C handle; predefined handles are their own Fortran values. */
static inline const void *mica_f2c(unsigned kind, MPI_Fint f)
{
    if (MICA_LIKELY(f >= 0 && f < MICA_PREDEFINED_MAX))
        return (const void *)(uintptr_t)f;
    return mica_fortran_f2c(kind, f);
}

static inline MPI_Fint mica_c2f(unsigned kind, const void *h)
{
    if (MICA_LIKELY((uintptr_t)h < MICA_PREDEFINED_MAX))
        return (MPI_Fint)(uintptr_t)h;
    return mica_fortran_c2f(kind, h);
}

/* A choice buffer: MPI_BOTTOM, MPI_IN_PLACE, MPI_BUFFER_AUTOMATIC are the COMMON blocks'. */
static inline void *mica_f_buf(const void *p)
{
    if (p == &mpi_fortran_bottom_)
        return MPI_BOTTOM;
    if (p == &mpi_fortran_in_place_)
        return MPI_IN_PLACE;
    if (p == &mpi_fortran_buffer_automatic_)
        return MPI_BUFFER_AUTOMATIC;
    return (void *)p;
}

/* INTEGER status(MPI_STATUS_SIZE) has the C layout of MPI_Status (convert.c asserts it). */
static inline MPI_Status *mica_f_status(MPI_Fint *p)
{
    if (p == mpi_fortran_status_ignore_)
        return MPI_STATUS_IGNORE;
    if (p == mpi_fortran_statuses_ignore_)
        return MPI_STATUSES_IGNORE;
    return (MPI_Status *)p;
}

/* Weights of a distributed graph: MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY. */
static inline int *mica_f_weights(MPI_Fint *p)
{
    if (p == &mpi_fortran_unweighted_)
        return MPI_UNWEIGHTED;
    if (p == &mpi_fortran_weights_empty_)
        return MPI_WEIGHTS_EMPTY;
    return p;
}

/* MPI_COMM_SPAWN's MPI_ERRCODES_IGNORE. */
static inline int *mica_f_errcodes(MPI_Fint *p)
{
    return p == &mpi_fortran_errcodes_ignore_ ? MPI_ERRCODES_IGNORE : p;
}

/* MPI_COMM_SPAWN(_MULTIPLE)'s strings, as C's arrays of trimmed copies: ARGV up to its first
 * blank element, NULL-terminated (MPI_ARGV_NULL: NULL); COUNT commands; ARRAY_OF_ARGV(COUNT, *),
 * an ARGV per column (MPI_ARGVS_NULL: NULL). NULL also when out of memory, which the _ok
 * functions tell apart. Free with mica_f_strings_free / mica_f_argvs_free. */
char **mica_f_argv(const char *a, size_t len);
char **mica_f_strings(const char *a, size_t len, MPI_Fint count);
char ***mica_f_argvs(const char *a, size_t len, MPI_Fint count);
void mica_f_strings_free(char **v);
void mica_f_argvs_free(char ***v, MPI_Fint count);
static inline int mica_f_argv_ok(const char *a, char **v)
{
    return v || a == &mpi_fortran_argv_null_;
}
static inline int mica_f_argvs_ok(const char *a, char ***v)
{
    return v || a == &mpi_fortran_argvs_null_;
}

/* An input string: a NUL-terminated copy without the trailing blanks (and the leading ones with
 * strip_leading, as for info keys and values); NULL when out of memory. Free it with free(). */
char *mica_f_cstr(const char *s, size_t len, int strip_leading);
/* An output string: a buffer of at least `len` + 1 bytes for C to fill (NUL-terminated, empty
 * at first), then copied into the Fortran variable blank-padded. */
char *mica_f_outbuf(size_t len);
void mica_f_fstr(char *dst, size_t len, const char *src);
/* A temporary array of n C handles (n < 0 counts as 0; the C function reports it); NULL when
 * out of memory. `stack` serves up to MICA_F_STACK handles. */
#define MICA_F_STACK 16
void *mica_f_array(void *stack, int n, size_t size);
void mica_f_array_free(void *stack, void *a);

/* A procedure argument: the address of the user's Fortran procedure. The predefined attribute
 * callbacks (MPI_COMM_NULL_COPY_FN, MPI_COMM_DUP_FN, ... of fortran.c) become C's constants for
 * the same (NULL and 1); any other procedure is passed on, and marked as Fortran once created
 * (interlang.h). */
typedef void mica_f_proc(void);
mica_f_proc *mica_f_callback(mica_f_proc *fn);

/* An attribute value for Fortran, from what the C function read on object `handle` of `kind`:
 * a predefined attribute's is a pointer to its int (MPI_WIN_SIZE: its MPI_Aint) in C, its
 * value in Fortran; any other is the core's to say (interlang.h: the integer Fortran set, or
 * C's word). */
static inline MPI_Aint mica_f_attr(unsigned kind, const void *handle, int keyval, void *value)
{
    switch (keyval) {
    case MPI_TAG_UB: case MPI_IO: case MPI_HOST: case MPI_WTIME_IS_GLOBAL: case MPI_APPNUM:
    case MPI_LASTUSEDCODE: case MPI_UNIVERSE_SIZE:
    case MPI_WIN_DISP_UNIT: case MPI_WIN_CREATE_FLAVOR: case MPI_WIN_MODEL:
        return *(const int *)value;
    case MPI_WIN_SIZE:
        return *(const MPI_Aint *)value;
    case MPI_WIN_BASE:
        return (MPI_Aint)value;       /* the address itself */
    }
    return mica_fortran_attr_value(kind, handle, keyval, value);
}

#endif
