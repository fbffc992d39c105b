/* np: 1 2 4 */
/* Arguments the standard says are ignored are not checked (issue 11, root cause 2): each call
 * here passes garbage (-1, MPI_DATATYPE_NULL, NULL) where an argument is not significant, and
 * must succeed with the right result: the send side with MPI_IN_PLACE (gather at the root,
 * allgather(v), alltoall), the receive side of a scatter's root with MPI_IN_PLACE, a gather's
 * receive side and a scatter's send side outside the root, a reduction's receive buffer outside
 * the root (MPICH's red3, red4), and an accumulate's origin with MPI_NO_OP; in the blocking,
 * nonblocking, persistent and large-count forms. */
#include <mpi.h>
#include <string.h>

#include "../check.h"

#define N 16
static int rank, size;
static const MPI_Comm w = MPI_COMM_WORLD;
static const MPI_Datatype T = MPI_DATATYPE_NULL;   /* an ignored type */

/* 0: blocking, 1: nonblocking, 2: persistent; rc of starting the call, completed. */
static int done(int rc, MPI_Request *r, int form)
{
    if (rc == MPI_SUCCESS && form == 2)
        rc = MPI_Start(r);
    if (rc == MPI_SUCCESS && form)
        rc = MPI_Wait(r, MPI_STATUS_IGNORE);
    if (form == 2 && *r != MPI_REQUEST_NULL)
        MPI_Request_free(r);
    return rc;
}

static void gather(int root, int form)
{
    int buf[N], x = rank + 1, me = rank == root, rc;
    MPI_Request r;
    for (int i = 0; i < size; i++)
        buf[i] = i == rank ? i + 1 : 0;
    const void *s = me ? MPI_IN_PLACE : &x;
    int sc = me ? -1 : 1, rn = me ? 1 : -1;
    MPI_Datatype st = me ? T : MPI_INT, rt = me ? MPI_INT : T;
    void *rb = me ? buf : NULL;
    if (form == 0)
        rc = MPI_Gather(s, sc, st, rb, rn, rt, root, w);
    else if (form == 1)
        rc = MPI_Igather(s, sc, st, rb, rn, rt, root, w, &r);
    else if (form == 2)
        rc = MPI_Gather_init(s, sc, st, rb, rn, rt, root, w, MPI_INFO_NULL, &r);
    else
        rc = MPI_Gather_c(s, sc, st, rb, rn, rt, root, w);
    CHECKF(done(rc, &r, form < 3 ? form : 0) == MPI_SUCCESS, "gather form %d root %d", form, root);
    for (int i = 0; me && i < size; i++)
        CHECKF(buf[i] == i + 1, "gather form %d: buf[%d] = %d", form, i, buf[i]);
}

static void scatter(int root, int form)
{
    int buf[N], y = -1, me = rank == root, rc;
    MPI_Request r;
    for (int i = 0; i < size; i++)
        buf[i] = me ? 10 * i : -1;
    void *rb = me ? MPI_IN_PLACE : &y;
    int sc = me ? 1 : -1, rn = me ? -1 : 1;
    MPI_Datatype st = me ? MPI_INT : T, rt = me ? T : MPI_INT;
    const void *sb = me ? buf : NULL;
    if (form == 0)
        rc = MPI_Scatter(sb, sc, st, rb, rn, rt, root, w);
    else if (form == 1)
        rc = MPI_Iscatter(sb, sc, st, rb, rn, rt, root, w, &r);
    else if (form == 2)
        rc = MPI_Scatter_init(sb, sc, st, rb, rn, rt, root, w, MPI_INFO_NULL, &r);
    else
        rc = MPI_Scatter_c(sb, sc, st, rb, rn, rt, root, w);
    CHECKF(done(rc, &r, form < 3 ? form : 0) == MPI_SUCCESS, "scatter form %d", form);
    CHECKF(me ? buf[rank] == 10 * rank : y == 10 * rank, "scatter form %d: got %d", form,
           me ? buf[rank] : y);
}

