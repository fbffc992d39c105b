/* The predefined datatypes: one static object each, committed, named, its own basic type.
 * Sizes and alignments come from the C types themselves (the Fortran ones as gfortran lays them
 * out on x86-64), so they can never disagree with the compiler. */
#include <stddef.h>

#include "core/datatype.h"

#define TAG_ (MICA_TAG | MICA_TYPE)

#define BASIC(h, ct, cat, ctype_)                                                           \
    static mica_block_t blocks_##h[1] = {{0, sizeof(ctype_)}};                              \
    static mica_sig_t sig_##h[1] = {{&mica_type_##h, 1}};                                   \
    mica_type_t mica_type_##h = {                                                           \
        .obj = {.tag = TAG_, .handle = (uintptr_t)h},                                       \
        .size = sizeof(ctype_), .lb = 0, .extent = sizeof(ctype_),                          \
        .true_lb = 0, .true_extent = sizeof(ctype_), .contiguous = 1, .committed = 1,       \
        .nblocks = 1, .blocks = blocks_##h, .basic = &mica_type_##h, .nbasic = 1,           \
        .combiner = MPI_COMBINER_NAMED, .name = #h, .align = _Alignof(ctype_),              \
        .nsig = 1, .sig = sig_##h, .nelem = 1,                                              \
        .ctype = MICA_CT_##ct, .category = MICA_CAT_##cat};
MICA_PREDEFINED_TYPES(BASIC)

/* A pair is the struct { value v; index i; }: its data is two blocks, or one when the index
 * follows the value directly; its extent includes the struct's padding. It is its own basic type
 * for reductions, and two basic elements (value, index) for MPI_Get_elements. */
#define PAIR(h, ct, vtype, itype, vh, ih)                                                   \
    static mica_sig_t sig_##h[2] = {{&mica_type_##vh, 1}, {&mica_type_##ih, 1}};            \
    typedef struct { vtype v; itype i; } pair_##h;                                          \
    enum { joined_##h = offsetof(pair_##h, i) == sizeof(vtype) };                           \
    static mica_block_t blocks_##h[2] = {                                                   \
        {0, joined_##h ? sizeof(vtype) + sizeof(itype) : sizeof(vtype)},                    \
        {offsetof(pair_##h, i), sizeof(itype)}};                                            \
    mica_type_t mica_type_##h = {                                                           \
        .obj = {.tag = TAG_, .handle = (uintptr_t)h},                                       \
        .size = sizeof(vtype) + sizeof(itype), .lb = 0, .extent = sizeof(pair_##h),         \
        .true_lb = 0, .true_extent = offsetof(pair_##h, i) + sizeof(itype),                 \
        .contiguous = joined_##h && sizeof(vtype) + sizeof(itype) == sizeof(pair_##h),      \
        .committed = 1, .nblocks = joined_##h ? 1 : 2, .blocks = blocks_##h,                \
        .basic = &mica_type_##h, .nbasic = 1, .combiner = MPI_COMBINER_NAMED, .name = #h,   \
        .nsig = 2, .sig = sig_##h, .nelem = 2,                                              \
        .align = _Alignof(pair_##h), .ctype = MICA_CT_##ct, .category = MICA_CAT_PAIR};
MICA_PAIR_TYPES(PAIR)
