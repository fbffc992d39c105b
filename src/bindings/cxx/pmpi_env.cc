// PMPI:: namespace functions (start-up, environment, errors) and the exception machinery.
// Each calls the C PMPI_ function, never MPI_: see docs/PROFILING.md, "C++".
#include <mutex>

#include "cxx.h"

// ---- ERRORS_THROW_EXCEPTIONS ----------------------------------------------------------------
// Throwing from inside the C library would unwind through C frames (and its locks); instead the
// C handler that stands for ERRORS_THROW_EXCEPTIONS only notes the code, the C call returns it,
// and the C++ layer throws once it is back in C++ code.
static thread_local int pending_code;
static char throw_tag;
// The C handler that stands for ERRORS_THROW_EXCEPTIONS, per kind of object (a communicator's,
// a window's and a file's handlers are distinct in C).
static MPI_Errhandler throw_c_handler[3] = {MPI_ERRHANDLER_NULL, MPI_ERRHANDLER_NULL,
                                           MPI_ERRHANDLER_NULL};
static std::mutex throw_lock;

extern "C" {
static void note_comm_error(MPI_Comm *, int *code, ...)
{
    pending_code = *code;
}
static void note_win_error(MPI_Win *, int *code, ...)
{
    pending_code = *code;
}
static void note_file_error(MPI_File *, int *code, ...)
{
    pending_code = *code;
}
}

MPI_Errhandler mica_cxx_throw_handle()
{
    return reinterpret_cast<MPI_Errhandler>(&throw_tag);
}

MPI_Errhandler mica_cxx_to_c(MPI_Errhandler h, mica_cxx_kind kind)
{
    if (h != mica_cxx_throw_handle())
        return h;
    std::lock_guard<std::mutex> hold(throw_lock);
    MPI_Errhandler& c = throw_c_handler[kind];
    if (c == MPI_ERRHANDLER_NULL) {
        int rc = kind == MICA_CXX_WIN ? PMPI_Win_create_errhandler(note_win_error, &c)
               : kind == MICA_CXX_FILE ? PMPI_File_create_errhandler(note_file_error, &c)
               : PMPI_Comm_create_errhandler(note_comm_error, &c);
        if (rc != MPI_SUCCESS) {
            c = MPI_ERRHANDLER_NULL;
            return h;   // not initialized: the C library rejects the handle with MPI_ERR_ERRHANDLER
        }
    }
    return c;
}

MPI_Errhandler mica_cxx_from_c(MPI_Errhandler h)
{
    std::lock_guard<std::mutex> hold(throw_lock);
    for (MPI_Errhandler c : throw_c_handler)
        if (h != MPI_ERRHANDLER_NULL && h == c)
            return mica_cxx_throw_handle();
    return h;
}

void mica_cxx_raise(int code)
{
    bool ours = pending_code == code;
    pending_code = 0;
    if (ours)
        throw MPI::Exception(code);
}

void mica_cxx_fail(MPI_Comm comm, int code)
{
    pending_code = 0;
    PMPI_Comm_call_errhandler(comm, code);
    mica_cxx_raise(code);
}

void mica_cxx_fail_win(MPI_Win win, int code)
{
    pending_code = 0;
    PMPI_Win_call_errhandler(win, code);
    mica_cxx_raise(code);
}

void mica_cxx_fail_file(MPI_File file, int code)
{
    pending_code = 0;
    PMPI_File_call_errhandler(file, code);
    mica_cxx_raise(code);
}

PMPI::Exception::Exception(int error_code) : code_(error_code), class_(error_code)
{
    int len = 0;
    string_[0] = '\0';
    if (PMPI_Error_class(error_code, &class_) != MPI_SUCCESS)
        class_ = error_code;
    if (PMPI_Error_string(error_code, string_, &len) != MPI_SUCCESS)
        string_[0] = '\0';
}

// ---- start-up and environment -----------------------------------------------------------------
void PMPI::Init(int& argc, char**& argv)
{
    mica_cxx_check(PMPI_Init(&argc, &argv));
}

void PMPI::Init()
{
    mica_cxx_check(PMPI_Init(nullptr, nullptr));
}

int PMPI::Init_thread(int& argc, char**& argv, int required)
{
    int provided = MPI_THREAD_SINGLE;
    mica_cxx_check(PMPI_Init_thread(&argc, &argv, required, &provided));
    return provided;
}

