/* MPI_T performance variables over the core's counters (core/counters.h), their sessions and
 * handles.
 *
 * Counters (MPI_T_PVAR_CLASS_COUNTER) are not continuous: a handle counts only while started.
 * It keeps what it counted in earlier starts (acc) and the counter's value at its last start:
 * its value is acc, plus (counter - at_start) while started. A write sets acc (and restarts
 * the count from now), a reset sets it to 0. Levels and high-water marks are continuous and
 * read-only: always the process's current value (MPI_T_ERR_PVAR_NO_STARTSTOP to start or stop
 * them, MPI_T_ERR_PVAR_NO_WRITE to write or reset them); a high-water mark is the highest
 * since MPI started. Every value is an MPI_UNSIGNED_LONG_LONG, bound to no object, and read
 * under the big lock, so a read and reset is atomic. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MICA_COLL_ALGORITHM_NAMES
#include "core/coll_algorithms.h"
#include "core/counters.h"
#include "core_api.h"
#include "tool/tool.h"

typedef struct pvar {
    const char *name, *category, *desc;
    int var_class, verbosity;
    size_t field, minus;              /* its value: field - minus of mica_counters (NONE: 0) */
} pvar_t;

#define F(field) offsetof(struct mica_counters, field)
#define NONE ((size_t)-1)

static uint64_t counter(const pvar_t *p)
{
    const char *c = (const char *)&mica_counters;
    uint64_t v = *(const uint64_t *)(const void *)(c + p->field);
    return p->minus == NONE ? v : v - *(const uint64_t *)(const void *)(c + p->minus);
}

enum { USER = MPI_T_VERBOSITY_USER_BASIC, TUNER = MPI_T_VERBOSITY_TUNER_DETAIL,
       DEV = MPI_T_VERBOSITY_MPIDEV_DETAIL };
static const pvar_t fixed[] = {
    {"pt2pt_messages_sent", "pt2pt", "point-to-point messages this process sent (the "
     "collectives' included; to MPI_PROC_NULL: none)", MPI_T_PVAR_CLASS_COUNTER, USER, F(msgs_sent), NONE},
    {"pt2pt_bytes_sent", "pt2pt", "bytes of the messages this process sent",
     MPI_T_PVAR_CLASS_COUNTER, USER, F(bytes_sent), NONE},
    {"pt2pt_messages_received", "pt2pt", "point-to-point messages this process received "
     "(completed receives, the collectives' included)", MPI_T_PVAR_CLASS_COUNTER, USER,
     F(msgs_received), NONE},
    {"pt2pt_bytes_received", "pt2pt", "bytes this process received (what the receive buffers "
     "took)", MPI_T_PVAR_CLASS_COUNTER, USER, F(bytes_received), NONE},
    {"pt2pt_eager_sends", "pt2pt", "messages sent eagerly (up to MICA_EAGER_LIMIT bytes)",
     MPI_T_PVAR_CLASS_COUNTER, TUNER, F(msgs_sent), F(rndv_sends)},
    {"pt2pt_rendezvous_sends", "pt2pt", "messages sent by rendezvous (a request to send first)",
     MPI_T_PVAR_CLASS_COUNTER, TUNER, F(rndv_sends), NONE},
    {"pt2pt_single_copy_sends", "pt2pt", "rendezvous messages the receiver read straight from "
     "this process's memory (MICA_SINGLE_COPY)", MPI_T_PVAR_CLASS_COUNTER, TUNER,
     F(single_copy_sends), NONE},
    {"pt2pt_unexpected_messages", "pt2pt", "messages that arrived before a matching receive "
     "was posted", MPI_T_PVAR_CLASS_COUNTER, TUNER, F(unexpected_msgs), NONE},
    {"pt2pt_unexpected_queue_length", "pt2pt", "messages waiting in the unexpected queue now",
     MPI_T_PVAR_CLASS_LEVEL, TUNER, F(unexpected_len), NONE},
    {"pt2pt_unexpected_queue_highwatermark", "pt2pt", "the longest the unexpected queue has "
     "been since MPI started", MPI_T_PVAR_CLASS_HIGHWATERMARK, TUNER, F(unexpected_hwm), NONE},
    {"pt2pt_posted_queue_length", "pt2pt", "receives posted and not matched yet, now",
     MPI_T_PVAR_CLASS_LEVEL, TUNER, F(posted_len), NONE},
    {"pt2pt_posted_queue_highwatermark", "pt2pt", "the longest the posted-receive queue has "
     "been since MPI started", MPI_T_PVAR_CLASS_HIGHWATERMARK, TUNER, F(posted_hwm), NONE},
    {"shm_ring_full", "shm", "packets the shared-memory transport refused because the peer's "
     "ring was full (the sender queues and retries)", MPI_T_PVAR_CLASS_COUNTER, TUNER,
     F(shm_ring_full), NONE},
    {"progress_polls", "progress", "polls of the progress engine", MPI_T_PVAR_CLASS_COUNTER, DEV,
     F(progress_polls), NONE},
};
#define NFIXED ((int)(sizeof fixed / sizeof fixed[0]))

