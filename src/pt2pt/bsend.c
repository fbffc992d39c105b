/* Buffered sends: the data is packed into the buffer the user attached (to the communicator,
 * or else to the process), and that space is given back when the send completes.
 * MPI_BUFFER_AUTOMATIC lets the library allocate instead. */
#include <stdlib.h>

#include "core/errors.h"
#include "core/progress.h"
#include "core_api.h"
#include "pt2pt/engine.h"

/* Space in use in the attached buffer, in address order. */
typedef struct extent {
    struct extent *next;
    char *start, *end;
    mica_request_t *req;
} extent_t;

typedef struct mica_bsend_buffer {
    char *buf;                        /* NULL: none attached; MPI_BUFFER_AUTOMATIC: malloc */
    MPI_Count size;
    extent_t *used;
    int pending;                      /* buffered sends not complete yet */
} bbuf_t;

static bbuf_t process_buffer;

/* The buffer a buffered send on `comm` uses. */
static bbuf_t *buffer_of(mica_comm_t *comm)
{
    return comm->bsend && comm->bsend->buf ? comm->bsend : &process_buffer;
}

int mica_pt2pt_bsend_copy(mica_request_t *r)
{
    bbuf_t *b = buffer_of(r->comm);
    size_t need = (size_t)r->bytes + MPI_BSEND_OVERHEAD;
    char *at = NULL;
    if (b->buf == MPI_BUFFER_AUTOMATIC) {
        at = malloc(need);
    } else if (b->buf) {              /* first fit between the extents in use */
        char *from = b->buf;
        extent_t **pe = &b->used;
        for (;; pe = &(*pe)->next) {
            char *to = *pe ? (*pe)->start : b->buf + b->size;
            if ((size_t)(to - from) >= need) {
                at = from;
                break;
            }
            if (!*pe)
                break;
            from = (*pe)->end;
        }
        if (at) {
            extent_t *e = malloc(sizeof *e);
            if (!e)
                return mica_error(MPI_ERR_NO_MEM, "no memory");
            *e = (extent_t){.next = *pe, .start = at, .end = at + need, .req = r};
            *pe = e;
        }
    }
    if (!at)
        return mica_error(MPI_ERR_BUFFER, "a buffered send of %lld bytes needs %zu bytes of "
                          "attached buffer; %s", (long long)r->bytes, need,
                          b->buf ? "not enough is free" : "no buffer is attached (MPI_Buffer_attach)");
    mica_type_pack(r->buf, r->count, r->type, 0, at, r->bytes);
    r->bsend_buf = at;
    b->pending++;
    return MPI_SUCCESS;
}

void mica_pt2pt_bsend_release(mica_request_t *r)
{
    bbuf_t *b = buffer_of(r->comm);
    if (b->buf == MPI_BUFFER_AUTOMATIC) {
        free(r->bsend_buf);
    } else {
        for (extent_t **pe = &b->used; *pe; pe = &(*pe)->next)
            if ((*pe)->req == r) {
                extent_t *e = *pe;
                *pe = e->next;
                free(e);
                break;
            }
    }
    r->bsend_buf = NULL;
    b->pending--;
}

static int attach(bbuf_t *b, void *buffer, MPI_Count size)
{
    if (b->buf)
        return mica_error(MPI_ERR_BUFFER, "a buffer is already attached");
    if (!buffer)
        return mica_error(MPI_ERR_BUFFER, "buffer is NULL");
    if (size < 0)
        return mica_error(MPI_ERR_ARG, "size=%lld is negative", (long long)size);
    b->buf = buffer;
    b->size = buffer == MPI_BUFFER_AUTOMATIC ? 0 : size;
    return MPI_SUCCESS;
}

static void flush(bbuf_t *b)
{
    MICA_WAIT_UNTIL(b->pending == 0);
}

/* Detaching waits for the buffer's sends: then its memory is the user's again. */
static int detach(bbuf_t *b, void *buffer_addr, MPI_Count *size)
{
    if (!b || !b->buf)
        return mica_error(MPI_ERR_BUFFER, "no buffer is attached");
    flush(b);
    *(void **)buffer_addr = b->buf;
    *size = b->size;
    b->buf = NULL;
    b->size = 0;
    return MPI_SUCCESS;
}

int mica_buffer_attach_c(void *buffer, MPI_Count size)
{
    return attach(&process_buffer, buffer, size);
}

int mica_buffer_flush(void)
{
    flush(&process_buffer);
    return MPI_SUCCESS;
}

int mica_buffer_detach_c(void *buffer_addr, MPI_Count *size)
{
    return detach(&process_buffer, buffer_addr, size);
}

int mica_comm_attach_buffer_c(mica_comm_t *comm, void *buffer, MPI_Count size)
{
    if (!comm->bsend && !(comm->bsend = calloc(1, sizeof *comm->bsend)))
        return mica_error(MPI_ERR_NO_MEM, "no memory");
    return attach(comm->bsend, buffer, size);
}

int mica_comm_flush_buffer(mica_comm_t *comm)
{
    if (comm->bsend)
        flush(comm->bsend);
    return MPI_SUCCESS;
}

int mica_comm_detach_buffer_c(mica_comm_t *comm, void *buffer_addr, MPI_Count *size)
{
    return detach(comm->bsend, buffer_addr, size);
}

/* The int forms of detach: the size of a buffer attached with them fits an int. */
int mica_buffer_detach(void *buffer_addr, int *size)
{
    MPI_Count s = 0;
    int rc = mica_buffer_detach_c(buffer_addr, &s);
    *size = (int)s;
    return rc;
}

int mica_comm_detach_buffer(mica_comm_t *comm, void *buffer_addr, int *size)
{
    MPI_Count s = 0;
    int rc = mica_comm_detach_buffer_c(comm, buffer_addr, &s);
    *size = (int)s;
    return rc;
}
