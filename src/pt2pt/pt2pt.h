/* Point-to-point inside the library: what the MPI point-to-point functions and the collectives
 * are built on. Collectives talk on their communicator's collective context, so their messages
 * never match the user's. */
#ifndef MICA_PT2PT_H
#define MICA_PT2PT_H

#include "core/comm.h"
#include "core/datatype.h"
#include "core/request.h"

enum mica_context { MICA_CTX_PT2PT = 0, MICA_CTX_COLL = 1 };
enum mica_send_mode { MICA_SEND_STANDARD, MICA_SEND_SYNC, MICA_SEND_READY, MICA_SEND_BUFFERED };

/* MPI_SUCCESS if `type` may be communicated (it is committed), else an MPI_ERR_TYPE error. */
int mica_pt2pt_check_type(const mica_type_t *type);
/* Complete r as a send to, or a receive from, MPI_PROC_NULL. */
void mica_pt2pt_complete_proc_null(mica_request_t *r);

/* Start a send or a receive; *req is an internal request to complete with mica_request_wait. */
int mica_pt2pt_isend(const void *buf, MPI_Count count, mica_type_t *type, int dest, int tag,
                     mica_comm_t *comm, enum mica_context ctx, enum mica_send_mode mode,
                     mica_request_t **req);
int mica_pt2pt_irecv(void *buf, MPI_Count count, mica_type_t *type, int source, int tag,
                     mica_comm_t *comm, enum mica_context ctx, mica_request_t **req);

/* A partitioned message's tag on the collective context (part.c): below the tags of
 * MPI_Comm_create_group's messages (coll/coll.h), one per user tag modulo 2^30 - 2. */
static inline int mica_pt2pt_part_tag(int tag)
{
    return MPI_ANY_TAG - 1 - 0x40000000 - tag % 0x3ffffffe;
}

/* Complete such a request with mica_request_wait (core/request.h). Hang pt2pt's request
 * operations and its progress poll on the core's seams (at MPI's start). */
void mica_pt2pt_register(void);
extern const mica_request_ops_t mica_pt2pt_recv_ops;    /* recv.c's, for the registration */
extern const mica_request_ops_t mica_pt2pt_part_ops;    /* part.c's */

#endif
