/* np: 2 3 4 */
/* Probe, Iprobe, matched probes (Mprobe, Improbe, Mrecv, Imrecv): sizes known before receiving,
 * and a matched message cannot be stolen by another receive. */
#include <mpi.h>
#include <stdlib.h>
#include "../check.h"

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank != 0) {
        int data[100];
        for (int i = 0; i < 100; i++)
            data[i] = rank * 1000 + i;
        MPI_Send(data, rank * 10, MPI_INT, 0, 1, MPI_COMM_WORLD);         /* for Probe */
        MPI_Send(data, rank, MPI_INT, 0, 100 + rank, MPI_COMM_WORLD);     /* for Mprobe */
        MPI_Send(data, 1, MPI_INT, 0, 200, MPI_COMM_WORLD);               /* for Improbe */
    } else {
        for (int k = 1; k < size; k++) {
            MPI_Status st;
            int count, flag = 0;
            MPI_Probe(MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &st);
            MPI_Get_count(&st, MPI_INT, &count);
            CHECK(count == st.MPI_SOURCE * 10 && st.MPI_TAG == 1);
            int *buf = malloc(count * sizeof *buf);
            MPI_Iprobe(st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
            CHECK(flag);
            MPI_Recv(buf, count, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            CHECK(buf[count - 1] == st.MPI_SOURCE * 1000 + count - 1);
            free(buf);
        }
        for (int src = 1; src < size; src++) {
            MPI_Message msg;
            MPI_Status st;
            int count, buf[100] = {0};
            MPI_Mprobe(src, 100 + src, MPI_COMM_WORLD, &msg, &st);
            MPI_Get_count(&st, MPI_INT, &count);
            CHECK(count == src && msg != MPI_MESSAGE_NULL);
            /* The matched message is no longer visible to probes. */
            int flag = 1;
            MPI_Iprobe(src, 100 + src, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
            CHECK(!flag);
            MPI_Mrecv(buf, count, MPI_INT, &msg, &st);
            CHECK(msg == MPI_MESSAGE_NULL && buf[0] == src * 1000 && st.MPI_SOURCE == src);
        }
        int got = 0;
        while (got < size - 1) {
            MPI_Message msg;
            int flag = 0, v = -1;
            MPI_Improbe(MPI_ANY_SOURCE, 200, MPI_COMM_WORLD, &flag, &msg, MPI_STATUS_IGNORE);
            if (!flag)
                continue;
            MPI_Request r;
            MPI_Imrecv(&v, 1, MPI_INT, &msg, &r);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
            CHECK(v % 1000 == 0 && v >= 1000);
            got++;
        }
        /* MPI_PROC_NULL: a message with nothing in it. */
        MPI_Message msg;
        MPI_Status st;
        MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &msg, &st);
        CHECK(msg == MPI_MESSAGE_NO_PROC && st.MPI_SOURCE == MPI_PROC_NULL);
        MPI_Mrecv(NULL, 0, MPI_INT, &msg, &st);
        CHECK(msg == MPI_MESSAGE_NULL && st.MPI_SOURCE == MPI_PROC_NULL);
    }
    MPI_Finalize();
    return CHECK_RESULT();
}
