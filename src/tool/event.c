/* MPI_T events (MPI 4.0 section 15.3.8): the kinds the library raises (core/counters.h), their
 * registrations and callbacks, and the one source of their timestamps.
 *
 * A floor raises an event with mica_event_raise (core/counters.h) under the big lock; the
 * delivery below calls, for each registration of the kind, the callback registered at the
 * lowest safety level that the raising place allows: inside the progress engine, with the big
 * lock held, a callback may call no MPI function but the MPI_T ones allowed there, so the
 * requirement is MPI_T_CB_REQUIRE_MPI_RESTRICTED (a callback registered at
 * MPI_T_CB_REQUIRE_NONE alone is never called). An event no callback of a registration can
 * take is dropped: counted, and the registration's dropped handler is called at once with the
 * count so far. The event instance is valid during the callback only (MPI_T_event_read, _copy,
 * _get_timestamp, _get_source take it). Info hints are accepted and ignored; the info objects
 * returned are empty. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/counters.h"
#include "core_api.h"
#include "tool/tool.h"

/* --- the kinds -------------------------------------------------------------------------- */

typedef struct event {
    const char *name, *category, *desc;
    int verbosity, nelem;
    MPI_Aint disp[4];
    int elem_size[4];
    int elem_type[4];                 /* 0: MPI_INT, 1: MPI_COUNT, 2: MPI_UNSIGNED */
} event_t;

static const event_t events[MICA_EVENT_COUNT] = {
    [MICA_EVENT_UNEXPECTED_MSG] = {
        "pt2pt_unexpected_message", "pt2pt",
        "a message arrived before a matching receive was posted (it waits in the unexpected "
        "queue); elements: the sender's rank in the communicator (MPI_INT), the tag (MPI_INT), "
        "the size in bytes (MPI_COUNT), the communicator's context id (MPI_UNSIGNED)",
        MPI_T_VERBOSITY_TUNER_DETAIL, 4,
        {offsetof(mica_event_unexpected_t, source), offsetof(mica_event_unexpected_t, tag),
         offsetof(mica_event_unexpected_t, size), offsetof(mica_event_unexpected_t, context)},
        {sizeof(int), sizeof(int), sizeof(MPI_Count), sizeof(unsigned)},
        {0, 0, 1, 2}},
};

static MPI_Datatype elem_datatype(int t)
{
    return t == 0 ? MPI_INT : t == 1 ? MPI_COUNT : MPI_UNSIGNED;
}

int mica_t_events_of(const char *cat, int len, int *indices)
{
    int n = 0;
    for (int i = 0; i < MICA_EVENT_COUNT; i++)
        if (!strcmp(events[i].category, cat)) {
            if (indices && n < len)
                indices[n] = i;
            n++;
        }
    return n;
}

int mica_t_event_get_num(int *num_events)
{
    MICA_T_CHECK_INIT();
    if (num_events)
        *num_events = MICA_EVENT_COUNT;
    return MPI_SUCCESS;
}

int mica_t_event_get_info(int event_index, char *name, int *name_len, int *verbosity,
                          MPI_Datatype array_of_datatypes[], MPI_Aint array_of_displacements[],
                          int *num_elements, MPI_T_enum *enumtype, MPI_Info *info, char *desc,
                          int *desc_len, int *bind)
{
    MICA_T_CHECK_INIT();
    if (event_index < 0 || event_index >= MICA_EVENT_COUNT)
        return MPI_T_ERR_INVALID_INDEX;
    const event_t *e = &events[event_index];
    mica_t_string(e->name, name, name_len);
    mica_t_string(e->desc, desc, desc_len);
    if (verbosity)
        *verbosity = e->verbosity;
    if (num_elements) {               /* in: the arrays' length; out: the elements' count */
        for (int i = 0; i < e->nelem && i < *num_elements; i++) {
            if (array_of_datatypes)
                array_of_datatypes[i] = elem_datatype(e->elem_type[i]);
            if (array_of_displacements)
                array_of_displacements[i] = e->disp[i];
        }
        *num_elements = e->nelem;
    }
    if (enumtype)
        *enumtype = MPI_T_ENUM_NULL;
    if (bind)
        *bind = MPI_T_BIND_NO_OBJECT;
    return mica_t_new_info(info);
}

