/* Reduction operations. */
#ifndef MICA_OP_H
#define MICA_OP_H

#include "core/datatype.h"

struct mica_op {
    mica_obj_t obj;
    int commutative;
    MPI_User_function *user;          /* user-defined operations (MPI_Op_create) */
    MPI_User_function_c *user_c;      /* ... or MPI_Op_create_c */
    int fortran;                      /* `user` is a Fortran procedure (interlang.h) */
    int predefined;                   /* the predefined operation's index, for the kernel table */
};

/* The predefined operations: X(handle, index); index 0 (MICA_OP_USER) is a user function. */
#define MICA_PREDEFINED_OPS(X)                                                              \
    X(MPI_SUM, SUM) X(MPI_PROD, PROD) X(MPI_MAX, MAX) X(MPI_MIN, MIN)                       \
    X(MPI_LAND, LAND) X(MPI_LOR, LOR) X(MPI_LXOR, LXOR)                                     \
    X(MPI_BAND, BAND) X(MPI_BOR, BOR) X(MPI_BXOR, BXOR)                                     \
    X(MPI_MINLOC, MINLOC) X(MPI_MAXLOC, MAXLOC) X(MPI_REPLACE, REPLACE) X(MPI_NO_OP, NO_OP)

#define MICA_OP_INDEX_(h, i) MICA_OP_##i,
enum mica_op_index { MICA_OP_USER, MICA_PREDEFINED_OPS(MICA_OP_INDEX_) MICA_OP_COUNT };
#undef MICA_OP_INDEX_

#define MICA_DECLARE_OP_(h, i) extern mica_op_t mica_op_##h;
MICA_PREDEFINED_OPS(MICA_DECLARE_OP_)
#undef MICA_DECLARE_OP_

/* inout[i] = in[i] op inout[i] for `count` elements of `type`. Returns MPI_SUCCESS, or an error
 * code (MPI_ERR_OP) when `op` is not defined for `type`. */
int mica_op_apply(const mica_op_t *op, const void *in, void *inout, MPI_Count count,
                  mica_type_t *type);
/* May `op` be applied to `type`? MPI_SUCCESS or an error code naming both. MPI_REPLACE and
 * MPI_NO_OP pass for any type: they are for the accumulate functions, and reductions refuse them
 * with mica_op_rma_only. */
int mica_op_check(const mica_op_t *op, const mica_type_t *type);

/* MPI_REPLACE and MPI_NO_OP may be used only by one-sided accumulate operations. */
static inline int mica_op_rma_only(const mica_op_t *op)
{
    return op->predefined == MICA_OP_REPLACE || op->predefined == MICA_OP_NO_OP;
}

/* The name of the operation for messages ("MPI_SUM", "a user-defined operation"). */
const char *mica_op_name(const mica_op_t *op);

/* Keep a user-defined operation alive while a nonblocking operation uses it; no-ops for the
 * predefined ones. */
void mica_op_retain(mica_op_t *op);
void mica_op_release(mica_op_t *op);

#endif
