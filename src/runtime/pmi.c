/* PMI-1 ("simple PMI") client behind boot.h.
 *
 * Wire protocol: newline-terminated lines of space-separated key=value
 * tokens, first token cmd=<name>; strict request/response lock-step.
 *   cmd=init pmi_version=1 pmi_subversion=1 -> cmd=response_to_init rc=0 ...
 *   cmd=get_maxes          -> cmd=maxes kvsname_max= keylen_max= vallen_max=
 *   cmd=get_my_kvsname     -> cmd=my_kvsname kvsname=
 *   cmd=get_appnum         -> cmd=appnum appnum=
 *   cmd=get_universe_size  -> cmd=universe_size size=
 *   cmd=put kvsname= key= value=   -> cmd=put_result rc=
 *   cmd=barrier_in         -> cmd=barrier_out
 *   cmd=get kvsname= key=  -> cmd=get_result rc= value=
 *   cmd=finalize           -> cmd=finalize_ack
 *   cmd=abort exitcode= message=   (no response; the job is killed)
 * PMI_PORT connections start with cmd=initack pmiid=<id>; the server
 * answers cmd=initack and then (Hydra 4.0) three lines cmd=set size=,
 * cmd=set rank=, cmd=set debug=, or (later MPICH) puts rank=/size= into
 * the initack line itself. Both forms are accepted.
 */
#include "boot.h"
#include "pmi_wire.h"

#include <errno.h>
#include <poll.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>


typedef struct mica_local_kv {
    struct mica_local_kv *next;
    char *key, *val;
} mica_local_kv_t;

static struct {
    int initialized;
    int fd;              /* -1: singleton */
    int mica_pm;         /* the server is Mica's mpiexec (it reports aborts) */
    int rank;
    char kvsname[256];
    int kvsname_max, keylen_max, vallen_max;
    mica_boot_t info;
    char *rbuf;          /* received bytes not yet consumed as lines */
    size_t rlen, rcap;
    mica_local_kv_t *local;  /* singleton key-value table */
    int timeout;         /* seconds a request may wait for its answer (0: for ever) */
    int in_fence;        /* waiting at a fence: the others may take their time */
} mica_pmi = { .fd = -1, .rank = -1 };

void mica_boot_set_timeout(int seconds)
{
    mica_pmi.timeout = seconds;
}

static void mica_pmi_err(const char *fmt, ...)
{
    va_list ap;
    if (mica_pmi.rank >= 0)
        fprintf(stderr, "mica: bootstrap (rank %d): ", mica_pmi.rank);
    else                              /* before the process manager told it */
        fprintf(stderr, "mica: bootstrap (rank unknown, pid %ld): ", (long)getpid());
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* ---- line I/O ---------------------------------------------------------- */

static int mica_pmi_send(const char *buf, size_t len)
{
    while (len > 0) {
        /* MSG_NOSIGNAL: a dead launcher must give an error, not SIGPIPE. */
        ssize_t k = send(mica_pmi.fd, buf, len, MSG_NOSIGNAL);
        if (k < 0 && errno == ENOTSOCK)
            k = write(mica_pmi.fd, buf, len);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            mica_pmi_err("write to process manager failed: %s", strerror(errno));
            return -1;
        }
        buf += k;
        len -= (size_t)k;
    }
    return 0;
}

