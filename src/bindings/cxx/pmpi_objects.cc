// PMPI:: datatypes, groups, reduction operations, info objects and error handlers over the C
// PMPI_ calls.
#include <array>
#include <mutex>
#include <utility>

#include "cxx.h"

#define CHECK(call) mica_cxx_check(call)

// ---- Datatype -------------------------------------------------------------------------------
PMPI::Datatype PMPI::Datatype::Create_contiguous(int count) const
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    CHECK(PMPI_Type_contiguous(count, mpi_datatype, &t));
    return t;
}

PMPI::Datatype PMPI::Datatype::Create_vector(int count, int blocklength, int stride) const
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    CHECK(PMPI_Type_vector(count, blocklength, stride, mpi_datatype, &t));
    return t;
}

PMPI::Datatype PMPI::Datatype::Create_indexed(int count, const int array_of_blocklengths[],
                                              const int array_of_displacements[]) const
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    CHECK(PMPI_Type_indexed(count, array_of_blocklengths, array_of_displacements, mpi_datatype, &t));
    return t;
}

PMPI::Datatype PMPI::Datatype::Create_resized(const Aint lb, const Aint extent) const
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    CHECK(PMPI_Type_create_resized(mpi_datatype, lb, extent, &t));
    return t;
}

PMPI::Datatype PMPI::Datatype::Create_struct(int count, const int array_of_blocklengths[],
                                             const Aint array_of_displacements[],
                                             const Datatype array_of_types[])
{
    static_assert(sizeof(Datatype) == sizeof(MPI_Datatype), "Datatype arrays are C arrays");
    MPI_Datatype t = MPI_DATATYPE_NULL;
    CHECK(PMPI_Type_create_struct(count, array_of_blocklengths, array_of_displacements,
                                  reinterpret_cast<const MPI_Datatype*>(array_of_types), &t));
    return t;
}

PMPI::Datatype PMPI::Datatype::Dup() const
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    CHECK(PMPI_Type_dup(mpi_datatype, &t));
    return t;
}

void PMPI::Datatype::Commit()
{
    CHECK(PMPI_Type_commit(&mpi_datatype));
}

void PMPI::Datatype::Free()
{
    CHECK(PMPI_Type_free(&mpi_datatype));
}

int PMPI::Datatype::Get_size() const
{
    int size = 0;
    CHECK(PMPI_Type_size(mpi_datatype, &size));
    return size;
}

void PMPI::Datatype::Get_extent(Aint& lb, Aint& extent) const
{
    CHECK(PMPI_Type_get_extent(mpi_datatype, &lb, &extent));
}

// ---- Group ----------------------------------------------------------------------------------
int PMPI::Group::Get_size() const
{
    int size = 0;
    CHECK(PMPI_Group_size(mpi_group, &size));
    return size;
}

int PMPI::Group::Get_rank() const
{
    int rank = MPI_UNDEFINED;
    CHECK(PMPI_Group_rank(mpi_group, &rank));
    return rank;
}

PMPI::Group PMPI::Group::Incl(int n, const int ranks[]) const
{
    MPI_Group g = MPI_GROUP_NULL;
    CHECK(PMPI_Group_incl(mpi_group, n, ranks, &g));
    return g;
}

PMPI::Group PMPI::Group::Excl(int n, const int ranks[]) const
{
    MPI_Group g = MPI_GROUP_NULL;
    CHECK(PMPI_Group_excl(mpi_group, n, ranks, &g));
    return g;
}

void PMPI::Group::Free()
{
    CHECK(PMPI_Group_free(&mpi_group));
}

void PMPI::Group::Translate_ranks(const Group& group1, int n, const int ranks1[],
                                  const Group& group2, int ranks2[])
{
    CHECK(PMPI_Group_translate_ranks(group1.mpi_group, n, ranks1, group2.mpi_group, ranks2));
}

int PMPI::Group::Compare(const Group& group1, const Group& group2)
{
    int result = MPI_UNEQUAL;
    CHECK(PMPI_Group_compare(group1.mpi_group, group2.mpi_group, &result));
    return result;
}

PMPI::Group PMPI::Group::Union(const Group& group1, const Group& group2)
{
    MPI_Group g = MPI_GROUP_NULL;
    CHECK(PMPI_Group_union(group1.mpi_group, group2.mpi_group, &g));
    return g;
}

