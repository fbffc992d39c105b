/* MPI_Bcast.
 *  - short messages: a binomial tree rooted at `root` (ceil(log2 p) rounds);
 *  - long messages (MICA_BCAST_LONG bytes and more, 3 processes or more, each with a processor
 *    of its own): the data as bytes is scattered down the binomial tree, one piece per process,
 *    then a ring allgather puts the pieces together everywhere (van de Geijn): about 2n bytes
 *    through each process instead of n log p along the tree's deepest path. Derived datatypes
 *    are packed first. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coll/coll.h"
#include "coll/inter.h"
#include "core/errors.h"
#include "core/progress.h"
#include "core_api.h"

static int bcast_binomial(void *buf, MPI_Count count, mica_type_t *type, int root,
                          mica_comm_t *comm)
{
    int size = comm->size, rank = comm->rank, vrank = (rank - root + size) % size;
    int mask = 1, rc = MPI_SUCCESS;
    while (mask < size) {
        if (vrank & mask) {
            rc = mica_coll_recv(buf, count, type, (rank - mask + size) % size, MICA_TAG_BCAST, comm);
            if (rc != MPI_SUCCESS)
                return rc;
            break;
        }
        mask <<= 1;
    }
    /* Send to every child at once: their transfers overlap. */
    mica_request_t *reqs[32];
    int n = 0;
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (vrank + mask < size) {
            rc = mica_coll_isend(buf, count, type, (rank + mask) % size, MICA_TAG_BCAST, comm,
                                 &reqs[n]);
            if (rc != MPI_SUCCESS)
                break;
            n++;
        }
    int rc2 = mica_request_waitall(n, reqs);
    return rc != MPI_SUCCESS ? rc : rc2;
}

/* Bytes of the pieces [a, b) (relative ranks) of a message of n bytes cut in pieces of `piece`. */
static MPI_Count span(int a, int b, MPI_Count piece, MPI_Count n)
{
    MPI_Count lo = a * piece, hi = b * piece;
    if (hi > n)
        hi = n;
    return hi > lo ? hi - lo : 0;
}

static int bcast_scatter_ring(char *data, MPI_Count n, int root, mica_comm_t *comm)
{
    int size = comm->size, rank = comm->rank, vrank = (rank - root + size) % size;
    mica_type_t *byte = &mica_type_MPI_BYTE;
    MPI_Count piece = (n + size - 1) / size;
    int rc, mask = 1;

    /* Scatter: the subtree of vrank (vrank .. vrank + its lowest set bit) gets its pieces. */
    while (mask < size) {
        if (vrank & mask) {
            int end = vrank + mask < size ? vrank + mask : size;
            rc = mica_coll_recv(data + vrank * piece, span(vrank, end, piece, n), byte,
                                (rank - mask + size) % size, MICA_TAG_BCAST, comm);
            if (rc != MPI_SUCCESS)
                return rc;
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (vrank + mask < size) {
            int child = vrank + mask, end = child + mask < size ? child + mask : size;
            MPI_Count len = span(child, end, piece, n);
            if (len) {
                rc = mica_coll_send(data + child * piece, len, byte, (rank + mask) % size,
                                    MICA_TAG_BCAST, comm);
                if (rc != MPI_SUCCESS)
                    return rc;
            }
        }

    /* Ring allgather of the pieces: in step i, pass on the piece received in step i - 1. */
    int left = (rank - 1 + size) % size, right = (rank + 1) % size;
    for (int i = 0; i < size - 1; i++) {
        int sp = (vrank - i + size) % size, rp = (vrank - i - 1 + size) % size;
        rc = mica_coll_sendrecv(data + sp * piece, span(sp, sp + 1, piece, n), byte, right,
                                data + rp * piece, span(rp, rp + 1, piece, n), byte, left,
                                MICA_TAG_BCAST, comm);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

/* Where the long-message algorithm starts. Its ring moves in lockstep rounds that need every
 * process running at once: with more processes than processors the binomial tree is faster
 * (measured on 2 cores with 3 to 8 processes: 3 to 20 times, 1 to 16 MiB), so there it is used
 * for every size unless MICA_BCAST_LONG says otherwise. */
static long long_limit(void)
{
    long limit = mica_coll_tunable("MICA_BCAST_LONG", -1);
    if (limit >= 0)
        return limit;
    static long cpus;
    if (!cpus)
        cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return mica_comm_world.size <= cpus ? MICA_BCAST_LONG : LONG_MAX;
}

int mica_coll_bcast(void *buf, MPI_Count count, mica_type_t *type, int root, mica_comm_t *comm)
{
    MPI_Count n = count * type->size;
    if (comm->size == 1 || n == 0)
        return MPI_SUCCESS;
    if (n < long_limit() || comm->size < 3)
        return bcast_binomial(buf, count, type, root, comm);
    int contiguous = type->contiguous;  /* then count elements are one block too */
    char *data = (char *)buf + type->true_lb, *packed = NULL;
    if (!contiguous) {
        if (!(packed = malloc((size_t)n)))
            return mica_error(MPI_ERR_NO_MEM, "no memory for a copy of %lld bytes", (long long)n);
        if (comm->rank == root)
            mica_type_pack(buf, count, type, 0, packed, n);
        data = packed;
    }
    int rc = bcast_scatter_ring(data, n, root, comm);
    if (packed) {
        if (rc == MPI_SUCCESS && comm->rank != root)
            mica_type_unpack(buf, count, type, 0, packed, n);
        free(packed);
    }
    return rc;
}

int mica_bcast_c(void *buffer, MPI_Count count, mica_type_t *datatype, int root,
                 mica_comm_t *comm)
{
    if (comm->inter)
        return mica_inter_bcast(buffer, count, datatype, root, comm);
    int rc = mica_coll_check_type(datatype, "datatype");
    if (rc != MPI_SUCCESS)
        return rc;
    if (buffer == MPI_IN_PLACE)
        return mica_error(MPI_ERR_BUFFER, "buffer is MPI_IN_PLACE, which MPI_Bcast does not allow");
    mica_lock();
    rc = mica_coll_bcast(buffer, count, datatype, root, comm);
    mica_unlock();
    return rc;
}
