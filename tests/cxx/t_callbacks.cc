// np: 1 2 4
// The rest of MPI-2.2's C++ binding: a C++ error handler (Comm::Create_errhandler) called with
// the communicator and the code, by Call_errhandler and by a failing call; a user Op with
// Reduce_local and Is_commutative; a generalized request whose query/free/cancel functions are
// C++ functions receiving MPI::Status; Status setters; Request::Get_status, Waitsome, Testsome;
// Datatype envelope/contents, names, Pack/Unpack; Info::Get_valuelen; Group ranges; user error
// classes, codes and strings; Get_address, Alloc_mem; a distributed graph.
#include <mpi.h>
#include <string.h>

#include "../check.h"

static int handled, handled_code;
static MPI::Comm* handler_comm;

static void comm_handler(MPI::Comm& comm, int* code, ...)
{
    CHECK(comm == *handler_comm);
    handled++;
    handled_code = *code;
}

static void prod(const void* in, void* inout, int len, const MPI::Datatype& type)
{
    CHECK(type == MPI::INT);
    for (int i = 0; i < len; i++)
        static_cast<int*>(inout)[i] *= static_cast<const int*>(in)[i];
}

static int queried, freed, cancelled;
static int gq(void* extra, MPI::Status& status)
{
    CHECK(extra == &queried);
    queried++;
    status.Set_source(3);
    status.Set_tag(4);
    status.Set_elements(MPI::INT, 5);
    status.Set_cancelled(false);
    return MPI::SUCCESS;
}
static int gf(void*)
{
    freed++;
    return MPI::SUCCESS;
}
static int gc(void*, bool)
{
    cancelled++;
    return MPI::SUCCESS;
}