int mica_t_event_get_index(const char *name, int *event_index)
{
    MICA_T_CHECK_INIT();
    if (!name || !event_index)
        return MPI_T_ERR_INVALID;
    for (int i = 0; i < MICA_EVENT_COUNT; i++)
        if (!strcmp(events[i].name, name)) {
            *event_index = i;
            return MPI_SUCCESS;
        }
    return MPI_T_ERR_INVALID_NAME;
}

/* --- the source: CLOCK_MONOTONIC in nanoseconds ------------------------------------------ */

static MPI_Count now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (MPI_Count)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int mica_t_source_get_num(int *num_sources)
{
    MICA_T_CHECK_INIT();
    if (num_sources)
        *num_sources = 1;
    return MPI_SUCCESS;
}

int mica_t_source_get_info(int source_index, char *name, int *name_len, char *desc, int *desc_len,
                           MPI_T_source_order *ordering, MPI_Count *ticks_per_second,
                           MPI_Count *max_ticks, MPI_Info *info)
{
    MICA_T_CHECK_INIT();
    if (source_index != 0)
        return MPI_T_ERR_INVALID_INDEX;
    mica_t_string("mica_process", name, name_len);
    mica_t_string("every event of this process, raised in order by the thread that holds the "
                  "library; timestamps: CLOCK_MONOTONIC in nanoseconds", desc, desc_len);
    if (ordering)
        *ordering = MPI_T_SOURCE_ORDERED;
    if (ticks_per_second)
        *ticks_per_second = 1000000000;
    if (max_ticks)
        *max_ticks = INT64_MAX;
    return mica_t_new_info(info);
}

int mica_t_source_get_timestamp(int source_index, MPI_Count *timestamp)
{
    MICA_T_CHECK_INIT();
    if (source_index != 0)
        return MPI_T_ERR_INVALID_INDEX;
    if (!timestamp)
        return MPI_T_ERR_INVALID;
    *timestamp = now();
    return MPI_SUCCESS;
}

/* --- registrations ----------------------------------------------------------------------- */

enum { NLEVELS = 4 };
static const MPI_T_cb_safety levels[NLEVELS] = {
    MPI_T_CB_REQUIRE_NONE, MPI_T_CB_REQUIRE_MPI_RESTRICTED, MPI_T_CB_REQUIRE_THREAD_SAFE,
    MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE};
/* What the place that raises events requires of a callback (the index in levels). */
#define RAISE_LEVEL 1

typedef struct reg {
    struct reg *next;
    int kind, dead;
    MPI_T_event_cb_function *cb[NLEVELS];
    void *user_data[NLEVELS];
    MPI_T_event_dropped_cb_function *dropped_cb;
    MPI_Count dropped;
} reg_t;

static reg_t *regs;
static int depth;                     /* deliveries under way: free dead registrations after */

static int level_of(MPI_T_cb_safety s)
{
    for (int i = 0; i < NLEVELS; i++)
        if (levels[i] == s)
            return i;
    return -1;
}

static void arm(void)
{
    for (int k = 0; k < MICA_EVENT_COUNT; k++)
        mica_event_armed[k] = 0;
    for (reg_t *r = regs; r; r = r->next)
        if (!r->dead)
            mica_event_armed[r->kind] = 1;
}

static void sweep(void)
{
    for (reg_t **p = &regs; *p;) {
        reg_t *r = *p;
        if (r->dead) {
            *p = r->next;
            free(r);
        } else {
            p = &r->next;
        }
    }
}

static reg_t *reg_of(MPI_T_event_registration h)
{
    for (reg_t *r = regs; r; r = r->next)
        if (!r->dead && (MPI_T_event_registration)(void *)r == h)
            return r;
    return NULL;
}

