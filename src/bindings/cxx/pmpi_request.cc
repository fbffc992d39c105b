// PMPI:: requests and statuses over the C PMPI_ calls. A PMPI::Request (and an MPI::Request,
// which holds one) is exactly an MPI_Request, a Status exactly an MPI_Status: arrays of them
// are passed to C as they are.
#include "cxx.h"

#define CHECK(call) mica_cxx_check(call)

static_assert(sizeof(PMPI::Request) == sizeof(MPI_Request), "Request arrays are MPI_Request arrays");
static_assert(sizeof(MPI::Request) == sizeof(MPI_Request), "Request arrays are MPI_Request arrays");
static_assert(sizeof(PMPI::Prequest) == sizeof(MPI_Request), "Prequest arrays too");
static_assert(sizeof(MPI::Prequest) == sizeof(MPI_Request), "Prequest arrays too");
static_assert(sizeof(PMPI::Status) == sizeof(MPI_Status), "Status arrays are MPI_Status arrays");
static_assert(sizeof(MPI::Status) == sizeof(MPI_Status), "Status arrays are MPI_Status arrays");

static MPI_Request* c_requests(PMPI::Request array[])
{
    return reinterpret_cast<MPI_Request*>(array);
}

static MPI_Status* c_statuses(PMPI::Status array[])
{
    return reinterpret_cast<MPI_Status*>(array);
}

// ---- Request --------------------------------------------------------------------------------
void PMPI::Request::Wait(Status& status)
{
    CHECK(PMPI_Wait(&mpi_request, &status.mpi_status));
}

void PMPI::Request::Wait()
{
    CHECK(PMPI_Wait(&mpi_request, MPI_STATUS_IGNORE));
}

bool PMPI::Request::Test(Status& status)
{
    int flag = 0;
    CHECK(PMPI_Test(&mpi_request, &flag, &status.mpi_status));
    return flag;
}

bool PMPI::Request::Test()
{
    int flag = 0;
    CHECK(PMPI_Test(&mpi_request, &flag, MPI_STATUS_IGNORE));
    return flag;
}

void PMPI::Request::Free()
{
    CHECK(PMPI_Request_free(&mpi_request));
}

void PMPI::Request::Cancel() const
{
    MPI_Request r = mpi_request;
    CHECK(PMPI_Cancel(&r));
}

void PMPI::Request::Waitall(int count, Request array_of_requests[], Status array_of_statuses[])
{
    CHECK(PMPI_Waitall(count, c_requests(array_of_requests), c_statuses(array_of_statuses)));
}

void PMPI::Request::Waitall(int count, Request array_of_requests[])
{
    CHECK(PMPI_Waitall(count, c_requests(array_of_requests), MPI_STATUSES_IGNORE));
}

bool PMPI::Request::Testall(int count, Request array_of_requests[], Status array_of_statuses[])
{
    int flag = 0;
    CHECK(PMPI_Testall(count, c_requests(array_of_requests), &flag, c_statuses(array_of_statuses)));
    return flag;
}

bool PMPI::Request::Testall(int count, Request array_of_requests[])
{
    int flag = 0;
    CHECK(PMPI_Testall(count, c_requests(array_of_requests), &flag, MPI_STATUSES_IGNORE));
    return flag;
}

int PMPI::Request::Waitany(int count, Request array_of_requests[], Status& status)
{
    int index = MPI_UNDEFINED;
    CHECK(PMPI_Waitany(count, c_requests(array_of_requests), &index, &status.mpi_status));
    return index;
}

int PMPI::Request::Waitany(int count, Request array_of_requests[])
{
    int index = MPI_UNDEFINED;
    CHECK(PMPI_Waitany(count, c_requests(array_of_requests), &index, MPI_STATUS_IGNORE));
    return index;
}

bool PMPI::Request::Testany(int count, Request array_of_requests[], int& index, Status& status)
{
    int flag = 0;
    CHECK(PMPI_Testany(count, c_requests(array_of_requests), &index, &flag, &status.mpi_status));
    return flag;
}

