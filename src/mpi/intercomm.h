/* Intercommunicators (intercomm.c), and what comm.c shares with it. */
#ifndef MICA_INTERCOMM_H
#define MICA_INTERCOMM_H

#include "core/comm.h"

/* --- comm.c ---------------------------------------------------------------------------------- */

/* This process's next never-used context id, and taking ids [ctx, ctx + span) if none of them
 * has gone yet (1) or not (0). Lock held. */
uint32_t mica_comm_context_candidate(void);
int mica_comm_context_claim(uint32_t ctx, uint32_t span);
/* A new intracommunicator of `size` members (their world ranks in `world`, malloc'd: taken
 * over) in which we are `rank`, with the error handler of `parent`. */
int mica_comm_make(mica_comm_t *parent, uint32_t context, int size, int rank, int *world,
                   MPI_Comm *newcomm);

/* --- intercomm.c: the intercommunicator forms of comm.c's functions ------------------------ */

/* MPI_Comm_dup (the attributes are copied by the caller). */
int mica_intercomm_dup(mica_comm_t *comm, MPI_Comm *newcomm);
/* MPI_Comm_split with the lock held: each group splits, and a color's local members and
 * remote members make an intercommunicator (MPI_COMM_NULL if either side has none). */
int mica_intercomm_split(mica_comm_t *comm, int color, int key, MPI_Comm *newcomm);
/* The hidden intracommunicator's memory. */
void mica_intercomm_free_local(mica_comm_t *local);

/* The tag of a string tag (MPI_Intercomm_create_from_groups, MPI_Comm_create_from_group): the
 * groups talk on MPI_COMM_WORLD's collective context with mica_coll_group_tag of it. */
int mica_string_tag(const char *s);

#endif