int main()
{
    MPI::Init();
    MPI::Intracomm world = MPI::COMM_WORLD;
    int rank = world.Get_rank(), size = world.Get_size();

    // A C++ error handler.
    MPI::Intracomm comm = world.Dup();
    handler_comm = &comm;
    MPI::Errhandler eh = MPI::Comm::Create_errhandler(comm_handler);
    comm.Set_errhandler(eh);
    CHECK(comm.Get_errhandler() == eh);
    eh.Free();
    comm.Call_errhandler(MPI::ERR_ARG);
    CHECK(handled == 1 && handled_code == MPI::ERR_ARG);
    int x = 0;
    comm.Send(&x, 1, MPI::INT, size + 2, 0);   // bad rank: the handler returns, so does Send
    CHECK(handled == 2 && MPI::Get_error_class(handled_code) == MPI::ERR_RANK);
    comm.Free();

    // A user operation.
    MPI::Op op;
    op.Init(prod, true);
    CHECK(op.Is_commutative());
    CHECK(!MPI::REPLACE.Is_commutative() || MPI::SUM.Is_commutative());
    int a[3] = {2, 3, 4}, b[3] = {5, 6, 7};
    op.Reduce_local(a, b, 3, MPI::INT);
    CHECK(b[0] == 10 && b[1] == 18 && b[2] == 28);
    MPI::SUM.Reduce_local(a, b, 3, MPI::INT);
    CHECK(b[0] == 12 && b[2] == 32);
    int v = rank + 1, p = 0, fact = 1;
    for (int i = 1; i <= size; i++)
        fact *= i;
    world.Allreduce(&v, &p, 1, MPI::INT, op);
    CHECKF(p == fact, "product %d", p);
    op.Free();

    // A generalized request.
    MPI::Grequest g = MPI::Grequest::Start(gq, gf, gc, &queried);
    CHECK(!g.Get_status());
    g.Cancel();
    CHECK(cancelled == 1);
    g.Complete();
    MPI::Status st;
    CHECK(g.Get_status(st) && queried == 1);
    g.Wait(st);
    CHECK(freed == 1 && g == MPI::REQUEST_NULL);
    CHECK(st.Get_source() == 3 && st.Get_tag() == 4 && st.Get_elements(MPI::INT) == 5);
    CHECK(!st.Is_cancelled());

    // Waitsome / Testsome.
    MPI::Request reqs[2];
    int in[2] = {-1, -1}, idx[2];
    reqs[0] = world.Irecv(&in[0], 1, MPI::INT, rank, 1);
    reqs[1] = world.Irecv(&in[1], 1, MPI::INT, rank, 2);
    world.Send(&rank, 1, MPI::INT, rank, 2);
    MPI::Status sts[2];
    int n = MPI::Request::Waitsome(2, reqs, idx, sts);
    CHECK(n == 1 && idx[0] == 1 && in[1] == rank && sts[0].Get_tag() == 2);
    world.Send(&rank, 1, MPI::INT, rank, 1);
    n = 0;
    while (n == 0)
        n = MPI::Request::Testsome(2, reqs, idx);
    CHECK(n == 1 && idx[0] == 0 && in[0] == rank);
    CHECK(MPI::Request::Testsome(2, reqs, idx) == MPI::UNDEFINED);

    // Datatypes: envelope, contents, names, packing.
    MPI::Datatype vec = MPI::INT.Create_vector(2, 1, 3);
    int ni, na, nd, comb;
    vec.Get_envelope(ni, na, nd, comb);
    CHECK(comb == MPI::COMBINER_VECTOR && ni == 3 && na == 0 && nd == 1);
    int ints[3];
    MPI::Aint addrs[1];
    MPI::Datatype types[1];
    vec.Get_contents(3, 0, 1, ints, addrs, types);
    CHECK(ints[0] == 2 && ints[1] == 1 && ints[2] == 3 && types[0] == MPI::INT);
    MPI::INT.Get_envelope(ni, na, nd, comb);
    CHECK(comb == MPI::COMBINER_NAMED);
    vec.Set_name("vec");
    char name[MPI::MAX_OBJECT_NAME];
    int len;
    vec.Get_name(name, len);
    CHECK(strcmp(name, "vec") == 0 && len == 3);
    MPI::INT.Get_name(name, len);
    CHECK(strcmp(name, "MPI_INT") == 0);
    MPI::INT.Set_name("int");   // predefined datatypes may be renamed
    MPI::INT.Get_name(name, len);
    CHECK(strcmp(name, "int") == 0);
    MPI::INT.Set_name("MPI_INT");
    vec.Commit();
    int src[4] = {1, 2, 3, 4}, dst[4] = {0, 0, 0, 0};
    char packed[64];
    int pos = 0;
    CHECK(vec.Pack_size(1, world) <= (int)sizeof packed);
    vec.Pack(src, 1, packed, sizeof packed, pos, world);
    CHECK(pos == 2 * (int)sizeof(int));
    pos = 0;
    MPI::INT.Unpack(packed, sizeof packed, dst, 2, pos, world);
    CHECK(dst[0] == 1 && dst[1] == 4);
    MPI::Aint lb, ext;
    vec.Get_true_extent(lb, ext);
    CHECK(lb == 0 && ext == 4 * (MPI::Aint)sizeof(int));
    vec.Free();

    // Info::Get_valuelen.
    MPI::Info info = MPI::Info::Create();
    info.Set("key", "value");
    int vlen = 0;
    CHECK(info.Get_valuelen("key", vlen) && vlen == 5);
    CHECK(!info.Get_valuelen("nokey", vlen));
    info.Free();

    // Group ranges.
    int ranges[1][3] = {{0, size - 1, 2}};
    MPI::Group wg = world.Get_group();
    MPI::Group evens = wg.Range_incl(1, ranges), odds = wg.Range_excl(1, ranges);
    CHECK(evens.Get_size() == (size + 1) / 2 && odds.Get_size() == size / 2);
    evens.Free();
    odds.Free();
    wg.Free();

    // User error classes, codes, strings.
    int cls = MPI::Add_error_class();
    int code = MPI::Add_error_code(cls);
    MPI::Add_error_string(code, "a C++ error");
    char msg[MPI::MAX_ERROR_STRING];
    MPI::Get_error_string(code, msg, len);
    CHECK(strcmp(msg, "a C++ error") == 0);
    CHECK(MPI::Get_error_class(code) == cls);

    // Addresses and memory.
    CHECK(MPI::Get_address(&src[1]) - MPI::Get_address(&src[0]) == (MPI::Aint)sizeof(int));
    void* mem = MPI::Alloc_mem(64, MPI::INFO_NULL);
    CHECK(mem != 0);
    MPI::Free_mem(mem);

    // A distributed graph: a ring.
    int dst1 = (rank + 1) % size, src1 = (rank + size - 1) % size;
    MPI::Distgraphcomm ring = world.Dist_graph_create_adjacent(1, &src1, 1, &dst1,
                                                              MPI::INFO_NULL, false);
    CHECK(ring.Get_topology() == MPI::DIST_GRAPH);
    int indeg, outdeg;
    bool weighted = true;
    ring.Get_dist_neighbors_count(indeg, outdeg, weighted);
    CHECK(indeg == 1 && outdeg == 1 && !weighted);
    int s1 = -1, d1 = -1, w1, w2;
    ring.Get_dist_neighbors(1, &s1, &w1, 1, &d1, &w2);
    CHECK(s1 == src1 && d1 == dst1);
    ring.Free();

    // Members whose C function Mica lacks exist and raise MPI_ERR_UNSUPPORTED_OPERATION.
    MPI::COMM_SELF.Set_errhandler(MPI::ERRORS_THROW_EXCEPTIONS);
    world.Set_errhandler(MPI::ERRORS_THROW_EXCEPTIONS);
    int unsupported = 0;
    char port[MPI::MAX_PORT_NAME];
    try {
        MPI::Open_port(MPI::INFO_NULL, port);
    } catch (MPI::Exception& e) {
        unsupported += e.Get_error_class() == MPI::ERR_UNSUPPORTED_OPERATION;
    }
    try {
        MPI::Register_datarep("cxx-rep", 0, 0, 0, 0);
    } catch (MPI::Exception& e) {
        unsupported += e.Get_error_class() == MPI::ERR_UNSUPPORTED_OPERATION;
    }
    try {
        MPI::Intercomm parent = MPI::Comm::Get_parent();
        CHECK(parent == MPI::COMM_NULL);   // once implemented: a process not spawned has none
        unsupported++;
    } catch (MPI::Exception& e) {
        unsupported += e.Get_error_class() == MPI::ERR_UNSUPPORTED_OPERATION;
    }
    CHECKF(unsupported == 3, "%d of 3", unsupported);
    MPI::COMM_SELF.Set_errhandler(MPI::ERRORS_ARE_FATAL);

    MPI::Finalize();
    return CHECK_RESULT();
}
