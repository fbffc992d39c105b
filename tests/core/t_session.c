/* np: 1 4 */
/* MPI Sessions: a session before and without MPI_Init, its process sets, a group and a
 * communicator from them with a collective on it, finalize and a second session (the runtime
 * starts again), then sessions next to the world model, and one more after MPI_Finalize. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include "../check.h"

static int handler_calls, handler_code;
static void session_handler(MPI_Session *s, int *code, ...)
{
    (void)s;
    handler_calls++;
    handler_code = *code;
}

static int error_class(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

/* A communicator of process set `pset` of session `s`, checked with an allreduce; its size. */
static int comm_of_pset(MPI_Session s, const char *pset, const char *tag)
{
    MPI_Group g = MPI_GROUP_NULL;
    MPI_Comm c = MPI_COMM_NULL;
    int gsize = -1, grank = -1, size = -1, rank = -1, sum = -1;
    CHECK(MPI_Group_from_session_pset(s, pset, &g) == MPI_SUCCESS);
    MPI_Group_size(g, &gsize);
    MPI_Group_rank(g, &grank);
    CHECK(MPI_Comm_create_from_group(g, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c) == MPI_SUCCESS);
    CHECK(c != MPI_COMM_NULL);
    MPI_Comm_size(c, &size);
    MPI_Comm_rank(c, &rank);
    CHECK(size == gsize && rank == grank);
    CHECK(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, c) == MPI_SUCCESS);
    CHECKF(sum == size * (size - 1) / 2, "sum %d size %d", sum, size);
    CHECK(MPI_Barrier(c) == MPI_SUCCESS);
    MPI_Errhandler eh;
    CHECK(MPI_Comm_get_errhandler(c, &eh) == MPI_SUCCESS && eh == MPI_ERRORS_RETURN);
    MPI_Comm_free(&c);
    MPI_Group_free(&g);
    return size;
}

static void check_psets(MPI_Session s, int world_size)
{
    int n = -1, len, found_world = 0, found_self = 0;
    char name[MPI_MAX_PSET_NAME_LEN];
    CHECK(MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n) == MPI_SUCCESS && n >= 2);
    for (int i = 0; i < n; i++) {
        len = 0;                                /* asks for the length only */
        CHECK(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, NULL) == MPI_SUCCESS);
        CHECK(len > 1 && len <= MPI_MAX_PSET_NAME_LEN);
        int len2 = sizeof name;
        CHECK(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len2, name) == MPI_SUCCESS);
        CHECK(len2 == len && (int)strlen(name) == len - 1);
        found_world += !strcmp(name, "mpi://WORLD");
        found_self += !strcmp(name, "mpi://SELF");
    }
    CHECK(found_world == 1 && found_self == 1);
    int rc = MPI_Session_get_nth_pset(s, MPI_INFO_NULL, n, &len, name);
    CHECK(rc != MPI_SUCCESS && error_class(rc) == MPI_ERR_ARG);

    MPI_Info info;
    char value[64];
    int flag = 0, vlen = sizeof value;
    CHECK(MPI_Session_get_pset_info(s, "mpi://WORLD", &info) == MPI_SUCCESS);
    MPI_Info_get_string(info, "mpi_size", &vlen, value, &flag);
    CHECK(flag && (world_size < 0 || atoi(value) == world_size));
    MPI_Info_free(&info);
    vlen = sizeof value;
    CHECK(MPI_Session_get_pset_info(s, "mpi://SELF", &info) == MPI_SUCCESS);
    MPI_Info_get_string(info, "mpi_size", &vlen, value, &flag);
    CHECK(flag && !strcmp(value, "1"));
    MPI_Info_free(&info);

    MPI_Group g = MPI_GROUP_NULL;
    rc = MPI_Group_from_session_pset(s, "mpi://NOWHERE", &g);
    CHECK(rc != MPI_SUCCESS && error_class(rc) == MPI_ERR_ARG && g == MPI_GROUP_NULL);
}