static void allgather(int form)
{
    int buf[N], counts[N], displs[N], rc;
    MPI_Request r;
    for (int i = 0; i < size; i++)
        buf[i] = i == rank ? 10 * i : -1, counts[i] = 1, displs[i] = i;
    if (form == 0)
        rc = MPI_Allgather(MPI_IN_PLACE, -1, T, buf, 1, MPI_INT, w);
    else if (form == 1)
        rc = MPI_Iallgather(MPI_IN_PLACE, -1, T, buf, 1, MPI_INT, w, &r);
    else if (form == 2)
        rc = MPI_Allgather_init(MPI_IN_PLACE, -1, T, buf, 1, MPI_INT, w, MPI_INFO_NULL, &r);
    else if (form == 3)
        rc = MPI_Allgather_c(MPI_IN_PLACE, -1, T, buf, 1, MPI_INT, w);
    else
        rc = MPI_Allgatherv(MPI_IN_PLACE, -1, T, buf, counts, displs, MPI_INT, w);
    CHECKF(done(rc, &r, form < 3 ? form : 0) == MPI_SUCCESS, "allgather form %d", form);
    for (int i = 0; i < size; i++)
        CHECKF(buf[i] == 10 * i, "allgather form %d: buf[%d] = %d", form, i, buf[i]);
}

static void alltoall(int form)
{
    int buf[N], rc;
    MPI_Request r;
    for (int i = 0; i < size; i++)
        buf[i] = 100 * rank + i;
    if (form == 0)
        rc = MPI_Alltoall(MPI_IN_PLACE, -1, T, buf, 1, MPI_INT, w);
    else if (form == 1)
        rc = MPI_Ialltoall(MPI_IN_PLACE, -1, T, buf, 1, MPI_INT, w, &r);
    else if (form == 2)
        rc = MPI_Alltoall_init(MPI_IN_PLACE, -1, T, buf, 1, MPI_INT, w, MPI_INFO_NULL, &r);
    else
        rc = MPI_Alltoall_c(MPI_IN_PLACE, -1, T, buf, 1, MPI_INT, w);
    CHECKF(done(rc, &r, form < 3 ? form : 0) == MPI_SUCCESS, "alltoall form %d", form);
    for (int i = 0; i < size; i++)
        CHECKF(buf[i] == 100 * i + rank, "alltoall form %d: buf[%d] = %d", form, i, buf[i]);
}

static void reduce(int root, int form)
{
    int x[2] = {rank, 1}, sum[2] = {-1, -1}, rc;
    MPI_Request r;
    void *rb = rank == root ? sum : NULL;
    if (form == 0)
        rc = MPI_Reduce(x, rb, 2, MPI_INT, MPI_SUM, root, w);
    else if (form == 1)
        rc = MPI_Ireduce(x, rb, 2, MPI_INT, MPI_SUM, root, w, &r);
    else if (form == 2)
        rc = MPI_Reduce_init(x, rb, 2, MPI_INT, MPI_SUM, root, w, MPI_INFO_NULL, &r);
    else
        rc = MPI_Reduce_c(x, rb, 2, MPI_INT, MPI_SUM, root, w);
    CHECKF(done(rc, &r, form < 3 ? form : 0) == MPI_SUCCESS, "reduce form %d", form);
    if (rank == root)
        CHECKF(sum[0] == size * (size - 1) / 2 && sum[1] == size, "reduce form %d: %d %d",
               form, sum[0], sum[1]);
}

static void get_accumulate(void)
{
    MPI_Win win;
    int mem = 40 + rank, result = -1, target = (rank + 1) % size;
    MPI_Request r;
    MPI_Win_create(&mem, sizeof mem, sizeof mem, MPI_INFO_NULL, w, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    MPI_Win_fence(0, win);
    CHECK(MPI_Get_accumulate(NULL, 0, T, &result, 1, MPI_INT, target, 0, 1, MPI_INT, MPI_NO_OP,
                             win) == MPI_SUCCESS);
    MPI_Win_fence(0, win);
    CHECKF(result == 40 + target, "MPI_NO_OP fetched %d", result);
    result = -1;
    MPI_Win_lock_all(0, win);
    CHECK(MPI_Rget_accumulate(NULL, -1, T, &result, 1, MPI_INT, target, 0, 1, MPI_INT,
                              MPI_NO_OP, win, &r) == MPI_SUCCESS);
    CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE) == MPI_SUCCESS);
    MPI_Win_unlock_all(win);
    CHECKF(result == 40 + target, "MPI_NO_OP (Rget_accumulate) fetched %d", result);
    MPI_Win_free(&win);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(w, &rank);
    MPI_Comm_size(w, &size);
    MPI_Comm_set_errhandler(w, MPI_ERRORS_RETURN);
    for (int form = 0; form < 4; form++) {
        for (int root = 0; root < size; root++) {
            gather(root, form);
            scatter(root, form);
            reduce(root, form);
        }
        alltoall(form);
    }
    for (int form = 0; form < 5; form++)
        allgather(form);
    get_accumulate();
    MPI_Finalize();
    return CHECK_RESULT();
}
