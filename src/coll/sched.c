/* The schedule engine of the collectives (sched.h). */
#include <stdlib.h>
#include <string.h>

#include "coll/sched.h"
#include "core/errors.h"
#include "core/progress.h"
#include "core/request.h"

_Static_assert(MICA_TAG_NEIGHBOR_UP < MICA_TAG_NBC_FIRST, "blocking collectives' tags come first");

enum step_kind { STEP_SEND, STEP_RECV, STEP_COPY, STEP_REDUCE, STEP_BARRIER };

typedef struct step {
    enum step_kind kind;
    int peer;
    int alt;                          /* send, recv: on the schedule's second tag */
    const void *src;                  /* send, copy: the data; reduce: `in` */
    void *dst;                        /* recv, copy: where it goes; reduce: `inout` */
    MPI_Count scount, dcount;
    mica_type_t *stype, *dtype;
} step_t;

struct mica_sched {
    mica_comm_t *comm;
    int tag;
    int error;                        /* the first error, while building or running */
    step_t *steps;
    int nsteps, cap, next;            /* next: the first step not started yet */
    mica_request_t **pending;         /* the current round's sends and receives */
    int npending, nxfers;             /* nxfers: the most sends and receives of a round */
    int round_xfers;                  /* those of the round being built */
    void **mem;                       /* temporaries, freed with the schedule */
    int nmem, capmem;
    mica_op_t *op;                    /* the reduction's operation, kept alive */
    mica_request_t *req;              /* the user's request */
    struct mica_sched *next_active;
    int local;                        /* run by mica_sched_run: on its stack, with the arrays */
    step_t *own_steps;                /* ... own_steps and own_pending, until they are too small */
    mica_request_t **own_pending;
    int own_npending;
};

mica_sched_t *mica_sched_active;
static mica_sched_t **active_tail = &mica_sched_active;

static void fail(mica_sched_t *s, int rc)
{
    if (s->error == MPI_SUCCESS)
        s->error = rc;
}

uint32_t mica_sched_reserve(mica_comm_t *comm)
{
    return comm->coll_seq++;
}

void mica_sched_fail(mica_sched_t *s, int rc)
{
    fail(s, rc);
}

mica_sched_t *mica_sched_new_seq(mica_comm_t *comm, uint32_t seq)
{
    mica_sched_t *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->comm = comm;
    s->tag = MICA_TAG_NBC_FIRST + 2 * (int)(seq & MICA_TAG_NBC_MASK);
    return s;
}

mica_sched_t *mica_sched_new(mica_comm_t *comm)
{
    /* The sequence number is counted even if we fail: the others go on. */
    return mica_sched_new_seq(comm, mica_sched_reserve(comm));
}

static step_t *add(mica_sched_t *s, enum step_kind kind)
{
    if (s->nsteps == s->cap) {
        int cap = s->cap ? 2 * s->cap : 16;
        step_t *n = s->steps == s->own_steps ? malloc((size_t)cap * sizeof *n)
                                             : realloc(s->steps, (size_t)cap * sizeof *n);
        if (n && s->steps == s->own_steps && s->nsteps)
            memcpy(n, s->steps, (size_t)s->nsteps * sizeof *n);
        if (!n) {
            fail(s, mica_error(MPI_ERR_NO_MEM, "no memory for a collective's schedule of %d "
                               "steps", cap));
            return NULL;
        }
        s->steps = n;
        s->cap = cap;
    }
    step_t *st = &s->steps[s->nsteps++];
    memset(st, 0, sizeof *st);
    st->kind = kind;
    return st;
}

static void keep(mica_type_t **slot, mica_type_t *type)
{
    *slot = type;
    if (type)
        mica_type_retain(type);
}

static void count_xfer(mica_sched_t *s)
{
    if (++s->round_xfers > s->nxfers)
        s->nxfers = s->round_xfers;
}

void mica_sched_send(mica_sched_t *s, const void *buf, MPI_Count count, mica_type_t *type,
                     int dest)
{
    step_t *st = add(s, STEP_SEND);
    if (!st)
        return;
    st->peer = dest;
    st->src = buf;
    st->scount = count;
    keep(&st->stype, type);
    count_xfer(s);
}

void mica_sched_recv(mica_sched_t *s, void *buf, MPI_Count count, mica_type_t *type, int source)
{
    step_t *st = add(s, STEP_RECV);
    if (!st)
        return;
    st->peer = source;
    st->dst = buf;
    st->dcount = count;
    keep(&st->dtype, type);
    count_xfer(s);
}

