// PMPI:: communicators: Comm, Intracomm, Cartcomm, Graphcomm, Intercomm over the C PMPI_ calls.
#include <vector>

#include "cxx.h"

#define CHECK(call) mica_cxx_check(call)

// C takes int flags where C++ takes bool arrays.
static std::vector<int> ints_of(const bool* b, int n)
{
    std::vector<int> v(n > 0 ? n : 0);
    for (int i = 0; i < n; i++)
        v[i] = b[i];
    return v;
}

static int cart_ndims(MPI_Comm comm)
{
    int ndims = 0;
    CHECK(PMPI_Cartdim_get(comm, &ndims));
    return ndims;
}

// ---- Comm -----------------------------------------------------------------------------------
int PMPI::Comm::Get_size() const
{
    int size = 0;
    CHECK(PMPI_Comm_size(mpi_comm, &size));
    return size;
}

int PMPI::Comm::Get_rank() const
{
    int rank = MPI_UNDEFINED;
    CHECK(PMPI_Comm_rank(mpi_comm, &rank));
    return rank;
}

PMPI::Group PMPI::Comm::Get_group() const
{
    MPI_Group group = MPI_GROUP_NULL;
    CHECK(PMPI_Comm_group(mpi_comm, &group));
    return group;
}

void PMPI::Comm::Send(const void* buf, int count, const Datatype& datatype, int dest, int tag) const
{
    CHECK(PMPI_Send(buf, count, datatype, dest, tag, mpi_comm));
}

void PMPI::Comm::Ssend(const void* buf, int count, const Datatype& datatype, int dest, int tag) const
{
    CHECK(PMPI_Ssend(buf, count, datatype, dest, tag, mpi_comm));
}

void PMPI::Comm::Bsend(const void* buf, int count, const Datatype& datatype, int dest, int tag) const
{
    CHECK(PMPI_Bsend(buf, count, datatype, dest, tag, mpi_comm));
}

void PMPI::Comm::Rsend(const void* buf, int count, const Datatype& datatype, int dest, int tag) const
{
    CHECK(PMPI_Rsend(buf, count, datatype, dest, tag, mpi_comm));
}

PMPI::Request PMPI::Comm::Isend(const void* buf, int count, const Datatype& datatype, int dest,
                                int tag) const
{
    MPI_Request request = MPI_REQUEST_NULL;
    CHECK(PMPI_Isend(buf, count, datatype, dest, tag, mpi_comm, &request));
    return request;
}

PMPI::Request PMPI::Comm::Issend(const void* buf, int count, const Datatype& datatype, int dest,
                                 int tag) const
{
    MPI_Request request = MPI_REQUEST_NULL;
    CHECK(PMPI_Issend(buf, count, datatype, dest, tag, mpi_comm, &request));
    return request;
}

PMPI::Request PMPI::Comm::Ibsend(const void* buf, int count, const Datatype& datatype, int dest,
                                 int tag) const
{
    MPI_Request request = MPI_REQUEST_NULL;
    CHECK(PMPI_Ibsend(buf, count, datatype, dest, tag, mpi_comm, &request));
    return request;
}

PMPI::Request PMPI::Comm::Irsend(const void* buf, int count, const Datatype& datatype, int dest,
                                 int tag) const
{
    MPI_Request request = MPI_REQUEST_NULL;
    CHECK(PMPI_Irsend(buf, count, datatype, dest, tag, mpi_comm, &request));
    return request;
}

PMPI::Prequest PMPI::Comm::Send_init(const void* buf, int count, const Datatype& datatype, int dest,
                                     int tag) const
{
    MPI_Request request = MPI_REQUEST_NULL;
    CHECK(PMPI_Send_init(buf, count, datatype, dest, tag, mpi_comm, &request));
    return request;
}

void PMPI::Comm::Recv(void* buf, int count, const Datatype& datatype, int source, int tag,
                      Status& status) const
{
    CHECK(PMPI_Recv(buf, count, datatype, source, tag, mpi_comm, &status.mpi_status));
}

void PMPI::Comm::Recv(void* buf, int count, const Datatype& datatype, int source, int tag) const
{
    CHECK(PMPI_Recv(buf, count, datatype, source, tag, mpi_comm, MPI_STATUS_IGNORE));
}

