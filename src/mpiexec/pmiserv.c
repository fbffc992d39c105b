/* PMI-1 server: answers the ranks' bootstrap requests (see
 * src/runtime/pmi.c for the wire protocol). Requests are handled as they
 * arrive, from the poll loop; only the barrier makes a rank wait, and it
 * completes when every rank of the job has entered it. */
#include "mpiexec.h"
#include "../runtime/pmi_wire.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define MICA_KVSNAME_MAX 256
#define MICA_KEYLEN_MAX 256
#define MICA_VALLEN_MAX 4096
#define MICA_REQ_MAX (MICA_VALLEN_MAX + MICA_KEYLEN_MAX + MICA_KVSNAME_MAX + 1024)


mica_conn_t *mica_pmiserv_conn_new(mica_job_t *job, int fd, int rank)
{
    if (job->nconns == job->capconns) {
        int cap = job->capconns ? job->capconns * 2 : 64;
        mica_conn_t **p = realloc(job->conns, (size_t)cap * sizeof *p);
        if (!p)
            return NULL;
        job->conns = p;
        job->capconns = cap;
    }
    mica_conn_t *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->fd = fd;
    c->rank = rank;
    job->conns[job->nconns++] = c;
    return c;
}

void mica_pmiserv_conn_close(mica_job_t *job, mica_conn_t *c)
{
    (void)job;
    if (c->fd >= 0)
        close(c->fd);
    c->fd = -1;
}

static void reply(mica_job_t *job, mica_conn_t *c, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void reply(mica_job_t *job, mica_conn_t *c, const char *fmt, ...)
{
    char buf[MICA_VALLEN_MAX + 256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof buf)
        return;
    const char *p = buf;
    size_t len = (size_t)n;
    while (len > 0 && c->fd >= 0) {
        /* Blocking send: responses are short and the client, in lock-step,
         * is waiting to read them. */
        ssize_t k = send(c->fd, p, len, MSG_NOSIGNAL);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            mica_pmiserv_conn_close(job, c);  /* the rank is gone; its exit tells why */
            return;
        }
        p += k;
        len -= (size_t)k;
    }
}


static void barrier_check(mica_job_t *job)
{
    if (job->barrier_count < job->n)
        return;
    job->barrier_count = 0;
    for (int i = 0; i < job->n; i++) {
        mica_rank_t *rk = &job->ranks[i];
        if (rk->in_barrier && rk->conn)
            reply(job, rk->conn, "cmd=barrier_out rc=0\n");
        rk->in_barrier = 0;
    }
}

/* cmd=initack pmiid=<id>: binds a TCP connection to its rank. */
static void initack(mica_job_t *job, mica_conn_t *c, const mica_pmi_msg_t *r)
{
    const char *id = mica_pmi_find(r, "pmiid");
    int rank = id ? atoi(id) : -1;
    if (c->rank >= 0 || rank < 0 || rank >= job->n || job->ranks[rank].conn) {
        reply(job, c, "cmd=initack rc=-1\n");
        mica_pmiserv_conn_close(job, c);
        return;
    }
    c->rank = rank;
    job->ranks[rank].conn = c;
    if (++job->nclaimed == job->n && job->listen_fd >= 0) {
        close(job->listen_fd);        /* every rank is in: nobody else may connect */
        job->listen_fd = -1;
    }
    /* The Hydra-style answer: initack, then size, rank and debug. */
    reply(job, c, "cmd=initack rc=0\ncmd=set size=%d\ncmd=set rank=%d\ncmd=set debug=0\n",
          job->n, rank);
}

