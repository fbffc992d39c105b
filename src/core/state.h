/* The process's MPI state: where it is in its life, and what MPI_Init gave it. */
#ifndef MICA_STATE_H
#define MICA_STATE_H

#include <pthread.h>
#include "core/objects.h"

enum mica_phase { MICA_BEFORE, MICA_ACTIVE, MICA_AFTER };

extern enum mica_phase mica_phase;
extern int mica_thread_level;          /* what MPI_Init_thread provided */
extern pthread_t mica_main_thread;     /* the thread that called MPI_Init */
extern mica_errhandler_t *mica_initial_errhandler;

/* The runtime runs while the world model (MPI_Init) or a session needs it; MPI calls other
 * than the few allowed at any time need it running. */
extern int mica_runtime_up __attribute__((visibility("hidden")));  /* one load, no GOT */
static inline int mica_active(void) { return mica_runtime_up; }
/* End the whole job now: `msg` to stderr, exit status from `code` (never 0). */
_Noreturn void mica_abort_job(int code, const char *msg);

#define MICA_TAG_UB 0x7fffffff

#endif