PMPI::Group PMPI::Group::Intersect(const Group& group1, const Group& group2)
{
    MPI_Group g = MPI_GROUP_NULL;
    CHECK(PMPI_Group_intersection(group1.mpi_group, group2.mpi_group, &g));
    return g;
}

PMPI::Group PMPI::Group::Difference(const Group& group1, const Group& group2)
{
    MPI_Group g = MPI_GROUP_NULL;
    CHECK(PMPI_Group_difference(group1.mpi_group, group2.mpi_group, &g));
    return g;
}

// ---- Op: C++ user functions behind C trampolines ---------------------------------------------
// The C library calls an MPI_User_function with (invec, inoutvec, &len, &datatype) and no op,
// so each live C++ operation gets a slot with a trampoline of its own that knows the C++
// function. The slots bound how many user operations exist at once.
namespace {
const int OP_SLOTS = 64;
struct OpSlot {
    PMPI::User_function* pmpi_fn;
    MPI::User_function* mpi_fn;
    MPI_Op op;
};
OpSlot op_slots[OP_SLOTS];
std::mutex op_lock;

template <int I> void trampoline(void* invec, void* inoutvec, int* len, MPI_Datatype* datatype)
{
    const OpSlot& s = op_slots[I];
    if (s.mpi_fn)
        s.mpi_fn(invec, inoutvec, *len, MPI::Datatype(*datatype));
    else
        s.pmpi_fn(invec, inoutvec, *len, PMPI::Datatype(*datatype));
}

template <int... I>
std::array<MPI_User_function*, sizeof...(I)> trampolines(std::integer_sequence<int, I...>)
{
    return {{&trampoline<I>...}};
}
const std::array<MPI_User_function*, OP_SLOTS> op_trampolines =
    trampolines(std::make_integer_sequence<int, OP_SLOTS>());

MPI_Op create_op(PMPI::User_function* pfn, MPI::User_function* mfn, bool commute)
{
    std::lock_guard<std::mutex> hold(op_lock);
    for (int i = 0; i < OP_SLOTS; i++) {
        OpSlot& s = op_slots[i];
        if (s.pmpi_fn || s.mpi_fn)
            continue;
        MPI_Op op = MPI_OP_NULL;
        int rc = PMPI_Op_create(op_trampolines[i], commute, &op);
        if (rc != MPI_SUCCESS)
            return mica_cxx_check(rc), MPI_OP_NULL;
        s.pmpi_fn = pfn, s.mpi_fn = mfn, s.op = op;
        return op;
    }
    mica_cxx_fail(MPI_COMM_SELF, MPI_ERR_INTERN);   // more live user operations than slots
    return MPI_OP_NULL;
}
}  // namespace

void PMPI::Op::Init(User_function* function, bool commute)
{
    mpi_op = create_op(function, nullptr, commute);
}

void PMPI::Op::Init(MPI::User_function* function, bool commute)
{
    mpi_op = create_op(nullptr, function, commute);
}

void PMPI::Op::Free()
{
    MPI_Op op = mpi_op;
    CHECK(PMPI_Op_free(&mpi_op));
    std::lock_guard<std::mutex> hold(op_lock);
    for (OpSlot& s : op_slots)
        if ((s.pmpi_fn || s.mpi_fn) && s.op == op)
            s = OpSlot();
}

bool PMPI::Op::Is_commutative() const
{
    int commute = 0;
    CHECK(PMPI_Op_commutative(mpi_op, &commute));
    return commute;
}

// ---- Info -----------------------------------------------------------------------------------
PMPI::Info PMPI::Info::Create()
{
    MPI_Info info = MPI_INFO_NULL;
    CHECK(PMPI_Info_create(&info));
    return info;
}

void PMPI::Info::Set(const char* key, const char* value) const
{
    CHECK(PMPI_Info_set(mpi_info, key, value));
}

bool PMPI::Info::Get(const char* key, int valuelen, char* value) const
{
    int flag = 0;
    CHECK(PMPI_Info_get(mpi_info, key, valuelen, value, &flag));
    return flag;
}

