/* MPI_Pack_external, MPI_Unpack_external, MPI_Pack_external_size: the "external32"
 * representation, the only one the standard defines. Its stream holds the basic elements of
 * the type map in order, each big-endian and of the size the standard's table of section
 * "External Data Representation" gives: the native size here except C long and unsigned long
 * (4 bytes), wchar_t (2), and long double, 16 bytes of IEEE quadruple precision (x86's is the
 * 80-bit extended format in 16 bytes). Complex numbers are their two parts, pairs of MINLOC
 * their value and index, as their type maps say.
 *
 * Packing makes the native packed form of a chunk of elements (mica_type_pack) and converts it
 * element by element along the type's signature; unpacking converts back and unpacks. A value
 * that does not fit its external size (a long beyond 32 bits, a wchar_t beyond 16) is an error
 * of class MPI_ERR_CONVERSION, never silently cut. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/datatype.h"
#include "core/errors.h"
#include "core_api.h"

#define CHUNK 65536                   /* native bytes converted at a time, at least one element */

/* How a basic element converts. */
enum how { RAW, SWAP, SWAP_HALVES, SINT, UINT, LDBL, LDBL_COMPLEX };

static MPI_Count ext_size(const mica_type_t *b)
{
    if (b == &mica_type_MPI_LONG || b == &mica_type_MPI_UNSIGNED_LONG)
        return 4;
    if (b == &mica_type_MPI_WCHAR)
        return 2;
    return b->size;                   /* long double: 16 both ways */
}

static enum how how_of(const mica_type_t *b)
{
    switch (b->ctype) {
    case MICA_CT_FLD:
        return LDBL;
    case MICA_CT_CLD:
        return LDBL_COMPLEX;
    case MICA_CT_C16: case MICA_CT_C32: case MICA_CT_C64: case MICA_CT_C128:
        return SWAP_HALVES;
    case MICA_CT_I16: case MICA_CT_I32: case MICA_CT_I64: case MICA_CT_I128:
        return ext_size(b) < b->size ? SINT : SWAP;
    case MICA_CT_U16: case MICA_CT_U32: case MICA_CT_U64:
        return ext_size(b) < b->size ? UINT : SWAP;
    case MICA_CT_NONE:               /* characters, MPI_PACKED; wchar_t, unsigned */
        return b->size == 1 ? RAW : UINT;
    default:                          /* one byte, or an IEEE real */
        return b->size == 1 ? RAW : SWAP;
    }
}

static void reverse(unsigned char *dst, const unsigned char *src, MPI_Count n)
{
    for (MPI_Count i = 0; i < n; i++)
        dst[i] = src[n - 1 - i];
}

/* Native (little-endian, x86-64) to external32; 0, or -1 when the value does not fit. */
static int to_ext(const mica_type_t *b, const unsigned char *in, unsigned char *out)
{
    MPI_Count n = b->size, e = ext_size(b);
    switch (how_of(b)) {
    case RAW:
        memcpy(out, in, n);
        return 0;
    case SWAP:
        reverse(out, in, n);
        return 0;
    case SWAP_HALVES:
        reverse(out, in, n / 2);
        reverse(out + n / 2, in + n / 2, n / 2);
        return 0;
    case SINT:
    case UINT: {
        /* The bytes cut off must be what the kept ones extend to: zeros, or the sign. */
        unsigned char fill = how_of(b) == SINT && (in[e - 1] & 0x80) ? 0xff : 0;
        for (MPI_Count i = e; i < n; i++)
            if (in[i] != fill)
                return -1;
        reverse(out, in, e);
        return 0;
    }
    case LDBL:
    case LDBL_COMPLEX:
        for (int part = 0; part < (how_of(b) == LDBL ? 1 : 2); part++) {
            long double x;
            memcpy(&x, in + part * sizeof x, sizeof x);
            __float128 q = (__float128)x;          /* exact: more bits of both kinds */
            unsigned char bytes[16];
            memcpy(bytes, &q, 16);
            reverse(out + part * 16, bytes, 16);
        }
        return 0;
    }
    return 0;
}

/* External32 to native; 0, or -1 when the value does not fit (a quadruple-precision long double
 * beyond the native range becomes infinite, as a conversion of reals does, and is not one). */