PMPI::Request PMPI::Comm::Irecv(void* buf, int count, const Datatype& datatype, int source,
                                int tag) const
{
    MPI_Request request = MPI_REQUEST_NULL;
    CHECK(PMPI_Irecv(buf, count, datatype, source, tag, mpi_comm, &request));
    return request;
}

PMPI::Prequest PMPI::Comm::Recv_init(void* buf, int count, const Datatype& datatype, int source,
                                     int tag) const
{
    MPI_Request request = MPI_REQUEST_NULL;
    CHECK(PMPI_Recv_init(buf, count, datatype, source, tag, mpi_comm, &request));
    return request;
}

void PMPI::Comm::Sendrecv(const void* sendbuf, int sendcount, const Datatype& sendtype, int dest,
                          int sendtag, void* recvbuf, int recvcount, const Datatype& recvtype,
                          int source, int recvtag, Status& status) const
{
    CHECK(PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                        source, recvtag, mpi_comm, &status.mpi_status));
}

void PMPI::Comm::Sendrecv(const void* sendbuf, int sendcount, const Datatype& sendtype, int dest,
                          int sendtag, void* recvbuf, int recvcount, const Datatype& recvtype,
                          int source, int recvtag) const
{
    CHECK(PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                        source, recvtag, mpi_comm, MPI_STATUS_IGNORE));
}

void PMPI::Comm::Sendrecv_replace(void* buf, int count, const Datatype& datatype, int dest,
                                  int sendtag, int source, int recvtag, Status& status) const
{
    CHECK(PMPI_Sendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, mpi_comm,
                                &status.mpi_status));
}

void PMPI::Comm::Sendrecv_replace(void* buf, int count, const Datatype& datatype, int dest,
                                  int sendtag, int source, int recvtag) const
{
    CHECK(PMPI_Sendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, mpi_comm,
                                MPI_STATUS_IGNORE));
}

void PMPI::Comm::Probe(int source, int tag, Status& status) const
{
    CHECK(PMPI_Probe(source, tag, mpi_comm, &status.mpi_status));
}

void PMPI::Comm::Probe(int source, int tag) const
{
    CHECK(PMPI_Probe(source, tag, mpi_comm, MPI_STATUS_IGNORE));
}

bool PMPI::Comm::Iprobe(int source, int tag, Status& status) const
{
    int flag = 0;
    CHECK(PMPI_Iprobe(source, tag, mpi_comm, &flag, &status.mpi_status));
    return flag;
}

bool PMPI::Comm::Iprobe(int source, int tag) const
{
    int flag = 0;
    CHECK(PMPI_Iprobe(source, tag, mpi_comm, &flag, MPI_STATUS_IGNORE));
    return flag;
}

void PMPI::Comm::Barrier() const
{
    CHECK(PMPI_Barrier(mpi_comm));
}

void PMPI::Comm::Free()
{
    CHECK(PMPI_Comm_free(&mpi_comm));
}

void PMPI::Comm::Set_name(const char* comm_name)
{
    CHECK(PMPI_Comm_set_name(mpi_comm, comm_name));
}

void PMPI::Comm::Get_name(char* comm_name, int& resultlen) const
{
    CHECK(PMPI_Comm_get_name(mpi_comm, comm_name, &resultlen));
}

void PMPI::Comm::Abort(int errorcode) const
{
    CHECK(PMPI_Abort(mpi_comm, errorcode));
}

void PMPI::Comm::Set_errhandler(const Errhandler& errhandler)
{
    CHECK(PMPI_Comm_set_errhandler(mpi_comm, mica_cxx_to_c(errhandler.mpi_errhandler)));
}

PMPI::Errhandler PMPI::Comm::Get_errhandler() const
{
    MPI_Errhandler c = MPI_ERRHANDLER_NULL;
    CHECK(PMPI_Comm_get_errhandler(mpi_comm, &c));
    MPI_Errhandler h = mica_cxx_from_c(c);
    if (h != c)   // ERRORS_THROW_EXCEPTIONS is predefined in C++: no reference to hold
        PMPI_Errhandler_free(&c);
    return h;
}

void PMPI::Comm::Call_errhandler(int errorcode) const
{
    mica_cxx_fail(mpi_comm, errorcode);
}

int PMPI::Comm::Get_topology() const
{
    int topology = MPI_UNDEFINED;
    CHECK(PMPI_Topo_test(mpi_comm, &topology));
    return topology;
}

bool PMPI::Comm::Is_inter() const
{
    int flag = 0;
    CHECK(PMPI_Comm_test_inter(mpi_comm, &flag));
    return flag;
}

