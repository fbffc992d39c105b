/* What the generated mpi_f08 binding files include besides fortran.h: choice buffers as
 * TS 29113 descriptors (TYPE(*), DIMENSION(..) in a BIND(C) interface arrives as a
 * CFI_cdesc_t *), and what becomes of an array section that is not contiguous.
 *
 * A contiguous buffer (a whole array, a scalar, a contiguous section) is passed on as its
 * address: no copy, no new datatype. A non-contiguous section, such as a(1:n:3, 2):
 *   - in a blocking routine, is gathered into a contiguous copy before the call and scattered
 *     back after it when the routine writes it (what a compiler does for an assumed-size dummy);
 *   - in a nonblocking, persistent or one-sided routine (its buffer is ASYNCHRONOUS), where no
 *     copy could be written back, its (count, datatype) become one element of a datatype that
 *     lays the elements out as the section does; the pending operation keeps that datatype.
 * Every helper that fails raises the error through the error handler of the call's object. */
#ifndef MICA_F08_H
#define MICA_F08_H

#include <ISO_Fortran_binding.h>

#include "fortran.h"

static inline int mica_f08_contiguous(const CFI_cdesc_t *d)
{
    if (MICA_LIKELY(d->rank == 0 || (d->rank == 1 && d->dim[0].sm == (CFI_index_t)d->elem_len)))
        return 1;                     /* a scalar, a whole vector */
    CFI_index_t sm = (CFI_index_t)d->elem_len;
    for (int i = 0; i < d->rank; i++) {
        if (d->dim[i].extent == 0)
            return 1;                 /* empty: nothing to lay out */
        if (d->dim[i].extent != 1 && d->dim[i].sm != sm)
            return 0;
        sm *= d->dim[i].extent;
    }
    return 1;
}

/* The address C sees: MPI_BOTTOM and MPI_IN_PLACE arrive as their COMMON blocks. */
static inline void *mica_f08_addr(const CFI_cdesc_t *d)
{
    return mica_f_buf(d->base_addr);
}

/* A blocking routine's non-contiguous section: *copy becomes a contiguous copy of its elements
 * (free() it); scatter writes a copy's elements back into the section. */
int mica_f08_gather(const CFI_cdesc_t *d, void **copy, const mica_fortran_call_t *call);
void mica_f08_scatter(const CFI_cdesc_t *d, const void *copy);

/* An ASYNCHRONOUS buffer's non-contiguous section holding `count` elements of datatype `type`
 * (a Fortran handle): *section becomes a new committed datatype, one element of which is those
 * elements where the section has them (mpi/sections.c); MPI_DATATYPE_NULL when the call needs
 * none. Free it with mica_fortran_type_free once the routine has started: the operation keeps
 * its own reference. */
int mica_f08_section(const CFI_cdesc_t *d, const char *arg, MPI_Count count, MPI_Fint type,
                     MPI_Datatype *section, const mica_fortran_call_t *call);

/* A non-contiguous section where this binding cannot take one yet (an ASYNCHRONOUS buffer
 * without a count and datatype of its own, such as MPI_Ireduce's sendbuf, which shares
 * recvbuf's): MPI_ERR_UNSUPPORTED_OPERATION. */
int mica_f08_refuse(const char *arg, const mica_fortran_call_t *call);

#endif
