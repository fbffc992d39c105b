/* mica-prof: the job's data for its report. Every rank takes part in gathering it (PMPI
 * collectives on the tool's communicator, in the same order on all); the results of the
 * reductions to rank 0, and all that is derived from them, are meaningful on rank 0 only. */
#ifndef MICA_PROF_JOB_H
#define MICA_PROF_JOB_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>
#include "thread.h"

typedef struct {
    double run, collected, mpi, calls, threads, sites_lost, ev_lost;
    char host[64];
} mp_rank_row;

/* A call site of the job: merged over the ranks by (function, location) */
typedef struct {
    int fid, nranks;
    const char *loc;                /* in the gathered text */
    double time, tmin, tmax, rtmin, rtmax;
    uint64_t calls, sent, recv;
} mp_gsite;

/* Spread of one figure over the ranks */
typedef struct {
    double min, max, sum;
} mp_spread;

typedef struct {
    int rank, P;
    double rate;
    /* per function: calls[NF], bytes sent[NF], bytes received[NF], summed over the ranks (everywhere) */
    uint64_t *g3;
    uint64_t *cmin, *cmax;          /* calls of one rank */
    double *tsum, *tmn, *tmx;       /* time of one rank */
    double *gcm;                    /* fastest call[NF], then minus the slowest call[NF] */
    int na, *act;                   /* the functions called by some rank */
    uint64_t *gpc;                  /* calls[rank][active function] */
    double *gpt;                    /* time[rank][active function] */
    mp_rank_row *rows;
    uint64_t hg[MP_NCAT * MP_NBUCKET + MP_NCAT];    /* histograms, then bytes per category */
    int rn;                         /* length of a matrix row: bytes[P + 1], messages[P + 1] */
    uint64_t *mat;
    char *all;                      /* the ranks' call sites as text lines, one block per rank */
    int *lens, *displs;
    long total;
    /* rank 0's results */
    mp_gsite *gs;                   /* call sites merged over the ranks, by time */
    int ng;
    int *order, *apos;              /* active functions by time; position of a function in act */
    mp_spread run, col, mpi, pct;
    double pct_mean, lost;
    int threads_max;
    char lib[MPI_MAX_LIBRARY_VERSION_STRING + 1], written[64];
    const char *cmd;
} mp_job;

/* Bytes (k = 0) or messages (k = 1) sent from rank r to rank c; c = P: outside the world */
static inline uint64_t mp_job_matrix(const mp_job *J, int r, int k, int c)
{
    return J->mat[(size_t)r * (size_t)J->rn + (size_t)k * (size_t)(J->P + 1) + (size_t)c];
}

/* All ranks: gather the job's data. */
void mp_job_gather(mp_job *J);
/* Rank 0: the call sites merged over the ranks, the functions by time, the spreads. */
void mp_job_summarize(mp_job *J);
void mp_job_free(mp_job *J);

#endif