int PMPI::Init_thread(int required)
{
    int provided = MPI_THREAD_SINGLE;
    mica_cxx_check(PMPI_Init_thread(nullptr, nullptr, required, &provided));
    return provided;
}

void PMPI::Finalize()
{
    mica_cxx_check(PMPI_Finalize());
}

bool PMPI::Is_initialized()
{
    int flag = 0;
    mica_cxx_check(PMPI_Initialized(&flag));
    return flag;
}

bool PMPI::Is_finalized()
{
    int flag = 0;
    mica_cxx_check(PMPI_Finalized(&flag));
    return flag;
}

int PMPI::Query_thread()
{
    int provided = MPI_THREAD_SINGLE;
    mica_cxx_check(PMPI_Query_thread(&provided));
    return provided;
}

bool PMPI::Is_thread_main()
{
    int flag = 0;
    mica_cxx_check(PMPI_Is_thread_main(&flag));
    return flag;
}

double PMPI::Wtime()
{
    return PMPI_Wtime();
}

double PMPI::Wtick()
{
    return PMPI_Wtick();
}

void PMPI::Get_processor_name(char* name, int& resultlen)
{
    mica_cxx_check(PMPI_Get_processor_name(name, &resultlen));
}

void PMPI::Get_version(int& version, int& subversion)
{
    mica_cxx_check(PMPI_Get_version(&version, &subversion));
}

void PMPI::Get_error_string(int errorcode, char* string, int& resultlen)
{
    mica_cxx_check(PMPI_Error_string(errorcode, string, &resultlen));
}

int PMPI::Get_error_class(int errorcode)
{
    int errorclass = 0;
    mica_cxx_check(PMPI_Error_class(errorcode, &errorclass));
    return errorclass;
}

void PMPI::Compute_dims(int nnodes, int ndims, int dims[])
{
    mica_cxx_check(PMPI_Dims_create(nnodes, ndims, dims));
}

void PMPI::Attach_buffer(void* buffer, int size)
{
    mica_cxx_check(PMPI_Buffer_attach(buffer, size));
}

int PMPI::Detach_buffer(void*& buffer)
{
    int size = 0;
    mica_cxx_check(PMPI_Buffer_detach(&buffer, &size));
    return size;
}

void PMPI::Pcontrol(const int level, ...)
{
    PMPI_Pcontrol(level);
}

// ---- MPI-2.2's namespace functions ------------------------------------------------------------
int PMPI::Add_error_class()
{
    int errorclass = 0;
    mica_cxx_check(PMPI_Add_error_class(&errorclass));
    return errorclass;
}

int PMPI::Add_error_code(int errorclass)
{
    int errorcode = 0;
    mica_cxx_check(PMPI_Add_error_code(errorclass, &errorcode));
    return errorcode;
}

void PMPI::Add_error_string(int errorcode, const char* string)
{
    mica_cxx_check(PMPI_Add_error_string(errorcode, string));
}

PMPI::Aint PMPI::Get_address(const void* location)
{
    MPI_Aint address = 0;
    mica_cxx_check(PMPI_Get_address(location, &address));
    return address;
}

void* PMPI::Alloc_mem(Aint size, const Info& info)
{
    void* base = nullptr;
    mica_cxx_check(PMPI_Alloc_mem(size, info, &base));
    return base;
}

void PMPI::Free_mem(void* base)
{
    mica_cxx_check(PMPI_Free_mem(base));
}

void PMPI::Open_port(const Info& info, char* port_name)
{
    mica_cxx_check(PMPI_Open_port(info, port_name));
}

void PMPI::Close_port(const char* port_name)
{
    mica_cxx_check(PMPI_Close_port(port_name));
}

void PMPI::Publish_name(const char* service_name, const Info& info, const char* port_name)
{
    mica_cxx_check(PMPI_Publish_name(service_name, info, port_name));
}

void PMPI::Unpublish_name(const char* service_name, const Info& info, const char* port_name)
{
    mica_cxx_check(PMPI_Unpublish_name(service_name, info, port_name));
}

void PMPI::Lookup_name(const char* service_name, const Info& info, char* port_name)
{
    mica_cxx_check(PMPI_Lookup_name(service_name, info, port_name));
}