static void serve_request(mica_job_t *job, mica_conn_t *c, char *line)
{
    if (c->in_mcmd) {  /* multi-line spawn: unsupported, answered at its end */
        if (strcmp(line, "endcmd") == 0) {
            c->in_mcmd = 0;
            reply(job, c, "cmd=spawn_result rc=-1 msg=spawn_not_supported\n");
        }
        return;
    }
    if (strncmp(line, "mcmd=", 5) == 0) {
        c->in_mcmd = 1;
        return;
    }
    mica_pmi_msg_t r;
    mica_pmi_parse(line, &r);
    const char *cmd = mica_pmi_find(&r, "cmd");
    if (!cmd) {
        if (r.n == 0)
            return;  /* blank line */
        cmd = "";
    }
    if (strcmp(cmd, "initack") == 0) {
        initack(job, c, &r);
        return;
    }
    if (c->rank < 0) {                /* not a rank of ours: dropped, the job goes on */
        fprintf(stderr, "mpiexec: dropped a PMI connection that sent cmd=%s before cmd=initack\n",
                cmd);
        mica_pmiserv_conn_close(job, c);
        return;
    }
    mica_rank_t *rk = &job->ranks[c->rank];

    if (strcmp(cmd, "init") == 0) {
        const char *v = mica_pmi_find(&r, "pmi_version");
        rk->inited = 1;
        /* Only version 1 is spoken; PMI-2 clients get a clean refusal.
         * pm=mica tells our client that we report its aborts. */
        reply(job, c, "cmd=response_to_init rc=%d pmi_version=1 pmi_subversion=1 pm=mica\n",
              v && atoi(v) == 1 ? 0 : -1);
    } else if (strcmp(cmd, "get_maxes") == 0) {
        reply(job, c, "cmd=maxes rc=0 kvsname_max=%d keylen_max=%d vallen_max=%d\n",
              MICA_KVSNAME_MAX, MICA_KEYLEN_MAX, MICA_VALLEN_MAX);
    } else if (strcmp(cmd, "get_my_kvsname") == 0) {
        reply(job, c, "cmd=my_kvsname rc=0 kvsname=%s\n", job->kvsname);
    } else if (strcmp(cmd, "get_appnum") == 0) {
        reply(job, c, "cmd=appnum rc=0 appnum=0\n");
    } else if (strcmp(cmd, "get_universe_size") == 0) {
        reply(job, c, "cmd=universe_size rc=0 size=%d\n", job->n);
    } else if (strcmp(cmd, "put") == 0) {
        const char *kvs = mica_pmi_find(&r, "kvsname"), *key = mica_pmi_find(&r, "key");
        const char *val = mica_pmi_find(&r, "value");
        if (!kvs || strcmp(kvs, job->kvsname) != 0)
            reply(job, c, "cmd=put_result rc=-1 msg=unknown_kvsname\n");
        else if (!key || !*key || !val || strlen(key) >= MICA_KEYLEN_MAX ||
                 strlen(val) >= MICA_VALLEN_MAX)
            reply(job, c, "cmd=put_result rc=-1 msg=invalid_key_or_value\n");
        else if (mica_kvs_put(job->kvs, key, val))
            reply(job, c, "cmd=put_result rc=-1 msg=out_of_memory\n");
        else
            reply(job, c, "cmd=put_result rc=0 msg=success\n");
    } else if (strcmp(cmd, "get") == 0) {
        const char *kvs = mica_pmi_find(&r, "kvsname"), *key = mica_pmi_find(&r, "key");
        const char *val = key ? mica_kvs_get(job->kvs, key) : NULL;
        if (!kvs || strcmp(kvs, job->kvsname) != 0)
            reply(job, c, "cmd=get_result rc=-1 msg=unknown_kvsname\n");
        else if (!val)
            reply(job, c, "cmd=get_result rc=-1 found=FALSE msg=key_not_found\n");
        else
            reply(job, c, "cmd=get_result rc=0 found=TRUE value=%s\n", val);
    } else if (strcmp(cmd, "barrier_in") == 0) {
        if (!rk->in_barrier) {
            rk->in_barrier = 1;
            job->barrier_count++;
        }
        barrier_check(job);
    } else if (strcmp(cmd, "finalize") == 0) {
        rk->finalized = 1;
        reply(job, c, "cmd=finalize_ack rc=0\n");
    } else if (strcmp(cmd, "abort") == 0) {
        const char *code = mica_pmi_find(&r, "exitcode"), *msg = mica_pmi_find(&r, "message");
        int ec = code ? atoi(code) : 1;
        /* The job fails even if the code is 0: an abort is not a success. */
        int status = ec & 0xff ? ec & 0xff : 1;
        if (msg && *msg && strcmp(msg, "-") != 0)
            mica_job_fail(job, status, "mpiexec: rank %d called abort with code %d: %s",
                          c->rank, ec, msg);
        else
            mica_job_fail(job, status, "mpiexec: rank %d called abort with code %d", c->rank,
                          ec);
    } else if (strcmp(cmd, "publish_name") == 0) {
        reply(job, c, "cmd=publish_result rc=-1 msg=not_supported\n");
    } else if (strcmp(cmd, "unpublish_name") == 0) {
        reply(job, c, "cmd=unpublish_result rc=-1 msg=not_supported\n");
    } else if (strcmp(cmd, "lookup_name") == 0) {
        reply(job, c, "cmd=lookup_result rc=-1 msg=not_supported\n");
    } else {
        /* Unanswered, the rank would hang; say what happened instead. */
        mica_job_fail(job, 1, "mpiexec: rank %d sent an unsupported PMI request: cmd=%s",
                      c->rank, cmd);
    }
}

