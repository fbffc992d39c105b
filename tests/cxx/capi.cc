// A C++ program that uses only the C API: it needs neither libmpi_cxx nor the C++ classes
// (test_header.sh compiles it with and without MICA_SKIP_MPICXX, linking only libmpi).
#include <mpi.h>

int main(int argc, char** argv)
{
    int rank = -1, size = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int sum = 0;
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    return sum == size * (size - 1) / 2 ? 0 : 1;
}
