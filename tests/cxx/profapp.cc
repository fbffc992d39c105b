// The program of test_profiling.sh: on 2 ranks, rank 0 sends one message with the C++ binding
// (MPI::Comm::Send) and one with the C API (MPI_Send); rank 1 checks both arrive.
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv)
{
    MPI::Init(argc, argv);
    int rank = MPI::COMM_WORLD.Get_rank(), v[2] = {-1, -1}, bad = 0;
    if (rank == 0) {
        int a = 11, b = 22;
        MPI::COMM_WORLD.Send(&a, 1, MPI::INT, 1, 0);
        MPI_Send(&b, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI::COMM_WORLD.Recv(&v[0], 1, MPI::INT, 0, 0);
        MPI::COMM_WORLD.Recv(&v[1], 1, MPI::INT, 0, 1);
        bad = v[0] != 11 || v[1] != 22;
        if (bad)
            printf("rank 1: received %d %d, expected 11 22\n", v[0], v[1]);
    }
    MPI::Finalize();
    return bad;
}
