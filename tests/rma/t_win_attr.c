/* np: 2 */
/* Attributes on windows (issue 11: MPI_Win_create_keyval and its Fortran binding): a user
 * keyval's value is set, read back beside the predefined attributes, replaced and deleted (the
 * delete function runs each time, with the window), and MPI_Win_free deletes what is left;
 * a communicator keyval is refused on a window. */
#include <mpi.h>

#include "../check.h"

static int deletes;
static MPI_Win last_win;

static int delete_fn(MPI_Win win, int keyval, void *value, void *extra)
{
    (void)keyval, (void)value;
    CHECK(extra == (void *)&deletes);
    last_win = win;
    deletes++;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    int mem[4], key, ckey, flag, cls;
    void *v;
    MPI_Init(&argc, &argv);
    MPI_Win win;
    MPI_Win_create(mem, sizeof mem, sizeof *mem, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    CHECK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, delete_fn, &key, &deletes) ==
          MPI_SUCCESS);
    CHECK(MPI_Win_set_attr(win, key, (void *)11) == MPI_SUCCESS);
    CHECK(MPI_Win_get_attr(win, key, &v, &flag) == MPI_SUCCESS && flag && v == (void *)11);
    CHECK(MPI_Win_get_attr(win, MPI_WIN_BASE, &v, &flag) == MPI_SUCCESS && flag && v == mem);
    CHECK(MPI_Win_set_attr(win, key, (void *)12) == MPI_SUCCESS && deletes == 1 &&
          last_win == win);
    CHECK(MPI_Win_delete_attr(win, key) == MPI_SUCCESS && deletes == 2);
    CHECK(MPI_Win_get_attr(win, key, &v, &flag) == MPI_SUCCESS && !flag);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &ckey, NULL);
    MPI_Error_class(MPI_Win_set_attr(win, ckey, NULL), &cls);
    CHECK(cls == MPI_ERR_KEYVAL);
    MPI_Comm_free_keyval(&ckey);
    CHECK(MPI_Win_set_attr(win, key, (void *)13) == MPI_SUCCESS);
    CHECK(MPI_Win_free_keyval(&key) == MPI_SUCCESS && key == MPI_KEYVAL_INVALID);
    CHECK(MPI_Win_free(&win) == MPI_SUCCESS && deletes == 3);
    MPI_Finalize();
    return CHECK_RESULT();
}
