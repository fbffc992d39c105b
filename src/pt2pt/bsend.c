/* Buffered sends: the data is packed into the buffer the user attached, and that space is
 * given back when the send completes. MPI_BUFFER_AUTOMATIC lets the library allocate instead. */
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

static struct {
    char *buf;                        /* NULL: none attached; MPI_BUFFER_AUTOMATIC: malloc */
    MPI_Count size;
    extent_t *used;
    int pending;                      /* buffered sends not complete yet */
} bb;

int mica_bsend_copy(mica_request_t *r)
{
    size_t need = (size_t)r->bytes + MPI_BSEND_OVERHEAD;
    char *at = NULL;
    if (bb.buf == MPI_BUFFER_AUTOMATIC) {
        at = malloc(need);
    } else if (bb.buf) {              /* first fit between the extents in use */
        char *from = bb.buf;
        extent_t **pe = &bb.used;
        for (;; pe = &(*pe)->next) {
            char *to = *pe ? (*pe)->start : bb.buf + bb.size;
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
                          bb.buf ? "not enough is free" : "no buffer is attached (MPI_Buffer_attach)");
    mica_type_pack(r->buf, r->count, r->type, 0, at, r->bytes);
    r->bsend_buf = at;
    bb.pending++;
    return MPI_SUCCESS;
}

void mica_bsend_release(mica_request_t *r)
{
    if (bb.buf == MPI_BUFFER_AUTOMATIC) {
        free(r->bsend_buf);
    } else {
        for (extent_t **pe = &bb.used; *pe; pe = &(*pe)->next)
            if ((*pe)->req == r) {
                extent_t *e = *pe;
                *pe = e->next;
                free(e);
                break;
            }
    }
    r->bsend_buf = NULL;
    bb.pending--;
}

int mica_buffer_attach_c(void *buffer, MPI_Count size)
{
    if (bb.buf)
        return mica_error(MPI_ERR_BUFFER, "a buffer is already attached");
    if (!buffer)
        return mica_error(MPI_ERR_BUFFER, "buffer is NULL");
    if (size < 0)
        return mica_error(MPI_ERR_ARG, "size=%lld is negative", (long long)size);
    bb.buf = buffer;
    bb.size = buffer == MPI_BUFFER_AUTOMATIC ? 0 : size;
    return MPI_SUCCESS;
}

int mica_buffer_flush(void)
{
    mica_lock();
    MICA_WAIT_UNTIL(bb.pending == 0);
    mica_unlock();
    return MPI_SUCCESS;
}

int mica_buffer_detach_c(void *buffer_addr, MPI_Count *size)
{
    if (!bb.buf)
        return mica_error(MPI_ERR_BUFFER, "no buffer is attached");
    mica_buffer_flush();
    *(void **)buffer_addr = bb.buf;
    *size = bb.size;
    bb.buf = NULL;
    bb.size = 0;
    return MPI_SUCCESS;
}

int mica_buffer_detach(void *buffer_addr, int *size)
{
    MPI_Count s = 0;
    int rc = mica_buffer_detach_c(buffer_addr, &s);
    if (rc == MPI_SUCCESS)
        *size = (int)s;
    return rc;
}
