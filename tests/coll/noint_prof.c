/* The profiling library of test_no_internal_calls.sh: counts the collectives the program calls
 * and every point-to-point call it sees, and prints the counts at MPI_Finalize. */
#include <mpi.h>
#include <stdio.h>

enum { BCAST, ALLREDUCE, SEND, ISEND, RECV, IRECV, SENDRECV, OTHER, N };
static const char *const names[N] = {"MPI_Bcast", "MPI_Allreduce", "MPI_Send", "MPI_Isend",
                                     "MPI_Recv", "MPI_Irecv", "MPI_Sendrecv", "other pt2pt"};
static long counts[N];

int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    counts[BCAST]++;
    return PMPI_Bcast(buf, count, type, root, comm);
}

int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                  MPI_Comm comm)
{
    counts[ALLREDUCE]++;
    return PMPI_Allreduce(sbuf, rbuf, count, type, op, comm);
}

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    counts[SEND]++;
    return PMPI_Send(buf, count, type, dest, tag, comm);
}

int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
              MPI_Request *req)
{
    counts[ISEND]++;
    return PMPI_Isend(buf, count, type, dest, tag, comm, req);
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int src, int tag, MPI_Comm comm,
             MPI_Status *st)
{
    counts[RECV]++;
    return PMPI_Recv(buf, count, type, src, tag, comm, st);
}

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int src, int tag, MPI_Comm comm,
              MPI_Request *req)
{
    counts[IRECV]++;
    return PMPI_Irecv(buf, count, type, src, tag, comm, req);
}

int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest, int stag,
                 void *rbuf, int rcount, MPI_Datatype rtype, int src, int rtag, MPI_Comm comm,
                 MPI_Status *st)
{
    counts[SENDRECV]++;
    return PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, src, rtag, comm, st);
}

/* The large-count and other forms an implementation might use inside. */
int MPI_Send_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag,
               MPI_Comm comm)
{
    counts[OTHER]++;
    return PMPI_Send_c(buf, count, type, dest, tag, comm);
}

int MPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype type, int src, int tag, MPI_Comm comm,
               MPI_Status *st)
{
    counts[OTHER]++;
    return PMPI_Recv_c(buf, count, type, src, tag, comm, st);
}

int MPI_Isend_c(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag,
                MPI_Comm comm, MPI_Request *req)
{
    counts[OTHER]++;
    return PMPI_Isend_c(buf, count, type, dest, tag, comm, req);
}

int MPI_Irecv_c(void *buf, MPI_Count count, MPI_Datatype type, int src, int tag, MPI_Comm comm,
                MPI_Request *req)
{
    counts[OTHER]++;
    return PMPI_Irecv_c(buf, count, type, src, tag, comm, req);
}

int MPI_Wait(MPI_Request *req, MPI_Status *st)
{
    counts[OTHER]++;
    return PMPI_Wait(req, st);
}

int MPI_Waitall(int n, MPI_Request reqs[], MPI_Status sts[])
{
    counts[OTHER]++;
    return PMPI_Waitall(n, reqs, sts);
}

int MPI_Finalize(void)
{
    int rank = -1;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < N; i++)
        printf("prof: rank %d: %s called %ld times\n", rank, names[i], counts[i]);
    fflush(stdout);
    return PMPI_Finalize();
}
