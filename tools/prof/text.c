/* mica-prof: the job's report as text (text.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "text.h"
#include "config.h"
#include "local.h"
#include "state.h"
#include "symbols.h"

#include <stdio.h>
#include <string.h>

static const char *short_loc(const char *loc, char *buf, size_t n)
{
    /* first frame, with the file name without its directories */
    size_t len = strcspn(loc, "\x1e");
    char fr[4096];
    int more = loc[len] != 0;
    if (len > sizeof fr - 1)
        len = sizeof fr - 1;
    memcpy(fr, loc, len);
    fr[len] = 0;
    char *sp = strrchr(fr, ' ');
    if (sp && strchr(sp, '/') && !strchr(sp, '(')) {
        *sp = 0;
        mp_strlcpy(buf, fr, n);
        size_t k = strlen(buf);
        if (k + 1 < n) {
            buf[k] = ' ';
            mp_strlcpy(buf + k + 1, mp_symbols_base_name(sp + 1), n - k - 1);
        }
    } else {
        mp_strlcpy(buf, fr, n);
    }
    if (more && strlen(buf) + 7 < n)
        strcat(buf, " < ...");
    return buf;
}

static void size_label(char *b, size_t n, int k)
{
    static const char *u[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    if (k == 0) {
        snprintf(b, n, "0 B");
        return;
    }
    int e = (k - 1) / 10;
    uint64_t lo = (uint64_t)1 << (k - 1 - e * 10);
    if (k == 1)
        snprintf(b, n, "1 B");
    else if (e == 0)          /* [lo, 2lo - 1] bytes */
        snprintf(b, n, "%llu-%llu B", (unsigned long long)lo, (unsigned long long)(2 * lo - 1));
    else                      /* [lo, 2lo) units */
        snprintf(b, n, "%llu-<%llu %s", (unsigned long long)lo, (unsigned long long)(2 * lo), u[e]);
}

static void text_summary(FILE *f, const mp_job *J)
{
    int P = J->P;
    fprintf(f, "mica-prof report\n");
    fprintf(f, "  command      %s\n", J->cmd);
    fprintf(f, "  MPI library  %s\n", J->lib);
    fprintf(f, "  ranks        %d (threads recording per rank: up to %d)\n", P, J->threads_max);
    fprintf(f, "  written      %s, job %s\n", J->written, mp_st.id);
    fprintf(f, "  clock        %s (%.0f ticks/s)%s\n", mp_use_tsc ? "tsc" : "monotonic", J->rate,
            mp_st.resets ? ", statistics reset by MPI_Pcontrol(2)" : "");
    fprintf(f, "\nTime (s)                     min         mean          max\n");
    fprintf(f, "  run time          %12.6f %12.6f %12.6f\n", J->run.min, J->run.sum / P, J->run.max);
    fprintf(f, "  collected         %12.6f %12.6f %12.6f\n", J->col.min, J->col.sum / P, J->col.max);
    fprintf(f, "  in MPI            %12.6f %12.6f %12.6f\n", J->mpi.min, J->mpi.sum / P, J->mpi.max);
    fprintf(f, "  MPI %% of collected %11.2f%% %11.2f%% %11.2f%%\n", J->pct.min, J->pct_mean, J->pct.max);
    fprintf(f, "\nPer rank\n  %5s  %-20s %12s %12s %12s %7s %12s\n", "rank", "host", "run (s)",
            "collected", "MPI (s)", "MPI%", "calls");
    for (int r = 0; r < P; r++) {
        const mp_rank_row *x = &J->rows[r];
        fprintf(f, "  %5d  %-20.20s %12.6f %12.6f %12.6f %6.2f%% %12.0f\n", r, x->host, x->run,
                x->collected, x->mpi, x->collected > 0 ? 100.0 * x->mpi / x->collected : 0, x->calls);
    }
}

static void text_functions(FILE *f, const mp_job *J)
{
    int top = mp_cfg.top, na = J->na, NF = MP_NFUNC;
    double mpi_sum = J->mpi.sum;
    fprintf(f, "\nFunctions by time (all ranks; top %d of %d called)\n", top < na ? top : na, na);
    fprintf(f, "  %-28s %12s %12s %6s %12s %12s %16s %16s   %s\n", "function", "calls", "time (s)",
            "%MPI", "mean (us)", "max (us)", "bytes sent", "bytes recv",
            "time per rank min / mean / max (s)");
    for (int a = 0; a < na && a < top; a++) {
        int i = J->order[a];
        uint64_t c = J->g3[i];
        double t = J->tsum[i];
        fprintf(f, "  %-28s %12llu %12.6f %6.2f %12.3f %12.3f %16llu %16llu   %.6f / %.6f / %.6f\n",
                mp_fname[i], (unsigned long long)c, t, mpi_sum > 0 ? 100.0 * t / mpi_sum : 0,
                c ? t / (double)c * 1e6 : 0, -J->gcm[NF + i] * 1e6, (unsigned long long)J->g3[NF + i],
                (unsigned long long)J->g3[2 * NF + i], J->tmn[i], t / J->P, J->tmx[i]);
    }
}

static void text_sites(FILE *f, const mp_job *J)
{
    int top = mp_cfg.top, ng = J->ng;
    double mpi_sum = J->mpi.sum;
    fprintf(f, "\nCall sites by time (top %d of %d)\n", top < ng ? top : ng, ng);
    fprintf(f, "  %4s  %-24s %10s %12s %6s %6s  %s\n", "#", "function", "calls", "time (s)",
            "%MPI", "ranks", "site");
    for (int i = 0; i < ng && i < top; i++) {
        const mp_gsite *g = &J->gs[i];
        char sb[512];
        fprintf(f, "  %4d  %-24s %10llu %12.6f %6.2f %6d  %s\n", i + 1, mp_fname[g->fid],
                (unsigned long long)g->calls, g->time, mpi_sum > 0 ? 100.0 * g->time / mpi_sum : 0,
                g->nranks, short_loc(g->loc, sb, sizeof sb));
    }
    if (J->lost > 0)
        fprintf(f, "  (%.0f calls in sites beyond MICA_PROF_MAX_SITES are not shown)\n", J->lost);
}

static void text_sizes(FILE *f, const mp_job *J)
{
    const uint64_t *hg = J->hg;
    fprintf(f, "\nMessage sizes (operations per size, all ranks; p2p: messages sent)\n");
    fprintf(f, "  %-22s", "size");
    for (int c = 1; c < MP_NCAT; c++)
        fprintf(f, " %14s", mp_cat_names[c]);
    fprintf(f, "\n");
    for (int b = 0; b < MP_NBUCKET; b++) {
        int any = 0;
        for (int c = 1; c < MP_NCAT; c++)
            any |= hg[c * MP_NBUCKET + b] != 0;
        if (!any)
            continue;
        char lb[64];
        size_label(lb, sizeof lb, b);
        fprintf(f, "  %-22s", lb);
        for (int c = 1; c < MP_NCAT; c++)
            fprintf(f, " %14llu", (unsigned long long)hg[c * MP_NBUCKET + b]);
        fprintf(f, "\n");
    }
    fprintf(f, "  %-22s", "total bytes");
    for (int c = 1; c < MP_NCAT; c++)
        fprintf(f, " %14llu", (unsigned long long)hg[MP_NCAT * MP_NBUCKET + c]);
    fprintf(f, "\n");
}

/* The heaviest pairs by bytes, equal bytes in row-major order. Each pass takes the largest entry
 * that comes strictly after the one shown before in that order, so the matrix stays untouched. */
static void text_top_pairs(FILE *f, const mp_job *J)
{
    int P = J->P;
    uint64_t prev = 0;
    long prev_at = -1;
    for (int shown = 0; shown < mp_cfg.top; shown++) {
        uint64_t best = 0;
        long at = -1;
        for (int r = 0; r < P; r++)
            for (int c = 0; c < P; c++) {
                uint64_t v = mp_job_matrix(J, r, 0, c);
                long i = (long)r * P + c;
                if (prev_at >= 0 && (v > prev || (v == prev && i <= prev_at)))
                    continue;       /* shown already */
                if (v > best) {
                    best = v;
                    at = i;
                }
            }
        if (at < 0)
            break;
        int br = (int)(at / P), bc = (int)(at % P);
        fprintf(f, "  %6d -> %-6d %16llu bytes %12llu messages\n", br, bc, (unsigned long long)best,
                (unsigned long long)mp_job_matrix(J, br, 1, bc));
        prev = best;
        prev_at = at;
    }
}

static void text_matrix(FILE *f, const mp_job *J)
{
    int P = J->P;
    fprintf(f, "\nPoint-to-point bytes sent (row: sender, column: receiver, MPI_COMM_WORLD ranks)\n");
    if (P > 16) {
        fprintf(f, "  (%d ranks: see the JSON file for the full matrix; heaviest pairs:)\n", P);
        text_top_pairs(f, J);
        return;
    }
    for (int k = 0; k < 2; k++) {
        if (k)
            fprintf(f, "\nPoint-to-point messages sent\n");
        fprintf(f, "  %6s", "");
        for (int c = 0; c < P; c++)
            fprintf(f, " %12d", c);
        fprintf(f, "\n");
        for (int r = 0; r < P; r++) {
            fprintf(f, "  %6d", r);
            for (int c = 0; c < P; c++)
                fprintf(f, " %12llu", (unsigned long long)mp_job_matrix(J, r, k, c));
            fprintf(f, "\n");
        }
    }
}

void mp_text_write(FILE *f, const mp_job *J)
{
    text_summary(f, J);
    text_functions(f, J);
    if (mp_cfg.sites)
        text_sites(f, J);
    text_sizes(f, J);
    text_matrix(f, J);
}
