/* np: 1 2 */
/* MPI_T events: pt2pt_unexpected_message is raised for each message that arrives before its
 * receive, with the sender's rank, the tag and the size, read element by element and copied
 * whole at the displacements MPI_T_event_get_info gives, timestamped by the one source; a
 * callback registered at a safety level the library cannot call there (MPI_T_CB_REQUIRE_NONE)
 * is not called, the events are dropped and the dropped handler told how many; freeing the
 * registration calls the free callback and stops the callbacks; errors have their codes. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond) do { if (!(cond)) { printf("FAIL rank %d line %d: %s\n", rank, __LINE__, #cond); exit(1); } } while (0)
#define RC(call, want) do { int rc_ = (call); if (rc_ != (want)) { \
    printf("FAIL rank %d line %d: %s returned %d, wanted %d\n", rank, __LINE__, #call, rc_, (want)); exit(1); } } while (0)

static int rank, size, src, dst;
static MPI_Aint disp[4];
static struct seen {
    int calls, tagged, source, size_ok, bad;
    MPI_Count last_time;
    MPI_T_event_instance kept;
    long long dropped;
    int freed;
} seen;

static void on_event(MPI_T_event_instance ev, MPI_T_event_registration reg, MPI_T_cb_safety safety, void *ud)
{
    struct seen *s = ud;
    int source, tag, idx;
    MPI_Count bytes, t;
    char copy[64];
    (void)reg;
    s->calls++;
    if (safety != MPI_T_CB_REQUIRE_MPI_RESTRICTED)
        s->bad++;
    if (MPI_T_event_read(ev, 0, &source) || MPI_T_event_read(ev, 1, &tag) || MPI_T_event_read(ev, 2, &bytes))
        s->bad++;
    if (MPI_T_event_read(ev, 4, &tag) != MPI_T_ERR_INVALID_INDEX)
        s->bad++;
    if (MPI_T_event_copy(ev, copy) || memcmp(copy + disp[0], &source, sizeof source) ||
        memcmp(copy + disp[1], &tag, sizeof tag) || memcmp(copy + disp[2], &bytes, sizeof bytes))
        s->bad++;
    if (MPI_T_event_get_timestamp(ev, &t) || t < s->last_time)
        s->bad++;
    s->last_time = t;
    if (MPI_T_event_get_source(ev, &idx) || idx != 0)
        s->bad++;
    if (tag == 7) {
        s->tagged++;
        s->source += source == src;
        s->size_ok += bytes == 3 * (MPI_Count)sizeof(int);
    }
    s->kept = ev;
}

static void on_drop(MPI_Count count, MPI_T_event_registration reg, int source, MPI_T_cb_safety safety, void *ud)
{
    (void)reg, (void)safety, (void)ud;
    seen.dropped += count;
    if (source != 0)
        seen.bad++;
}

static void on_free(MPI_T_event_registration reg, MPI_T_cb_safety safety, void *ud)
{
    (void)reg, (void)safety;
    ((struct seen *)ud)->freed++;
}

/* src sends 3 messages of tag 7, then one of tag 8 that dst waits for: the 3 are unexpected. */
static void unexpected_three(void)
{
    int buf[3] = {1, 2, 3}, x = 0, i;
    MPI_Request reqs[4];
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == src) {
        for (i = 0; i < 3; i++)
            MPI_Isend(buf, 3, MPI_INT, dst, 7, MPI_COMM_WORLD, &reqs[i]);
        MPI_Isend(&x, 1, MPI_INT, dst, 8, MPI_COMM_WORLD, &reqs[3]);
    }
    if (rank == dst) {
        MPI_Recv(&x, 1, MPI_INT, src, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (i = 0; i < 3; i++)
            MPI_Recv(buf, 3, MPI_INT, src, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (rank == src)
        MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    int provided, n, ev, i, len;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    src = 0, dst = size - 1;
    RC(MPI_T_event_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
    RC(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);

    /* The event's description. */
    RC(MPI_T_event_get_num(&n), MPI_SUCCESS);
    CHECK(n >= 1);
    RC(MPI_T_event_get_index("pt2pt_unexpected_message", &ev), MPI_SUCCESS);
    char name[64], desc[512];
    int nlen = sizeof name, dlen = sizeof desc, verb, nel = 0, bind;
    MPI_Datatype types[4];
    MPI_T_enum et;
    MPI_Info info;
    RC(MPI_T_event_get_info(ev, NULL, NULL, NULL, NULL, NULL, &nel, NULL, NULL, NULL, NULL, NULL), MPI_SUCCESS);
    CHECK(nel == 4);
    RC(MPI_T_event_get_info(ev, name, &nlen, &verb, types, disp, &nel, &et, &info, desc, &dlen, &bind), MPI_SUCCESS);
    CHECK(!strcmp(name, "pt2pt_unexpected_message") && dlen > 10 && et == MPI_T_ENUM_NULL);
    CHECK(types[0] == MPI_INT && types[1] == MPI_INT && types[2] == MPI_COUNT && types[3] == MPI_UNSIGNED);
    CHECK(disp[0] == 0 && disp[1] == 4 && disp[2] == 8 && bind == MPI_T_BIND_NO_OBJECT);
    CHECK(info != MPI_INFO_NULL);
    MPI_Info_free(&info);
    int cat, ne, evs[2];
    RC(MPI_T_category_get_index("pt2pt", &cat), MPI_SUCCESS);
    RC(MPI_T_category_get_num_events(cat, &ne), MPI_SUCCESS);
    CHECK(ne == 1);
    RC(MPI_T_category_get_events(cat, 2, evs), MPI_SUCCESS);
    CHECK(evs[0] == ev);

    /* The source. */
    MPI_Count tps, maxt, t0, t1;
    MPI_T_source_order order;
    RC(MPI_T_source_get_num(&n), MPI_SUCCESS);
    CHECK(n == 1);
    len = sizeof name;
    RC(MPI_T_source_get_info(0, name, &len, NULL, NULL, &order, &tps, &maxt, &info), MPI_SUCCESS);
    CHECK(order == MPI_T_SOURCE_ORDERED && tps == 1000000000 && maxt > 0);
    MPI_Info_free(&info);
    RC(MPI_T_source_get_timestamp(0, &t0), MPI_SUCCESS);

    /* A callback the library can call there: 3 events of tag 7 at dst. */
    MPI_T_event_registration reg;
    RC(MPI_T_event_handle_alloc(ev, NULL, MPI_INFO_NULL, &reg), MPI_SUCCESS);
    RC(MPI_T_event_register_callback(reg, MPI_T_CB_REQUIRE_THREAD_SAFE, MPI_INFO_NULL, &seen, on_event), MPI_SUCCESS);
    RC(MPI_T_event_set_dropped_handler(reg, on_drop), MPI_SUCCESS);
    seen.last_time = t0;
    unexpected_three();
    RC(MPI_T_source_get_timestamp(0, &t1), MPI_SUCCESS);
    CHECK(seen.bad == 0 && seen.dropped == 0 && seen.last_time <= t1);
    if (rank == dst)
        CHECK(seen.tagged == 3 && seen.source == 3 && seen.size_ok == 3);
    else
        CHECK(seen.tagged == 0);
    int x;
    if (seen.calls)                   /* an instance lives during its callback only */
        RC(MPI_T_event_read(seen.kept, 0, &x), MPI_T_ERR_INVALID_HANDLE);

    /* Only a callback that requires no restriction: none can be called, all are dropped. */
    RC(MPI_T_event_register_callback(reg, MPI_T_CB_REQUIRE_THREAD_SAFE, MPI_INFO_NULL, NULL, NULL), MPI_SUCCESS);
    RC(MPI_T_event_register_callback(reg, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL, &seen, on_event), MPI_SUCCESS);
    int calls = seen.calls;
    unexpected_three();
    CHECK(seen.calls == calls && seen.bad == 0);
    if (rank == dst)
        CHECK(seen.dropped >= 3);

    /* Info: accepted, and empty objects back. */
    RC(MPI_T_event_handle_set_info(reg, MPI_INFO_NULL), MPI_SUCCESS);
    RC(MPI_T_event_handle_get_info(reg, &info), MPI_SUCCESS);
    MPI_Info_free(&info);
    RC(MPI_T_event_callback_set_info(reg, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL), MPI_SUCCESS);
    RC(MPI_T_event_callback_get_info(reg, MPI_T_CB_REQUIRE_NONE, &info), MPI_SUCCESS);
    MPI_Info_free(&info);

    /* Freed: the free callback is called, and no callback after. */
    RC(MPI_T_event_register_callback(reg, MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE, MPI_INFO_NULL, &seen, on_event), MPI_SUCCESS);
    RC(MPI_T_event_handle_free(reg, &seen, on_free), MPI_SUCCESS);
    CHECK(seen.freed == 1);
    calls = seen.calls;
    long long dropped = seen.dropped;
    unexpected_three();
    CHECK(seen.calls == calls && seen.dropped == dropped);

    /* Errors. */
    RC(MPI_T_event_register_callback(reg, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL, &seen, on_event), MPI_T_ERR_INVALID_HANDLE);
    RC(MPI_T_event_handle_free(reg, NULL, NULL), MPI_T_ERR_INVALID_HANDLE);
    RC(MPI_T_event_handle_alloc(n + 5, NULL, MPI_INFO_NULL, &reg), MPI_T_ERR_INVALID_INDEX);
    RC(MPI_T_event_get_info(-1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_T_ERR_INVALID_INDEX);
    RC(MPI_T_event_get_index("no_such_event", &i), MPI_T_ERR_INVALID_NAME);
    RC(MPI_T_source_get_timestamp(1, &t1), MPI_T_ERR_INVALID_INDEX);
    RC(MPI_T_source_get_info(-1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_T_ERR_INVALID_INDEX);
    RC(MPI_T_event_handle_alloc(ev, NULL, MPI_INFO_NULL, &reg), MPI_SUCCESS);
    RC(MPI_T_event_register_callback(reg, (MPI_T_cb_safety)5, MPI_INFO_NULL, NULL, on_event), MPI_T_ERR_INVALID);
    RC(MPI_T_event_read(NULL, 0, &x), MPI_T_ERR_INVALID_HANDLE);
    RC(MPI_T_event_copy(NULL, &x), MPI_T_ERR_INVALID_HANDLE);
    RC(MPI_T_finalize(), MPI_SUCCESS);      /* the last: frees the registration */
    RC(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);
    RC(MPI_T_event_handle_free(reg, NULL, NULL), MPI_T_ERR_INVALID_HANDLE);
    RC(MPI_T_finalize(), MPI_SUCCESS);
    MPI_Finalize();
    if (rank == dst)
        printf("ok: %d events seen, %lld dropped\n", seen.calls, seen.dropped);
    return 0;
}
