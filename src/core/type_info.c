/* What a datatype is: size, bounds, name, how it was made (envelope and contents), and the
 * inquiries that map to predefined types (value-index pairs, matching sizes). */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "core/datatype.h"
#include "core/errors.h"
#include "core_api.h"

const char *mica_type_describe(const mica_type_t *type, char *buf, size_t len)
{
    if (type->name[0])
        return type->name;
    if (type->basic)
        snprintf(buf, len, "a derived datatype of %s", type->basic->name);
    else
        snprintf(buf, len, "a derived datatype of %s",
                 type->size ? "several basic types" : "no data");
    return buf;
}

MPI_Count mica_type_elements(const mica_type_t *type, MPI_Count bytes)
{
    if (type->size == 0 || bytes <= 0)
        return 0;
    MPI_Count n = bytes / type->size * type->nelem, rest = bytes % type->size;
    for (int i = 0; i < type->nsig && rest; i++) {
        MPI_Count each = type->sig[i].basic->size, k = rest / each;
        if (k > type->sig[i].n)
            k = type->sig[i].n;
        n += k;
        rest -= k * each;
        if (k < type->sig[i].n)
            break;
    }
    return rest ? MPI_UNDEFINED : n;
}

MPI_Count mica_type_element_bytes(const mica_type_t *type, MPI_Count elements)
{
    if (type->nelem == 0 || elements <= 0)
        return 0;
    MPI_Count bytes = elements / type->nelem * type->size, rest = elements % type->nelem;
    for (int i = 0; i < type->nsig && rest; i++) {
        MPI_Count k = rest < type->sig[i].n ? rest : type->sig[i].n;
        bytes += k * type->sig[i].basic->size;
        rest -= k;
    }
    return bytes;
}

int mica_get_address(const void *location, MPI_Aint *address)
{
    *address = (MPI_Aint)location;
    return MPI_SUCCESS;
}

/* ---- size and bounds --------------------------------------------------------------------- */

int mica_type_size_c(mica_type_t *datatype, MPI_Count *size)
{
    *size = datatype->size;
    return MPI_SUCCESS;
}

int mica_type_size_x(mica_type_t *datatype, MPI_Count *size)
{
    return mica_type_size_c(datatype, size);
}

