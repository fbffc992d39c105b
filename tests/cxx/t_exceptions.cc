// np: 2
// ERRORS_THROW_EXCEPTIONS: a bad rank throws MPI::Exception carrying the error class
// (catchable as PMPI::Exception too); ERRORS_RETURN returns quietly; the handler is reported back
// by Get_errhandler; an error outside any communicator (a bad Op::Free) goes to COMM_SELF's.
#include <mpi.h>
#include <string.h>

#include "../check.h"

int main(int argc, char** argv)
{
    MPI::Init(argc, argv);
    MPI::Intracomm& world = MPI::COMM_WORLD;
    int size = world.Get_size(), x = 1;
    CHECK(world.Get_errhandler() == MPI::ERRORS_ARE_FATAL);

    world.Set_errhandler(MPI::ERRORS_THROW_EXCEPTIONS);
    CHECK(world.Get_errhandler() == MPI::ERRORS_THROW_EXCEPTIONS);
    bool thrown = false;
    try {
        world.Send(&x, 1, MPI::INT, size + 5, 0);
    } catch (MPI::Exception& e) {
        thrown = true;
        CHECKF(e.Get_error_class() == MPI::ERR_RANK, "class %d", e.Get_error_class());
        CHECK(MPI::Get_error_class(e.Get_error_code()) == MPI::ERR_RANK);
        CHECKF(strlen(e.Get_error_string()) > 0, "empty error string");
    }
    CHECK(thrown);

    thrown = false;
    try {
        world.Bcast(&x, 1, MPI::INT, -3);
    } catch (PMPI::Exception& e) {   // the base class catches it too
        thrown = true;
        CHECKF(e.Get_error_class() == MPI::ERR_ROOT, "class %d", e.Get_error_class());
    }
    CHECK(thrown);

    thrown = false;
    try {
        world.Recv(&x, -1, MPI::INT, 0, 0);
    } catch (MPI::Exception& e) {
        thrown = true;
        CHECK(e.Get_error_class() == MPI::ERR_COUNT);
    }
    CHECK(thrown);

    // A duplicate inherits the handler.
    MPI::Intracomm dup = world.Dup();
    CHECK(dup.Get_errhandler() == MPI::ERRORS_THROW_EXCEPTIONS);
    thrown = false;
    try {
        dup.Send(&x, 1, MPI::INT, 0, MPI::ANY_TAG);
    } catch (MPI::Exception& e) {
        thrown = true;
        CHECK(e.Get_error_class() == MPI::ERR_TAG);
    }
    CHECK(thrown);

    // ERRORS_RETURN: the call returns, nothing is thrown (the C++ functions return no code).
    dup.Set_errhandler(MPI::ERRORS_RETURN);
    thrown = false;
    try {
        dup.Send(&x, 1, MPI::INT, size + 5, 0);
    } catch (MPI::Exception&) {
        thrown = true;
    }
    CHECK(!thrown);
    dup.Free();

    // Call_errhandler goes through the handler like the library's own errors.
    thrown = false;
    try {
        world.Call_errhandler(MPI::ERR_OTHER);
    } catch (MPI::Exception& e) {
        thrown = true;
        CHECK(e.Get_error_code() == MPI::ERR_OTHER);
    }
    CHECK(thrown);

    // Not about a communicator: raised on COMM_SELF, which throws once it is told to.
    MPI::COMM_SELF.Set_errhandler(MPI::ERRORS_THROW_EXCEPTIONS);
    thrown = false;
    try {
        MPI::Op bad;   // OP_NULL
        bad.Free();
    } catch (MPI::Exception& e) {
        thrown = true;
        CHECK(e.Get_error_class() == MPI::ERR_OP);
    }
    CHECK(thrown);

    // The communication still works after the exceptions.
    int rank = world.Get_rank(), got = -1;
    world.Sendrecv(&rank, 1, MPI::INT, (rank + 1) % size, 9, &got, 1, MPI::INT,
                   (rank + size - 1) % size, 9);
    CHECK(got == (rank + size - 1) % size);
    world.Set_errhandler(MPI::ERRORS_ARE_FATAL);
    MPI::Finalize();
    return CHECK_RESULT();
}