/* Then one counter a collective's algorithm (src/coll/algorithms.tsv, numbered by gen/coll.py):
 * coll_<collective>_<algorithm>, the times it was chosen to run. */
#define NPVARS (NFIXED + MICA_COLL_ALGORITHMS)
static pvar_t pvars[NPVARS];
static char coll_names[MICA_COLL_ALGORITHMS][64], coll_descs[MICA_COLL_ALGORITHMS][200];

/* Fill the table (the first MPI_T_init_thread). */
void mica_t_pvar_setup(void)
{
    static int done;
    if (done)
        return;
    done = 1;
    memcpy(pvars, fixed, sizeof fixed);
    for (int k = 0; k < MICA_COLL_ALGORITHMS; k++) {
        const char *coll = mica_coll_algorithm_names[k][0], *alg = mica_coll_algorithm_names[k][1];
        snprintf(coll_names[k], sizeof coll_names[k], "coll_%s_%s", coll, alg);
        snprintf(coll_descs[k], sizeof coll_descs[k], "times the %s algorithm of the %s collective "
                 "ran (a call on an intracommunicator in any form, blocking, nonblocking or "
                 "persistent, or another collective built on it)", alg, coll);
        pvars[NFIXED + k] = (pvar_t){coll_names[k], "coll", coll_descs[k], MPI_T_PVAR_CLASS_COUNTER,
                                     TUNER, F(coll_algorithm_calls) + k * sizeof(uint64_t), NONE};
    }
}

static int continuous(const pvar_t *p)
{
    return p->var_class != MPI_T_PVAR_CLASS_COUNTER;
}

/* Continuous ones are read-only: levels and marks of the process, not of a handle. */
#define readonly continuous

typedef struct handle {
    struct handle *next;
    const pvar_t *pvar;
    int started;
    uint64_t acc, at_start;
} handle_t;

typedef struct session {
    struct session *next;
    handle_t *handles;
} session_t;

static session_t *sessions;

static void free_session(session_t *s)
{
    while (s->handles) {
        handle_t *h = s->handles;
        s->handles = h->next;
        free(h);
    }
    free(s);
}

void mica_t_pvar_free_all(void)
{
    while (sessions) {
        session_t *s = sessions;
        sessions = s->next;
        free_session(s);
    }
}

int mica_t_pvars_of(const char *cat, int len, int *indices)
{
    int n = 0;
    for (int i = 0; i < NPVARS; i++)
        if (!strcmp(pvars[i].category, cat)) {
            if (indices && n < len)
                indices[n] = i;
            n++;
        }
    return n;
}

int mica_t_pvar_get_num(int *num_pvar)
{
    MICA_T_CHECK_INIT();
    if (num_pvar)
        *num_pvar = NPVARS;
    return MPI_SUCCESS;
}

