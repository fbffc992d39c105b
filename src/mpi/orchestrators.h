/* The orchestrators (src/mpi): the MPI functions that set the floors below to work together
 * (init and finalize, sessions, communicator construction, intercommunicators, completion and
 * generalized requests, MPI_Start). What they offer one another besides the entry points that
 * the bindings call (core_api.h). */
#ifndef MICA_ORCHESTRATORS_H
#define MICA_ORCHESTRATORS_H

/* Start the runtime if nothing uses it yet, or count one more user; stop it when the last
 * user finalizes (collective over the job then). 0 on success, -1 (message printed). Starting
 * it registers the modules' operations on the core's seams. (init.c) */
int mica_runtime_start(void);
int mica_runtime_stop(void);

/* Generalized requests' operations (core/request.h). (wait.c) */
void mica_grequest_register(void);

#endif
