/* np: 2 */
/* Issue 11's single causes, each a point of the standard or of what MPICH's test suite expects:
 * a keyval freed again (through a copy of its id, or in its own delete callback) while
 * attributes keep it alive is accepted; MPI_Win_lock and MPI_Win_unlock of MPI_PROC_NULL do
 * nothing and succeed; a lock may follow a fence after which no RMA call was made (the fence
 * epoch is one only if RMA calls follow), and not one after which a call was made;
 * process-set names are compared ignoring case. */
#include <mpi.h>

#include "../check.h"

static int deletes;

static int delete_fn(MPI_Comm comm, int keyval, void *attr, void *extra)
{
    (void)comm, (void)attr, (void)extra;
    deletes++;
    return MPI_Comm_free_keyval(&keyval);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm dup;
    int key, copy;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_fn, &key, NULL);
    copy = key;
    CHECK(MPI_Comm_set_attr(MPI_COMM_WORLD, key, NULL) == MPI_SUCCESS);
    CHECK(MPI_Comm_set_attr(dup, key, NULL) == MPI_SUCCESS);
    CHECK(MPI_Comm_free(&dup) == MPI_SUCCESS);           /* frees the keyval in the callback */
    CHECK(MPI_Comm_free_keyval(&key) == MPI_SUCCESS && key == MPI_KEYVAL_INVALID);
    CHECK(MPI_Comm_free_keyval(&copy) == MPI_SUCCESS);
    CHECK(deletes == 1);                                 /* MPI_COMM_WORLD's lives on */

    MPI_Win win;
    int mem = 0;
    MPI_Win_create(&mem, sizeof mem, sizeof mem, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    CHECK(MPI_Win_lock(MPI_LOCK_SHARED, MPI_PROC_NULL, 0, win) == MPI_SUCCESS);
    CHECK(MPI_Win_unlock(MPI_PROC_NULL, win) == MPI_SUCCESS);
    int rank, one = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_fence(0, win);
    CHECK(MPI_Win_lock(MPI_LOCK_SHARED, 1 - rank, 0, win) == MPI_SUCCESS);
    CHECK(MPI_Put(&one, 1, MPI_INT, 1 - rank, 0, 1, MPI_INT, win) == MPI_SUCCESS);
    CHECK(MPI_Win_unlock(1 - rank, win) == MPI_SUCCESS);
    MPI_Win_fence(0, win);
    CHECK(MPI_Put(&one, 1, MPI_INT, 1 - rank, 0, 1, MPI_INT, win) == MPI_SUCCESS);
    int cls = -1;
    MPI_Error_class(MPI_Win_lock(MPI_LOCK_SHARED, 1 - rank, 0, win), &cls);
    CHECK(cls == MPI_ERR_RMA_SYNC);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    CHECK(mem == 1);
    MPI_Win_free(&win);

    MPI_Session s;
    MPI_Group g;
    int size = 0, world;
    MPI_Comm_size(MPI_COMM_WORLD, &world);
    MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s);
    CHECK(MPI_Group_from_session_pset(s, "MPI://world", &g) == MPI_SUCCESS);
    MPI_Group_size(g, &size);
    CHECK(size == world);
    MPI_Group_free(&g);
    MPI_Session_finalize(&s);
    MPI_Finalize();
    return CHECK_RESULT();
}
