/* mica-prof: the job's report data (job.h), gathered at MPI_Finalize with PMPI collectives on the
 * tool's own communicator, summarized on rank 0; and the report written from it. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "job.h"
#include "config.h"
#include "files.h"
#include "local.h"
#include "sites.h"
#include "state.h"

#include <fcntl.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int cmp_gsite_key(const void *a, const void *b)
{
    const mp_gsite *x = a, *y = b;
    if (x->fid != y->fid)
        return x->fid - y->fid;
    return strcmp(x->loc, y->loc);
}

static int cmp_gsite_time(const void *a, const void *b)
{
    const mp_gsite *x = a, *y = b;
    return x->time < y->time ? 1 : x->time > y->time ? -1 : cmp_gsite_key(a, b);
}

static double *g_time_sum;          /* for sorting functions by time */

static int cmp_fid_time(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    double tx = g_time_sum[x], ty = g_time_sum[y];
    return tx < ty ? 1 : tx > ty ? -1 : x - y;
}

static char *cmdline(void)
{
    static char buf[4096];
    int fd = open("/proc/self/cmdline", O_RDONLY);
    ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : 0;
    if (fd >= 0)
        close(fd);
    if (n < 0)
        n = 0;
    buf[n] = 0;
    for (ssize_t i = 0; i + 1 < n; i++)
        if (buf[i] == 0)
            buf[i] = ' ';
    return buf;
}

static void spread_add(mp_spread *s, double v)
{
    s->min = v < s->min ? v : s->min;
    s->max = v > s->max ? v : s->max;
    s->sum += v;
}

static void gather_functions(mp_job *J, MPI_Comm comm)
{
    int NF = MP_NFUNC;
    double rate = J->rate;
    uint64_t *u3 = calloc(3 * (size_t)NF, sizeof(uint64_t)), *cl = calloc((size_t)NF, sizeof(uint64_t));
    double *tm = calloc((size_t)NF, sizeof(double)), *cm2 = calloc(2 * (size_t)NF, sizeof(double));
    J->g3 = calloc(3 * (size_t)NF, sizeof(uint64_t));
    J->cmin = calloc((size_t)NF, sizeof(uint64_t));
    J->cmax = calloc((size_t)NF, sizeof(uint64_t));
    J->tsum = calloc((size_t)NF, sizeof(double));
    J->tmn = calloc((size_t)NF, sizeof(double));
    J->tmx = calloc((size_t)NF, sizeof(double));
    J->gcm = calloc(2 * (size_t)NF, sizeof(double));
    for (int i = 0; i < NF; i++) {
        u3[i] = mp_loc.f[i].calls;
        u3[NF + i] = mp_loc.f[i].sent;
        u3[2 * NF + i] = mp_loc.f[i].recv;
        cl[i] = mp_loc.f[i].calls;
        tm[i] = (double)mp_loc.f[i].ticks / rate;
        cm2[i] = mp_loc.f[i].calls ? (double)mp_loc.f[i].tmin / rate : DBL_MAX;
        cm2[NF + i] = -((double)mp_loc.f[i].tmax / rate);  /* MIN of negatives = MAX */
    }
    PMPI_Allreduce(u3, J->g3, 3 * NF, MPI_UINT64_T, MPI_SUM, comm);
    PMPI_Reduce(cl, J->cmin, NF, MPI_UINT64_T, MPI_MIN, 0, comm);
    PMPI_Reduce(cl, J->cmax, NF, MPI_UINT64_T, MPI_MAX, 0, comm);
    PMPI_Reduce(tm, J->tsum, NF, MPI_DOUBLE, MPI_SUM, 0, comm);
    PMPI_Reduce(tm, J->tmn, NF, MPI_DOUBLE, MPI_MIN, 0, comm);
    PMPI_Reduce(tm, J->tmx, NF, MPI_DOUBLE, MPI_MAX, 0, comm);
    PMPI_Reduce(cm2, J->gcm, 2 * NF, MPI_DOUBLE, MPI_MIN, 0, comm);
    free(u3);
    free(cl);
    free(tm);
    free(cm2);
}

/* Per rank calls and time of the functions called by some rank (known everywhere from the
 * Allreduce, so the ranks' gathers agree on their number) */
static void gather_active(mp_job *J, MPI_Comm comm)
{
    int na = 0, NF = MP_NFUNC, P = J->P;
    double rate = J->rate;
    J->act = malloc(sizeof(int) * (size_t)NF + 1);
    for (int i = 0; i < NF; i++)
        if (J->g3[i])
            J->act[na++] = i;
    J->na = na;
    uint64_t *pc = malloc(sizeof(uint64_t) * (size_t)(na + 1));
    double *pt = malloc(sizeof(double) * (size_t)(na + 1));
    for (int a = 0; a < na; a++) {
        pc[a] = mp_loc.f[J->act[a]].calls;
        pt[a] = (double)mp_loc.f[J->act[a]].ticks / rate;
    }
    if (J->rank == 0) {
        J->gpc = malloc(sizeof(uint64_t) * (size_t)(na + 1) * (size_t)P);
        J->gpt = malloc(sizeof(double) * (size_t)(na + 1) * (size_t)P);
    }
    PMPI_Gather(pc, na, MPI_UINT64_T, J->gpc, na, MPI_UINT64_T, 0, comm);
    PMPI_Gather(pt, na, MPI_DOUBLE, J->gpt, na, MPI_DOUBLE, 0, comm);
    free(pc);
    free(pt);
}

