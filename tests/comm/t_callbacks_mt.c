/* np: 2 */
/* With MPI_THREAD_MULTIPLE the library holds its lock around every call (core/progress.h), and
 * lets it go around the user's callbacks, which may call MPI themselves: an attribute copy and
 * delete function, an error handler (called by MPI_Comm_call_errhandler and by a failing call)
 * and a generalized request's query and free functions each call MPI here, while a second
 * thread keeps sending and receiving; none of them may deadlock. */
#include <mpi.h>
#include <pthread.h>

#include "../check.h"

static int rank, calls;

/* What every callback does: ask MPI something. */
static void ask(void)
{
    int r = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    CHECK(r == rank);
    calls++;
}

static int copy_fn(MPI_Comm c, int k, void *extra, void *in, void *out, int *flag)
{
    (void)c, (void)k, (void)extra;
    ask();
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int delete_fn(MPI_Comm c, int k, void *value, void *extra)
{
    (void)c, (void)k, (void)value, (void)extra;
    ask();
    return MPI_SUCCESS;
}

static void handler(MPI_Comm *c, int *code, ...)
{
    (void)c, (void)code;
    ask();
}

static int query_fn(void *extra, MPI_Status *status)
{
    (void)extra;
    ask();
    MPI_Status_set_elements(status, MPI_BYTE, 0);
    MPI_Status_set_cancelled(status, 0);
    status->MPI_SOURCE = MPI_UNDEFINED;
    status->MPI_TAG = MPI_UNDEFINED;
    return MPI_SUCCESS;
}

static int free_fn(void *extra)
{
    (void)extra;
    ask();
    return MPI_SUCCESS;
}

static int cancel_fn(void *extra, int complete)
{
    (void)extra, (void)complete;
    return MPI_SUCCESS;
}

/* The second thread: messages to and from the other process on a communicator of its own. */
static void *traffic(void *arg)
{
    MPI_Comm c = *(MPI_Comm *)arg;
    for (int i = 0; i < 2000; i++) {
        int out = i, in = -1;
        MPI_Sendrecv(&out, 1, MPI_INT, 1 - rank, 0, &in, 1, MPI_INT, 1 - rank, 0, c,
                     MPI_STATUS_IGNORE);
        CHECK(in == i);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    CHECK(provided == MPI_THREAD_MULTIPLE);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm other;
    MPI_Comm_dup(MPI_COMM_WORLD, &other);
    pthread_t t;
    pthread_create(&t, NULL, traffic, &other);

    for (int round = 0; round < 20; round++) {
        /* Attributes: copied by MPI_Comm_dup, deleted by MPI_Comm_free. */
        int key;
        MPI_Comm a, b;
        MPI_Comm_create_keyval(copy_fn, delete_fn, &key, NULL);
        MPI_Comm_dup(MPI_COMM_WORLD, &a);
        MPI_Comm_set_attr(a, key, &key);
        MPI_Comm_dup(a, &b);
        MPI_Comm_free(&a);
        MPI_Comm_free(&b);
        MPI_Comm_free_keyval(&key);

        /* An error handler, called by hand and by a failing call. */
        MPI_Errhandler eh;
        MPI_Comm_create_errhandler(handler, &eh);
        MPI_Comm_dup(MPI_COMM_WORLD, &a);
        MPI_Comm_set_errhandler(a, eh);
        MPI_Comm_call_errhandler(a, MPI_ERR_OTHER);
        int x = 0;
        CHECK(MPI_Send(&x, 1, MPI_INT, 99, 0, a) != MPI_SUCCESS);
        MPI_Comm_free(&a);
        MPI_Errhandler_free(&eh);

        /* A generalized request. */
        MPI_Request g;
        MPI_Grequest_start(query_fn, free_fn, cancel_fn, NULL, &g);
        MPI_Grequest_complete(g);
        MPI_Wait(&g, MPI_STATUS_IGNORE);
    }
    pthread_join(t, NULL);
    CHECK(calls == 20 * 7);
    MPI_Comm_free(&other);
    MPI_Finalize();
    return CHECK_RESULT();
}