static int mica_pmi_sendf(const char *fmt, ...)
{
    char stack[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(stack, sizeof stack, fmt, ap);
    va_end(ap);
    if (n < 0)
        return -1;
    if ((size_t)n < sizeof stack)
        return mica_pmi_send(stack, (size_t)n);
    char *big = malloc((size_t)n + 1);
    if (!big) {
        mica_pmi_err("out of memory");
        return -1;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    int rc = mica_pmi_send(big, (size_t)n);
    free(big);
    return rc;
}

/* Returns one received line (without '\n') in a buffer valid until the
 * next call; the server may send several lines in one segment. */
static char *mica_pmi_readline(void)
{
    static char *line;
    static size_t linecap;
    for (;;) {
        char *nl = mica_pmi.rlen ? memchr(mica_pmi.rbuf, '\n', mica_pmi.rlen) : NULL;
        if (nl) {
            size_t n = (size_t)(nl - mica_pmi.rbuf);
            if (n + 1 > linecap) {
                char *p = realloc(line, n + 1);
                if (!p) {
                    mica_pmi_err("out of memory");
                    return NULL;
                }
                line = p;
                linecap = n + 1;
            }
            memcpy(line, mica_pmi.rbuf, n);
            line[n] = '\0';
            mica_pmi.rlen -= n + 1;
            memmove(mica_pmi.rbuf, nl + 1, mica_pmi.rlen);
            return line;
        }
        if (mica_pmi.rcap - mica_pmi.rlen < 512) {
            size_t cap = mica_pmi.rcap ? mica_pmi.rcap * 2 : 4096;
            char *p = realloc(mica_pmi.rbuf, cap);
            if (!p) {
                mica_pmi_err("out of memory");
                return NULL;
            }
            mica_pmi.rbuf = p;
            mica_pmi.rcap = cap;
        }
        if (mica_pmi.timeout > 0 && !mica_pmi.in_fence) {   /* a silent server ends us */
            struct pollfd pfd = {.fd = mica_pmi.fd, .events = POLLIN};
            int ready = poll(&pfd, 1, mica_pmi.timeout * 1000);
            if (ready < 0 && errno == EINTR)
                continue;
            if (ready == 0) {
                mica_pmi_err("the process manager did not answer within %d s (MICA_PMI_TIMEOUT)",
                             mica_pmi.timeout);
                return NULL;
            }
        }
        ssize_t k = read(mica_pmi.fd, mica_pmi.rbuf + mica_pmi.rlen,
                         mica_pmi.rcap - mica_pmi.rlen);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            mica_pmi_err("lost connection to the process manager%s%s",
                         k < 0 ? ": " : "", k < 0 ? strerror(errno) : "");
            return NULL;
        }
        mica_pmi.rlen += (size_t)k;
    }
}

/* Reads the response to the request just sent; it must be cmd=<expect>.
 * A non-zero rc is returned through *rc (0 if absent). */
static int mica_pmi_expect(const char *expect, mica_pmi_msg_t *m, int *rc)
{
    char *line = mica_pmi_readline();
    if (!line)
        return -1;
    mica_pmi_parse(line, m);
    const char *cmd = mica_pmi_find(m, "cmd");
    if (!cmd || strcmp(cmd, expect) != 0) {
        mica_pmi_err("protocol error: expected cmd=%s, got \"%s\"", expect,
                     cmd ? cmd : "(no cmd)");
        return -1;
    }
    const char *r = mica_pmi_find(m, "rc");
    *rc = r ? atoi(r) : 0;
    return 0;
}

static int mica_pmi_int(const mica_pmi_msg_t *m, const char *key, int *out)
{
    const char *v = mica_pmi_find(m, key);
    if (!v || !*v)
        return -1;
    char *end;
    long x = strtol(v, &end, 10);
    if (*end)
        return -1;
    *out = (int)x;
    return 0;
}

/* One request/response round trip returning an integer field. */
static int mica_pmi_query_int(const char *req, const char *resp, const char *key,
                              int *out)
{
    mica_pmi_msg_t m;
    int rc;
    if (mica_pmi_sendf("cmd=%s\n", req) || mica_pmi_expect(resp, &m, &rc))
        return -1;
    if (rc != 0 || mica_pmi_int(&m, key, out)) {
        mica_pmi_err("cmd=%s failed (rc=%d)", req, rc);
        return -1;
    }
    return 0;
}

/* ---- connection set-up ------------------------------------------------ */

static int mica_pmi_env_int(const char *name, int *out)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return -1;
    char *end;
    long x = strtol(s, &end, 10);
    if (*end || x < 0 || x > 0x7fffffff)
        return -1;
    *out = (int)x;
    return 0;
}

