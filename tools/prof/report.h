/* mica-prof: the job's report, written at MPI_Finalize: gathered from every rank on the tool's
 * communicator, written by rank 0 as text and JSON (and the trace when asked for). */
#ifndef MICA_PROF_REPORT_H
#define MICA_PROF_REPORT_H

/* A collective on the tool's communicator: every rank calls it. */
void mp_report_final(void);

#endif
