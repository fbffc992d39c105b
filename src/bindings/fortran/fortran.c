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
