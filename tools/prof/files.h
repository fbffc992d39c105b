/* mica-prof: the names of the files the tool writes: DIR/NAME<suffix>, NAME being
 * MICA_PROF_NAME or mica-prof.<job id>; a rank's own files add .rank<r> (.pid<p> before the
 * rank is known). Built without printf, so usable in a signal handler. */
#ifndef MICA_PROF_FILES_H
#define MICA_PROF_FILES_H

#include <stddef.h>

void mp_file_path(char *out, size_t n, const char *suffix);
/* ".rank<r><ext>"; r < 0: this process's rank, from the launcher's environment */
void mp_file_rank_suffix_of(long r, char *out, size_t n, const char *ext);
/* the same for this process's rank */
void mp_file_rank_suffix(char *out, size_t n, const char *ext);
/* Open for writing (made or truncated), the directory made first. */
int mp_file_open(const char *path);
/* After an exit without MPI_Finalize: wait up to mp_cfg.exit_wait seconds for every rank's file.
 * Launchers stop the job when its first rank exits (Hydra with SIGKILL, which no handler sees),
 * so the first ranks out keep it alive while the others, on their way out too, write theirs. */
void mp_wait_rank_files(void);

#endif
