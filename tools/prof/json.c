/* mica-prof: the job's report as JSON (json.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "json.h"
#include "config.h"
#include "local.h"
#include "state.h"

#include <float.h>
#include <stdio.h>
#include <string.h>

/* A JSON string of the n bytes at s */
static void jstr_n(FILE *f, const char *s, size_t n)
{
    fputc('"', f);
    for (const char *end = s + n; s < end; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void jstr(FILE *f, const char *s)
{
    jstr_n(f, s, strlen(s));
}

static void json_summary(FILE *j, const mp_job *J)
{
    int P = J->P;
    fprintf(j, "{\"tool\": \"mica-prof\", \"version\": 1, \"complete\": true, \"id\": ");
    jstr(j, mp_st.id);
    fprintf(j, ",\n \"command\": ");
    jstr(j, J->cmd);
    fprintf(j, ",\n \"mpi_library\": ");
    jstr(j, J->lib);
    fprintf(j, ",\n \"ranks\": %d, \"clock\": \"%s\", \"tick_rate\": %.0f, \"resets\": %d,\n",
            P, mp_use_tsc ? "tsc" : "monotonic", J->rate, mp_st.resets);
    fprintf(j, " \"options\": {\"sites\": %s, \"depth\": %d, \"trace\": %s},\n",
            mp_cfg.sites ? "true" : "false", mp_cfg.depth, mp_cfg.trace ? "true" : "false");
    fprintf(j, " \"run_time\": {\"min\": %.9f, \"mean\": %.9f, \"max\": %.9f},\n",
            J->run.min, J->run.sum / P, J->run.max);
    fprintf(j, " \"collected_time\": {\"min\": %.9f, \"mean\": %.9f, \"max\": %.9f},\n",
            J->col.min, J->col.sum / P, J->col.max);
    fprintf(j, " \"mpi_time\": {\"min\": %.9f, \"mean\": %.9f, \"max\": %.9f, \"total\": %.9f},\n",
            J->mpi.min, J->mpi.sum / P, J->mpi.max, J->mpi.sum);
    fprintf(j, " \"mpi_percent\": {\"min\": %.4f, \"mean\": %.4f, \"max\": %.4f},\n",
            J->pct.min, J->pct_mean, J->pct.max);
    fprintf(j, " \"per_rank\": [");
    for (int r = 0; r < P; r++) {
        const mp_rank_row *x = &J->rows[r];
        fprintf(j, "%s\n  {\"rank\": %d, \"host\": ", r ? "," : "", r);
        jstr(j, x->host);
        fprintf(j, ", \"run_time\": %.9f, \"collected_time\": %.9f, \"mpi_time\": %.9f, \"calls\": %.0f, "
                "\"threads\": %.0f, \"sites_lost\": %.0f, \"events_lost\": %.0f}",
                x->run, x->collected, x->mpi, x->calls, x->threads, x->sites_lost, x->ev_lost);
    }
    fprintf(j, "]");
}

static void json_functions(FILE *j, const mp_job *J)
{
    int P = J->P, na = J->na, NF = MP_NFUNC;
    fprintf(j, ",\n \"functions\": [");
    for (int a = 0; a < na; a++) {
        int i = J->order[a], ap = J->apos[i];
        fprintf(j, "%s\n  {\"name\": \"%s\", \"calls\": %llu, \"time\": %.9f, \"bytes_sent\": %llu, "
                "\"bytes_recv\": %llu, \"time_min_call\": %.9f, \"time_max_call\": %.9f, "
                "\"rank_time\": {\"min\": %.9f, \"mean\": %.9f, \"max\": %.9f}, "
                "\"rank_calls\": {\"min\": %llu, \"max\": %llu},\n   \"per_rank_calls\": [",
                a ? "," : "", mp_fname[i], (unsigned long long)J->g3[i], J->tsum[i],
                (unsigned long long)J->g3[NF + i], (unsigned long long)J->g3[2 * NF + i],
                J->gcm[i] == DBL_MAX ? 0 : J->gcm[i], -J->gcm[NF + i], J->tmn[i], J->tsum[i] / P, J->tmx[i],
                (unsigned long long)J->cmin[i], (unsigned long long)J->cmax[i]);
        for (int r = 0; r < P; r++)
            fprintf(j, "%s%llu", r ? ", " : "", (unsigned long long)J->gpc[(size_t)r * na + ap]);
        fprintf(j, "], \"per_rank_time\": [");
        for (int r = 0; r < P; r++)
            fprintf(j, "%s%.9f", r ? ", " : "", J->gpt[(size_t)r * na + ap]);
        fprintf(j, "]}");
    }
    fprintf(j, "]");
}

static void json_sites(FILE *j, const mp_job *J)
{
    fprintf(j, ",\n \"sites\": [");
    for (int i = 0; i < J->ng; i++) {
        const mp_gsite *g = &J->gs[i];
        fprintf(j, "%s\n  {\"function\": \"%s\", \"calls\": %llu, \"time\": %.9f, \"time_min_call\": %.9f, "
                "\"time_max_call\": %.9f, \"bytes_sent\": %llu, \"bytes_recv\": %llu, \"ranks\": %d, "
                "\"rank_time\": {\"min\": %.9f, \"max\": %.9f}, \"location\": [",
                i ? "," : "", mp_fname[g->fid], (unsigned long long)g->calls, g->time,
                g->tmin, g->tmax, (unsigned long long)g->sent, (unsigned long long)g->recv,
                g->nranks, g->rtmin, g->rtmax);
        /* one string per frame; the frames are separated by \x1e */
        const char *s = g->loc;
        for (int k = 0; s; k++) {
            const char *e = strchr(s, '\x1e');
            fprintf(j, "%s", k ? ", " : "");
            jstr_n(j, s, e ? (size_t)(e - s) : strlen(s));
            s = e ? e + 1 : NULL;
        }
        fprintf(j, "]}");
    }
    fprintf(j, "]");
}

static void json_histograms(FILE *j, const mp_job *J)
{
    const uint64_t *hg = J->hg;
    fprintf(j, ",\n \"histograms\": {");
    for (int c = 1; c < MP_NCAT; c++) {
        fprintf(j, "%s\"%s\": {\"bytes\": %llu, \"buckets\": [", c > 1 ? ", " : "", mp_cat_names[c],
                (unsigned long long)hg[MP_NCAT * MP_NBUCKET + c]);
        int first = 1;
        for (int b = 0; b < MP_NBUCKET; b++) {
            uint64_t v = hg[c * MP_NBUCKET + b];
            if (!v)
                continue;
            fprintf(j, "%s{\"lo\": %llu, \"hi\": %llu, \"count\": %llu}", first ? "" : ", ",
                    (unsigned long long)(b ? (uint64_t)1 << (b - 1) : 0),
                    (unsigned long long)(b == 0 ? 0 : b == 64 ? UINT64_MAX : ((uint64_t)1 << b) - 1),
                    (unsigned long long)v);
            first = 0;
        }
        fprintf(j, "]}");
    }
    fprintf(j, "}");
}

static void json_matrix(FILE *j, const mp_job *J)
{
    int P = J->P;
    fprintf(j, ",\n \"matrix\": {\"bytes\": [");
    for (int k = 0; k < 2; k++) {
        if (k)
            fprintf(j, "],\n  \"messages\": [");
        for (int r = 0; r < P; r++) {
            fprintf(j, "%s[", r ? ", " : "");
            for (int c = 0; c < P; c++)
                fprintf(j, "%s%llu", c ? ", " : "", (unsigned long long)mp_job_matrix(J, r, k, c));
            fprintf(j, "]");
        }
    }
    fprintf(j, "],\n  \"outside_bytes\": [");
    for (int r = 0; r < P; r++)
        fprintf(j, "%s%llu", r ? ", " : "", (unsigned long long)mp_job_matrix(J, r, 0, P));
    fprintf(j, "], \"outside_messages\": [");
    for (int r = 0; r < P; r++)
        fprintf(j, "%s%llu", r ? ", " : "", (unsigned long long)mp_job_matrix(J, r, 1, P));
    fprintf(j, "]}");
}

void mp_json_write(FILE *j, const mp_job *J)
{
    json_summary(j, J);
    json_functions(j, J);
    json_sites(j, J);
    json_histograms(j, J);
    json_matrix(j, J);
    fprintf(j, "\n}\n");
}
