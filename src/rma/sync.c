/* RMA synchronisation: fence, passive target (lock, flush), and general active target (PSCW).
 * Every one rests on the target answering a control message once the operations sent before
 * it are applied (rma.h). */
#include <stdlib.h>

#include "core/errors.h"
#include "core/group.h"
#include "core/progress.h"
#include "coll/algorithms.h"
#include "coll/coll.h"
#include "pt2pt/pt2pt.h"
#include "rma/rma.h"
#include "core_api.h"

static int any_passive(mica_rma_win_t *win)
{
    return win->lock_all || win->nlocked > 0;
}

/* Flush every target in parallel: all FLUSH messages out, then all answers in. */
static int flush_all(mica_rma_win_t *win)
{
    int n = win->comm->size, rc = MPI_SUCCESS;
    for (int t = 0; t < n && rc == MPI_SUCCESS; t++)
        rc = mica_rma_control(win, t, MICA_RMA_FLUSH, 0, 1);
    return rc;
}

int mica_win_fence(int assert, mica_win_t *w)
{
    mica_rma_win_t *win = mica_rma_win(w);
    if (any_passive(win) || win->access || win->exposed >= 0)
        return mica_error(MPI_ERR_RMA_SYNC, "win has a lock or PSCW epoch open: MPI_Win_fence "
                          "cannot be called");
    int rc = MPI_SUCCESS;
    if (win->fence && !(assert & MPI_MODE_NOPRECEDE))
        rc = flush_all(win);
    if (rc == MPI_SUCCESS)
        rc = mica_coll_barrier_locked(win->comm);
    win->fence = !(assert & MPI_MODE_NOSUCCEED);
    win->fence_used = 0;
    return rc;
}

static int check_rank(mica_rma_win_t *win, int rank)
{
    if (rank < 0 || rank >= win->comm->size)
        return mica_error(MPI_ERR_RANK, "rank=%d is not a rank of the window's group (size %d)",
                          rank, win->comm->size);
    return MPI_SUCCESS;
}

/* A lock is asked for without waiting for it (the target keeps the origin's operations until
 * it grants it), except where the caller may touch the memory itself once the call returns:
 * its own, or a window of shared memory. MPI_MODE_NOCHECK asks for nothing. */
static int ask_lock(mica_rma_win_t *win, int rank, int lock_type)
{
    int wait = rank == win->comm->rank || win->shm;
    return mica_rma_control(win, rank, MICA_RMA_LOCK, lock_type, wait);
}

