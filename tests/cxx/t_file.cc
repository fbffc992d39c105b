// np: 1 2 4
// MPI::File: Open/Close/Delete, explicit offsets, individual and shared file pointers (Seek,
// Get_position, Write_ordered), a view (Set_view/Get_view with MPI:: datatypes), nonblocking
// and split collective access, size and atomicity, Get_group/Get_amode/Get_info; a C++ error
// handler (File::Create_errhandler) on FILE_NULL called with the file and the code when an open
// fails; ERRORS_THROW_EXCEPTIONS on a file. MPI::SEEK_SET is usable after <stdio.h> too.
#include <stdio.h>
#include <mpi.h>
#include <unistd.h>

#include "../check.h"

static int handled, handled_code;

static void file_handler(MPI::File& file, int* code, ...)
{
    CHECK(file == MPI::FILE_NULL);
    handled++;
    handled_code = *code;
}

int main()
{
    MPI::Init();
    MPI::Intracomm world = MPI::COMM_WORLD;
    int rank = world.Get_rank(), size = world.Get_size();
    CHECK(MPI::SEEK_SET != MPI::SEEK_CUR && MPI::SEEK_CUR != MPI::SEEK_END);
    CHECK(SEEK_SET == 0 && SEEK_CUR == 1 && SEEK_END == 2);   // <stdio.h>'s values still work

    char path[256];
    if (rank == 0)
        snprintf(path, sizeof path, "/tmp/mica-cxx-file-%d", (int)getpid());
    world.Bcast(path, sizeof path, MPI::CHAR, 0);

    MPI::File f = MPI::File::Open(world, path, MPI::MODE_CREATE | MPI::MODE_RDWR, MPI::INFO_NULL);
    CHECK(f.Get_amode() == (MPI::MODE_CREATE | MPI::MODE_RDWR));
    MPI::Group g = f.Get_group();
    CHECK(g.Get_size() == size);
    g.Free();
    MPI::Info info = f.Get_info();
    info.Free();

    // Explicit offsets: rank r writes 4 ints at 4r.
    int out[4], in[4];
    for (int i = 0; i < 4; i++)
        out[i] = 10 * rank + i;
    MPI::Status st;
    f.Write_at(rank * sizeof out, out, 4, MPI::INT, st);
    CHECK(st.Get_count(MPI::INT) == 4);
    world.Barrier();
    f.Sync();
    CHECK(f.Get_size() == (MPI::Offset)(size * sizeof out));
    int r2 = (rank + 1) % size;
    f.Read_at_all(r2 * sizeof in, in, 4, MPI::INT);
    for (int i = 0; i < 4; i++)
        CHECKF(in[i] == 10 * r2 + i, "read_at_all in[%d] = %d", i, in[i]);

    // Individual file pointer.
    f.Seek(r2 * sizeof in + sizeof(int), MPI::SEEK_SET);
    CHECK(f.Get_position() == (MPI::Offset)(r2 * sizeof in + sizeof(int)));   // etype BYTE
    int x = -1;
    f.Read(&x, 1, MPI::INT, st);
    CHECK(x == 10 * r2 + 1);
    CHECK(f.Get_byte_offset(f.Get_position()) == (MPI::Offset)(r2 * sizeof in + 2 * sizeof(int)));
    MPI::Request req = f.Iread_at(rank * sizeof in, in, 4, MPI::INT);
    req.Wait(st);
    CHECK(in[3] == 10 * rank + 3);

    // A view: each rank sees every size-th int from its rank on.
    MPI::Datatype one = MPI::INT.Create_vector(1, 1, size);
    MPI::Datatype vec = one.Create_resized(0, size * sizeof(int));
    one.Free();
    vec.Commit();
    f.Set_view(rank * sizeof(int), MPI::INT, vec, "native", MPI::INFO_NULL);
    MPI::Offset disp;
    MPI::Datatype etype, ftype;
    char rep[MPI::MAX_DATAREP_STRING];
    f.Get_view(disp, etype, ftype, rep);
    CHECK(disp == (MPI::Offset)(rank * sizeof(int)) && etype == MPI::INT);
    if (ftype != MPI::INT)
        ftype.Free();
    CHECK(f.Get_type_extent(MPI::INT) == sizeof(int));
    f.Read_all_begin(in, 2, MPI::INT);
    f.Read_all_end(in, st);
    CHECK(st.Get_count(MPI::INT) == 2);
    for (int i = 0; i < 2; i++) {   // file int k = 10 * (k / 4) + k % 4
        int k = rank + i * size;
        CHECKF(in[i] == 10 * (k / 4) + k % 4, "view in[%d] = %d", i, in[i]);
    }
    vec.Free();
    f.Set_view(0, MPI::BYTE, MPI::BYTE, "native", MPI::INFO_NULL);

    // Shared file pointer: ordered writes land in rank order after a Seek_shared.
    f.Seek_shared(0, MPI::SEEK_END);
    MPI::Offset end = f.Get_position_shared();
    CHECK(end == (MPI::Offset)(size * sizeof out));
    f.Write_ordered(&rank, sizeof rank, MPI::BYTE);
    f.Read_at_all(end + rank * sizeof(int), &x, sizeof x, MPI::BYTE);
    CHECKF(x == rank, "ordered: %d", x);

    f.Set_atomicity(true);
    CHECK(f.Get_atomicity());
    f.Close();
    CHECK(f == MPI::FILE_NULL);

    // A C++ error handler on FILE_NULL sees a failed open.
    MPI::Errhandler eh = MPI::File::Create_errhandler(file_handler);
    MPI::FILE_NULL.Set_errhandler(eh);   // not const: its handler is the program's to set
    eh.Free();
    MPI::File bad = MPI::File::Open(MPI::COMM_SELF, "/nonexistent-dir/x", MPI::MODE_RDONLY,
                                    MPI::INFO_NULL);
    CHECK(handled == 1 && MPI::Get_error_class(handled_code) == MPI::ERR_NO_SUCH_FILE);
    CHECK(bad == MPI::FILE_NULL);

    // ... and ERRORS_THROW_EXCEPTIONS throws.
    MPI::FILE_NULL.Set_errhandler(MPI::ERRORS_THROW_EXCEPTIONS);
    CHECK(MPI::FILE_NULL.Get_errhandler() == MPI::ERRORS_THROW_EXCEPTIONS);
    bool thrown = false;
    try {
        MPI::File::Open(MPI::COMM_SELF, "/nonexistent-dir/x", MPI::MODE_RDONLY, MPI::INFO_NULL);
    } catch (MPI::Exception& e) {
        thrown = true;
        CHECKF(e.Get_error_class() == MPI::ERR_NO_SUCH_FILE, "class %d", e.Get_error_class());
    }
    CHECK(thrown);
    MPI::FILE_NULL.Set_errhandler(MPI::ERRORS_RETURN);

    world.Barrier();
    if (rank == 0)
        MPI::File::Delete(path, MPI::INFO_NULL);
    MPI::Finalize();
    return CHECK_RESULT();
}
