/* Handle conversions between C and Fortran (MPI_X_c2f, MPI_X_f2c) and their standard-ABI
 * twins (MPI_X_toint, MPI_X_fromint). A predefined handle's Fortran value is its ABI value;
 * other objects get an index on first conversion (object.c). Invalid handles convert to null. */
#include <string.h>

#include "core/errors.h"
#include "core_api.h"

/* A handle's Fortran value and back; the standard ABI's int form is the same value. */
static MPI_Fint handle_to_fint(const void *h, unsigned kind)
{
    if ((uintptr_t)h < MICA_PREDEFINED_MAX)
        return (MPI_Fint)(uintptr_t)h;
    mica_obj_t *o = mica_lookup(h, kind);
    return o ? mica_obj_to_fint(o) : (MPI_Fint)(uintptr_t)mica_null_handle[kind];
}

static uintptr_t handle_from_fint(MPI_Fint f, unsigned kind)
{
    if (f >= 0 && f < MICA_PREDEFINED_MAX)
        return (uintptr_t)f;
    mica_obj_t *o = mica_obj_from_fint(f, kind);
    return o ? o->handle : (uintptr_t)mica_null_handle[kind];
}

MPI_Fint mica_comm_c2f(MPI_Comm h) { return handle_to_fint(h, MICA_COMM); }
MPI_Comm mica_comm_f2c(MPI_Fint f) { return (MPI_Comm)handle_from_fint(f, MICA_COMM); }
int mica_comm_toint(MPI_Comm h) { return handle_to_fint(h, MICA_COMM); }
MPI_Comm mica_comm_fromint(int i) { return (MPI_Comm)handle_from_fint(i, MICA_COMM); }

MPI_Fint mica_type_c2f(MPI_Datatype h) { return handle_to_fint(h, MICA_TYPE); }
MPI_Datatype mica_type_f2c(MPI_Fint f) { return (MPI_Datatype)handle_from_fint(f, MICA_TYPE); }
int mica_type_toint(MPI_Datatype h) { return handle_to_fint(h, MICA_TYPE); }
MPI_Datatype mica_type_fromint(int i) { return (MPI_Datatype)handle_from_fint(i, MICA_TYPE); }

MPI_Fint mica_errhandler_c2f(MPI_Errhandler h) { return handle_to_fint(h, MICA_ERRHANDLER); }
MPI_Errhandler mica_errhandler_f2c(MPI_Fint f)
{
    return (MPI_Errhandler)handle_from_fint(f, MICA_ERRHANDLER);
}
int mica_errhandler_toint(MPI_Errhandler h) { return handle_to_fint(h, MICA_ERRHANDLER); }
MPI_Errhandler mica_errhandler_fromint(int i)
{
    return (MPI_Errhandler)handle_from_fint(i, MICA_ERRHANDLER);
}

MPI_Fint mica_file_c2f(MPI_File h) { return handle_to_fint(h, MICA_FILE); }
MPI_File mica_file_f2c(MPI_Fint f) { return (MPI_File)handle_from_fint(f, MICA_FILE); }
int mica_file_toint(MPI_File h) { return handle_to_fint(h, MICA_FILE); }
MPI_File mica_file_fromint(int i) { return (MPI_File)handle_from_fint(i, MICA_FILE); }

MPI_Fint mica_group_c2f(MPI_Group h) { return handle_to_fint(h, MICA_GROUP); }
MPI_Group mica_group_f2c(MPI_Fint f) { return (MPI_Group)handle_from_fint(f, MICA_GROUP); }
int mica_group_toint(MPI_Group h) { return handle_to_fint(h, MICA_GROUP); }
MPI_Group mica_group_fromint(int i) { return (MPI_Group)handle_from_fint(i, MICA_GROUP); }

MPI_Fint mica_info_c2f(MPI_Info h) { return handle_to_fint(h, MICA_INFO); }
MPI_Info mica_info_f2c(MPI_Fint f) { return (MPI_Info)handle_from_fint(f, MICA_INFO); }
int mica_info_toint(MPI_Info h) { return handle_to_fint(h, MICA_INFO); }
MPI_Info mica_info_fromint(int i) { return (MPI_Info)handle_from_fint(i, MICA_INFO); }

MPI_Fint mica_message_c2f(MPI_Message h) { return handle_to_fint(h, MICA_MESSAGE); }
MPI_Message mica_message_f2c(MPI_Fint f) { return (MPI_Message)handle_from_fint(f, MICA_MESSAGE); }
int mica_message_toint(MPI_Message h) { return handle_to_fint(h, MICA_MESSAGE); }
MPI_Message mica_message_fromint(int i) { return (MPI_Message)handle_from_fint(i, MICA_MESSAGE); }

