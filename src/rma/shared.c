/* Windows whose memory the group shares: MPI_Win_allocate_shared (contiguous unless
 * alloc_shared_noncontig), MPI_Win_allocate (a page-aligned part each), and
 * MPI_Win_shared_query. Rank 0 of the group makes one segment and hands it to the others
 * (transport/segment.h: a memfd over a socket whose ends check each other's process id); every
 * process maps it whole, so each sees every part. RMA operations and synchronisation on such a
 * window go through the target as on any other (rma.h); loads and stores go straight. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/errors.h"
#include "coll/algorithms.h"
#include "rma/rma.h"
#include "transport/segment.h"
#include "core_api.h"

/* What rank 0 tells the others: whether it has a segment, and where to ask for it. */
typedef struct offer {
    int32_t ok;
    char name[MICA_SEGMENT_NAME];
} offer_t;

/* Every process the same verdict: `rc` here, and did everyone succeed? */
static int agree(mica_rma_win_t *win, int rc)
{
    int ok = rc == MPI_SUCCESS, all = 0;
    int e = mica_coll_allreduce_locked(&ok, &all, 1, &mica_type_MPI_INT, &mica_op_MPI_MIN,
                                       win->comm);
    if (rc != MPI_SUCCESS)
        return rc;
    if (e != MPI_SUCCESS)
        return e;
    return all ? MPI_SUCCESS : mica_error(MPI_ERR_NO_MEM, "another process of the window's "
                                          "group could not map its shared memory");
}

int mica_rma_share(mica_rma_win_t *win, int noncontig)
{
    int n = win->comm->size, me = win->comm->rank;
    MPI_Aint page = (MPI_Aint)sysconf(_SC_PAGESIZE), total = 0;
    win->shm_offsets = malloc((size_t)n * sizeof *win->shm_offsets);
    int *pids = malloc((size_t)n * sizeof *pids);
    if (!win->shm_offsets || !pids) {
        free(pids);
        return mica_error(MPI_ERR_NO_MEM, "no memory for a shared window of %d processes", n);
    }
    /* Contiguous: rank i's part ends where rank i+1's begins (the standard's meaning), so only
     * rank 0's is aligned (on a page); noncontiguous: every part on a page of its own. */
    for (int r = 0; r < n; r++) {
        win->shm_offsets[r] = total;
        total += noncontig ? (win->sizes[r] + page - 1) / page * page : win->sizes[r];
    }
    char *map = NULL;
    int me_pid = (int)getpid(), fd = -1, listener = -1;
    int rc = mica_coll_allgather_locked(&me_pid, 1, &mica_type_MPI_INT, pids, 1,
                                        &mica_type_MPI_INT, win->comm);
    if (rc != MPI_SUCCESS) {
        free(pids);
        return rc;
    }
    offer_t offer;
    memset(&offer, 0, sizeof offer);
    if (me == 0) {
        rc = mica_segment_new((size_t)total, &fd, &map);
        if (rc == MPI_SUCCESS && n > 1)
            rc = mica_segment_listen(&listener, offer.name);
        if (rc != MPI_SUCCESS && map) {
            mica_segment_unmap(map, (size_t)total);
            map = NULL;
            close(fd);
        }
        offer.ok = rc == MPI_SUCCESS;
    }
    int e = n > 1 ? mica_coll_bcast_locked(&offer, sizeof offer, &mica_type_MPI_BYTE, 0,
                                           win->comm) : MPI_SUCCESS;
    if (e == MPI_SUCCESS && !offer.ok && me != 0)
        e = mica_error(MPI_ERR_NO_MEM, "rank 0 of the window's group could not make the shared "
                       "memory");
    if (rc == MPI_SUCCESS)
        rc = e;
    if (rc == MPI_SUCCESS && me == 0) {
        if (n > 1)
            rc = mica_segment_give(listener, fd, pids + 1, n - 1);
        close(fd);
    } else if (rc == MPI_SUCCESS) {
        rc = mica_segment_take(offer.name, pids[0], (size_t)total, &map);
    } else if (me == 0 && offer.ok) {  /* the bcast failed: nobody will come */
        close(listener);
        close(fd);
    }
    free(pids);
    if (offer.ok && n > 1)            /* else everyone knows already: rank 0 has no segment */
        rc = agree(win, rc);
    if (rc != MPI_SUCCESS) {
        if (map)
            mica_segment_unmap(map, (size_t)total);
        return rc;
    }
    win->shm = map;
    win->shm_bytes = (size_t)total;
    win->base = map + win->shm_offsets[me];
    return MPI_SUCCESS;
}

static int query(mica_win_t *w, int rank, MPI_Aint *size, MPI_Aint *disp_unit, void *baseptr)
{
    mica_rma_win_t *win = mica_rma_win(w);
    int n = win->comm->size;
    if (!baseptr)
        return mica_error(MPI_ERR_ARG, "baseptr is NULL");
    if (win->flavor == MPI_WIN_FLAVOR_DYNAMIC)
        return mica_error(MPI_ERR_RMA_FLAVOR, "win was made by MPI_Win_create_dynamic: its "
                          "memory has no segments to query");
    if (rank != MPI_PROC_NULL && rank >= n)
        return mica_error(MPI_ERR_RANK, "rank=%d is not a rank of the window's group (size %d)",
                          rank, n);
    if (rank == MPI_PROC_NULL) {      /* the first rank with memory; all without: rank 0 */
        rank = 0;
        while (rank < n - 1 && win->sizes[rank] == 0)
            rank++;
        if (win->sizes[rank] == 0)
            rank = 0;
    }
    *disp_unit = win->disp_units[rank];
    if (win->shm) {                   /* a part of no bytes has no address (as MPICH) */
        *size = win->sizes[rank];
        *(void **)baseptr = *size ? win->shm + win->shm_offsets[rank] : NULL;
    } else if (rank == win->comm->rank) {  /* memory not shared: only its own process's */
        *size = win->size;
        *(void **)baseptr = win->base;
    } else {
        *size = 0;
        *(void **)baseptr = NULL;
    }
    return MPI_SUCCESS;
}

int mica_win_shared_query_c(mica_win_t *win, int rank, MPI_Aint *size, MPI_Aint *disp_unit,
                            void *baseptr)
{
    return query(win, rank, size, disp_unit, baseptr);
}

int mica_win_shared_query(mica_win_t *win, int rank, MPI_Aint *size, int *disp_unit,
                          void *baseptr)
{
    MPI_Aint unit = 0;
    int rc = query(win, rank, size, &unit, baseptr);
    if (rc == MPI_SUCCESS)
        *disp_unit = (int)unit;
    return rc;
}
