/* mpiexec: starts N copies of a program on this host as one MPI job.
 * Exit status: 0 if every rank succeeded; else the failing rank's exit
 * code, 128+signal for a rank killed by a signal (or mpiexec interrupted),
 * the abort code for an abort, 124 for --timeout, 127 if the program
 * cannot be found, 2 for a usage error. */
#include "mpiexec.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void usage(FILE *f)
{
    fputs("Usage: mpiexec [options] -n N program [args...]\n"
          "Start N processes of program as one MPI job on this host.\n"
          "\n"
          "Options:\n"
          "  -n N, -np N         number of processes (ranks)\n"
          "  -l, --tag-output    prefix every output line with \"[rank] \"\n"
          "  --timeout SECONDS   stop the job if it runs longer (exit status 124);\n"
          "                      default: $MPIEXEC_TIMEOUT, else no limit\n"
          "  --pmi-port          serve PMI over TCP (PMI_PORT) instead of PMI_FD\n"
          "  -h, --help          show this help\n"
          "\n"
          "Output of each rank is forwarded line by line; stdin goes to rank 0.\n"
          "When a rank fails (non-zero exit, signal, abort, or exit without\n"
          "MPI_Finalize) the others are stopped and the reason is printed.\n",
          f);
}

static int parse_n(const char *s, int *n)
{
    char *end;
    errno = 0;
    long v = s ? strtol(s, &end, 10) : 0;
    if (!s || !*s || *end || errno || v < 1 || v > 100000)
        return -1;
    *n = (int)v;
    return 0;
}

static int parse_seconds(const char *s, double *t)
{
    char *end;
    double v = s ? strtod(s, &end) : 0;
    if (!s || !*s || *end || !(v > 0) || v > 1e8)
        return -1;
    *t = v;
    return 0;
}

/* fds 0-2 must exist, or our pipes would land there and be clobbered. */
static void std_fds(void)
{
    for (int fd = 0; fd < 3; fd++) {
        if (fcntl(fd, F_GETFD) < 0) {
            int nfd = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
            if (nfd >= 0 && nfd != fd) {
                dup2(nfd, fd);
                close(nfd);
            }
        }
    }
}

int main(int argc, char **argv)
{
    mica_job_t job;
    memset(&job, 0, sizeof job);
    job.n = -1;
    job.listen_fd = -1;
    job.stdin_fd = -1;
    job.stdin_pipe = -1;

    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {
            i++;
            break;
        } else if (!strcmp(a, "-n") || !strcmp(a, "-np") || !strcmp(a, "--np") ||
                   !strcmp(a, "-c")) {
            if (parse_n(i + 1 < argc ? argv[i + 1] : NULL, &job.n)) {
                fprintf(stderr, "mpiexec: %s needs a process count from 1 to 100000\n", a);
                return 2;
            }
            i++;
        } else if (!strncmp(a, "--np=", 5) || !strncmp(a, "-n=", 3)) {
            if (parse_n(strchr(a, '=') + 1, &job.n)) {
                fprintf(stderr, "mpiexec: bad process count in %s\n", a);
                return 2;
            }
        } else if (!strcmp(a, "-l") || !strcmp(a, "--tag-output") || !strcmp(a, "-prepend-rank")) {
            job.tag_output = 1;
        } else if (!strcmp(a, "--timeout") || !strcmp(a, "-timeout")) {
            if (parse_seconds(i + 1 < argc ? argv[i + 1] : NULL, &job.timeout)) {
                fprintf(stderr, "mpiexec: %s needs a positive number of seconds\n", a);
                return 2;
            }
            i++;
        } else if (!strncmp(a, "--timeout=", 10)) {
            if (parse_seconds(a + 10, &job.timeout)) {
                fprintf(stderr, "mpiexec: bad value in %s\n", a);
                return 2;
            }
        } else if (!strcmp(a, "--pmi-port") || !strcmp(a, "-pmi-port")) {
            job.pmi_port = 1;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "mpiexec: unknown option %s (see mpiexec --help)\n", a);
            return 2;
        }
    }
    if (i >= argc) {
        fprintf(stderr, "mpiexec: no program given\n");
        usage(stderr);
        return 2;
    }
    if (job.n < 0) {
        fprintf(stderr, "mpiexec: the number of processes is missing (-n N)\n");
        return 2;
    }
    if (job.timeout <= 0 && getenv("MPIEXEC_TIMEOUT") &&
        parse_seconds(getenv("MPIEXEC_TIMEOUT"), &job.timeout)) {
        fprintf(stderr, "mpiexec: MPIEXEC_TIMEOUT must be a positive number of seconds\n");
        return 2;
    }
    job.argv = argv + i;
    if (mica_launch_find_program(job.argv[0])) {
        fprintf(stderr, "mpiexec: cannot find executable '%s'%s\n", job.argv[0],
                strchr(job.argv[0], '/') ? "" : " in PATH");
        return 127;
    }

    std_fds();
    mica_iofwd_init(job.tag_output);

    /* kvsname = jobid: pid for uniqueness on the host now, plus time so a
     * reused pid does not meet an old job's leftovers. Already made only
     * of [A-Za-z0-9_], so the ranks derive the same jobid from it. */
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    unsigned salt = (unsigned)(ts.tv_nsec ^ (ts.tv_sec << 16)) & 0xffffffu;
    snprintf(job.kvsname, sizeof job.kvsname, "j%ld_%06x", (long)getpid(), salt);

    /* stdin to rank 0, unless it is a terminal we do not own (a background
     * job reading it would be stopped). */
    if (!isatty(0) || tcgetpgrp(0) == getpgrp())
        job.stdin_fd = 0;

    job.ranks = calloc((size_t)job.n, sizeof *job.ranks);
    job.kvs = mica_kvs_new();
    if (!job.ranks || !job.kvs) {
        fprintf(stderr, "mpiexec: out of memory\n");
        return 1;
    }
    for (int r = 0; r < job.n; r++) {
        job.ranks[r].out.fd = job.ranks[r].err.fd = -1;
        job.ranks[r].out.rank = job.ranks[r].err.rank = r;
    }
    /* Every process is on this host: MPICH-style clients read this. */
    char map[64];
    snprintf(map, sizeof map, "(vector,(0,1,%d))", job.n);
    mica_kvs_put(job.kvs, "PMI_process_mapping", map);

    /* About four descriptors per rank stay open here; big jobs need more
     * than the usual soft limit of 1024. The ranks get the old limit. */
    if (getrlimit(RLIMIT_NOFILE, &job.nofile) == 0 &&
        job.nofile.rlim_cur != RLIM_INFINITY && job.nofile.rlim_cur < (rlim_t)job.n * 4 + 64) {
        struct rlimit more = job.nofile;
        more.rlim_cur = more.rlim_max;
        job.nofile_raised = setrlimit(RLIMIT_NOFILE, &more) == 0;
    }

    if (job.pmi_port && mica_pmiserv_listen(&job)) {
        perror("mpiexec: cannot listen for PMI connections");
        return 1;
    }

    int rc = mica_job_run(&job);
    mica_shmclean_job(job.kvsname);

    for (int c = 0; c < job.nconns; c++) {
        mica_pmiserv_conn_close(&job, job.conns[c]);
        free(job.conns[c]->buf);
        free(job.conns[c]);
    }
    for (int r = 0; r < job.n; r++) {
        free(job.ranks[r].out.buf);
        free(job.ranks[r].err.buf);
    }
    free(job.conns);
    free(job.ranks);
    mica_kvs_free(job.kvs);
    return rc;
}