static int from_ext(const mica_type_t *b, const unsigned char *in, unsigned char *out)
{
    MPI_Count n = b->size, e = ext_size(b);
    switch (how_of(b)) {
    case RAW:
        memcpy(out, in, n);
        return 0;
    case SWAP:
        reverse(out, in, n);
        return 0;
    case SWAP_HALVES:
        reverse(out, in, n / 2);
        reverse(out + n / 2, in + n / 2, n / 2);
        return 0;
    case SINT:
    case UINT: {
        reverse(out, in, e);
        unsigned char fill = how_of(b) == SINT && (in[0] & 0x80) ? 0xff : 0;
        memset(out + e, fill, n - e);
        return 0;
    }
    case LDBL:
    case LDBL_COMPLEX:
        for (int part = 0; part < (how_of(b) == LDBL ? 1 : 2); part++) {
            unsigned char bytes[16];
            __float128 q;
            reverse(bytes, in + part * 16, 16);
            memcpy(&q, bytes, 16);
            long double x = (long double)q;
            memset(out + part * sizeof x, 0, sizeof x);    /* the 6 bytes of padding */
            memcpy(out + part * sizeof x, &x, 10);
        }
        return 0;
    }
    return 0;
}

static int check_datarep(const char *datarep)
{
    if (!datarep)
        return mica_error(MPI_ERR_ARG, "datarep is NULL");
    if (strcmp(datarep, "external32"))
        return mica_error(MPI_ERR_ARG, "datarep=\"%.40s\" is not \"external32\", the only data "
                          "representation MPI_Pack_external knows", datarep);
    return MPI_SUCCESS;
}

MPI_Count mica_type_external32_extent(const mica_type_t *type)
{
    MPI_Count total = 0, part;
    for (int i = 0; i < type->nsig; i++)
        if (__builtin_mul_overflow(type->sig[i].n, ext_size(type->sig[i].basic), &part) ||
            __builtin_add_overflow(total, part, &total))
            return -1;
    return total;
}

const mica_type_t *mica_type_external32_resized(const mica_type_t *type)
{
    for (int i = 0; i < type->nsig; i++)
        if (ext_size(type->sig[i].basic) != type->sig[i].basic->size)
            return type->sig[i].basic;
    return NULL;
}

static int external_size(const char *datarep, MPI_Count incount, const mica_type_t *type,
                         MPI_Count *size)
{
    int rc = check_datarep(datarep);
    if (rc)
        return rc;
    if (incount < 0)
        return mica_error(MPI_ERR_COUNT, "incount=%lld is negative", (long long)incount);
    MPI_Count one = mica_type_external32_extent(type);
    if (one < 0 || __builtin_mul_overflow(incount, one, size))
        return mica_error(MPI_ERR_VALUE_TOO_LARGE, "incount=%lld elements need more bytes than "
                          "MPI_Count holds", (long long)incount);
    return MPI_SUCCESS;
}

/* Convert `nelem` whole elements of `type` between the native packed form and external32,
 * walking the signature; the basic element that did not fit is reported. */
static int convert(const mica_type_t *type, MPI_Count nelem, const unsigned char *in,
                   unsigned char *out, int pack)
{
    for (MPI_Count j = 0; j < nelem; j++)
        for (int i = 0; i < type->nsig; i++) {
            const mica_type_t *b = type->sig[i].basic;
            MPI_Count n = b->size, e = ext_size(b);
            for (MPI_Count k = 0; k < type->sig[i].n; k++) {
                if ((pack ? to_ext(b, in, out) : from_ext(b, in, out)) < 0)
                    return mica_error(MPI_ERR_CONVERSION, "a value of %s does not fit the %lld "
                                      "bytes external32 gives it", b->name, (long long)e);
                in += pack ? n : e;
                out += pack ? e : n;
            }
        }
    return MPI_SUCCESS;
}

/* Elements per chunk, and a buffer for the native form of that many. */
static unsigned char *chunk_buffer(const mica_type_t *type, MPI_Count count, MPI_Count *per)
{
    MPI_Count n = type->size ? CHUNK / type->size : count;
    if (n < 1)
        n = 1;
    if (n > count)
        n = count;
    *per = n;
    return malloc(n * type->size > 0 ? (size_t)(n * type->size) : 1);
}

/* What packing and unpacking both check: the external32 bytes of `count` elements (*need), the
 * datatype, and that they fit in the external buffer (`side`: "out" when packing into it, "in"
 * when unpacking from it) of `size` bytes from *position. */
