/* np: 1 2 4 */
/* MPI_Win_allocate_shared on MPI_Comm_split_type(MPI_COMM_TYPE_SHARED): sizes differing per rank
 * (0 included), contiguous parts, MPI_Win_shared_query of every rank and of MPI_PROC_NULL,
 * stores seen by every process after MPI_Win_sync + barrier, RMA operations (put, accumulate,
 * fetch_and_op, compare_and_swap, get) on the window seen by loads, alloc_shared_noncontig,
 * the query on windows of the other flavors, and errors. */
#include <mpi.h>
#include <stdint.h>
#include <string.h>
#include "../check.h"

/* Rank r's part: r ints, none for rank 0 (so MPI_PROC_NULL finds rank 1's). */
static MPI_Aint part(int r) { return (MPI_Aint)(r * sizeof(int)); }

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int wrank;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm shm;
    CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shm) ==
          MPI_SUCCESS);
    int rank, size, wsize, cmp;
    MPI_Comm_rank(shm, &rank);
    MPI_Comm_size(shm, &size);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    MPI_Comm_compare(shm, MPI_COMM_WORLD, &cmp);
    CHECKF(size == wsize && cmp == MPI_CONGRUENT, "one host: the whole job (size %d, cmp %d)",
           size, cmp);

    /* Contiguous, sizes 0, 4, 8, ... bytes. */
    int *mine = NULL;
    MPI_Win win;
    CHECK(MPI_Win_allocate_shared(part(rank), sizeof(int), MPI_INFO_NULL, shm, &mine, &win) ==
          MPI_SUCCESS);
    int flavor_flag, *flavor;
    MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flavor_flag);
    CHECK(flavor_flag && *flavor == MPI_WIN_FLAVOR_SHARED);
    char *first = NULL;
    for (int r = 0; r < size; r++) {
        MPI_Aint sz = -1;
        int du = -1;
        int *b = NULL;
        CHECK(MPI_Win_shared_query(win, r, &sz, &du, &b) == MPI_SUCCESS);
        CHECKF(sz == part(r) && du == (int)sizeof(int), "rank %d: size %ld unit %d", r,
               (long)sz, du);
        CHECK(r == 0 ? b == NULL : b != NULL);  /* a part of no bytes has no address */
        if (r == 1)
            first = (char *)b;
        /* Contiguous: each part starts where the one before ends. */
        if (r >= 1)
            CHECKF((char *)b == first + r * (r - 1) / 2 * sizeof(int), "rank %d's part at %td",
                   r, (char *)b - first);
        if (r == rank && r > 0)
            CHECK(b == mine);
    }
    if (size > 1)
        CHECKF(((uintptr_t)first & 4095) == 0, "the segment starts on a page: %p",
               (void *)first);
    if (size > 1) {
        MPI_Aint sz;
        int du, *b;
        CHECK(MPI_Win_shared_query(win, MPI_PROC_NULL, &sz, &du, &b) == MPI_SUCCESS);
        CHECKF(sz == part(1) && b == (int *)(first + 0), "PROC_NULL: size %ld", (long)sz);
    }

    /* Stores, then every process reads every part. */
    MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
    for (int i = 0; i < rank; i++)
        mine[i] = 1000 * rank + i;
    MPI_Win_sync(win);
    MPI_Barrier(shm);
    MPI_Win_sync(win);
    for (int r = 1; r < size; r++) {
        MPI_Aint sz;
        int du, *b;
        MPI_Win_shared_query(win, r, &sz, &du, &b);
        for (int i = 0; i < r; i++)
            CHECKF(b[i] == 1000 * r + i, "rank %d [%d] = %d", r, i, b[i]);
    }
    MPI_Win_unlock_all(win);
    MPI_Barrier(shm);

    /* RMA on it: everyone adds to the last rank's first int, rank 0 puts, then loads see it. */
    int last = size - 1;
    if (last > 0) {
        MPI_Win_fence(0, win);
        int one = 1;
        MPI_Accumulate(&one, 1, MPI_INT, last, 0, 1, MPI_INT, MPI_SUM, win);
        if (rank == 0 && last > 1) {
            int v = -7;
            MPI_Put(&v, 1, MPI_INT, last, 1, 1, MPI_INT, win);
        }
        MPI_Win_fence(0, win);
        int *b;
        MPI_Aint sz;
        int du;
        MPI_Win_shared_query(win, last, &sz, &du, &b);
        CHECKF(b[0] == 1000 * last + size, "accumulated %d", b[0]);
        if (last > 1)
            CHECKF(b[1] == -7, "put %d", b[1]);
        int got = 0;
        MPI_Get(&got, 1, MPI_INT, last, 0, 1, MPI_INT, win);
        MPI_Win_fence(0, win);
        CHECK(got == 1000 * last + size);

        /* Passive target: fetch_and_op and compare_and_swap under a lock, load after flush. */
        MPI_Barrier(shm);
        MPI_Win_lock(MPI_LOCK_SHARED, last, 0, win);
        int old, two = 2;
        MPI_Fetch_and_op(&two, &old, MPI_INT, last, 0, MPI_SUM, win);
        MPI_Win_unlock(last, win);
        MPI_Barrier(shm);
        MPI_Win_sync(win);
        CHECKF(b[0] == 1000 * last + 3 * size, "fetch_and_op: %d", b[0]);
        MPI_Barrier(shm);             /* everyone has read it before rank 0 swaps it */
        if (rank == 0) {
            int expect = 1000 * last + 3 * size, nv = 42, res = 0;
            MPI_Win_lock(MPI_LOCK_EXCLUSIVE, last, 0, win);
            MPI_Compare_and_swap(&nv, &expect, &res, MPI_INT, last, 0, win);
            MPI_Win_flush(last, win);
            CHECK(res == expect && b[0] == 42);
            MPI_Win_unlock(last, win);
        }
        MPI_Barrier(shm);
        MPI_Win_sync(win);
        CHECKF(b[0] == 42, "after compare_and_swap: %d", b[0]);
    }

    /* Errors: a rank out of range, through the window's error handler. */
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    MPI_Aint sz;
    int du, *b, cls;
    int rc = MPI_Win_shared_query(win, size, &sz, &du, &b);
    MPI_Error_class(rc, &cls);
    CHECKF(cls == MPI_ERR_RANK, "query of rank %d: class %d", size, cls);
    CHECK(MPI_Win_free(&win) == MPI_SUCCESS);

    /* Every size 0: the query of MPI_PROC_NULL gives size 0. */
    CHECK(MPI_Win_allocate_shared(0, 1, MPI_INFO_NULL, shm, &mine, &win) == MPI_SUCCESS);
    CHECK(MPI_Win_shared_query(win, MPI_PROC_NULL, &sz, &du, &b) == MPI_SUCCESS && sz == 0 &&
          b == NULL);
    MPI_Win_free(&win);

    /* Noncontiguous: each part on a page of its own, written by its owner, read by all. */
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "alloc_shared_noncontig", "true");
    double *d;
    CHECK(MPI_Win_allocate_shared(3 * sizeof(double), sizeof(double), info, shm, &d, &win) ==
          MPI_SUCCESS);
    MPI_Info_free(&info);
    CHECKF(((uintptr_t)d & 4095) == 0, "noncontig part at %p", (void *)d);
    MPI_Win_lock_all(0, win);
    d[0] = rank, d[2] = -rank;
    MPI_Win_sync(win);
    MPI_Barrier(shm);
    MPI_Win_sync(win);
    for (int r = 0; r < size; r++) {
        double *p;
        CHECK(MPI_Win_shared_query(win, r, &sz, &du, &p) == MPI_SUCCESS);
        CHECK(sz == 3 * sizeof(double) && du == sizeof(double) && p[0] == r && p[2] == -r);
    }
    MPI_Win_unlock_all(win);
    MPI_Info used;
    char v[MPI_MAX_INFO_VAL];
    int flag;
    MPI_Win_get_info(win, &used);
    MPI_Info_get(used, "alloc_shared_noncontig", sizeof v, v, &flag);
    CHECK(flag && !strcmp(v, "true"));
    MPI_Info_free(&used);
    MPI_Win_free(&win);

    /* MPI_Win_allocate's memory is shared too; MPI_Win_create's only with its own process;
     * a dynamic window has nothing to query. */
    long *l;
    CHECK(MPI_Win_allocate(sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &l, &win)
          == MPI_SUCCESS);
    *l = 5 + wrank;
    MPI_Barrier(MPI_COMM_WORLD);
    for (int r = 0; r < wsize; r++) {
        long *p;
        CHECK(MPI_Win_shared_query(win, r, &sz, &du, &p) == MPI_SUCCESS);
        CHECK(sz == sizeof(long) && p && *p == 5 + r);
    }
    MPI_Win_free(&win);
    int plain[2];
    MPI_Win_create(plain, sizeof plain, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    for (int r = 0; r < wsize; r++) {
        int *p;
        CHECK(MPI_Win_shared_query(win, r, &sz, &du, &p) == MPI_SUCCESS);
        CHECK(r == wrank ? p == plain && sz == sizeof plain : !p && sz == 0);
    }
    MPI_Win_free(&win);
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    rc = MPI_Win_shared_query(win, 0, &sz, &du, &b);
    MPI_Error_class(rc, &cls);
    CHECKF(cls == MPI_ERR_RMA_FLAVOR, "dynamic: class %d", cls);
    MPI_Win_free(&win);

    MPI_Comm_free(&shm);
    MPI_Finalize();
    return CHECK_RESULT();
}
