/* mica-prof: this rank's own files (rankfile.h), JSON and a short text, when the job does not
 * reach MPI_Finalize, or at MPI_Pcontrol(3). Written with the signal-safe writer. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "rankfile.h"
#include "config.h"
#include "files.h"
#include "local.h"
#include "sites.h"
#include "writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void w_stat_fields(mp_wbuf *w, const mp_stat *s, double rate)
{
    mp_w_s(w, "\"calls\": ");
    mp_w_u(w, s->calls);
    mp_w_s(w, ", \"time\": ");
    mp_w_d(w, (double)s->ticks / rate);
    mp_w_s(w, ", \"time_min_call\": ");
    mp_w_d(w, s->calls ? (double)s->tmin / rate : 0);
    mp_w_s(w, ", \"time_max_call\": ");
    mp_w_d(w, (double)s->tmax / rate);
    mp_w_s(w, ", \"bytes_sent\": ");
    mp_w_u(w, s->sent);
    mp_w_s(w, ", \"bytes_recv\": ");
    mp_w_u(w, s->recv);
}

static void w_hist_json(mp_wbuf *w, const uint64_t hist[MP_NCAT][MP_NBUCKET], const uint64_t *hbytes)
{
    mp_w_s(w, "{");
    for (int c = 1; c < MP_NCAT; c++) {
        mp_w_s(w, c > 1 ? ", " : "");
        mp_w_js(w, mp_cat_names[c]);
        mp_w_s(w, ": {\"bytes\": ");
        mp_w_u(w, hbytes[c]);
        mp_w_s(w, ", \"buckets\": [");
        int first = 1;
        for (int b = 0; b < MP_NBUCKET; b++) {
            if (!hist[c][b])
                continue;
            mp_w_s(w, first ? "" : ", ");
            first = 0;
            mp_w_s(w, "{\"lo\": ");
            mp_w_u(w, b ? (uint64_t)1 << (b - 1) : 0);
            mp_w_s(w, ", \"hi\": ");
            mp_w_u(w, b == 0 ? 0 : b == 64 ? UINT64_MAX : ((uint64_t)1 << b) - 1);
            mp_w_s(w, ", \"count\": ");
            mp_w_u(w, hist[c][b]);
            mp_w_s(w, "}");
        }
        mp_w_s(w, "]}");
    }
    mp_w_s(w, "}");
}

static void write_rank_file(mp_wbuf *w, char *path, char *suffix, const char *why, int safe);

void mp_write_rank_file(const char *why, int safe)
{
    static mp_wbuf W;                  /* static: no stack or heap use in a signal handler */
    static char path[2048], suffix[64];
    static int busy;
    mp_wbuf *w = &W;
    if (__atomic_exchange_n(&busy, 1, __ATOMIC_ACQUIRE))
        return;                     /* another thread (or a signal on this one) is writing */
    write_rank_file(w, path, suffix, why, safe);
    __atomic_store_n(&busy, 0, __ATOMIC_RELEASE);
}

