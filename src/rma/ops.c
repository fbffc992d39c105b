/* RMA communication: the origin's side (put, get, accumulates) and the target's (applying
 * what arrives, from the progress engine). See rma.h for the protocol. */
#include <stdlib.h>
#include <string.h>

#include "core/errors.h"
#include "core/progress.h"
#include "core/request.h"
#include "pt2pt/engine.h"
#include "pt2pt/pt2pt.h"
#include "rma/rma.h"
#include "core_api.h"

mica_rma_win_t *mica_rma_windows;

/* --- the target ------------------------------------------------------------------------------- */

/* Keep a reply's request until it has left; its buffer goes with it (scratch) if `owned`,
 * else it is the window's memory. */
static void send_reply_from(mica_rma_win_t *win, int origin, void *buf, MPI_Count bytes,
                            int owned)
{
    mica_request_t *r = NULL;
    if (mica_pt2pt_isend(buf, bytes, &mica_type_MPI_BYTE, origin, MICA_RMA_TAG_REPLY, win->comm,
                         MICA_CTX_PT2PT, MICA_SEND_STANDARD, &r) != MPI_SUCCESS) {
        if (owned)
            free(buf);                /* out of memory: the origin is left waiting */
        return;
    }
    r->scratch = owned ? buf : NULL;
    if (win->nreplies == win->capreplies) {
        int cap = win->capreplies ? 2 * win->capreplies : 8;
        mica_request_t **p = realloc(win->replies, cap * sizeof *p);
        if (!p) {
            mica_request_wait(r, NULL);
            return;
        }
        win->replies = p;
        win->capreplies = cap;
    }
    win->replies[win->nreplies++] = r;
}

static int reap_replies(mica_rma_win_t *win)
{
    int moved = 0, n = 0;
    for (int i = 0; i < win->nreplies; i++) {
        mica_request_t *r = win->replies[i];
        if (mica_request_done(r)) {
            mica_request_release(r);
            moved = 1;
        } else {
            win->replies[n++] = r;
        }
    }
    win->nreplies = n;
    return moved;
}

void mica_rma_drain(mica_rma_win_t *win)
{
    MICA_WAIT_UNTIL((reap_replies(win), win->nreplies == 0));
}

static void send_reply(mica_rma_win_t *win, int origin, void *buf, MPI_Count bytes)
{
    send_reply_from(win, origin, buf, bytes, 1);
}

static void grant(mica_rma_win_t *win, int origin, int type, int reply)
{
    if (type == MPI_LOCK_EXCLUSIVE)
        win->excl_holder = origin;
    else
        win->shared_holders++;
    win->pending[origin] = 0;
    if (win->deferred[origin])
        win->replay = 1;
    if (reply)
        send_reply(win, origin, NULL, 0);
}

static int grantable(mica_rma_win_t *win, int type)
{
    return win->excl_holder < 0 && (type == MPI_LOCK_SHARED || win->shared_holders == 0);
}

static void lock_request(mica_rma_win_t *win, int origin, int type, int reply)
{
    if (win->nwaiters == 0 && grantable(win, type)) {
        grant(win, origin, type, reply);
        return;
    }
    win->pending[origin] = 1;         /* out of memory below: the origin is left waiting */
    if (win->nwaiters == win->capwaiters) {
        int cap = win->capwaiters ? 2 * win->capwaiters : 8;
        mica_rma_waiter_t *p = realloc(win->waiters, cap * sizeof *p);
        if (!p)
            return;
        win->waiters = p;
        win->capwaiters = cap;
    }
    win->waiters[win->nwaiters++] = (mica_rma_waiter_t){origin, type, reply};
}