/* Per rank totals, the histograms and the point-to-point matrix */
static void gather_totals(mp_job *J, MPI_Comm comm)
{
    int P = J->P;
    mp_rank_row me;
    memset(&me, 0, sizeof me);
    me.run = mp_loc.run;
    me.collected = mp_loc.collected;
    me.mpi = mp_loc.mpi;
    for (int i = 0; i < MP_NFUNC; i++)
        me.calls += (double)mp_loc.f[i].calls;
    me.threads = mp_loc.nthreads;
    me.sites_lost = (double)mp_loc.sites_lost;
    me.ev_lost = (double)mp_loc.ev_lost;
    gethostname(me.host, sizeof me.host - 1);
    if (J->rank == 0)
        J->rows = calloc((size_t)P, sizeof(mp_rank_row));
    PMPI_Gather(&me, (int)sizeof me, MPI_BYTE, J->rows, (int)sizeof me, MPI_BYTE, 0, comm);

    uint64_t hl[MP_NCAT * MP_NBUCKET + MP_NCAT];
    memcpy(hl, mp_loc.hist, sizeof mp_loc.hist);
    memcpy(hl + MP_NCAT * MP_NBUCKET, mp_loc.hbytes, sizeof mp_loc.hbytes);
    PMPI_Reduce(hl, J->hg, MP_NCAT * MP_NBUCKET + MP_NCAT, MPI_UINT64_T, MPI_SUM, 0, comm);

    J->rn = 2 * (P + 1);
    uint64_t *row = calloc((size_t)J->rn, sizeof(uint64_t));
    if (J->rank == 0)
        J->mat = calloc((size_t)J->rn * (size_t)P, sizeof(uint64_t));
    mp_local_row(row, P);
    PMPI_Gather(row, J->rn, MPI_UINT64_T, J->mat, J->rn, MPI_UINT64_T, 0, comm);
    free(row);
}

/* This rank's call sites, resolved here, as text lines "fid calls time tmin tmax sent recv loc" */
static char *site_lines(double rate, size_t *length)
{
    int ns = 0;
    mp_lsite *ls = mp_cfg.sites ? mp_sites_local(&ns) : NULL;
    size_t cap = 256, len = 0;
    char *txt = malloc(cap);
    txt[0] = 0;
    for (int i = 0; i < ns; i++) {
        size_t need = strlen(ls[i].loc) + 256;
        if (len + need >= cap) {
            while (len + need >= cap)
                cap *= 2;
            txt = realloc(txt, cap);
        }
        len += (size_t)snprintf(txt + len, cap - len, "%d\t%llu\t%.9g\t%.9g\t%.9g\t%llu\t%llu\t%s\n",
                                ls[i].fid, (unsigned long long)ls[i].st.calls,
                                (double)ls[i].st.ticks / rate, (double)ls[i].st.tmin / rate,
                                (double)ls[i].st.tmax / rate, (unsigned long long)ls[i].st.sent,
                                (unsigned long long)ls[i].st.recv, ls[i].loc);
        free(ls[i].loc);
    }
    free(ls);
    *length = len;
    return txt;
}

static void gather_sites(mp_job *J, MPI_Comm comm)
{
    size_t len = 0;
    char *txt = site_lines(J->rate, &len);
    int mylen = (int)len;
    if (J->rank == 0)
        J->lens = calloc((size_t)J->P, sizeof(int));
    PMPI_Gather(&mylen, 1, MPI_INT, J->lens, 1, MPI_INT, 0, comm);
    if (J->rank == 0) {
        J->displs = calloc((size_t)J->P, sizeof(int));
        for (int r = 0; r < J->P; r++) {
            J->displs[r] = (int)J->total;
            J->total += J->lens[r];
        }
        J->all = malloc((size_t)J->total + 1);
    }
    PMPI_Gatherv(txt, mylen, MPI_CHAR, J->all, J->lens, J->displs, MPI_CHAR, 0, comm);
    if (J->rank == 0)
        J->all[J->total] = 0;
    free(txt);
}

/* All the collectives of the report on the tool's communicator: every rank calls this, and the
 * collectives come in the same order on all of them. */
void mp_job_gather(mp_job *J)
{
    memset(J, 0, sizeof *J);
    J->rank = mp_world_rank;
    J->P = mp_world_size;
    mp_local_merge();
    J->rate = mp_loc.rate;
    gather_functions(J, mp_st.comm);
    gather_active(J, mp_st.comm);
    gather_totals(J, mp_st.comm);
    gather_sites(J, mp_st.comm);
}

