/* np: 1 2 */
/* MPI_T control variables and the interface's life: before MPI_T_init_thread every function
 * answers MPI_T_ERR_NOT_INITIALIZED; init and finalize nest; each tunable is a control variable
 * named MICA_<NAME> whose value is the tunable's (MICA_EAGER_LIMIT: 16384 unless the
 * environment says otherwise, test_mpit_env.sh); a readonly one cannot be written
 * (MPI_T_ERR_CVAR_SET_NEVER); writing a local one changes what is read, within its range;
 * strings follow the standard's convention; errors have their codes. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond) do { if (!(cond)) { printf("FAIL line %d: %s\n", __LINE__, #cond); exit(1); } } while (0)
#define RC(call, want) do { int rc_ = (call); if (rc_ != (want)) { \
    printf("FAIL line %d: %s returned %d, wanted %d\n", __LINE__, #call, rc_, (want)); exit(1); } } while (0)

static int cvar(const char *name)
{
    int i;
    RC(MPI_T_cvar_get_index(name, &i), MPI_SUCCESS);
    return i;
}

int main(int argc, char **argv)
{
    int provided, n, i, count;
    MPI_T_cvar_handle h;

    /* Not initialized yet: every function says so. */
    RC(MPI_T_cvar_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
    RC(MPI_T_finalize(), MPI_T_ERR_NOT_INITIALIZED);

    /* Before MPI_Init: the values are the environment's already. */
    RC(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);
    CHECK(provided == MPI_THREAD_SINGLE);
    RC(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided), MPI_SUCCESS);   /* nested */
    CHECK(provided == MPI_THREAD_MULTIPLE);
    RC(MPI_T_finalize(), MPI_SUCCESS);
    RC(MPI_T_cvar_get_num(&n), MPI_SUCCESS);   /* still initialized once */
    CHECK(n >= 19);

    const char *env = getenv("MICA_EAGER_LIMIT");
    MPI_Count want_eager = env ? atoll(env) : 16384, eager = -1;
    RC(MPI_T_cvar_handle_alloc(cvar("MICA_EAGER_LIMIT"), NULL, &h, &count), MPI_SUCCESS);
    CHECK(count == 1);
    RC(MPI_T_cvar_read(h, &eager), MPI_SUCCESS);
    CHECK(eager == want_eager);
    RC(MPI_T_cvar_write(h, &eager), MPI_T_ERR_CVAR_SET_NEVER);
    RC(MPI_T_cvar_handle_free(&h), MPI_SUCCESS);
    CHECK(h == MPI_T_CVAR_HANDLE_NULL);

    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    /* Every variable: its info is whole and consistent; its name finds it. */
    RC(MPI_T_cvar_get_num(&n), MPI_SUCCESS);
    for (i = 0; i < n; i++) {
        char name[128], desc[1024];
        int nlen = sizeof name, dlen = sizeof desc, verb, bind, scope, j;
        MPI_Datatype dt;
        MPI_T_enum et;
        RC(MPI_T_cvar_get_info(i, name, &nlen, &verb, &dt, &et, desc, &dlen, &bind, &scope), MPI_SUCCESS);
        CHECK(nlen == (int)strlen(name) + 1 && dlen == (int)strlen(desc) + 1 && dlen > 10);
        CHECK(!strncmp(name, "MICA_", 5));
        CHECK(bind == MPI_T_BIND_NO_OBJECT);
        CHECK(dt == MPI_INT || dt == MPI_COUNT);
        CHECK(scope >= MPI_T_SCOPE_CONSTANT && scope <= MPI_T_SCOPE_ALL_EQ);
        RC(MPI_T_cvar_get_index(name, &j), MPI_SUCCESS);
        CHECK(j == i);
        /* The string convention: the length alone, then a truncated copy. */
        int full = 0;
        RC(MPI_T_cvar_get_info(i, NULL, &full, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_SUCCESS);
        CHECK(full == nlen);
        char small[6] = "XXXXX";
        int slen = 4;
        RC(MPI_T_cvar_get_info(i, small, &slen, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_SUCCESS);
        CHECK(slen == 4 && !strcmp(small, "MIC") && small[4] == 'X');
        if (et != MPI_T_ENUM_NULL) {
            int items, value;
            char ename[64], item[64];
            int elen = sizeof ename, ilen = sizeof item;
            CHECK(dt == MPI_INT);
            RC(MPI_T_enum_get_info(et, &items, ename, &elen), MPI_SUCCESS);
            CHECK(items >= 2);
            RC(MPI_T_enum_get_item(et, 0, &value, item, &ilen), MPI_SUCCESS);
            CHECK(value == 0 && !strcmp(item, "auto"));
            RC(MPI_T_enum_get_item(et, items, &value, item, &ilen), MPI_T_ERR_INVALID_ITEM);
        }
    }

    /* A local tunable: written, read back, and the default back. */
    int yield = -1, v = 1234, back = 0;
    RC(MPI_T_cvar_handle_alloc(cvar("MICA_YIELD_POLLS"), NULL, &h, &count), MPI_SUCCESS);
    RC(MPI_T_cvar_read(h, &yield), MPI_SUCCESS);
    CHECK(yield == (getenv("MICA_YIELD_POLLS") ? atoi(getenv("MICA_YIELD_POLLS")) : 100000));
    RC(MPI_T_cvar_write(h, &v), MPI_SUCCESS);
    RC(MPI_T_cvar_read(h, &back), MPI_SUCCESS);
    CHECK(back == 1234);
    v = -5;                                   /* out of its range */
    RC(MPI_T_cvar_write(h, &v), MPI_T_ERR_INVALID);
    RC(MPI_T_cvar_read(h, &back), MPI_SUCCESS);
    CHECK(back == 1234);
    RC(MPI_T_cvar_write(h, &yield), MPI_SUCCESS);
    RC(MPI_T_cvar_handle_free(&h), MPI_SUCCESS);

    /* A collective's cut-over (a size: MPI_COUNT), written equal in every process; the
     * collective still gives the right answer on either side of it. */
    MPI_Count lng = -2, newlng = 8;
    RC(MPI_T_cvar_handle_alloc(cvar("MICA_ALLREDUCE_LONG"), NULL, &h, &count), MPI_SUCCESS);
    RC(MPI_T_cvar_read(h, &lng), MPI_SUCCESS);
    CHECK(lng == 16384);
    RC(MPI_T_cvar_write(h, &newlng), MPI_SUCCESS);
    int in[64], out[64];
    for (i = 0; i < 64; i++)
        in[i] = i + rank;
    MPI_Allreduce(in, out, 64, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (i = 0; i < 64; i++)
        CHECK(out[i] == size * i + size * (size - 1) / 2);
    RC(MPI_T_cvar_write(h, &lng), MPI_SUCCESS);
    RC(MPI_T_cvar_handle_free(&h), MPI_SUCCESS);

    /* Errors. */
    char name[32];
    int len = sizeof name;
    RC(MPI_T_cvar_get_info(n, name, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_T_ERR_INVALID_INDEX);
    RC(MPI_T_cvar_get_info(-1, name, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_T_ERR_INVALID_INDEX);
    RC(MPI_T_cvar_get_index("MICA_NO_SUCH_THING", &i), MPI_T_ERR_INVALID_NAME);
    RC(MPI_T_cvar_get_index("EAGER_LIMIT", &i), MPI_T_ERR_INVALID_NAME);
    RC(MPI_T_cvar_handle_alloc(n, NULL, &h, &count), MPI_T_ERR_INVALID_INDEX);
    int dummy;
    RC(MPI_T_cvar_read((MPI_T_cvar_handle)(void *)&dummy, &dummy), MPI_T_ERR_INVALID_HANDLE);
    RC(MPI_T_cvar_read(MPI_T_CVAR_HANDLE_NULL, &dummy), MPI_T_ERR_INVALID_HANDLE);
    h = MPI_T_CVAR_HANDLE_NULL;
    RC(MPI_T_cvar_handle_free(&h), MPI_T_ERR_INVALID_HANDLE);
    RC(MPI_T_enum_get_info((MPI_T_enum)(void *)&dummy, &i, name, &len), MPI_T_ERR_INVALID_HANDLE);

    RC(MPI_T_finalize(), MPI_SUCCESS);
    RC(MPI_T_cvar_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
    MPI_Finalize();

    /* After MPI_Finalize: MPI_T may start again. */
    RC(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);
    RC(MPI_T_cvar_get_num(&n), MPI_SUCCESS);
    RC(MPI_T_cvar_handle_alloc(cvar("MICA_EAGER_LIMIT"), NULL, &h, &count), MPI_SUCCESS);
    RC(MPI_T_cvar_read(h, &eager), MPI_SUCCESS);
    CHECK(eager == want_eager);
    RC(MPI_T_finalize(), MPI_SUCCESS);
    RC(MPI_T_cvar_read(h, &eager), MPI_T_ERR_NOT_INITIALIZED);
    if (rank == 0)
        printf("ok: %d control variables\n", n);
    return 0;
}
