/* mica-prof: this rank's own files (DIR/NAME.rank<r>.json and .txt), written when the job does
 * not reach MPI_Finalize, or at MPI_Pcontrol(3). */
#ifndef MICA_PROF_RANKFILE_H
#define MICA_PROF_RANKFILE_H

/* why: the reason written in the file; safe = 0 in a signal handler (no allocation, no address
 * lookup: call sites are written as addresses). */
void mp_write_rank_file(const char *why, int safe);

#endif
