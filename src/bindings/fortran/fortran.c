/* The Fortran binding's shared part: the COMMON blocks behind mpif.h's special addresses and the
 * string and array helpers of fortran.h. */
#include <stdlib.h>
#include <string.h>

#include "fortran.h"

/* Defined here, referenced by Fortran programs as COMMON blocks: one address for both sides.
 * Aligned at least as gfortran aligns COMMON blocks, so the linker finds them compatible. */
#define COMMON_BLOCK MICA_F_API __attribute__((aligned(64))) MPI_Fint
COMMON_BLOCK mpi_fortran_bottom_, mpi_fortran_in_place_, mpi_fortran_buffer_automatic_;
COMMON_BLOCK mpi_fortran_unweighted_, mpi_fortran_weights_empty_;
COMMON_BLOCK mpi_fortran_status_ignore_[MPI_F_STATUS_SIZE];
COMMON_BLOCK mpi_fortran_statuses_ignore_[MPI_F_STATUS_SIZE];
COMMON_BLOCK mpi_fortran_errcodes_ignore_;
MICA_F_API __attribute__((aligned(64))) char mpi_fortran_argv_null_, mpi_fortran_argvs_null_;

char *mica_f_cstr(const char *s, size_t len, int strip_leading)
{
    while (len > 0 && s[len - 1] == ' ')
        len--;
    while (strip_leading && len > 0 && *s == ' ') {
        s++;
        len--;
    }
    char *c = malloc(len + 1);
    if (c) {
        memcpy(c, s, len);
        c[len] = '\0';
    }
    return c;
}

char *mica_f_outbuf(size_t len)
{
    char *c = calloc(len + 1, 1);
    return c;
}

void mica_f_fstr(char *dst, size_t len, const char *src)
{
    size_t n = strnlen(src, len);
    memcpy(dst, src, n);
    memset(dst + n, ' ', len - n);
}

static int blank(const char *s, size_t len)
{
    while (len > 0 && s[len - 1] == ' ')
        len--;
    return len == 0;
}

/* The argument list whose elements are `stride` elements of `len` characters apart. */
static char **argv_at(const char *a, size_t len, size_t stride)
{
    size_t n = 0;
    while (!blank(a + n * stride * len, len))
        n++;
    char **v = calloc(n + 1, sizeof *v);
    for (size_t i = 0; v && i < n; i++)
        if (!(v[i] = mica_f_cstr(a + i * stride * len, len, 1))) {
            mica_f_strings_free(v);
            return NULL;
        }
    return v;
}

char **mica_f_argv(const char *a, size_t len)
{
    return a == &mpi_fortran_argv_null_ ? NULL : argv_at(a, len, 1);
}

char **mica_f_strings(const char *a, size_t len, MPI_Fint count)
{
    size_t n = count > 0 ? (size_t)count : 0;
    char **v = calloc(n + 1, sizeof *v);
    for (size_t i = 0; v && i < n; i++)
        if (!(v[i] = mica_f_cstr(a + i * len, len, 1))) {
            mica_f_strings_free(v);
            return NULL;
        }
    return v;
}

char ***mica_f_argvs(const char *a, size_t len, MPI_Fint count)
{
    if (a == &mpi_fortran_argvs_null_)
        return NULL;
    size_t n = count > 0 ? (size_t)count : 0;
    char ***v = calloc(n + 1, sizeof *v);
    for (size_t i = 0; v && i < n; i++)
        if (!(v[i] = argv_at(a + i * len, len, n))) {
            mica_f_argvs_free(v, (MPI_Fint)i);
            return NULL;
        }
    return v;
}

void mica_f_strings_free(char **v)
{
    for (size_t i = 0; v && v[i]; i++)
        free(v[i]);
    free(v);
}

void mica_f_argvs_free(char ***v, MPI_Fint count)
{
    for (MPI_Fint i = 0; v && i < count; i++)
        mica_f_strings_free(v[i]);
    free(v);
}

void *mica_f_array(void *stack, int n, size_t size)
{
    if (n <= MICA_F_STACK)
        return stack;
    return malloc((size_t)n * size);
}

void mica_f_array_free(void *stack, void *a)
{
    if (a != stack)
        free(a);
}

/* The predefined attribute callbacks of mpif.h (EXTERNAL MPI_COMM_NULL_COPY_FN, ...): Fortran
 * procedures a program passes to MPI_COMM_CREATE_KEYVAL and friends or calls itself. Passed to a
 * keyval constructor they become C's constants (mica_f_callback), so the core never calls them. */
