/* Completion: wait, test and their all/any/some forms, request status, cancel, free,
 * generalized requests. (The library's own waits are the core's: core/request.c.) */
#include <stdlib.h>

#include "core/errors.h"
#include "core/progress.h"
#include "core/request.h"
#include "core_api.h"
#include "mpi/interlang.h"
#include "mpi/orchestrators.h"

static const MPI_Status empty_status = {.MPI_SOURCE = MPI_ANY_SOURCE, .MPI_TAG = MPI_ANY_TAG};

/* An inactive request: the null handle, or a persistent request not started. */
static int inactive(mica_request_t *r)
{
    return !r || (r->persistent && !r->active);
}

/* A generalized request's functions (its request's ext), C's or Fortran's. */
typedef struct {
    MPI_Grequest_query_function *query_fn;
    MPI_Grequest_free_function *free_fn;
    MPI_Grequest_cancel_function *cancel_fn;
    void *extra_state;
    int fortran;                      /* Fortran procedures: arguments by reference, IERROR */
} grequest_t;

/* The Fortran procedures' shapes: EXTRA_STATE is INTEGER(KIND=MPI_ADDRESS_KIND), STATUS an
 * INTEGER array laid out as MPI_Status, COMPLETE a LOGICAL. The binding gave the address of
 * the user's EXTRA_STATE (gen/fortran.py), which the procedures get and may change. */
typedef void fortran_query_fn(MPI_Aint *extra_state, MPI_Fint *status, MPI_Fint *ierror);
typedef void fortran_free_fn(MPI_Aint *extra_state, MPI_Fint *ierror);
typedef void fortran_cancel_fn(MPI_Aint *extra_state, MPI_Fint *complete, MPI_Fint *ierror);

static grequest_t *greq(mica_request_t *r)
{
    return r->ext;
}

/* A generalized request's status comes from the user's query function. The user's functions
 * run without the big lock (core/progress.h): they may call MPI. */
static int grequest_query(mica_request_t *r)
{
    grequest_t *g = greq(r);
    int held = mica_callback_begin(), rc;
    if (g->fortran) {
        MPI_Fint ierror = MPI_SUCCESS;
        ((fortran_query_fn *)(void (*)(void))g->query_fn)(g->extra_state,
                                                          (MPI_Fint *)&r->status, &ierror);
        rc = ierror;
    } else {
        rc = g->query_fn(g->extra_state, &r->status);
    }
    mica_callback_end(held);
    return rc;
}

static int grequest_free(mica_request_t *r)
{
    grequest_t *g = greq(r);
    int held = mica_callback_begin(), rc;
    if (g->fortran) {
        MPI_Fint ierror = MPI_SUCCESS;
        ((fortran_free_fn *)(void (*)(void))g->free_fn)(g->extra_state, &ierror);
        rc = ierror;
    } else {
        rc = g->free_fn(g->extra_state);
    }
    mica_callback_end(held);
    return rc;
}

static int grequest_finish(mica_request_t *r)
{
    int rc = grequest_query(r);
    return rc == MPI_SUCCESS ? grequest_free(r) : rc;
}

/* The request is complete: give its status, release it (or deactivate a persistent one) and
 * set the handle accordingly. Returns the request's error. */
static int retire(MPI_Request *handle, mica_request_t *r, MPI_Status *status, mica_errobj_t **eo)
{
    int rc = r->kind == MICA_REQ_GREQ ? grequest_finish(r) : MPI_SUCCESS;
    mica_status_give(status, &r->status);
    if (rc == MPI_SUCCESS)
        rc = r->status.MPI_ERROR;
    if (rc != MPI_SUCCESS && !*eo && r->comm)  /* raised on the request's communicator */
        *eo = &r->comm->eo;
    if (r->persistent) {
        r->active = 0;
    } else {
        mica_request_release(r);
        *handle = MPI_REQUEST_NULL;
    }
    return rc;
}

static mica_request_t *get(MPI_Request h)
{
    return h == MPI_REQUEST_NULL ? NULL : mica_request_lookup(h);
}

static int bad_request(int i, MPI_Request h)
{
    return mica_error(MPI_ERR_REQUEST, "array_of_requests[%d]=%p is not a valid request", i, (void *)h);
}

int mica_wait(MPI_Request *request, MPI_Status *status, mica_errobj_t **eo)
{
    mica_request_t *r = get(*request);
    if (inactive(r)) {
        mica_status_give(status, &empty_status);
        return MPI_SUCCESS;
    }
    MICA_WAIT_UNTIL(mica_request_done(r));
    int rc = retire(request, r, status, eo);
    return rc;
}

