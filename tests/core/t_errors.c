/* Errors with MPI_ERRORS_RETURN and user error handlers: the right class, a message that names
 * the function and the argument, and the handler of the right object. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int failures;
#define EXPECT(cond) do { if (!(cond)) { failures++; printf("FAILED line %d: %s\n", __LINE__, #cond); } } while (0)

static void expect_error(int rc, int cls, const char *fn, const char *arg)
{
    int c = -1, len = 0;
    char text[MPI_MAX_ERROR_STRING];
    EXPECT(rc != MPI_SUCCESS);
    EXPECT(MPI_Error_class(rc, &c) == MPI_SUCCESS && c == cls);
    EXPECT(MPI_Error_string(rc, text, &len) == MPI_SUCCESS && len == (int)strlen(text));
    EXPECT(strstr(text, fn) && strstr(text, arg));
    printf("%s -> %s\n", fn, text);
}

static int handler_calls, handler_code;
static MPI_Comm handler_comm;
static void handler(MPI_Comm *comm, int *code, ...)
{
    handler_calls++;
    handler_code = *code;
    handler_comm = *comm;
}

/* A handler that clears the error: the function returns what the handler left (MPICH's
 * errors/io/fileerrret relies on it, Open MPI does the same). */
static void clearing_handler(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    *code = MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    int rank = -1, size = -1, x;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    /* A null communicator, an invalid handle value, a stale-looking address, a null output. */
    expect_error(MPI_Comm_rank(MPI_COMM_NULL, &rank), MPI_ERR_COMM, "MPI_Comm_rank", "MPI_COMM_NULL");
    expect_error(MPI_Comm_size((MPI_Comm)0x12345, &size), MPI_ERR_COMM, "MPI_Comm_size", "comm");
    expect_error(MPI_Comm_size((MPI_Comm)&x, &size), MPI_ERR_COMM, "MPI_Comm_size", "comm");
    expect_error(MPI_Comm_size((MPI_Comm)MPI_INT, &size), MPI_ERR_COMM, "MPI_Comm_size", "comm");
    expect_error(MPI_Comm_rank(MPI_COMM_WORLD, NULL), MPI_ERR_ARG, "MPI_Comm_rank", "rank");
    expect_error(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRHANDLER_NULL), MPI_ERR_ERRHANDLER,
                 "MPI_Comm_set_errhandler", "errhandler");
    expect_error(MPI_Error_class(-5, &x), MPI_ERR_ARG, "MPI_Error_class", "errorcode");
    EXPECT(rank == -1 && size == -1);

    /* Predefined classes are their own codes, with their own strings. */
    for (int c = MPI_SUCCESS; c <= MPI_ERR_ABI; c++) {
        char text[MPI_MAX_ERROR_STRING];
        int cls = -1, len = 0;
        EXPECT(MPI_Error_class(c, &cls) == MPI_SUCCESS && cls == c);
        EXPECT(MPI_Error_string(c, text, &len) == MPI_SUCCESS && len > 0 && !strstr(text, "(null)"));
    }

    /* A user handler on one communicator sees that communicator's errors only. */
    MPI_Errhandler eh, got;
    EXPECT(MPI_Comm_create_errhandler(handler, &eh) == MPI_SUCCESS);
    EXPECT(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh) == MPI_SUCCESS);
    EXPECT(MPI_Errhandler_free(&eh) == MPI_SUCCESS && eh == MPI_ERRHANDLER_NULL);
    int rc = MPI_Comm_rank(MPI_COMM_WORLD, NULL);
    EXPECT(handler_calls == 1 && handler_code == rc && handler_comm == MPI_COMM_WORLD);
    rc = MPI_Comm_rank(MPI_COMM_SELF, NULL);                 /* SELF still returns */
    EXPECT(handler_calls == 1 && rc != MPI_SUCCESS);
    EXPECT(MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_OTHER) == MPI_SUCCESS);
    EXPECT(handler_calls == 2 && handler_code == MPI_ERR_OTHER);
    EXPECT(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got) == MPI_SUCCESS && got != MPI_ERRHANDLER_NULL);
    EXPECT(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN) == MPI_SUCCESS);
    /* The handler outlives its free while `got` still refers to it. */
    EXPECT(MPI_Comm_set_errhandler(MPI_COMM_SELF, got) == MPI_SUCCESS);
    EXPECT(MPI_Errhandler_free(&got) == MPI_SUCCESS);
    MPI_Comm_rank(MPI_COMM_NULL, &rank);                     /* no object: MPI_COMM_SELF's handler */
    EXPECT(handler_calls == 3 && handler_comm == MPI_COMM_SELF);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    EXPECT(MPI_Comm_get_errhandler(MPI_COMM_SELF, &got) == MPI_SUCCESS && got == MPI_ERRORS_RETURN);
    EXPECT(MPI_Errhandler_free(&got) == MPI_SUCCESS);
    expect_error(MPI_Errhandler_free(&got), MPI_ERR_ERRHANDLER, "MPI_Errhandler_free", "errhandler");

    EXPECT(MPI_Comm_create_errhandler(clearing_handler, &eh) == MPI_SUCCESS);
    EXPECT(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh) == MPI_SUCCESS);
    EXPECT(MPI_Comm_rank(MPI_COMM_WORLD, NULL) == MPI_SUCCESS);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&eh);

    MPI_Finalize();
    printf("%s\n", failures ? "FAILED" : "ok");
    return failures != 0;
}
