/* MPI Sessions (MPI 4.0 chapter 11.3): sessions, their process sets, and groups of them.
 *
 * A session holds the runtime up (state.h) from MPI_Session_init to MPI_Session_finalize, with
 * or without MPI_Init's world model, and any number of them at once or one after another.
 * The process sets are the two the standard requires: "mpi://WORLD" (every process of the job)
 * and "mpi://SELF" (this process). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/comm.h"
#include "core/errors.h"
#include "core/group.h"
#include "core/info.h"
#include "core/progress.h"
#include "core/state.h"
#include "core_api.h"
#include "mpi/orchestrators.h"

static const char *const psets[] = {"mpi://WORLD", "mpi://SELF"};
#define NPSETS ((int)(sizeof psets / sizeof psets[0]))

static const char *const levels[] = {
    [MPI_THREAD_SINGLE] = "MPI_THREAD_SINGLE", [MPI_THREAD_FUNNELED] = "MPI_THREAD_FUNNELED",
    [MPI_THREAD_SERIALIZED] = "MPI_THREAD_SERIALIZED", [MPI_THREAD_MULTIPLE] = "MPI_THREAD_MULTIPLE",
};

/* The thread level an info's "thread_level" asks for (MPI_THREAD_SINGLE when none). */
static int asked_level(mica_info_t *info, int *level)
{
    const char *v = mica_info_value(info, "thread_level");
    *level = MPI_THREAD_SINGLE;
    if (!v)
        return MPI_SUCCESS;
    for (int l = 0; l < (int)(sizeof levels / sizeof levels[0]); l++)
        if (levels[l] && !strcmp(v, levels[l])) {
            *level = l;
            return MPI_SUCCESS;
        }
    return mica_error(MPI_ERR_INFO_VALUE, "info's thread_level=\"%s\" is not a thread level", v);
}

int mica_session_init(mica_info_t *info, mica_errhandler_t *errhandler, MPI_Session *session)
{
    if (errhandler->kind && errhandler->kind != MICA_SESSION)
        return mica_error(MPI_ERR_ARG, "errhandler is not a session error handler");
    int level, rc = asked_level(info, &level);
    if (rc != MPI_SUCCESS)
        return rc;
    mica_session_t *s = mica_obj_new(MICA_SESSION, sizeof *s);
    if (!s)
        return mica_error(MPI_ERR_NO_MEM, "no memory for a new session");
    s->eo.errhandler = &mica_errors_are_fatal;
    mica_errobj_set_errhandler(&s->eo, MICA_SESSION, errhandler);
    s->thread_level = level;
    if (mica_runtime_start()) {
        mica_errhandler_release(s->eo.errhandler);
        mica_obj_free(s);
        return mica_error(MPI_ERR_OTHER, "the job could not start: see the messages above");
    }
    /* Every entry point is thread-safe once locking is on: a session that asks for
     * MPI_THREAD_MULTIPLE turns it on for the process (it never goes off again). */
    if (level == MPI_THREAD_MULTIPLE)
        mica_locking = 1;
    /* It provides what it asked for, or more: every level once locking is on for the process
     * (MPI_Init_thread or another session asked for MPI_THREAD_MULTIPLE), as MPICH reports. */
    if (mica_locking)
        s->thread_level = MPI_THREAD_MULTIPLE;
    /* The binding lets the lock go on return whenever locking is on: take it if it was off on
     * the way in (turned on by this call, or by another thread's meanwhile). */
    if (mica_locking && !mica_lock_held)
        mica_lock();
    *session = (MPI_Session)s->eo.obj.handle;
    return MPI_SUCCESS;
}

int mica_session_finalize(MPI_Session *session)
{
    mica_session_t *s = mica_session_lookup(*session);
    if (mica_runtime_stop())
        return mica_error(MPI_ERR_OTHER, "the launcher did not answer");
    mica_errhandler_release(s->eo.errhandler);
    mica_obj_free(s);
    *session = MPI_SESSION_NULL;
    return MPI_SUCCESS;
}