int mica_test(MPI_Request *request, int *flag, MPI_Status *status, mica_errobj_t **eo)
{
    mica_request_t *r = get(*request);
    if (inactive(r)) {
        *flag = 1;
        mica_status_give(status, &empty_status);
        return MPI_SUCCESS;
    }
    if (!mica_request_done(r))
        mica_progress();
    int rc = MPI_SUCCESS;
    *flag = mica_request_done(r);
    if (*flag)
        rc = retire(request, r, status, eo);
    return rc;
}

/* Validate an array of requests; NULL entries in `out` stand for inactive requests. */
static int lookup_all(int count, const MPI_Request reqs[], mica_request_t **out)
{
    for (int i = 0; i < count; i++) {
        mica_request_t *r = get(reqs[i]);
        if (!r && reqs[i] != MPI_REQUEST_NULL)
            return bad_request(i, reqs[i]);
        out[i] = inactive(r) ? NULL : r;
    }
    return MPI_SUCCESS;
}

#define WITH_REQUESTS(count, reqs, rs)                                                       \
    mica_request_t *stack_[16], **rs = (count) <= 16 ? stack_ : malloc((count) * sizeof *rs); \
    if (!rs)                                                                                 \
        return mica_error(MPI_ERR_NO_MEM, "no memory for %d requests", (count));             \
    int rc_ = lookup_all((count), (reqs), rs);                                               \
    if (rc_ != MPI_SUCCESS)                                                                  \
        goto done_;

#define END_REQUESTS(rs)                                                                     \
    done_:                                                                                   \
    if (rs != stack_)                                                                        \
        free(rs);                                                                            \
    return rc_;

/* The error fields of a multiple completion's statuses are written only if it fails (returns
 * MPI_ERR_IN_STATUS): then statuses[0 .. i] all get theirs, the earlier ones MPI_SUCCESS.
 * Returns whether any failed so far. */
static int note_error(MPI_Status statuses[], int i, int e, int errors)
{
    if (e == MPI_SUCCESS && !errors)
        return 0;
    if (statuses != MPI_STATUSES_IGNORE) {
        for (int j = errors ? i : 0; j < i; j++)
            statuses[j].MPI_ERROR = MPI_SUCCESS;
        statuses[i].MPI_ERROR = e;
    }
    return 1;
}

/* Complete every request in `rs` that is done, as the all-forms report it. */
static int retire_all(int count, MPI_Request reqs[], mica_request_t **rs, MPI_Status statuses[],
                      mica_errobj_t **eo)
{
    int errors = 0;
    for (int i = 0; i < count; i++) {
        MPI_Status *s = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
        int e = MPI_SUCCESS;
        if (rs[i])
            e = retire(&reqs[i], rs[i], s, eo);
        else
            mica_status_give(s, &empty_status);
        errors = note_error(statuses, i, e, errors);
    }
    return errors ? MPI_ERR_IN_STATUS : MPI_SUCCESS;
}

static int all_done(int count, mica_request_t **rs)
{
    for (int i = 0; i < count; i++)
        if (rs[i] && !mica_request_done(rs[i]))
            return 0;
    return 1;
}

int mica_waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[], mica_errobj_t **eo)
{
    WITH_REQUESTS(count, array_of_requests, rs)
    MICA_WAIT_UNTIL(all_done(count, rs));
    rc_ = retire_all(count, array_of_requests, rs, array_of_statuses, eo);
    END_REQUESTS(rs)
}

int mica_testall(int count, MPI_Request array_of_requests[], int *flag, MPI_Status array_of_statuses[], mica_errobj_t **eo)
{
    WITH_REQUESTS(count, array_of_requests, rs)
    if (!all_done(count, rs))
        mica_progress();
    *flag = all_done(count, rs);
    if (*flag)
        rc_ = retire_all(count, array_of_requests, rs, array_of_statuses, eo);
    END_REQUESTS(rs)
}

static int first_done(int count, mica_request_t **rs, int *active)
{
    *active = 0;
    for (int i = 0; i < count; i++) {
        if (!rs[i])
            continue;
        *active = 1;
        if (mica_request_done(rs[i]))
            return i;
    }
    return -1;
}

/* The first done request, polling once if none is, as the any-forms report it (*flag, *indx,
 * and the empty status when no request is active): its index, or -1. */
static int poll_any(int count, mica_request_t **rs, int *indx, int *flag, MPI_Status *status)
{
    int active, i = first_done(count, rs, &active);
    if (i < 0 && active) {
        mica_progress();
        i = first_done(count, rs, &active);
    }
    *flag = i >= 0 || !active;
    *indx = i >= 0 ? i : MPI_UNDEFINED;
    if (!active)
        mica_status_give(status, &empty_status);
    return i;
}

