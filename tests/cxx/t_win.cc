// np: 1 2 4
// MPI::Win: Create, Put/Get/Accumulate between fences, Lock/Unlock, Post/Start/Complete/Wait,
// Get_group, names; window keyvals whose C++ copy/delete functions get the MPI::Win (the delete
// runs at Free); a C++ error handler (Win::Create_errhandler) called by Call_errhandler with the
// window and the code; ERRORS_THROW_EXCEPTIONS on a window throws MPI::Exception.
#include <mpi.h>
#include <string.h>

#include "../check.h"

static int deleted, handled, handled_code;
static MPI::Win* expected_win;

static int win_delete(MPI::Win& win, int keyval, void* value, void* extra)
{
    CHECK(win == *expected_win);
    CHECK(extra == &deleted);
    CHECK(keyval >= 0);
    deleted += *static_cast<int*>(value);
    return MPI::SUCCESS;
}

static void win_handler(MPI::Win& win, int* code, ...)
{
    CHECK(win == *expected_win);
    handled++;
    handled_code = *code;
}

int main()
{
    MPI::Init();
    MPI::Intracomm world = MPI::COMM_WORLD;
    int rank = world.Get_rank(), size = world.Get_size();
    int buf[8] = {0};
    MPI::Win win = MPI::Win::Create(buf, sizeof buf, sizeof(int), MPI::INFO_NULL, world);
    expected_win = &win;

    // Fence epoch: each rank puts its rank into slot 0 of its right neighbour, gets slot 1 of the
    // left one (set before the fence), accumulates 1 into slot 2 of everyone.
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    buf[1] = 100 + rank;
    world.Barrier();
    win.Fence(0);
    int got = -1, one = 1;
    win.Put(&rank, 1, MPI::INT, right, 0, 1, MPI::INT);
    win.Get(&got, 1, MPI::INT, left, 1, 1, MPI::INT);
    for (int r = 0; r < size; r++)
        win.Accumulate(&one, 1, MPI::INT, r, 2, 1, MPI::INT, MPI::SUM);
    win.Fence(0);
    CHECKF(buf[0] == left, "put: %d, want %d", buf[0], left);
    CHECKF(got == 100 + left, "get: %d, want %d", got, 100 + left);
    CHECKF(buf[2] == size, "accumulate: %d, want %d", buf[2], size);

    // Passive target: lock the right neighbour and write slot 3.
    win.Lock(MPI::LOCK_EXCLUSIVE, right, 0);
    int v = 1000 + rank;
    win.Put(&v, 1, MPI::INT, right, 3, 1, MPI::INT);
    win.Unlock(right);
    world.Barrier();
    win.Lock(MPI::LOCK_SHARED, rank, 0);
    CHECKF(buf[3] == 1000 + left, "lock/put: %d", buf[3]);
    win.Unlock(rank);

    // General active target with the whole group.
    MPI::Group g = win.Get_group();
    CHECK(g.Get_size() == size);
    MPI::Group wg = world.Get_group();
    CHECK(MPI::Group::Compare(g, wg) == MPI::IDENT);
    wg.Free();
    win.Post(g, 0);
    win.Start(g, 0);
    win.Put(&rank, 1, MPI::INT, right, 4, 1, MPI::INT);
    win.Complete();
    win.Wait();
    CHECK(buf[4] == left);
    g.Free();

    char name[MPI::MAX_OBJECT_NAME];
    int len = 0;
    win.Set_name("cxx window");
    win.Get_name(name, len);
    CHECK(strcmp(name, "cxx window") == 0 && len == 10);

    // Keyvals with C++ functions; the predefined ones.
    int keyval = MPI::Win::Create_keyval(MPI::Win::NULL_COPY_FN, win_delete, &deleted);
    int value = 7, *p = 0;
    win.Set_attr(keyval, &value);
    CHECK(win.Get_attr(keyval, &p) && p == &value);
    win.Delete_attr(keyval);
    CHECK(deleted == 7);
    CHECK(!win.Get_attr(keyval, &p));
    win.Set_attr(keyval, &value);
    int keyval2 = MPI::Win::Create_keyval(MPI::Win::NULL_COPY_FN, MPI::Win::NULL_DELETE_FN, 0);
    win.Set_attr(keyval2, &value);
    MPI::Aint* base = 0;
    CHECK(win.Get_attr(MPI::WIN_BASE, &base) && static_cast<void*>(base) == buf);

    // A C++ error handler.
    MPI::Errhandler eh = MPI::Win::Create_errhandler(win_handler);
    win.Set_errhandler(eh);
    eh.Free();
    win.Call_errhandler(MPI::ERR_OTHER);
    CHECK(handled == 1 && handled_code == MPI::ERR_OTHER);
    win.Put(&v, 1, MPI::INT, size + 3, 0, 1, MPI::INT);   // bad rank, outside an epoch
    CHECKF(handled == 2, "handled %d", handled);

    // ERRORS_THROW_EXCEPTIONS.
    win.Set_errhandler(MPI::ERRORS_THROW_EXCEPTIONS);
    CHECK(win.Get_errhandler() == MPI::ERRORS_THROW_EXCEPTIONS);
    bool thrown = false;
    try {
        win.Fence(0);
        win.Put(&v, 1, MPI::INT, size + 3, 0, 1, MPI::INT);
    } catch (MPI::Exception& e) {
        thrown = true;
        CHECKF(e.Get_error_class() == MPI::ERR_RANK, "class %d", e.Get_error_class());
    }
    CHECK(thrown);
    win.Fence(0);

    win.Free();
    CHECK(deleted == 14);   // the attribute left on it was deleted with it
    CHECK(win == MPI::WIN_NULL);
    MPI::Win::Free_keyval(keyval);
    MPI::Win::Free_keyval(keyval2);
    CHECK(keyval == MPI::KEYVAL_INVALID);
    MPI::Finalize();
    return CHECK_RESULT();
}
