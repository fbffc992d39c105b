/* Reduction operations. */
#ifndef MICA_OP_H
#define MICA_OP_H

#include "core/datatype.h"

struct mica_op {
    mica_obj_t obj;
    int commutative;
    MPI_User_function *user;          /* user-defined operations (MPI_Op_create) */
    MPI_User_function_c *user_c;      /* ... or MPI_Op_create_c */
    int predefined;                   /* the predefined operation's index, for the kernel table */
};

/* inout[i] = in[i] op inout[i] for `count` elements of `type`. Returns MPI_SUCCESS, or an error
 * code (MPI_ERR_OP) when `op` is not defined for `type`. */
int mica_op_apply(const mica_op_t *op, const void *in, void *inout, MPI_Count count,
                  mica_type_t *type);
/* May `op` be applied to `type`? MPI_SUCCESS or an error code naming both. */
int mica_op_check(const mica_op_t *op, const mica_type_t *type);

#endif
