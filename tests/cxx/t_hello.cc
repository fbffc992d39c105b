// np: 1 3
// The C++ binding's basics: Init/Finalize in both forms' environment, rank and size agree with
// the C API, the processor name, Wtime/Wtick, communicator names, and the C API still usable.
#include <mpi.h>
#include <string.h>

#include "../check.h"

int main(int argc, char** argv)
{
    CHECK(!MPI::Is_initialized());
    MPI::Init(argc, argv);
    CHECK(MPI::Is_initialized());
    CHECK(!MPI::Is_finalized());

    int rank = MPI::COMM_WORLD.Get_rank(), size = MPI::COMM_WORLD.Get_size();
    int crank = -1, csize = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &crank);
    MPI_Comm_size(MPI_COMM_WORLD, &csize);
    CHECKF(rank == crank && size == csize, "C++ %d/%d, C %d/%d", rank, size, crank, csize);
    CHECK(MPI::COMM_SELF.Get_size() == 1 && MPI::COMM_SELF.Get_rank() == 0);
    CHECK((MPI_Comm)MPI::COMM_WORLD == MPI_COMM_WORLD);
    CHECK(MPI::COMM_WORLD != MPI::COMM_NULL);
    CHECK(MPI::Comm::Compare(MPI::COMM_WORLD, MPI::COMM_WORLD) == MPI::IDENT);
    CHECK(!MPI::COMM_WORLD.Is_inter());
    CHECK(MPI::COMM_WORLD.Get_topology() == MPI::UNDEFINED);

    char name[MPI::MAX_PROCESSOR_NAME];
    int len = -1;
    MPI::Get_processor_name(name, len);
    CHECKF(len > 0 && (int)strlen(name) == len, "name '%s' len %d", name, len);

    int version = 0, subversion = -1;
    MPI::Get_version(version, subversion);
    CHECK(version == MPI::VERSION && subversion == MPI::SUBVERSION);

    double t0 = MPI::Wtime();
    CHECK(MPI::Wtick() > 0.0);
    CHECK(MPI::Wtime() >= t0);

    char cname[MPI::MAX_OBJECT_NAME];
    MPI::COMM_WORLD.Get_name(cname, len);
    CHECKF(!strcmp(cname, "MPI_COMM_WORLD"), "name '%s'", cname);
    MPI::Intracomm dup = MPI::COMM_WORLD.Dup();
    dup.Set_name("mine");
    dup.Get_name(cname, len);
    CHECK(!strcmp(cname, "mine") && len == 4);
    CHECK(MPI::Comm::Compare(dup, MPI::COMM_WORLD) == MPI::CONGRUENT);
    dup.Free();
    CHECK(dup == MPI::COMM_NULL);

    CHECK(MPI::INT.Get_size() == (int)sizeof(int));
    CHECK(MPI::DOUBLE.Get_size() == (int)sizeof(double));
    CHECK(MPI::BOOL.Get_size() == (int)sizeof(bool));
    CHECK(MPI::TWOINT.Get_size() == 2 * (int)sizeof(int));
    CHECK(MPI::Query_thread() == MPI::THREAD_SINGLE || MPI::Query_thread() >= MPI::THREAD_SINGLE);

    MPI::COMM_WORLD.Barrier();
    MPI::Finalize();
    CHECK(MPI::Is_finalized());
    return CHECK_RESULT();
}
