/* RMA windows: creation, freeing, names, error handlers, the predefined attributes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/attr.h"
#include "core/errors.h"
#include "core/progress.h"
#include "coll/algorithms.h"
#include "coll/coll.h"
#include "coll/comm.h"
#include "rma/rma.h"
#include "transport/segment.h"
#include "core_api.h"

static void destroy(mica_rma_win_t *win)
{
    if (win->comm_handle != MPI_COMM_NULL)
        mica_comm_free(&win->comm_handle);
    if (win->shm)
        mica_segment_unmap(win->shm, win->shm_bytes);
    else if (win->owns_base)
        free(win->base);
    free(win->shm_offsets);
    free(win->sizes);
    free(win->disp_units);
    free(win->locked);
    free(win->waiters);
    for (int r = 0; win->deferred && r < win->comm->size; r++)
        for (mica_rma_deferred_t *d = win->deferred[r], *next; d; d = next) {
            next = d->next;
            free(d->msg);
            free(d);
        }
    free(win->deferred);
    free(win->deferred_tail);
    free(win->pending);
    free(win->replies);
    free(win->access);
    if (win->w.eo.errhandler)
        mica_errhandler_release(win->w.eo.errhandler);
    mica_obj_free(win);
}

/* A window of every flavor; MPI_Win_allocate's and MPI_Win_allocate_shared's memory (base
 * NULL) comes once the group's sizes are known: a segment shared by the group (shared.c), or,
 * for MPI_Win_allocate when the group cannot share one, the heap. */
static int make(void *base, MPI_Aint size, MPI_Aint disp_unit, mica_info_t *info,
                mica_comm_t *comm, int flavor, MPI_Win *out)
{
    if (comm->inter)
        return mica_error(MPI_ERR_COMM, "comm is an intercommunicator: windows need an "
                          "intracommunicator");
    if (size < 0)
        return mica_error(MPI_ERR_SIZE, "size=%ld is negative", (long)size);
    if (disp_unit <= 0 || disp_unit > INT32_MAX)
        return mica_error(MPI_ERR_DISP, "disp_unit=%ld is not positive", (long)disp_unit);
    mica_rma_win_t *win = mica_obj_new(MICA_WIN, sizeof *win);
    if (!win)
        return mica_error(MPI_ERR_NO_MEM, "no memory for a window");
    win->comm_handle = MPI_COMM_NULL;
    win->base = base;
    win->size = size;
    win->disp_unit = (int)disp_unit;
    win->flavor = flavor;
    win->excl_holder = -1;
    win->exposed = -1;
    win->w.eo.errhandler = &mica_errors_are_fatal;
    int rc = mica_coll_comm_dup_hidden(comm, &win->comm_handle);
    if (rc != MPI_SUCCESS) {
        win->comm_handle = MPI_COMM_NULL;
        destroy(win);
        return rc;
    }
    win->comm = mica_comm_lookup(win->comm_handle);
    int n = win->comm->size;
    win->sizes = malloc(n * sizeof *win->sizes);
    win->disp_units = malloc(n * sizeof *win->disp_units);
    win->locked = calloc(n, sizeof *win->locked);
    win->pending = calloc(n, 1);
    win->deferred = calloc(n, sizeof *win->deferred);
    win->deferred_tail = calloc(n, sizeof *win->deferred_tail);
    if (!win->sizes || !win->disp_units || !win->locked || !win->pending || !win->deferred ||
        !win->deferred_tail) {
        destroy(win);
        return mica_error(MPI_ERR_NO_MEM, "no memory for a window");
    }
    MPI_Aint mine[2] = {size, disp_unit}, *all = malloc(2 * n * sizeof *all);
    rc = all ? mica_coll_allgather_locked(mine, 2, &mica_type_MPI_AINT, all, 2, &mica_type_MPI_AINT,
                                          win->comm)
             : mica_error(MPI_ERR_NO_MEM, "no memory for a window");
    if (rc != MPI_SUCCESS) {
        free(all);
        destroy(win);
        return rc;
    }
    for (int i = 0; i < n; i++) {
        win->sizes[i] = all[2 * i];
        win->disp_units[i] = (int)all[2 * i + 1];
    }
    free(all);
    mica_rma_hints_set(win, info, 1);
    if (flavor == MPI_WIN_FLAVOR_SHARED || flavor == MPI_WIN_FLAVOR_ALLOCATE) {
        rc = mica_rma_share(win, flavor == MPI_WIN_FLAVOR_ALLOCATE ||
                                 win->hints.alloc_shared_noncontig);
        if (rc != MPI_SUCCESS && flavor == MPI_WIN_FLAVOR_ALLOCATE) {
            rc = (win->base = malloc(size ? size : 1)) ? MPI_SUCCESS
                 : mica_error(MPI_ERR_NO_MEM, "no memory for a window of %ld bytes", (long)size);
            win->owns_base = 1;
        }
        if (rc != MPI_SUCCESS) {
            destroy(win);
            return rc;
        }
    }
    win->next = mica_rma_windows;
    mica_rma_windows = win;
    mica_progress_arm(mica_rma_poll);
    *out = (MPI_Win)win->w.eo.obj.handle;
    return MPI_SUCCESS;
}