static void unlock_request(mica_rma_win_t *win, int origin)
{
    if (win->excl_holder == origin)
        win->excl_holder = -1;
    else if (win->shared_holders > 0)
        win->shared_holders--;
    send_reply(win, origin, NULL, 0);
    int n = 0;                        /* grant the waiters in order, as far as they fit */
    while (n < win->nwaiters && grantable(win, win->waiters[n].type)) {
        grant(win, win->waiters[n].rank, win->waiters[n].type, win->waiters[n].reply);
        n++;
    }
    if (n)                            /* waiters is NULL until a lock had to wait */
        memmove(win->waiters, win->waiters + n, (win->nwaiters - n) * sizeof *win->waiters);
    win->nwaiters -= n;
}

/* Apply one data operation to the window's memory; the old contents go to `old` if wanted. */
static void apply(mica_rma_win_t *win, const mica_rma_hdr_t *h, const mica_block_t *blocks,
                  const char *data, char *old)
{
    char *at = (char *)win->base + h->disp * win->disp_unit;
    mica_op_t *op = h->op ? (mica_op_t *)mica_predefined[h->op] : NULL;
    mica_type_t *basic = h->basic ? (mica_type_t *)mica_predefined[h->basic] : NULL;
    MPI_Count pos = 0;
    for (MPI_Count i = 0; i < h->count; i++) {
        for (int64_t b = 0; b < h->nblocks; b++) {
            char *p = at + i * h->extent + blocks[b].offset;
            MPI_Aint len = blocks[b].length;
            if (old)
                memcpy(old + pos, p, len);
            switch (h->kind) {
            case MICA_RMA_PUT:
                memcpy(p, data + pos, len);
                break;
            case MICA_RMA_ACC:
            case MICA_RMA_GET_ACC:
                mica_op_apply(op, data + pos, p, len / basic->size, basic);
                break;
            case MICA_RMA_CAS:        /* data: the new value, then the compare value */
                if (!memcmp(p, data + len, len))
                    memcpy(p, data, len);
                break;
            }
            pos += len;
        }
    }
}

static void handle(mica_rma_win_t *win, int origin, const char *msg)
{
    const mica_rma_hdr_t *h = (const mica_rma_hdr_t *)msg;
    const mica_block_t *blocks = (const mica_block_t *)(h + 1);
    const char *data = (const char *)(blocks + h->nblocks);
    switch (h->kind) {
    case MICA_RMA_LOCK:
        lock_request(win, origin, h->lock_type, h->op);
        return;
    case MICA_RMA_UNLOCK:
        unlock_request(win, origin);
        return;
    case MICA_RMA_FLUSH:
        send_reply(win, origin, NULL, 0);
        return;
    case MICA_RMA_COMPLETE:
        win->completes++;
        return;
    }
    MPI_Count bytes = 0;              /* the target region's data */
    for (int64_t b = 0; b < h->nblocks; b++)
        bytes += blocks[b].length;
    bytes *= h->count;
    /* A get of one contiguous region is answered from the window itself: no copy. */
    if (h->kind == MICA_RMA_GET && h->nblocks == 1 &&
        (h->count == 1 || h->extent == blocks[0].length)) {
        char *at = (char *)win->base + h->disp * win->disp_unit + blocks[0].offset;
        send_reply_from(win, origin, at, bytes, 0);
        return;
    }
    char *old = NULL;
    if (h->kind == MICA_RMA_GET || h->kind == MICA_RMA_GET_ACC || h->kind == MICA_RMA_CAS) {
        old = malloc(bytes ? bytes : 1);
        if (!old)
            return;                   /* out of memory: the origin is left waiting */
    }
    if (h->kind != MICA_RMA_GET)
        apply(win, h, blocks, data, old);
    else
        apply(win, h, blocks, NULL, old);
    if (old)
        send_reply(win, origin, old, bytes);
}

/* Handle the messages kept for origins whose locks were granted since, in order, as far as
 * each origin's next lock allows. */