int mica_waitany(int count, MPI_Request array_of_requests[], int *indx, MPI_Status *status, mica_errobj_t **eo)
{
    WITH_REQUESTS(count, array_of_requests, rs)
    int i, active;
    MICA_WAIT_UNTIL((i = first_done(count, rs, &active)) >= 0 || !active);
    if (i < 0) {
        *indx = MPI_UNDEFINED;
        mica_status_give(status, &empty_status);
    } else {
        *indx = i;
        rc_ = retire(&array_of_requests[i], rs[i], status, eo);
    }
    END_REQUESTS(rs)
}

int mica_testany(int count, MPI_Request array_of_requests[], int *indx, int *flag, MPI_Status *status, mica_errobj_t **eo)
{
    WITH_REQUESTS(count, array_of_requests, rs)
    int i = poll_any(count, rs, indx, flag, status);
    if (i >= 0)
        rc_ = retire(&array_of_requests[i], rs[i], status, eo);
    END_REQUESTS(rs)
}

/* Complete all done requests, as the some-forms report them. */
static int retire_some(int count, MPI_Request reqs[], mica_request_t **rs, int *outcount,
                       int indices[], MPI_Status statuses[], mica_errobj_t **eo)
{
    int n = 0, active = 0, errors = 0;
    for (int i = 0; i < count; i++) {
        if (!rs[i])
            continue;
        active = 1;
        if (!mica_request_done(rs[i]))
            continue;
        MPI_Status *s = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[n];
        int e = retire(&reqs[i], rs[i], s, eo);
        errors = note_error(statuses, n, e, errors);
        indices[n++] = i;
    }
    *outcount = active ? n : MPI_UNDEFINED;
    return errors ? MPI_ERR_IN_STATUS : MPI_SUCCESS;
}

static int some_done(int count, mica_request_t **rs)
{
    int active;
    return first_done(count, rs, &active) >= 0 || !active;
}

int mica_waitsome(int incount, MPI_Request array_of_requests[], int *outcount,
                  int array_of_indices[], MPI_Status array_of_statuses[], mica_errobj_t **eo)
{
    WITH_REQUESTS(incount, array_of_requests, rs)
    MICA_WAIT_UNTIL(some_done(incount, rs));
    rc_ = retire_some(incount, array_of_requests, rs, outcount, array_of_indices, array_of_statuses, eo);
    END_REQUESTS(rs)
}

int mica_testsome(int incount, MPI_Request array_of_requests[], int *outcount,
                  int array_of_indices[], MPI_Status array_of_statuses[], mica_errobj_t **eo)
{
    WITH_REQUESTS(incount, array_of_requests, rs)
    if (!some_done(incount, rs))
        mica_progress();
    rc_ = retire_some(incount, array_of_requests, rs, outcount, array_of_indices, array_of_statuses, eo);
    END_REQUESTS(rs)
}

int mica_request_get_status(mica_request_t *request, int *flag, MPI_Status *status, mica_errobj_t **eo)
{
    (void)eo;                         /* no request error to blame on a communicator */
    mica_request_t *r = request;
    if (inactive(r)) {
        *flag = 1;
        mica_status_give(status, &empty_status);
        return MPI_SUCCESS;
    }
    if (!mica_request_done(r))
        mica_progress();
    *flag = mica_request_done(r);
    if (*flag) {
        if (r->kind == MICA_REQ_GREQ)
            grequest_query(r);
        mica_status_give(status, &r->status);
    }
    return MPI_SUCCESS;
}

int mica_request_free(MPI_Request *request, mica_errobj_t **eo)
{
    (void)eo;                         /* no request error to blame on a communicator */
    mica_request_t *r = mica_request_lookup(*request);
    int rc = MPI_SUCCESS;
    if (r->kind == MICA_REQ_GREQ && mica_request_done(r))
        rc = grequest_free(r);
    if (mica_request_done(r) || (r->persistent && !r->active))
        mica_request_release(r);
    else
        r->freed = 1;                 /* released by the engine when it completes */
    *request = MPI_REQUEST_NULL;
    return rc;
}

/* Each kind cancels as it can (core/request.h): a send already on its way is not cancelled (the
 * standard lets the cancel fail), a collective's request cannot be. */
int mica_cancel(MPI_Request *request, mica_errobj_t **eo)
{
    mica_request_t *r = mica_request_lookup(*request);
    int (*cancel)(mica_request_t *) = mica_request_ops[r->kind].cancel;
    if (!cancel)
        return MPI_SUCCESS;
    int rc = cancel(r);
    if (rc != MPI_SUCCESS && r->comm) /* raised on the request's communicator */
        *eo = &r->comm->eo;
    return rc;
}

int mica_test_cancelled(const MPI_Status *status, int *flag)
{
    *flag = status->MPI_internal[MICA_STATUS_CANCELLED] != 0;
    return MPI_SUCCESS;
}