int mica_t_pvar_get_info(int pvar_index, char *name, int *name_len, int *verbosity,
                         int *var_class, MPI_Datatype *datatype, MPI_T_enum *enumtype,
                         char *desc, int *desc_len, int *bind, int *readonly_, int *continuous_,
                         int *atomic)
{
    MICA_T_CHECK_INIT();
    if (pvar_index < 0 || pvar_index >= NPVARS)
        return MPI_T_ERR_INVALID_INDEX;
    const pvar_t *p = &pvars[pvar_index];
    mica_t_string(p->name, name, name_len);
    mica_t_string(p->desc, desc, desc_len);
    if (verbosity)
        *verbosity = p->verbosity;
    if (var_class)
        *var_class = p->var_class;
    if (datatype)
        *datatype = MPI_UNSIGNED_LONG_LONG;
    if (enumtype)
        *enumtype = MPI_T_ENUM_NULL;
    if (bind)
        *bind = MPI_T_BIND_NO_OBJECT;
    if (readonly_)
        *readonly_ = readonly(p);
    if (continuous_)
        *continuous_ = continuous(p);
    if (atomic)
        *atomic = 1;
    return MPI_SUCCESS;
}

int mica_t_pvar_get_index(const char *name, int var_class, int *pvar_index)
{
    MICA_T_CHECK_INIT();
    if (!name || !pvar_index)
        return MPI_T_ERR_INVALID;
    for (int i = 0; i < NPVARS; i++)
        if (pvars[i].var_class == var_class && !strcmp(pvars[i].name, name)) {
            *pvar_index = i;
            return MPI_SUCCESS;
        }
    return MPI_T_ERR_INVALID_NAME;
}

int mica_t_pvar_session_create(MPI_T_pvar_session *session)
{
    MICA_T_CHECK_INIT();
    if (!session)
        return MPI_T_ERR_INVALID;
    session_t *s = calloc(1, sizeof *s);
    if (!s)
        return MPI_T_ERR_OUT_OF_SESSIONS;
    s->next = sessions;
    sessions = s;
    *session = (MPI_T_pvar_session)(void *)s;
    return MPI_SUCCESS;
}

static session_t *session_of(MPI_T_pvar_session session)
{
    for (session_t *s = sessions; s; s = s->next)
        if ((MPI_T_pvar_session)(void *)s == session)
            return s;
    return NULL;
}

int mica_t_pvar_session_free(MPI_T_pvar_session *session)
{
    MICA_T_CHECK_INIT();
    if (!session)
        return MPI_T_ERR_INVALID;
    session_t *s = session_of(*session);
    if (!s)
        return MPI_T_ERR_INVALID_SESSION;
    for (session_t **p = &sessions; *p; p = &(*p)->next)
        if (*p == s) {
            *p = s->next;
            break;
        }
    free_session(s);
    *session = MPI_T_PVAR_SESSION_NULL;
    return MPI_SUCCESS;
}

int mica_t_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index, void *obj_handle,
                             MPI_T_pvar_handle *handle, int *count)
{
    (void)obj_handle;                 /* every one binds to no object */
    MICA_T_CHECK_INIT();
    session_t *s = session_of(session);
    if (!s)
        return MPI_T_ERR_INVALID_SESSION;
    if (pvar_index < 0 || pvar_index >= NPVARS)
        return MPI_T_ERR_INVALID_INDEX;
    if (!handle || !count)
        return MPI_T_ERR_INVALID;
    handle_t *h = calloc(1, sizeof *h);
    if (!h)
        return MPI_T_ERR_OUT_OF_HANDLES;
    h->pvar = &pvars[pvar_index];
    h->started = continuous(h->pvar);     /* a continuous one is always started */
    h->next = s->handles;
    s->handles = h;
    *handle = (MPI_T_pvar_handle)(void *)h;
    *count = 1;
    return MPI_SUCCESS;
}

/* The handle of session s, or NULL (MPI_T_PVAR_ALL_HANDLES is not one). */
static handle_t *handle_of(session_t *s, MPI_T_pvar_handle handle)
{
    for (handle_t *h = s->handles; h; h = h->next)
        if ((MPI_T_pvar_handle)(void *)h == handle)
            return h;
    return NULL;
}

int mica_t_pvar_handle_free(MPI_T_pvar_session session, MPI_T_pvar_handle *handle)
{
    MICA_T_CHECK_INIT();
    session_t *s = session_of(session);
    if (!s)
        return MPI_T_ERR_INVALID_SESSION;
    if (!handle)
        return MPI_T_ERR_INVALID;
    handle_t *h = handle_of(s, *handle);
    if (!h)
        return MPI_T_ERR_INVALID_HANDLE;
    for (handle_t **p = &s->handles; *p; p = &(*p)->next)
        if (*p == h) {
            *p = h->next;
            break;
        }
    free(h);
    *handle = MPI_T_PVAR_HANDLE_NULL;
    return MPI_SUCCESS;
}

