/* mica-prof: the Chrome/Perfetto timeline (trace.h): each rank writes its events, rank 0 joins
 * them into one file. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "trace.h"
#include "config.h"
#include "files.h"
#include "state.h"
#include "thread.h"

#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

void mp_trace_write(MPI_Comm comm, int rank, int P, double rate)
{
    char path[2048], suffix[64];
    snprintf(suffix, sizeof suffix, ".trace.%d.part", rank);
    mp_file_path(path, sizeof path, suffix);
    FILE *f = (mkdir(mp_cfg.dir, 0777), fopen(path, "w"));
    double off_us = ((double)mp_st.wall0 - (double)mp_st.wall_base) / 1e3;
    int first = 1;
    for (mp_thread *t = mp_threads; f && t; t = t->next) {
        if (!mp_thread_current(t) || t->ev == NULL)
            continue;
        for (uint64_t i = 0; i < t->nev; i++) {
            const mp_event *e = &t->ev[i];
            fprintf(f, "%s{\"name\":\"%s\",\"ph\":\"X\",\"pid\":%d,\"tid\":%u,\"ts\":%.3f,\"dur\":%.3f}",
                    first ? "" : ",\n", mp_fname[e->fid], rank, e->tid,
                    off_us + (double)(e->t0 - mp_st.tick0) / rate * 1e6, (double)e->dt / rate * 1e6);
            first = 0;
        }
    }
    if (f)
        fclose(f);
    PMPI_Barrier(comm);
    if (rank != 0)
        return;
    mp_file_path(path, sizeof path, ".trace.json");
    FILE *o = fopen(path, "w");
    if (o == NULL)
        return;
    fprintf(o, "{\"displayTimeUnit\": \"ms\", \"traceEvents\": [\n");
    for (int r = 0; r < P; r++)
        fprintf(o, "%s{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,\"args\":{\"name\":\"rank %d\"}}",
                r ? ",\n" : "", r, r);
    for (int r = 0; r < P; r++) {
        char part[2048];
        snprintf(suffix, sizeof suffix, ".trace.%d.part", r);
        mp_file_path(part, sizeof part, suffix);
        FILE *in = fopen(part, "r");
        if (in == NULL)
            continue;
        int c = fgetc(in);
        if (c != EOF) {
            fputs(",\n", o);
            fputc(c, o);
            char buf[65536];
            size_t k;
            while ((k = fread(buf, 1, sizeof buf, in)) > 0)
                fwrite(buf, 1, k, o);
        }
        fclose(in);
        unlink(part);
    }
    fprintf(o, "\n]}\n");
    fclose(o);
}
