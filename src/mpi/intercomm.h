/* Intercommunicators (intercomm.c): the intercommunicator forms of the constructors of
 * mpi/comm.c, and its extension, the hidden intracommunicator of the local group. */
#ifndef MICA_INTERCOMM_H
#define MICA_INTERCOMM_H

#include "core/comm.h"

/* MPI_Comm_dup (the attributes are copied by the caller). */
int mica_intercomm_dup(mica_comm_t *comm, MPI_Comm *newcomm);
/* MPI_Comm_idup's duplicate, made before its context ids are agreed: they are
 * MICA_CONTEXT_NONE until the caller sets them (its own and its local communicator's). */
int mica_intercomm_dup_pending(mica_comm_t *comm, MPI_Comm *newcomm);
/* MPI_Comm_split with the lock held: each group splits, and a color's local members and
 * remote members make an intercommunicator (MPI_COMM_NULL if either side has none). */
int mica_intercomm_split(mica_comm_t *comm, int color, int key, MPI_Comm *newcomm);
/* Register the hidden intracommunicator as a communicator extension (core/comm.h). */
void mica_intercomm_register(void);

/* The tag of a string tag (MPI_Intercomm_create_from_groups, MPI_Comm_create_from_group): the
 * groups talk on MPI_COMM_WORLD's collective context with mica_coll_group_tag of it. */
int mica_string_tag(const char *s);

#endif
