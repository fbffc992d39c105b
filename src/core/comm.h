/* Communicators. */
#ifndef MICA_COMM_H
#define MICA_COMM_H

#include "core/objects.h"

struct mica_comm {
    mica_errobj_t eo;
    int rank, size;
    int remote_size;                  /* == size for intracommunicators */
    int *world;                       /* world rank of each (local) rank (NULL: the identity) */
    int inter;                        /* an intercommunicator (mpi/intercomm.c)? */
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
/* Free a communicator's memory now (one that was never handed out, or the last release). */
void mica_comm_destroy(mica_comm_t *comm);

/* Context ids (comm.c tells how they are chosen and reused). An offer is what a process brings
 * to an agreement: its free window pairs (a bit each), its high-water mark, and whether it
 * wants a confirmation round (it runs MPI_THREAD_MULTIPLE). The members combine their offers
 * with mica_comm_context_combine (a reduction of MICA_CONTEXT_OFFER uint32s over the parent, of
 * the whole vector at once: its words differ in kind), then each chooses from the combined offer
 * the same n pairs (1, or 2 for an intercommunicator: 0 when out of ids) and claims them (0:
 * another thread took one of them meanwhile; none taken). A communicator's ids go back when it
 * is destroyed; release gives back one that no communicator got. All with the lock held. */
#define MICA_CONTEXT_SLOTS 2048       /* reusable pairs: a 256-byte mask to reduce */
#define MICA_CONTEXT_WORDS (MICA_CONTEXT_SLOTS / 32)
#define MICA_CONTEXT_HIGH (MICA_CONTEXT_FIRST_FREE + 2 * MICA_CONTEXT_SLOTS)
#define MICA_CONTEXT_NEXT MICA_CONTEXT_WORDS            /* offer[]: the high-water mark */
#define MICA_CONTEXT_CONFIRM (MICA_CONTEXT_WORDS + 1)   /* offer[]: a confirmation round */
#define MICA_CONTEXT_OFFER (MICA_CONTEXT_WORDS + 2)
/* Offer: what this process brings, the window pairs in it promised to this agreement until
 * withdraw (called with the same offer, kept apart from the reduction's buffer) when the
 * agreement ends, whatever its outcome. */
void mica_comm_context_offer(uint32_t offer[MICA_CONTEXT_OFFER], int confirm);
void mica_comm_context_withdraw(const uint32_t offer[MICA_CONTEXT_OFFER]);
/* Is any of the n chosen ids above the window (then the members must confirm their claims)? */
int mica_comm_context_above(const uint32_t *ctx, int n);
/* The context of a communicator whose ids are not agreed yet (MPI_Comm_idup's until it
 * completes): above every id ever handed out, never released. */
#define MICA_CONTEXT_NONE ((uint32_t)INT32_MAX + 2u)
void mica_comm_context_combine(const uint32_t *in, uint32_t *inout);
int mica_comm_context_choose(const uint32_t agreed[MICA_CONTEXT_OFFER], int n, uint32_t *ctx);
int mica_comm_context_claim(const uint32_t *ctx, int n);
void mica_comm_context_release(uint32_t ctx);
/* A new intracommunicator of `size` members (their world ranks in `world`, malloc'd: taken
 * over) in which we are `rank`, with the error handler of `parent`. It takes over the claimed
 * `context` too: given back if it fails. */
int mica_comm_make(mica_comm_t *parent, uint32_t context, int size, int rank, int *world,
                   MPI_Comm *newcomm);
/* The world ranks of `comm`'s members, as a new array (NULL: no memory). */
int *mica_comm_world_ranks(const mica_comm_t *comm);

/* Extensions: modules above the core hang data on a communicator (its topology, an
 * intercommunicator's hidden local communicator). Each kind registers, when MPI starts, how to
 * free it with the communicator and how MPI_Comm_dup copies it (NULL: not copied). */
typedef struct mica_comm_ext {
    void (*free)(mica_comm_t *comm);
    int (*copy)(const mica_comm_t *comm, mica_comm_t *dup);
} mica_comm_ext_t;
void mica_comm_register_ext(const mica_comm_ext_t *ext);
/* Copy every extension of `comm` that copies to its duplicate `dup`; the first error. */
int mica_comm_copy_ext(const mica_comm_t *comm, mica_comm_t *dup);

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

/* A member of a split (MPI_Comm_split, MPI_Intercomm_merge): its key and its rank in the
 * parent; qsort with mica_comm_member_order puts them in (key, rank) order. */
typedef struct mica_comm_member {
    int key, rank;
} mica_comm_member_t;
int mica_comm_member_order(const void *a, const void *b);

#endif