static int mica_pmi_connect(const char *hostport)
{
    char host[256];
    const char *colon = strrchr(hostport, ':');
    if (!colon || colon == hostport || (size_t)(colon - hostport) >= sizeof host) {
        mica_pmi_err("PMI_PORT=\"%s\" is not host:port", hostport);
        return -1;
    }
    memcpy(host, hostport, (size_t)(colon - hostport));
    host[colon - hostport] = '\0';

    struct addrinfo hints = { 0 }, *res = NULL;
    hints.ai_socktype = SOCK_STREAM;
    int e = getaddrinfo(host, colon + 1, &hints, &res);
    if (e) {
        mica_pmi_err("cannot resolve PMI_PORT host \"%s\": %s", host, gai_strerror(e));
        return -1;
    }
    int fd = -1, err = 0;
    for (struct addrinfo *a = res; a; a = a->ai_next) {
        fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
        if (fd < 0) {
            err = errno;
            continue;
        }
        int r;
        do
            r = connect(fd, a->ai_addr, a->ai_addrlen);
        while (r < 0 && errno == EINTR);
        if (r == 0)
            break;
        err = errno;
        close(fd);
        fd = -1;
    }
    freeaddrinfo(res);
    if (fd < 0) {
        mica_pmi_err("cannot connect to process manager at %s: %s", hostport,
                     strerror(err));
        return -1;
    }
    /* Requests are small and latency-bound. */
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

/* PMI_PORT handshake: the server maps our id to rank and size. */
static int mica_pmi_initack(int id, int *rank, int *size)
{
    mica_pmi_msg_t m;
    int rc;
    if (mica_pmi_sendf("cmd=initack pmiid=%d\n", id) || mica_pmi_expect("initack", &m, &rc))
        return -1;
    if (rc != 0) {
        mica_pmi_err("process manager refused pmiid %d (rc=%d)", id, rc);
        return -1;
    }
    int have_rank = !mica_pmi_int(&m, "rank", rank);
    int have_size = !mica_pmi_int(&m, "size", size);
    if (have_rank && have_size)
        return 0;
    /* Older servers: cmd=set size=, cmd=set rank=, cmd=set debug=. */
    int seen_debug = 0;
    while (!(have_rank && have_size && seen_debug)) {
        if (mica_pmi_expect("set", &m, &rc))
            return -1;
        if (!mica_pmi_int(&m, "rank", rank))
            have_rank = 1;
        else if (!mica_pmi_int(&m, "size", size))
            have_size = 1;
        else if (mica_pmi_find(&m, "debug"))
            seen_debug = 1;
    }
    return 0;
}

/* jobid: the kvsname reduced to [A-Za-z0-9_-]; long names are shortened
 * with a hash so that distinct jobs keep distinct ids. */
static void mica_pmi_make_jobid(const char *kvsname, char out[64])
{
    size_t n = strlen(kvsname);
    size_t keep = n <= 40 ? n : 31;
    size_t i;
    for (i = 0; i < keep; i++) {
        char c = kvsname[i];
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                 (c >= '0' && c <= '9') || c == '_' || c == '-';
        out[i] = ok ? c : '_';
    }
    if (keep < n) {
        unsigned h = 2166136261u;  /* FNV-1a */
        for (size_t j = 0; j < n; j++)
            h = (h ^ (unsigned char)kvsname[j]) * 16777619u;
        snprintf(out + i, 64 - i, "_%08x", h);
    } else {
        out[i] = '\0';
    }
}

static int mica_pmi_init_server(mica_boot_t *b)
{
    const char *fdstr = getenv("PMI_FD");
    const char *port = getenv("PMI_PORT");
    int rank = -1, size = -1;

    if (fdstr && *fdstr) {
        char *end;
        long fd = strtol(fdstr, &end, 10);
        if (*end || fd < 0) {
            mica_pmi_err("PMI_FD=\"%s\" is not a file descriptor", fdstr);
            return -1;
        }
        mica_pmi.fd = (int)fd;
        if (mica_pmi_env_int("PMI_RANK", &rank) || mica_pmi_env_int("PMI_SIZE", &size)) {
            mica_pmi_err("PMI_FD is set but PMI_RANK/PMI_SIZE are missing or invalid");
            return -1;
        }
        mica_pmi.rank = rank;
    } else {
        int id;
        if (mica_pmi_env_int("PMI_ID", &id) && mica_pmi_env_int("PMI_RANK", &id)) {
            mica_pmi_err("PMI_PORT is set but neither PMI_ID nor PMI_RANK is");
            return -1;
        }
        mica_pmi.fd = mica_pmi_connect(port);
        if (mica_pmi.fd < 0)
            return -1;
        if (mica_pmi_initack(id, &rank, &size))
            return -1;
        mica_pmi.rank = rank;
    }
    if (size < 1 || rank < 0 || rank >= size) {
        mica_pmi_err("invalid rank %d / size %d from the process manager", rank, size);
        return -1;
    }

    mica_pmi_msg_t m;
    int rc;
    if (mica_pmi_sendf("cmd=init pmi_version=1 pmi_subversion=1\n") ||
        mica_pmi_expect("response_to_init", &m, &rc))
        return -1;
    if (rc != 0) {
        mica_pmi_err("process manager refused PMI version 1.1 (rc=%d)", rc);
        return -1;
    }
    const char *pm = mica_pmi_find(&m, "pm");
    mica_pmi.mica_pm = pm && strcmp(pm, "mica") == 0;

    if (mica_pmi_sendf("cmd=get_maxes\n") || mica_pmi_expect("maxes", &m, &rc))
        return -1;
    if (rc != 0 || mica_pmi_int(&m, "kvsname_max", &mica_pmi.kvsname_max) ||
        mica_pmi_int(&m, "keylen_max", &mica_pmi.keylen_max) ||
        mica_pmi_int(&m, "vallen_max", &mica_pmi.vallen_max)) {
        mica_pmi_err("bad cmd=maxes response");
        return -1;
    }

    if (mica_pmi_sendf("cmd=get_my_kvsname\n") || mica_pmi_expect("my_kvsname", &m, &rc))
        return -1;
    const char *kvs = mica_pmi_find(&m, "kvsname");
    if (rc != 0 || !kvs || !*kvs || strlen(kvs) >= sizeof mica_pmi.kvsname) {
        mica_pmi_err("bad cmd=my_kvsname response");
        return -1;
    }
    strcpy(mica_pmi.kvsname, kvs);

    int appnum = 0, usize = 0;
    if (mica_pmi_query_int("get_appnum", "appnum", "appnum", &appnum) ||
        mica_pmi_query_int("get_universe_size", "universe_size", "size", &usize))
        return -1;

    b->rank = rank;
    b->size = size;
    b->appnum = appnum;
    b->universe_size = usize >= size ? usize : size;  /* Hydra says -1 */
    mica_pmi_make_jobid(mica_pmi.kvsname, b->jobid);
    /* Limits include the terminating NUL; our key carries a "<rank>:" prefix. */
    b->key_max = mica_pmi.keylen_max - 1 - 12;
    b->val_max = mica_pmi.vallen_max - 1;
    b->singleton = 0;
    if (b->key_max < 1 || b->val_max < 1) {
        mica_pmi_err("process manager limits too small (keylen_max=%d vallen_max=%d)",
                     mica_pmi.keylen_max, mica_pmi.vallen_max);
        return -1;
    }
    return 0;
}

int mica_boot_init(mica_boot_t *b)
{
    if (mica_pmi.initialized) {
        *b = mica_pmi.info;
        return 0;
    }
    memset(b, 0, sizeof *b);
    const char *fdstr = getenv("PMI_FD");
    const char *port = getenv("PMI_PORT");
    if ((fdstr && *fdstr) || (port && *port)) {
        if (mica_pmi_init_server(b)) {
            if (mica_pmi.fd >= 0 && !(fdstr && *fdstr))
                close(mica_pmi.fd);
            mica_pmi.fd = -1;
            return -1;
        }
    } else {
        /* Singleton. The random part keeps a reused pid from meeting a
         * crashed predecessor's /dev/shm objects. */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        unsigned r = (unsigned)ts.tv_nsec ^ ((unsigned)ts.tv_sec << 20) ^ (unsigned)getpid();
        b->rank = 0;
        b->size = 1;
        b->appnum = 0;
        b->universe_size = 1;
        snprintf(b->jobid, sizeof b->jobid, "s%ld_%06x", (long)getpid(), r & 0xffffffu);
        b->key_max = 256 - 1 - 12;  /* as under our mpiexec */
        b->val_max = 4095;
        b->singleton = 1;
        mica_pmi.rank = 0;
    }
    mica_pmi.info = *b;
    mica_pmi.initialized = 1;
    return 0;
}

/* ---- key-value exchange ----------------------------------------------- */

/* Keys and values are single tokens on the wire: printable, no space, and
 * no backslash (newer MPICH servers treat it as an escape). */
static int mica_pmi_valid(const char *what, const char *s, int max)
{
    size_t n = strlen(s);
    if (n == 0 || n > (size_t)max) {
        mica_pmi_err("%s of length %zu (must be 1..%d)", what, n, max);
        return -1;
    }
    for (const char *p = s; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c < 0x21 || c > 0x7e || c == '\\') {
            mica_pmi_err("%s contains byte 0x%02x; hex-encode it", what, c);
            return -1;
        }
    }
    return 0;
}

