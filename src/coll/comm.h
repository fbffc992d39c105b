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
/* The end of an agreement at each member: choose n pairs from the combined offer `agreed`, claim
 * them (*ok: claimed) and withdraw this process's offer `mine`. Returns 1 if the members must
 * confirm, each its *ok, and try again unless all claimed (every member decides alike, from the
 * combined offer): the choice is above the window, or a member runs threads that could have
 * taken an id meanwhile (core/comm.c); else 0, an id not claimed being an error in *rc. */
int mica_coll_comm_choose(const uint32_t *agreed, const uint32_t *mine, int n, uint32_t *ctx,
                          int *ok, int *rc);
/* The operation that combines context offers (core/comm.h), of MICA_CONTEXT_OFFER uint32s. */
extern mica_op_t mica_coll_op_context;
/* The same without blocking (MPI_Comm_idup): the agreement of n = 1 pair over an
 * intracommunicator's members, or 2 over both groups of an intercommunicator, runs as schedules
 * advanced by the progress engine, on the tags of the next nonblocking collective of `comm`
 * (taken now). done(arg, rc, ctx) is called when it ends (from the progress engine, or before
 * this returns), with the n claimed ids in ctx[] if rc is MPI_SUCCESS. An error returned here
 * means done will not be called. `comm` must live until then. */
typedef void mica_coll_agreed_fn(void *arg, int rc, const uint32_t *ctx);
int mica_coll_comm_iagree(mica_comm_t *comm, mica_coll_agreed_fn *done, void *arg);
/* A duplicate of intracommunicator `comm` for the library's own traffic (an open file's, a
 * window's): no attributes copied, so no user callback runs. Collective; free it with
 * mica_comm_free. */
int mica_coll_comm_dup_hidden(mica_comm_t *comm, MPI_Comm *newcomm);
/* MPI_Comm_split of intracommunicator `comm`, the color already checked, with the lock held. */
int mica_coll_comm_split(mica_comm_t *comm, int color, int key, MPI_Comm *newcomm);

#endif
