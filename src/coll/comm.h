/* Communicators that the members make by a collective over their parent (comm.c): agreeing on
 * a context id, and the intracommunicator duplicate and split that the library itself needs
 * below the orchestrators (a file's or a window's own communicator, a topology's). The user's
 * MPI_Comm_dup, MPI_Comm_split and friends build on these in mpi/comm.c. */
#ifndef MICA_COLL_COMM_H
#define MICA_COLL_COMM_H

#include "core/comm.h"

/* Agree with the other members of `comm` on a context id no member uses, and claim it here
 * (lock held; `tag`: the tag of comm's collective context to agree on). The caller hands it
 * to mica_comm_make, or gives it back with mica_comm_context_release. */
int mica_coll_comm_agree(mica_comm_t *comm, int tag, uint32_t *context);
/* The operation that combines context offers (core/comm.h), of MICA_CONTEXT_OFFER uint32s. */
extern mica_op_t mica_coll_op_context;
/* A duplicate of intracommunicator `comm` for the library's own traffic (an open file's, a
 * window's): no attributes copied, so no user callback runs. Collective; free it with
 * mica_comm_free. */
int mica_coll_comm_dup_hidden(mica_comm_t *comm, MPI_Comm *newcomm);
/* MPI_Comm_split of intracommunicator `comm`, the color already checked, with the lock held. */
int mica_coll_comm_split(mica_comm_t *comm, int color, int key, MPI_Comm *newcomm);

#endif