void mica_t_event_free_all(void)
{
    for (reg_t *r = regs; r; r = r->next)
        r->dead = 1;
    arm();
    if (!depth)
        sweep();
}

int mica_t_event_handle_alloc(int event_index, void *obj_handle, MPI_Info info,
                              MPI_T_event_registration *event_registration)
{
    (void)obj_handle, (void)info;     /* bound to no object; hints ignored */
    MICA_T_CHECK_INIT();
    if (event_index < 0 || event_index >= MICA_EVENT_COUNT)
        return MPI_T_ERR_INVALID_INDEX;
    if (!event_registration)
        return MPI_T_ERR_INVALID;
    reg_t *r = calloc(1, sizeof *r);
    if (!r)
        return MPI_T_ERR_OUT_OF_HANDLES;
    r->kind = event_index;
    r->next = regs;
    regs = r;
    arm();
    *event_registration = (MPI_T_event_registration)(void *)r;
    return MPI_SUCCESS;
}

int mica_t_event_handle_free(MPI_T_event_registration event_registration, void *user_data,
                             MPI_T_event_free_cb_function free_cb_function)
{
    MICA_T_CHECK_INIT();
    reg_t *r = reg_of(event_registration);
    if (!r)
        return MPI_T_ERR_INVALID_HANDLE;
    r->dead = 1;                      /* no callback of it is called from now on */
    arm();
    if (free_cb_function)
        free_cb_function(event_registration, MPI_T_CB_REQUIRE_NONE, user_data);
    if (!depth)
        sweep();
    return MPI_SUCCESS;
}

int mica_t_event_register_callback(MPI_T_event_registration event_registration,
                                   MPI_T_cb_safety cb_safety, MPI_Info info, void *user_data,
                                   MPI_T_event_cb_function event_cb_function)
{
    (void)info;
    MICA_T_CHECK_INIT();
    reg_t *r = reg_of(event_registration);
    if (!r)
        return MPI_T_ERR_INVALID_HANDLE;
    int l = level_of(cb_safety);
    if (l < 0)
        return MPI_T_ERR_INVALID;
    r->cb[l] = event_cb_function;     /* NULL: none at this level any more */
    r->user_data[l] = user_data;
    return MPI_SUCCESS;
}

int mica_t_event_set_dropped_handler(MPI_T_event_registration event_registration,
                                     MPI_T_event_dropped_cb_function dropped_cb_function)
{
    MICA_T_CHECK_INIT();
    reg_t *r = reg_of(event_registration);
    if (!r)
        return MPI_T_ERR_INVALID_HANDLE;
    r->dropped_cb = dropped_cb_function;
    return MPI_SUCCESS;
}

int mica_t_event_handle_set_info(MPI_T_event_registration event_registration, MPI_Info info)
{
    (void)info;
    MICA_T_CHECK_INIT();
    return reg_of(event_registration) ? MPI_SUCCESS : MPI_T_ERR_INVALID_HANDLE;
}

int mica_t_event_handle_get_info(MPI_T_event_registration event_registration, MPI_Info *info_used)
{
    MICA_T_CHECK_INIT();
    if (!reg_of(event_registration))
        return MPI_T_ERR_INVALID_HANDLE;
    if (!info_used)
        return MPI_T_ERR_INVALID;
    return mica_t_new_info(info_used);
}

int mica_t_event_callback_set_info(MPI_T_event_registration event_registration,
                                   MPI_T_cb_safety cb_safety, MPI_Info info)
{
    (void)info;
    MICA_T_CHECK_INIT();
    if (!reg_of(event_registration))
        return MPI_T_ERR_INVALID_HANDLE;
    return level_of(cb_safety) < 0 ? MPI_T_ERR_INVALID : MPI_SUCCESS;
}

int mica_t_event_callback_get_info(MPI_T_event_registration event_registration,
                                   MPI_T_cb_safety cb_safety, MPI_Info *info_used)
{
    MICA_T_CHECK_INIT();
    if (!reg_of(event_registration))
        return MPI_T_ERR_INVALID_HANDLE;
    if (level_of(cb_safety) < 0 || !info_used)
        return MPI_T_ERR_INVALID;
    return mica_t_new_info(info_used);
}

