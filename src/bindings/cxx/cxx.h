// The C++ binding's internals, shared by the PMPI:: implementation files (not installed).
#ifndef MICA_CXX_H
#define MICA_CXX_H
#include "mpicxx.h"

#define MICA_CXX_HIDDEN __attribute__((visibility("hidden")))

// A C call failed with code: throw MPI::Exception when the handler that the library invoked for
// it was ERRORS_THROW_EXCEPTIONS (errhandler.cc); otherwise the handler has done its work.
MICA_CXX_HIDDEN void mica_cxx_raise(int code);
static inline void mica_cxx_check(int rc)
{
    if (rc != MPI_SUCCESS)
        mica_cxx_raise(rc);
}
// An error the C++ layer finds itself: raised through comm's (win's, file's) handler like the
// library's own.
MICA_CXX_HIDDEN void mica_cxx_fail(MPI_Comm comm, int code);
MICA_CXX_HIDDEN void mica_cxx_fail_win(MPI_Win win, int code);
MICA_CXX_HIDDEN void mica_cxx_fail_file(MPI_File file, int code);

// ERRORS_THROW_EXCEPTIONS: a C++ handle that is no C handle (the address of a private object);
// communicators get the C error handler that stands for it, created on first use.
MICA_CXX_HIDDEN MPI_Errhandler mica_cxx_throw_handle();
enum mica_cxx_kind { MICA_CXX_COMM, MICA_CXX_WIN, MICA_CXX_FILE };
MICA_CXX_HIDDEN MPI_Errhandler mica_cxx_to_c(MPI_Errhandler h, mica_cxx_kind kind = MICA_CXX_COMM);
MICA_CXX_HIDDEN MPI_Errhandler mica_cxx_from_c(MPI_Errhandler h);

#endif
