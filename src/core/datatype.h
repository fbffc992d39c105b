/* Datatypes: a type is described by its size, bounds, and its data as a flat list of byte
 * blocks, which is all that packing, unpacking and reductions need. */
#ifndef MICA_DATATYPE_H
#define MICA_DATATYPE_H

#include <limits.h>
#include "core/objects.h"

typedef struct mica_block {
    MPI_Aint offset;                  /* from the start of the element (the buffer address) */
    MPI_Aint length;                  /* bytes */
} mica_block_t;

/* A run of `n` basic elements of one type, in type-map order: what MPI_Get_elements counts. */
typedef struct mica_sig {
    mica_type_t *basic;
    MPI_Count n;
} mica_sig_t;

/* The arguments of the constructor that made a derived type, for MPI_Type_get_contents: in the
 * int form (ints, aints), or the large-count form (counts) when made by an MPI_Type_*_c call. */
struct mica_type_contents {
    int large;
    MPI_Count ni, na, nc, nd;
    int *ints;
    MPI_Aint *aints;
    MPI_Count *counts;
    mica_type_t **types;              /* retained */
};

struct mica_type {
    mica_obj_t obj;
    MPI_Count size;                   /* bytes of data in one element */
    MPI_Aint lb, extent;              /* the element's bounds, as MPI_Type_get_extent */
    MPI_Aint true_lb, true_extent;
    int contiguous;                   /* one block, offset lb... == true_lb, length size == extent */
    int committed;
    int nblocks;                      /* the data of one element, in order */
    mica_block_t *blocks;
    mica_type_t *basic;               /* every element made of this one predefined type, or NULL */
    MPI_Count nbasic;                 /* how many of them per element */
    int combiner;                     /* MPI_COMBINER_* */
    char name[MPI_MAX_OBJECT_NAME];
    struct mica_attrs *attrs;         /* cached attributes (attr.c), or NULL */

    /* Below: for the datatype module itself. */
    MPI_Aint *packoff;                /* where each block starts in the packed form (NULL: few
                                         blocks, found by a scan); shares the blocks' allocation */
    int nsig;                         /* the basic elements of one element, as runs */
    mica_sig_t *sig;                  /* (a pair counts as its two parts, as in its type map) */
    MPI_Count nelem;                  /* basic elements in one element */
    MPI_Aint stride;                  /* > 0: the blocks are equally long and this far apart
                                         (a vector), so packing needs no block list */
    int align;                        /* the strictest alignment of the basic types inside */
    int explicit_lb, explicit_ub;     /* bounds set by MPI_Type_create_resized: they stick */
    unsigned char ctype;              /* predefined: enum mica_ctype, the C type of the data */
    unsigned char category;           /* predefined: enum mica_category, for reductions */
    struct mica_type_contents *contents;  /* derived: the constructor's arguments */
};

/* The C representation of a predefined type's data, which picks a reduction kernel. */
enum mica_ctype {
    MICA_CT_NONE, MICA_CT_I8, MICA_CT_U8, MICA_CT_I16, MICA_CT_U16, MICA_CT_I32, MICA_CT_U32,
    MICA_CT_I64, MICA_CT_U64, MICA_CT_I128,
    MICA_CT_F16, MICA_CT_F32, MICA_CT_F64, MICA_CT_FLD, MICA_CT_F128,
    MICA_CT_C16, MICA_CT_C32, MICA_CT_C64, MICA_CT_CLD, MICA_CT_C128,
    MICA_CT_FLOAT_INT, MICA_CT_DOUBLE_INT, MICA_CT_LONG_INT, MICA_CT_2INT, MICA_CT_SHORT_INT,
    MICA_CT_LONG_DOUBLE_INT, MICA_CT_2FLOAT, MICA_CT_2DOUBLE,
    MICA_CT_COUNT
};

/* The groups of basic types of the standard's reduction rules. */
enum mica_category {
    MICA_CAT_NONE,                    /* characters, MPI_PACKED: no predefined reduction */
    MICA_CAT_CINT, MICA_CAT_FINT, MICA_CAT_FLOAT, MICA_CAT_LOGICAL, MICA_CAT_COMPLEX,
    MICA_CAT_BYTE, MICA_CAT_MULTI,    /* MPI_AINT, MPI_OFFSET, MPI_COUNT */
    MICA_CAT_CHAR,                    /* MPI_CHAR, MPI_CHARACTER: in no group of the standard's;
                                       * reduced as small integers, as MPICH does (op.c) */
    MICA_CAT_PAIR                     /* the MINLOC/MAXLOC value-index pairs */
};

/* A char's kernels: the machine's char is signed or not. */
#if CHAR_MIN < 0
#define MICA_CT_CHAR MICA_CT_I8
#else
#define MICA_CT_CHAR MICA_CT_U8
#endif

/* Every predefined datatype of the ABI: X(handle, ctype, category, C type of one element).
 * The objects are mica_type_<handle> (type_predefined.c); predefined.c indexes them. The handle's
 * spelling here is its MPI_Type_get_name: where the ABI makes two names one handle
 * (MPI_LONG_LONG_INT and MPI_LONG_LONG, MPI_C_COMPLEX and MPI_C_FLOAT_COMPLEX), the name MPICH
 * gives that handle, which its test suite expects of both. */