static int mica_pmi_ready(const char *fn)
{
    if (mica_pmi.initialized)
        return 0;
    fprintf(stderr, "mica: bootstrap: %s called without a successful mica_boot_init\n", fn);
    return -1;
}

int mica_boot_put(const char *key, const char *val)
{
    if (mica_pmi_ready("mica_boot_put") ||
        mica_pmi_valid("key", key, mica_pmi.info.key_max) ||
        mica_pmi_valid("value", val, mica_pmi.info.val_max))
        return -1;

    if (mica_pmi.fd < 0) {
        for (mica_local_kv_t *e = mica_pmi.local; e; e = e->next) {
            if (strcmp(e->key, key) == 0) {
                char *v = strdup(val);
                if (!v)
                    goto oom;
                free(e->val);
                e->val = v;
                return 0;
            }
        }
        mica_local_kv_t *e = calloc(1, sizeof *e);
        if (!e || !(e->key = strdup(key)) || !(e->val = strdup(val))) {
            if (e)
                free(e->key);
            free(e);
            goto oom;
        }
        e->next = mica_pmi.local;
        mica_pmi.local = e;
        return 0;
    }

    mica_pmi_msg_t m;
    int rc;
    if (mica_pmi_sendf("cmd=put kvsname=%s key=%d:%s value=%s\n", mica_pmi.kvsname,
                       mica_pmi.info.rank, key, val) ||
        mica_pmi_expect("put_result", &m, &rc))
        return -1;
    if (rc != 0) {
        const char *msg = mica_pmi_find(&m, "msg");
        mica_pmi_err("put of key \"%s\" failed (rc=%d%s%s)", key, rc, msg ? ": " : "",
                     msg ? msg : "");
        return -1;
    }
    return 0;
oom:
    mica_pmi_err("out of memory");
    return -1;
}

