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
    mica_comm_t *comm;                /* send, recv: on which communicator (mica_sched_on) */
    int peer;
    int alt;                          /* send, recv: on the schedule's second tag */
    const void *src;                  /* send, copy: the data; reduce: `in` */
    void *dst;                        /* recv, copy: where it goes; reduce: `inout` */
    MPI_Count scount, dcount;
    mica_type_t *stype, *dtype;
} step_t;

struct mica_sched {
    mica_comm_t *comm;
    mica_comm_t *cur;                 /* where the sends and receives added now go */
    int tag;
    int error;                        /* the first error, while building or running */
    int stopped;                      /* an error of this process: a blocking run stops */
    int immediate;                    /* a blocking run: each step is taken as it is added */
    step_t *steps;
    int nsteps, cap, next;            /* next: the first step not started yet */
    mica_request_t **pending;         /* the current round's sends and receives */
    int npending, nxfers;             /* nxfers: the most sends and receives of a round */
    int ndone;                        /* pending[0 .. ndone) are known to be done */
    int round_xfers;                  /* those of the round being built */
    int cappending;                   /* immediate: pending's size, own_pending at first */
    void **mem;                       /* temporaries, freed with the schedule */
    int nmem, capmem;
    mica_op_t *op;                    /* the reduction's operation, kept alive */
    mica_request_t *req;              /* the user's request, or */
    mica_sched_done_fn *done;         /* what to call when it completes (mica_sched_start_cb) */
    void *done_arg;
    struct mica_sched *next_active;
    mica_request_t **own_pending;     /* immediate: the arrays on mica_sched_run's stack */
    void **own_mem;
};

mica_sched_t *mica_sched_active;
static mica_sched_t **active_tail = &mica_sched_active;

/* An error of a message received (its size): the first error is kept and the steps go on,
 * since the other processes wait for this one's messages. */
static void fail_message(mica_sched_t *s, int rc)
{
    if (s->error == MPI_SUCCESS)
        s->error = rc;
}

/* An error of this process (no memory, a step that could not start): a blocking run takes no
 * further step. */
static void fail(mica_sched_t *s, int rc)
{
    fail_message(s, rc);
    s->stopped = 1;
}

uint32_t mica_sched_reserve(mica_comm_t *comm)
{
    return comm->coll_seq++;
}

void mica_sched_fail(mica_sched_t *s, int rc)
{
    fail(s, rc);
}

void mica_sched_on(mica_sched_t *s, mica_comm_t *comm)
{
    s->cur = comm;
}