int PMPI::Info::Get_nkeys() const
{
    int nkeys = 0;
    CHECK(PMPI_Info_get_nkeys(mpi_info, &nkeys));
    return nkeys;
}

void PMPI::Info::Get_nthkey(int n, char* key) const
{
    CHECK(PMPI_Info_get_nthkey(mpi_info, n, key));
}

void PMPI::Info::Delete(const char* key) const
{
    CHECK(PMPI_Info_delete(mpi_info, key));
}

PMPI::Info PMPI::Info::Dup() const
{
    MPI_Info info = MPI_INFO_NULL;
    CHECK(PMPI_Info_dup(mpi_info, &info));
    return info;
}

void PMPI::Info::Free()
{
    CHECK(PMPI_Info_free(&mpi_info));
}

// ---- Errhandler -----------------------------------------------------------------------------
void PMPI::Errhandler::Free()
{
    if (mpi_errhandler == mica_cxx_throw_handle()) {   // predefined in C++, nothing to free in C
        mica_cxx_fail(MPI_COMM_SELF, MPI_ERR_ERRHANDLER);
        return;
    }
    CHECK(PMPI_Errhandler_free(&mpi_errhandler));
}

// ---- Datatype: MPI-2.2's additions ------------------------------------------------------------
PMPI::Datatype PMPI::Datatype::Create_hvector(int count, int blocklength, Aint stride) const
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    CHECK(PMPI_Type_create_hvector(count, blocklength, stride, mpi_datatype, &t));
    return t;
}

PMPI::Datatype PMPI::Datatype::Create_hindexed(int count, const int array_of_blocklengths[],
                                               const Aint array_of_displacements[]) const
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    CHECK(PMPI_Type_create_hindexed(count, array_of_blocklengths, array_of_displacements,
                                    mpi_datatype, &t));
    return t;
}

PMPI::Datatype PMPI::Datatype::Create_indexed_block(int count, int blocklength,
                                                    const int array_of_displacements[]) const
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    CHECK(PMPI_Type_create_indexed_block(count, blocklength, array_of_displacements, mpi_datatype,
                                         &t));
    return t;
}

PMPI::Datatype PMPI::Datatype::Create_subarray(int ndims, const int array_of_sizes[],
                                               const int array_of_subsizes[],
                                               const int array_of_starts[], int order) const
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    CHECK(PMPI_Type_create_subarray(ndims, array_of_sizes, array_of_subsizes, array_of_starts,
                                    order, mpi_datatype, &t));
    return t;
}

PMPI::Datatype PMPI::Datatype::Create_darray(int size, int rank, int ndims,
                                             const int array_of_gsizes[],
                                             const int array_of_distribs[],
                                             const int array_of_dargs[],
                                             const int array_of_psizes[], int order) const
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    CHECK(PMPI_Type_create_darray(size, rank, ndims, array_of_gsizes, array_of_distribs,
                                  array_of_dargs, array_of_psizes, order, mpi_datatype, &t));
    return t;
}

PMPI::Datatype PMPI::Datatype::Create_f90_integer(int r)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    CHECK(PMPI_Type_create_f90_integer(r, &t));
    return t;
}

PMPI::Datatype PMPI::Datatype::Create_f90_real(int p, int r)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    CHECK(PMPI_Type_create_f90_real(p, r, &t));
    return t;
}

PMPI::Datatype PMPI::Datatype::Create_f90_complex(int p, int r)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    CHECK(PMPI_Type_create_f90_complex(p, r, &t));
    return t;
}

PMPI::Datatype PMPI::Datatype::Match_size(int typeclass, int size)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    CHECK(PMPI_Type_match_size(typeclass, size, &t));
    return t;
}

void PMPI::Datatype::Get_true_extent(Aint& true_lb, Aint& true_extent) const
{
    CHECK(PMPI_Type_get_true_extent(mpi_datatype, &true_lb, &true_extent));
}

void PMPI::Datatype::Get_envelope(int& num_integers, int& num_addresses, int& num_datatypes,
                                  int& combiner) const
{
    CHECK(PMPI_Type_get_envelope(mpi_datatype, &num_integers, &num_addresses, &num_datatypes,
                                 &combiner));
}