/* Reads what the connection has and handles every complete request. */
void mica_pmiserv_input(mica_job_t *job, mica_conn_t *c)
{
    for (;;) {
        if (c->fd < 0)
            return;
        if (c->cap - c->len < 1024) {
            size_t cap = c->cap ? c->cap * 2 : 4096;
            char *p = cap <= 4 * MICA_REQ_MAX ? realloc(c->buf, cap) : NULL;
            if (!p) {
                mica_job_fail(job, 1, "mpiexec: rank %d: PMI request too long", c->rank);
                mica_pmiserv_conn_close(job, c);
                return;
            }
            c->buf = p;
            c->cap = cap;
        }
        ssize_t k = recv(c->fd, c->buf + c->len, c->cap - c->len, MSG_DONTWAIT);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (k <= 0) {  /* closed: finalize, exit or death, judged at its exit */
            mica_pmiserv_conn_close(job, c);
            return;
        }
        c->len += (size_t)k;
        size_t start = 0;
        char *nl;
        while (c->fd >= 0 && (nl = memchr(c->buf + start, '\n', c->len - start)) != NULL) {
            *nl = '\0';
            serve_request(job, c, c->buf + start);
            start = (size_t)(nl - c->buf) + 1;
        }
        c->len -= start;
        memmove(c->buf, c->buf + start, c->len);
    }
}

/* --pmi-port: a TCP listener on loopback, as Hydra's -pmi-port offers. */
int mica_pmiserv_listen(mica_job_t *job)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0)
        return -1;
    struct sockaddr_in a = { .sin_family = AF_INET };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (bind(fd, (struct sockaddr *)&a, sizeof a) || listen(fd, 1024) ||
        getsockname(fd, (struct sockaddr *)&a, &len)) {
        close(fd);
        return -1;
    }
    job->listen_fd = fd;
    snprintf(job->port_str, sizeof job->port_str, "127.0.0.1:%d", ntohs(a.sin_port));
    return 0;
}

/* The user that owns the other end of a loopback TCP connection `fd`: the kernel's table of
 * TCP sockets (/proc/net/tcp) lists the peer's socket, local address its port, remote address
 * ours, with its owner. -1 if it cannot be told. */
static long peer_uid(int fd)
{
    struct sockaddr_in peer, self;
    socklen_t plen = sizeof peer, slen = sizeof self;
    if (getpeername(fd, (struct sockaddr *)&peer, &plen) ||
        getsockname(fd, (struct sockaddr *)&self, &slen) || peer.sin_family != AF_INET)
        return -1;
    FILE *f = fopen("/proc/net/tcp", "r");
    if (!f)
        return -1;
    char line[512];
    long uid = -1;
    unsigned lport, rport;
    unsigned long u;
    while (uid < 0 && fgets(line, sizeof line, f))
        if (sscanf(line, " %*d: %*x:%x %*x:%x %*x %*x:%*x %*x:%*x %*x %lu", &lport, &rport,
                   &u) == 3 && lport == ntohs(peer.sin_port) && rport == ntohs(self.sin_port))
            uid = (long)u;
    fclose(f);
    return uid;
}

/* A connection is served only if it comes from a process of the job's user: another local user
 * may not claim a rank, read the job's data or stop it (the ranks' pmiid is no secret). */
void mica_pmiserv_accept(mica_job_t *job)
{
    for (;;) {
        int fd = accept4(job->listen_fd, NULL, NULL, SOCK_CLOEXEC);
        if (fd < 0)
            return;  /* EAGAIN: all taken */
        long uid = peer_uid(fd);
        if (uid != (long)geteuid()) {
            fprintf(stderr, "mpiexec: refused a PMI connection from %s (not the job's user)\n",
                    uid < 0 ? "an unknown user" : "another user");
            close(fd);
            continue;
        }
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        if (!mica_pmiserv_conn_new(job, fd, -1))
            close(fd);
    }
}