int PMPI::Comm::Compare(const Comm& comm1, const Comm& comm2)
{
    int result = MPI_UNEQUAL;
    CHECK(PMPI_Comm_compare(comm1.mpi_comm, comm2.mpi_comm, &result));
    return result;
}

// ---- Intracomm ------------------------------------------------------------------------------
PMPI::Intracomm PMPI::Intracomm::Dup() const
{
    MPI_Comm newcomm = MPI_COMM_NULL;
    CHECK(PMPI_Comm_dup(mpi_comm, &newcomm));
    return newcomm;
}

PMPI::Intracomm PMPI::Intracomm::Split(int color, int key) const
{
    MPI_Comm newcomm = MPI_COMM_NULL;
    CHECK(PMPI_Comm_split(mpi_comm, color, key, &newcomm));
    return newcomm;
}

PMPI::Intracomm PMPI::Intracomm::Create(const Group& group) const
{
    MPI_Comm newcomm = MPI_COMM_NULL;
    CHECK(PMPI_Comm_create(mpi_comm, group.mpi_group, &newcomm));
    return newcomm;
}

void PMPI::Comm::Bcast(void* buffer, int count, const Datatype& datatype, int root) const
{
    CHECK(PMPI_Bcast(buffer, count, datatype, root, mpi_comm));
}

void PMPI::Comm::Reduce(const void* sendbuf, void* recvbuf, int count,
                        const Datatype& datatype, const Op& op, int root) const
{
    CHECK(PMPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, mpi_comm));
}

void PMPI::Comm::Allreduce(const void* sendbuf, void* recvbuf, int count,
                           const Datatype& datatype, const Op& op) const
{
    CHECK(PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, mpi_comm));
}

void PMPI::Intracomm::Scan(const void* sendbuf, void* recvbuf, int count, const Datatype& datatype,
                           const Op& op) const
{
    CHECK(PMPI_Scan(sendbuf, recvbuf, count, datatype, op, mpi_comm));
}

void PMPI::Intracomm::Exscan(const void* sendbuf, void* recvbuf, int count,
                             const Datatype& datatype, const Op& op) const
{
    CHECK(PMPI_Exscan(sendbuf, recvbuf, count, datatype, op, mpi_comm));
}

void PMPI::Comm::Gather(const void* sendbuf, int sendcount, const Datatype& sendtype,
                        void* recvbuf, int recvcount, const Datatype& recvtype, int root) const
{
    CHECK(PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, mpi_comm));
}

void PMPI::Comm::Gatherv(const void* sendbuf, int sendcount, const Datatype& sendtype,
                         void* recvbuf, const int recvcounts[], const int displs[],
                         const Datatype& recvtype, int root) const
{
    CHECK(PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root,
                       mpi_comm));
}

void PMPI::Comm::Scatter(const void* sendbuf, int sendcount, const Datatype& sendtype,
                         void* recvbuf, int recvcount, const Datatype& recvtype,
                         int root) const
{
    CHECK(PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                       mpi_comm));
}

void PMPI::Comm::Scatterv(const void* sendbuf, const int sendcounts[], const int displs[],
                          const Datatype& sendtype, void* recvbuf, int recvcount,
                          const Datatype& recvtype, int root) const
{
    CHECK(PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                        mpi_comm));
}

void PMPI::Comm::Allgather(const void* sendbuf, int sendcount, const Datatype& sendtype,
                           void* recvbuf, int recvcount, const Datatype& recvtype) const
{
    CHECK(PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, mpi_comm));
}

void PMPI::Comm::Allgatherv(const void* sendbuf, int sendcount, const Datatype& sendtype,
                            void* recvbuf, const int recvcounts[], const int displs[],
                            const Datatype& recvtype) const
{
    CHECK(PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                          mpi_comm));
}

void PMPI::Comm::Alltoall(const void* sendbuf, int sendcount, const Datatype& sendtype,
                          void* recvbuf, int recvcount, const Datatype& recvtype) const
{
    CHECK(PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, mpi_comm));
}

PMPI::Cartcomm PMPI::Intracomm::Create_cart(int ndims, const int dims[], const bool periods[],
                                            bool reorder) const
{
    std::vector<int> p = ints_of(periods, ndims);
    MPI_Comm newcomm = MPI_COMM_NULL;
    CHECK(PMPI_Cart_create(mpi_comm, ndims, dims, p.data(), reorder, &newcomm));
    return newcomm;
}

