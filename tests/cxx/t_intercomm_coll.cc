// np: 2 3 4
// Intercommunicator collectives in C++ (members of Comm, called on an MPI::Intercomm): Bcast with
// ROOT/PROC_NULL, Allreduce, Reduce, Allgather, Gather, Scatter, Alltoall, Barrier,
// Reduce_scatter_block; Dup, Clone, Create, Split and Merge of an intercommunicator.
#include <mpi.h>
#include <vector>

#include "../check.h"

int main()
{
    MPI::Init();
    MPI::Intracomm world = MPI::COMM_WORLD;
    int wrank = world.Get_rank(), wsize = world.Get_size();
    int color = wrank % 2;   // evens and odds
    MPI::Intracomm local = world.Split(color, wrank);
    MPI::Intercomm inter = local.Create_intercomm(0, world, 1 - color, 7);
    CHECK(inter.Is_inter());
    int lrank = inter.Get_rank(), lsize = inter.Get_size(), rsize = inter.Get_remote_size();
    CHECK(lsize + rsize == wsize);

    // Bcast from rank 0 of the even group to the odd group.
    int x = -1;
    if (color == 0)
        x = lrank == 0 ? 42 : -1;
    inter.Bcast(&x, 1, MPI::INT, color == 0 ? (lrank == 0 ? MPI::ROOT : MPI::PROC_NULL) : 0);
    if (color == 1)
        CHECKF(x == 42, "bcast: %d", x);

    // Allreduce: each group gets the sum over the other group of (world rank + 1).
    int mine = wrank + 1, sum = 0, want = 0;
    for (int r = 0; r < wsize; r++)
        if (r % 2 != color)
            want += r + 1;
    inter.Allreduce(&mine, &sum, 1, MPI::INT, MPI::SUM);
    CHECKF(sum == want, "allreduce: %d, want %d", sum, want);

    // Reduce to the odd group's rank 0.
    sum = -1;
    inter.Reduce(&mine, &sum, 1, MPI::INT, MPI::SUM,
                 color == 1 ? (lrank == 0 ? MPI::ROOT : MPI::PROC_NULL) : 0);
    if (color == 1 && lrank == 0)
        CHECKF(sum == want, "reduce: %d, want %d", sum, want);

    // Allgather: the remote group's world ranks, in order.
    std::vector<int> all(rsize, -1);
    inter.Allgather(&wrank, 1, MPI::INT, all.data(), 1, MPI::INT);
    for (int i = 0; i < rsize; i++)
        CHECKF(all[i] == 2 * i + (1 - color), "allgather[%d] = %d", i, all[i]);

    // Gather to the even root, Scatter back.
    std::vector<int> g(rsize, -1);
    int root = color == 0 ? (lrank == 0 ? MPI::ROOT : MPI::PROC_NULL) : 0;
    inter.Gather(&wrank, 1, MPI::INT, g.data(), 1, MPI::INT, root);
    if (color == 0 && lrank == 0)
        for (int i = 0; i < rsize; i++)
            CHECK(g[i] == 2 * i + 1);
    int back = -1;
    for (int i = 0; i < rsize; i++)
        g[i] = 1000 + i;
    inter.Scatter(g.data(), 1, MPI::INT, &back, 1, MPI::INT, root);
    if (color == 1)
        CHECKF(back == 1000 + lrank, "scatter: %d", back);

    // Alltoall: send (my world rank * 100 + remote index).
    std::vector<int> s(rsize), r(rsize, -1);
    for (int i = 0; i < rsize; i++)
        s[i] = wrank * 100 + i;
    inter.Alltoall(s.data(), 1, MPI::INT, r.data(), 1, MPI::INT);
    for (int i = 0; i < rsize; i++)
        CHECKF(r[i] == (2 * i + 1 - color) * 100 + lrank, "alltoall[%d] = %d", i, r[i]);
    inter.Barrier();

    // Reduce_scatter_block (both groups must provide as many elements in all: compared where
    // the groups are of a size): the remote group's vectors are reduced and scattered among us.
    if (lsize == rsize) {
        std::vector<int> rs(lsize);
        for (int i = 0; i < lsize; i++)
            rs[i] = wrank + i;
        int part = -1, wantp = 0;
        inter.Reduce_scatter_block(rs.data(), &part, 1, MPI::INT, MPI::SUM);
        for (int i = 0; i < rsize; i++)
            wantp += (2 * i + 1 - color) + lrank;
        CHECKF(part == wantp, "reduce_scatter_block: %d, want %d", part, wantp);
    }

    // Constructors.
    MPI::Intercomm d = inter.Dup();
    CHECK(d.Get_remote_size() == rsize);
    MPI::Intercomm& c = inter.Clone();
    CHECK(MPI::Comm::Compare(c, inter) == MPI::CONGRUENT);
    c.Free();
    delete &c;
    MPI::Intercomm sp = d.Split(0, lrank);
    CHECK(sp.Get_remote_size() == rsize);
    sp.Free();
    MPI::Group dg = d.Get_group();
    MPI::Intercomm cr = d.Create(dg);
    dg.Free();
    CHECK(cr.Get_size() == lsize && cr.Get_remote_size() == rsize);
    cr.Free();
    MPI::Intracomm merged = d.Merge(color == 1);
    CHECK(merged.Get_size() == wsize);
    CHECK(merged.Get_rank() == (color == 0 ? lrank : rsize + lrank));
    merged.Free();
    d.Free();
    inter.Free();
    local.Free();
    MPI::Finalize();
    return CHECK_RESULT();
}
