/* The point-to-point engine (engine.c), below the MPI-facing functions. Under the big lock. */
#ifndef MICA_ENGINE_H
#define MICA_ENGINE_H

#include "core/request.h"
#include "pt2pt/pt2pt.h"

int mica_pt2pt_init(int rank, int size);
void mica_pt2pt_finalize(void);
int mica_pt2pt_poll(void);
/* Has every packet been handed to its ring? */
int mica_pt2pt_flushed(void);

/* Start a filled-in send or receive request (buf, count, type, peer, tag, comm, context,
 * bytes, mode). Completion sets the request done. */
void mica_pt2pt_start_send(mica_request_t *r);
/* The fast path of a blocking standard send: hand a small message to the ring at once, with no
 * request; 0 when it cannot be (too large, the ring is full, or earlier sends are queued). */
int mica_pt2pt_send_now(const void *buf, MPI_Count count, mica_type_t *type, int dest, int tag,
                        mica_comm_t *comm, uint32_t context);
void mica_pt2pt_start_recv(mica_request_t *r);
/* Cancel a receive not yet matched: 1 if cancelled. */
int mica_pt2pt_cancel_recv(mica_request_t *r);
/* Ask to cancel a send: 1 if asked (the request completes when the receiver has answered, as
 * cancelled unless it had matched the message), 0 if it cannot be cancelled any more (matched,
 * streaming, a buffered send's copy in flight). */
int mica_pt2pt_cancel_send(mica_request_t *r);

/* Is a matching message waiting? Fills *status (may be NULL) like a receive would. */
int mica_pt2pt_probe(uint32_t context, int src, int tag, MPI_Status *status);
/* The same, but the message is taken: only mica_pt2pt_mrecv can receive it. */
void *mica_pt2pt_mprobe(uint32_t context, int src, int tag, MPI_Status *status);
void mica_pt2pt_mrecv(mica_request_t *r, void *msg);

/* Make a started send or receive a part of `parent`, whose `pending` counts its parts: taken in
 * at once if it is complete already (its status, or its error, given to parent), else left to
 * complete parent when it does. The caller completes parent when pending is 0. */
void mica_pt2pt_adopt(mica_request_t *parent, mica_request_t *part);

/* What a send or receive request gives back as it goes (send.c): its communicator, retained
 * by the nonblocking and persistent forms. */
void mica_pt2pt_request_free(mica_request_t *r);

/* MPI_Bsend's copy is given back to the attached buffer when its send completes. */
void mica_pt2pt_bsend_release(mica_request_t *r);
int mica_pt2pt_bsend_copy(mica_request_t *r);

#endif