PMPI::Graphcomm PMPI::Intracomm::Create_graph(int nnodes, const int index[], const int edges[],
                                              bool reorder) const
{
    MPI_Comm newcomm = MPI_COMM_NULL;
    CHECK(PMPI_Graph_create(mpi_comm, nnodes, index, edges, reorder, &newcomm));
    return newcomm;
}

PMPI::Intercomm PMPI::Intracomm::Create_intercomm(int local_leader, const Comm& peer_comm,
                                                  int remote_leader, int tag) const
{
    MPI_Comm newcomm = MPI_COMM_NULL;
    CHECK(PMPI_Intercomm_create(mpi_comm, local_leader, peer_comm.mpi_comm, remote_leader, tag,
                                &newcomm));
    return newcomm;
}

// ---- Cartcomm -------------------------------------------------------------------------------
PMPI::Cartcomm PMPI::Cartcomm::Dup() const
{
    MPI_Comm newcomm = MPI_COMM_NULL;
    CHECK(PMPI_Comm_dup(mpi_comm, &newcomm));
    return newcomm;
}

int PMPI::Cartcomm::Get_dim() const
{
    return cart_ndims(mpi_comm);
}

void PMPI::Cartcomm::Get_topo(int maxdims, int dims[], bool periods[], int coords[]) const
{
    std::vector<int> p(maxdims > 0 ? maxdims : 0);
    CHECK(PMPI_Cart_get(mpi_comm, maxdims, dims, p.data(), coords));
    for (int i = 0; i < maxdims; i++)
        periods[i] = p[i];
}

int PMPI::Cartcomm::Get_cart_rank(const int coords[]) const
{
    int rank = MPI_UNDEFINED;
    CHECK(PMPI_Cart_rank(mpi_comm, coords, &rank));
    return rank;
}

void PMPI::Cartcomm::Get_coords(int rank, int maxdims, int coords[]) const
{
    CHECK(PMPI_Cart_coords(mpi_comm, rank, maxdims, coords));
}

void PMPI::Cartcomm::Shift(int direction, int disp, int& rank_source, int& rank_dest) const
{
    CHECK(PMPI_Cart_shift(mpi_comm, direction, disp, &rank_source, &rank_dest));
}

PMPI::Cartcomm PMPI::Cartcomm::Sub(const bool remain_dims[]) const
{
    std::vector<int> r = ints_of(remain_dims, cart_ndims(mpi_comm));
    MPI_Comm newcomm = MPI_COMM_NULL;
    CHECK(PMPI_Cart_sub(mpi_comm, r.data(), &newcomm));
    return newcomm;
}

// ---- Graphcomm ------------------------------------------------------------------------------
PMPI::Graphcomm PMPI::Graphcomm::Dup() const
{
    MPI_Comm newcomm = MPI_COMM_NULL;
    CHECK(PMPI_Comm_dup(mpi_comm, &newcomm));
    return newcomm;
}

void PMPI::Graphcomm::Get_dims(int nnodes[], int nedges[]) const
{
    CHECK(PMPI_Graphdims_get(mpi_comm, nnodes, nedges));
}

int PMPI::Graphcomm::Get_neighbors_count(int rank) const
{
    int n = 0;
    CHECK(PMPI_Graph_neighbors_count(mpi_comm, rank, &n));
    return n;
}

void PMPI::Graphcomm::Get_neighbors(int rank, int maxneighbors, int neighbors[]) const
{
    CHECK(PMPI_Graph_neighbors(mpi_comm, rank, maxneighbors, neighbors));
}

// ---- Intercomm ------------------------------------------------------------------------------
PMPI::Intercomm PMPI::Intercomm::Dup() const
{
    MPI_Comm newcomm = MPI_COMM_NULL;
    CHECK(PMPI_Comm_dup(mpi_comm, &newcomm));
    return newcomm;
}

int PMPI::Intercomm::Get_remote_size() const
{
    int size = 0;
    CHECK(PMPI_Comm_remote_size(mpi_comm, &size));
    return size;
}

PMPI::Group PMPI::Intercomm::Get_remote_group() const
{
    MPI_Group group = MPI_GROUP_NULL;
    CHECK(PMPI_Comm_remote_group(mpi_comm, &group));
    return group;
}

