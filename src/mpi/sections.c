/* mpi_f08's non-contiguous array sections as datatypes (mpi/interlang.h), and the Fortran
 * binding's own errors.
 *
 * A nonblocking routine given a section such as a(1:n:3, 2) must leave the data where the
 * section has it: no copy could be written back when the operation completes later. So its
 * (count, datatype) become one element of a datatype that has the section's layout: each
 * dimension an hvector of the one below (stride: the section's byte step), the element at the
 * bottom the user's datatype (or a contiguous run of it filling one array element). The first
 * `count` elements in array element order are whole blocks of the dimensions, most significant
 * first, so at most one piece per dimension: a struct of those pieces. */
#include <stdarg.h>
#include <stdio.h>

#include "core/datatype.h"
#include "core/errors.h"
#include "core/progress.h"
#include "core_api.h"
#include "io/io.h"
#include "mpi/interlang.h"

#define MAX_RANK 15                   /* Fortran's */

static const void *handle_of(unsigned kind, MPI_Fint f)
{
    return mica_fortran_f2c(kind, f);
}

int mica_fortran_raise(const mica_fortran_call_t *call, int cls, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    mica_errobj_t *eo = NULL;
    if (call->kind == MICA_COMM)
        eo = mica_errobj_of_comm((MPI_Comm)handle_of(MICA_COMM, call->handle));
    else if (call->kind == MICA_WIN)
        eo = mica_errobj_of_win((MPI_Win)handle_of(MICA_WIN, call->handle));
    else if (call->kind == MICA_FILE)
        eo = mica_errobj_of_file((MPI_File)handle_of(MICA_FILE, call->handle));
    return mica_raise(eo, mica_error(cls, "%s", msg), call->fn);
}

/* The first n (> 1) elements of the section, each of datatype elem: levels[i] is dimensions
 * 0..i-1 whole (levels[0] the element), holding per[i] elements. */
static int build(int rank, const MPI_Count *extent, const MPI_Count *sm, MPI_Count n,
                 MPI_Datatype elem, MPI_Datatype *section)
{
    MPI_Datatype levels[MAX_RANK + 1], piece[MAX_RANK + 1], made[2 * MAX_RANK + 1];
    MPI_Count per[MAX_RANK + 1], disp[MAX_RANK + 1], ones[MAX_RANK + 1];
    int top = 0, np = 0, nmade = 0, rc = MPI_SUCCESS;
    levels[0] = elem;
    per[0] = 1;
    while (rc == MPI_SUCCESS && top < rank && per[top] * extent[top] <= n) {
        rc = mica_type_create_hvector_c(extent[top], 1, sm[top], mica_type_lookup(levels[top]),
                                        &levels[top + 1]);
        if (rc == MPI_SUCCESS)
            made[nmade++] = levels[top + 1];
        per[top + 1] = per[top] * extent[top];
        top++;
    }
    /* n = sum of q_i * per[i], most significant first: q_i blocks of level i along dimension
     * i, after the blocks of the levels above. */
    MPI_Count left = n, at = 0;
    for (int i = top; rc == MPI_SUCCESS && i >= 0 && left > 0; i--) {
        MPI_Count q = left / per[i];
        if (q == 0)
            continue;
        if (q == 1) {
            piece[np] = levels[i];
        } else {
            rc = mica_type_create_hvector_c(q, 1, sm[i], mica_type_lookup(levels[i]), &piece[np]);
            if (rc == MPI_SUCCESS)
                made[nmade++] = piece[np];
        }
        disp[np] = at;
        ones[np++] = 1;
        if (i < rank)
            at += q * sm[i];
        left -= q * per[i];
    }
    if (rc == MPI_SUCCESS && np == 1 && disp[0] == 0)
        *section = piece[0];
    else if (rc == MPI_SUCCESS)
        rc = mica_type_create_struct_c(np, ones, disp, piece, section);
    if (rc == MPI_SUCCESS)
        rc = mica_type_commit(section);
    for (int i = 0; i < nmade; i++)
        if (made[i] != *section)
            (void)mica_type_free(&made[i]);
    return rc;
}

int mica_fortran_section(const mica_fortran_call_t *call, const char *arg, int rank,
                         const MPI_Count *extent, const MPI_Count *sm, MPI_Count elem_len,
                         MPI_Count count, MPI_Fint type, MPI_Datatype *section)
{
    *section = MPI_DATATYPE_NULL;
    mica_lock();
    mica_type_t *t = mica_type_lookup((MPI_Datatype)handle_of(MICA_TYPE, type));
    if (!t || !t->committed || t->size == 0 || count <= 0 || rank > MAX_RANK) {
        mica_unlock();
        return MPI_SUCCESS;           /* the C function judges these */
    }
    /* The array's element: the datatype itself, or a contiguous run of it. */
    MPI_Count k = elem_len / t->size, n = 0;
    if (t->size != elem_len && (elem_len % t->size || !t->contiguous || t->extent != t->size
                                || count % k)) {
        mica_unlock();
        return mica_fortran_raise(call, MPI_ERR_UNSUPPORTED_OPERATION,
                                  "%s is a non-contiguous array section of %lld-byte elements, "
                                  "which are not a whole number of elements of the datatype "
                                  "(size %lld): not yet supported in this routine", arg,
                                  (long long)elem_len, (long long)t->size);
    }
    n = count / k;
    if (n == 1) {
        mica_unlock();
        return MPI_SUCCESS;           /* one array element: at the address, contiguous */
    }
    MPI_Count have = 1;
    for (int i = 0; i < rank; i++)
        have *= extent[i];
    if (n > have) {
        mica_unlock();
        return mica_fortran_raise(call, MPI_ERR_COUNT, "count=%lld asks for %lld elements of "
                                  "array section %s, which has %lld", (long long)count,
                                  (long long)n, arg, (long long)have);
    }
    MPI_Datatype elem = (MPI_Datatype)t->obj.handle;
    int rc = MPI_SUCCESS;
    if (k > 1)
        rc = mica_type_contiguous_c(k, t, &elem);
    if (rc == MPI_SUCCESS)
        rc = build(rank, extent, sm, n, elem, section);
    if (k > 1 && elem != *section)
        (void)mica_type_free(&elem);
    mica_unlock();
    if (rc != MPI_SUCCESS) {
        *section = MPI_DATATYPE_NULL;
        return mica_fortran_raise(call, mica_error_class_of(rc) < 0 ? MPI_ERR_INTERN :
                                  mica_error_class_of(rc), "no datatype for array section %s", arg);
    }
    return MPI_SUCCESS;
}

void mica_fortran_type_free(MPI_Datatype *section)
{
    mica_lock();
    (void)mica_type_free(section);
    mica_unlock();
}
