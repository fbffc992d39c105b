/* The predefined objects, indexed by their standard-ABI handle values. */
#include "core/comm.h"
#include "core/state.h"

#define COMM(var, h, nm)                                                                    \
    mica_comm_t var = {.eo = {.obj = {.tag = MICA_TAG | MICA_COMM, .handle = (uintptr_t)h},   \
                              .errhandler = &mica_errors_are_fatal},                        \
                       .rank = 0, .size = 1, .remote_size = 1, .name = nm}
COMM(mica_comm_world, MPI_COMM_WORLD, "MPI_COMM_WORLD");
COMM(mica_comm_self, MPI_COMM_SELF, "MPI_COMM_SELF");

#define AT(h) [(uintptr_t)(h)]
mica_obj_t *mica_predefined[MICA_PREDEFINED_MAX] = {
    AT(MPI_COMM_WORLD) = &mica_comm_world.eo.obj,
    AT(MPI_COMM_SELF) = &mica_comm_self.eo.obj,
    AT(MPI_ERRORS_ARE_FATAL) = &mica_errors_are_fatal.obj,
    AT(MPI_ERRORS_ABORT) = &mica_errors_abort.obj,
    AT(MPI_ERRORS_RETURN) = &mica_errors_return.obj,
};

const void *const mica_null_handle[MICA_KINDS] = {
    [MICA_COMM] = MPI_COMM_NULL, [MICA_TYPE] = MPI_DATATYPE_NULL,
    [MICA_ERRHANDLER] = MPI_ERRHANDLER_NULL, [MICA_FILE] = MPI_FILE_NULL,
    [MICA_GROUP] = MPI_GROUP_NULL, [MICA_INFO] = MPI_INFO_NULL,
    [MICA_MESSAGE] = MPI_MESSAGE_NULL, [MICA_OP] = MPI_OP_NULL,
    [MICA_REQUEST] = MPI_REQUEST_NULL, [MICA_SESSION] = MPI_SESSION_NULL, [MICA_WIN] = MPI_WIN_NULL,
};