PMPI::Intracomm PMPI::Intercomm::Merge(bool high) const
{
    MPI_Comm newcomm = MPI_COMM_NULL;
    CHECK(PMPI_Intercomm_merge(mpi_comm, high, &newcomm));
    return newcomm;
}

// ---- Comm: the members of MPI-2.2 beyond MPI-1's ----------------------------------------------
PMPI::Prequest PMPI::Comm::Ssend_init(const void* buf, int count, const Datatype& datatype, int dest,
                                      int tag) const
{
    MPI_Request request = MPI_REQUEST_NULL;
    CHECK(PMPI_Ssend_init(buf, count, datatype, dest, tag, mpi_comm, &request));
    return request;
}

PMPI::Prequest PMPI::Comm::Bsend_init(const void* buf, int count, const Datatype& datatype, int dest,
                                      int tag) const
{
    MPI_Request request = MPI_REQUEST_NULL;
    CHECK(PMPI_Bsend_init(buf, count, datatype, dest, tag, mpi_comm, &request));
    return request;
}

PMPI::Prequest PMPI::Comm::Rsend_init(const void* buf, int count, const Datatype& datatype, int dest,
                                      int tag) const
{
    MPI_Request request = MPI_REQUEST_NULL;
    CHECK(PMPI_Rsend_init(buf, count, datatype, dest, tag, mpi_comm, &request));
    return request;
}

void PMPI::Comm::Reduce_scatter(const void* sendbuf, void* recvbuf, int recvcounts[],
                                const Datatype& datatype, const Op& op) const
{
    CHECK(PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, mpi_comm));
}

void PMPI::Comm::Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                                      const Datatype& datatype, const Op& op) const
{
    CHECK(PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, mpi_comm));
}

void PMPI::Comm::Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                           const Datatype& sendtype, void* recvbuf, const int recvcounts[],
                           const int rdispls[], const Datatype& recvtype) const
{
    CHECK(PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                         recvtype, mpi_comm));
}

void PMPI::Comm::Alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                           const Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                           const int rdispls[], const Datatype recvtypes[]) const
{
    static_assert(sizeof(Datatype) == sizeof(MPI_Datatype), "Datatype arrays are C arrays");
    CHECK(PMPI_Alltoallw(sendbuf, sendcounts, sdispls,
                         reinterpret_cast<const MPI_Datatype*>(sendtypes), recvbuf, recvcounts,
                         rdispls, reinterpret_cast<const MPI_Datatype*>(recvtypes), mpi_comm));
}

// Clone: a new object of the dynamic class's kind holding a duplicate (Comm_dup); the caller
// deletes it (the MPI:: forwarder does, after copying it into an MPI:: object).
PMPI::Comm& PMPI::Comm::Clone() const
{
    MPI_Comm newcomm = MPI_COMM_NULL;
    CHECK(PMPI_Comm_dup(mpi_comm, &newcomm));
    return *new Comm(newcomm);
}

void PMPI::Comm::Set_attr(int comm_keyval, const void* attribute_val) const
{
    CHECK(PMPI_Comm_set_attr(mpi_comm, comm_keyval, const_cast<void*>(attribute_val)));
}

bool PMPI::Comm::Get_attr(int comm_keyval, void* attribute_val) const
{
    int flag = 0;
    CHECK(PMPI_Comm_get_attr(mpi_comm, comm_keyval, attribute_val, &flag));
    return flag;
}

void PMPI::Comm::Delete_attr(int comm_keyval)
{
    CHECK(PMPI_Comm_delete_attr(mpi_comm, comm_keyval));
}

void PMPI::Comm::Free_keyval(int& comm_keyval)
{
    CHECK(PMPI_Comm_free_keyval(&comm_keyval));
}

PMPI::Intercomm PMPI::Comm::Get_parent()
{
    MPI_Comm parent = MPI_COMM_NULL;
    CHECK(PMPI_Comm_get_parent(&parent));
    return parent;
}

PMPI::Intercomm PMPI::Comm::Join(const int fd)
{
    MPI_Comm intercomm = MPI_COMM_NULL;
    CHECK(PMPI_Comm_join(fd, &intercomm));
    return intercomm;
}

void PMPI::Comm::Disconnect()
{
    CHECK(PMPI_Comm_disconnect(&mpi_comm));
}

// ---- Intracomm: MPI-2.2's additions -----------------------------------------------------------
PMPI::Intracomm& PMPI::Intracomm::Clone() const
{
    MPI_Comm newcomm = MPI_COMM_NULL;
    CHECK(PMPI_Comm_dup(mpi_comm, &newcomm));
    return *new Intracomm(newcomm);
}

