/* np: 2 */
/* MPI_T from any thread under MPI_THREAD_MULTIPLE: while the main thread exchanges messages, a
 * second thread reads performance variables and writes a control variable the waiting loop
 * reads (MICA_YIELD_POLLS) without a lock of its own; the counter of messages sent is exact at
 * the end, and its reads never go down. */
#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond) do { if (!(cond)) { printf("FAIL line %d: %s\n", __LINE__, #cond); exit(1); } } while (0)
#define N 2000

static MPI_T_pvar_session ses;
static MPI_T_pvar_handle sent;
static atomic_int done;

static void *watcher(void *arg)
{
    (void)arg;
    unsigned long long last = 0, v;
    int idx, count, y;
    MPI_T_cvar_handle yield;
    CHECK(MPI_T_cvar_get_index("MICA_YIELD_POLLS", &idx) == MPI_SUCCESS);
    CHECK(MPI_T_cvar_handle_alloc(idx, NULL, &yield, &count) == MPI_SUCCESS);
    for (int i = 0; !done; i++) {
        CHECK(MPI_T_pvar_read(ses, sent, &v) == MPI_SUCCESS);
        CHECK(v >= last);
        last = v;
        y = 1000 + i % 1000;
        CHECK(MPI_T_cvar_write(yield, &y) == MPI_SUCCESS);
    }
    CHECK(MPI_T_cvar_handle_free(&yield) == MPI_SUCCESS);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, rank, idx, count, x = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    CHECK(provided == MPI_THREAD_MULTIPLE);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    CHECK(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided) == MPI_SUCCESS);
    CHECK(provided == MPI_THREAD_MULTIPLE);
    CHECK(MPI_T_pvar_session_create(&ses) == MPI_SUCCESS);
    CHECK(MPI_T_pvar_get_index("pt2pt_messages_sent", MPI_T_PVAR_CLASS_COUNTER, &idx) == MPI_SUCCESS);
    CHECK(MPI_T_pvar_handle_alloc(ses, idx, NULL, &sent, &count) == MPI_SUCCESS);
    CHECK(MPI_T_pvar_start(ses, sent) == MPI_SUCCESS);
    pthread_t t;
    pthread_create(&t, NULL, watcher, NULL);
    for (int i = 0; i < N; i++) {     /* ping-pong */
        if (rank == 0) {
            MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
            MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        }
    }
    CHECK(MPI_T_pvar_stop(ses, sent) == MPI_SUCCESS);
    done = 1;
    pthread_join(t, NULL);
    unsigned long long v;
    CHECK(MPI_T_pvar_read(ses, sent, &v) == MPI_SUCCESS);
    CHECK(v == N);
    CHECK(MPI_T_pvar_session_free(&ses) == MPI_SUCCESS);
    CHECK(MPI_T_finalize() == MPI_SUCCESS);
    MPI_Finalize();
    return 0;
}
