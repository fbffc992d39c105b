/* np: 2 4 */
/* Messages of every size class: eager, rendezvous pipelined through shared memory, up to
 * 64 MiB; truncation reports MPI_ERR_TRUNCATE and keeps what fits. */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../check.h"

static unsigned char pattern(size_t i, int seed) { return (unsigned char)(i * 131 + seed * 7 + (i >> 12)); }

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    const size_t sizes[] = {0, 1, 63, 64, 4096, 16383, 16384, 16385, 100000, 1 << 20, 64 << 20};
    const size_t max = 64 << 20;
    unsigned char *buf = malloc(max);
    int partner = rank ^ 1;
    if (partner < size) {
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            size_t n = sizes[k];
            if (rank % 2 == 0) {
                for (size_t i = 0; i < n; i++)
                    buf[i] = pattern(i, (int)k);
                MPI_Send(buf, (int)n, MPI_BYTE, partner, (int)k, MPI_COMM_WORLD);
                MPI_Recv(buf, (int)n, MPI_BYTE, partner, (int)k, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                size_t bad = 0;
                for (size_t i = 0; i < n; i++)
                    bad += buf[i] != (unsigned char)~pattern(i, (int)k);
                CHECK(bad == 0);
            } else {
                MPI_Status st;
                memset(buf, 0, n);
                MPI_Recv(buf, (int)max, MPI_BYTE, partner, (int)k, MPI_COMM_WORLD, &st);
                int count;
                MPI_Get_count(&st, MPI_BYTE, &count);
                CHECK((size_t)count == n);
                size_t bad = 0;
                for (size_t i = 0; i < n; i++) {
                    bad += buf[i] != pattern(i, (int)k);
                    buf[i] = (unsigned char)~buf[i];
                }
                CHECK(bad == 0);
                MPI_Send(buf, (int)n, MPI_BYTE, partner, (int)k, MPI_COMM_WORLD);
            }
        }
        /* Truncation, eager and rendezvous: the receiver keeps what fits and says so. */
        for (int big = 0; big < 2; big++) {
            int n = big ? 1 << 20 : 100;
            if (rank % 2 == 0) {
                MPI_Send(buf, n, MPI_BYTE, partner, 99, MPI_COMM_WORLD);
            } else {
                MPI_Status st;
                int rc = MPI_Recv(buf, n / 2, MPI_BYTE, partner, 99, MPI_COMM_WORLD, &st), cls = -1, count = -1;
                MPI_Error_class(rc, &cls);
                MPI_Get_count(&st, MPI_BYTE, &count);
                CHECK(cls == MPI_ERR_TRUNCATE && count == n / 2);
            }
        }
        /* Both directions at once with large nonblocking messages. */
        unsigned char *in = malloc(8 << 20);
        MPI_Request r[2];
        for (size_t i = 0; i < 8 << 20; i++)
            buf[i] = pattern(i, rank);
        MPI_Irecv(in, 8 << 20, MPI_BYTE, partner, 5, MPI_COMM_WORLD, &r[0]);
        MPI_Isend(buf, 8 << 20, MPI_BYTE, partner, 5, MPI_COMM_WORLD, &r[1]);
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
        size_t bad = 0;
        for (size_t i = 0; i < 8 << 20; i++)
            bad += in[i] != pattern(i, partner);
        CHECK(bad == 0);
        free(in);
    }
    free(buf);
    MPI_Finalize();
    return CHECK_RESULT();
}
