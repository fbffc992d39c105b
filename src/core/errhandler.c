/* Error handlers: the predefined ones, raising errors through them, and setting them. (A
 * file's are io's: io/errhandler.c.) */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/comm.h"
#include "core/errors.h"
#include "core/progress.h"
#include "core/interlang.h"
#include "core/state.h"
#include "core_api.h"

#define PREDEFINED(var, h) mica_errhandler_t var = {.obj = {.tag = MICA_TAG | MICA_ERRHANDLER, .handle = (uintptr_t)h}}
PREDEFINED(mica_errors_are_fatal, MPI_ERRORS_ARE_FATAL);
PREDEFINED(mica_errors_abort, MPI_ERRORS_ABORT);
PREDEFINED(mica_errors_return, MPI_ERRORS_RETURN);

mica_errhandler_t *mica_initial_errhandler = &mica_errors_are_fatal;

static _Noreturn void fatal(int code, const char *fn)
{
    char text[MPI_MAX_ERROR_STRING], msg[MPI_MAX_ERROR_STRING + 200];
    mica_error_text(code, text, sizeof text);
    size_t n = strlen(fn);
    int named = !strncmp(text, fn, n) && text[n] == ':';   /* the message names fn already */
    char who[64];                     /* a failed MPI_Init may not know the rank yet */
    if (mica_runtime_up || mica_phase == MICA_AFTER)
        snprintf(who, sizeof who, "rank %d", mica_comm_world.rank);
    else
        snprintf(who, sizeof who, "rank unknown, pid %ld", (long)getpid());
    snprintf(msg, sizeof msg, "Mica: %s: fatal error in %s: %s\n", who, fn,
             named ? text + n + 2 : text);
    mica_abort_job(mica_error_class_of(code) > 0 ? mica_error_class_of(code) : 1, msg);
}

int mica_errhandler_invoke(mica_errobj_t *eo, int code, const char *fn)
{
    mica_errhandler_t *eh;
    if (eo)
        eh = eo->errhandler;
    else if (mica_phase == MICA_ACTIVE)
        eo = &mica_comm_self.eo, eh = eo->errhandler;
    else
        eh = mica_initial_errhandler;
    if (eh == &mica_errors_return)
        return code;
    if (eh == &mica_errors_are_fatal || eh == &mica_errors_abort || !eo)
        fatal(code, fn);
    void *handle = (void *)eo->obj.handle;
    int held = mica_callback_begin();
    if (eh->fortran) {
        /* SUBROUTINE H(COMM, ERROR_CODE): the object's INTEGER handle. */
        MPI_Fint f = mica_fortran_c2f(eh->kind, handle);
        ((void (*)(MPI_Fint *, int *))(void (*)(void))eh->fn)(&f, &code);
    } else {
        eh->fn(&handle, &code);
    }
    mica_callback_end(held);
    return code;
}

int mica_raise(mica_errobj_t *eo, int code, const char *fn)
{
    mica_error_set_function(code, fn);
    return mica_errhandler_invoke(eo, code, fn);
}

/* A handler stays alive while an object uses it or the user holds a handle to it. */
static mica_errhandler_t *retain(mica_errhandler_t *eh)
{
    if (eh->obj.handle >= MICA_PREDEFINED_MAX)
        __atomic_add_fetch(&eh->obj.refs, 1, __ATOMIC_RELAXED);
    return eh;
}

mica_errhandler_t *mica_errhandler_retain(mica_errhandler_t *eh)
{
    return retain(eh);
}

void mica_errhandler_release(mica_errhandler_t *eh)
{
    if (eh->obj.handle >= MICA_PREDEFINED_MAX && !__atomic_sub_fetch(&eh->obj.refs, 1, __ATOMIC_ACQ_REL))
        mica_obj_free(eh);
}

static int set(mica_errobj_t *eo, unsigned kind, mica_errhandler_t *eh)
{
    if (eh->kind && eh->kind != kind)
        return mica_error(MPI_ERR_ARG, "errhandler was created for another kind of object");
    mica_errhandler_t *old = eo->errhandler;
    eo->errhandler = retain(eh);
    mica_errhandler_release(old);
    return MPI_SUCCESS;
}

int mica_errobj_set_errhandler(mica_errobj_t *eo, unsigned kind, mica_errhandler_t *eh)
{
    return set(eo, kind, eh);
}

int mica_comm_set_errhandler(mica_comm_t *comm, mica_errhandler_t *errhandler)
{
    return set(&comm->eo, MICA_COMM, errhandler);
}

int mica_comm_get_errhandler(mica_comm_t *comm, MPI_Errhandler *errhandler)
{
    *errhandler = (MPI_Errhandler)retain(comm->eo.errhandler)->obj.handle;
    return MPI_SUCCESS;
}

int mica_comm_call_errhandler(mica_comm_t *comm, int errorcode)
{
    mica_errhandler_invoke(&comm->eo, errorcode, "MPI_Comm_call_errhandler");
    return MPI_SUCCESS;
}

int mica_errhandler_free(MPI_Errhandler *errhandler)
{
    mica_errhandler_release(mica_errhandler_lookup(*errhandler));
    *errhandler = MPI_ERRHANDLER_NULL;
    return MPI_SUCCESS;
}

void mica_fortran_errhandler(MPI_Errhandler errhandler)
{
    mica_errhandler_t *eh = mica_errhandler_lookup(errhandler);
    if (eh && eh->obj.handle >= MICA_PREDEFINED_MAX)
        eh->fortran = 1;
}

int mica_errhandler_new(unsigned kind, void (*fn)(void *, int *, ...), const char *arg,
                        MPI_Errhandler *errhandler)
{
    if (!fn)
        return mica_error(MPI_ERR_ARG, "%s is NULL", arg);
    mica_errhandler_t *eh = mica_obj_new(MICA_ERRHANDLER, sizeof *eh);
    if (!eh)
        return mica_error(MPI_ERR_NO_MEM, "no memory for a new error handler");
    eh->kind = kind;
    eh->fn = fn;
    *errhandler = (MPI_Errhandler)eh->obj.handle;
    return MPI_SUCCESS;
}

int mica_comm_create_errhandler(MPI_Comm_errhandler_function *comm_errhandler_fn,
                                MPI_Errhandler *errhandler)
{
    return mica_errhandler_new(MICA_COMM, (void (*)(void *, int *, ...))comm_errhandler_fn,
                               "comm_errhandler_fn", errhandler);
}

/* --- sessions ------------------------------------------------------------------------------- */

int mica_session_set_errhandler(mica_session_t *session, mica_errhandler_t *errhandler)
{
    return set(&session->eo, MICA_SESSION, errhandler);
}

int mica_session_get_errhandler(mica_session_t *session, MPI_Errhandler *errhandler)
{
    *errhandler = (MPI_Errhandler)retain(session->eo.errhandler)->obj.handle;
    return MPI_SUCCESS;
}

int mica_session_call_errhandler(mica_session_t *session, int errorcode)
{
    mica_errhandler_invoke(&session->eo, errorcode, "MPI_Session_call_errhandler");
    return MPI_SUCCESS;
}

int mica_session_create_errhandler(MPI_Session_errhandler_function *session_errhandler_fn,
                                   MPI_Errhandler *errhandler)
{
    return mica_errhandler_new(MICA_SESSION, (void (*)(void *, int *, ...))session_errhandler_fn,
                               "session_errhandler_fn", errhandler);
}
