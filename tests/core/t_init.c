/* The life of an MPI process and the inquiries around it: init, thread levels, versions,
 * clocks, processor name, handle conversions, finalize. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int failures;
#define EXPECT(cond) do { if (!(cond)) { failures++; printf("FAILED line %d: %s\n", __LINE__, #cond); } } while (0)

static void *not_main(void *arg)
{
    MPI_Is_thread_main((int *)arg);
    return NULL;
}

int main(int argc, char **argv)
{
    int flag = -1, version = 0, subversion = 0, provided = -1, len = 0;
    char text[MPI_MAX_LIBRARY_VERSION_STRING];

    /* Valid before MPI_Init. */
    EXPECT(MPI_Pcontrol(1) == MPI_SUCCESS);
    EXPECT(MPI_Initialized(&flag) == MPI_SUCCESS && flag == 0);
    EXPECT(MPI_Finalized(&flag) == MPI_SUCCESS && flag == 0);
    EXPECT(MPI_Get_version(&version, &subversion) == MPI_SUCCESS && version == 5 && subversion == 0);
    EXPECT(MPI_Get_library_version(text, &len) == MPI_SUCCESS && len == (int)strlen(text) &&
           strstr(text, "Mica"));

    EXPECT(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided) == MPI_SUCCESS);
    EXPECT(provided == MPI_THREAD_MULTIPLE);
    EXPECT(MPI_Query_thread(&flag) == MPI_SUCCESS && flag == provided);
    EXPECT(MPI_Initialized(&flag) == MPI_SUCCESS && flag == 1);
    EXPECT(MPI_Is_thread_main(&flag) == MPI_SUCCESS && flag == 1);
    pthread_t t;
    flag = -1;
    pthread_create(&t, NULL, not_main, &flag);
    pthread_join(t, NULL);
    EXPECT(flag == 0);

    int rank = -1, size = -1;
    EXPECT(MPI_Comm_rank(MPI_COMM_WORLD, &rank) == MPI_SUCCESS && rank == 0);
    EXPECT(MPI_Comm_size(MPI_COMM_WORLD, &size) == MPI_SUCCESS && size == 1);
    EXPECT(MPI_Comm_rank(MPI_COMM_SELF, &rank) == MPI_SUCCESS && rank == 0);
    EXPECT(MPI_Comm_size(MPI_COMM_SELF, &size) == MPI_SUCCESS && size == 1);

    char name[MPI_MAX_PROCESSOR_NAME], host[256];
    gethostname(host, sizeof host);
    EXPECT(MPI_Get_processor_name(name, &len) == MPI_SUCCESS && !strcmp(name, host) &&
           len == (int)strlen(host));

    double t0 = MPI_Wtime(), tick = MPI_Wtick();
    usleep(20000);
    double t1 = MPI_Wtime();
    EXPECT(tick > 0 && tick < 1e-3 && t1 - t0 >= 0.019 && t1 - t0 < 5);
    EXPECT(MPI_Aint_add(1000, 24) == 1024 && MPI_Aint_diff(1024, 1000) == 24);

    /* Every predefined handle converts to its ABI value and back, both ways. */
    EXPECT(MPI_Comm_c2f(MPI_COMM_WORLD) == 0x101 && MPI_Comm_f2c(0x101) == MPI_COMM_WORLD);
    EXPECT(MPI_Comm_toint(MPI_COMM_SELF) == 0x102 && MPI_Comm_fromint(0x102) == MPI_COMM_SELF);
    EXPECT(MPI_Comm_f2c(MPI_Comm_c2f(MPI_COMM_NULL)) == MPI_COMM_NULL);
    EXPECT(MPI_Type_f2c(MPI_Type_c2f(MPI_DOUBLE)) == MPI_DOUBLE && MPI_Type_toint(MPI_INT) == 0x209);
    EXPECT(MPI_Op_f2c(MPI_Op_c2f(MPI_SUM)) == MPI_SUM && MPI_Op_fromint(MPI_Op_toint(MPI_MAX)) == MPI_MAX);
    EXPECT(MPI_Group_f2c(MPI_Group_c2f(MPI_GROUP_EMPTY)) == MPI_GROUP_EMPTY);
    EXPECT(MPI_Info_f2c(MPI_Info_c2f(MPI_INFO_ENV)) == MPI_INFO_ENV);
    EXPECT(MPI_Errhandler_f2c(MPI_Errhandler_c2f(MPI_ERRORS_RETURN)) == MPI_ERRORS_RETURN);
    EXPECT(MPI_Request_f2c(MPI_Request_c2f(MPI_REQUEST_NULL)) == MPI_REQUEST_NULL);
    EXPECT(MPI_Message_f2c(MPI_Message_c2f(MPI_MESSAGE_NO_PROC)) == MPI_MESSAGE_NO_PROC);
    EXPECT(MPI_Win_f2c(MPI_Win_c2f(MPI_WIN_NULL)) == MPI_WIN_NULL);
    EXPECT(MPI_File_f2c(MPI_File_toint(MPI_FILE_NULL)) == MPI_FILE_NULL);
    EXPECT(MPI_Session_fromint(MPI_Session_c2f(MPI_SESSION_NULL)) == MPI_SESSION_NULL);
    EXPECT(MPI_Comm_f2c(-7) == MPI_COMM_NULL && MPI_Comm_f2c(123456) == MPI_COMM_NULL);

    /* A user object gets a Fortran index that converts back to it. */
    MPI_Errhandler eh;
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh);
    EXPECT(MPI_Errhandler_f2c(MPI_Errhandler_c2f(eh)) == eh);

    MPI_Status s = {.MPI_SOURCE = 3, .MPI_TAG = 4, .MPI_ERROR = 5}, back;
    MPI_Fint f[MPI_F_STATUS_SIZE];
    MPI_F08_status f08;
    EXPECT(MPI_Status_c2f(&s, f) == MPI_SUCCESS && f[MPI_F_SOURCE] == 3 && f[MPI_F_TAG] == 4 &&
           f[MPI_F_ERROR] == 5);
    EXPECT(MPI_Status_f2f08(f, &f08) == MPI_SUCCESS && f08.MPI_TAG == 4);
    EXPECT(MPI_Status_f082c(&f08, &back) == MPI_SUCCESS && !memcmp(&s, &back, sizeof s));

    EXPECT(MPI_Pcontrol(0) == MPI_SUCCESS && MPI_Pcontrol(2, "more", 3) == MPI_SUCCESS);
    EXPECT(MPI_Finalize() == MPI_SUCCESS);
    EXPECT(MPI_Finalized(&flag) == MPI_SUCCESS && flag == 1);
    EXPECT(MPI_Initialized(&flag) == MPI_SUCCESS && flag == 1);
    EXPECT(MPI_Pcontrol(1) == MPI_SUCCESS);
    printf("%s\n", failures ? "FAILED" : "ok");
    return failures != 0;
}
