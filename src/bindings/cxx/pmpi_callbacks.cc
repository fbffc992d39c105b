// PMPI:: members that take the user's C++ callbacks: keyvals (Comm, Datatype, Win), error
// handlers (Comm, Win, File), generalized requests and data representations. The C library
// calls a C function; the trampolines here find the C++ function it stands for and call it with
// C++ objects, of the namespace (MPI or PMPI) the function was written for.
//  - keyvals: the C callbacks receive the keyval, which indexes a registry;
//  - error handlers: the C handler receives the object, whose handler (PMPI_X_get_errhandler)
//    indexes a registry;
//  - generalized requests, data representations: the C extra_state points to the C++ functions
//    and the user's extra_state.
// Registry entries are never removed: a freed keyval or handler may still be attached, and a
// reused C handle's entry is overwritten when it is created again.
#include <list>
#include <map>
#include <mutex>

#include "cxx.h"

#define CHECK(call) mica_cxx_check(call)

namespace {
template <class K, class V> class Registry {
public:
    void put(K key, const V& value)
    {
        std::lock_guard<std::mutex> hold(lock_);
        map_[key] = value;
    }
    bool get(K key, V& value)
    {
        std::lock_guard<std::mutex> hold(lock_);
        typename std::map<K, V>::const_iterator it = map_.find(key);
        if (it == map_.end())
            return false;
        value = it->second;
        return true;
    }

private:
    std::mutex lock_;
    std::map<K, V> map_;
};

// ---- keyvals: P is the PMPI class, M the MPI class, H the C handle ---------------------------
template <class P, class M, class H> struct Keyvals {
    struct Fns {
        typename P::Copy_attr_function* pcopy;
        typename P::Delete_attr_function* pdel;
        typename M::Copy_attr_function* mcopy;
        typename M::Delete_attr_function* mdel;
    };
    static Registry<int, Fns>& registry()
    {
        static Registry<int, Fns> r;
        return r;
    }
    // A null C++ function does what the predefined NULL_COPY_FN / NULL_DELETE_FN do.
    static int copy(H old, int keyval, void* extra, void* in, void* out, int* flag)
    {
        Fns f = Fns();
        registry().get(keyval, f);
        bool b = false;
        int rc = MPI_SUCCESS;
        if (f.mcopy) {
            M o(old);
            rc = f.mcopy(o, keyval, extra, in, out, b);
        } else if (f.pcopy) {
            P o(old);
            rc = f.pcopy(o, keyval, extra, in, out, b);
        }
        *flag = b;
        return rc;
    }
    static int del(H h, int keyval, void* value, void* extra)
    {
        Fns f = Fns();
        registry().get(keyval, f);
        if (f.mdel) {
            M o(h);
            return f.mdel(o, keyval, value, extra);
        }
        if (f.pdel) {
            P o(h);
            return f.pdel(o, keyval, value, extra);
        }
        return MPI_SUCCESS;
    }
    template <class CreateFn> static int create(CreateFn* create_c, const Fns& f, void* extra)
    {
        int keyval = MPI_KEYVAL_INVALID;
        CHECK(create_c(copy, del, &keyval, extra));
        registry().put(keyval, f);
        return keyval;
    }
};
typedef Keyvals<PMPI::Comm, MPI::Comm, MPI_Comm> CommKeyvals;
typedef Keyvals<PMPI::Datatype, MPI::Datatype, MPI_Datatype> TypeKeyvals;
typedef Keyvals<PMPI::Win, MPI::Win, MPI_Win> WinKeyvals;

// ---- error handlers ---------------------------------------------------------------------------
int errhandler_of(MPI_Comm h, MPI_Errhandler* e)
{
    return PMPI_Comm_get_errhandler(h, e);
}
int errhandler_of(MPI_Win h, MPI_Errhandler* e)
{
    return PMPI_Win_get_errhandler(h, e);
}
int errhandler_of(MPI_File h, MPI_Errhandler* e)
{
    return PMPI_File_get_errhandler(h, e);
}

template <class P, class M, class H> struct Errhandlers {
    struct Fns {
        typename P::Errhandler_function* p;
        typename M::Errhandler_function* m;
    };
    static Registry<MPI_Errhandler, Fns>& registry()
    {
        static Registry<MPI_Errhandler, Fns> r;
        return r;
    }
    static void call(H* h, int* code, ...)
    {
        MPI_Errhandler e = MPI_ERRHANDLER_NULL;
        if (errhandler_of(*h, &e) != MPI_SUCCESS)
            return;
        Fns f = Fns();
        bool known = registry().get(e, f);
        PMPI_Errhandler_free(&e);
        if (!known)
            return;
        if (f.m) {
            M o(*h);
            f.m(o, code);
            *h = o;
        } else if (f.p) {
            P o(*h);
            f.p(o, code);
            *h = o;
        }
    }
    template <class CreateFn> static MPI_Errhandler create(CreateFn* create_c, const Fns& f)
    {
        MPI_Errhandler e = MPI_ERRHANDLER_NULL;
        CHECK(create_c(call, &e));
        registry().put(e, f);
        return e;
    }
};
typedef Errhandlers<PMPI::Comm, MPI::Comm, MPI_Comm> CommErrhandlers;
typedef Errhandlers<PMPI::Win, MPI::Win, MPI_Win> WinErrhandlers;
typedef Errhandlers<PMPI::File, MPI::File, MPI_File> FileErrhandlers;

// ---- generalized requests ---------------------------------------------------------------------
struct GrequestFns {
    PMPI::Grequest::Query_function* pquery;
    PMPI::Grequest::Free_function* pfree;
    PMPI::Grequest::Cancel_function* pcancel;
    MPI::Grequest::Query_function* mquery;
    MPI::Grequest::Free_function* mfree;
    MPI::Grequest::Cancel_function* mcancel;
    void* extra;
};

int grequest_query(void* state, MPI_Status* status)
{
    GrequestFns* g = static_cast<GrequestFns*>(state);
    int rc = MPI_SUCCESS;
    if (g->mquery) {
        MPI::Status s(*status);
        rc = g->mquery(g->extra, s);
        *status = s;
    } else if (g->pquery) {
        PMPI::Status s(*status);
        rc = g->pquery(g->extra, s);
        *status = s;
    }
    return rc;
}

// The last call for the request: the C++ functions are forgotten with it.
int grequest_free(void* state)
{
    GrequestFns* g = static_cast<GrequestFns*>(state);
    int rc = g->mfree ? g->mfree(g->extra) : g->pfree ? g->pfree(g->extra) : MPI_SUCCESS;
    delete g;
    return rc;
}

int grequest_cancel(void* state, int complete)
{
    GrequestFns* g = static_cast<GrequestFns*>(state);
    return g->mcancel ? g->mcancel(g->extra, complete)
         : g->pcancel ? g->pcancel(g->extra, complete) : MPI_SUCCESS;
}

MPI_Request start_grequest(const GrequestFns& fns)
{
    GrequestFns* g = new GrequestFns(fns);
    MPI_Request request = MPI_REQUEST_NULL;
    int rc = PMPI_Grequest_start(grequest_query, grequest_free, grequest_cancel, g, &request);
    if (rc != MPI_SUCCESS) {
        delete g;
        CHECK(rc);
    }
    return request;
}

// ---- data representations ---------------------------------------------------------------------
struct DatarepFns {
    PMPI::Datarep_conversion_function* pread;
    PMPI::Datarep_conversion_function* pwrite;
    PMPI::Datarep_extent_function* pextent;
    MPI::Datarep_conversion_function* mread;
    MPI::Datarep_conversion_function* mwrite;
    MPI::Datarep_extent_function* mextent;
    void* extra;
};
// Data representations are never freed: their functions live as long as the program.
std::list<DatarepFns> datareps;
std::mutex datarep_lock;

int datarep_read(void* userbuf, MPI_Datatype type, int count, void* filebuf, MPI_Offset position,
                 void* state)
{
    DatarepFns* d = static_cast<DatarepFns*>(state);
    if (d->mread) {
        MPI::Datatype t(type);
        return d->mread(userbuf, t, count, filebuf, position, d->extra);
    }
    PMPI::Datatype t(type);
    return d->pread(userbuf, t, count, filebuf, position, d->extra);
}

int datarep_write(void* userbuf, MPI_Datatype type, int count, void* filebuf, MPI_Offset position,
                  void* state)
{
    DatarepFns* d = static_cast<DatarepFns*>(state);
    if (d->mwrite) {
        MPI::Datatype t(type);
        return d->mwrite(userbuf, t, count, filebuf, position, d->extra);
    }
    PMPI::Datatype t(type);
    return d->pwrite(userbuf, t, count, filebuf, position, d->extra);
}

int datarep_extent(MPI_Datatype type, MPI_Aint* extent, void* state)
{
    DatarepFns* d = static_cast<DatarepFns*>(state);
    if (d->mextent)
        return d->mextent(MPI::Datatype(type), *extent, d->extra);
    return d->pextent(PMPI::Datatype(type), *extent, d->extra);
}

void register_datarep(const char* datarep, const DatarepFns& fns)
{
    DatarepFns* d;
    {
        std::lock_guard<std::mutex> hold(datarep_lock);
        datareps.push_back(fns);
        d = &datareps.back();
    }
    bool read = d->mread || d->pread, write = d->mwrite || d->pwrite;
    bool extent = d->mextent || d->pextent;   // required: C rejects a null one
    CHECK(PMPI_Register_datarep(datarep, read ? datarep_read : MPI_CONVERSION_FN_NULL,
                                write ? datarep_write : MPI_CONVERSION_FN_NULL,
                                extent ? datarep_extent : nullptr, d));
}
}  // namespace

