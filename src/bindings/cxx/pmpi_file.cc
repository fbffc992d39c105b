// PMPI:: MPI-IO: File over the C PMPI_File_ calls (its error handlers, which call C++ functions,
// are in pmpi_callbacks.cc). Each data access comes with and without a Status, as in the
// standard's C++ binding; without, the C call gets MPI_STATUS_IGNORE.
#include "cxx.h"

#define CHECK(call) mica_cxx_check(call)

PMPI::File PMPI::File::Open(const Intracomm& comm, const char* filename, int amode,
                            const Info& info)
{
    MPI_File file = MPI_FILE_NULL;
    CHECK(PMPI_File_open(comm, filename, amode, info, &file));
    return file;
}

void PMPI::File::Close()
{
    CHECK(PMPI_File_close(&mpi_file));
}

void PMPI::File::Delete(const char* filename, const Info& info)
{
    CHECK(PMPI_File_delete(filename, info));
}

void PMPI::File::Set_size(Offset size)
{
    CHECK(PMPI_File_set_size(mpi_file, size));
}

void PMPI::File::Preallocate(Offset size)
{
    CHECK(PMPI_File_preallocate(mpi_file, size));
}

PMPI::Offset PMPI::File::Get_size() const
{
    MPI_Offset size = 0;
    CHECK(PMPI_File_get_size(mpi_file, &size));
    return size;
}

PMPI::Group PMPI::File::Get_group() const
{
    MPI_Group group = MPI_GROUP_NULL;
    CHECK(PMPI_File_get_group(mpi_file, &group));
    return group;
}

int PMPI::File::Get_amode() const
{
    int amode = 0;
    CHECK(PMPI_File_get_amode(mpi_file, &amode));
    return amode;
}

void PMPI::File::Set_info(const Info& info)
{
    CHECK(PMPI_File_set_info(mpi_file, info));
}

PMPI::Info PMPI::File::Get_info() const
{
    MPI_Info info = MPI_INFO_NULL;
    CHECK(PMPI_File_get_info(mpi_file, &info));
    return info;
}

void PMPI::File::Set_view(Offset disp, const Datatype& etype, const Datatype& filetype,
                          const char* datarep, const Info& info)
{
    CHECK(PMPI_File_set_view(mpi_file, disp, etype, filetype, datarep, info));
}

void PMPI::File::Get_view(Offset& disp, Datatype& etype, Datatype& filetype, char* datarep) const
{
    CHECK(PMPI_File_get_view(mpi_file, &disp, &etype.mpi_datatype, &filetype.mpi_datatype,
                             datarep));
}

void PMPI::File::Read_at(Offset offset, void* buf, int count, const Datatype& datatype, Status& status)
{
    CHECK(PMPI_File_read_at(mpi_file, offset, buf, count, datatype, &status.mpi_status));
}

void PMPI::File::Read_at(Offset offset, void* buf, int count, const Datatype& datatype)
{
    CHECK(PMPI_File_read_at(mpi_file, offset, buf, count, datatype, MPI_STATUS_IGNORE));
}

void PMPI::File::Read_at_all(Offset offset, void* buf, int count, const Datatype& datatype, Status& status)
{
    CHECK(PMPI_File_read_at_all(mpi_file, offset, buf, count, datatype, &status.mpi_status));
}

void PMPI::File::Read_at_all(Offset offset, void* buf, int count, const Datatype& datatype)
{
    CHECK(PMPI_File_read_at_all(mpi_file, offset, buf, count, datatype, MPI_STATUS_IGNORE));
}

PMPI::Request PMPI::File::Iread_at(Offset offset, void* buf, int count, const Datatype& datatype)
{
    MPI_Request request = MPI_REQUEST_NULL;
    CHECK(PMPI_File_iread_at(mpi_file, offset, buf, count, datatype, &request));
    return request;
}

void PMPI::File::Read(void* buf, int count, const Datatype& datatype, Status& status)
{
    CHECK(PMPI_File_read(mpi_file, buf, count, datatype, &status.mpi_status));
}

void PMPI::File::Read(void* buf, int count, const Datatype& datatype)
{
    CHECK(PMPI_File_read(mpi_file, buf, count, datatype, MPI_STATUS_IGNORE));
}

void PMPI::File::Read_all(void* buf, int count, const Datatype& datatype, Status& status)
{
    CHECK(PMPI_File_read_all(mpi_file, buf, count, datatype, &status.mpi_status));
}

void PMPI::File::Read_all(void* buf, int count, const Datatype& datatype)
{
    CHECK(PMPI_File_read_all(mpi_file, buf, count, datatype, MPI_STATUS_IGNORE));
}

PMPI::Request PMPI::File::Iread(void* buf, int count, const Datatype& datatype)
{
    MPI_Request request = MPI_REQUEST_NULL;
    CHECK(PMPI_File_iread(mpi_file, buf, count, datatype, &request));
    return request;
}

void PMPI::File::Read_shared(void* buf, int count, const Datatype& datatype, Status& status)
{
    CHECK(PMPI_File_read_shared(mpi_file, buf, count, datatype, &status.mpi_status));
}