int mica_boot_fence(void)
{
    if (mica_pmi_ready("mica_boot_fence"))
        return -1;
    if (mica_pmi.fd < 0)
        return 0;
    /* PMI-1 puts need no commit on the wire (PMI_KVS_Commit is local);
     * servers that cache puts flush them at the barrier. */
    mica_pmi_msg_t m;
    int rc;
    mica_pmi.in_fence = 1;
    int failed = mica_pmi_sendf("cmd=barrier_in\n") || mica_pmi_expect("barrier_out", &m, &rc);
    mica_pmi.in_fence = 0;
    if (failed)
        return -1;
    if (rc != 0) {
        mica_pmi_err("barrier failed (rc=%d)", rc);
        return -1;
    }
    return 0;
}

static int mica_pmi_copy_out(const char *key, const char *v, char *val, int len)
{
    size_t n = strlen(v);
    if (len < 1 || n >= (size_t)len) {
        mica_pmi_err("value of key \"%s\" has %zu bytes, buffer holds %d", key, n,
                     len > 0 ? len - 1 : 0);
        return -1;
    }
    memcpy(val, v, n + 1);
    return 0;
}

int mica_boot_get(int rank, const char *key, char *val, int len)
{
    if (mica_pmi_ready("mica_boot_get") ||
        mica_pmi_valid("key", key, mica_pmi.info.key_max))
        return -1;
    if (rank < 0 || rank >= mica_pmi.info.size) {
        mica_pmi_err("get of key \"%s\" from invalid rank %d", key, rank);
        return -1;
    }
    if (mica_pmi.fd < 0) {
        for (mica_local_kv_t *e = mica_pmi.local; e; e = e->next)
            if (strcmp(e->key, key) == 0)
                return mica_pmi_copy_out(key, e->val, val, len);
        return 1;
    }
    mica_pmi_msg_t m;
    int rc;
    if (mica_pmi_sendf("cmd=get kvsname=%s key=%d:%s\n", mica_pmi.kvsname, rank, key) ||
        mica_pmi_expect("get_result", &m, &rc))
        return -1;
    const char *found = mica_pmi_find(&m, "found");
    if (rc != 0 || (found && strcmp(found, "TRUE") != 0))
        return 1;
    const char *v = mica_pmi_find(&m, "value");
    if (!v) {
        mica_pmi_err("get of key \"%s\": response without value", key);
        return -1;
    }
    return mica_pmi_copy_out(key, v, val, len);
}