int mica_grequest_start(MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn,
                        MPI_Grequest_cancel_function *cancel_fn, void *extra_state,
                        MPI_Request *request)
{
    if (!query_fn || !free_fn || !cancel_fn)
        return mica_error(MPI_ERR_ARG, "%s is NULL", !query_fn ? "query_fn" : !free_fn ? "free_fn" : "cancel_fn");
    grequest_t *g = malloc(sizeof *g);
    if (!g)
        return mica_error(MPI_ERR_NO_MEM, "no memory for a generalized request");
    *g = (grequest_t){query_fn, free_fn, cancel_fn, extra_state, 0};
    mica_request_t *r = mica_request_new(MICA_REQ_GREQ);
    if (!r) {
        free(g);
        return mica_error(MPI_ERR_NO_MEM, "no memory for a request");
    }
    r->ext = g;
    r->status = empty_status;
    *request = (MPI_Request)r->obj.handle;
    return MPI_SUCCESS;
}

static int grequest_cancel(mica_request_t *r)
{
    grequest_t *g = greq(r);
    int held = mica_callback_begin(), rc;
    if (g->fortran) {
        MPI_Fint complete = mica_request_done(r), ierror = MPI_SUCCESS;
        ((fortran_cancel_fn *)(void (*)(void))g->cancel_fn)(g->extra_state, &complete, &ierror);
        rc = ierror;
    } else {
        rc = g->cancel_fn(g->extra_state, mica_request_done(r));
    }
    mica_callback_end(held);
    return rc;
}

void mica_fortran_grequest(MPI_Request request)
{
    mica_request_t *r = mica_request_lookup(request);
    if (r && r->kind == MICA_REQ_GREQ)
        greq(r)->fortran = 1;
}

static void grequest_release(mica_request_t *r)
{
    free(r->ext);
    r->ext = NULL;
}

void mica_grequest_register(void)
{
    static const mica_request_ops_t ops = {.cancel = grequest_cancel, .free = grequest_release};
    mica_request_set_ops(MICA_REQ_GREQ, &ops);
}

int mica_grequest_complete(mica_request_t *request, mica_errobj_t **eo)
{
    (void)eo;                         /* no request error to blame on a communicator */
    if (request->kind != MICA_REQ_GREQ)
        return mica_error(MPI_ERR_REQUEST, "request is not a generalized request");
    mica_request_complete(request);
    return MPI_SUCCESS;
}

/* --- MPI_Request_get_status_{any,all,some}: test without completing ------------------------ */

/* The status of a done request, as MPI_Request_get_status gives it (no release). */
static void peek_status(mica_request_t *r, MPI_Status *status)
{
    if (r->kind == MICA_REQ_GREQ)
        grequest_query(r);
    mica_status_give(status, &r->status);
}

int mica_request_get_status_any(int count, const MPI_Request array_of_requests[], int *indx,
                                int *flag, MPI_Status *status, mica_errobj_t **eo)
{
    (void)eo;                         /* no request error to blame on a communicator */
    WITH_REQUESTS(count, array_of_requests, rs)
    int i = poll_any(count, rs, indx, flag, status);
    if (i >= 0)
        peek_status(rs[i], status);
    END_REQUESTS(rs)
}

int mica_request_get_status_all(int count, const MPI_Request array_of_requests[], int *flag,
                                MPI_Status array_of_statuses[], mica_errobj_t **eo)
{
    (void)eo;                         /* no request error to blame on a communicator */
    WITH_REQUESTS(count, array_of_requests, rs)
    if (!all_done(count, rs))
        mica_progress();
    *flag = all_done(count, rs);
    for (int i = 0; *flag && array_of_statuses != MPI_STATUSES_IGNORE && i < count; i++) {
        if (rs[i])
            peek_status(rs[i], &array_of_statuses[i]);
        else
            array_of_statuses[i] = empty_status;
    }
    END_REQUESTS(rs)
}

int mica_request_get_status_some(int incount, const MPI_Request array_of_requests[], int *outcount,
                                 int array_of_indices[], MPI_Status array_of_statuses[], mica_errobj_t **eo)
{
    (void)eo;                         /* no request error to blame on a communicator */
    WITH_REQUESTS(incount, array_of_requests, rs)
    if (!some_done(incount, rs))
        mica_progress();
    int n = 0, active = 0;
    for (int i = 0; i < incount; i++) {
        if (!rs[i])
            continue;
        active = 1;
        if (!mica_request_done(rs[i]))
            continue;
        if (array_of_statuses != MPI_STATUSES_IGNORE)
            peek_status(rs[i], &array_of_statuses[n]);
        array_of_indices[n++] = i;
    }
    *outcount = active ? n : MPI_UNDEFINED;
    END_REQUESTS(rs)
}