static int check_span(const char datarep[], MPI_Count count, mica_type_t *datatype,
                      const void *buf, MPI_Count size, const MPI_Count *position,
                      const char *side, MPI_Count *need)
{
    int rc = external_size(datarep, count, datatype, need);
    if (rc)
        return rc;
    if (!mica_type_ready(datatype))
        return mica_error(MPI_ERR_TYPE, "datatype is not committed");
    if (*position < 0 || *position > size)
        return mica_error(MPI_ERR_ARG, "*position=%lld is not within %ssize=%lld",
                          (long long)*position, side, (long long)size);
    if (*need > size - *position)
        return mica_error(MPI_ERR_TRUNCATE, "%scount=%lld elements need %lld bytes of external32, "
                          "only %lld are left in %sbuf", *side == 'i' ? "out" : "in",
                          (long long)count, (long long)*need, (long long)(size - *position), side);
    if (*need && !buf)
        return mica_error(MPI_ERR_BUFFER, "%sbuf is NULL", side);
    return MPI_SUCCESS;
}

int mica_pack_external_c(const char datarep[], const void *inbuf, MPI_Count incount,
                         mica_type_t *datatype, void *outbuf, MPI_Count outsize,
                         MPI_Count *position)
{
    MPI_Count need, per;
    int rc = check_span(datarep, incount, datatype, outbuf, outsize, position, "out", &need);
    if (rc || !need)
        return rc;
    unsigned char *native = chunk_buffer(datatype, incount, &per);
    if (!native)
        return mica_error(MPI_ERR_NO_MEM, "no memory to convert to external32");
    unsigned char *out = (unsigned char *)outbuf + *position;
    MPI_Count one = need / incount;
    for (MPI_Count j = 0; j < incount && !rc; j += per) {
        MPI_Count n = incount - j < per ? incount - j : per;
        mica_type_pack(inbuf, incount, datatype, j * datatype->size, native, n * datatype->size);
        rc = convert(datatype, n, native, out + j * one, 1);
    }
    free(native);
    if (rc == MPI_SUCCESS)
        *position += need;
    return rc;
}

int mica_pack_external(const char datarep[], const void *inbuf, int incount,
                       mica_type_t *datatype, void *outbuf, MPI_Aint outsize, MPI_Aint *position)
{
    MPI_Count pos = *position;
    int rc = mica_pack_external_c(datarep, inbuf, incount, datatype, outbuf, outsize, &pos);
    if (rc == MPI_SUCCESS)
        *position = (MPI_Aint)pos;
    return rc;
}

int mica_unpack_external_c(const char datarep[], const void *inbuf, MPI_Count insize,
                           MPI_Count *position, void *outbuf, MPI_Count outcount,
                           mica_type_t *datatype)
{
    MPI_Count need, per;
    int rc = check_span(datarep, outcount, datatype, inbuf, insize, position, "in", &need);
    if (rc || !need)
        return rc;
    unsigned char *native = chunk_buffer(datatype, outcount, &per);
    if (!native)
        return mica_error(MPI_ERR_NO_MEM, "no memory to convert from external32");
    const unsigned char *in = (const unsigned char *)inbuf + *position;
    MPI_Count one = need / outcount;
    for (MPI_Count j = 0; j < outcount && !rc; j += per) {
        MPI_Count n = outcount - j < per ? outcount - j : per;
        rc = convert(datatype, n, in + j * one, native, 0);
        if (!rc)
            mica_type_unpack(outbuf, outcount, datatype, j * datatype->size, native,
                             n * datatype->size);
    }
    free(native);
    if (rc == MPI_SUCCESS)
        *position += need;
    return rc;
}

int mica_unpack_external(const char datarep[], const void *inbuf, MPI_Aint insize,
                         MPI_Aint *position, void *outbuf, int outcount, mica_type_t *datatype)
{
    MPI_Count pos = *position;
    int rc = mica_unpack_external_c(datarep, inbuf, insize, &pos, outbuf, outcount, datatype);
    if (rc == MPI_SUCCESS)
        *position = (MPI_Aint)pos;
    return rc;
}

int mica_pack_external_size_c(const char datarep[], MPI_Count incount, mica_type_t *datatype,
                              MPI_Count *size)
{
    return external_size(datarep, incount, datatype, size);
}

int mica_pack_external_size(const char datarep[], int incount, mica_type_t *datatype,
                            MPI_Aint *size)
{
    MPI_Count n;
    int rc = external_size(datarep, incount, datatype, &n);
    if (rc == MPI_SUCCESS)
        *size = (MPI_Aint)n;
    return rc;
}
