/* The job's life: one poll() loop serving PMI requests, forwarding output,
 * watching the ranks end, and stopping the job when one fails.
 *
 * A failure is reported once, by the first cause: a rank exiting non-zero,
 * killed by a signal, calling abort, or exiting 0 after PMI init without
 * finalize; the --timeout; or a signal to mpiexec. The other ranks then get
 * SIGTERM (or the signal mpiexec got) and, MICA_GRACE seconds later,
 * SIGKILL. When every rank has ended, the process group is killed once
 * more so nothing the ranks started survives them. */
#include "mpiexec.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#define MICA_GRACE 1.0          /* SIGTERM to SIGKILL */
#define MICA_PARTIAL_WAIT 0.2   /* an unfinished line is forwarded after this */
#define MICA_DRAIN_WAIT 0.5     /* output still arriving after the last rank ended */

static int signal_pipe_w = -1;

static void on_signal(int sig)
{
    int saved = errno;
    unsigned char b = (unsigned char)sig;
    if (write(signal_pipe_w, &b, 1) < 0) {
        /* full pipe: a signal of this kind is already pending */
    }
    errno = saved;
}

double mica_job_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void mica_job_kill(mica_job_t *job, int sig)
{
    if (job->pgid > 0)
        killpg(job->pgid, sig);
    /* Also by pid: a rank may have left the group. */
    for (int r = 0; r < job->n; r++)
        if (job->ranks[r].pid > 0 && !job->ranks[r].exited)
            kill(job->ranks[r].pid, sig);
}

static void stop_job(mica_job_t *job, int sig)
{
    mica_job_kill(job, sig);
    if (!job->killing) {
        job->killing = 1;
        job->kill_at = mica_job_now() + MICA_GRACE;
    }
}

void mica_job_fail(mica_job_t *job, int code, const char *fmt, ...)
{
    if (job->failed)
        return;  /* the first cause is the one worth reporting */
    job->failed = 1;
    job->exit_code = code;
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    mica_iofwd_note(msg);
    if (job->nexited < job->n)
        stop_job(job, SIGTERM);
}

/* "0-3 5 7-9": the ranks still running, for the timeout message. */
static void running_ranks(mica_job_t *job, char *out, size_t cap)
{
    size_t len = 0;
    out[0] = '\0';
    for (int r = 0; r < job->n && len + 32 < cap; r++) {
        if (job->ranks[r].exited)
            continue;
        int e = r;
        while (e + 1 < job->n && !job->ranks[e + 1].exited)
            e++;
        len += (size_t)snprintf(out + len, cap - len, e > r ? "%s%d-%d" : "%s%d",
                                len ? " " : "", r, e);
        r = e;
    }
}

static void on_rank_exit(mica_job_t *job, int r, const siginfo_t *si)
{
    mica_rank_t *rk = &job->ranks[r];
    rk->exited = 1;
    job->nexited++;
    /* What it said last comes first: a PMI abort or finalize sent just
     * before exiting, and its final output. */
    if (rk->conn)
        mica_pmiserv_input(job, rk->conn);
    mica_iofwd_read(&rk->out);
    mica_iofwd_read(&rk->err);
    if (r == 0)
        mica_iofwd_stdin_close(job);

    if (si->si_code == CLD_EXITED) {
        int st = si->si_status;
        if (st != 0)
            mica_job_fail(job, st, "mpiexec: rank %d (pid %d) exited with code %d", r,
                          (int)rk->pid, st);
        else if (rk->inited && !rk->finalized)
            mica_job_fail(job, 1,
                          "mpiexec: rank %d (pid %d) exited without calling MPI_Finalize", r,
                          (int)rk->pid);
    } else {
        int sig = si->si_status;
        mica_job_fail(job, 128 + sig, "mpiexec: rank %d (pid %d) was killed by signal %d (%s)%s",
                      r, (int)rk->pid, sig, strsignal(sig),
                      si->si_code == CLD_DUMPED ? ", core dumped" : "");
    }
}

/* Rank 0 leads the process group: it stays a zombie (WNOWAIT) until the
 * end so the group id cannot be reused while we may still signal it. */
static void reap(mica_job_t *job)
{
    for (int r = 0; r < job->n; r++) {
        mica_rank_t *rk = &job->ranks[r];
        if (rk->exited || rk->pid <= 0)
            continue;
        siginfo_t si;
        memset(&si, 0, sizeof si);
        int flags = WEXITED | WNOHANG | (r == 0 ? WNOWAIT : 0);
        if (waitid(P_PID, (id_t)rk->pid, &si, flags) == 0 && si.si_pid != 0)
            on_rank_exit(job, r, &si);
    }
}

/* At the end: collect rank 0 (the group leader, kept until now) and, as
 * subreaper, whatever the ranks started, so that no process of the job is
 * left when mpiexec returns, not even as a zombie. */