PMPI::Distgraphcomm PMPI::Intracomm::Dist_graph_create(int n, const int sources[],
                                                       const int degrees[],
                                                       const int destinations[],
                                                       const int weights[], const Info& info,
                                                       bool reorder) const
{
    MPI_Comm newcomm = MPI_COMM_NULL;
    CHECK(PMPI_Dist_graph_create(mpi_comm, n, sources, degrees, destinations, weights, info,
                                 reorder, &newcomm));
    return newcomm;
}

PMPI::Distgraphcomm PMPI::Intracomm::Dist_graph_create(int n, const int sources[],
                                                       const int degrees[],
                                                       const int destinations[], const Info& info,
                                                       bool reorder) const
{
    MPI_Comm newcomm = MPI_COMM_NULL;
    CHECK(PMPI_Dist_graph_create(mpi_comm, n, sources, degrees, destinations, MPI_UNWEIGHTED,
                                 info, reorder, &newcomm));
    return newcomm;
}

PMPI::Distgraphcomm PMPI::Intracomm::Dist_graph_create_adjacent(
    int indegree, const int sources[], const int sourceweights[], int outdegree,
    const int destinations[], const int destweights[], const Info& info, bool reorder) const
{
    MPI_Comm newcomm = MPI_COMM_NULL;
    CHECK(PMPI_Dist_graph_create_adjacent(mpi_comm, indegree, sources, sourceweights, outdegree,
                                          destinations, destweights, info, reorder, &newcomm));
    return newcomm;
}

PMPI::Distgraphcomm PMPI::Intracomm::Dist_graph_create_adjacent(
    int indegree, const int sources[], int outdegree, const int destinations[], const Info& info,
    bool reorder) const
{
    MPI_Comm newcomm = MPI_COMM_NULL;
    CHECK(PMPI_Dist_graph_create_adjacent(mpi_comm, indegree, sources, MPI_UNWEIGHTED, outdegree,
                                          destinations, MPI_UNWEIGHTED, info, reorder, &newcomm));
    return newcomm;
}

PMPI::Intercomm PMPI::Intracomm::Accept(const char* port_name, const Info& info, int root) const
{
    MPI_Comm newcomm = MPI_COMM_NULL;
    CHECK(PMPI_Comm_accept(port_name, info, root, mpi_comm, &newcomm));
    return newcomm;
}

PMPI::Intercomm PMPI::Intracomm::Connect(const char* port_name, const Info& info, int root) const
{
    MPI_Comm newcomm = MPI_COMM_NULL;
    CHECK(PMPI_Comm_connect(port_name, info, root, mpi_comm, &newcomm));
    return newcomm;
}

// C takes char* argv[] where C++ takes const char* argv[]: the strings are only read.
PMPI::Intercomm PMPI::Intracomm::Spawn(const char* command, const char* argv[], int maxprocs,
                                       const Info& info, int root) const
{
    MPI_Comm newcomm = MPI_COMM_NULL;
    CHECK(PMPI_Comm_spawn(command, const_cast<char**>(argv), maxprocs, info, root, mpi_comm,
                          &newcomm, MPI_ERRCODES_IGNORE));
    return newcomm;
}

PMPI::Intercomm PMPI::Intracomm::Spawn(const char* command, const char* argv[], int maxprocs,
                                       const Info& info, int root, int array_of_errcodes[]) const
{
    MPI_Comm newcomm = MPI_COMM_NULL;
    CHECK(PMPI_Comm_spawn(command, const_cast<char**>(argv), maxprocs, info, root, mpi_comm,
                          &newcomm, array_of_errcodes));
    return newcomm;
}

PMPI::Intercomm PMPI::Intracomm::Spawn_multiple(int count, const char* array_of_commands[],
                                                const char** array_of_argv[],
                                                const int array_of_maxprocs[],
                                                const Info array_of_info[], int root) const
{
    static_assert(sizeof(Info) == sizeof(MPI_Info), "Info arrays are C arrays");
    MPI_Comm newcomm = MPI_COMM_NULL;
    CHECK(PMPI_Comm_spawn_multiple(count, const_cast<char**>(array_of_commands),
                                   const_cast<char***>(array_of_argv), array_of_maxprocs,
                                   reinterpret_cast<const MPI_Info*>(array_of_info), root,
                                   mpi_comm, &newcomm, MPI_ERRCODES_IGNORE));
    return newcomm;
}