mica_sched_t *mica_sched_new_seq(mica_comm_t *comm, uint32_t seq)
{
    mica_sched_t *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->comm = s->cur = comm;
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
        step_t *n = realloc(s->steps, (size_t)cap * sizeof *n);
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

/* A blocking run's send or receive, started now. */
static void start_now(mica_sched_t *s, enum step_kind kind, const void *buf, MPI_Count count,
                      mica_type_t *type, int peer, int alt)
{
    if (s->stopped)
        return;
    if (s->npending == s->cappending) {
        int cap = 2 * s->cappending;
        mica_request_t **n = s->pending == s->own_pending ? malloc((size_t)cap * sizeof *n)
                                                          : realloc(s->pending,
                                                                    (size_t)cap * sizeof *n);
        if (!n) {
            fail(s, mica_error(MPI_ERR_NO_MEM, "no memory for %d requests", cap));
            return;
        }
        if (s->pending == s->own_pending)
            memcpy(n, s->pending, (size_t)s->npending * sizeof *n);
        s->pending = n;
        s->cappending = cap;
    }
    mica_request_t *r = NULL;
    int rc = kind == STEP_SEND
                 ? mica_coll_isend(buf, count, type, peer, s->tag + alt, s->cur, &r)
                 : mica_coll_irecv((void *)buf, count, type, peer, s->tag + alt, s->cur, &r);
    if (r)
        s->pending[s->npending++] = r;
    if (rc != MPI_SUCCESS)
        fail(s, rc);
}

static void transfer(mica_sched_t *s, enum step_kind kind, const void *buf, MPI_Count count,
                     mica_type_t *type, int peer, int alt)
{
    if (s->immediate) {
        start_now(s, kind, buf, count, type, peer, alt);
        return;
    }
    step_t *st = add(s, kind);
    if (!st)
        return;
    st->comm = s->cur;
    st->peer = peer;
    st->alt = alt;
    if (kind == STEP_SEND) {
        st->src = buf;
        st->scount = count;
        keep(&st->stype, type);
    } else {
        st->dst = (void *)buf;
        st->dcount = count;
        keep(&st->dtype, type);
    }
    count_xfer(s);
}

void mica_sched_send(mica_sched_t *s, const void *buf, MPI_Count count, mica_type_t *type,
                     int dest)
{
    transfer(s, STEP_SEND, buf, count, type, dest, 0);
}

void mica_sched_recv(mica_sched_t *s, void *buf, MPI_Count count, mica_type_t *type, int source)
{
    transfer(s, STEP_RECV, buf, count, type, source, 0);
}

void mica_sched_send_alt(mica_sched_t *s, const void *buf, MPI_Count count, mica_type_t *type,
                         int dest)
{
    transfer(s, STEP_SEND, buf, count, type, dest, 1);
}

void mica_sched_recv_alt(mica_sched_t *s, void *buf, MPI_Count count, mica_type_t *type,
                         int source)
{
    transfer(s, STEP_RECV, buf, count, type, source, 1);
}

void mica_sched_copy(mica_sched_t *s, const void *src, MPI_Count scount, mica_type_t *stype,
                     void *dst, MPI_Count dcount, mica_type_t *dtype)
{
    if (s->immediate) {
        if (!s->stopped)
            mica_type_copy(src, scount, stype, dst, dcount, dtype);
        return;
    }
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
    if (s->immediate) {
        int rc = s->stopped ? MPI_SUCCESS : mica_op_apply(op, in, inout, count, type);
        if (rc != MPI_SUCCESS)
            fail(s, rc);
        return;
    }
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

static void wait_round(mica_sched_t *s);

void mica_sched_barrier(mica_sched_t *s)
{
    if (s->immediate) {
        wait_round(s);
        return;
    }
    add(s, STEP_BARRIER);
    s->round_xfers = 0;
}

static void *remember(mica_sched_t *s, void *mem)
{
    if (mem && s->nmem == s->capmem) {
        int cap = s->capmem ? 2 * s->capmem : 8;
        void **n = s->mem == s->own_mem ? malloc((size_t)cap * sizeof *n)
                                        : realloc(s->mem, (size_t)cap * sizeof *n);
        if (n && s->mem == s->own_mem && s->nmem)   /* a new recorded schedule has mem NULL */
            memcpy(n, s->mem, (size_t)s->nmem * sizeof *n);
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

void *mica_sched_mem(mica_sched_t *s, size_t bytes)
{
    return remember(s, malloc(bytes ? bytes : 1));
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
    if (s->mem != s->own_mem)
        free(s->mem);
    free(s->steps);
    if (s->pending != s->own_pending)
        free(s->pending);
    if (!s->immediate)
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
                                 st->comm, &r);
            break;
        case STEP_RECV:
            rc = mica_coll_irecv(st->dst, st->dcount, st->dtype, st->peer, s->tag + st->alt,
                                 st->comm, &r);
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
static inline int round_done(mica_sched_t *s)
{
    while (s->ndone < s->npending && mica_request_done(s->pending[s->ndone]))
        s->ndone++;
    return s->ndone == s->npending;
}

/* The round's sends and receives are done: collect their errors (a message of the wrong size
 * among them, mica_coll_recv_error), free them. */
static void close_round(mica_sched_t *s)
{
    for (int i = 0; i < s->npending; i++) {
        mica_request_t *r = s->pending[i];
        int rc = r->kind == MICA_REQ_RECV ? mica_coll_recv_error(r) : r->status.MPI_ERROR;
        if (rc != MPI_SUCCESS)
            fail_message(s, rc);
        mica_request_release(r);
    }
    s->npending = s->ndone = 0;
}

/* A blocking run's barrier: wait here. */
static void wait_round(mica_sched_t *s)
{
    MICA_WAIT_UNTIL(round_done(s));
    close_round(s);
}

static int advance(mica_sched_t *s, int *moved)
{
    for (;;) {
        if (!round_done(s))
            return 0;
        close_round(s);
        if (s->next == s->nsteps)
            return 1;
        if (s->next == 0 && s->comm->context == MICA_CONTEXT_NONE)
            return 0;                 /* on an MPI_Comm_idup's duplicate not agreed yet: wait */
        *moved = 1;
        run_round(s);
    }
}

/* The schedule is done: complete its request (or let it go, if the user freed it), or tell
 * whoever started it. */
static void finish(mica_sched_t *s)
{
    if (s->done) {
        mica_sched_done_fn *done = s->done;
        void *arg = s->done_arg;
        int rc = s->error;
        destroy(s);
        done(arg, rc);
        return;
    }
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
    if (rc == MPI_SUCCESS && s->nxfers &&
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

int mica_sched_start_cb(mica_sched_t *s, mica_sched_done_fn *done, void *arg)
{
    int rc = prepare(s);
    if (rc != MPI_SUCCESS)
        return rc;
    s->done = done;
    s->done_arg = arg;
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

/* A blocking run records nothing: each step is taken as the builder adds it (sends and receives
 * started, local steps done, a barrier waits for the round), in the order a recorded schedule
 * would take them, so it costs what a hand-written blocking algorithm does. Its arrays start on
 * the stack. */
enum { LOCAL_PENDING = 32, LOCAL_MEM = 4 };

int mica_sched_run(mica_comm_t *comm, int tag, mica_coll_build_fn *build,
                   const mica_coll_args_t *a)
{
    mica_request_t *pending[LOCAL_PENDING];
    void *mem[LOCAL_MEM];
    mica_sched_t s = {.comm = comm, .cur = comm, .tag = tag, .immediate = 1, .pending = pending,
                      .cappending = LOCAL_PENDING, .own_pending = pending, .mem = mem,
                      .capmem = LOCAL_MEM, .own_mem = mem};
    build(&s, a, comm);
    wait_round(&s);
    int rc = s.error;
    destroy(&s);
    return rc;
}
