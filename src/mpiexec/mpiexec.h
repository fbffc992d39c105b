/* mpiexec internals: the job and its ranks, shared by the launcher's files.
 *
 * main.c      options, start, exit status
 * launch.c    creating the ranks (fork/exec, process group, fds, env)
 * job.c       the single-threaded poll() loop: signals, rank exits,
 *             failure handling, kill escalation, timeout
 * pmiserv.c   PMI-1 server (one connection per rank)
 * kvs.c       the job's key-value store
 * iofwd.c     stdout/stderr forwarding by whole lines, stdin to rank 0
 * shmclean.c  removing /dev/shm objects named for the job (the ranks make none
 *             today: their segments are memfds; a last line of defence)
 */
#ifndef MICA_MPIEXEC_H
#define MICA_MPIEXEC_H

#include <stddef.h>
#include <sys/resource.h>
#include <sys/types.h>

/* A rank's output stream (stdout or stderr) on its way to ours. */
typedef struct mica_stream {
    int fd;             /* read end of the rank's pipe, -1 at EOF */
    int dest;           /* 0: our stdout, 1: our stderr */
    int rank;
    char *buf;          /* bytes not yet forwarded (an unfinished line) */
    size_t len, cap;
    double since;       /* when buf started holding an unfinished line */
} mica_stream_t;

/* A PMI connection. Bound to a rank from the start (PMI_FD) or after the
 * initack handshake (PMI_PORT). */
typedef struct mica_conn {
    int fd;             /* -1 once closed */
    int rank;           /* -1 until bound */
    int in_mcmd;        /* inside a multi-line mcmd=spawn request */
    char *buf;
    size_t len, cap;
} mica_conn_t;

typedef struct mica_rank {
    pid_t pid;
    mica_conn_t *conn;
    mica_stream_t out, err;
    int inited;         /* sent cmd=init: it is an MPI process */
    int finalized;      /* sent cmd=finalize */
    int in_barrier;
    int exited;         /* its exit was observed */
} mica_rank_t;

typedef struct mica_kvs mica_kvs_t;

typedef struct mica_job {
    int n;
    char **argv;
    mica_rank_t *ranks;
    pid_t pgid;                 /* the job's process group (rank 0's pid) */
    char kvsname[64];           /* also the jobid: already [A-Za-z0-9_] */
    int tag_output;
    int pmi_port;               /* serve PMI over TCP instead of PMI_FD */
    int listen_fd;
    int nclaimed;               /* ranks that have claimed their PMI connection (--pmi-port) */
    char port_str[64];          /* host:port for PMI_PORT */
    mica_conn_t **conns;        /* every live or unbound connection */
    int nconns, capconns;
    mica_kvs_t *kvs;
    int barrier_count;
    int nexited;

    int stdin_fd;               /* our stdin while forwarding, else -1 */
    int stdin_pipe;             /* write end to rank 0's stdin, or -1 */
    char stdin_buf[65536];
    size_t stdin_len, stdin_off;

    double timeout;             /* seconds, 0: none */
    double deadline;            /* absolute time the timeout strikes */
    int failed;                 /* a failure was reported; the job is ending */
    int exit_code;
    int killing;                /* SIGTERM sent, SIGKILL pending */
    int signalled;              /* mpiexec itself got INT/TERM/HUP */
    double kill_at;
    int sigpipe[2];             /* self-pipe from the signal handlers */
    int nofile_raised;          /* we raised RLIMIT_NOFILE; ranks get nofile */
    struct rlimit nofile;
} mica_job_t;

/* job.c */
double mica_job_now(void);
int mica_job_run(mica_job_t *job);
void mica_job_fail(mica_job_t *job, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void mica_job_kill(mica_job_t *job, int sig);

/* launch.c */
int mica_launch(mica_job_t *job);
int mica_launch_find_program(const char *prog);

/* pmiserv.c */
int mica_pmiserv_listen(mica_job_t *job);
void mica_pmiserv_accept(mica_job_t *job);
mica_conn_t *mica_pmiserv_conn_new(mica_job_t *job, int fd, int rank);
void mica_pmiserv_input(mica_job_t *job, mica_conn_t *c);
void mica_pmiserv_conn_close(mica_job_t *job, mica_conn_t *c);

/* kvs.c */
mica_kvs_t *mica_kvs_new(void);
int mica_kvs_put(mica_kvs_t *kvs, const char *key, const char *val);
const char *mica_kvs_get(const mica_kvs_t *kvs, const char *key);
void mica_kvs_free(mica_kvs_t *kvs);

/* iofwd.c */
void mica_iofwd_init(int tag_output);
void mica_iofwd_read(mica_stream_t *s);          /* read what is there */
void mica_iofwd_flush(mica_stream_t *s);         /* forward an unfinished line */
void mica_iofwd_close(mica_stream_t *s);         /* flush and close */
void mica_iofwd_stdin(mica_job_t *job, short revents_in, short revents_pipe);
void mica_iofwd_stdin_close(mica_job_t *job);
void mica_iofwd_note(const char *text);          /* a line of our own, to stderr */

/* shmclean.c */
void mica_shmclean_job(const char *jobid);

#endif