void PMPI::Datatype::Get_contents(int max_integers, int max_addresses, int max_datatypes,
                                  int array_of_integers[], Aint array_of_addresses[],
                                  Datatype array_of_datatypes[]) const
{
    CHECK(PMPI_Type_get_contents(mpi_datatype, max_integers, max_addresses, max_datatypes,
                                 array_of_integers, array_of_addresses,
                                 reinterpret_cast<MPI_Datatype*>(array_of_datatypes)));
}

void PMPI::Datatype::Pack(const void* inbuf, int incount, void* outbuf, int outsize,
                          int& position, const Comm& comm) const
{
    CHECK(PMPI_Pack(inbuf, incount, mpi_datatype, outbuf, outsize, &position, comm));
}

void PMPI::Datatype::Unpack(const void* inbuf, int insize, void* outbuf, int outcount,
                            int& position, const Comm& comm) const
{
    CHECK(PMPI_Unpack(inbuf, insize, &position, outbuf, outcount, mpi_datatype, comm));
}

int PMPI::Datatype::Pack_size(int incount, const Comm& comm) const
{
    int size = 0;
    CHECK(PMPI_Pack_size(incount, mpi_datatype, comm, &size));
    return size;
}

void PMPI::Datatype::Pack_external(const char* datarep, const void* inbuf, int incount,
                                   void* outbuf, Aint outsize, Aint& position) const
{
    CHECK(PMPI_Pack_external(datarep, inbuf, incount, mpi_datatype, outbuf, outsize, &position));
}

void PMPI::Datatype::Unpack_external(const char* datarep, const void* inbuf, Aint insize,
                                     Aint& position, void* outbuf, int outcount) const
{
    CHECK(PMPI_Unpack_external(datarep, inbuf, insize, &position, outbuf, outcount,
                               mpi_datatype));
}

PMPI::Aint PMPI::Datatype::Pack_external_size(const char* datarep, int incount) const
{
    MPI_Aint size = 0;
    CHECK(PMPI_Pack_external_size(datarep, incount, mpi_datatype, &size));
    return size;
}

void PMPI::Datatype::Set_name(const char* type_name)
{
    CHECK(PMPI_Type_set_name(mpi_datatype, type_name));
}

void PMPI::Datatype::Get_name(char* type_name, int& resultlen) const
{
    CHECK(PMPI_Type_get_name(mpi_datatype, type_name, &resultlen));
}

void PMPI::Datatype::Free_keyval(int& type_keyval)
{
    CHECK(PMPI_Type_free_keyval(&type_keyval));
}

void PMPI::Datatype::Set_attr(int type_keyval, const void* attribute_val)
{
    CHECK(PMPI_Type_set_attr(mpi_datatype, type_keyval, const_cast<void*>(attribute_val)));
}

bool PMPI::Datatype::Get_attr(int type_keyval, void* attribute_val) const
{
    int flag = 0;
    CHECK(PMPI_Type_get_attr(mpi_datatype, type_keyval, attribute_val, &flag));
    return flag;
}

void PMPI::Datatype::Delete_attr(int type_keyval)
{
    CHECK(PMPI_Type_delete_attr(mpi_datatype, type_keyval));
}

// ---- Group, Op, Info: MPI-2.2's additions -----------------------------------------------------
PMPI::Group PMPI::Group::Range_incl(int n, const int ranges[][3]) const
{
    MPI_Group g = MPI_GROUP_NULL;
    CHECK(PMPI_Group_range_incl(mpi_group, n, const_cast<int(*)[3]>(ranges), &g));
    return g;
}

PMPI::Group PMPI::Group::Range_excl(int n, const int ranges[][3]) const
{
    MPI_Group g = MPI_GROUP_NULL;
    CHECK(PMPI_Group_range_excl(mpi_group, n, const_cast<int(*)[3]>(ranges), &g));
    return g;
}

void PMPI::Op::Reduce_local(const void* inbuf, void* inoutbuf, int count,
                            const Datatype& datatype) const
{
    CHECK(PMPI_Reduce_local(inbuf, inoutbuf, count, datatype, mpi_op));
}

bool PMPI::Info::Get_valuelen(const char* key, int& valuelen) const
{
    int flag = 0;
    CHECK(PMPI_Info_get_valuelen(mpi_info, key, &valuelen, &flag));
    return flag;
}
