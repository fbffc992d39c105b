/* mpi_f08's choice buffers (f08.h): copies of non-contiguous sections for blocking routines,
 * and the descriptor's shape for the section datatypes of nonblocking ones. */
#include <stdlib.h>
#include <string.h>

#include "f08.h"

static void copy(char *q, char **flat, size_t n, int to_flat)
{
    if (to_flat)
        memcpy(*flat, q, n);
    else
        memcpy(q, *flat, n);
    *flat += n;
}

/* Visit the elements of d in array element order, copying each to (or from) the next place of
 * a contiguous buffer; the first dimension as one run when its elements are adjacent. */
static void walk(const CFI_cdesc_t *d, char *flat, int to_flat)
{
    size_t len = d->elem_len;
    int rank = d->rank;
    if (rank == 0) {
        copy(d->base_addr, &flat, len, to_flat);
        return;
    }
    for (int i = 0; i < rank; i++)
        if (d->dim[i].extent <= 0)
            return;
    CFI_index_t n0 = d->dim[0].extent, sm0 = d->dim[0].sm, idx[CFI_MAX_RANK] = {0};
    for (;;) {
        char *p = d->base_addr;
        for (int i = 1; i < rank; i++)
            p += idx[i] * d->dim[i].sm;
        if (sm0 == (CFI_index_t)len)
            copy(p, &flat, (size_t)n0 * len, to_flat);
        else
            for (CFI_index_t e = 0; e < n0; e++)
                copy(p + e * sm0, &flat, len, to_flat);
        int i = 1;
        while (i < rank && ++idx[i] == d->dim[i].extent)
            idx[i++] = 0;
        if (i == rank)
            return;
    }
}

static size_t elements(const CFI_cdesc_t *d)
{
    size_t n = 1;
    for (int i = 0; i < d->rank; i++)
        n *= d->dim[i].extent > 0 ? (size_t)d->dim[i].extent : 0;
    return n;
}

int mica_f08_gather(const CFI_cdesc_t *d, void **copy, const mica_fortran_call_t *call)
{
    size_t bytes = elements(d) * d->elem_len;
    *copy = malloc(bytes ? bytes : 1);
    if (!*copy)
        return mica_fortran_raise(call, MPI_ERR_NO_MEM, "no memory for a contiguous copy of an "
                                  "array section of %zu bytes", bytes);
    walk(d, *copy, 1);
    return MPI_SUCCESS;
}

void mica_f08_scatter(const CFI_cdesc_t *d, const void *copy)
{
    walk(d, (char *)copy, 0);
}

int mica_f08_section(const CFI_cdesc_t *d, const char *arg, MPI_Count count, MPI_Fint type,
                     MPI_Datatype *section, const mica_fortran_call_t *call)
{
    MPI_Count extent[CFI_MAX_RANK], sm[CFI_MAX_RANK];
    for (int i = 0; i < d->rank; i++) {
        extent[i] = d->dim[i].extent;
        sm[i] = d->dim[i].sm;
    }
    return mica_fortran_section(call, arg, d->rank, extent, sm, (MPI_Count)d->elem_len, count,
                                type, section);
}

int mica_f08_refuse(const char *arg, const mica_fortran_call_t *call)
{
    return mica_fortran_raise(call, MPI_ERR_UNSUPPORTED_OPERATION, "%s is a non-contiguous array "
                              "section: not yet supported as this routine's buffer (pass a "
                              "contiguous array)", arg);
}