int mica_boot_alive(void)
{
    if (mica_pmi.fd < 0)
        return 1;
    struct pollfd p = {.fd = mica_pmi.fd, .events = POLLIN | POLLRDHUP};
    if (poll(&p, 1, 0) <= 0)
        return 1;
    if (p.revents & (POLLHUP | POLLRDHUP | POLLERR))
        return 0;
    char c;                           /* readable: data, or the end of the stream */
    return recv(mica_pmi.fd, &c, 1, MSG_PEEK | MSG_DONTWAIT) != 0;
}

/* ---- leaving ---------------------------------------------------------- */

_Noreturn void mica_boot_abort(int code, const char *msg)
{
    if (!msg)
        msg = "";
    if ((mica_pmi.fd < 0 || !mica_pmi.mica_pm) && mica_pmi.rank >= 0)
        fprintf(stderr, "mica: rank %d aborting job (code %d): %s\n", mica_pmi.rank,
                code, msg);
    else if (mica_pmi.fd < 0 || !mica_pmi.mica_pm)
        fprintf(stderr, "mica: rank unknown (pid %ld) aborting job (code %d): %s\n",
                (long)getpid(), code, msg);
    if (mica_pmi.fd >= 0) {
        /* The message travels as one token: escape what would split it. */
        char buf[1024];
        size_t n = (size_t)snprintf(buf, sizeof buf, "cmd=abort exitcode=%d message=", code);
        for (const char *p = msg; *p && n < sizeof buf - 4; p++) {
            unsigned char c = (unsigned char)*p;
            if (c == '\n' || c == '\r' || c == '\t')
                c = ' ';
            if (c == ' ' || c == '\\')
                buf[n++] = '\\';
            buf[n++] = (char)c;
        }
        if (!*msg)
            buf[n++] = '-';
        buf[n++] = '\n';
        mica_pmi_send(buf, n);
    }
    fflush(stderr);
    _exit(code);
}

int mica_boot_finalize(void)
{
    if (mica_pmi_ready("mica_boot_finalize"))
        return -1;
    int ret = 0;
    if (mica_pmi.fd >= 0) {
        mica_pmi_msg_t m;
        int rc;
        if (mica_pmi_sendf("cmd=finalize\n") || mica_pmi_expect("finalize_ack", &m, &rc))
            ret = -1;
        close(mica_pmi.fd);
        mica_pmi.fd = -1;
    }
    while (mica_pmi.local) {
        mica_local_kv_t *e = mica_pmi.local;
        mica_pmi.local = e->next;
        free(e->key);
        free(e->val);
        free(e);
    }
    free(mica_pmi.rbuf);
    mica_pmi.rbuf = NULL;
    mica_pmi.rlen = mica_pmi.rcap = 0;
    mica_pmi.initialized = 0;
    return ret;
}