static void replay(mica_rma_win_t *win)
{
    while (win->replay) {
        win->replay = 0;
        for (int o = 0; o < win->comm->size; o++)
            while (win->deferred[o] && !win->pending[o]) {
                mica_rma_deferred_t *d = win->deferred[o];
                if (!(win->deferred[o] = d->next))
                    win->deferred_tail[o] = NULL;
                handle(win, o, d->msg);
                free(d->msg);
                free(d);
            }
    }
}

/* Keep a message of an origin whose lock waits (or which has messages kept already). */
static int defer(mica_rma_win_t *win, int origin, char *msg)
{
    mica_rma_deferred_t *d = malloc(sizeof *d);
    if (!d)
        return 0;
    d->next = NULL;
    d->msg = msg;
    if (win->deferred_tail[origin])
        win->deferred_tail[origin]->next = d;
    else
        win->deferred[origin] = d;
    win->deferred_tail[origin] = d;
    return 1;
}

static int serve(mica_rma_win_t *win)
{
    int moved = reap_replies(win);
    MPI_Status s;
    while (mica_pt2pt_probe(win->comm->context, MPI_ANY_SOURCE, MICA_RMA_TAG_REQ, &s)) {
        MPI_Count bytes = mica_status_count(&s);
        char *msg = malloc(bytes);
        mica_request_t *r = msg ? mica_request_new(MICA_REQ_RECV) : NULL;
        if (!r) {                     /* out of memory: try again at the next poll */
            free(msg);
            return moved;
        }
        void *m = mica_pt2pt_mprobe(win->comm->context, s.MPI_SOURCE, MICA_RMA_TAG_REQ, &s);
        r->buf = msg;
        r->count = bytes;
        r->type = &mica_type_MPI_BYTE;
        r->bytes = bytes;
        mica_pt2pt_mrecv(r, m);
        mica_request_wait(r, NULL);
        int o = s.MPI_SOURCE;
        if (!((win->pending[o] || win->deferred[o]) && defer(win, o, msg))) {
            handle(win, o, msg);      /* (out of memory to keep it: handled now, unordered) */
            free(msg);
        }
        replay(win);
        moved = 1;
    }
    return moved;
}

int mica_rma_poll(void)
{
    static int busy;                  /* waits inside a handler poll too: no recursion */
    if (busy || !mica_rma_windows)
        return 0;
    busy = 1;
    int moved = 0;
    for (mica_rma_win_t *w = mica_rma_windows; w; w = w->next)
        moved |= serve(w);
    busy = 0;
    return moved;
}

/* --- the origin ------------------------------------------------------------------------------- */

int mica_rma_check_epoch(mica_rma_win_t *win, int target)
{
    if (win->lock_all || win->locked[target])
        return MPI_SUCCESS;
    if (win->fence) {
        win->fence_used = 1;
        return MPI_SUCCESS;
    }
    for (int i = 0; i < win->naccess; i++)
        if (win->access[i] == target)
            return MPI_SUCCESS;
    return mica_error(MPI_ERR_RMA_SYNC, "no access epoch is open to target_rank=%d: call "
                      "MPI_Win_fence, MPI_Win_lock, MPI_Win_lock_all or MPI_Win_start first",
                      target);
}

/* Send (hdr, the target type's blocks, data) to `target`; receive the reply into
 * (result, rcount, rtype) when result_type is not NULL. Under the big lock. */