static void reap_all(mica_job_t *job)
{
    double until = mica_job_now() + MICA_DRAIN_WAIT;
    int leader_gone = job->pgid <= 0;
    for (;;) {
        pid_t p;
        while ((p = waitpid(-1, NULL, WNOHANG)) > 0)
            leader_gone |= p == job->pgid;
        if (p < 0 && errno == ECHILD)
            return;
        if (mica_job_now() >= until)
            return;  /* something escaped the process group; not ours to wait for */
        if (!leader_gone)  /* a late fork in the group */
            killpg(job->pgid, SIGKILL);
        struct timespec ts = { 0, 2000000 };
        nanosleep(&ts, NULL);
    }
}

static void on_user_signal(mica_job_t *job, int sig)
{
    if (job->signalled) {  /* asked twice: no more grace */
        mica_job_kill(job, SIGKILL);
        return;
    }
    job->signalled = 1;
    if (!job->failed) {
        char msg[256];
        snprintf(msg, sizeof msg, "mpiexec: received signal %d (%s); terminating the job",
                 sig, strsignal(sig));
        job->failed = 1;
        job->exit_code = 128 + sig;
        mica_iofwd_note(msg);
    }
    /* The ranks get the signal mpiexec got, as if they were in the
     * foreground themselves. */
    stop_job(job, sig);
}

static void install_signals(mica_job_t *job)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
    signal_pipe_w = job->sigpipe[1];
    sigaction(SIGCHLD, &sa, NULL);
    static const int user[] = { SIGINT, SIGTERM, SIGHUP };
    for (size_t i = 0; i < sizeof user / sizeof user[0]; i++) {
        struct sigaction old;
        /* SIGHUP ignored at start (nohup): keep it so. SIGINT is caught
         * even if ignored: shells ignore it in background jobs, where
         * `kill -INT` must still stop the job. */
        if (user[i] == SIGHUP && sigaction(user[i], NULL, &old) == 0 &&
            old.sa_handler == SIG_IGN)
            continue;
        sigaction(user[i], &sa, NULL);
    }
    signal(SIGPIPE, SIG_IGN);
}

static void read_signals(mica_job_t *job)
{
    unsigned char buf[64];
    ssize_t k;
    int chld = 0;
    while ((k = read(job->sigpipe[0], buf, sizeof buf)) > 0) {
        for (ssize_t i = 0; i < k; i++) {
            if (buf[i] == SIGCHLD)
                chld = 1;
            else
                on_user_signal(job, buf[i]);
        }
    }
    if (chld)
        reap(job);
}

/* What a pollfd entry stands for. */
enum { MICA_PFD_SIG, MICA_PFD_LISTEN, MICA_PFD_CONN, MICA_PFD_STREAM, MICA_PFD_STDIN,
       MICA_PFD_STDIN_PIPE };

typedef struct {
    struct pollfd *pfd;
    int *kind;
    void **ptr;
    int n, cap;
} mica_pollset_t;

static int pollset_add(mica_pollset_t *ps, int fd, short ev, int kind, void *ptr)
{
    if (ps->n == ps->cap) {
        int cap = ps->cap ? ps->cap * 2 : 64;
        struct pollfd *p = realloc(ps->pfd, (size_t)cap * sizeof *p);
        if (!p)
            return -1;
        ps->pfd = p;
        int *k = realloc(ps->kind, (size_t)cap * sizeof *k);
        if (!k)
            return -1;
        ps->kind = k;
        void **q = realloc(ps->ptr, (size_t)cap * sizeof *q);
        if (!q)
            return -1;
        ps->ptr = q;
        ps->cap = cap;
    }
    ps->pfd[ps->n] = (struct pollfd){ .fd = fd, .events = ev };
    ps->kind[ps->n] = kind;
    ps->ptr[ps->n] = ptr;
    ps->n++;
    return 0;
}

static double min_of(double a, double b)
{
    return a < b ? a : b;
}

static int streams_open(mica_job_t *job)
{
    for (int r = 0; r < job->n; r++)
        if (job->ranks[r].out.fd >= 0 || job->ranks[r].err.fd >= 0)
            return 1;
    return 0;
}

