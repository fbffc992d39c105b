/* MPI objects and their handles.
 *
 * Handles follow the MPI 5.0 standard ABI: a predefined handle is a small constant (MPI_COMM_WORLD
 * is 0x101) that indexes mica_predefined[]; any other handle is the object's address. User objects
 * live in one arena (object.c), so a handle is validated in O(1) without ever touching memory that
 * is not ours: a range check, an alignment check and the kind tag in the object's header. */
#ifndef MICA_OBJECTS_H
#define MICA_OBJECTS_H

#include <stdint.h>
#include <stddef.h>
#include "mpi.h"

#define MICA_LIKELY(x) __builtin_expect(!!(x), 1)
#define MICA_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* Kinds of objects; the header's tag is MICA_TAG | kind, so stale or foreign memory never passes. */
enum mica_kind {
    MICA_COMM = 1, MICA_TYPE, MICA_ERRHANDLER, MICA_FILE, MICA_GROUP, MICA_INFO, MICA_MESSAGE,
    MICA_OP, MICA_REQUEST, MICA_SESSION, MICA_WIN, MICA_KINDS
};
#define MICA_TAG 0x4d494300u          /* "MIC\0" */
#define MICA_PREDEFINED_MAX 0x300     /* every predefined handle of the ABI is below this */
#define MICA_SLOT_ALIGN 64            /* every arena object starts on this boundary */

typedef struct mica_obj {
    uint32_t tag;                     /* MICA_TAG | kind while alive; 0 once freed */
    int32_t fint;                     /* Fortran integer handle, 0 until first asked for */
    uintptr_t handle;                 /* the C handle: the ABI constant or the address */
    int32_t refs;                     /* for objects the standard lets outlive their free */
    uint32_t size_class;              /* arena slot size: MICA_SLOT_ALIGN << size_class */
} mica_obj_t;

extern mica_obj_t *mica_predefined[MICA_PREDEFINED_MAX];
extern const void *const mica_null_handle[MICA_KINDS];
extern struct mica_arena { uintptr_t base, top; } mica_arena;

/* Other threads carve objects meanwhile: the bounds' loads pair with object.c's releases (on x86
 * they are plain loads all the same). The tag needs none: a thread holding a handle has seen
 * its object made. */
static inline void *mica_lookup(const void *handle, unsigned kind)
{
    uintptr_t h = (uintptr_t)handle;
    mica_obj_t *o;
    if (h < MICA_PREDEFINED_MAX) {
        o = mica_predefined[h];
    } else {
        uintptr_t base = __atomic_load_n(&mica_arena.base, __ATOMIC_ACQUIRE);
        if (h - base < __atomic_load_n(&mica_arena.top, __ATOMIC_ACQUIRE) - base &&
            !(h & (MICA_SLOT_ALIGN - 1)))
            o = (mica_obj_t *)h;
        else
            return NULL;
    }
    return o && o->tag == (MICA_TAG | kind) ? o : NULL;
}

/* A new zeroed object of `size` bytes whose header says `kind`; NULL when out of memory. */
void *mica_obj_new(unsigned kind, size_t size);
void mica_obj_free(void *obj);
/* Fortran integer handles (MPI_X_c2f / MPI_X_toint and back): predefined handles keep their
 * ABI value; other objects get an index into a per-kind table on first use. */
int mica_obj_to_fint(mica_obj_t *o);
mica_obj_t *mica_obj_from_fint(int fint, unsigned kind);

/* The Fortran binding library (libmpi_fort, a library of its own above the C bindings) converts
 * its INTEGER handles with these two, not with MPI_X_f2c/c2f, so tools never see conversions as
 * user calls: with interlang.h's, the only internal entry points libmpi.so exports (convert.c).
 * An unknown Fortran handle converts to MICA_INVALID_HANDLE, which no object has, so the call
 * fails with the class of the handle's kind rather than treating it as the null handle. */
#define MICA_INVALID_HANDLE ((const void *)(uintptr_t)(MICA_PREDEFINED_MAX - 1))
__attribute__((visibility("default"))) int32_t mica_fortran_c2f(unsigned kind, const void *handle);
__attribute__((visibility("default"))) const void *mica_fortran_f2c(unsigned kind, int32_t fint);

/* Error handlers, and the objects that carry one (communicators, windows, files, sessions). */
typedef struct mica_errhandler {
    mica_obj_t obj;
    unsigned kind;                    /* MICA_COMM, MICA_WIN, ...; 0: predefined, fits any */
    void (*fn)(void *handle, int *code, ...);
    int fortran;                      /* fn is a Fortran procedure (interlang.h) */
} mica_errhandler_t;

typedef struct mica_errobj {
    mica_obj_t obj;
    mica_errhandler_t *errhandler;
} mica_errobj_t;

/* Each kind's object is defined by its module (comm.h, datatype.h, ...); kinds without one yet
 * have a bare definition here so their handles can still be named and checked. */
typedef struct mica_comm mica_comm_t;
typedef struct mica_type mica_type_t;
typedef struct mica_group mica_group_t;
typedef struct mica_op mica_op_t;
typedef struct mica_request mica_request_t;
typedef struct mica_info mica_info_t;
typedef struct mica_message {        /* a matched message */
    mica_obj_t obj;
    void *msg;
    mica_comm_t *comm;                /* matched on (retained): MPI_Mrecv's errors go there */
} mica_message_t;
typedef struct mica_file mica_file_t;          /* io/io.h */
typedef struct mica_session { mica_errobj_t eo; int thread_level; } mica_session_t;
typedef struct mica_win {
    mica_errobj_t eo;
    struct mica_attrs *attrs;         /* cached attributes (attr.c), or NULL */
} mica_win_t;

/* Each kind's lookup: the object behind a handle, or NULL when it is not a valid one. */
static inline mica_comm_t *mica_comm_lookup(MPI_Comm h) { return mica_lookup(h, MICA_COMM); }
static inline mica_type_t *mica_type_lookup(MPI_Datatype h) { return mica_lookup(h, MICA_TYPE); }
static inline mica_errhandler_t *mica_errhandler_lookup(MPI_Errhandler h)
{
    return mica_lookup(h, MICA_ERRHANDLER);
}
static inline mica_file_t *mica_file_lookup(MPI_File h) { return mica_lookup(h, MICA_FILE); }
static inline mica_group_t *mica_group_lookup(MPI_Group h) { return mica_lookup(h, MICA_GROUP); }
static inline mica_info_t *mica_info_lookup(MPI_Info h) { return mica_lookup(h, MICA_INFO); }
static inline mica_message_t *mica_message_lookup(MPI_Message h)
{
    return mica_lookup(h, MICA_MESSAGE);
}
static inline mica_op_t *mica_op_lookup(MPI_Op h) { return mica_lookup(h, MICA_OP); }
static inline mica_request_t *mica_request_lookup(MPI_Request h)
{
    return mica_lookup(h, MICA_REQUEST);
}
static inline mica_session_t *mica_session_lookup(MPI_Session h)
{
    return mica_lookup(h, MICA_SESSION);
}
static inline mica_win_t *mica_win_lookup(MPI_Win h) { return mica_lookup(h, MICA_WIN); }

#define mica_errobj(o) (&(o)->eo)

extern mica_errhandler_t mica_errors_are_fatal, mica_errors_abort, mica_errors_return;

#endif
