/* mica-prof: the hooks (hooks.h) run at load, MPI_Init, MPI_Finalize, MPI_Abort, MPI_Pcontrol,
 * exit and fatal signals. Only PMPI_ functions are called. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "hooks.h"
#include "clock.h"
#include "comms.h"
#include "config.h"
#include "files.h"
#include "report.h"
#include "rankfile.h"
#include "state.h"
#include "thread.h"

#include <execinfo.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void install_signals(void);
static void at_exit(void);

__attribute__((constructor)) static void mp_load(void)
{
    mp_config_read();
    mp_use_tsc = mp_cfg.clock >= 0 ? mp_cfg.clock : mp_clock_tsc_invariant();
    mp_sites_on = mp_cfg.sites;
    mp_depth = mp_cfg.depth;
    mp_trace_on = mp_cfg.trace;
    if (mp_sites_on && mp_depth > 1) {
        void *buf[4];
        backtrace(buf, 4);          /* loads the unwinder now, not inside a measured call */
    }
    mp_st.pid = (int)getpid();
    mp_st.mono0 = mp_mono_ns();
    mp_st.wall0 = mp_wall_ns();
    mp_st.tick0 = mp_now();
    mp_st.on_since = mp_st.tick0;
    mp_st.reset_at = mp_st.tick0;
    mp_st.rank = -1;
    snprintf(mp_st.id, sizeof mp_st.id, "%d", mp_st.pid);
    if (!mp_cfg.start) {
        mp_gen = 1;
        mp_st.on_total = 0;
    }
    if (mp_cfg.signals)
        install_signals();
    atexit(at_exit);
}

/* MPI_Pcontrol: 0 stops, 1 resumes, 2 resets the statistics, 3 writes this rank's file */
void mp_pcontrol(int level)
{
    uint64_t now = mp_now();
    switch (level) {
    case 0:
        if (!(__atomic_fetch_or(&mp_gen, 1, __ATOMIC_ACQ_REL) & 1))
            mp_st.on_total += now - mp_st.on_since;
        break;
    case 1:
        if (__atomic_fetch_and(&mp_gen, ~(uint64_t)1, __ATOMIC_ACQ_REL) & 1)
            mp_st.on_since = now;
        break;
    case 2:
        __atomic_fetch_add(&mp_gen, 2, __ATOMIC_ACQ_REL);
        mp_st.on_total = 0;
        mp_st.on_since = now;
        mp_st.reset_at = now;
        mp_st.resets++;
        break;
    case 3:
        mp_write_rank_file("MPI_Pcontrol(3)", 1);
        break;
    default:
        break;
    }
}

void mp_after_init(void)
{
    int flag = 0;
    if (mp_st.inited || (PMPI_Initialized(&flag), !flag))
        return;
    mp_st.inited = 1;
    mp_st.used = 1;
    PMPI_Comm_rank(MPI_COMM_WORLD, &mp_world_rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &mp_world_size);
    mp_st.rank = mp_world_rank;
    /* The tool's own communicator. Should the library fail to make it, the program goes on and
     * each rank writes its own file at the end: MPI_COMM_WORLD's error handler is set to return
     * errors for this one call (no user code runs meanwhile), then put back. */
    MPI_Errhandler eh;
    int have_eh = PMPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh) == MPI_SUCCESS;
    if (have_eh)
        PMPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rc = mp_cfg.per_rank ? MPI_ERR_OTHER : PMPI_Comm_dup(MPI_COMM_WORLD, &mp_st.comm);
    if (PMPI_Comm_group(MPI_COMM_WORLD, &mp_st.world_group) != MPI_SUCCESS)
        mp_st.world_group = MPI_GROUP_NULL;
    if (have_eh) {
        PMPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
        PMPI_Errhandler_free(&eh);
    }
    if (rc != MPI_SUCCESS) {
        mp_st.comm = MPI_COMM_NULL;
        if (!mp_cfg.per_rank)
            fprintf(stderr, "mica-prof: rank %d: MPI_Comm_dup failed; each rank writes its own file\n",
                    mp_world_rank);
    } else {
        PMPI_Comm_set_errhandler(mp_st.comm, MPI_ERRORS_RETURN);
    }
    /* functions a library may not have yet (Mica): tried once on the tool's communicator */
#ifdef MP_HAVE_COMM_TEST_INTER
    mp_st.cap_inter = mp_st.comm != MPI_COMM_NULL && PMPI_Comm_test_inter(mp_st.comm, &flag) == MPI_SUCCESS;
#endif
#ifdef MP_HAVE_TOPO_TEST
    mp_st.cap_topo = mp_st.comm != MPI_COMM_NULL && PMPI_Topo_test(mp_st.comm, &flag) == MPI_SUCCESS;
