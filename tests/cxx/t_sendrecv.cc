// np: 2 4
// Point-to-point in C++: a ring with Send/Recv and Status, Sendrecv, Isend/Irecv with Waitall,
// Probe/Iprobe, Ssend, Bsend with an attached buffer, persistent requests, Waitany and Test.
#include <mpi.h>
#include <stdlib.h>

#include "../check.h"

int main(int argc, char** argv)
{
    MPI::Init(argc, argv);
    const MPI::Intracomm& world = MPI::COMM_WORLD;
    int rank = world.Get_rank(), size = world.Get_size();
    int right = (rank + 1) % size, left = (rank + size - 1) % size;

    // A ring: rank 0 starts, each rank adds its rank and passes on.
    int token = 0;
    MPI::Status status;
    if (rank == 0) {
        world.Send(&token, 1, MPI::INT, right, 7);
        world.Recv(&token, 1, MPI::INT, left, 7, status);
        CHECKF(token == size * (size - 1) / 2, "token %d", token);
    } else {
        world.Recv(&token, 1, MPI::INT, MPI::ANY_SOURCE, MPI::ANY_TAG, status);
        token += rank;
        world.Send(&token, 1, MPI::INT, right, 7);
    }
    CHECK(status.Get_source() == left && status.Get_tag() == 7);
    CHECK(status.Get_count(MPI::INT) == 1);

    // Sendrecv: everyone gets its left neighbour's rank.
    int got = -1;
    world.Sendrecv(&rank, 1, MPI::INT, right, 1, &got, 1, MPI::INT, left, 1, status);
    CHECK(got == left && status.Get_source() == left);
    double d[3] = {rank + 0.5, rank + 1.5, rank + 2.5};
    world.Sendrecv_replace(d, 3, MPI::DOUBLE, right, 2, left, 2);
    CHECK(d[0] == left + 0.5 && d[2] == left + 2.5);

    // Nonblocking: Irecv from the left, Isend to the right, Waitall with statuses.
    int in[4] = {0, 0, 0, 0}, out[4] = {rank, rank * 2, rank * 3, rank * 4};
    MPI::Request reqs[2];
    reqs[0] = world.Irecv(in, 4, MPI::INT, left, 3);
    reqs[1] = world.Isend(out, 4, MPI::INT, right, 3);
    MPI::Status statuses[2];
    MPI::Request::Waitall(2, reqs, statuses);
    CHECK(in[0] == left && in[3] == left * 4);
    CHECK(statuses[0].Get_source() == left && statuses[0].Get_count(MPI::INT) == 4);
    CHECK(reqs[0] == MPI::REQUEST_NULL && reqs[1] == MPI::REQUEST_NULL);

    // Probe then receive what it announced; Iprobe sees nothing left.
    if (rank == 0) {
        long v[5] = {1, 2, 3, 4, 5};
        world.Ssend(v, 5, MPI::LONG, right, 4);
    } else if (rank == 1) {
        world.Probe(MPI::ANY_SOURCE, 4, status);
        int n = status.Get_count(MPI::LONG);
        CHECKF(n == 5 && status.Get_source() == 0, "count %d", n);
        long v[5] = {0};
        world.Recv(v, n, MPI::LONG, status.Get_source(), 4);
        CHECK(v[4] == 5);
        CHECK(!world.Iprobe(MPI::ANY_SOURCE, 4));
    }

    // Bsend through an attached buffer.
    int bufsize = 4 * sizeof(int) + MPI::BSEND_OVERHEAD;
    void* buffer = malloc(bufsize);
    MPI::Attach_buffer(buffer, bufsize);
    int b = rank * 10;
    world.Bsend(&b, 1, MPI::INT, right, 5);
    world.Recv(&got, 1, MPI::INT, left, 5);
    CHECK(got == left * 10);
    void* detached = 0;
    CHECK(MPI::Detach_buffer(detached) == bufsize && detached == buffer);
    free(buffer);

    // Persistent requests, started twice; Waitany and Test.
    int pin = -1, pout = rank;
    MPI::Prequest preqs[2];
    preqs[0] = world.Recv_init(&pin, 1, MPI::INT, left, 6);
    preqs[1] = world.Send_init(&pout, 1, MPI::INT, right, 6);
    for (int round = 0; round < 2; round++) {
        pout = rank + round * 100;
        MPI::Prequest::Startall(2, preqs);
        int done = 0;
        while (done < 2) {
            int i = MPI::Request::Waitany(2, preqs, status);
            CHECK(i == 0 || i == 1);
            done++;
        }
        CHECKF(pin == left + round * 100, "round %d got %d", round, pin);
    }
    preqs[0].Free();
    preqs[1].Free();
    MPI::Request r = world.Irecv(&got, 1, MPI::INT, rank, 8);
    CHECK(!r.Test());
    world.Send(&rank, 1, MPI::INT, rank, 8);
    r.Wait(status);
    CHECK(got == rank && status.Get_tag() == 8);

    MPI::Finalize();
    return CHECK_RESULT();
}
