/* The predefined objects, indexed by their standard-ABI handle values. */
#include "core/comm.h"
#include "core/group.h"
#include "core/info.h"
#include "core/op.h"
#include "core/state.h"

#define COMM(var, h, nm, ctx)                                                               \
    mica_comm_t var = {.eo = {.obj = {.tag = MICA_TAG | MICA_COMM, .handle = (uintptr_t)h},   \
                              .errhandler = &mica_errors_are_fatal},                        \
                       .rank = 0, .size = 1, .remote_size = 1, .context = ctx, .name = nm}
COMM(mica_comm_world, MPI_COMM_WORLD, "MPI_COMM_WORLD", MICA_CONTEXT_WORLD);
COMM(mica_comm_self, MPI_COMM_SELF, "MPI_COMM_SELF", MICA_CONTEXT_SELF);

/* MPI_MESSAGE_NO_PROC is a message to receive (from MPI_PROC_NULL), so it is an object. */
static mica_message_t message_no_proc = {.obj = {.tag = MICA_TAG | MICA_MESSAGE,
                                                  .handle = (uintptr_t)MPI_MESSAGE_NO_PROC}};

/* MPI_GROUP_EMPTY: a group of no one. */
static mica_group_t group_empty = {.obj = {.tag = MICA_TAG | MICA_GROUP,
                                           .handle = (uintptr_t)MPI_GROUP_EMPTY},
                                   .size = 0, .rank = MPI_UNDEFINED};

#define AT(h) [(uintptr_t)(h)]
mica_obj_t *mica_predefined[MICA_PREDEFINED_MAX] = {
    AT(MPI_COMM_WORLD) = &mica_comm_world.eo.obj,
    AT(MPI_COMM_SELF) = &mica_comm_self.eo.obj,
    AT(MPI_ERRORS_ARE_FATAL) = &mica_errors_are_fatal.obj,
    AT(MPI_ERRORS_ABORT) = &mica_errors_abort.obj,
    AT(MPI_ERRORS_RETURN) = &mica_errors_return.obj,
    AT(MPI_MESSAGE_NO_PROC) = &message_no_proc.obj,
    AT(MPI_GROUP_EMPTY) = &group_empty.obj,
    AT(MPI_INFO_ENV) = &mica_info_env.obj,
#define TYPE_(h, ...) AT(h) = &mica_type_##h.obj,
#define OP_(h, i) AT(h) = &mica_op_##h.obj,
    MICA_PREDEFINED_TYPES(TYPE_) MICA_PAIR_TYPES(TYPE_) MICA_PREDEFINED_OPS(OP_)
};