static int transfer(mica_rma_win_t *win, int target, mica_rma_hdr_t *hdr, const mica_type_t *ttype,
                    const void *data, MPI_Count dcount, const mica_type_t *dtype,
                    const void *data2, void *result, MPI_Count rcount, mica_type_t *rtype)
{
    mica_block_t one = {0, ttype ? (MPI_Aint)ttype->size : 0};
    const mica_block_t *blocks = &one;
    hdr->nblocks = 0;
    if (ttype) {
        hdr->nblocks = ttype->contiguous ? 1 : ttype->nblocks;
        hdr->extent = ttype->extent;
        if (ttype->contiguous)
            one.offset = ttype->true_lb;
        else
            blocks = ttype->blocks;
    }
    MPI_Count dbytes = dtype ? dcount * dtype->size : 0;
    hdr->bytes = data2 ? 2 * dbytes : dbytes;
    MPI_Count total = sizeof *hdr + hdr->nblocks * sizeof *blocks + hdr->bytes;
    char *msg = malloc(total);
    if (!msg)
        return mica_error(MPI_ERR_NO_MEM, "no memory for an RMA operation");
    memcpy(msg, hdr, sizeof *hdr);
    memcpy(msg + sizeof *hdr, blocks, hdr->nblocks * sizeof *blocks);
    char *payload = msg + sizeof *hdr + hdr->nblocks * sizeof *blocks;
    if (dbytes)
        mica_type_pack(data, dcount, dtype, 0, payload, dbytes);
    if (data2 && dbytes)
        mica_type_pack(data2, dcount, dtype, 0, payload + dbytes, dbytes);
    mica_request_t *rreq = NULL, *sreq = NULL;
    int rc = MPI_SUCCESS;
    if (rtype)
        rc = mica_pt2pt_irecv(result, rcount, rtype, target, MICA_RMA_TAG_REPLY, win->comm,
                              MICA_CTX_PT2PT, &rreq);
    if (rc == MPI_SUCCESS)
        rc = mica_pt2pt_isend(msg, total, &mica_type_MPI_BYTE, target, MICA_RMA_TAG_REQ, win->comm,
                              MICA_CTX_PT2PT, MICA_SEND_STANDARD, &sreq);
    if (sreq)
        rc = mica_request_wait(sreq, NULL);
    free(msg);
    if (rreq) {
        int e = mica_request_wait(rreq, NULL);
        if (rc == MPI_SUCCESS)
            rc = e;
    }
    return rc;
}

int mica_rma_control(mica_rma_win_t *win, int target, int kind, int lock_type, int reply)
{
    mica_rma_hdr_t h = {.kind = kind, .lock_type = lock_type, .op = (uint32_t)reply};
    return transfer(win, target, &h, NULL, NULL, 0, NULL, NULL, NULL, 0,
                    reply ? &mica_type_MPI_BYTE : NULL);
}

/* Is the target region inside the target's window? */
static int check_range(mica_rma_win_t *win, int target, MPI_Aint disp, MPI_Count count,
                       const mica_type_t *type)
{
    if (win->flavor == MPI_WIN_FLAVOR_DYNAMIC || count == 0 || type->size == 0)
        return MPI_SUCCESS;
    MPI_Aint lo = disp * win->disp_units[target] + type->true_lb;
    MPI_Aint hi = disp * win->disp_units[target] + (count - 1) * type->extent + type->true_lb
                  + type->true_extent;
    if (lo < 0 || hi > win->sizes[target])
        return mica_error(MPI_ERR_RMA_RANGE, "target_disp=%ld with %lld elements reaches "
                          "bytes [%ld, %ld) outside the target's window of %ld bytes",
                          (long)disp, (long long)count, (long)lo, (long)hi,
                          (long)win->sizes[target]);
    return MPI_SUCCESS;
}

static int check_common(mica_rma_win_t *win, int target, MPI_Aint disp, MPI_Count tcount,
                        const mica_type_t *ttype)
{
    if (target < 0 || target >= win->comm->size)
        return mica_error(MPI_ERR_RANK, "target_rank=%d is not a rank of the window's group "
                          "(size %d)", target, win->comm->size);
    int rc = mica_pt2pt_check_type(ttype);
    if (rc == MPI_SUCCESS)
        rc = mica_rma_check_epoch(win, target);
    if (rc == MPI_SUCCESS)
        rc = check_range(win, target, disp, tcount, ttype);
    return rc;
}