void mica_sched_send_alt(mica_sched_t *s, const void *buf, MPI_Count count, mica_type_t *type,
                         int dest)
{
    mica_sched_send(s, buf, count, type, dest);
    if (s->nsteps && s->steps[s->nsteps - 1].kind == STEP_SEND)
        s->steps[s->nsteps - 1].alt = 1;
}

void mica_sched_recv_alt(mica_sched_t *s, void *buf, MPI_Count count, mica_type_t *type,
                         int source)
{
    mica_sched_recv(s, buf, count, type, source);
    if (s->nsteps && s->steps[s->nsteps - 1].kind == STEP_RECV)
        s->steps[s->nsteps - 1].alt = 1;
}

void mica_sched_copy(mica_sched_t *s, const void *src, MPI_Count scount, mica_type_t *stype,
                     void *dst, MPI_Count dcount, mica_type_t *dtype)
{
    step_t *st = add(s, STEP_COPY);
    if (!st)
        return;
    st->src = src;
    st->dst = dst;
    st->scount = scount;
    st->dcount = dcount;
    keep(&st->stype, stype);
    keep(&st->dtype, dtype);
}

void mica_sched_reduce(mica_sched_t *s, const void *in, void *inout, MPI_Count count,
                       mica_type_t *type, mica_op_t *op)
{
    step_t *st = add(s, STEP_REDUCE);
    if (!st)
        return;
    st->src = in;
    st->dst = inout;
    st->scount = count;
    keep(&st->stype, type);
    if (!s->op) {                     /* a schedule reduces with one operation */
        s->op = op;
        mica_op_retain(op);
    }
}

void mica_sched_barrier(mica_sched_t *s)
{
    add(s, STEP_BARRIER);
    s->round_xfers = 0;
}

static void *remember(mica_sched_t *s, void *mem)
{
    if (mem && s->nmem == s->capmem) {
        int cap = s->capmem ? 2 * s->capmem : 8;
        void **n = realloc(s->mem, (size_t)cap * sizeof *n);
        if (!n) {
            free(mem);
            mem = NULL;
        } else {
            s->mem = n;
            s->capmem = cap;
        }
    }
    if (!mem) {
        fail(s, mica_error(MPI_ERR_NO_MEM, "no memory for a collective's temporary buffer"));
        return NULL;
    }
    s->mem[s->nmem++] = mem;
    return mem;
}

void *mica_sched_tmp(mica_sched_t *s, MPI_Count count, mica_type_t *type)
{
    void *mem, *buf = mica_coll_tmp(count, type, &mem);
    return remember(s, buf ? mem : NULL) ? buf : NULL;
}

void *mica_sched_packed(mica_sched_t *s, const void *buf, MPI_Count count, mica_type_t *type,
                        MPI_Count *bytes)
{
    *bytes = count * type->size;
    void *p = remember(s, malloc(*bytes ? (size_t)*bytes : 1));
    if (p)
        mica_type_pack(buf, count, type, 0, p, *bytes);
    return p;
}

static void destroy(mica_sched_t *s)
{
    for (int i = 0; i < s->nsteps; i++) {
        if (s->steps[i].stype)
            mica_type_release(s->steps[i].stype);
        if (s->steps[i].dtype)
            mica_type_release(s->steps[i].dtype);
    }
    for (int i = 0; i < s->nmem; i++)
        free(s->mem[i]);
    if (s->op)
        mica_op_release(s->op);
    free(s->mem);
    if (s->steps != s->own_steps)
        free(s->steps);
    if (s->pending != s->own_pending)
        free(s->pending);
    if (!s->local)
        free(s);
}

/* Start the steps of the current round, up to its closing barrier. */
static void run_round(mica_sched_t *s)
{
    while (s->next < s->nsteps) {
        step_t *st = &s->steps[s->next++];
        mica_request_t *r = NULL;
        int rc = MPI_SUCCESS;
        switch (st->kind) {
        case STEP_BARRIER:
            if (s->npending)
                return;
            break;
        case STEP_SEND:
            rc = mica_coll_isend(st->src, st->scount, st->stype, st->peer, s->tag + st->alt,
                                 s->comm, &r);
            break;
        case STEP_RECV:
            rc = mica_coll_irecv(st->dst, st->dcount, st->dtype, st->peer, s->tag + st->alt,
                                 s->comm, &r);
            break;
        case STEP_COPY:
            mica_type_copy(st->src, st->scount, st->stype, st->dst, st->dcount, st->dtype);
            break;
        case STEP_REDUCE:
            rc = mica_op_apply(s->op, st->src, st->dst, st->scount, st->stype);
            break;
        }
        if (r)
            s->pending[s->npending++] = r;
        if (rc != MPI_SUCCESS)
            fail(s, rc);
    }
}