static uint64_t value(const handle_t *h)
{
    if (continuous(h->pvar))
        return counter(h->pvar);
    return h->acc + (h->started ? counter(h->pvar) - h->at_start : 0);
}

/* The session and handle of a call, or an error; *all for MPI_T_PVAR_ALL_HANDLES where
 * `all_ok`. */
static int find(MPI_T_pvar_session session, MPI_T_pvar_handle handle, int all_ok,
                session_t **s, handle_t **h)
{
    MICA_T_CHECK_INIT();
    *s = session_of(session);
    if (!*s)
        return MPI_T_ERR_INVALID_SESSION;
    *h = NULL;
    if (handle == MPI_T_PVAR_ALL_HANDLES)
        return all_ok ? MPI_SUCCESS : MPI_T_ERR_INVALID_HANDLE;
    *h = handle_of(*s, handle);
    return *h ? MPI_SUCCESS : MPI_T_ERR_INVALID_HANDLE;
}

static void start(handle_t *h)
{
    if (!h->started) {
        h->at_start = counter(h->pvar);
        h->started = 1;
    }
}

static void stop(handle_t *h)
{
    if (h->started) {
        h->acc += counter(h->pvar) - h->at_start;
        h->started = 0;
    }
}

static void set(handle_t *h, uint64_t v)
{
    h->acc = v;
    h->at_start = counter(h->pvar);
}

int mica_t_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    session_t *s;
    handle_t *h;
    int rc = find(session, handle, 1, &s, &h);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!h) {                         /* every handle of the session that may be started */
        for (h = s->handles; h; h = h->next)
            if (!continuous(h->pvar))
                start(h);
        return MPI_SUCCESS;
    }
    if (continuous(h->pvar))
        return MPI_T_ERR_PVAR_NO_STARTSTOP;
    start(h);
    return MPI_SUCCESS;
}

int mica_t_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    session_t *s;
    handle_t *h;
    int rc = find(session, handle, 1, &s, &h);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!h) {
        for (h = s->handles; h; h = h->next)
            if (!continuous(h->pvar))
                stop(h);
        return MPI_SUCCESS;
    }
    if (continuous(h->pvar))
        return MPI_T_ERR_PVAR_NO_STARTSTOP;
    stop(h);
    return MPI_SUCCESS;
}

int mica_t_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf)
{
    session_t *s;
    handle_t *h;
    int rc = find(session, handle, 0, &s, &h);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!buf)
        return MPI_T_ERR_INVALID;
    *(unsigned long long *)buf = value(h);
    return MPI_SUCCESS;
}

int mica_t_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void *buf)
{
    session_t *s;
    handle_t *h;
    int rc = find(session, handle, 0, &s, &h);
    if (rc != MPI_SUCCESS)
        return rc;
    if (readonly(h->pvar))
        return MPI_T_ERR_PVAR_NO_WRITE;
    if (!buf)
        return MPI_T_ERR_INVALID;
    set(h, *(const unsigned long long *)buf);
    return MPI_SUCCESS;
}

int mica_t_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    session_t *s;
    handle_t *h;
    int rc = find(session, handle, 1, &s, &h);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!h) {                         /* every handle of the session that may be written */
        for (h = s->handles; h; h = h->next)
            if (!readonly(h->pvar))
                set(h, 0);
        return MPI_SUCCESS;
    }
    if (readonly(h->pvar))
        return MPI_T_ERR_PVAR_NO_WRITE;
    set(h, 0);
    return MPI_SUCCESS;
}

int mica_t_pvar_readreset(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf)
{
    session_t *s;
    handle_t *h;
    int rc = find(session, handle, 0, &s, &h);
    if (rc != MPI_SUCCESS)
        return rc;
    if (readonly(h->pvar))
        return MPI_T_ERR_PVAR_NO_WRITE;
    if (!buf)
        return MPI_T_ERR_INVALID;
    *(unsigned long long *)buf = value(h);
    set(h, 0);
    return MPI_SUCCESS;
}