int mica_job_run(mica_job_t *job)
{
    if (pipe2(job->sigpipe, O_CLOEXEC | O_NONBLOCK)) {
        perror("mpiexec: pipe");
        return 1;
    }
    install_signals(job);
#ifdef PR_SET_CHILD_SUBREAPER
    /* Orphans of the ranks become our children, so we can reap them. */
    prctl(PR_SET_CHILD_SUBREAPER, 1);
#endif
    if (job->timeout > 0)
        job->deadline = mica_job_now() + job->timeout;
    if (mica_launch(job)) {
        mica_job_fail(job, 1, "mpiexec: could not start the job");
        /* Ranks never started count as ended. */
        for (int r = 0; r < job->n; r++)
            if (job->ranks[r].pid <= 0) {
                job->ranks[r].exited = 1;
                job->nexited++;
            }
    }

    mica_pollset_t ps = { 0 };
    double drain_until = 0;
    for (;;) {
        double now = mica_job_now();
        if (job->nexited == job->n) {
            if (!drain_until) {
                /* Every rank is gone; so must be whatever they started. */
                if (job->pgid > 0)
                    killpg(job->pgid, SIGKILL);
                drain_until = now + MICA_DRAIN_WAIT;
            }
            if (!streams_open(job) || now >= drain_until)
                break;
        }
        if (job->timeout > 0 && !job->failed && now >= job->deadline) {
            char list[1024];
            running_ranks(job, list, sizeof list);
            mica_job_fail(job, 124, "mpiexec: timeout: the job ran longer than %g s; "
                          "ranks still running: %s", job->timeout, list);
        }
        if (job->killing == 1 && now >= job->kill_at) {
            mica_job_kill(job, SIGKILL);
            job->killing = 2;
        }

        double wake = drain_until ? drain_until : 1e300;
        if (job->timeout > 0 && !job->failed)
            wake = min_of(wake, job->deadline);
        if (job->killing == 1)
            wake = min_of(wake, job->kill_at);

        ps.n = 0;
        int bad = pollset_add(&ps, job->sigpipe[0], POLLIN, MICA_PFD_SIG, NULL);
        if (job->listen_fd >= 0)
            bad |= pollset_add(&ps, job->listen_fd, POLLIN, MICA_PFD_LISTEN, NULL);
        for (int i = 0; i < job->nconns; i++)
            if (job->conns[i]->fd >= 0)
                bad |= pollset_add(&ps, job->conns[i]->fd, POLLIN, MICA_PFD_CONN,
                                   job->conns[i]);
        for (int r = 0; r < job->n; r++) {
            mica_stream_t *ss[2] = { &job->ranks[r].out, &job->ranks[r].err };
            for (int j = 0; j < 2; j++) {
                if (ss[j]->fd < 0)
                    continue;
                bad |= pollset_add(&ps, ss[j]->fd, POLLIN, MICA_PFD_STREAM, ss[j]);
                if (ss[j]->len && ss[j]->since)
                    wake = min_of(wake, ss[j]->since + MICA_PARTIAL_WAIT);
            }
        }
        if (job->stdin_pipe >= 0) {
            if (job->stdin_len == 0)
                bad |= pollset_add(&ps, job->stdin_fd, POLLIN, MICA_PFD_STDIN, NULL);
            else
                bad |= pollset_add(&ps, job->stdin_pipe, POLLOUT, MICA_PFD_STDIN_PIPE,
                                   NULL);
        }
        if (bad) {
            mica_job_fail(job, 1, "mpiexec: out of memory");
            mica_job_kill(job, SIGKILL);
            break;
        }

        int ms = -1;
        if (wake < 1e300) {
            double d = (wake - now) * 1000.0 + 1.0;
            ms = d <= 0 ? 0 : d > 1e9 ? 1000000000 : (int)d;
        }
        int np = poll(ps.pfd, (nfds_t)ps.n, ms);
        if (np < 0 && errno != EINTR) {
            perror("mpiexec: poll");
            mica_job_kill(job, SIGKILL);
            break;
        }
        for (int i = 0; np > 0 && i < ps.n; i++) {
            short re = ps.pfd[i].revents;
            if (!re)
                continue;
            switch (ps.kind[i]) {
            case MICA_PFD_SIG:
                read_signals(job);
                break;
            case MICA_PFD_LISTEN:
                mica_pmiserv_accept(job);
                break;
            case MICA_PFD_CONN:
                mica_pmiserv_input(job, ps.ptr[i]);
                break;
            case MICA_PFD_STREAM:
                /* May have been closed by a reap earlier in this pass. */
                if (((mica_stream_t *)ps.ptr[i])->fd == ps.pfd[i].fd)
                    mica_iofwd_read(ps.ptr[i]);
                break;
            case MICA_PFD_STDIN:
                mica_iofwd_stdin(job, re, 0);
                break;
            case MICA_PFD_STDIN_PIPE:
                mica_iofwd_stdin(job, 0, re);
                break;
            }
        }
        now = mica_job_now();
        for (int r = 0; r < job->n; r++) {
            mica_stream_t *ss[2] = { &job->ranks[r].out, &job->ranks[r].err };
            for (int j = 0; j < 2; j++)
                if (ss[j]->len && ss[j]->since && now >= ss[j]->since + MICA_PARTIAL_WAIT)
                    mica_iofwd_flush(ss[j]);
        }
    }

    for (int r = 0; r < job->n; r++) {
        mica_iofwd_close(&job->ranks[r].out);
        mica_iofwd_close(&job->ranks[r].err);
    }
    mica_iofwd_stdin_close(job);
    reap_all(job);
    free(ps.pfd);
    free(ps.kind);
    free(ps.ptr);
    return job->exit_code;
}