static void write_rank_file(mp_wbuf *w, char *path, char *suffix, const char *why, int safe)
{
    mp_local_merge();
    double rate = mp_loc.rate;
    static char final[2048];
    mp_file_rank_suffix(suffix, 64, ".json");
    mp_file_path(final, sizeof final, suffix);
    mp_file_rank_suffix(suffix, 64, ".json.tmp");
    mp_file_path(path, 2048, suffix);
    w->fd = mp_file_open(path);
    if (w->fd < 0)
        return;
    w->n = 0;
    mp_w_s(w, "{\"tool\": \"mica-prof\", \"version\": 1, \"complete\": false, \"reason\": ");
    mp_w_js(w, why);
    mp_w_s(w, ", \"id\": ");
    mp_w_js(w, mp_st.id);
    mp_w_s(w, ", \"rank\": ");
    mp_w_i(w, mp_st.rank);
    mp_w_s(w, ", \"ranks\": ");
    mp_w_i(w, mp_world_size);
    mp_w_s(w, ", \"pid\": ");
    mp_w_i(w, mp_st.pid);
    mp_w_s(w, ", \"threads\": ");
    mp_w_i(w, mp_loc.nthreads);
    mp_w_s(w, ", \"clock\": ");
    mp_w_js(w, mp_use_tsc ? "tsc" : "monotonic");
    mp_w_s(w, ", \"run_time\": ");
    mp_w_d(w, mp_loc.run);
    mp_w_s(w, ", \"collected_time\": ");
    mp_w_d(w, mp_loc.collected);
    mp_w_s(w, ", \"mpi_time\": ");
    mp_w_d(w, mp_loc.mpi);
    mp_w_s(w, ",\n \"functions\": [");
    int first = 1;
    for (int i = 0; i < MP_NFUNC; i++) {
        if (!mp_loc.f[i].calls)
            continue;
        mp_w_s(w, first ? "\n  {\"name\": " : ",\n  {\"name\": ");
        first = 0;
        mp_w_js(w, mp_fname[i]);
        mp_w_s(w, ", ");
        w_stat_fields(w, &mp_loc.f[i], rate);
        mp_w_s(w, "}");
    }
    mp_w_s(w, "],\n \"sites\": [");
    first = 1;
    if (safe) {
        int n = 0;
        mp_lsite *ls = mp_sites_local(&n);
        for (int i = 0; i < n; i++) {
            mp_w_s(w, first ? "\n  {\"function\": " : ",\n  {\"function\": ");
            first = 0;
            mp_w_js(w, mp_fname[ls[i].fid]);
            mp_w_s(w, ", ");
            w_stat_fields(w, &ls[i].st, rate);
            mp_w_s(w, ", \"location\": [");
            char *s = ls[i].loc;
            for (int j = 0; s; j++) {
                char *e = strchr(s, '\x1e');
                if (e)
                    *e = 0;
                mp_w_s(w, j ? ", " : "");
                mp_w_js(w, s);
                s = e ? e + 1 : NULL;
            }
            mp_w_s(w, "]}");
            free(ls[i].loc);
        }
        free(ls);
    } else {
        for (mp_thread *t = mp_threads; t; t = t->next)
            for (int i = 0; mp_thread_current(t) && t->sites && i < mp_cfg.max_sites; i++) {
                const mp_site *s = &t->sites[i];
                if (!s->used)
                    continue;
                mp_w_s(w, first ? "\n  {\"function\": " : ",\n  {\"function\": ");
                first = 0;
                mp_w_js(w, mp_fname[s->fid]);
                mp_w_s(w, ", ");
                w_stat_fields(w, &s->st, rate);
                mp_w_s(w, ", \"location\": [");
                for (int j = 0; j < mp_cfg.depth; j++) {
                    mp_w_s(w, j ? ", \"" : "\"");
                    mp_w_hex(w, s->pc[j]);
                    mp_w_s(w, "\"");
                }
                mp_w_s(w, "]}");
            }
    }
    mp_w_s(w, "],\n \"histograms\": ");
    w_hist_json(w, (const uint64_t(*)[MP_NBUCKET])mp_loc.hist, mp_loc.hbytes);
    mp_w_s(w, ",\n \"matrix_row\": {\"bytes\": [");
    int n = mp_world_size;
    for (int k = 0; k < 2; k++) {
        if (k)
            mp_w_s(w, "], \"messages\": [");
        for (int j = 0; j <= n && n > 0; j++) {
            uint64_t v = 0;
            for (mp_thread *t = mp_threads; t; t = t->next)
                if (mp_thread_current(t) && t->row && t->row_n == n)
                    v += t->row[2 * j + k];
            mp_w_s(w, j ? ", " : "");
            mp_w_u(w, v);
        }
    }
    mp_w_s(w, "]}\n}\n");
    mp_w_flush(w);
    close(w->fd);
    rename(path, final);            /* a reader never sees half a file */

    /* and a short readable text */
    mp_file_rank_suffix(suffix, 64, ".txt");
    mp_file_path(path, 2048, suffix);
    w->fd = mp_file_open(path);
    if (w->fd < 0)
        return;
    mp_w_s(w, "mica-prof: partial profile of rank ");
    mp_w_i(w, mp_st.rank);
    mp_w_s(w, " (");
    mp_w_s(w, why);
    mp_w_s(w, ")\nrun time ");
    mp_w_d(w, mp_loc.run);
    mp_w_s(w, " s, MPI time ");
    mp_w_d(w, mp_loc.mpi);
    mp_w_s(w, " s\n\nfunction                         calls          time (s)      bytes sent      bytes recv\n");
    for (int i = 0; i < MP_NFUNC; i++) {
        if (!mp_loc.f[i].calls)
            continue;
        mp_w_s(w, mp_fname[i]);
        for (size_t k = strlen(mp_fname[i]); k < 32; k++)
            mp_w_s(w, " ");
        mp_w_s(w, " ");
        mp_w_u(w, mp_loc.f[i].calls);
        mp_w_s(w, "  ");
        mp_w_d(w, (double)mp_loc.f[i].ticks / rate);
        mp_w_s(w, "  ");
        mp_w_u(w, mp_loc.f[i].sent);
        mp_w_s(w, "  ");
        mp_w_u(w, mp_loc.f[i].recv);
        mp_w_s(w, "\n");
    }
    mp_w_flush(w);
    close(w->fd);
}

