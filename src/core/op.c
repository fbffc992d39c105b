/* Reduction operations: the predefined ones with a kernel for each type the standard allows,
 * user-defined ones, and MPI_Reduce_local.
 *
 * The kernels, one plain loop per (operation, C type) that the compiler vectorises, are
 * generated (gen/ops.py: mica_op_kernels). Which pairs exist follows the standard's groups of
 * basic types (C integer, Fortran integer, floating point, logical, complex, byte,
 * multi-language, pairs) and MPICH's extensions (below); anything else is MPI_ERR_OP. A derived type is reduced through its basic type. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/errors.h"
#include "core/interlang.h"
#include "core/op.h"
#include "core_api.h"

/* The groups of basic types each predefined operation is defined for: the standard's table,
 * and two extensions MPICH has, so that its users' programs keep working: MPI_CHAR and
 * MPI_CHARACTER are small integers (CHAR), and the logical operations take the integer groups
 * (FINT, MULTI) too. */
#define CAT(c) (1u << MICA_CAT_##c)
#define INTEGERS (CAT(CINT) | CAT(FINT) | CAT(MULTI) | CAT(CHAR))
static const unsigned allowed[MICA_OP_COUNT] = {
    [MICA_OP_SUM] = INTEGERS | CAT(FLOAT) | CAT(COMPLEX),
    [MICA_OP_PROD] = INTEGERS | CAT(FLOAT) | CAT(COMPLEX),
    [MICA_OP_MAX] = INTEGERS | CAT(FLOAT),
    [MICA_OP_MIN] = INTEGERS | CAT(FLOAT),
    [MICA_OP_LAND] = INTEGERS | CAT(LOGICAL),
    [MICA_OP_LOR] = INTEGERS | CAT(LOGICAL),
    [MICA_OP_LXOR] = INTEGERS | CAT(LOGICAL),
    [MICA_OP_BAND] = INTEGERS | CAT(BYTE),
    [MICA_OP_BOR] = INTEGERS | CAT(BYTE),
    [MICA_OP_BXOR] = INTEGERS | CAT(BYTE),
    [MICA_OP_MINLOC] = CAT(PAIR),
    [MICA_OP_MAXLOC] = CAT(PAIR),
};

/* ---- the predefined operation objects ---------------------------------------------------- */

/* MPI_REPLACE (b = a) and MPI_NO_OP (b = b) do not commute. */
#define OP(h, i)                                                                            \
    mica_op_t mica_op_##h = {.obj = {.tag = MICA_TAG | MICA_OP, .handle = (uintptr_t)h},    \
                             .commutative = MICA_OP_##i != MICA_OP_REPLACE &&               \
                                            MICA_OP_##i != MICA_OP_NO_OP,                   \
                             .predefined = MICA_OP_##i};
MICA_PREDEFINED_OPS(OP)

#define NAME(h, i) [MICA_OP_##i] = #h,
static const char *const names[MICA_OP_COUNT] = {
    [MICA_OP_USER] = "a user-defined operation", MICA_PREDEFINED_OPS(NAME)
};

const char *mica_op_name(const mica_op_t *op)
{
    return names[op->predefined];
}

/* ---- applying an operation --------------------------------------------------------------- */

/* A kernel on n elements of `basic` at in/io; data that is not aligned for its type (possible
 * inside packed structs) goes through aligned copies, as vector code may assume alignment. */
static void run(mica_op_kernel_fn *k, const mica_type_t *basic, const char *in, char *io,
                MPI_Count n)
{
    if (MICA_LIKELY(!(((uintptr_t)in | (uintptr_t)io) & (basic->align - 1)))) {
        k(in, io, n);
        return;
    }
    _Alignas(64) char a[4096], b[4096];
    MPI_Count per = sizeof a / basic->extent;
    while (n > 0) {
        MPI_Count m = n < per ? n : per;
        size_t bytes = m * basic->extent;
        memcpy(a, in, bytes);
        memcpy(b, io, bytes);
        k(a, b, m);
        memcpy(io, b, bytes);
        in += bytes, io += bytes, n -= m;
    }
}