#define MICA_PREDEFINED_TYPES(X)                                                            \
    X(MPI_AINT, I64, MULTI, MPI_Aint)                                                       \
    X(MPI_COUNT, I64, MULTI, MPI_Count)                                                     \
    X(MPI_OFFSET, I64, MULTI, MPI_Offset)                                                   \
    X(MPI_PACKED, NONE, NONE, char)                                                         \
    X(MPI_SHORT, I16, CINT, short)                                                          \
    X(MPI_INT, I32, CINT, int)                                                              \
    X(MPI_LONG, I64, CINT, long)                                                            \
    X(MPI_LONG_LONG_INT, I64, CINT, long long)                                              \
    X(MPI_UNSIGNED_SHORT, U16, CINT, unsigned short)                                        \
    X(MPI_UNSIGNED, U32, CINT, unsigned)                                                    \
    X(MPI_UNSIGNED_LONG, U64, CINT, unsigned long)                                          \
    X(MPI_UNSIGNED_LONG_LONG, U64, CINT, unsigned long long)                                \
    X(MPI_FLOAT, F32, FLOAT, float)                                                         \
    X(MPI_C_COMPLEX, C32, COMPLEX, float _Complex)                                          \
    X(MPI_CXX_FLOAT_COMPLEX, C32, COMPLEX, float _Complex)                                  \
    X(MPI_DOUBLE, F64, FLOAT, double)                                                       \
    X(MPI_C_DOUBLE_COMPLEX, C64, COMPLEX, double _Complex)                                  \
    X(MPI_CXX_DOUBLE_COMPLEX, C64, COMPLEX, double _Complex)                                \
    X(MPI_LOGICAL, I32, LOGICAL, int32_t)                                                   \
    X(MPI_INTEGER, I32, FINT, int32_t)                                                      \
    X(MPI_REAL, F32, FLOAT, float)                                                          \
    X(MPI_COMPLEX, C32, COMPLEX, float _Complex)                                            \
    X(MPI_DOUBLE_PRECISION, F64, FLOAT, double)                                             \
    X(MPI_DOUBLE_COMPLEX, C64, COMPLEX, double _Complex)                                    \
    X(MPI_CHARACTER, CHAR, CHAR, char)                                                      \
    X(MPI_LONG_DOUBLE, FLD, FLOAT, long double)                                             \
    X(MPI_C_LONG_DOUBLE_COMPLEX, CLD, COMPLEX, long double _Complex)                        \
    X(MPI_CXX_LONG_DOUBLE_COMPLEX, CLD, COMPLEX, long double _Complex)                      \
    X(MPI_C_BOOL, U8, LOGICAL, _Bool)                                                       \
    X(MPI_CXX_BOOL, U8, LOGICAL, _Bool)                                                     \
    X(MPI_WCHAR, NONE, NONE, wchar_t)                                                       \
    X(MPI_INT8_T, I8, CINT, int8_t)                                                         \
    X(MPI_UINT8_T, U8, CINT, uint8_t)                                                       \
    X(MPI_CHAR, CHAR, CHAR, char)                                                           \
    X(MPI_SIGNED_CHAR, I8, CINT, signed char)                                               \
    X(MPI_UNSIGNED_CHAR, U8, CINT, unsigned char)                                           \
    X(MPI_BYTE, U8, BYTE, unsigned char)                                                    \
    X(MPI_INT16_T, I16, CINT, int16_t)                                                      \
    X(MPI_UINT16_T, U16, CINT, uint16_t)                                                    \
    X(MPI_INT32_T, I32, CINT, int32_t)                                                      \
    X(MPI_UINT32_T, U32, CINT, uint32_t)                                                    \
    X(MPI_INT64_T, I64, CINT, int64_t)                                                      \
    X(MPI_UINT64_T, U64, CINT, uint64_t)                                                    \
    X(MPI_LOGICAL1, I8, LOGICAL, int8_t)                                                    \
    X(MPI_INTEGER1, I8, FINT, int8_t)                                                       \
    X(MPI_LOGICAL2, I16, LOGICAL, int16_t)                                                  \
    X(MPI_INTEGER2, I16, FINT, int16_t)                                                     \
    X(MPI_REAL2, F16, FLOAT, _Float16)                                                      \
    X(MPI_LOGICAL4, I32, LOGICAL, int32_t)                                                  \
    X(MPI_INTEGER4, I32, FINT, int32_t)                                                     \
    X(MPI_REAL4, F32, FLOAT, float)                                                         \
    X(MPI_COMPLEX4, C16, COMPLEX, _Float16 _Complex)                                        \
    X(MPI_LOGICAL8, I64, LOGICAL, int64_t)                                                  \
    X(MPI_INTEGER8, I64, FINT, int64_t)                                                     \
    X(MPI_REAL8, F64, FLOAT, double)                                                        \
    X(MPI_COMPLEX8, C32, COMPLEX, float _Complex)                                           \
    X(MPI_LOGICAL16, I128, LOGICAL, __int128)                                               \
    X(MPI_INTEGER16, I128, FINT, __int128)                                                  \
    X(MPI_REAL16, F128, FLOAT, __float128)                                                  \
    X(MPI_COMPLEX16, C64, COMPLEX, double _Complex)                                         \
    X(MPI_COMPLEX32, C128, COMPLEX, mica_complex128)

