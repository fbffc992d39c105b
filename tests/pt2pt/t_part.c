/* np: 2 */
/* Partitioned communication (MPI 4.0 chapter 4): rank 0 sends 8 partitions, rank 1 receives
 * them as 4 (the same bytes), several runs of the same requests; partitions made ready one at a
 * time in reverse order, by range and by list; MPI_Parrived polled until each arrives; the
 * receive's status names the sender and the user's tag; a receive of the user's with
 * MPI_ANY_TAG does not take a partitioned message; requests match in init order; MPI_PROC_NULL;
 * and the errors: a partition out of range or ready twice, MPI_Pready before MPI_Start,
 * MPI_Parrived on a send request, negative partitions. */
#include <mpi.h>
#include <stdlib.h>

#include "../check.h"

enum { SPARTS = 8, RPARTS = 4, N = 4096 };  /* ints in all */

static int cls(int rc)
{
    int c = -1;
    MPI_Error_class(rc, &c);
    return c;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int *buf = malloc(N * sizeof *buf);
    MPI_Request req, any;
    int any_buf, got_any = 0;
    if (rank == 1)                    /* must not take the partitioned messages */
        MPI_Irecv(&any_buf, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &any);
    if (rank == 0)
        MPI_Psend_init(buf, SPARTS, N / SPARTS, MPI_INT, 1, 7, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    else
        MPI_Precv_init(buf, RPARTS, N / RPARTS, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    for (int run = 0; run < 3; run++) {
        MPI_Start(&req);
        if (rank == 0) {
            for (int i = 0; i < N; i++)
                buf[i] = run * N + i;
            if (run == 0) {
                for (int p = SPARTS - 1; p >= 0; p--)
                    CHECK(MPI_Pready(p, req) == MPI_SUCCESS);
            } else if (run == 1) {
                CHECK(MPI_Pready_range(0, SPARTS / 2 - 1, req) == MPI_SUCCESS);
                CHECK(cls(MPI_Pready(0, req)) == MPI_ERR_ARG);  /* ready already */
                CHECK(MPI_Pready_range(SPARTS / 2, SPARTS - 1, req) == MPI_SUCCESS);
            } else {
                int list[SPARTS] = {5, 1, 7, 3, 0, 2, 6, 4};
                CHECK(cls(MPI_Pready(SPARTS, req)) == MPI_ERR_ARG);
                CHECK(MPI_Pready_list(SPARTS, list, req) == MPI_SUCCESS);
            }
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        } else {
            for (int p = 0; p < RPARTS; p++) {
                int flag = 0;
                while (!flag)
                    CHECK(MPI_Parrived(req, p, &flag) == MPI_SUCCESS);
            }
            MPI_Status st;
            MPI_Wait(&req, &st);
            int bad = 0, n = -1;
            for (int i = 0; i < N; i++)
                bad += buf[i] != run * N + i;
            MPI_Get_count(&st, MPI_INT, &n);
            CHECKF(!bad && st.MPI_SOURCE == 0 && st.MPI_TAG == 7 && n == N,
                   "run %d: %d wrong, source %d, tag %d, count %d", run, bad, st.MPI_SOURCE,
                   st.MPI_TAG, n);
            MPI_Test(&any, &got_any, MPI_STATUS_IGNORE);
            CHECK(!got_any);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);      /* rank 1 has looked at its MPI_ANY_TAG receive */
    /* Errors. */
    if (rank == 0) {
        CHECK(cls(MPI_Pready(0, req)) == MPI_ERR_REQUEST);  /* not started */
        int flag;
        CHECK(cls(MPI_Parrived(req, 0, &flag)) == MPI_ERR_REQUEST);  /* a send */
        MPI_Request bad;
        CHECK(cls(MPI_Psend_init(buf, -1, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &bad))
              == MPI_ERR_ARG);
        MPI_Send(&flag, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);  /* for the MPI_ANY_TAG receive */
    } else {
        MPI_Wait(&any, MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&req);
    /* Same tag, two requests each side: they match in the order of the init calls, whatever the
     * order of MPI_Start (MPI 4.0 section 4.2.2; MPICH's part/multipart). */
    {
        int x[2] = {11, 22}, y[2] = {0, 0};
        MPI_Request two[2];
        for (int k = 0; k < 2; k++)
            if (rank == 0)
                MPI_Psend_init(&x[k], 1, 1, MPI_INT, 1, 9, MPI_COMM_WORLD, MPI_INFO_NULL, &two[k]);
            else
                MPI_Precv_init(&y[k], 1, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, MPI_INFO_NULL, &two[k]);
        for (int k = 0; k < 2; k++) {
            int j = rank == 0 ? k : 1 - k;    /* the receiver starts the second first */
            MPI_Start(&two[j]);
            if (rank == 0)
                MPI_Pready(0, two[j]);
        }
        MPI_Waitall(2, two, MPI_STATUSES_IGNORE);
        if (rank == 1)
            CHECKF(y[0] == 11 && y[1] == 22, "init order: got %d %d", y[0], y[1]);
        MPI_Request_free(&two[0]);
        MPI_Request_free(&two[1]);
    }
    /* MPI_PROC_NULL: complete at once. */
    MPI_Psend_init(buf, 2, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    MPI_Start(&req);
    MPI_Pready_range(0, 1, req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Request_free(&req);
    free(buf);
    MPI_Finalize();
    return CHECK_RESULT();
}