/* Basic elements of a derived type whose basic type has holes (most pairs): gathered into
 * arrays of the basic type, reduced, and scattered back, a piece at a time. */
static void gathered(mica_op_kernel_fn *k, const void *in, void *inout, MPI_Count count,
                     const mica_type_t *type)
{
    const mica_type_t *basic = type->basic;
    _Alignas(64) char a[4096], b[4096], packed[4096];
    MPI_Count per = sizeof a / basic->extent, total = count * type->nbasic;
    for (MPI_Count e = 0; e < total; e += per) {
        MPI_Count m = total - e < per ? total - e : per;
        MPI_Count pos = e * basic->size, len = m * basic->size;
        mica_type_pack(in, count, type, pos, packed, len);
        mica_type_unpack(a, m, basic, 0, packed, len);
        mica_type_pack(inout, count, type, pos, packed, len);
        mica_type_unpack(b, m, basic, 0, packed, len);
        k(a, b, m);
        mica_type_pack(b, m, basic, 0, packed, len);
        mica_type_unpack(inout, count, type, pos, packed, len);
    }
}

/* A Fortran user function: SUBROUTINE F(INVEC, INOUTVEC, LEN, DATATYPE), an INTEGER datatype;
 * mpi_f08's large-count one (MPI_Op_create_c) has an INTEGER(KIND=MPI_COUNT_KIND) LEN. */
typedef void fortran_user_fn(void *invec, void *inoutvec, MPI_Fint *len, MPI_Fint *datatype);
typedef void fortran_user_fn_c(void *invec, void *inoutvec, MPI_Count *len, MPI_Fint *datatype);

static void user(const mica_op_t *op, const void *in, void *inout, MPI_Count count,
                 const mica_type_t *type)
{
    MPI_Datatype h = (MPI_Datatype)type->obj.handle;
    MPI_Fint fh = op->fortran ? mica_fortran_c2f(MICA_TYPE, h) : 0;
    if (op->user_c) {
        MPI_Count n = count;
        if (op->fortran)
            ((fortran_user_fn_c *)(void (*)(void))op->user_c)((void *)in, inout, &n, &fh);
        else
            op->user_c((void *)in, inout, &n, &h);
        return;
    }
    /* An int count: an enormous reduction is handed over in pieces. */
    while (count > 0) {
        int n = count > INT_MAX ? INT_MAX : (int)count;
        if (op->fortran)
            ((fortran_user_fn *)(void (*)(void))op->user)((void *)in, inout, &n, &fh);
        else
            op->user((void *)in, inout, &n, &h);
        in = (const char *)in + (MPI_Aint)n * type->extent;
        inout = (char *)inout + (MPI_Aint)n * type->extent;
        count -= n;
    }
}

int mica_op_check(const mica_op_t *op, const mica_type_t *type)
{
    if (op->predefined == MICA_OP_USER || mica_op_rma_only(op) || type->size == 0)
        return MPI_SUCCESS;
    char buf[MPI_MAX_OBJECT_NAME + 64];
    const mica_type_t *basic = type->basic;
    if (!basic)
        return mica_error(MPI_ERR_OP, "%s is not defined for %s: predefined operations need "
                          "a datatype made of one basic type", mica_op_name(op),
                          mica_type_describe(type, buf, sizeof buf));
    if (!(allowed[op->predefined] & 1u << basic->category) ||
        !mica_op_kernels[op->predefined][basic->ctype])
        return mica_error(MPI_ERR_OP, "%s is not defined for %s", mica_op_name(op),
                          mica_type_describe(type, buf, sizeof buf));
    return MPI_SUCCESS;
}