void PMPI::File::Read_shared(void* buf, int count, const Datatype& datatype)
{
    CHECK(PMPI_File_read_shared(mpi_file, buf, count, datatype, MPI_STATUS_IGNORE));
}

PMPI::Request PMPI::File::Iread_shared(void* buf, int count, const Datatype& datatype)
{
    MPI_Request request = MPI_REQUEST_NULL;
    CHECK(PMPI_File_iread_shared(mpi_file, buf, count, datatype, &request));
    return request;
}

void PMPI::File::Read_ordered(void* buf, int count, const Datatype& datatype, Status& status)
{
    CHECK(PMPI_File_read_ordered(mpi_file, buf, count, datatype, &status.mpi_status));
}

void PMPI::File::Read_ordered(void* buf, int count, const Datatype& datatype)
{
    CHECK(PMPI_File_read_ordered(mpi_file, buf, count, datatype, MPI_STATUS_IGNORE));
}

void PMPI::File::Read_at_all_begin(Offset offset, void* buf, int count, const Datatype& datatype)
{
    CHECK(PMPI_File_read_at_all_begin(mpi_file, offset, buf, count, datatype));
}

void PMPI::File::Read_at_all_end(void* buf, Status& status)
{
    CHECK(PMPI_File_read_at_all_end(mpi_file, buf, &status.mpi_status));
}

void PMPI::File::Read_at_all_end(void* buf)
{
    CHECK(PMPI_File_read_at_all_end(mpi_file, buf, MPI_STATUS_IGNORE));
}

void PMPI::File::Read_all_begin(void* buf, int count, const Datatype& datatype)
{
    CHECK(PMPI_File_read_all_begin(mpi_file, buf, count, datatype));
}

void PMPI::File::Read_all_end(void* buf, Status& status)
{
    CHECK(PMPI_File_read_all_end(mpi_file, buf, &status.mpi_status));
}

void PMPI::File::Read_all_end(void* buf)
{
    CHECK(PMPI_File_read_all_end(mpi_file, buf, MPI_STATUS_IGNORE));
}

void PMPI::File::Read_ordered_begin(void* buf, int count, const Datatype& datatype)
{
    CHECK(PMPI_File_read_ordered_begin(mpi_file, buf, count, datatype));
}

void PMPI::File::Read_ordered_end(void* buf, Status& status)
{
    CHECK(PMPI_File_read_ordered_end(mpi_file, buf, &status.mpi_status));
}

void PMPI::File::Read_ordered_end(void* buf)
{
    CHECK(PMPI_File_read_ordered_end(mpi_file, buf, MPI_STATUS_IGNORE));
}

void PMPI::File::Write_at(Offset offset, const void* buf, int count, const Datatype& datatype, Status& status)
{
    CHECK(PMPI_File_write_at(mpi_file, offset, buf, count, datatype, &status.mpi_status));
}

void PMPI::File::Write_at(Offset offset, const void* buf, int count, const Datatype& datatype)
{
    CHECK(PMPI_File_write_at(mpi_file, offset, buf, count, datatype, MPI_STATUS_IGNORE));
}

void PMPI::File::Write_at_all(Offset offset, const void* buf, int count, const Datatype& datatype, Status& status)
{
    CHECK(PMPI_File_write_at_all(mpi_file, offset, buf, count, datatype, &status.mpi_status));
}

void PMPI::File::Write_at_all(Offset offset, const void* buf, int count, const Datatype& datatype)
{
    CHECK(PMPI_File_write_at_all(mpi_file, offset, buf, count, datatype, MPI_STATUS_IGNORE));
}

PMPI::Request PMPI::File::Iwrite_at(Offset offset, const void* buf, int count, const Datatype& datatype)
{
    MPI_Request request = MPI_REQUEST_NULL;
    CHECK(PMPI_File_iwrite_at(mpi_file, offset, buf, count, datatype, &request));
    return request;
}

void PMPI::File::Write(const void* buf, int count, const Datatype& datatype, Status& status)
{
    CHECK(PMPI_File_write(mpi_file, buf, count, datatype, &status.mpi_status));
}

void PMPI::File::Write(const void* buf, int count, const Datatype& datatype)
{
    CHECK(PMPI_File_write(mpi_file, buf, count, datatype, MPI_STATUS_IGNORE));
}

void PMPI::File::Write_all(const void* buf, int count, const Datatype& datatype, Status& status)
{
    CHECK(PMPI_File_write_all(mpi_file, buf, count, datatype, &status.mpi_status));
}

void PMPI::File::Write_all(const void* buf, int count, const Datatype& datatype)
{
    CHECK(PMPI_File_write_all(mpi_file, buf, count, datatype, MPI_STATUS_IGNORE));
}

PMPI::Request PMPI::File::Iwrite(const void* buf, int count, const Datatype& datatype)
{
    MPI_Request request = MPI_REQUEST_NULL;
    CHECK(PMPI_File_iwrite(mpi_file, buf, count, datatype, &request));
    return request;
}

void PMPI::File::Write_shared(const void* buf, int count, const Datatype& datatype, Status& status)
{
    CHECK(PMPI_File_write_shared(mpi_file, buf, count, datatype, &status.mpi_status));
}