/* Complete what can be: 1 when the whole schedule is done, with *moved set if anything was. */
static int advance(mica_sched_t *s, int *moved)
{
    for (;;) {
        for (int i = 0; i < s->npending; i++)
            if (!mica_request_done(s->pending[i]))
                return 0;
        for (int i = 0; i < s->npending; i++) {
            if (s->pending[i]->status.MPI_ERROR != MPI_SUCCESS)
                fail(s, s->pending[i]->status.MPI_ERROR);
            mica_request_release(s->pending[i]);
        }
        s->npending = 0;
        if (s->next == s->nsteps)
            return 1;
        *moved = 1;
        run_round(s);
    }
}

/* The schedule is done: complete its request (or let it go, if the user freed it). */
static void finish(mica_sched_t *s)
{
    mica_request_t *r = s->req;
    r->status = (MPI_Status){.MPI_SOURCE = MPI_ANY_SOURCE, .MPI_TAG = MPI_ANY_TAG,
                             .MPI_ERROR = s->error};
    destroy(s);
    if (r->freed)
        mica_request_release(r);
    else
        mica_request_complete(r);
}

/* The checks before anything is sent: MPI_SUCCESS, or an error with the schedule freed. */
static int prepare(mica_sched_t *s)
{
    if (!s)
        return mica_error(MPI_ERR_NO_MEM, "no memory for a collective's schedule");
    int rc = s->error;
    if (s->nxfers && s->nxfers <= s->own_npending)
        s->pending = s->own_pending;
    else if (rc == MPI_SUCCESS && s->nxfers &&
             !(s->pending = malloc((size_t)s->nxfers * sizeof *s->pending)))
        rc = mica_error(MPI_ERR_NO_MEM, "no memory for %d requests", s->nxfers);
    if (rc != MPI_SUCCESS)
        destroy(s);
    return rc;
}

/* Run the schedule for request s->req, as far as it goes now. */
static void launch(mica_sched_t *s)
{
    int moved = 0;
    if (advance(s, &moved)) {
        finish(s);
    } else {
        *active_tail = s;
        active_tail = &s->next_active;
        mica_progress_arm(mica_sched_poll);
    }
}

int mica_sched_start(mica_sched_t *s, MPI_Request *request)
{
    int rc = prepare(s);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!(s->req = mica_request_new(MICA_REQ_COLL))) {
        destroy(s);
        return mica_error(MPI_ERR_NO_MEM, "no memory for a request");
    }
    mica_request_t *r = s->req;
    r->comm = s->comm;                /* errors are raised on it; the request keeps it alive */
    mica_comm_retain(s->comm);
    *request = (MPI_Request)r->obj.handle;
    launch(s);
    return MPI_SUCCESS;
}

int mica_sched_start_on(mica_sched_t *s, mica_request_t *r)
{
    int rc = prepare(s);
    if (rc != MPI_SUCCESS)
        return rc;
    s->req = r;
    launch(s);
    return MPI_SUCCESS;
}

int mica_sched_poll(void)
{
    static int polling;               /* a user's reduction function may poll again */
    if (!mica_sched_active || polling)
        return 0;
    polling = 1;
    int moved = 0;
    for (mica_sched_t **ps = &mica_sched_active; *ps;) {
        mica_sched_t *s = *ps;
        if (!advance(s, &moved)) {
            ps = &s->next_active;
            continue;
        }
        *ps = s->next_active;
        if (active_tail == &s->next_active)
            active_tail = ps;
        finish(s);
        moved = 1;
    }
    polling = 0;
    if (!mica_sched_active)
        mica_progress_disarm(mica_sched_poll);
    return moved;
}

/* A blocking collective's schedule of a few dozen steps lives on the stack: running it costs no
 * allocation but its temporaries'. */
enum { LOCAL_STEPS = 48, LOCAL_PENDING = 24 };

int mica_sched_run(mica_comm_t *comm, int tag, mica_coll_build_fn *build, const mica_coll_args_t *a)
{
    step_t steps[LOCAL_STEPS];
    mica_request_t *pending[LOCAL_PENDING];
    mica_sched_t s = {.comm = comm, .tag = tag, .local = 1, .steps = steps, .cap = LOCAL_STEPS,
                      .own_steps = steps, .own_pending = pending,
                      .own_npending = LOCAL_PENDING};
    build(&s, a, comm);
    int rc = prepare(&s);
    if (rc != MPI_SUCCESS)
        return rc;
    int moved = 0;
    MICA_WAIT_UNTIL(advance(&s, &moved));
    rc = s.error;
    destroy(&s);
    return rc;
}