// ---- the members ------------------------------------------------------------------------------
int PMPI::Comm::Create_keyval(Copy_attr_function* copy, Delete_attr_function* del, void* extra)
{
    CommKeyvals::Fns f = {copy, del, nullptr, nullptr};
    return CommKeyvals::create(PMPI_Comm_create_keyval, f, extra);
}

int PMPI::Comm::Create_keyval(MPI::Comm::Copy_attr_function* copy,
                              MPI::Comm::Delete_attr_function* del, void* extra)
{
    CommKeyvals::Fns f = {nullptr, nullptr, copy, del};
    return CommKeyvals::create(PMPI_Comm_create_keyval, f, extra);
}

int PMPI::Datatype::Create_keyval(Copy_attr_function* copy, Delete_attr_function* del,
                                  void* extra)
{
    TypeKeyvals::Fns f = {copy, del, nullptr, nullptr};
    return TypeKeyvals::create(PMPI_Type_create_keyval, f, extra);
}

int PMPI::Datatype::Create_keyval(MPI::Datatype::Copy_attr_function* copy,
                                  MPI::Datatype::Delete_attr_function* del, void* extra)
{
    TypeKeyvals::Fns f = {nullptr, nullptr, copy, del};
    return TypeKeyvals::create(PMPI_Type_create_keyval, f, extra);
}