/* --- delivery and instances ------------------------------------------------------------- */

typedef struct instance {
    int kind;
    MPI_Count time;
    const void *data;
    size_t size;
} instance_t;

/* The instances being delivered (a callback's own; nested when a callback makes MPI raise). */
#define MAX_LIVE 16
static instance_t *live[MAX_LIVE];
static int nlive;

static instance_t *instance_of(MPI_T_event_instance h)
{
    for (int i = 0; i < nlive; i++)
        if ((MPI_T_event_instance)(void *)live[i] == h)
            return live[i];
    return NULL;
}

static void deliver(int kind, const void *data, size_t size)
{
    mica_t_enter();
    if (nlive == MAX_LIVE) {          /* callbacks raising events without end */
        mica_t_leave();
        return;
    }
    instance_t inst = {kind, now(), data, size};
    live[nlive++] = &inst;
    depth++;
    MPI_T_event_instance ih = (MPI_T_event_instance)(void *)&inst;
    for (reg_t *r = regs; r; r = r->next) {
        if (r->dead || r->kind != kind)
            continue;
        MPI_T_event_registration rh = (MPI_T_event_registration)(void *)r;
        int l = RAISE_LEVEL;
        while (l < NLEVELS && !r->cb[l])
            l++;
        if (l < NLEVELS) {
            r->cb[l](ih, rh, levels[RAISE_LEVEL], r->user_data[l]);
            continue;
        }
        r->dropped++;
        if (r->dropped_cb) {
            void *ud = NULL;          /* the user data of a callback it has, if any */
            for (int i = 0; i < NLEVELS; i++)
                if (r->cb[i])
                    ud = r->user_data[i];
            MPI_Count n = r->dropped;
            r->dropped = 0;
            r->dropped_cb(n, rh, 0, levels[RAISE_LEVEL], ud);
        }
    }
    depth--;
    nlive--;
    if (!depth)
        sweep();
    mica_t_leave();
}

void mica_t_event_setup(void)
{
    mica_event_deliver = deliver;
}

int mica_t_event_read(MPI_T_event_instance event_instance, int element_index, void *buffer)
{
    MICA_T_CHECK_INIT();
    instance_t *in = instance_of(event_instance);
    if (!in)
        return MPI_T_ERR_INVALID_HANDLE;
    const event_t *e = &events[in->kind];
    if (element_index < 0 || element_index >= e->nelem)
        return MPI_T_ERR_INVALID_INDEX;
    if (!buffer)
        return MPI_T_ERR_INVALID;
    memcpy(buffer, (const char *)in->data + e->disp[element_index],
           (size_t)e->elem_size[element_index]);
    return MPI_SUCCESS;
}

int mica_t_event_copy(MPI_T_event_instance event_instance, void *buffer)
{
    MICA_T_CHECK_INIT();
    instance_t *in = instance_of(event_instance);
    if (!in)
        return MPI_T_ERR_INVALID_HANDLE;
    if (!buffer)
        return MPI_T_ERR_INVALID;
    memcpy(buffer, in->data, in->size);   /* laid out as the displacements say */
    return MPI_SUCCESS;
}

int mica_t_event_get_timestamp(MPI_T_event_instance event_instance, MPI_Count *event_timestamp)
{
    MICA_T_CHECK_INIT();
    instance_t *in = instance_of(event_instance);
    if (!in)
        return MPI_T_ERR_INVALID_HANDLE;
    if (!event_timestamp)
        return MPI_T_ERR_INVALID;
    *event_timestamp = in->time;
    return MPI_SUCCESS;
}

int mica_t_event_get_source(MPI_T_event_instance event_instance, int *source_index)
{
    MICA_T_CHECK_INIT();
    instance_t *in = instance_of(event_instance);
    if (!in)
        return MPI_T_ERR_INVALID_HANDLE;
    if (!source_index)
        return MPI_T_ERR_INVALID;
    *source_index = 0;
    return MPI_SUCCESS;
}
