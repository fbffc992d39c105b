/* Handle conversions between C and Fortran (MPI_X_c2f, MPI_X_f2c) and their standard-ABI
 * twins (MPI_X_toint, MPI_X_fromint). A predefined handle's Fortran value is its ABI value;
 * other objects get an index on first conversion (object.c). Invalid handles convert to null. */
#include <string.h>

#include "core/errors.h"
#include "core_api.h"

#define CONVERT(name, kind, htype)                                                            \
    MPI_Fint mica_##name##_c2f(htype h)                                                       \
    {                                                                                         \
        if ((uintptr_t)h < MICA_PREDEFINED_MAX)                                               \
            return (MPI_Fint)(uintptr_t)h;                                                    \
        mica_obj_t *o = mica_lookup(h, kind);                                                 \
        return o ? mica_obj_to_fint(o) : (MPI_Fint)(uintptr_t)mica_null_handle[kind];         \
    }                                                                                         \
    htype mica_##name##_f2c(MPI_Fint f)                                                       \
    {                                                                                         \
        if (f >= 0 && f < MICA_PREDEFINED_MAX)                                                \
            return (htype)(uintptr_t)f;                                                       \
        mica_obj_t *o = mica_obj_from_fint(f, kind);                                          \
        return (htype)(o ? o->handle : (uintptr_t)mica_null_handle[kind]);                    \
    }                                                                                         \
    int mica_##name##_toint(htype h) { return mica_##name##_c2f(h); }                         \
    htype mica_##name##_fromint(int i) { return mica_##name##_f2c(i); }

CONVERT(comm, MICA_COMM, MPI_Comm)
CONVERT(type, MICA_TYPE, MPI_Datatype)
CONVERT(errhandler, MICA_ERRHANDLER, MPI_Errhandler)
CONVERT(file, MICA_FILE, MPI_File)
CONVERT(group, MICA_GROUP, MPI_Group)
CONVERT(info, MICA_INFO, MPI_Info)
CONVERT(message, MICA_MESSAGE, MPI_Message)
CONVERT(op, MICA_OP, MPI_Op)
CONVERT(request, MICA_REQUEST, MPI_Request)
CONVERT(session, MICA_SESSION, MPI_Session)
CONVERT(win, MICA_WIN, MPI_Win)

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

#define COPY_STATUS(name, from_t, to_t)                                                       \
    int mica_status_##name(const from_t *from, to_t *to)                                      \
    {                                                                                         \
        if (!from || !to)                                                                     \
            return mica_raise(NULL, mica_error(MPI_ERR_ARG, "%s is NULL",                     \
                              from ? "the output status" : "the input status"),               \
                              "MPI_Status_" #name);                                           \
        memcpy(to, from, sizeof(MPI_Status));                                                 \
        return MPI_SUCCESS;                                                                   \
    }
COPY_STATUS(c2f, MPI_Status, MPI_Fint)
COPY_STATUS(f2c, MPI_Fint, MPI_Status)
COPY_STATUS(c2f08, MPI_Status, MPI_F08_status)
COPY_STATUS(f082c, MPI_F08_status, MPI_Status)
COPY_STATUS(f082f, MPI_F08_status, MPI_Fint)
COPY_STATUS(f2f08, MPI_Fint, MPI_F08_status)