PMPI::Intercomm PMPI::Intracomm::Spawn_multiple(int count, const char* array_of_commands[],
                                                const char** array_of_argv[],
                                                const int array_of_maxprocs[],
                                                const Info array_of_info[], int root,
                                                int array_of_errcodes[]) const
{
    MPI_Comm newcomm = MPI_COMM_NULL;
    CHECK(PMPI_Comm_spawn_multiple(count, const_cast<char**>(array_of_commands),
                                   const_cast<char***>(array_of_argv), array_of_maxprocs,
                                   reinterpret_cast<const MPI_Info*>(array_of_info), root,
                                   mpi_comm, &newcomm, array_of_errcodes));
    return newcomm;
}

// ---- Cartcomm, Graphcomm, Distgraphcomm: MPI-2.2's additions ----------------------------------
PMPI::Cartcomm& PMPI::Cartcomm::Clone() const
{
    MPI_Comm newcomm = MPI_COMM_NULL;
    CHECK(PMPI_Comm_dup(mpi_comm, &newcomm));
    return *new Cartcomm(newcomm);
}

int PMPI::Cartcomm::Map(int ndims, const int dims[], const bool periods[]) const
{
    std::vector<int> p = ints_of(periods, ndims);
    int newrank = MPI_UNDEFINED;
    CHECK(PMPI_Cart_map(mpi_comm, ndims, dims, p.data(), &newrank));
    return newrank;
}

PMPI::Graphcomm& PMPI::Graphcomm::Clone() const
{
    MPI_Comm newcomm = MPI_COMM_NULL;
    CHECK(PMPI_Comm_dup(mpi_comm, &newcomm));
    return *new Graphcomm(newcomm);
}

void PMPI::Graphcomm::Get_topo(int maxindex, int maxedges, int index[], int edges[]) const
{
    CHECK(PMPI_Graph_get(mpi_comm, maxindex, maxedges, index, edges));
}

int PMPI::Graphcomm::Map(int nnodes, const int index[], const int edges[]) const
{
    int newrank = MPI_UNDEFINED;
    CHECK(PMPI_Graph_map(mpi_comm, nnodes, index, edges, &newrank));
    return newrank;
}

PMPI::Distgraphcomm PMPI::Distgraphcomm::Dup() const
{
    MPI_Comm newcomm = MPI_COMM_NULL;
    CHECK(PMPI_Comm_dup(mpi_comm, &newcomm));
    return newcomm;
}

PMPI::Distgraphcomm& PMPI::Distgraphcomm::Clone() const
{
    MPI_Comm newcomm = MPI_COMM_NULL;
    CHECK(PMPI_Comm_dup(mpi_comm, &newcomm));
    return *new Distgraphcomm(newcomm);
}

void PMPI::Distgraphcomm::Get_dist_neighbors_count(int& indegree, int& outdegree,
                                                   bool& weighted) const
{
    int w = 0;
    CHECK(PMPI_Dist_graph_neighbors_count(mpi_comm, &indegree, &outdegree, &w));
    weighted = w;
}

void PMPI::Distgraphcomm::Get_dist_neighbors(int maxindegree, int sources[], int sourceweights[],
                                             int maxoutdegree, int destinations[],
                                             int destweights[])
{
    CHECK(PMPI_Dist_graph_neighbors(mpi_comm, maxindegree, sources, sourceweights, maxoutdegree,
                                    destinations, destweights));
}

// ---- Intercomm: MPI-2.2's additions -----------------------------------------------------------
PMPI::Intercomm& PMPI::Intercomm::Clone() const
{
    MPI_Comm newcomm = MPI_COMM_NULL;
    CHECK(PMPI_Comm_dup(mpi_comm, &newcomm));
    return *new Intercomm(newcomm);
}

PMPI::Intercomm PMPI::Intercomm::Create(const Group& group) const
{
    MPI_Comm newcomm = MPI_COMM_NULL;
    CHECK(PMPI_Comm_create(mpi_comm, group, &newcomm));
    return newcomm;
}

PMPI::Intercomm PMPI::Intercomm::Split(int color, int key) const
{
    MPI_Comm newcomm = MPI_COMM_NULL;
    CHECK(PMPI_Comm_split(mpi_comm, color, key, &newcomm));
    return newcomm;
}