/* mpi.h's C constants of the same names give way to the Fortran linker names here. */
#undef MPI_COMM_NULL_COPY_FN
#undef MPI_COMM_DUP_FN
#undef MPI_COMM_NULL_DELETE_FN
#undef MPI_TYPE_NULL_COPY_FN
#undef MPI_TYPE_DUP_FN
#undef MPI_TYPE_NULL_DELETE_FN
#undef MPI_WIN_NULL_COPY_FN
#undef MPI_WIN_DUP_FN
#undef MPI_WIN_NULL_DELETE_FN
#undef MPI_NULL_COPY_FN
#undef MPI_DUP_FN
#undef MPI_NULL_DELETE_FN
#define F_ALIAS(fn, name) MICA_F_API extern __typeof__(fn) name __attribute__((alias(#fn)));
#define F_NAMES(fn, low, up) F_ALIAS(fn, low) F_ALIAS(fn, low##_) F_ALIAS(fn, low##__) F_ALIAS(fn, up)

void mica_f_null_copy_fn(MPI_Fint *obj, MPI_Fint *keyval, void *extra_state, void *in, void *out,
                         MPI_Fint *flag, MPI_Fint *ierror)
{
    *flag = 0;
    *ierror = MPI_SUCCESS;
}
F_NAMES(mica_f_null_copy_fn, mpi_comm_null_copy_fn, MPI_COMM_NULL_COPY_FN)
F_NAMES(mica_f_null_copy_fn, mpi_type_null_copy_fn, MPI_TYPE_NULL_COPY_FN)
F_NAMES(mica_f_null_copy_fn, mpi_win_null_copy_fn, MPI_WIN_NULL_COPY_FN)
F_NAMES(mica_f_null_copy_fn, mpi_null_copy_fn, MPI_NULL_COPY_FN)

void mica_f_dup_fn(MPI_Fint *obj, MPI_Fint *keyval, MPI_Aint *extra_state, MPI_Aint *in,
                   MPI_Aint *out, MPI_Fint *flag, MPI_Fint *ierror)
{
    *out = *in;
    *flag = 1;
    *ierror = MPI_SUCCESS;
}
F_NAMES(mica_f_dup_fn, mpi_comm_dup_fn, MPI_COMM_DUP_FN)
F_NAMES(mica_f_dup_fn, mpi_type_dup_fn, MPI_TYPE_DUP_FN)
F_NAMES(mica_f_dup_fn, mpi_win_dup_fn, MPI_WIN_DUP_FN)

/* MPI_DUP_FN, for MPI_KEYVAL_CREATE: INTEGER values. */
void mica_f_dup_fn_int(MPI_Fint *obj, MPI_Fint *keyval, MPI_Fint *extra_state, MPI_Fint *in,
                       MPI_Fint *out, MPI_Fint *flag, MPI_Fint *ierror)
{
    *out = *in;
    *flag = 1;
    *ierror = MPI_SUCCESS;
}
F_NAMES(mica_f_dup_fn_int, mpi_dup_fn, MPI_DUP_FN)

void mica_f_null_delete_fn(MPI_Fint *obj, MPI_Fint *keyval, void *value, void *extra_state,
                           MPI_Fint *ierror)
{
    *ierror = MPI_SUCCESS;
}
F_NAMES(mica_f_null_delete_fn, mpi_comm_null_delete_fn, MPI_COMM_NULL_DELETE_FN)
F_NAMES(mica_f_null_delete_fn, mpi_type_null_delete_fn, MPI_TYPE_NULL_DELETE_FN)
F_NAMES(mica_f_null_delete_fn, mpi_win_null_delete_fn, MPI_WIN_NULL_DELETE_FN)
F_NAMES(mica_f_null_delete_fn, mpi_null_delete_fn, MPI_NULL_DELETE_FN)

mica_f_proc *mica_f_callback(mica_f_proc *fn)
{
    if (fn == (mica_f_proc *)mica_f_null_copy_fn || fn == (mica_f_proc *)mica_f_null_delete_fn)
        return NULL;                  /* C's MPI_*_NULL_COPY_FN, MPI_*_NULL_DELETE_FN */
    if (fn == (mica_f_proc *)mica_f_dup_fn || fn == (mica_f_proc *)mica_f_dup_fn_int)
        return (mica_f_proc *)(uintptr_t)1;   /* C's MPI_*_DUP_FN */
    return fn;
}