void PMPI::File::Write_shared(const void* buf, int count, const Datatype& datatype)
{
    CHECK(PMPI_File_write_shared(mpi_file, buf, count, datatype, MPI_STATUS_IGNORE));
}

PMPI::Request PMPI::File::Iwrite_shared(const void* buf, int count, const Datatype& datatype)
{
    MPI_Request request = MPI_REQUEST_NULL;
    CHECK(PMPI_File_iwrite_shared(mpi_file, buf, count, datatype, &request));
    return request;
}

void PMPI::File::Write_ordered(const void* buf, int count, const Datatype& datatype, Status& status)
{
    CHECK(PMPI_File_write_ordered(mpi_file, buf, count, datatype, &status.mpi_status));
}

void PMPI::File::Write_ordered(const void* buf, int count, const Datatype& datatype)
{
    CHECK(PMPI_File_write_ordered(mpi_file, buf, count, datatype, MPI_STATUS_IGNORE));
}

void PMPI::File::Write_at_all_begin(Offset offset, const void* buf, int count, const Datatype& datatype)
{
    CHECK(PMPI_File_write_at_all_begin(mpi_file, offset, buf, count, datatype));
}

void PMPI::File::Write_at_all_end(const void* buf, Status& status)
{
    CHECK(PMPI_File_write_at_all_end(mpi_file, buf, &status.mpi_status));
}

void PMPI::File::Write_at_all_end(const void* buf)
{
    CHECK(PMPI_File_write_at_all_end(mpi_file, buf, MPI_STATUS_IGNORE));
}

void PMPI::File::Write_all_begin(const void* buf, int count, const Datatype& datatype)
{
    CHECK(PMPI_File_write_all_begin(mpi_file, buf, count, datatype));
}

void PMPI::File::Write_all_end(const void* buf, Status& status)
{
    CHECK(PMPI_File_write_all_end(mpi_file, buf, &status.mpi_status));
}

void PMPI::File::Write_all_end(const void* buf)
{
    CHECK(PMPI_File_write_all_end(mpi_file, buf, MPI_STATUS_IGNORE));
}

void PMPI::File::Write_ordered_begin(const void* buf, int count, const Datatype& datatype)
{
    CHECK(PMPI_File_write_ordered_begin(mpi_file, buf, count, datatype));
}

void PMPI::File::Write_ordered_end(const void* buf, Status& status)
{
    CHECK(PMPI_File_write_ordered_end(mpi_file, buf, &status.mpi_status));
}

void PMPI::File::Write_ordered_end(const void* buf)
{
    CHECK(PMPI_File_write_ordered_end(mpi_file, buf, MPI_STATUS_IGNORE));
}

void PMPI::File::Seek(Offset offset, int whence)
{
    CHECK(PMPI_File_seek(mpi_file, offset, whence));
}

PMPI::Offset PMPI::File::Get_position() const
{
    MPI_Offset offset = 0;
    CHECK(PMPI_File_get_position(mpi_file, &offset));
    return offset;
}

PMPI::Offset PMPI::File::Get_byte_offset(const Offset disp) const
{
    MPI_Offset offset = 0;
    CHECK(PMPI_File_get_byte_offset(mpi_file, disp, &offset));
    return offset;
}

void PMPI::File::Seek_shared(Offset offset, int whence)
{
    CHECK(PMPI_File_seek_shared(mpi_file, offset, whence));
}

PMPI::Offset PMPI::File::Get_position_shared() const
{
    MPI_Offset offset = 0;
    CHECK(PMPI_File_get_position_shared(mpi_file, &offset));
    return offset;
}

PMPI::Aint PMPI::File::Get_type_extent(const Datatype& datatype) const
{
    MPI_Aint extent = 0;
    CHECK(PMPI_File_get_type_extent(mpi_file, datatype, &extent));
    return extent;
}

void PMPI::File::Set_atomicity(bool flag)
{
    CHECK(PMPI_File_set_atomicity(mpi_file, flag));
}

bool PMPI::File::Get_atomicity() const
{
    int flag = 0;
    CHECK(PMPI_File_get_atomicity(mpi_file, &flag));
    return flag;
}

void PMPI::File::Sync()
{
    CHECK(PMPI_File_sync(mpi_file));
}

void PMPI::File::Set_errhandler(const Errhandler& errhandler)
{
    CHECK(PMPI_File_set_errhandler(mpi_file, mica_cxx_to_c(errhandler, MICA_CXX_FILE)));
}

PMPI::Errhandler PMPI::File::Get_errhandler() const
{
    MPI_Errhandler c = MPI_ERRHANDLER_NULL;
    CHECK(PMPI_File_get_errhandler(mpi_file, &c));
    MPI_Errhandler h = mica_cxx_from_c(c);
    if (h != c)   // ERRORS_THROW_EXCEPTIONS is predefined in C++: no reference to hold
        PMPI_Errhandler_free(&c);
    return h;
}

void PMPI::File::Call_errhandler(int errorcode) const
{
    mica_cxx_fail_file(mpi_file, errorcode);
}