int mica_win_create_c(void *base, MPI_Aint size, MPI_Aint disp_unit, mica_info_t *info,
                      mica_comm_t *comm, MPI_Win *win)
{
    return make(base, size, disp_unit, info, comm, MPI_WIN_FLAVOR_CREATE, win);
}

static int allocate(MPI_Aint size, MPI_Aint disp_unit, mica_info_t *info, mica_comm_t *comm,
                    int flavor, void *baseptr, MPI_Win *win)
{
    if (!baseptr)
        return mica_error(MPI_ERR_ARG, "baseptr is NULL");
    int rc = make(NULL, size, disp_unit, info, comm, flavor, win);
    if (rc == MPI_SUCCESS)
        *(void **)baseptr = mica_rma_win(mica_win_lookup(*win))->base;
    return rc;
}

int mica_win_allocate_c(MPI_Aint size, MPI_Aint disp_unit, mica_info_t *info, mica_comm_t *comm,
                        void *baseptr, MPI_Win *win)
{
    return allocate(size, disp_unit, info, comm, MPI_WIN_FLAVOR_ALLOCATE, baseptr, win);
}

int mica_win_allocate_shared_c(MPI_Aint size, MPI_Aint disp_unit, mica_info_t *info,
                               mica_comm_t *comm, void *baseptr, MPI_Win *win)
{
    return allocate(size, disp_unit, info, comm, MPI_WIN_FLAVOR_SHARED, baseptr, win);
}

/* Dynamic windows: target displacements are addresses at the target; attached memory is not
 * tracked, so the range of an operation is not checked. */
int mica_win_create_dynamic(mica_info_t *info, mica_comm_t *comm, MPI_Win *win)
{
    return make(MPI_BOTTOM, 0, 1, info, comm, MPI_WIN_FLAVOR_DYNAMIC, win);
}

int mica_win_attach(mica_win_t *win, void *base, MPI_Aint size)
{
    if (mica_rma_win(win)->flavor != MPI_WIN_FLAVOR_DYNAMIC)
        return mica_error(MPI_ERR_RMA_FLAVOR, "win was not made by MPI_Win_create_dynamic");
    if (size < 0)
        return mica_error(MPI_ERR_SIZE, "size=%ld is negative", (long)size);
    if (!base && size > 0)
        return mica_error(MPI_ERR_ARG, "base is NULL");
    return MPI_SUCCESS;
}

int mica_win_detach(mica_win_t *win, const void *base)
{
    (void)base;
    if (mica_rma_win(win)->flavor != MPI_WIN_FLAVOR_DYNAMIC)
        return mica_error(MPI_ERR_RMA_FLAVOR, "win was not made by MPI_Win_create_dynamic");
    return MPI_SUCCESS;
}

int mica_win_free(MPI_Win *handle)
{
    mica_rma_win_t *win = mica_rma_win(mica_win_lookup(*handle));
    if (win->lock_all || win->nlocked || win->access || win->exposed >= 0)
        return mica_error(MPI_ERR_RMA_SYNC, "win has an epoch open: close it before "
                          "MPI_Win_free");
    /* Its attributes go first (their delete functions see the window whole), then, once
     * everyone is here, nobody sends to this window again. */
    int rc = mica_attr_delete_all(win->w.eo.obj.handle, &win->w.attrs);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = mica_coll_barrier_locked(win->comm);
    mica_rma_drain(win);
    for (mica_rma_win_t **p = &mica_rma_windows; *p; p = &(*p)->next)
        if (*p == win) {
            *p = win->next;
            break;
        }
    if (!mica_rma_windows)
        mica_progress_disarm(mica_rma_poll);
    destroy(win);
    *handle = MPI_WIN_NULL;
    return rc;
}

