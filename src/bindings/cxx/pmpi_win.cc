// PMPI:: one-sided communication: Win over the C PMPI_Win_ calls (its error handlers and keyvals,
// which call C++ functions, are in pmpi_callbacks.cc).
#include "cxx.h"

#define CHECK(call) mica_cxx_check(call)

PMPI::Win PMPI::Win::Create(const void* base, Aint size, int disp_unit, const Info& info,
                            const Intracomm& comm)
{
    MPI_Win win = MPI_WIN_NULL;
    CHECK(PMPI_Win_create(const_cast<void*>(base), size, disp_unit, info, comm, &win));
    return win;
}

void PMPI::Win::Free()
{
    CHECK(PMPI_Win_free(&mpi_win));
}

PMPI::Group PMPI::Win::Get_group() const
{
    MPI_Group group = MPI_GROUP_NULL;
    CHECK(PMPI_Win_get_group(mpi_win, &group));
    return group;
}

void PMPI::Win::Put(const void* origin_addr, int origin_count, const Datatype& origin_datatype,
                    int target_rank, Aint target_disp, int target_count,
                    const Datatype& target_datatype) const
{
    CHECK(PMPI_Put(origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                   target_count, target_datatype, mpi_win));
}

void PMPI::Win::Get(void* origin_addr, int origin_count, const Datatype& origin_datatype,
                    int target_rank, Aint target_disp, int target_count,
                    const Datatype& target_datatype) const
{
    CHECK(PMPI_Get(origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                   target_count, target_datatype, mpi_win));
}

void PMPI::Win::Accumulate(const void* origin_addr, int origin_count,
                           const Datatype& origin_datatype, int target_rank, Aint target_disp,
                           int target_count, const Datatype& target_datatype, const Op& op) const
{
    CHECK(PMPI_Accumulate(origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                          target_count, target_datatype, op, mpi_win));
}

void PMPI::Win::Fence(int assert) const
{
    CHECK(PMPI_Win_fence(assert, mpi_win));
}

void PMPI::Win::Start(const Group& group, int assert) const
{
    CHECK(PMPI_Win_start(group, assert, mpi_win));
}

void PMPI::Win::Complete() const
{
    CHECK(PMPI_Win_complete(mpi_win));
}

void PMPI::Win::Post(const Group& group, int assert) const
{
    CHECK(PMPI_Win_post(group, assert, mpi_win));
}

void PMPI::Win::Wait() const
{
    CHECK(PMPI_Win_wait(mpi_win));
}

bool PMPI::Win::Test() const
{
    int flag = 0;
    CHECK(PMPI_Win_test(mpi_win, &flag));
    return flag;
}

void PMPI::Win::Lock(int lock_type, int rank, int assert) const
{
    CHECK(PMPI_Win_lock(lock_type, rank, assert, mpi_win));
}

void PMPI::Win::Unlock(int rank) const
{
    CHECK(PMPI_Win_unlock(rank, mpi_win));
}

void PMPI::Win::Set_name(const char* win_name)
{
    CHECK(PMPI_Win_set_name(mpi_win, win_name));
}

void PMPI::Win::Get_name(char* win_name, int& resultlen) const
{
    CHECK(PMPI_Win_get_name(mpi_win, win_name, &resultlen));
}

void PMPI::Win::Set_errhandler(const Errhandler& errhandler)
{
    CHECK(PMPI_Win_set_errhandler(mpi_win, mica_cxx_to_c(errhandler, MICA_CXX_WIN)));
}

PMPI::Errhandler PMPI::Win::Get_errhandler() const
{
    MPI_Errhandler c = MPI_ERRHANDLER_NULL;
    CHECK(PMPI_Win_get_errhandler(mpi_win, &c));
    MPI_Errhandler h = mica_cxx_from_c(c);
    if (h != c)   // ERRORS_THROW_EXCEPTIONS is predefined in C++: no reference to hold
        PMPI_Errhandler_free(&c);
    return h;
}

void PMPI::Win::Call_errhandler(int errorcode) const
{
    mica_cxx_fail_win(mpi_win, errorcode);
}

void PMPI::Win::Free_keyval(int& win_keyval)
{
    CHECK(PMPI_Win_free_keyval(&win_keyval));
}

void PMPI::Win::Set_attr(int win_keyval, const void* attribute_val)
{
    CHECK(PMPI_Win_set_attr(mpi_win, win_keyval, const_cast<void*>(attribute_val)));
}

bool PMPI::Win::Get_attr(int win_keyval, void* attribute_val) const
{
    int flag = 0;
    CHECK(PMPI_Win_get_attr(mpi_win, win_keyval, attribute_val, &flag));
    return flag;
}

void PMPI::Win::Delete_attr(int win_keyval)
{
    CHECK(PMPI_Win_delete_attr(mpi_win, win_keyval));
}