int main(int argc, char **argv)
{
    int flag = -1;
    MPI_Session s1 = MPI_SESSION_NULL, s2 = MPI_SESSION_NULL, s3 = MPI_SESSION_NULL;

    /* A session without MPI_Init. */
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "thread_level", "MPI_THREAD_MULTIPLE");
    CHECK(MPI_Session_init(info, MPI_ERRORS_RETURN, &s1) == MPI_SUCCESS);
    MPI_Info_free(&info);
    CHECK(s1 != MPI_SESSION_NULL);
    MPI_Initialized(&flag);
    CHECK(flag == 0);
    CHECK(MPI_Session_get_info(s1, &info) == MPI_SUCCESS);
    char value[64];
    int vlen = sizeof value;
    MPI_Info_get_string(info, "thread_level", &vlen, value, &flag);
    CHECK(flag && !strcmp(value, "MPI_THREAD_MULTIPLE"));
    MPI_Info_free(&info);
    {   /* a session asking nothing gets what the process provides already (MPICH's
         * threads/init/mult_session) */
        MPI_Session s;
        CHECK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s) == MPI_SUCCESS);
        CHECK(MPI_Session_get_info(s, &info) == MPI_SUCCESS);
        vlen = sizeof value;
        MPI_Info_get_string(info, "thread_level", &vlen, value, &flag);
        CHECK(flag && !strcmp(value, "MPI_THREAD_MULTIPLE"));
        MPI_Info_free(&info);
        CHECK(MPI_Session_finalize(&s) == MPI_SUCCESS);
    }

    check_psets(s1, -1);
    int size = comm_of_pset(s1, "mpi://WORLD", "t_session.world");
    CHECK(comm_of_pset(s1, "mpi://SELF", "t_session.self") == 1);
    check_psets(s1, size);

    /* The session's error handler. */
    MPI_Errhandler eh, got;
    CHECK(MPI_Session_create_errhandler(session_handler, &eh) == MPI_SUCCESS);
    CHECK(MPI_Session_set_errhandler(s1, eh) == MPI_SUCCESS);
    CHECK(MPI_Session_get_errhandler(s1, &got) == MPI_SUCCESS && got == eh);
    MPI_Errhandler_free(&got);
    CHECK(MPI_Session_call_errhandler(s1, MPI_ERR_OTHER) == MPI_SUCCESS);
    CHECK(handler_calls == 1 && handler_code == MPI_ERR_OTHER);
    int n = 0;
    int rc = MPI_Session_get_nth_pset(s1, MPI_INFO_NULL, -1, &n, NULL);   /* raised on s1 */
    CHECK(rc != MPI_SUCCESS && handler_calls == 2 && handler_code == rc);
    MPI_Errhandler commeh;
    MPI_Comm_create_errhandler((MPI_Comm_errhandler_function *)session_handler, &commeh);
    rc = MPI_Session_set_errhandler(s1, commeh);    /* a communicator's handler */
    CHECK(rc != MPI_SUCCESS && error_class(rc) == MPI_ERR_ARG);
    MPI_Errhandler_free(&commeh);
    MPI_Session_set_errhandler(s1, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&eh);

    /* A second session at the same time, then both finalized: the runtime stops. */
    CHECK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s2) == MPI_SUCCESS);
    CHECK(s2 != s1);
    CHECK(comm_of_pset(s2, "mpi://WORLD", "t_session.second") == size);
    CHECK(MPI_Session_finalize(&s1) == MPI_SUCCESS && s1 == MPI_SESSION_NULL);
    CHECK(comm_of_pset(s2, "mpi://WORLD", "t_session.second.again") == size);
    CHECK(MPI_Session_finalize(&s2) == MPI_SUCCESS && s2 == MPI_SESSION_NULL);

    /* Sessions can start again. */
    CHECK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s1) == MPI_SUCCESS);
    CHECK(comm_of_pset(s1, "mpi://WORLD", "t_session.restart") == size);

    /* The world model next to it. */
    MPI_Init(&argc, &argv);
    MPI_Initialized(&flag);
    CHECK(flag == 1);
    int wsize = -1, wrank = -1, sum = -1;
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    CHECK(wsize == size);
    MPI_Allreduce(&wrank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(sum == size * (size - 1) / 2);
    CHECK(comm_of_pset(s1, "mpi://WORLD", "t_session.with.world") == size);
    CHECK(MPI_Session_finalize(&s1) == MPI_SUCCESS);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s3) == MPI_SUCCESS);
    int failures = check_failures;
    MPI_Finalize();
    MPI_Finalized(&flag);

    /* The session outlives the world model; another one can start after it too. */
    CHECK(flag == 1);
    CHECK(comm_of_pset(s3, "mpi://WORLD", "t_session.after.world") == size);
    CHECK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s2) == MPI_SUCCESS);
    CHECK(MPI_Session_finalize(&s3) == MPI_SUCCESS);
    CHECK(comm_of_pset(s2, "mpi://WORLD", "t_session.last") == size);
    CHECK(MPI_Session_finalize(&s2) == MPI_SUCCESS);
    (void)failures;
    return CHECK_RESULT();
}
