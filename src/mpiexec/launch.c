/* Creating the ranks. Each rank gets: its own stdout/stderr pipes (so its
 * output can be forwarded by lines), a PMI connection (a socketpair end
 * passed as PMI_FD, or PMI_PORT/PMI_ID with --pmi-port), stdin from us
 * (rank 0) or /dev/null, and membership in the job's process group, whose
 * leader is rank 0, so that one killpg() reaches every process of the job
 * including anything the ranks started. */
#include "mpiexec.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

/* Like execvp's search, so an unknown program is reported once, before
 * anything starts. 0 if found. */
int mica_launch_find_program(const char *prog)
{
    struct stat st;
    if (strchr(prog, '/'))
        return access(prog, X_OK) == 0 && stat(prog, &st) == 0 && !S_ISDIR(st.st_mode) ? 0 : -1;
    const char *path = getenv("PATH");
    if (!path)
        path = "/bin:/usr/bin";
    size_t plen = strlen(prog);
    for (const char *p = path;; ) {
        const char *e = strchr(p, ':');
        size_t dlen = e ? (size_t)(e - p) : strlen(p);
        char buf[4096];
        if (dlen + plen + 2 <= sizeof buf) {
            if (dlen == 0) {  /* empty entry: the current directory */
                memcpy(buf, prog, plen + 1);
            } else {
                memcpy(buf, p, dlen);
                buf[dlen] = '/';
                memcpy(buf + dlen + 1, prog, plen + 1);
            }
            if (access(buf, X_OK) == 0 && stat(buf, &st) == 0 && !S_ISDIR(st.st_mode))
                return 0;
        }
        if (!e)
            return -1;
        p = e + 1;
    }
}

static void child_fail(const char *what)
{
    /* stderr is already the rank's pipe: the message is forwarded. */
    fprintf(stderr, "mpiexec: %s: %s\n", what, strerror(errno));
    _exit(127);
}

/* In the child, between fork and exec. Single-threaded parent, so setenv
 * and stdio are safe here. */
static void child(mica_job_t *job, int r, pid_t parent, int in_fd, int out_fd,
                  int err_fd, int pmi_fd)
{
    setpgid(0, r == 0 ? 0 : job->pgid);
#ifdef __linux__
    /* If mpiexec is killed outright, its ranks must not run on. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(127);
#else
    (void)parent;
#endif
    /* Our handlers must not run here (they would write to mpiexec's
     * self-pipe), and exec keeps ignored dispositions: give the program
     * defaults, except what mpiexec leaves ignored (SIGHUP under nohup). */
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGCHLD };
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction old;
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
            signal(sigs[i], SIG_DFL);
    }
    signal(SIGPIPE, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);

    if (in_fd < 0 && (in_fd = open("/dev/null", O_RDONLY)) < 0)
        child_fail("/dev/null");
    if (dup2(in_fd, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(err_fd, 2) < 0)
        _exit(127);

    char num[32];
    unsetenv("PMI_FD");
    unsetenv("PMI_PORT");
    unsetenv("PMI_ID");
    unsetenv("PMI_RANK");
    unsetenv("PMI_SIZE");
    if (job->pmi_port) {
        setenv("PMI_PORT", job->port_str, 1);
        snprintf(num, sizeof num, "%d", r);
        setenv("PMI_ID", num, 1);
    } else {
        /* Created close-on-exec like every job fd; this one is inherited. */
        if (fcntl(pmi_fd, F_SETFD, 0) < 0)
            child_fail("PMI socket");
        snprintf(num, sizeof num, "%d", pmi_fd);
        setenv("PMI_FD", num, 1);
        snprintf(num, sizeof num, "%d", r);
        setenv("PMI_RANK", num, 1);
        snprintf(num, sizeof num, "%d", job->n);
        setenv("PMI_SIZE", num, 1);
    }
    /* Last: the lower limit may forbid opening more descriptors. */
    if (job->nofile_raised)
        setrlimit(RLIMIT_NOFILE, &job->nofile);
    execvp(job->argv[0], job->argv);
    child_fail(job->argv[0]);
}

static int open_pipe(int p[2])
{
    if (pipe2(p, O_CLOEXEC))
        return -1;
    /* Our end never blocks the event loop. */
    fcntl(p[0], F_SETFL, fcntl(p[0], F_GETFL) | O_NONBLOCK);
    return 0;
}

static void close_fds(int *fds, int n)
{
    for (int i = 0; i < n; i++)
        if (fds[i] >= 0)
            close(fds[i]);
}

static int launch_all(mica_job_t *job, pid_t parent);

/* Starts all ranks. On failure the ranks already started are left for the
 * caller to kill (they are in the job's process group). */
int mica_launch(mica_job_t *job)
{
    pid_t parent = getpid();
    /* Signals wait until each child has reset its handlers. */
    sigset_t block, saved;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGHUP);
    sigaddset(&block, SIGCHLD);
    sigprocmask(SIG_BLOCK, &block, &saved);
    int rc = launch_all(job, parent);
    sigprocmask(SIG_SETMASK, &saved, NULL);
    return rc;
}

static int launch_all(mica_job_t *job, pid_t parent)
{
    for (int r = 0; r < job->n; r++) {
        mica_rank_t *rk = &job->ranks[r];
        int out[2] = { -1, -1 }, err[2] = { -1, -1 }, in[2] = { -1, -1 };
        int sv[2] = { -1, -1 };
        if (open_pipe(out) || open_pipe(err) ||
            (!job->pmi_port && socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) ||
            (r == 0 && job->stdin_fd >= 0 && pipe2(in, O_CLOEXEC))) {
            fprintf(stderr, "mpiexec: cannot create pipes for rank %d: %s\n", r,
                    strerror(errno));
            int all[] = { out[0], out[1], err[0], err[1], sv[0], sv[1], in[0], in[1] };
            close_fds(all, 8);
            return -1;
        }
        pid_t pid = fork();
        if (pid < 0) {
            fprintf(stderr, "mpiexec: cannot start rank %d: %s\n", r, strerror(errno));
            int all[] = { out[0], out[1], err[0], err[1], sv[0], sv[1], in[0], in[1] };
            close_fds(all, 8);
            return -1;
        }
        if (pid == 0)
            child(job, r, parent, in[0], out[1], err[1], sv[1]);

        /* Both sides set the group, so it holds whichever runs first. */
        if (r == 0)
            job->pgid = pid;
        setpgid(pid, job->pgid);
        rk->pid = pid;
        rk->out = (mica_stream_t){ .fd = out[0], .dest = 0, .rank = r };
        rk->err = (mica_stream_t){ .fd = err[0], .dest = 1, .rank = r };
        int mine[] = { out[1], err[1], sv[1], in[0] };
        close_fds(mine, 4);
        if (!job->pmi_port) {
            rk->conn = mica_pmiserv_conn_new(job, sv[0], r);
            if (!rk->conn) {
                close(sv[0]);
                fprintf(stderr, "mpiexec: out of memory\n");
                return -1;
            }
        }
        if (in[1] >= 0) {
            fcntl(in[1], F_SETFL, fcntl(in[1], F_GETFL) | O_NONBLOCK);
            job->stdin_pipe = in[1];
        }
    }
    return 0;
}