int mica_win_lock(int lock_type, int rank, int assert, mica_win_t *w)
{
    mica_rma_win_t *win = mica_rma_win(w);
    if (lock_type != MPI_LOCK_EXCLUSIVE && lock_type != MPI_LOCK_SHARED)
        return mica_error(MPI_ERR_LOCKTYPE, "lock_type=%d is neither MPI_LOCK_EXCLUSIVE nor "
                          "MPI_LOCK_SHARED", lock_type);
    if (rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    int rc = check_rank(win, rank);
    if (rc != MPI_SUCCESS)
        return rc;
    if (win->locked[rank] || win->lock_all || win->access || win->fence_used)
        return mica_error(MPI_ERR_RMA_SYNC, "an access epoch to rank=%d is already open (a "
                          "fence epoch ends with MPI_Win_fence(MPI_MODE_NOSUCCEED))", rank);
    int nocheck = assert & MPI_MODE_NOCHECK;
    rc = nocheck ? MPI_SUCCESS : ask_lock(win, rank, lock_type);
    if (rc == MPI_SUCCESS) {
        win->locked[rank] = lock_type | (nocheck ? MICA_RMA_NOCHECK : 0);
        win->nlocked++;
        win->fence = 0;
    }
    return rc;
}

/* The end of a passive epoch to `rank`: everything applied, and the lock given back. */
static int end_passive(mica_rma_win_t *win, int rank, int nocheck)
{
    return mica_rma_control(win, rank, nocheck ? MICA_RMA_FLUSH : MICA_RMA_UNLOCK, 0, 1);
}

int mica_win_unlock(int rank, mica_win_t *w)
{
    mica_rma_win_t *win = mica_rma_win(w);
    if (rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    int rc = check_rank(win, rank);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!win->locked[rank])
        return mica_error(MPI_ERR_RMA_SYNC, "rank=%d is not locked by MPI_Win_lock", rank);
    rc = end_passive(win, rank, win->locked[rank] & MICA_RMA_NOCHECK);
    win->locked[rank] = 0;
    win->nlocked--;
    return rc;
}

int mica_win_lock_all(int assert, mica_win_t *w)
{
    mica_rma_win_t *win = mica_rma_win(w);
    if (any_passive(win) || win->access || win->fence_used)
        return mica_error(MPI_ERR_RMA_SYNC, "an access epoch of win is already open");
    int rc = MPI_SUCCESS, nocheck = assert & MPI_MODE_NOCHECK;
    for (int t = 0; t < win->comm->size && rc == MPI_SUCCESS && !nocheck; t++)
        rc = ask_lock(win, t, MPI_LOCK_SHARED);
    if (rc == MPI_SUCCESS) {
        win->lock_all = 1 | (nocheck ? MICA_RMA_NOCHECK : 0);
        win->fence = 0;
    }
    return rc;
}

int mica_win_unlock_all(mica_win_t *w)
{
    mica_rma_win_t *win = mica_rma_win(w);
    if (!win->lock_all)
        return mica_error(MPI_ERR_RMA_SYNC, "win is not locked by MPI_Win_lock_all");
    int rc = MPI_SUCCESS;
    for (int t = 0; t < win->comm->size; t++) {
        int e = end_passive(win, t, win->lock_all & MICA_RMA_NOCHECK);
        if (rc == MPI_SUCCESS)
            rc = e;
    }
    win->lock_all = 0;
    return rc;
}

static int check_passive(mica_rma_win_t *win, int rank)
{
    if (rank != MPI_PROC_NULL && !win->lock_all && !win->locked[rank])
        return mica_error(MPI_ERR_RMA_SYNC, "no passive target epoch is open to rank=%d", rank);
    return MPI_SUCCESS;
}

int mica_win_flush(int rank, mica_win_t *w)
{
    mica_rma_win_t *win = mica_rma_win(w);
    if (rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    int rc = check_rank(win, rank);
    if (rc == MPI_SUCCESS)
        rc = check_passive(win, rank);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = mica_rma_control(win, rank, MICA_RMA_FLUSH, 0, 1);
    return rc;
}

int mica_win_flush_all(mica_win_t *w)
{
    mica_rma_win_t *win = mica_rma_win(w);
    if (!any_passive(win))
        return mica_error(MPI_ERR_RMA_SYNC, "no passive target epoch is open on win");
    int rc = MPI_SUCCESS;
    for (int t = 0; t < win->comm->size && rc == MPI_SUCCESS; t++)
        if (win->lock_all || win->locked[t])
            rc = mica_rma_control(win, t, MICA_RMA_FLUSH, 0, 1);
    return rc;
}

/* Operations return once the origin buffer is free again: local flushes have nothing to do. */
int mica_win_flush_local(int rank, mica_win_t *w)
{
    mica_rma_win_t *win = mica_rma_win(w);
    if (rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    int rc = check_rank(win, rank);
    return rc == MPI_SUCCESS ? check_passive(win, rank) : rc;
}

int mica_win_flush_local_all(mica_win_t *w)
{
    if (!any_passive(mica_rma_win(w)))
        return mica_error(MPI_ERR_RMA_SYNC, "no passive target epoch is open on win");
    return MPI_SUCCESS;
}

/* The window's memory is the one copy (MPI_WIN_UNIFIED): only a memory barrier is needed. */
int mica_win_sync(mica_win_t *win)
{
    (void)win;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return MPI_SUCCESS;
}

/* --- PSCW ------------------------------------------------------------------------------------- */

/* The ranks in the window's group of the members of `group`; NULL with *rc set on failure. */
static int *group_ranks(mica_rma_win_t *win, mica_group_t *group, int *rc)
{
    int *ranks = malloc((group->size ? group->size : 1) * sizeof *ranks);
    if (!ranks) {
        *rc = mica_error(MPI_ERR_NO_MEM, "no memory for the group's ranks");
        return NULL;
    }
    for (int i = 0; i < group->size; i++) {
        ranks[i] = -1;
        for (int r = 0; r < win->comm->size; r++)
            if (mica_comm_world_rank(win->comm, r) == group->world[i])
                ranks[i] = r;
        if (ranks[i] < 0) {
            free(ranks);
            *rc = mica_error(MPI_ERR_GROUP, "group has a process outside the window's group");
            return NULL;
        }
    }
    *rc = MPI_SUCCESS;
    return ranks;
}

/* MPI_Win_post tells each origin, on the window's point-to-point context. */
static int post_message(mica_rma_win_t *win, int rank, int send)
{
    mica_request_t *r = NULL;
    int rc = send ? mica_pt2pt_isend(NULL, 0, &mica_type_MPI_BYTE, rank, MICA_RMA_TAG_POST,
                                     win->comm, MICA_CTX_PT2PT, MICA_SEND_STANDARD, &r)
                  : mica_pt2pt_irecv(NULL, 0, &mica_type_MPI_BYTE, rank, MICA_RMA_TAG_POST,
                                     win->comm, MICA_CTX_PT2PT, &r);
    return rc == MPI_SUCCESS ? mica_request_wait(r, NULL) : rc;
}

int mica_win_post(mica_group_t *group, int assert, mica_win_t *w)
{
    (void)assert;
    mica_rma_win_t *win = mica_rma_win(w);
    if (win->exposed >= 0 || win->fence_used)
        return mica_error(MPI_ERR_RMA_SYNC, "an exposure epoch of win is already open");
    int rc;
    int *ranks = group_ranks(win, group, &rc);
    if (!ranks)
        return rc;
    win->exposed = group->size;
    win->completes = 0;
    win->fence = 0;
    for (int i = 0; i < group->size && rc == MPI_SUCCESS; i++)
        rc = post_message(win, ranks[i], 1);
    free(ranks);
    return rc;
}

int mica_win_start(mica_group_t *group, int assert, mica_win_t *w)
{
    (void)assert;
    mica_rma_win_t *win = mica_rma_win(w);
    if (win->access || any_passive(win) || win->fence_used)
        return mica_error(MPI_ERR_RMA_SYNC, "an access epoch of win is already open");
    int rc;
    int *ranks = group_ranks(win, group, &rc);
    if (!ranks)
        return rc;
    for (int i = 0; i < group->size && rc == MPI_SUCCESS; i++)
        rc = post_message(win, ranks[i], 0);
    if (rc != MPI_SUCCESS) {
        free(ranks);
        return rc;
    }
    win->access = ranks;
    win->naccess = group->size;
    win->fence = 0;                   /* the unused fence epoch gives way */
    return MPI_SUCCESS;
}

int mica_win_complete(mica_win_t *w)
{
    mica_rma_win_t *win = mica_rma_win(w);
    if (!win->access)
        return mica_error(MPI_ERR_RMA_SYNC, "no access epoch was started by MPI_Win_start");
    int rc = MPI_SUCCESS;
    for (int i = 0; i < win->naccess; i++) {
        int e = mica_rma_control(win, win->access[i], MICA_RMA_COMPLETE, 0, 0);
        if (rc == MPI_SUCCESS)
            rc = e;
    }
    free(win->access);
    win->access = NULL;
    win->naccess = 0;
    return rc;
}

int mica_win_wait(mica_win_t *w)
{
    mica_rma_win_t *win = mica_rma_win(w);
    if (win->exposed < 0)
        return mica_error(MPI_ERR_RMA_SYNC, "no exposure epoch was started by MPI_Win_post");
    MICA_WAIT_UNTIL(win->completes >= win->exposed);
    win->exposed = -1;
    return MPI_SUCCESS;
}

int mica_win_test(mica_win_t *w, int *flag)
{
    mica_rma_win_t *win = mica_rma_win(w);
    if (win->exposed < 0)
        return mica_error(MPI_ERR_RMA_SYNC, "no exposure epoch was started by MPI_Win_post");
    mica_progress();
    *flag = win->completes >= win->exposed;
    if (*flag)
        win->exposed = -1;
    return MPI_SUCCESS;
}