static int check_sizes(MPI_Count ocount, const mica_type_t *otype, MPI_Count tcount,
                       const mica_type_t *ttype, const char *what)
{
    if (ocount * otype->size != tcount * ttype->size)
        return mica_error(MPI_ERR_TYPE, "%s has %lld bytes of data but the target region %lld",
                          what, (long long)(ocount * otype->size),
                          (long long)(tcount * ttype->size));
    return MPI_SUCCESS;
}

/* Accumulates: a predefined operation on target data made of one predefined type, which the
 * origin's data matches. */
static int check_acc(const mica_op_t *op, const mica_type_t *otype, const mica_type_t *ttype)
{
    if (!op->predefined)
        return mica_error(MPI_ERR_OP, "op: accumulate operations take predefined operations "
                          "only");
    if (!ttype->basic)
        return mica_error(MPI_ERR_TYPE, "target_datatype must be made of one predefined type "
                          "for an accumulate");
    if (otype && otype->size && otype->basic != ttype->basic)
        return mica_error(MPI_ERR_TYPE, "origin_datatype and target_datatype are made of "
                          "different predefined types");
    return mica_op_check(op, ttype->basic);
}

/* A put (the origin's data goes to the target) or a get (the target's data comes back). */
static int put_or_get(int kind, void *origin_addr, MPI_Count origin_count,
                      mica_type_t *origin_datatype, int target_rank, MPI_Aint target_disp,
                      MPI_Count target_count, mica_type_t *target_datatype, mica_win_t *w)
{
    mica_rma_win_t *win = mica_rma_win(w);
    if (target_rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    int rc = mica_pt2pt_check_type(origin_datatype);
    if (rc == MPI_SUCCESS)
        rc = check_common(win, target_rank, target_disp, target_count, target_datatype);
    if (rc == MPI_SUCCESS)
        rc = check_sizes(origin_count, origin_datatype, target_count, target_datatype,
                         "the origin buffer");
    if (rc != MPI_SUCCESS)
        return rc;
    mica_rma_hdr_t h = {.kind = kind, .disp = target_disp, .count = target_count};
    if (kind == MICA_RMA_PUT)
        rc = transfer(win, target_rank, &h, target_datatype, origin_addr, origin_count,
                      origin_datatype, NULL, NULL, 0, NULL);
    else
        rc = transfer(win, target_rank, &h, target_datatype, NULL, 0, NULL, NULL, origin_addr,
                      origin_count, origin_datatype);
    return rc;
}

static int put(const void *origin_addr, MPI_Count origin_count, mica_type_t *origin_datatype,
               int target_rank, MPI_Aint target_disp, MPI_Count target_count,
               mica_type_t *target_datatype, mica_win_t *w)
{
    return put_or_get(MICA_RMA_PUT, (void *)origin_addr, origin_count, origin_datatype, target_rank,
                      target_disp, target_count, target_datatype, w);
}

static int get(void *origin_addr, MPI_Count origin_count, mica_type_t *origin_datatype,
               int target_rank, MPI_Aint target_disp, MPI_Count target_count,
               mica_type_t *target_datatype, mica_win_t *w)
{
    return put_or_get(MICA_RMA_GET, origin_addr, origin_count, origin_datatype, target_rank,
                      target_disp, target_count, target_datatype, w);
}

/* Accumulate and get-accumulate; result_datatype NULL for the former. MPI_NO_OP sends no data. */
static int accumulate(const void *origin_addr, MPI_Count origin_count,
                      mica_type_t *origin_datatype, void *result_addr, MPI_Count result_count,
                      mica_type_t *result_datatype, int target_rank, MPI_Aint target_disp,
                      MPI_Count target_count, mica_type_t *target_datatype, mica_op_t *op,
                      mica_win_t *w)
{
    mica_rma_win_t *win = mica_rma_win(w);
    if (target_rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    int no_op = op->predefined == MICA_OP_NO_OP;
    int rc = no_op ? MPI_SUCCESS : mica_pt2pt_check_type(origin_datatype);
    if (rc == MPI_SUCCESS && result_datatype)
        rc = mica_pt2pt_check_type(result_datatype);
    if (rc == MPI_SUCCESS)
        rc = check_common(win, target_rank, target_disp, target_count, target_datatype);
    /* An empty target region (a zero count, or a type of no data) takes nothing and gives
     * nothing back: its types need not match, and there is nothing to send. */
    int empty = target_count * target_datatype->size == 0;
    if (rc == MPI_SUCCESS && empty && !op->predefined)
        rc = mica_error(MPI_ERR_OP, "op: accumulate operations take predefined operations "
                        "only");
    if (rc == MPI_SUCCESS && !empty)
        rc = check_acc(op, no_op ? NULL : origin_datatype, target_datatype);
    if (rc == MPI_SUCCESS && !no_op)
        rc = check_sizes(origin_count, origin_datatype, target_count, target_datatype,
                         "the origin buffer");
    if (rc == MPI_SUCCESS && result_datatype)
        rc = check_sizes(result_count, result_datatype, target_count, target_datatype,
                         "the result buffer");
    if (rc != MPI_SUCCESS || empty)
        return rc;
    mica_rma_hdr_t h = {.kind = result_datatype ? MICA_RMA_GET_ACC : MICA_RMA_ACC,
                        .disp = target_disp, .count = target_count,
                        .op = (uint32_t)op->obj.handle,
                        .basic = (uint32_t)target_datatype->basic->obj.handle};
    rc = transfer(win, target_rank, &h, target_datatype, origin_addr, no_op ? 0 : origin_count,
                  no_op ? NULL : origin_datatype, NULL, result_addr, result_count,
                  result_datatype);
    return rc;
}

int mica_put_c(const void *origin_addr, MPI_Count origin_count, mica_type_t *origin_datatype,
               int target_rank, MPI_Aint target_disp, MPI_Count target_count,
               mica_type_t *target_datatype, mica_win_t *win)
{
    return put(origin_addr, origin_count, origin_datatype, target_rank, target_disp,
               target_count, target_datatype, win);
}

int mica_get_c(void *origin_addr, MPI_Count origin_count, mica_type_t *origin_datatype,
               int target_rank, MPI_Aint target_disp, MPI_Count target_count,
               mica_type_t *target_datatype, mica_win_t *win)
{
    return get(origin_addr, origin_count, origin_datatype, target_rank, target_disp,
               target_count, target_datatype, win);
}

int mica_accumulate_c(const void *origin_addr, MPI_Count origin_count,
                      mica_type_t *origin_datatype, int target_rank, MPI_Aint target_disp,
                      MPI_Count target_count, mica_type_t *target_datatype, mica_op_t *op,
                      mica_win_t *win)
{
    return accumulate(origin_addr, origin_count, origin_datatype, NULL, 0, NULL, target_rank,
                      target_disp, target_count, target_datatype, op, win);
}

int mica_get_accumulate_c(const void *origin_addr, MPI_Count origin_count,
                          mica_type_t *origin_datatype, void *result_addr,
                          MPI_Count result_count, mica_type_t *result_datatype, int target_rank,
                          MPI_Aint target_disp, MPI_Count target_count,
                          mica_type_t *target_datatype, mica_op_t *op, mica_win_t *win)
{
    return accumulate(origin_addr, origin_count, origin_datatype, result_addr, result_count,
                      result_datatype, target_rank, target_disp, target_count, target_datatype,
                      op, win);
}

int mica_fetch_and_op(const void *origin_addr, void *result_addr, mica_type_t *datatype,
                      int target_rank, MPI_Aint target_disp, mica_op_t *op, mica_win_t *win)
{
    if (!mica_type_is_predefined(datatype))
        return mica_error(MPI_ERR_TYPE, "datatype must be a predefined datatype");
    return accumulate(origin_addr, 1, datatype, result_addr, 1, datatype, target_rank,
                      target_disp, 1, datatype, op, win);
}

int mica_compare_and_swap(const void *origin_addr, const void *compare_addr, void *result_addr,
                          mica_type_t *datatype, int target_rank, MPI_Aint target_disp,
                          mica_win_t *w)
{
    mica_rma_win_t *win = mica_rma_win(w);
    if (target_rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (!mica_type_is_predefined(datatype) || !datatype->basic)
        return mica_error(MPI_ERR_TYPE, "datatype must be a predefined datatype");
    int cat = datatype->category;     /* characters too, as small integers (docs/CHOICES.md) */
    if (cat != MICA_CAT_CINT && cat != MICA_CAT_FINT && cat != MICA_CAT_LOGICAL &&
        cat != MICA_CAT_BYTE && cat != MICA_CAT_MULTI && cat != MICA_CAT_CHAR)
        return mica_error(MPI_ERR_TYPE, "datatype must be an integer, logical, character or "
                          "byte type for MPI_Compare_and_swap");
    int rc = check_common(win, target_rank, target_disp, 1, datatype);
    if (rc != MPI_SUCCESS)
        return rc;
    mica_rma_hdr_t h = {.kind = MICA_RMA_CAS, .disp = target_disp, .count = 1};
    rc = transfer(win, target_rank, &h, datatype, origin_addr, 1, datatype, compare_addr,
                  result_addr, 1, datatype);
    return rc;
}

/* --- request-based operations: complete before they return (see rma.h) --------------------- */

static int done_request(int rc, MPI_Request *request)
{
    if (rc != MPI_SUCCESS)
        return rc;
    mica_request_t *r = mica_request_new(MICA_REQ_SEND);
    if (r) {
        r->status = (MPI_Status){.MPI_SOURCE = MPI_ANY_SOURCE, .MPI_TAG = MPI_ANY_TAG};
        mica_request_complete(r);
    }
    if (!r)
        return mica_error(MPI_ERR_NO_MEM, "no memory for a request");
    *request = (MPI_Request)r->obj.handle;
    return MPI_SUCCESS;
}

int mica_rput_c(const void *origin_addr, MPI_Count origin_count, mica_type_t *origin_datatype,
                int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                mica_type_t *target_datatype, mica_win_t *win, MPI_Request *request)
{
    return done_request(put(origin_addr, origin_count, origin_datatype, target_rank,
                            target_disp, target_count, target_datatype, win), request);
}

int mica_rget_c(void *origin_addr, MPI_Count origin_count, mica_type_t *origin_datatype,
                int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                mica_type_t *target_datatype, mica_win_t *win, MPI_Request *request)
{
    return done_request(get(origin_addr, origin_count, origin_datatype, target_rank,
                            target_disp, target_count, target_datatype, win), request);
}

int mica_raccumulate_c(const void *origin_addr, MPI_Count origin_count,
                       mica_type_t *origin_datatype, int target_rank, MPI_Aint target_disp,
                       MPI_Count target_count, mica_type_t *target_datatype, mica_op_t *op,
                       mica_win_t *win, MPI_Request *request)
{
    return done_request(accumulate(origin_addr, origin_count, origin_datatype, NULL, 0, NULL,
                                   target_rank, target_disp, target_count, target_datatype, op,
                                   win), request);
}

int mica_rget_accumulate_c(const void *origin_addr, MPI_Count origin_count,
                           mica_type_t *origin_datatype, void *result_addr,
                           MPI_Count result_count, mica_type_t *result_datatype,
                           int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                           mica_type_t *target_datatype, mica_op_t *op, mica_win_t *win,
                           MPI_Request *request)
{
    return done_request(accumulate(origin_addr, origin_count, origin_datatype, result_addr,
                                   result_count, result_datatype, target_rank, target_disp,
                                   target_count, target_datatype, op, win), request);
}