MPI_Fint mica_op_c2f(MPI_Op h) { return handle_to_fint(h, MICA_OP); }
MPI_Op mica_op_f2c(MPI_Fint f) { return (MPI_Op)handle_from_fint(f, MICA_OP); }
int mica_op_toint(MPI_Op h) { return handle_to_fint(h, MICA_OP); }
MPI_Op mica_op_fromint(int i) { return (MPI_Op)handle_from_fint(i, MICA_OP); }

MPI_Fint mica_request_c2f(MPI_Request h) { return handle_to_fint(h, MICA_REQUEST); }
MPI_Request mica_request_f2c(MPI_Fint f) { return (MPI_Request)handle_from_fint(f, MICA_REQUEST); }
int mica_request_toint(MPI_Request h) { return handle_to_fint(h, MICA_REQUEST); }
MPI_Request mica_request_fromint(int i) { return (MPI_Request)handle_from_fint(i, MICA_REQUEST); }

MPI_Fint mica_session_c2f(MPI_Session h) { return handle_to_fint(h, MICA_SESSION); }
MPI_Session mica_session_f2c(MPI_Fint f) { return (MPI_Session)handle_from_fint(f, MICA_SESSION); }
int mica_session_toint(MPI_Session h) { return handle_to_fint(h, MICA_SESSION); }
MPI_Session mica_session_fromint(int i) { return (MPI_Session)handle_from_fint(i, MICA_SESSION); }

MPI_Fint mica_win_c2f(MPI_Win h) { return handle_to_fint(h, MICA_WIN); }
MPI_Win mica_win_f2c(MPI_Fint f) { return (MPI_Win)handle_from_fint(f, MICA_WIN); }
int mica_win_toint(MPI_Win h) { return handle_to_fint(h, MICA_WIN); }
MPI_Win mica_win_fromint(int i) { return (MPI_Win)handle_from_fint(i, MICA_WIN); }

/* For the Fortran binding library (objects.h). */
int32_t mica_fortran_c2f(unsigned kind, const void *handle)
{
    if ((uintptr_t)handle < MICA_PREDEFINED_MAX)
        return (int32_t)(uintptr_t)handle;
    mica_obj_t *o = kind < MICA_KINDS ? mica_lookup(handle, kind) : NULL;
    return o ? mica_obj_to_fint(o) : (int32_t)(uintptr_t)MICA_INVALID_HANDLE;
}

const void *mica_fortran_f2c(unsigned kind, int32_t fint)
{
    if (fint >= 0 && fint < MICA_PREDEFINED_MAX)
        return (const void *)(uintptr_t)fint;
    mica_obj_t *o = kind < MICA_KINDS ? mica_obj_from_fint(fint, kind) : NULL;
    return o ? (const void *)o->handle : MICA_INVALID_HANDLE;
}

/* Statuses: the C layout of the ABI and Fortran's INTEGER array hold the same eight ints. */
_Static_assert(sizeof(MPI_Status) == MPI_F_STATUS_SIZE * sizeof(MPI_Fint), "status layouts differ");
_Static_assert(sizeof(MPI_F08_status) == sizeof(MPI_Status), "status layouts differ");

/* Copy one status layout into another; `fn` names the MPI function for the error. */
static int copy_status(const void *from, void *to, const char *fn)
{
    if (!from || !to)
        return mica_raise(NULL, mica_error(MPI_ERR_ARG, "%s is NULL",
                          from ? "the output status" : "the input status"), fn);
    memcpy(to, from, sizeof(MPI_Status));
    return MPI_SUCCESS;
}

int mica_status_c2f(const MPI_Status *from, MPI_Fint *to)
{
    return copy_status(from, to, "MPI_Status_c2f");
}

int mica_status_f2c(const MPI_Fint *from, MPI_Status *to)
{
    return copy_status(from, to, "MPI_Status_f2c");
}

int mica_status_c2f08(const MPI_Status *from, MPI_F08_status *to)
{
    return copy_status(from, to, "MPI_Status_c2f08");
}

int mica_status_f082c(const MPI_F08_status *from, MPI_Status *to)
{
    return copy_status(from, to, "MPI_Status_f082c");
}

int mica_status_f082f(const MPI_F08_status *from, MPI_Fint *to)
{
    return copy_status(from, to, "MPI_Status_f082f");
}

int mica_status_f2f08(const MPI_Fint *from, MPI_F08_status *to)
{
    return copy_status(from, to, "MPI_Status_f2f08");
}