/* The value-index pairs of MPI_MINLOC and MPI_MAXLOC: X(handle, ctype, value, index, value's
 * handle, index's handle), laid out as the C struct { value v; index i; }. */
#define MICA_PAIR_TYPES(X)                                                                  \
    X(MPI_FLOAT_INT, FLOAT_INT, float, int, MPI_FLOAT, MPI_INT)                             \
    X(MPI_DOUBLE_INT, DOUBLE_INT, double, int, MPI_DOUBLE, MPI_INT)                         \
    X(MPI_LONG_INT, LONG_INT, long, int, MPI_LONG, MPI_INT)                                 \
    X(MPI_2INT, 2INT, int, int, MPI_INT, MPI_INT)                                           \
    X(MPI_SHORT_INT, SHORT_INT, short, int, MPI_SHORT, MPI_INT)                             \
    X(MPI_LONG_DOUBLE_INT, LONG_DOUBLE_INT, long double, int, MPI_LONG_DOUBLE, MPI_INT)     \
    X(MPI_2REAL, 2FLOAT, float, float, MPI_REAL, MPI_REAL)                                  \
    X(MPI_2DOUBLE_PRECISION, 2DOUBLE, double, double, MPI_DOUBLE_PRECISION,                 \
      MPI_DOUBLE_PRECISION)                                                                 \
    X(MPI_2INTEGER, 2INT, int32_t, int32_t, MPI_INTEGER, MPI_INTEGER)

/* Fortran COMPLEX*32: two IEEE quad reals (gfortran's REAL*16 on x86-64). */
typedef _Complex float __attribute__((mode(TC))) mica_complex128;

#define MICA_DECLARE_TYPE_(h, ...) extern mica_type_t mica_type_##h;
MICA_PREDEFINED_TYPES(MICA_DECLARE_TYPE_)
MICA_PAIR_TYPES(MICA_DECLARE_TYPE_)
#undef MICA_DECLARE_TYPE_

static inline int mica_type_is_predefined(const mica_type_t *type)
{
    return type->obj.handle < MICA_PREDEFINED_MAX;
}

/* Copy bytes [pos, pos + len) of the packed form of (buf, count, type) to `packed`, or from
 * `packed` into the buffer; the pipelined transfers of large messages move one piece at a time.
 * The window is clipped to the count * size bytes of the packed form. */
void mica_type_pack(const void *buf, MPI_Count count, const mica_type_t *type, MPI_Count pos,
                    void *packed, MPI_Count len);
void mica_type_unpack(void *buf, MPI_Count count, const mica_type_t *type, MPI_Count pos,
                      const void *packed, MPI_Count len);
/* Copy (src, count, stype) to (dst, count * stype size / dtype size, dtype): sendrecv to self,
 * MPI_IN_PLACE emulation in collectives. The type signatures must match (not checked here);
 * min(scount * ssize, dcount * dsize) bytes of data move. */
void mica_type_copy(const void *src, MPI_Count scount, const mica_type_t *stype,
                    void *dst, MPI_Count dcount, const mica_type_t *dtype);

/* Is `type` usable for communication (committed, or predefined)? */
static inline int mica_type_ready(const mica_type_t *type) { return type->committed; }

/* The type MPI_Type_create_f90_* returns for `basic` asked as (combiner, p, r): made once. */
int mica_type_f90(int combiner, int p, int r, mica_type_t *basic, MPI_Datatype *newtype);

/* Keep a derived type alive while an operation uses it (MPI_Type_free may come first);
 * no-ops for predefined types. */
void mica_type_retain(mica_type_t *type);
void mica_type_release(mica_type_t *type);

/* MPI_Get_elements: how many basic elements the first `bytes` bytes of the packed form of
 * (count, type) hold; MPI_UNDEFINED when `bytes` ends inside a basic element. */
MPI_Count mica_type_elements(const mica_type_t *type, MPI_Count bytes);
/* MPI_Status_set_elements: the bytes that the first `elements` basic elements of the packed
 * form of (count, type) take. */
MPI_Count mica_type_element_bytes(const mica_type_t *type, MPI_Count elements);

/* external32 (type_external.c): the bytes one element of `type` takes there (-1: more than
 * MPI_Count holds), and a basic type inside it whose external32 size differs from its native
 * one (MPI_LONG, MPI_UNSIGNED_LONG, MPI_WCHAR), or NULL when its layout is the native one. */
MPI_Count mica_type_external32_extent(const mica_type_t *type);
const mica_type_t *mica_type_external32_resized(const mica_type_t *type);

/* A name for messages: the type's name, or what it is made of ("a derived datatype of MPI_INT"). */
const char *mica_type_describe(const mica_type_t *type, char *buf, size_t len);

#endif