bool PMPI::Request::Testany(int count, Request array_of_requests[], int& index)
{
    int flag = 0;
    CHECK(PMPI_Testany(count, c_requests(array_of_requests), &index, &flag, MPI_STATUS_IGNORE));
    return flag;
}

// ---- Prequest -------------------------------------------------------------------------------
void PMPI::Prequest::Start()
{
    CHECK(PMPI_Start(&mpi_request));
}

void PMPI::Prequest::Startall(int count, Prequest array_of_requests[])
{
    CHECK(PMPI_Startall(count, c_requests(array_of_requests)));
}

// ---- Status ---------------------------------------------------------------------------------
int PMPI::Status::Get_count(const Datatype& datatype) const
{
    int count = 0;
    CHECK(PMPI_Get_count(&mpi_status, datatype, &count));
    return count;
}

int PMPI::Status::Get_elements(const Datatype& datatype) const
{
    int count = 0;
    CHECK(PMPI_Get_elements(&mpi_status, datatype, &count));
    return count;
}

bool PMPI::Status::Is_cancelled() const
{
    int flag = 0;
    CHECK(PMPI_Test_cancelled(&mpi_status, &flag));
    return flag;
}

int PMPI::Status::Get_source() const
{
    return mpi_status.MPI_SOURCE;
}

int PMPI::Status::Get_tag() const
{
    return mpi_status.MPI_TAG;
}

int PMPI::Status::Get_error() const
{
    return mpi_status.MPI_ERROR;
}

void PMPI::Status::Set_source(int source)
{
    mpi_status.MPI_SOURCE = source;
}

void PMPI::Status::Set_tag(int tag)
{
    mpi_status.MPI_TAG = tag;
}

void PMPI::Status::Set_error(int error)
{
    mpi_status.MPI_ERROR = error;
}

// ---- Request, Grequest, Status: MPI-2.2's additions -------------------------------------------
bool PMPI::Request::Get_status(Status& status) const
{
    int flag = 0;
    CHECK(PMPI_Request_get_status(mpi_request, &flag, &status.mpi_status));
    return flag;
}

bool PMPI::Request::Get_status() const
{
    int flag = 0;
    CHECK(PMPI_Request_get_status(mpi_request, &flag, MPI_STATUS_IGNORE));
    return flag;
}

int PMPI::Request::Waitsome(int incount, Request array_of_requests[], int array_of_indices[],
                            Status array_of_statuses[])
{
    int outcount = MPI_UNDEFINED;
    CHECK(PMPI_Waitsome(incount, c_requests(array_of_requests), &outcount, array_of_indices,
                        c_statuses(array_of_statuses)));
    return outcount;
}

int PMPI::Request::Waitsome(int incount, Request array_of_requests[], int array_of_indices[])
{
    int outcount = MPI_UNDEFINED;
    CHECK(PMPI_Waitsome(incount, c_requests(array_of_requests), &outcount, array_of_indices,
                        MPI_STATUSES_IGNORE));
    return outcount;
}

int PMPI::Request::Testsome(int incount, Request array_of_requests[], int array_of_indices[],
                            Status array_of_statuses[])
{
    int outcount = MPI_UNDEFINED;
    CHECK(PMPI_Testsome(incount, c_requests(array_of_requests), &outcount, array_of_indices,
                        c_statuses(array_of_statuses)));
    return outcount;
}

int PMPI::Request::Testsome(int incount, Request array_of_requests[], int array_of_indices[])
{
    int outcount = MPI_UNDEFINED;
    CHECK(PMPI_Testsome(incount, c_requests(array_of_requests), &outcount, array_of_indices,
                        MPI_STATUSES_IGNORE));
    return outcount;
}

void PMPI::Grequest::Complete()
{
    CHECK(PMPI_Grequest_complete(mpi_request));
}

void PMPI::Status::Set_elements(const Datatype& datatype, int count)
{
    CHECK(PMPI_Status_set_elements(&mpi_status, datatype, count));
}

void PMPI::Status::Set_cancelled(bool flag)
{
    CHECK(PMPI_Status_set_cancelled(&mpi_status, flag));
}