int mica_win_get_group(mica_win_t *win, MPI_Group *group)
{
    return mica_comm_group(mica_rma_win(win)->comm, group);
}

int mica_win_set_name(mica_win_t *win, const char *win_name)
{
    if (!win_name)
        return mica_error(MPI_ERR_ARG, "win_name is NULL");
    snprintf(mica_rma_win(win)->name, MPI_MAX_OBJECT_NAME, "%s", win_name);
    return MPI_SUCCESS;
}

int mica_win_get_name(mica_win_t *win, char *win_name, int *resultlen)
{
    if (!win_name)
        return mica_error(MPI_ERR_ARG, "win_name is NULL");
    *resultlen = (int)strlen(mica_rma_win(win)->name);
    memcpy(win_name, mica_rma_win(win)->name, *resultlen + 1);
    return MPI_SUCCESS;
}

int mica_win_set_errhandler(mica_win_t *win, mica_errhandler_t *errhandler)
{
    if (errhandler->kind && errhandler->kind != MICA_WIN)
        return mica_error(MPI_ERR_ARG, "errhandler was created for another kind of object");
    if (errhandler->obj.handle >= MICA_PREDEFINED_MAX)
        __atomic_add_fetch(&errhandler->obj.refs, 1, __ATOMIC_RELAXED);
    mica_errhandler_t *old = win->eo.errhandler;
    win->eo.errhandler = errhandler;
    mica_errhandler_release(old);
    return MPI_SUCCESS;
}

int mica_win_get_errhandler(mica_win_t *win, MPI_Errhandler *errhandler)
{
    mica_errhandler_t *eh = win->eo.errhandler;
    if (eh->obj.handle >= MICA_PREDEFINED_MAX)
        __atomic_add_fetch(&eh->obj.refs, 1, __ATOMIC_RELAXED);
    *errhandler = (MPI_Errhandler)eh->obj.handle;
    return MPI_SUCCESS;
}

int mica_win_call_errhandler(mica_win_t *win, int errorcode)
{
    mica_errhandler_invoke(&win->eo, errorcode, "MPI_Win_call_errhandler");
    return MPI_SUCCESS;
}

int mica_win_create_errhandler(MPI_Win_errhandler_function *win_errhandler_fn,
                               MPI_Errhandler *errhandler)
{
    if (!win_errhandler_fn)
        return mica_error(MPI_ERR_ARG, "win_errhandler_fn is NULL");
    mica_errhandler_t *eh = mica_obj_new(MICA_ERRHANDLER, sizeof *eh);
    if (!eh)
        return mica_error(MPI_ERR_NO_MEM, "no memory for a new error handler");
    eh->kind = MICA_WIN;
    eh->fn = (void (*)(void *, int *, ...))win_errhandler_fn;
    *errhandler = (MPI_Errhandler)eh->obj.handle;
    return MPI_SUCCESS;
}

/* The predefined attributes only: user window keyvals are not implemented yet. */
int mica_win_get_attr(mica_win_t *w, int win_keyval, void *attribute_val, int *flag)
{
    mica_rma_win_t *win = mica_rma_win(w);
    static const int model = MPI_WIN_UNIFIED;
    void *v;
    switch (win_keyval) {
    case MPI_WIN_BASE: v = win->base; break;
    case MPI_WIN_SIZE: v = &win->size; break;
    case MPI_WIN_DISP_UNIT: v = &win->disp_unit; break;
    case MPI_WIN_CREATE_FLAVOR: v = &win->flavor; break;
    case MPI_WIN_MODEL: v = (void *)&model; break;
    default:                          /* a user keyval's */
        return mica_attr_win_get(w, win_keyval, attribute_val, flag);
    }
    if (!attribute_val)
        return mica_error(MPI_ERR_ARG, "attribute_val is NULL");
    *(void **)attribute_val = v;
    *flag = 1;
    return MPI_SUCCESS;
}