int PMPI::Win::Create_keyval(Copy_attr_function* copy, Delete_attr_function* del, void* extra)
{
    WinKeyvals::Fns f = {copy, del, nullptr, nullptr};
    return WinKeyvals::create(PMPI_Win_create_keyval, f, extra);
}

int PMPI::Win::Create_keyval(MPI::Win::Copy_attr_function* copy,
                             MPI::Win::Delete_attr_function* del, void* extra)
{
    WinKeyvals::Fns f = {nullptr, nullptr, copy, del};
    return WinKeyvals::create(PMPI_Win_create_keyval, f, extra);
}

PMPI::Errhandler PMPI::Comm::Create_errhandler(Errhandler_function* function)
{
    CommErrhandlers::Fns f = {function, nullptr};
    return CommErrhandlers::create(PMPI_Comm_create_errhandler, f);
}

PMPI::Errhandler PMPI::Comm::Create_errhandler(MPI::Comm::Errhandler_function* function)
{
    CommErrhandlers::Fns f = {nullptr, function};
    return CommErrhandlers::create(PMPI_Comm_create_errhandler, f);
}

PMPI::Errhandler PMPI::Win::Create_errhandler(Errhandler_function* function)
{
    WinErrhandlers::Fns f = {function, nullptr};
    return WinErrhandlers::create(PMPI_Win_create_errhandler, f);
}

PMPI::Errhandler PMPI::Win::Create_errhandler(MPI::Win::Errhandler_function* function)
{
    WinErrhandlers::Fns f = {nullptr, function};
    return WinErrhandlers::create(PMPI_Win_create_errhandler, f);
}

PMPI::Errhandler PMPI::File::Create_errhandler(Errhandler_function* function)
{
    FileErrhandlers::Fns f = {function, nullptr};
    return FileErrhandlers::create(PMPI_File_create_errhandler, f);
}

PMPI::Errhandler PMPI::File::Create_errhandler(MPI::File::Errhandler_function* function)
{
    FileErrhandlers::Fns f = {nullptr, function};
    return FileErrhandlers::create(PMPI_File_create_errhandler, f);
}

PMPI::Grequest PMPI::Grequest::Start(Query_function* query_fn, Free_function* free_fn,
                                     Cancel_function* cancel_fn, void* extra_state)
{
    GrequestFns g = {query_fn, free_fn, cancel_fn, nullptr, nullptr, nullptr, extra_state};
    return start_grequest(g);
}

PMPI::Grequest PMPI::Grequest::Start(MPI::Grequest::Query_function* query_fn,
                                     MPI::Grequest::Free_function* free_fn,
                                     MPI::Grequest::Cancel_function* cancel_fn, void* extra_state)
{
    GrequestFns g = {nullptr, nullptr, nullptr, query_fn, free_fn, cancel_fn, extra_state};
    return start_grequest(g);
}

void PMPI::Register_datarep(const char* datarep, Datarep_conversion_function* read_conversion_fn,
                            Datarep_conversion_function* write_conversion_fn,
                            Datarep_extent_function* dtype_file_extent_fn, void* extra_state)
{
    DatarepFns d = {read_conversion_fn, write_conversion_fn, dtype_file_extent_fn,
                    nullptr, nullptr, nullptr, extra_state};
    register_datarep(datarep, d);
}

void PMPI::Register_datarep(const char* datarep,
                            MPI::Datarep_conversion_function* read_conversion_fn,
                            MPI::Datarep_conversion_function* write_conversion_fn,
                            MPI::Datarep_extent_function* dtype_file_extent_fn, void* extra_state)
{
    DatarepFns d = {nullptr, nullptr, nullptr, read_conversion_fn, write_conversion_fn,
                    dtype_file_extent_fn, extra_state};
    register_datarep(datarep, d);
}
