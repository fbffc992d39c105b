// np: 1 2
// Attribute caching in C++: Comm and Datatype keyvals whose copy and delete functions are C++
// functions called with MPI:: objects (copy at Dup decides by its bool flag, delete at
// Delete_attr, at replacement and at Free); the predefined NULL_COPY_FN, DUP_FN,
// NULL_DELETE_FN; Free_keyval; the predefined attributes (TAG_UB).
#include <mpi.h>

#include "../check.h"

static int copies, deletes;
static MPI::Comm* copied_from;

static int comm_copy(const MPI::Comm& oldcomm, int, void* extra, void* in, void* out, bool& flag)
{
    CHECK(oldcomm == *copied_from);
    CHECK(extra == &copies);
    copies++;
    *static_cast<void**>(out) = static_cast<int*>(in) + 1;   // the copy is the next int
    flag = true;
    return MPI::SUCCESS;
}

static int comm_delete(MPI::Comm& comm, int, void*, void*)
{
    CHECK(comm != MPI::COMM_NULL);
    deletes++;
    return MPI::SUCCESS;
}

static int type_copy(const MPI::Datatype&, int, void*, void*, void*, bool& flag)
{
    flag = false;   // not copied
    copies++;
    return MPI::SUCCESS;
}

static int type_delete(MPI::Datatype&, int, void*, void*)
{
    deletes++;
    return MPI::SUCCESS;
}

int main()
{
    MPI::Init();
    MPI::Intracomm world = MPI::COMM_WORLD;
    int vals[4] = {10, 11, 12, 13}, *p = 0;

    int* tag_ub = 0;
    CHECK(world.Get_attr(MPI::TAG_UB, &tag_ub) && *tag_ub >= 32767);

    int kv = MPI::Comm::Create_keyval(comm_copy, comm_delete, &copies);
    world.Set_attr(kv, &vals[0]);
    CHECK(world.Get_attr(kv, &p) && p == &vals[0]);
    copied_from = &world;
    MPI::Intracomm dup = world.Dup();
    CHECK(copies == 1);
    CHECK(dup.Get_attr(kv, &p) && p == &vals[1]);
    dup.Set_attr(kv, &vals[2]);   // replaces: the old value is deleted
    CHECK(deletes == 1);
    dup.Free();
    CHECK(deletes == 2);
    world.Delete_attr(kv);
    CHECK(deletes == 3);
    CHECK(!world.Get_attr(kv, &p));

    // Clone copies attributes too, and keeps the class.
    world.Set_attr(kv, &vals[0]);
    MPI::Intracomm& clone = world.Clone();
    CHECK(copies == 2);
    CHECK(clone.Get_attr(kv, &p) && p == &vals[1]);
    CHECK(MPI::Comm::Compare(clone, world) == MPI::CONGRUENT);
    clone.Free();
    delete &clone;
    CHECK(deletes == 4);
    world.Delete_attr(kv);
    MPI::Comm::Free_keyval(kv);
    CHECK(kv == MPI::KEYVAL_INVALID);

    // The predefined functions.
    int dupkv = MPI::Comm::Create_keyval(MPI::Comm::DUP_FN, MPI::Comm::NULL_DELETE_FN, 0);
    int nullkv = MPI::Comm::Create_keyval(MPI::Comm::NULL_COPY_FN, MPI::Comm::NULL_DELETE_FN, 0);
    world.Set_attr(dupkv, &vals[3]);
    world.Set_attr(nullkv, &vals[3]);
    MPI::Intracomm d2 = world.Dup();
    CHECK(d2.Get_attr(dupkv, &p) && p == &vals[3]);
    CHECK(!d2.Get_attr(nullkv, &p));
    d2.Free();
    world.Delete_attr(dupkv);
    world.Delete_attr(nullkv);
    MPI::Comm::Free_keyval(dupkv);
    MPI::Comm::Free_keyval(nullkv);

    // Datatype keyvals.
    copies = deletes = 0;
    int tkv = MPI::Datatype::Create_keyval(type_copy, type_delete, 0);
    MPI::Datatype t = MPI::INT.Dup();
    t.Set_attr(tkv, &vals[0]);
    CHECK(t.Get_attr(tkv, &p) && p == &vals[0]);
    MPI::Datatype t2 = t.Dup();
    CHECK(copies == 1);
    CHECK(!t2.Get_attr(tkv, &p));
    t2.Free();
    t.Free();
    CHECK(deletes == 1);
    MPI::Datatype::Free_keyval(tkv);

    int tdup = MPI::Datatype::Create_keyval(MPI::Datatype::DUP_FN, MPI::Datatype::NULL_DELETE_FN,
                                            0);
    MPI::Datatype t3 = MPI::DOUBLE.Dup();
    t3.Set_attr(tdup, &vals[2]);
    MPI::Datatype t4 = t3.Dup();
    CHECK(t4.Get_attr(tdup, &p) && p == &vals[2]);
    t4.Free();
    t3.Free();
    MPI::Datatype::Free_keyval(tdup);
    MPI::Finalize();
    return CHECK_RESULT();
}