/* The gathered site lines as sites of one rank each (the lines are cut in place); their number */
static int parse_sites(mp_job *J, mp_gsite *gs)
{
    int ng = 0;
    for (int r = 0; r < J->P; r++) {
        char *p = J->all + J->displs[r], *end = p + J->lens[r];
        while (p < end) {
            char *nl = memchr(p, '\n', (size_t)(end - p));
            if (nl == NULL)
                break;
            *nl = 0;
            mp_gsite g;
            memset(&g, 0, sizeof g);
            unsigned long long c, s, v;
            int off = 0;
            if (sscanf(p, "%d\t%llu\t%lf\t%lf\t%lf\t%llu\t%llu\t%n", &g.fid, &c, &g.time, &g.tmin,
                       &g.tmax, &s, &v, &off) >= 7 && off > 0 && g.fid >= 0 && g.fid < MP_NFUNC) {
                g.calls = c;
                g.sent = s;
                g.recv = v;
                g.loc = p + off;
                g.nranks = 1;
                g.rtmin = g.rtmax = g.time;
                gs[ng++] = g;
            }
            p = nl + 1;
        }
    }
    return ng;
}

/* Rank 0: the call sites merged by (function, location), by time */
static void job_merge_sites(mp_job *J)
{
    int cnt = 0;
    for (long i = 0; i < J->total; i++)
        cnt += J->all[i] == '\n';
    mp_gsite *gs = calloc((size_t)cnt + 1, sizeof *gs);
    int ng = parse_sites(J, gs);
    qsort(gs, (size_t)ng, sizeof *gs, cmp_gsite_key);
    int m = 0;
    for (int i = 0; i < ng; i++) {
        if (m > 0 && !cmp_gsite_key(&gs[m - 1], &gs[i])) {
            mp_gsite *d = &gs[m - 1];
            d->calls += gs[i].calls;
            d->sent += gs[i].sent;
            d->recv += gs[i].recv;
            d->time += gs[i].time;
            d->nranks++;
            if (gs[i].tmin < d->tmin)
                d->tmin = gs[i].tmin;
            if (gs[i].tmax > d->tmax)
                d->tmax = gs[i].tmax;
            if (gs[i].time < d->rtmin)
                d->rtmin = gs[i].time;
            if (gs[i].time > d->rtmax)
                d->rtmax = gs[i].time;
        } else {
            gs[m++] = gs[i];
        }
    }
    qsort(gs, (size_t)m, sizeof *gs, cmp_gsite_time);
    J->gs = gs;
    J->ng = m;
}

/* Rank 0: the call sites merged, functions by time, the spreads over the ranks, and what the
 * header says */
void mp_job_summarize(mp_job *J)
{
    job_merge_sites(J);
    int na = J->na;
    g_time_sum = J->tsum;
    J->order = malloc(sizeof(int) * (size_t)(na + 1));
    memcpy(J->order, J->act, sizeof(int) * (size_t)na);
    qsort(J->order, (size_t)na, sizeof(int), cmp_fid_time);
    J->apos = malloc(sizeof(int) * (size_t)MP_NFUNC);
    for (int a = 0; a < na; a++)
        J->apos[J->act[a]] = a;

    mp_spread none = {DBL_MAX, 0, 0};
    J->run = J->col = J->mpi = J->pct = none;
    for (int r = 0; r < J->P; r++) {
        const mp_rank_row *x = &J->rows[r];
        spread_add(&J->run, x->run);
        spread_add(&J->col, x->collected);
        spread_add(&J->mpi, x->mpi);
        spread_add(&J->pct, x->collected > 0 ? 100.0 * x->mpi / x->collected : 0);
        J->threads_max = (int)x->threads > J->threads_max ? (int)x->threads : J->threads_max;
        J->lost += x->sites_lost;
    }
    /* the job's share, not the mean of the ranks' shares */
    J->pct_mean = J->col.sum > 0 ? 100.0 * J->mpi.sum / J->col.sum : 0;

    strcpy(J->lib, "unknown");
#ifdef MP_HAVE_GET_LIBRARY_VERSION
    int ll = 0;
    PMPI_Get_library_version(J->lib, &ll);
    J->lib[strcspn(J->lib, "\n")] = 0;
    for (char *c = J->lib; *c; c++)
        if (*c == '\t')
            *c = ' ';
#endif
    time_t now = time(NULL);
    strftime(J->written, sizeof J->written, "%Y-%m-%d %H:%M:%S", localtime(&now));
    J->cmd = cmdline();
}


void mp_job_free(mp_job *J)
{
    free(J->g3);
    free(J->cmin);
    free(J->cmax);
    free(J->tsum);
    free(J->tmn);
    free(J->tmx);
    free(J->gcm);
    free(J->act);
    free(J->gpc);
    free(J->gpt);
    free(J->rows);
    free(J->mat);
    free(J->all);
    free(J->lens);
    free(J->displs);
    free(J->gs);
    free(J->order);
    free(J->apos);
    memset(J, 0, sizeof *J);
}
