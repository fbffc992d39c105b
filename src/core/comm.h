/* Communicators. */
#ifndef MICA_COMM_H
#define MICA_COMM_H

#include "core/objects.h"

struct mica_comm {
    mica_errobj_t eo;
    int rank, size;
    int remote_size;                  /* == size for intracommunicators */
    int *world;                       /* world rank of each (local) rank (NULL: the identity) */
    int inter;                        /* an intercommunicator (intercomm.c)? */
    int *remote_world;                /* intercommunicators: world rank of each remote rank */
    struct mica_comm *local;          /* intercommunicators: a hidden intracommunicator of the
                                       * local group, for the local phases of collectives */
    uint32_t context;                 /* point-to-point context id; context + 1 for collectives */
    struct mica_bsend_buffer *bsend;  /* MPI_Comm_attach_buffer's, or NULL */
    struct mica_attrs *attrs;         /* cached attributes (attr.c), or NULL */
    struct mica_topo *topo;           /* its process topology (src/topo), or NULL */
    uint32_t coll_seq;                /* nonblocking collectives started so far (coll/sched.h) */
    char name[MPI_MAX_OBJECT_NAME];
};

_Static_assert(offsetof(struct mica_comm, eo) == 0, "the error object comes first");

/* Context ids of the predefined communicators; new ones start above them (comm.c). */
#define MICA_CONTEXT_WORLD 0
#define MICA_CONTEXT_SELF 2
#define MICA_CONTEXT_FIRST_FREE 4

extern mica_comm_t mica_comm_world, mica_comm_self;

/* A pending nonblocking collective keeps its communicator alive past MPI_Comm_free; the last
 * release frees it. Predefined communicators are never freed. */
void mica_comm_retain(mica_comm_t *comm);
void mica_comm_release(mica_comm_t *comm);
/* A duplicate of intracommunicator `comm` for the library's own traffic (an open file's, a
 * window's): no attributes copied, so no user callback runs. Collective; free it with
 * mica_comm_free. */
int mica_comm_dup_hidden(mica_comm_t *comm, MPI_Comm *newcomm);

/* The world rank of `rank` in `comm`. */
static inline int mica_comm_world_rank(const mica_comm_t *comm, int rank)
{
    return comm->world ? comm->world[rank] : rank;
}

/* The world rank of the process that point-to-point rank `rank` names: a member of the remote
 * group on an intercommunicator. */
static inline int mica_comm_peer_world(const mica_comm_t *comm, int rank)
{
    return comm->inter ? comm->remote_world[rank] : mica_comm_world_rank(comm, rank);
}

/* Is this process the root of a rooted collective? On an intercommunicator the root says
 * MPI_ROOT; the others of its group say MPI_PROC_NULL, the other group the root's rank. */
static inline int mica_comm_is_root(const mica_comm_t *comm, int root)
{
    return comm->inter ? root == MPI_ROOT : comm->rank == root;
}

/* Does this process contribute data to (or get data from) a rooted collective's root? Every
 * process of an intracommunicator; on an intercommunicator, the group without the root. */
static inline int mica_comm_is_leaf(const mica_comm_t *comm, int root)
{
    return !comm->inter || root >= 0;
}

#endif
