/* Error codes with messages, and the strings of the error classes. */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "core/api_tables.h"
#include "core/errors.h"
#include "core/state.h"

/* What each error class says; the names are generated from api/constants.tsv (api_tables.h). */
static const char *const class_text[MICA_ERROR_CLASSES] = {
    [MPI_SUCCESS] = "no error",
    [MPI_ERR_BUFFER] = "invalid buffer pointer",
    [MPI_ERR_COUNT] = "invalid count argument",
    [MPI_ERR_TYPE] = "invalid datatype",
    [MPI_ERR_TAG] = "invalid tag",
    [MPI_ERR_COMM] = "invalid communicator",
    [MPI_ERR_RANK] = "invalid rank",
    [MPI_ERR_REQUEST] = "invalid request",
    [MPI_ERR_ROOT] = "invalid root",
    [MPI_ERR_GROUP] = "invalid group",
    [MPI_ERR_OP] = "invalid reduction operation",
    [MPI_ERR_TOPOLOGY] = "invalid topology",
    [MPI_ERR_DIMS] = "invalid dimension argument",
    [MPI_ERR_ARG] = "invalid argument",
    [MPI_ERR_UNKNOWN] = "unknown error",
    [MPI_ERR_TRUNCATE] = "message truncated",
    [MPI_ERR_OTHER] = "other error",
    [MPI_ERR_INTERN] = "internal error",
    [MPI_ERR_PENDING] = "pending request",
    [MPI_ERR_IN_STATUS] = "error code is in status",
    [MPI_ERR_ACCESS] = "permission denied",
    [MPI_ERR_AMODE] = "invalid access mode",
    [MPI_ERR_ASSERT] = "invalid assertion",
    [MPI_ERR_BAD_FILE] = "invalid file name",
    [MPI_ERR_BASE] = "invalid base address",
    [MPI_ERR_CONVERSION] = "data conversion failed",
    [MPI_ERR_DISP] = "invalid displacement",
    [MPI_ERR_DUP_DATAREP] = "data representation already registered",
    [MPI_ERR_FILE_EXISTS] = "file exists",
    [MPI_ERR_FILE_IN_USE] = "file in use",
    [MPI_ERR_FILE] = "invalid file handle",
    [MPI_ERR_INFO_KEY] = "invalid info key",
    [MPI_ERR_INFO_NOKEY] = "info key not found",
    [MPI_ERR_INFO_VALUE] = "invalid info value",
    [MPI_ERR_INFO] = "invalid info object",
    [MPI_ERR_IO] = "I/O error",
    [MPI_ERR_KEYVAL] = "invalid key value",
    [MPI_ERR_LOCKTYPE] = "invalid lock type",
    [MPI_ERR_NAME] = "service name not found",
    [MPI_ERR_NO_MEM] = "out of memory",
    [MPI_ERR_NOT_SAME] = "arguments differ between processes",
    [MPI_ERR_NO_SPACE] = "no space left",
    [MPI_ERR_NO_SUCH_FILE] = "no such file",
    [MPI_ERR_PORT] = "invalid port name",
    [MPI_ERR_QUOTA] = "quota exceeded",
    [MPI_ERR_READ_ONLY] = "read-only file or file system",
    [MPI_ERR_RMA_ATTACH] = "memory cannot be attached",
    [MPI_ERR_RMA_CONFLICT] = "conflicting accesses to a window",
    [MPI_ERR_RMA_RANGE] = "access outside the window",
    [MPI_ERR_RMA_SHARED] = "memory cannot be shared",
    [MPI_ERR_RMA_SYNC] = "wrong synchronization of RMA calls",
    [MPI_ERR_SERVICE] = "invalid service name",
    [MPI_ERR_SIZE] = "invalid size",
    [MPI_ERR_SPAWN] = "could not spawn processes",
    [MPI_ERR_UNSUPPORTED_DATAREP] = "unsupported data representation",
    [MPI_ERR_UNSUPPORTED_OPERATION] = "unsupported operation",
    [MPI_ERR_WIN] = "invalid window",
    [MPI_ERR_RMA_FLAVOR] = "wrong window flavor",
    [MPI_ERR_PROC_ABORTED] = "a process aborted",
    [MPI_ERR_VALUE_TOO_LARGE] = "value too large for the output argument",
    [MPI_ERR_SESSION] = "invalid session",
    [MPI_ERR_ERRHANDLER] = "invalid error handler",
    [MPI_ERR_ABI] = "ABI mismatch",
};

/* The ring of messages. A slot is reused after every other slot was: codes are meant to be
 * looked at soon after they are returned, as every MPI implementation's dynamic codes are. */
#define SLOTS (1 << (14 - MICA_CLASS_BITS))
static struct slot {
    char fn[64];
    char msg[400];
} ring[SLOTS];
static atomic_uint ring_next;

int mica_error(int cls, const char *fmt, ...)
{
    if (cls > MPI_ERR_LASTCODE)       /* a user class has no room for a message: itself */
        return cls;
    unsigned n = atomic_fetch_add_explicit(&ring_next, 1, memory_order_relaxed) % (SLOTS - 1) + 1;
    struct slot *s = &ring[n];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->msg, sizeof s->msg, fmt, ap);
    va_end(ap);
    s->fn[0] = '\0';
    return cls | (int)(n << MICA_CLASS_BITS);
}

int mica_bad_handle(unsigned kind, const void *handle, const char *arg)
{
    const struct mica_kind_facts *k = &mica_kind_facts[kind];
    if (handle == mica_null_handle[kind])
        return mica_error(k->error_class, "%s is %s", arg, k->null_name);
    return mica_error(k->error_class, "%s=%p is not a valid %s handle", arg, handle, k->what);
}

int mica_error_inactive(const char *fn)
{
    return mica_error(MPI_ERR_OTHER, mica_phase == MICA_BEFORE
                      ? "%s called before MPI_Init (and outside any MPI session)"
                      : "%s called after MPI_Finalize (and outside any MPI session)", fn);
}

int mica_error_class_of(int code)
{
    if (code > MPI_ERR_LASTCODE)
        return mica_user_error_class(code);
    int cls = code & ((1 << MICA_CLASS_BITS) - 1);
    if (code < 0 || code > MPI_ERR_LASTCODE || cls >= MICA_ERROR_CLASSES)
        return -1;
    if (code >> MICA_CLASS_BITS && !ring[code >> MICA_CLASS_BITS].msg[0])
        return -1;
    return cls;
}

void mica_error_text(int code, char *buf, size_t len)
{
    int cls = mica_error_class_of(code);
    if (cls < 0) {
        snprintf(buf, len, "unknown error code %d", code);
        return;
    }
    if (code > MPI_ERR_LASTCODE) {
        mica_user_error_text(code, buf, len);
        return;
    }
    const struct slot *s = &ring[code >> MICA_CLASS_BITS];
    if (code >> MICA_CLASS_BITS)
        snprintf(buf, len, "%s%s%s (%s: %s)", s->fn, s->fn[0] ? ": " : "", s->msg,
                 mica_error_class_names[cls], class_text[cls]);
    else
        snprintf(buf, len, "%s: %s", mica_error_class_names[cls], class_text[cls]);
}

/* The function that raised a code is part of its message; the first raise names it. */
void mica_error_set_function(int code, const char *fn)
{
    if (code < 0 || code > MPI_ERR_LASTCODE)   /* a user code: its string is the user's */
        return;
    struct slot *s = &ring[code >> MICA_CLASS_BITS];
    if (code >> MICA_CLASS_BITS && !s->fn[0])
        snprintf(s->fn, sizeof s->fn, "%s", fn);
}