#endif
    mp_comm_world_init();
    /* One name for the job's files: the batch job id, else rank 0's process id. */
    struct {
        char id[64];
        uint64_t wall0;
    } job;
    memset(&job, 0, sizeof job);
    if (mp_world_rank == 0) {
        const char *e = NULL;
        static const char *vars[] = {"SLURM_JOB_ID", "PBS_JOBID", "LSB_JOBID", "JOB_ID", "COBALT_JOBID"};
        for (unsigned i = 0; e == NULL && i < sizeof vars / sizeof *vars; i++)
            e = getenv(vars[i]);
        mp_strlcpy(job.id, e && *e ? e : mp_st.id, sizeof job.id);
        for (char *c = job.id; *c; c++)
            if (*c == '/' || *c == ' ')
                *c = '_';
        job.wall0 = mp_st.wall0;
    }
    if (mp_st.comm != MPI_COMM_NULL)
        PMPI_Bcast(&job, (int)sizeof job, MPI_BYTE, 0, mp_st.comm);
    else
        mp_strlcpy(job.id, mp_st.id, sizeof job.id);
    mp_strlcpy(mp_st.id, job.id, sizeof mp_st.id);
    mp_st.wall_base = job.wall0;
    mp_st.init_at = mp_now();
    /* The MPI library may have installed signal handlers of its own: go in front again. */
    if (mp_cfg.signals)
        install_signals();
    /* Threads created before MPI_Init get their matrix row on first use. */
}

void mp_after_session_init(void)
{
    mp_st.used = 1;
}

void mp_before_finalize(void)
{
    if (!mp_st.inited || mp_st.finalized || mp_st.reported)
        return;
    mp_st.reported = 1;
    if (mp_st.comm != MPI_COMM_NULL)
        mp_report_final();
    else
        mp_write_rank_file(mp_cfg.per_rank ? "MPI_Finalize" : "no communicator for the job report", 1);
    mp_st.finalized = 1;
    if (mp_st.world_group != MPI_GROUP_NULL)
        PMPI_Group_free(&mp_st.world_group);
    if (mp_st.comm != MPI_COMM_NULL)
        PMPI_Comm_free(&mp_st.comm);
}

/* Write this rank's file with the launcher's termination signals held back: when one rank
 * exits early, launchers stop the others, which may be writing their own files just then. */
static void write_shielded(const char *why)
{
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGHUP);
    sigaddset(&block, SIGQUIT);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    mp_write_rank_file(why, 1);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

void mp_on_abort(void)
{
    if (__atomic_exchange_n(&mp_st.reported, 1, __ATOMIC_ACQ_REL))
        return;
    write_shielded("MPI_Abort");
}

static void at_exit(void)
{
    if (!mp_st.used || __atomic_exchange_n(&mp_st.reported, 1, __ATOMIC_ACQ_REL))
        return;
    write_shielded("exit without MPI_Finalize");
    if (mp_st.inited && !mp_st.finalized)
        mp_wait_rank_files();
}

static const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM, SIGINT, SIGHUP,
                           SIGQUIT, SIGXCPU};
#define NSIGS ((int)(sizeof sigs / sizeof *sigs))
static struct sigaction old_act[NSIGS];
static int have_old[NSIGS];

static void on_signal(int sig)
{
    int i;
    for (i = 0; i < NSIGS && sigs[i] != sig; i++)
        ;
    if (mp_st.used && !__atomic_exchange_n(&mp_st.reported, 1, __ATOMIC_ACQ_REL)) {
        char why[32];
        snprintf(why, sizeof why, "signal %d", sig);
        mp_write_rank_file(why, 0);
    }
    if (i < NSIGS && have_old[i])
        sigaction(sig, &old_act[i], NULL);
    else
        signal(sig, SIG_DFL);
    raise(sig);
}

static void install_signals(void)
{
    for (int i = 0; i < NSIGS; i++) {
        struct sigaction cur, sa;
        if (sigaction(sigs[i], NULL, &cur) != 0)
            continue;
        if (!(cur.sa_flags & SA_SIGINFO) && cur.sa_handler == on_signal)
            continue;
        if (!(cur.sa_flags & SA_SIGINFO) && cur.sa_handler == SIG_IGN)
            continue;                /* ignored on purpose (nohup): leave it so */
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        for (int k = 0; k < NSIGS; k++)
            sigaddset(&sa.sa_mask, sigs[k]);
        sa.sa_flags = SA_RESETHAND;
        if (sigaction(sigs[i], &sa, NULL) == 0) {
            old_act[i] = cur;
            have_old[i] = 1;
        }
    }
}
