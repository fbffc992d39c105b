/* np: 2 */
/* Windows: the predefined attributes, names, groups, error handlers, and error classes (bad
 * target rank, displacement out of the window, no epoch, bad lock type, unknown keyval). */
#include <mpi.h>
#include <string.h>
#include "../check.h"

static int error_class(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int buf[8];
    MPI_Win win;
    CHECK(MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win)
          == MPI_SUCCESS);

    void *base;
    MPI_Aint *wsize;
    int *unit, *flavor, *model, flag = 0;
    MPI_Win_get_attr(win, MPI_WIN_BASE, &base, &flag);
    CHECK(flag && base == buf);
    MPI_Win_get_attr(win, MPI_WIN_SIZE, &wsize, &flag);
    CHECK(flag && *wsize == sizeof buf);
    MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &unit, &flag);
    CHECK(flag && *unit == sizeof(int));
    MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag);
    CHECK(flag && *flavor == MPI_WIN_FLAVOR_CREATE);
    MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag);
    CHECK(flag && *model == MPI_WIN_UNIFIED);

    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    MPI_Win_get_name(win, name, &len);
    CHECK(len == 0);
    MPI_Win_set_name(win, "rma window");
    MPI_Win_get_name(win, name, &len);
    CHECK(len == 10 && !strcmp(name, "rma window"));

    MPI_Group g, wg;
    int cmp = -1;
    MPI_Win_get_group(win, &g);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_compare(g, wg, &cmp);
    CHECK(cmp == MPI_IDENT);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);

    MPI_Errhandler eh;
    MPI_Win_get_errhandler(win, &eh);
    CHECK(eh == MPI_ERRORS_ARE_FATAL);
    MPI_Errhandler_free(&eh);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    MPI_Win_get_errhandler(win, &eh);
    CHECK(eh == MPI_ERRORS_RETURN);

    int v = 1;
    CHECK(error_class(MPI_Put(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, win)) == MPI_ERR_RMA_SYNC);
    MPI_Win_fence(0, win);
    CHECK(error_class(MPI_Put(&v, 1, MPI_INT, size, 0, 1, MPI_INT, win)) == MPI_ERR_RANK);
    CHECK(error_class(MPI_Put(&v, 1, MPI_INT, 0, 8, 1, MPI_INT, win)) == MPI_ERR_RMA_RANGE);
    CHECK(error_class(MPI_Put(&v, 1, MPI_INT, 0, -1, 1, MPI_INT, win)) == MPI_ERR_DISP);
    CHECK(error_class(MPI_Put(&v, 1, MPI_INT, -5, 0, 1, MPI_INT, win)) == MPI_ERR_RANK);
    CHECK(error_class(MPI_Accumulate(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_MINLOC, win))
          == MPI_ERR_OP);
    CHECK(error_class(MPI_Get(&v, 2, MPI_INT, 0, 7, 2, MPI_INT, win)) == MPI_ERR_RMA_RANGE);
    CHECK(error_class(MPI_Accumulate(&v, 1, MPI_INT, 0, 0, 1, MPI_FLOAT, MPI_SUM, win))
          == MPI_ERR_TYPE);
    CHECK(error_class(MPI_Accumulate(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_LAND, win))
          == MPI_SUCCESS);
    CHECK(MPI_Put(&v, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win) == MPI_SUCCESS);
    CHECK(error_class(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win)) == MPI_ERR_RMA_SYNC);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    CHECK(error_class(MPI_Win_lock(12345, 0, 0, win)) == MPI_ERR_LOCKTYPE);
    CHECK(error_class(MPI_Win_unlock(0, win)) == MPI_ERR_RMA_SYNC);
    CHECK(error_class(MPI_Win_get_attr(win, MPI_TAG_UB, &base, &flag)) == MPI_ERR_KEYVAL);
    CHECK(error_class(MPI_Win_attach(win, buf, 4)) == MPI_ERR_RMA_FLAVOR);

    /* Dynamic windows: attach, then address displacements. */
    MPI_Win dyn;
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &dyn);
    MPI_Win_get_attr(dyn, MPI_WIN_CREATE_FLAVOR, &flavor, &flag);
    CHECK(flag && *flavor == MPI_WIN_FLAVOR_DYNAMIC);
    int cell = -1;
    CHECK(MPI_Win_attach(dyn, &cell, sizeof cell) == MPI_SUCCESS);
    MPI_Aint addr, peer_addr;
    MPI_Get_address(&cell, &addr);
    int peer = (rank + 1) % size;
    MPI_Sendrecv(&addr, 1, MPI_AINT, (rank + size - 1) % size, 0, &peer_addr, 1, MPI_AINT,
                 peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Win_fence(0, dyn);
    int mine = rank;
    MPI_Put(&mine, 1, MPI_INT, peer, peer_addr, 1, MPI_INT, dyn);
    MPI_Win_fence(0, dyn);
    CHECK(cell == (rank + size - 1) % size);
    MPI_Win_detach(dyn, &cell);
    MPI_Win_free(&dyn);

    CHECK(MPI_Win_free(&win) == MPI_SUCCESS && win == MPI_WIN_NULL);
    MPI_Finalize();
    return CHECK_RESULT();
}
