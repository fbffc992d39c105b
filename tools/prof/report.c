/* mica-prof: the job's report at MPI_Finalize (report.h): the job's data gathered, then on rank 0
 * the text and JSON files, and the trace when it was asked for. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "report.h"
#include "config.h"
#include "files.h"
#include "job.h"
#include "json.h"
#include "state.h"
#include "text.h"
#include "trace.h"

#include <stdio.h>
#include <sys/stat.h>

/* Rank 0: the text and JSON files */
static void job_write(const mp_job *J)
{
    char path[2048], jpath[2048];
    mp_file_path(path, sizeof path, ".txt");
    mp_file_path(jpath, sizeof jpath, ".json");
    mkdir(mp_cfg.dir, 0777);
    FILE *f = fopen(path, "w");
    FILE *j = fopen(jpath, "w");
    if (f)
        mp_text_write(f, J);
    if (j) {
        mp_json_write(j, J);
        fclose(j);
    }
    if (f)
        fclose(f);
    if (!mp_cfg.quiet)
        fprintf(stderr, "mica-prof: wrote %s and %s\n", path, jpath);
}

void mp_report_final(void)
{
    mp_job J;
    mp_job_gather(&J);
    if (mp_cfg.trace)               /* a collective too: after the gathers, as on every rank */
        mp_trace_write(mp_st.comm, J.rank, J.P, J.rate);
    if (J.rank == 0) {
        mp_job_summarize(&J);
        job_write(&J);
    }
    mp_job_free(&J);
}
