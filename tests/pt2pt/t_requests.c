/* np: 1 2 4 */
/* Every completion function, persistent requests, cancel, request status, generalized
 * requests, and MPI_ERR_IN_STATUS. */
#include <mpi.h>
#include <stdlib.h>
#include "../check.h"

static int query_calls, free_calls;
static int query(void *extra, MPI_Status *s)
{
    query_calls++;
    MPI_Status_set_source(s, *(int *)extra);
    MPI_Status_set_tag(s, 42);
    MPI_Status_set_error(s, MPI_SUCCESS);
    MPI_Status_set_cancelled(s, 0);
    MPI_Status_set_elements(s, MPI_INT, 3);
    return MPI_SUCCESS;
}
static int gfree(void *extra) { (void)extra; free_calls++; return MPI_SUCCESS; }
static int gcancel(void *extra, int complete) { (void)extra; (void)complete; return MPI_SUCCESS; }

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    enum { K = 6 };
    int out[K], in[K];
    MPI_Request rq[2 * K];
    MPI_Status st[2 * K];

    /* Waitall over mixed sends and receives, with a null request among them. */
    for (int i = 0; i < K; i++) {
        out[i] = rank * 100 + i;
        MPI_Irecv(&in[i], 1, MPI_INT, prev, i, MPI_COMM_WORLD, &rq[i]);
        MPI_Isend(&out[i], 1, MPI_INT, next, i, MPI_COMM_WORLD, &rq[K + i]);
    }
    rq[K] = MPI_REQUEST_NULL;
    MPI_Send(&out[0], 1, MPI_INT, next, 0, MPI_COMM_WORLD); /* replaces the nulled isend */
    CHECK(MPI_Waitall(2 * K, rq, st) == MPI_SUCCESS);
    for (int i = 0; i < K; i++)
        CHECK(in[i] == prev * 100 + i && st[i].MPI_SOURCE == prev && st[i].MPI_TAG == i &&
              rq[i] == MPI_REQUEST_NULL);

    /* Waitany / Testany / Waitsome / Testsome / Testall until all are done. */
    for (int i = 0; i < K; i++) {
        MPI_Irecv(&in[i], 1, MPI_INT, prev, 50 + i, MPI_COMM_WORLD, &rq[i]);
        MPI_Isend(&out[i], 1, MPI_INT, next, 50 + i, MPI_COMM_WORLD, &rq[K + i]);
    }
    int done = 0, idx, flag, outcount, indices[2 * K];
    while (done < K) {
        MPI_Waitany(K, rq, &idx, &st[0]);
        CHECK(idx >= 0 && idx < K && in[idx] == prev * 100 + idx && rq[idx] == MPI_REQUEST_NULL);
        done++;
    }
    MPI_Waitany(K, rq, &idx, MPI_STATUS_IGNORE);
    CHECK(idx == MPI_UNDEFINED);
    do {
        MPI_Testall(K, rq + K, &flag, MPI_STATUSES_IGNORE);
    } while (!flag);
    MPI_Testany(K, rq + K, &idx, &flag, MPI_STATUS_IGNORE);
    CHECK(flag && idx == MPI_UNDEFINED);

    for (int i = 0; i < K; i++) {
        MPI_Irecv(&in[i], 1, MPI_INT, prev, 80 + i, MPI_COMM_WORLD, &rq[i]);
        MPI_Isend(&out[i], 1, MPI_INT, next, 80 + i, MPI_COMM_WORLD, &rq[K + i]);
    }
    done = 0;
    while (done < 2 * K) {
        MPI_Waitsome(2 * K, rq, &outcount, indices, st);
        CHECK(outcount >= 1);
        done += outcount;
    }
    MPI_Testsome(2 * K, rq, &outcount, indices, st);
    CHECK(outcount == MPI_UNDEFINED);

    /* Persistent requests, started several times. */
    MPI_Request p[2];
    int pv = 0, pin = -1;
    MPI_Recv_init(&pin, 1, MPI_INT, prev, 9, MPI_COMM_WORLD, &p[0]);
    MPI_Send_init(&pv, 1, MPI_INT, next, 9, MPI_COMM_WORLD, &p[1]);
    for (int round = 0; round < 5; round++) {
        pv = rank + round;
        MPI_Startall(2, p);
        MPI_Waitall(2, p, st);
        CHECK(pin == prev + round && p[0] != MPI_REQUEST_NULL);
    }
    MPI_Wait(&p[0], &st[0]);                   /* inactive: returns at once, empty status */
    CHECK(st[0].MPI_SOURCE == MPI_ANY_SOURCE && st[0].MPI_TAG == MPI_ANY_TAG);
    MPI_Request_free(&p[0]);
    MPI_Request_free(&p[1]);
    CHECK(p[0] == MPI_REQUEST_NULL && p[1] == MPI_REQUEST_NULL);

    /* Cancel a receive that nothing matches. */
    MPI_Request c;
    MPI_Irecv(in, 1, MPI_INT, MPI_ANY_SOURCE, 12345, MPI_COMM_WORLD, &c);
    MPI_Cancel(&c);
    MPI_Wait(&c, &st[0]);
    MPI_Test_cancelled(&st[0], &flag);
    CHECK(flag);

    /* Request_get_status does not free; Request_free of a pending request completes later. */
    MPI_Irecv(&in[0], 1, MPI_INT, prev, 13, MPI_COMM_WORLD, &rq[0]);
    MPI_Send(&out[0], 1, MPI_INT, next, 13, MPI_COMM_WORLD);
    do {
        MPI_Request_get_status(rq[0], &flag, &st[0]);
    } while (!flag);
    CHECK(rq[0] != MPI_REQUEST_NULL && st[0].MPI_SOURCE == prev);
    MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
    MPI_Isend(&out[1], 1, MPI_INT, next, 14, MPI_COMM_WORLD, &rq[0]);
    MPI_Request_free(&rq[0]);
    MPI_Recv(&in[1], 1, MPI_INT, prev, 14, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(in[1] == prev * 100 + 1);

    /* Generalized requests. */
    MPI_Request g;
    int who = 77, count;
    MPI_Grequest_start(query, gfree, gcancel, &who, &g);
    MPI_Test(&g, &flag, MPI_STATUS_IGNORE);
    CHECK(!flag);
    MPI_Grequest_complete(g);
    MPI_Wait(&g, &st[0]);
    MPI_Get_count(&st[0], MPI_INT, &count);
    CHECK(g == MPI_REQUEST_NULL && st[0].MPI_SOURCE == 77 && st[0].MPI_TAG == 42 && count == 3 &&
          query_calls == 1 && free_calls == 1);

    /* A truncated receive in a Waitall: MPI_ERR_IN_STATUS, the error in its status. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int two[2] = {1, 2};
    MPI_Irecv(in, 1, MPI_INT, prev, 15, MPI_COMM_WORLD, &rq[0]);
    MPI_Isend(two, 2, MPI_INT, next, 15, MPI_COMM_WORLD, &rq[1]);
    int rc = MPI_Waitall(2, rq, st), cls;
    MPI_Error_class(st[0].MPI_ERROR, &cls);
    CHECK(rc == MPI_ERR_IN_STATUS && cls == MPI_ERR_TRUNCATE && st[1].MPI_ERROR == MPI_SUCCESS);

    MPI_Finalize();
    return CHECK_RESULT();
}
