/* Forwarding the ranks' output, and our stdin to rank 0.
 *
 * mpiexec is the only writer of its stdout/stderr and writes whole lines,
 * so lines of different ranks never mix. An unfinished line is held until
 * its newline arrives, the stream ends, it grows past MICA_LINE_MAX, or it
 * has waited MICA_PARTIAL_WAIT (a prompt); such a partial line "owns" its
 * destination, and if another rank writes there first, a newline is put in
 * so lines still do not run together. */
#include "mpiexec.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MICA_LINE_MAX (64 * 1024)

static struct {
    int fd;
    int dead;                   /* write failed (closed pipe): drop output */
    const mica_stream_t *owner; /* stream whose unfinished line ends the output */
} mica_dest[2] = { { 1, 0, NULL }, { 2, 0, NULL } };

static int tag_lines;
static char *scratch;
static size_t scratch_cap;

void mica_iofwd_init(int tag_output)
{
    tag_lines = tag_output;
}

static void write_all(int d, const char *p, size_t n)
{
    while (n > 0 && !mica_dest[d].dead) {
        ssize_t k = write(mica_dest[d].fd, p, n);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN) {  /* someone made our output non-blocking */
                struct pollfd pfd = { .fd = mica_dest[d].fd, .events = POLLOUT };
                poll(&pfd, 1, 100);
                continue;
            }
            mica_dest[d].dead = 1;
            return;
        }
        p += k;
        n -= (size_t)k;
    }
}

static int scratch_reserve(size_t n)
{
    if (n <= scratch_cap)
        return 0;
    size_t cap = scratch_cap ? scratch_cap : 4096;
    while (cap < n)
        cap *= 2;
    char *p = realloc(scratch, cap);
    if (!p)
        return -1;
    scratch = p;
    scratch_cap = cap;
    return 0;
}

/* Forwards data[0..n) of stream s in one write; `complete` says whether it
 * ends with a newline. With tagging every line starts with "[rank] ". */
static void emit(mica_stream_t *s, const char *data, size_t n, int complete)
{
    int d = s->dest;
    char tag[32];
    int taglen = tag_lines ? snprintf(tag, sizeof tag, "[%d] ", s->rank) : 0;
    size_t lines = 1;
    if (tag_lines)
        for (size_t i = 0; i < n; i++)
            lines += data[i] == '\n';
    if (scratch_reserve(n + 1 + lines * (size_t)taglen)) {
        write_all(d, data, n);  /* out of memory: untagged is better than lost */
        return;
    }
    char *o = scratch;
    int continuing = mica_dest[d].owner == s;
    if (mica_dest[d].owner && !continuing)
        *o++ = '\n';  /* someone else's unfinished line */
    int at_line_start = !continuing;
    for (size_t i = 0; i < n; i++) {
        if (at_line_start && taglen) {
            memcpy(o, tag, (size_t)taglen);
            o += taglen;
        }
        *o++ = data[i];
        at_line_start = data[i] == '\n';
    }
    mica_dest[d].owner = complete ? NULL : s;
    write_all(d, scratch, (size_t)(o - scratch));
}

static void forward_lines(mica_stream_t *s)
{
    char *last = NULL;
    for (size_t i = s->len; i > 0; i--) {
        if (s->buf[i - 1] == '\n') {
            last = s->buf + i - 1;
            break;
        }
    }
    if (last) {
        size_t n = (size_t)(last - s->buf) + 1;
        emit(s, s->buf, n, 1);
        s->len -= n;
        memmove(s->buf, s->buf + n, s->len);
        s->since = 0;
    }
    if (s->len >= MICA_LINE_MAX)
        mica_iofwd_flush(s);
    else if (s->len && !s->since)
        s->since = mica_job_now();
}

void mica_iofwd_flush(mica_stream_t *s)
{
    if (s->len) {
        emit(s, s->buf, s->len, 0);
        s->len = 0;
    }
    s->since = 0;
}

void mica_iofwd_close(mica_stream_t *s)
{
    mica_iofwd_flush(s);
    if (s->fd >= 0)
        close(s->fd);
    s->fd = -1;
}

void mica_iofwd_read(mica_stream_t *s)
{
    /* Bounded so one chatty rank cannot starve the event loop. */
    for (int round = 0; round < 16 && s->fd >= 0; round++) {
        if (s->cap - s->len < 4096) {
            size_t cap = s->cap ? s->cap * 2 : 8192;
            char *p = realloc(s->buf, cap);
            if (!p) {
                mica_iofwd_flush(s);
                return;
            }
            s->buf = p;
            s->cap = cap;
        }
        ssize_t k = read(s->fd, s->buf + s->len, s->cap - s->len);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0 && errno == EAGAIN)
            break;
        if (k <= 0) {
            mica_iofwd_close(s);
            return;
        }
        s->len += (size_t)k;
        forward_lines(s);
        if ((size_t)k < 4096)
            break;
    }
}

void mica_iofwd_stdin_close(mica_job_t *job)
{
    if (job->stdin_pipe >= 0)
        close(job->stdin_pipe);
    job->stdin_pipe = -1;
    job->stdin_fd = -1;
    job->stdin_len = job->stdin_off = 0;
}

/* Our stdin is read only when the previous chunk went out, so a rank that
 * does not read its stdin holds us back instead of filling our memory. */
void mica_iofwd_stdin(mica_job_t *job, short rev_in, short rev_pipe)
{
    if (job->stdin_pipe < 0)
        return;
    if (job->stdin_len == 0 && rev_in) {
        ssize_t k = read(job->stdin_fd, job->stdin_buf, sizeof job->stdin_buf);
        if (k < 0 && (errno == EINTR || errno == EAGAIN))
            return;
        if (k <= 0) {
            mica_iofwd_stdin_close(job);  /* rank 0 sees EOF */
            return;
        }
        job->stdin_len = (size_t)k;
        job->stdin_off = 0;
        rev_pipe = POLLOUT;  /* try right away */
    }
    if (job->stdin_len && rev_pipe) {
        ssize_t k = write(job->stdin_pipe, job->stdin_buf + job->stdin_off,
                          job->stdin_len - job->stdin_off);
        if (k < 0 && (errno == EINTR || errno == EAGAIN))
            return;
        if (k < 0) {  /* rank 0 closed its stdin or ended */
            mica_iofwd_stdin_close(job);
            return;
        }
        job->stdin_off += (size_t)k;
        if (job->stdin_off == job->stdin_len)
            job->stdin_len = job->stdin_off = 0;
    }
}

/* mpiexec's own messages go through here so they start on a fresh line. */
void mica_iofwd_note(const char *text)
{
    size_t n = strlen(text);
    char *buf = malloc(n + 3);
    if (!buf) {
        write_all(1, text, n);
        return;
    }
    char *o = buf;
    if (mica_dest[1].owner)
        *o++ = '\n';
    memcpy(o, text, n);
    o += n;
    *o++ = '\n';
    mica_dest[1].owner = NULL;
    write_all(1, buf, (size_t)(o - buf));
    free(buf);
}