int mica_type_size(mica_type_t *datatype, int *size)
{
    *size = datatype->size <= INT_MAX ? (int)datatype->size : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

int mica_type_get_extent_c(mica_type_t *datatype, MPI_Count *lb, MPI_Count *extent)
{
    *lb = datatype->lb;
    *extent = datatype->extent;
    return MPI_SUCCESS;
}

int mica_type_get_extent_x(mica_type_t *datatype, MPI_Count *lb, MPI_Count *extent)
{
    return mica_type_get_extent_c(datatype, lb, extent);
}

int mica_type_get_true_extent_c(mica_type_t *datatype, MPI_Count *true_lb, MPI_Count *true_extent)
{
    *true_lb = datatype->true_lb;
    *true_extent = datatype->true_extent;
    return MPI_SUCCESS;
}

int mica_type_get_true_extent_x(mica_type_t *datatype, MPI_Count *true_lb, MPI_Count *true_extent)
{
    return mica_type_get_true_extent_c(datatype, true_lb, true_extent);
}

/* ---- names ------------------------------------------------------------------------------- */

int mica_type_set_name(mica_type_t *datatype, const char *type_name)
{
    if (!type_name)
        return mica_error(MPI_ERR_ARG, "type_name is NULL");
    /* Longer names are truncated, as the standard allows. */
    size_t n = strnlen(type_name, MPI_MAX_OBJECT_NAME - 1);
    memcpy(datatype->name, type_name, n);
    datatype->name[n] = 0;
    return MPI_SUCCESS;
}

int mica_type_get_name(mica_type_t *datatype, char *type_name, int *resultlen)
{
    size_t n = strnlen(datatype->name, MPI_MAX_OBJECT_NAME - 1);
    memcpy(type_name, datatype->name, n);
    type_name[n] = 0;
    *resultlen = (int)n;
    return MPI_SUCCESS;
}

/* ---- envelope and contents --------------------------------------------------------------- */

static const struct mica_type_contents named = {0};

static const struct mica_type_contents *contents(const mica_type_t *t)
{
    return t->contents ? t->contents : &named;
}

int mica_type_get_envelope_c(mica_type_t *datatype, MPI_Count *num_integers,
                             MPI_Count *num_addresses, MPI_Count *num_large_counts,
                             MPI_Count *num_datatypes, int *combiner)
{
    const struct mica_type_contents *c = contents(datatype);
    *num_integers = c->ni;
    *num_addresses = c->na;
    *num_large_counts = c->nc;
    *num_datatypes = c->nd;
    *combiner = mica_type_is_predefined(datatype) ? MPI_COMBINER_NAMED : datatype->combiner;
    return MPI_SUCCESS;
}

int mica_type_get_envelope(mica_type_t *datatype, int *num_integers, int *num_addresses,
                           int *num_datatypes, int *combiner)
{
    const struct mica_type_contents *c = contents(datatype);
    if (c->large || c->ni > INT_MAX || c->na > INT_MAX || c->nd > INT_MAX)
        return mica_error(MPI_ERR_TYPE, "datatype was made with large counts: use "
                          "MPI_Type_get_envelope_c");
    *num_integers = (int)c->ni;
    *num_addresses = (int)c->na;
    *num_datatypes = (int)c->nd;
    *combiner = mica_type_is_predefined(datatype) ? MPI_COMBINER_NAMED : datatype->combiner;
    return MPI_SUCCESS;
}

int mica_type_get_contents_c(mica_type_t *datatype, MPI_Count max_integers,
                             MPI_Count max_addresses, MPI_Count max_large_counts,
                             MPI_Count max_datatypes, int array_of_integers[],
                             MPI_Aint array_of_addresses[], MPI_Count array_of_large_counts[],
                             MPI_Datatype array_of_datatypes[])
{
    const struct mica_type_contents *c = datatype->contents;
    if (mica_type_is_predefined(datatype) || !c)
        return mica_error(MPI_ERR_TYPE, "datatype %s is predefined: it has no contents",
                          datatype->name);
    static const char *const what[] = {"max_integers", "max_addresses", "max_large_counts",
                                       "max_datatypes"};
    MPI_Count max[] = {max_integers, max_addresses, max_large_counts, max_datatypes};
    MPI_Count need[] = {c->ni, c->na, c->nc, c->nd};
    const void *arr[] = {array_of_integers, array_of_addresses, array_of_large_counts,
                         array_of_datatypes};
    for (int i = 0; i < 4; i++) {
        if (max[i] < need[i])
            return mica_error(MPI_ERR_ARG, "%s=%lld is less than the %lld the envelope gives",
                              what[i], (long long)max[i], (long long)need[i]);
        if (need[i] && !arr[i])
            return mica_error(MPI_ERR_ARG, "%s is NULL", (const char *[]){"array_of_integers",
                              "array_of_addresses", "array_of_large_counts",
                              "array_of_datatypes"}[i]);
    }
    if (c->ni)
        memcpy(array_of_integers, c->ints, c->ni * sizeof(int));
    if (c->na)
        memcpy(array_of_addresses, c->aints, c->na * sizeof(MPI_Aint));
    if (c->nc)
        memcpy(array_of_large_counts, c->counts, c->nc * sizeof(MPI_Count));
    /* Derived types come back as handles the caller frees: the same objects, retained. */
    for (MPI_Count i = 0; i < c->nd; i++) {
        mica_type_retain(c->types[i]);
        array_of_datatypes[i] = (MPI_Datatype)c->types[i]->obj.handle;
    }
    return MPI_SUCCESS;
}

int mica_type_get_contents(mica_type_t *datatype, int max_integers, int max_addresses,
                           int max_datatypes, int array_of_integers[],
                           MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[])
{
    if (datatype->contents && datatype->contents->large)
        return mica_error(MPI_ERR_TYPE, "datatype was made with large counts: use "
                          "MPI_Type_get_contents_c");
    return mica_type_get_contents_c(datatype, max_integers, max_addresses, 0, max_datatypes,
                                    array_of_integers, array_of_addresses, NULL,
                                    array_of_datatypes);
}

/* ---- predefined types by their properties ------------------------------------------------ */

int mica_type_get_value_index(mica_type_t *value_type, mica_type_t *index_type,
                              MPI_Datatype *pair_type)
{
    static const struct { MPI_Datatype value, index, pair; } pairs[] = {
        {MPI_FLOAT, MPI_INT, MPI_FLOAT_INT}, {MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT},
        {MPI_LONG, MPI_INT, MPI_LONG_INT}, {MPI_INT, MPI_INT, MPI_2INT},
        {MPI_SHORT, MPI_INT, MPI_SHORT_INT}, {MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT},
        {MPI_REAL, MPI_REAL, MPI_2REAL},
        {MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, MPI_2DOUBLE_PRECISION},
        {MPI_INTEGER, MPI_INTEGER, MPI_2INTEGER},
    };
    *pair_type = MPI_DATATYPE_NULL;
    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++)
        if ((uintptr_t)pairs[i].value == value_type->obj.handle &&
            (uintptr_t)pairs[i].index == index_type->obj.handle)
            *pair_type = pairs[i].pair;
    return MPI_SUCCESS;
}

/* MPI_Type_create_f90_*: the kind gfortran's SELECTED_INT_KIND(r) / SELECTED_REAL_KIND(p, r)
 * choose, and the predefined type of its data (REAL(10), the x87 extended format, is C's long
 * double). MPI_UNDEFINED asks nothing of p or r. */
