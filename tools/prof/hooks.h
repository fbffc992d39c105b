/* mica-prof: hooks that run on every call of a few functions, collecting or not: the start and
 * end of MPI (the tool's communicator, the job's name, the report), MPI_Abort, MPI_Pcontrol;
 * and, installed when the library is loaded, the exit handler and fatal signal handlers that
 * write each rank's own file when the job does not reach MPI_Finalize. */
#ifndef MICA_PROF_HOOKS_H
#define MICA_PROF_HOOKS_H

void mp_after_init(void);
void mp_after_session_init(void);
void mp_before_finalize(void);
void mp_on_abort(void);
void mp_pcontrol(int level);

#endif
