/* np: 2 4 */
/* Send modes: synchronous sends complete only once matched; ready sends; buffered sends with
 * an attached buffer (and MPI_ERR_BUFFER when it is too small). */
#include <mpi.h>
#include <stdlib.h>
#include <unistd.h>
#include "../check.h"

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int partner = rank ^ 1;
    if (partner >= size)
        partner = MPI_PROC_NULL;
    int v = rank, w = -1, flag;
    MPI_Request r;

    /* Issend is not complete before the receive is posted. */
    if (rank % 2 == 0) {
        MPI_Issend(&v, 1, MPI_INT, partner, 1, MPI_COMM_WORLD, &r);
        usleep(20000);
        MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
        CHECK(!flag || partner == MPI_PROC_NULL);
        MPI_Send(&v, 1, MPI_INT, partner, 2, MPI_COMM_WORLD);  /* tells the partner to receive */
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(&w, 1, MPI_INT, partner, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&w, 1, MPI_INT, partner, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(w == partner);
    }
    /* Ssend of a large message. */
    int n = 1 << 18, *big = malloc(n * sizeof *big);
    for (int i = 0; i < n; i++)
        big[i] = rank ^ i;
    if (rank % 2 == 0)
        MPI_Ssend(big, n, MPI_INT, partner, 3, MPI_COMM_WORLD);
    else {
        MPI_Recv(big, n, MPI_INT, partner, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(big[n - 1] == (partner ^ (n - 1)));
    }

    /* Rsend after the partner said its receive is posted. */
    if (rank % 2 == 1) {
        MPI_Irecv(&w, 1, MPI_INT, partner, 4, MPI_COMM_WORLD, &r);
        MPI_Send(&v, 0, MPI_INT, partner, 5, MPI_COMM_WORLD);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        CHECK(w == partner);
    } else if (partner != MPI_PROC_NULL) {
        MPI_Recv(NULL, 0, MPI_INT, partner, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Rsend(&v, 1, MPI_INT, partner, 4, MPI_COMM_WORLD);
    }

    /* Bsend: the data is copied out, so the buffer may change at once; too little space fails. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int cls, bytes = 4 * (1000 * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
    char *space = malloc(bytes);
    CHECK(MPI_Buffer_attach(space, bytes) == MPI_SUCCESS);
    int data[1000];
    if (rank % 2 == 0) {
        for (int k = 0; k < 4; k++) {
            for (int i = 0; i < 1000; i++)
                data[i] = k * 1000 + i;
            CHECK(MPI_Bsend(data, 1000, MPI_INT, partner, 6, MPI_COMM_WORLD) == MPI_SUCCESS);
        }
        if (partner != MPI_PROC_NULL) {
            MPI_Error_class(MPI_Bsend(big, n, MPI_INT, partner, 7, MPI_COMM_WORLD), &cls);
            CHECK(cls == MPI_ERR_BUFFER);
        }
    } else {
        for (int k = 0; k < 4; k++) {
            MPI_Recv(data, 1000, MPI_INT, partner, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            CHECK(data[0] == k * 1000 && data[999] == k * 1000 + 999);
        }
    }
    void *back;
    int back_size;
    CHECK(MPI_Buffer_detach(&back, &back_size) == MPI_SUCCESS && back == space && back_size == bytes);
    MPI_Error_class(MPI_Bsend(data, 1, MPI_INT, partner == MPI_PROC_NULL ? 0 : partner, 8, MPI_COMM_WORLD), &cls);
    CHECK(cls == MPI_ERR_BUFFER);
    /* A buffer attached to a communicator serves buffered sends on it only. */
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    CHECK(MPI_Comm_attach_buffer(dup, space, bytes) == MPI_SUCCESS);
    if (rank % 2 == 0) {
        CHECK(MPI_Bsend(data, 10, MPI_INT, partner, 9, dup) == MPI_SUCCESS);
        MPI_Error_class(MPI_Bsend(data, 10, MPI_INT, partner, 9, MPI_COMM_WORLD), &cls);
        CHECK(cls == MPI_ERR_BUFFER || partner == MPI_PROC_NULL);
    } else {
        MPI_Recv(data, 10, MPI_INT, partner, 9, dup, MPI_STATUS_IGNORE);
    }
    CHECK(MPI_Comm_flush_buffer(dup) == MPI_SUCCESS);
    CHECK(MPI_Comm_detach_buffer(dup, &back, &back_size) == MPI_SUCCESS && back == space &&
          back_size == bytes);
    MPI_Comm_free(&dup);
    free(space);
    free(big);
    MPI_Finalize();
    return CHECK_RESULT();
}