int mica_type_create_f90_integer(int r, MPI_Datatype *newtype)
{
    static const struct { int range; MPI_Datatype type; } kinds[] = {
        {2, MPI_INTEGER1}, {4, MPI_INTEGER2}, {9, MPI_INTEGER4}, {18, MPI_INTEGER8},
        {38, MPI_INTEGER16}};
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if (r <= kinds[i].range)
            return mica_type_f90(MPI_COMBINER_F90_INTEGER, MPI_UNDEFINED, r,
                                 mica_type_lookup(kinds[i].type), newtype);
    return mica_error(MPI_ERR_ARG, "r=%d: no Fortran INTEGER kind has that range", r);
}

static int f90_real(int combiner, int p, int r, MPI_Datatype *newtype)
{
    static const struct { int precision, range; MPI_Datatype real, complex; } kinds[] = {
        {6, 37, MPI_REAL4, MPI_COMPLEX8}, {15, 307, MPI_REAL8, MPI_COMPLEX16},
        {18, 4931, MPI_LONG_DOUBLE, MPI_C_LONG_DOUBLE_COMPLEX},
        {33, 4931, MPI_REAL16, MPI_COMPLEX32}};
    if (p == MPI_UNDEFINED && r == MPI_UNDEFINED)
        return mica_error(MPI_ERR_ARG, "p and r are both MPI_UNDEFINED");
    int want_p = p == MPI_UNDEFINED ? 0 : p, want_r = r == MPI_UNDEFINED ? 0 : r;
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if (want_p <= kinds[i].precision && want_r <= kinds[i].range)
            return mica_type_f90(combiner, p, r, mica_type_lookup(
                combiner == MPI_COMBINER_F90_REAL ? kinds[i].real : kinds[i].complex), newtype);
    return mica_error(MPI_ERR_ARG, "p=%d, r=%d: no Fortran %s kind has that precision and range",
                      p, r, combiner == MPI_COMBINER_F90_REAL ? "REAL" : "COMPLEX");
}

int mica_type_create_f90_real(int p, int r, MPI_Datatype *newtype)
{
    return f90_real(MPI_COMBINER_F90_REAL, p, r, newtype);
}

int mica_type_create_f90_complex(int p, int r, MPI_Datatype *newtype)
{
    return f90_real(MPI_COMBINER_F90_COMPLEX, p, r, newtype);
}

int mica_type_match_size(int typeclass, int size, MPI_Datatype *datatype)
{
    static const struct { int typeclass, size; MPI_Datatype type; } sizes[] = {
        {MPI_TYPECLASS_INTEGER, 1, MPI_INTEGER1}, {MPI_TYPECLASS_INTEGER, 2, MPI_INTEGER2},
        {MPI_TYPECLASS_INTEGER, 4, MPI_INTEGER4}, {MPI_TYPECLASS_INTEGER, 8, MPI_INTEGER8},
        {MPI_TYPECLASS_INTEGER, 16, MPI_INTEGER16},
        {MPI_TYPECLASS_REAL, 2, MPI_REAL2}, {MPI_TYPECLASS_REAL, 4, MPI_REAL4},
        {MPI_TYPECLASS_REAL, 8, MPI_REAL8}, {MPI_TYPECLASS_REAL, 16, MPI_REAL16},
        {MPI_TYPECLASS_COMPLEX, 4, MPI_COMPLEX4}, {MPI_TYPECLASS_COMPLEX, 8, MPI_COMPLEX8},
        {MPI_TYPECLASS_COMPLEX, 16, MPI_COMPLEX16}, {MPI_TYPECLASS_COMPLEX, 32, MPI_COMPLEX32},
        {MPIX_TYPECLASS_LOGICAL, 1, MPI_LOGICAL1}, {MPIX_TYPECLASS_LOGICAL, 2, MPI_LOGICAL2},
        {MPIX_TYPECLASS_LOGICAL, 4, MPI_LOGICAL4}, {MPIX_TYPECLASS_LOGICAL, 8, MPI_LOGICAL8},
        {MPIX_TYPECLASS_LOGICAL, 16, MPI_LOGICAL16},
    };
    if (typeclass != MPI_TYPECLASS_INTEGER && typeclass != MPI_TYPECLASS_REAL &&
        typeclass != MPI_TYPECLASS_COMPLEX && typeclass != MPIX_TYPECLASS_LOGICAL)
        return mica_error(MPI_ERR_ARG, "typeclass=%d is not an MPI_TYPECLASS_*", typeclass);
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        if (sizes[i].typeclass == typeclass && sizes[i].size == size) {
            *datatype = sizes[i].type;
            return MPI_SUCCESS;
        }
    return mica_error(MPI_ERR_ARG, "no predefined type of typeclass %d has size=%d", typeclass,
                      size);
}