int mica_op_apply(const mica_op_t *op, const void *in, void *inout, MPI_Count count,
                  mica_type_t *type)
{
    if (count <= 0)
        return MPI_SUCCESS;
    switch (op->predefined) {
    case MICA_OP_USER:
        user(op, in, inout, count, type);
        return MPI_SUCCESS;
    case MICA_OP_NO_OP:
        return MPI_SUCCESS;
    case MICA_OP_REPLACE:
        mica_type_copy(in, count, type, inout, count, type);
        return MPI_SUCCESS;
    }
    int rc = mica_op_check(op, type);
    if (rc || type->size == 0)
        return rc;
    const mica_type_t *basic = type->basic;
    mica_op_kernel_fn *k = mica_op_kernels[op->predefined][basic->ctype];
    const char *a = in;
    char *b = inout;
    if (type == basic) {
        run(k, basic, a, b, count);
    } else if (type->contiguous && basic->contiguous) {
        run(k, basic, a + type->true_lb, b + type->true_lb, count * type->nbasic);
    } else if (basic->contiguous) {
        /* Each block is a run of whole basic elements. */
        for (MPI_Count e = 0; e < count; e++, a += type->extent, b += type->extent)
            for (int i = 0; i < type->nblocks; i++)
                run(k, basic, a + type->blocks[i].offset, b + type->blocks[i].offset,
                    type->blocks[i].length / basic->size);
    } else {
        gathered(k, in, inout, count, type);
    }
    return MPI_SUCCESS;
}

/* ---- user-defined operations ------------------------------------------------------------- */

void mica_op_retain(mica_op_t *op)
{
    if (op->predefined == MICA_OP_USER)
        __atomic_add_fetch(&op->obj.refs, 1, __ATOMIC_RELAXED);
}

void mica_op_release(mica_op_t *op)
{
    if (op->predefined == MICA_OP_USER && !__atomic_sub_fetch(&op->obj.refs, 1, __ATOMIC_ACQ_REL))
        mica_obj_free(op);
}

static int create(MPI_User_function *fn, MPI_User_function_c *fn_c, int commute, MPI_Op *op)
{
    if (!fn && !fn_c)
        return mica_error(MPI_ERR_ARG, "user_fn is NULL");
    mica_op_t *o = mica_obj_new(MICA_OP, sizeof *o);
    if (!o)
        return mica_error(MPI_ERR_NO_MEM, "no memory for a new operation");
    o->user = fn;
    o->user_c = fn_c;
    o->commutative = commute != 0;
    o->predefined = MICA_OP_USER;
    *op = (MPI_Op)o->obj.handle;
    return MPI_SUCCESS;
}

int mica_op_create(MPI_User_function *user_fn, int commute, MPI_Op *op)
{
    return create(user_fn, NULL, commute, op);
}

int mica_op_create_c(MPI_User_function_c *user_fn, int commute, MPI_Op *op)
{
    return create(NULL, user_fn, commute, op);
}

void mica_fortran_op(MPI_Op op)
{
    mica_op_t *o = mica_op_lookup(op);
    if (o && o->predefined == MICA_OP_USER && (o->user || o->user_c))
        o->fortran = 1;
}

int mica_op_free(MPI_Op *op)
{
    mica_op_t *o = mica_op_lookup(*op);
    if (o->predefined != MICA_OP_USER)
        return mica_error(MPI_ERR_OP, "op %s is predefined and cannot be freed", mica_op_name(o));
    mica_op_release(o);
    *op = MPI_OP_NULL;
    return MPI_SUCCESS;
}

int mica_op_commutative(mica_op_t *op, int *commute)
{
    *commute = op->commutative;
    return MPI_SUCCESS;
}

int mica_reduce_local_c(const void *inbuf, void *inoutbuf, MPI_Count count, mica_type_t *datatype,
                        mica_op_t *op)
{
    if (!mica_type_ready(datatype))
        return mica_error(MPI_ERR_TYPE, "datatype is not committed");
    if (mica_op_rma_only(op))
        return mica_error(MPI_ERR_OP, "op %s may be used only by one-sided accumulate operations",
                          mica_op_name(op));
    if (inbuf == MPI_IN_PLACE || inoutbuf == MPI_IN_PLACE)
        return mica_error(MPI_ERR_BUFFER, "%s is MPI_IN_PLACE, which MPI_Reduce_local does not take",
                          inbuf == MPI_IN_PLACE ? "inbuf" : "inoutbuf");
    return mica_op_apply(op, inbuf, inoutbuf, count, datatype);
}
