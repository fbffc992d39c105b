// np: 1 3 4
// Collectives in C++: Bcast, Reduce, Allreduce, Scan, Exscan, Gather(v), Scatter, Allgather,
// Alltoall, Barrier; Split and Create; groups; derived datatypes; a user-defined Op (C++
// function behind the C trampoline).
#include <mpi.h>
#include <vector>

#include "../check.h"

static void absmax(const void* in, void* inout, int len, const MPI::Datatype& type)
{
    CHECK(type == MPI::INT);
    const int* a = static_cast<const int*>(in);
    int* b = static_cast<int*>(inout);
    for (int i = 0; i < len; i++) {
        int x = a[i] < 0 ? -a[i] : a[i], y = b[i] < 0 ? -b[i] : b[i];
        b[i] = x > y ? a[i] : b[i];
    }
}

int main(int argc, char** argv)
{
    MPI::Init();
    MPI::Intracomm world = MPI::COMM_WORLD;
    int rank = world.Get_rank(), size = world.Get_size();

    int v = rank == 0 ? 42 : -1;
    world.Bcast(&v, 1, MPI::INT, 0);
    CHECK(v == 42);

    int sum = -1;
    world.Reduce(&rank, &sum, 1, MPI::INT, MPI::SUM, 0);
    if (rank == 0)
        CHECKF(sum == size * (size - 1) / 2, "sum %d", sum);
    double mx = -1;
    double mine = rank * 1.5;
    world.Allreduce(&mine, &mx, 1, MPI::DOUBLE, MPI::MAX);
    CHECK(mx == (size - 1) * 1.5);
    world.Allreduce(MPI::IN_PLACE, &mine, 1, MPI::DOUBLE, MPI::SUM);
    CHECK(mine == 1.5 * size * (size - 1) / 2);

    int prefix = -1;
    world.Scan(&rank, &prefix, 1, MPI::INT, MPI::SUM);
    CHECK(prefix == rank * (rank + 1) / 2);
    int ex = -7;
    world.Exscan(&rank, &ex, 1, MPI::INT, MPI::SUM);
    if (rank > 0)
        CHECK(ex == rank * (rank - 1) / 2);

    std::vector<int> all(size, -1);
    world.Gather(&rank, 1, MPI::INT, all.data(), 1, MPI::INT, 0);
    if (rank == 0)
        for (int i = 0; i < size; i++)
            CHECK(all[i] == i);
    std::vector<int> counts(size), displs(size);
    for (int i = 0; i < size; i++)
        counts[i] = 1, displs[i] = size - 1 - i;
    std::vector<int> rev(size, -1);
    world.Gatherv(&rank, 1, MPI::INT, rev.data(), counts.data(), displs.data(), MPI::INT, 0);
    if (rank == 0)
        for (int i = 0; i < size; i++)
            CHECK(rev[i] == size - 1 - i);

    std::vector<int> src(size);
    for (int i = 0; i < size; i++)
        src[i] = 100 + i;
    int mypart = -1;
    world.Scatter(src.data(), 1, MPI::INT, &mypart, 1, MPI::INT, 0);
    CHECK(mypart == 100 + rank);

    std::fill(all.begin(), all.end(), -1);
    world.Allgather(&rank, 1, MPI::INT, all.data(), 1, MPI::INT);
    for (int i = 0; i < size; i++)
        CHECK(all[i] == i);
    std::vector<int> to(size), from(size, -1);
    for (int i = 0; i < size; i++)
        to[i] = rank * 100 + i;
    world.Alltoall(to.data(), 1, MPI::INT, from.data(), 1, MPI::INT);
    for (int i = 0; i < size; i++)
        CHECK(from[i] == i * 100 + rank);
    world.Barrier();

    // Split into even and odd ranks; a collective on the part.
    MPI::Intracomm half = world.Split(rank % 2, -rank);
    CHECK(half.Get_size() == (size + 1 - rank % 2) / 2);
    CHECK(half.Get_rank() == (half.Get_size() - 1) - rank / 2);
    int hsum = 0;
    half.Allreduce(&rank, &hsum, 1, MPI::INT, MPI::SUM);
    int expect = 0;
    for (int i = rank % 2; i < size; i += 2)
        expect += i;
    CHECK(hsum == expect);
    half.Free();

    // Groups: the world's group, a reversed inclusion, translation, a communicator from it.
    MPI::Group g = world.Get_group();
    CHECK(g.Get_size() == size && g.Get_rank() == rank);
    std::vector<int> order(size), back(size, -1), ident(size);
    for (int i = 0; i < size; i++)
        order[i] = size - 1 - i, ident[i] = i;
    MPI::Group rg = g.Incl(size, order.data());
    CHECK(rg.Get_rank() == size - 1 - rank);
    MPI::Group::Translate_ranks(rg, size, ident.data(), g, back.data());
    for (int i = 0; i < size; i++)
        CHECK(back[i] == size - 1 - i);
    CHECK(MPI::Group::Compare(g, rg) == (size == 1 ? MPI::IDENT : MPI::SIMILAR));
    MPI::Intracomm rc = world.Create(rg);
    CHECK(rc.Get_rank() == size - 1 - rank);
    rc.Free();
    rg.Free();
    g.Free();
    CHECK(g == MPI::GROUP_NULL);

    // Derived datatypes: a vector of every other int, and a contiguous pair.
    MPI::Datatype vec = MPI::INT.Create_vector(3, 1, 2);
    vec.Commit();
    CHECK(vec.Get_size() == 3 * (int)sizeof(int));
    MPI::Aint lb = -1, extent = -1;
    vec.Get_extent(lb, extent);
    CHECK(lb == 0 && extent == 5 * (MPI::Aint)sizeof(int));
    int buf[6] = {0, 0, 0, 0, 0, 0};
    if (rank == 0)
        for (int i = 0; i < 6; i++)
            buf[i] = i + 1;
    world.Bcast(buf, 1, vec, 0);
    CHECK(buf[0] == 1 && buf[2] == 3 && buf[4] == 5);
    if (rank != 0)
        CHECK(buf[1] == 0 && buf[3] == 0);
    vec.Free();
    CHECK(vec == MPI::DATATYPE_NULL);
    MPI::Datatype pair = MPI::DOUBLE.Create_contiguous(2);
    pair.Commit();
    double p[2] = {rank + 0.25, rank + 0.75}, q[2];
    world.Allreduce(p, q, 1, pair, MPI::SUM);   // a predefined op on a contiguous type
    CHECK(q[0] == 0.25 * size + size * (size - 1) / 2.0);
    pair.Free();

    // A user-defined operation in C++.
    MPI::Op op;
    op.Init(absmax, true);
    CHECK(op.Is_commutative());
    int val = rank % 2 ? -(rank + 10) : rank + 10, res = 0;
    world.Allreduce(&val, &res, 1, MPI::INT, op);
    int want = (size - 1) % 2 ? -(size - 1 + 10) : size - 1 + 10;
    CHECKF(res == want, "absmax %d, want %d", res, want);
    op.Free();
    CHECK(op == MPI::OP_NULL);

    MPI::Finalize();
    (void)argc, (void)argv;
    return CHECK_RESULT();
}
