/* Persistent collectives (MPI_Bcast_init ... and MPI_Neighbor_*_init): the init call checks the
 * arguments, binds them (copying the arrays, keeping the datatypes and the operation alive) and
 * takes the communicator's next collective sequence number; every MPI_Start then builds the
 * operation's schedule anew with that number (coll/sched.h says why that matches) and runs it
 * on the same request, which a wait leaves inactive for the next start. */
#ifndef MICA_PERSIST_H
#define MICA_PERSIST_H

#include "coll/sched.h"

typedef struct mica_pcoll mica_pcoll_t;

/* A new inactive persistent request for the collective that `build` builds from `a` on `comm`
 * (the arguments already checked). */
int mica_pcoll_init(mica_comm_t *comm, mica_coll_build_fn *build, const mica_coll_args_t *a,
                    MPI_Request *request);
/* Start it (MPI_Start, lock held, the request already marked active); on error it is inactive
 * again and nothing was sent. */
int mica_pcoll_start(mica_request_t *r);
/* With its request. */
void mica_pcoll_free(mica_pcoll_t *p);

#endif