int mica_session_get_info(mica_session_t *session, MPI_Info *info_used)
{
    MPI_Info h;
    int rc = mica_info_new(&h);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = mica_info_put(mica_info_lookup(h), "thread_level", levels[session->thread_level]);
    if (rc != MPI_SUCCESS) {
        mica_info_free(&h);
        return rc;
    }
    *info_used = h;
    return MPI_SUCCESS;
}

int mica_session_get_num_psets(mica_session_t *session, mica_info_t *info, int *npset_names)
{
    (void)session, (void)info;        /* no info key narrows the process sets */
    *npset_names = NPSETS;
    return MPI_SUCCESS;
}

int mica_session_get_nth_pset(mica_session_t *session, mica_info_t *info, int n, int *pset_len,
                              char *pset_name)
{
    (void)session, (void)info;
    if (n < 0 || n >= NPSETS)
        return mica_error(MPI_ERR_ARG, "n=%d is not the number of a process set (there are %d)",
                          n, NPSETS);
    if (*pset_len < 0)
        return mica_error(MPI_ERR_ARG, "*pset_len=%d is negative", *pset_len);
    int len = (int)strlen(psets[n]);
    /* *pset_len 0 asks for the length only; else the name, cut to the buffer if need be. */
    if (*pset_len > 0) {
        if (!pset_name)
            return mica_error(MPI_ERR_ARG, "pset_name is NULL");
        int k = len < *pset_len - 1 ? len : *pset_len - 1;
        memcpy(pset_name, psets[n], (size_t)k);
        pset_name[k] = '\0';
    }
    *pset_len = len + 1;
    return MPI_SUCCESS;
}

/* Is `name` process set i? Compared ignoring case ("mpi://world" is "mpi://WORLD"), as MPICH
 * does and its test suite expects. */
static int is_pset(const char *name, int i)
{
    return !strcasecmp(name, psets[i]);
}

/* The size of process set `name`, or -1 if there is no such set. */
static int pset_size(const char *name)
{
    if (is_pset(name, 0))
        return mica_comm_world.size;
    if (is_pset(name, 1))
        return 1;
    return -1;
}

static int no_pset(const char *name)
{
    return mica_error(MPI_ERR_ARG, "pset_name=\"%s\" is not a process set (there are "
                      "\"mpi://WORLD\" and \"mpi://SELF\")", name);
}

int mica_session_get_pset_info(mica_session_t *session, const char *pset_name, MPI_Info *info)
{
    (void)session;
    if (!pset_name)
        return mica_error(MPI_ERR_ARG, "pset_name is NULL");
    int size = pset_size(pset_name);
    if (size < 0)
        return no_pset(pset_name);
    MPI_Info h;
    int rc = mica_info_new(&h);
    if (rc != MPI_SUCCESS)
        return rc;
    char value[16];
    snprintf(value, sizeof value, "%d", size);
    rc = mica_info_put(mica_info_lookup(h), "mpi_size", value);
    if (rc != MPI_SUCCESS) {
        mica_info_free(&h);
        return rc;
    }
    *info = h;
    return MPI_SUCCESS;
}

int mica_group_from_session_pset(mica_session_t *session, const char *pset_name,
                                 MPI_Group *newgroup)
{
    (void)session;
    if (!pset_name)
        return mica_error(MPI_ERR_ARG, "pset_name is NULL");
    int size = pset_size(pset_name);
    if (size < 0)
        return no_pset(pset_name);
    int *world = malloc((size_t)size * sizeof *world);
    if (!world)
        return mica_error(MPI_ERR_NO_MEM, "no memory for a group of %d processes", size);
    int self = is_pset(pset_name, 1);
    for (int i = 0; i < size; i++)
        world[i] = self ? mica_comm_world.rank : i;
    mica_group_t *g = mica_group_new(world, size);
    if (!g)
        return mica_error(MPI_ERR_NO_MEM, "no memory for a new group");
    *newgroup = (MPI_Group)g->obj.handle;
    return MPI_SUCCESS;
}
