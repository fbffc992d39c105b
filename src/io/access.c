/* Data access: explicit offsets, the individual and the shared file pointers; blocking,
 * nonblocking (complete at once), collective (independent I/O, which the standard allows) and
 * split collective. Positions count etypes of the view; data moves with pread/pwrite. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/errors.h"
#include "core/request.h"
#include "core_api.h"
#include "io/io.h"

enum { READ, WRITE };

/* The view's data bytes that (count, type) become: their bytes in memory, or in external32. */
static MPI_Count stream_bytes(const mica_file_t *fh, MPI_Count count, const mica_type_t *type)
{
    if (fh->datarep != MICA_DATAREP_EXTERNAL32)
        return count * type->size;
    return count * mica_type_external32_extent(type);
}

/* The bytes of memory that the first `bytes` data bytes of the view fill with (count, type):
 * for external32, the whole elements among them (a status counts those). */
static MPI_Count memory_bytes(const mica_file_t *fh, MPI_Count bytes, const mica_type_t *type)
{
    if (fh->datarep != MICA_DATAREP_EXTERNAL32 || !bytes)
        return bytes;
    return bytes / mica_type_external32_extent(type) * type->size;
}

static int check_access(mica_file_t *fh, int dir, MPI_Count count, mica_type_t *type)
{
    if (dir == READ && (fh->amode & MPI_MODE_WRONLY))
        return mica_error(MPI_ERR_ACCESS, "fh was opened MPI_MODE_WRONLY: cannot read");
    if (dir == WRITE && (fh->amode & MPI_MODE_RDONLY))
        return mica_error(MPI_ERR_READ_ONLY, "fh was opened MPI_MODE_RDONLY: cannot write");
    if (!mica_type_ready(type))
        return mica_error(MPI_ERR_TYPE, "datatype is not committed");
    MPI_Count one = mica_type_external32_extent(type);
    if (fh->datarep == MICA_DATAREP_EXTERNAL32 && (one < 0 || (count && one > INT64_MAX / count)))
        return mica_error(MPI_ERR_COUNT, "count=%lld of datatype take more bytes of external32 "
                          "than MPI_Offset holds", (long long)count);
    if (stream_bytes(fh, count, type) % fh->etype->size)
        return mica_error(MPI_ERR_IO, "count=%lld of datatype is not a whole number of etypes",
                          (long long)count);
    return MPI_SUCCESS;
}

static int not_sequential(mica_file_t *fh, const char *what)
{
    if (fh->amode & MPI_MODE_SEQUENTIAL)
        return mica_error(MPI_ERR_UNSUPPORTED_OPERATION,
                          "fh was opened MPI_MODE_SEQUENTIAL: no %s", what);
    return MPI_SUCCESS;
}

/* Move (buf, count, type) to or from the view's data bytes from `d` on; `moved` gets the data
 * bytes moved, fewer than asked when a read meets the end of the file. external32 data goes
 * through a buffer in that representation, of which a short read unpacks the whole elements. */
static int move(mica_file_t *fh, int dir, MPI_Offset d, void *buf, MPI_Count count,
                mica_type_t *type, MPI_Count *moved)
{
    MPI_Count bytes = stream_bytes(fh, count, type), done = 0, pos = 0;
    int external = fh->datarep == MICA_DATAREP_EXTERNAL32, rc = MPI_SUCCESS;
    char *mem, *packed = NULL;
    *moved = 0;
    if (!bytes)
        return MPI_SUCCESS;
    if (type->contiguous && !external) {
        mem = (char *)buf + type->true_lb;
    } else {
        if (!(packed = malloc((size_t)bytes)))
            return mica_error(MPI_ERR_NO_MEM, "no memory to pack %lld bytes", (long long)bytes);
        if (dir == WRITE && external)
            rc = mica_pack_external_c("external32", buf, count, type, packed, bytes, &pos);
        else if (dir == WRITE)
            mica_type_pack(buf, count, type, 0, packed, bytes);
        if (rc != MPI_SUCCESS) {
            free(packed);
            return rc;
        }
        mem = packed;
    }
    int err = 0;
    while (done < bytes) {
        MPI_Offset contiguous, at = mica_io_view_map(fh, d + done, &contiguous);
        size_t n = (size_t)(contiguous < bytes - done ? contiguous : bytes - done);
        ssize_t r = dir == WRITE ? pwrite(fh->fd, mem + done, n, at)
                                 : pread(fh->fd, mem + done, n, at);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            err = errno;
            break;
        }
        if (r == 0) {                 /* end of file (a write of 0 bytes: no space) */
            err = dir == WRITE ? ENOSPC : 0;
            break;
        }
        done += r;
    }
    if (dir == READ && packed && external) {
        MPI_Count whole = done / (bytes / count);
        rc = mica_unpack_external_c("external32", packed, done, &pos, buf, whole, type);
    } else if (dir == READ && packed) {
        mica_type_unpack(buf, count, type, 0, packed, done);
    }
    free(packed);
    *moved = done;
    if (rc != MPI_SUCCESS)
        return rc;
    if (err)
        return mica_error(mica_io_errno_class(err), "fh: %s at data byte %lld of the view: %s",
                          dir == WRITE ? "writing" : "reading", (long long)(d + done),
                          strerror(err));
    return MPI_SUCCESS;
}

/* Atomic mode (MPI_File_set_atomicity): an access holds a lock on the file bytes it spans
 * (a view's displacements never decrease), shared to read, exclusive to write, so that another
 * process's access sees all of it or none. Open file description locks: one per open file, so
 * threads and other files of the process do not interfere. */
static int lock_span(mica_file_t *fh, int dir, MPI_Offset d, MPI_Count bytes, int unlock)
{
    MPI_Offset contiguous, first = mica_io_view_map(fh, d, &contiguous);
    MPI_Offset last = mica_io_view_map(fh, d + bytes - 1, &contiguous);
    struct flock l = {.l_type = unlock ? F_UNLCK : dir == WRITE ? F_WRLCK : F_RDLCK,
                      .l_whence = SEEK_SET, .l_start = first, .l_len = last - first + 1};
    while (fcntl(fh->fd, F_OFD_SETLKW, &l) < 0)
        if (errno != EINTR)
            return mica_error(MPI_ERR_IO, "fh: locking bytes %lld to %lld for atomic mode: %s",
                              (long long)first, (long long)last, strerror(errno));
    return MPI_SUCCESS;
}

/* move(), in atomic mode under a lock on the bytes it spans. */
static int transfer(mica_file_t *fh, int dir, MPI_Offset d, void *buf, MPI_Count count,
                    mica_type_t *type, MPI_Count *moved)
{
    MPI_Count bytes = stream_bytes(fh, count, type);
    if (!fh->atomic || !bytes)
        return move(fh, dir, d, buf, count, type, moved);
    *moved = 0;
    int rc = lock_span(fh, dir, d, bytes, 0);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = move(fh, dir, d, buf, count, type, moved);
    lock_span(fh, dir, d, bytes, 1);
    return rc;
}

static void set_status(MPI_Status *status, MPI_Count bytes)
{
    if (status == MPI_STATUS_IGNORE)
        return;
    status->MPI_SOURCE = MPI_PROC_NULL;
    status->MPI_TAG = MPI_ANY_TAG;
    status->MPI_internal[MICA_STATUS_CANCELLED] = 0;
    mica_status_set_count(status, bytes);
}

/* Where an access is: at an explicit offset, at the individual or at the shared pointer, or
 * (the ordered collectives, ordered() below) at the shared pointer in rank order. */
enum where { AT, INDIVIDUAL, SHARED, ORDERED };

static int access_(mica_file_t *fh, int dir, enum where where, MPI_Offset offset, void *buf,
                   MPI_Count count, mica_type_t *type, MPI_Status *status)
{
    int rc = check_access(fh, dir, count, type);
    if (rc == MPI_SUCCESS && where != SHARED)  /* sequential files: the shared pointer only */
        rc = not_sequential(fh, where == AT ? "explicit offsets" : "individual file pointer");
    if (rc == MPI_SUCCESS && where == AT && offset < 0)
        rc = mica_error(MPI_ERR_ARG, "offset=%lld is negative", (long long)offset);
    if (rc != MPI_SUCCESS)
        return rc;
    MPI_Offset etsize = fh->etype->size, etypes = stream_bytes(fh, count, type) / etsize;
    if (where == INDIVIDUAL)
        offset = fh->position;
    else if (where == SHARED && (rc = mica_io_shared_fetch_add(fh, etypes, &offset)) != MPI_SUCCESS)
        return rc;
    MPI_Count moved;
    rc = transfer(fh, dir, offset * etsize, buf, count, type, &moved);
    if (where == INDIVIDUAL)
        fh->position += moved / etsize;
    set_status(status, memory_bytes(fh, moved, type));
    return rc;
}

/* The ordered collectives: each rank's data follows that of the lower ranks, from the shared
 * pointer on; rank 0 moves the pointer past all of it. */
static int ordered(mica_file_t *fh, int dir, void *buf, MPI_Count count, mica_type_t *type,
                   MPI_Status *status)
{
    int rc = check_access(fh, dir, count, type);
    mica_comm_t *comm = fh->comm;
    MPI_Offset mine = rc == MPI_SUCCESS ? stream_bytes(fh, count, type) / fh->etype->size : 0;
    MPI_Offset *all = malloc((size_t)comm->size * sizeof *all);
    if (!all)
        return mica_error(MPI_ERR_NO_MEM, "no memory for the ordered access");
    int crc = mica_allgather_c(&mine, 1, &mica_type_MPI_OFFSET, all, 1, &mica_type_MPI_OFFSET,
                               comm);
    MPI_Offset base = 0, before = 0, total = 0;
    for (int i = 0; i < comm->size; i++) {
        before += i < comm->rank ? all[i] : 0;
        total += all[i];
    }
    free(all);
    if (crc != MPI_SUCCESS)
        return crc;
    int src = MPI_SUCCESS;
    if (comm->rank == 0)
        src = mica_io_shared_fetch_add(fh, total, &base);
    if ((crc = mica_bcast_c(&base, 1, &mica_type_MPI_OFFSET, 0, comm)) != MPI_SUCCESS)
        return crc;
    if (rc != MPI_SUCCESS)
        return rc;
    if (src != MPI_SUCCESS)
        return src;
    MPI_Count moved;
    rc = transfer(fh, dir, (base + before) * fh->etype->size, buf, count, type, &moved);
    set_status(status, memory_bytes(fh, moved, type));
    return rc;
}

/* The blocking calls; the int-count forms reach these through their large-count twins. */
int mica_file_read_c(mica_file_t *fh, void *buf, MPI_Count count, mica_type_t *datatype,
                     MPI_Status *status)
{
    return access_(fh, READ, INDIVIDUAL, 0, buf, count, datatype, status);
}

int mica_file_read_all_c(mica_file_t *fh, void *buf, MPI_Count count, mica_type_t *datatype,
                         MPI_Status *status)
{
    return access_(fh, READ, INDIVIDUAL, 0, buf, count, datatype, status);
}

int mica_file_read_shared_c(mica_file_t *fh, void *buf, MPI_Count count, mica_type_t *datatype,
                            MPI_Status *status)
{
    return access_(fh, READ, SHARED, 0, buf, count, datatype, status);
}

int mica_file_write_c(mica_file_t *fh, const void *buf, MPI_Count count, mica_type_t *datatype,
                      MPI_Status *status)
{
    return access_(fh, WRITE, INDIVIDUAL, 0, (void *)buf, count, datatype, status);
}

int mica_file_write_all_c(mica_file_t *fh, const void *buf, MPI_Count count, mica_type_t *datatype,
                          MPI_Status *status)
{
    return access_(fh, WRITE, INDIVIDUAL, 0, (void *)buf, count, datatype, status);
}

int mica_file_write_shared_c(mica_file_t *fh, const void *buf, MPI_Count count,
                             mica_type_t *datatype, MPI_Status *status)
{
    return access_(fh, WRITE, SHARED, 0, (void *)buf, count, datatype, status);
}

int mica_file_read_at_c(mica_file_t *fh, MPI_Offset offset, void *buf, MPI_Count count,
                        mica_type_t *datatype, MPI_Status *status)
{
    return access_(fh, READ, AT, offset, buf, count, datatype, status);
}

int mica_file_read_at_all_c(mica_file_t *fh, MPI_Offset offset, void *buf, MPI_Count count,
                            mica_type_t *datatype, MPI_Status *status)
{
    return access_(fh, READ, AT, offset, buf, count, datatype, status);
}

int mica_file_write_at_c(mica_file_t *fh, MPI_Offset offset, const void *buf, MPI_Count count,
                         mica_type_t *datatype, MPI_Status *status)
{
    return access_(fh, WRITE, AT, offset, (void *)buf, count, datatype, status);
}

int mica_file_write_at_all_c(mica_file_t *fh, MPI_Offset offset, const void *buf, MPI_Count count,
                             mica_type_t *datatype, MPI_Status *status)
{
    return access_(fh, WRITE, AT, offset, (void *)buf, count, datatype, status);
}

int mica_file_read_ordered_c(mica_file_t *fh, void *buf, MPI_Count count, mica_type_t *datatype,
                             MPI_Status *status)
{
    return ordered(fh, READ, buf, count, datatype, status);
}

int mica_file_write_ordered_c(mica_file_t *fh, const void *buf, MPI_Count count,
                              mica_type_t *datatype, MPI_Status *status)
{
    return ordered(fh, WRITE, (void *)buf, count, datatype, status);
}

/* Nonblocking calls do their I/O at once and return a request that is already complete. */
static int access_completed(mica_file_t *fh, int dir, enum where where, MPI_Offset offset,
                            void *buf, MPI_Count count, mica_type_t *type, MPI_Request *request)
{
    MPI_Status s = {0};
    int rc = access_(fh, dir, where, offset, buf, count, type, &s);
    if (rc != MPI_SUCCESS)
        return rc;
    mica_request_t *r = mica_request_new(MICA_REQ_NULL_PROC);
    if (!r)
        return mica_error(MPI_ERR_NO_MEM, "no memory for a request");
    r->status = s;
    r->status.MPI_ERROR = MPI_SUCCESS;
    mica_request_complete(r);
    *request = (MPI_Request)r->obj.handle;
    return MPI_SUCCESS;
}

int mica_file_iread_c(mica_file_t *fh, void *buf, MPI_Count count, mica_type_t *datatype,
                      MPI_Request *request)
{
    return access_completed(fh, READ, INDIVIDUAL, 0, buf, count, datatype, request);
}

int mica_file_iread_all_c(mica_file_t *fh, void *buf, MPI_Count count, mica_type_t *datatype,
                          MPI_Request *request)
{
    return access_completed(fh, READ, INDIVIDUAL, 0, buf, count, datatype, request);
}

int mica_file_iread_shared_c(mica_file_t *fh, void *buf, MPI_Count count, mica_type_t *datatype,
                             MPI_Request *request)
{
    return access_completed(fh, READ, SHARED, 0, buf, count, datatype, request);
}

int mica_file_iwrite_c(mica_file_t *fh, const void *buf, MPI_Count count, mica_type_t *datatype,
                       MPI_Request *request)
{
    return access_completed(fh, WRITE, INDIVIDUAL, 0, (void *)buf, count, datatype, request);
}

int mica_file_iwrite_all_c(mica_file_t *fh, const void *buf, MPI_Count count, mica_type_t *datatype,
                           MPI_Request *request)
{
    return access_completed(fh, WRITE, INDIVIDUAL, 0, (void *)buf, count, datatype, request);
}

int mica_file_iwrite_shared_c(mica_file_t *fh, const void *buf, MPI_Count count,
                              mica_type_t *datatype, MPI_Request *request)
{
    return access_completed(fh, WRITE, SHARED, 0, (void *)buf, count, datatype, request);
}

int mica_file_iread_at_c(mica_file_t *fh, MPI_Offset offset, void *buf, MPI_Count count,
                         mica_type_t *datatype, MPI_Request *request)
{
    return access_completed(fh, READ, AT, offset, buf, count, datatype, request);
}

int mica_file_iread_at_all_c(mica_file_t *fh, MPI_Offset offset, void *buf, MPI_Count count,
                             mica_type_t *datatype, MPI_Request *request)
{
    return access_completed(fh, READ, AT, offset, buf, count, datatype, request);
}

int mica_file_iwrite_at_c(mica_file_t *fh, MPI_Offset offset, const void *buf, MPI_Count count,
                          mica_type_t *datatype, MPI_Request *request)
{
    return access_completed(fh, WRITE, AT, offset, (void *)buf, count, datatype, request);
}

int mica_file_iwrite_at_all_c(mica_file_t *fh, MPI_Offset offset, const void *buf, MPI_Count count,
                              mica_type_t *datatype, MPI_Request *request)
{
    return access_completed(fh, WRITE, AT, offset, (void *)buf, count, datatype, request);
}

/* Split collectives: _begin does the access, _end hands over its status. One at a time per
 * file, and the _end must match the _begin. */
enum split { SPLIT_NONE, SPLIT_READ_ALL, SPLIT_WRITE_ALL, SPLIT_READ_AT_ALL, SPLIT_WRITE_AT_ALL,
             SPLIT_READ_ORDERED, SPLIT_WRITE_ORDERED };

static int split_begin(mica_file_t *fh, enum split kind, int dir, enum where where,
                       MPI_Offset offset, void *buf, MPI_Count count, mica_type_t *type)
{
    if (fh->split_active)
        return mica_error(MPI_ERR_OTHER, "fh has a split collective in progress: "
                          "call its _end first");
    MPI_Status s = {0};
    int rc = where == ORDERED ? ordered(fh, dir, buf, count, type, &s)
                              : access_(fh, dir, where, offset, buf, count, type, &s);
    if (rc != MPI_SUCCESS)
        return rc;
    fh->split_active = kind;
    fh->split_status = s;
    return MPI_SUCCESS;
}

static int split_end(mica_file_t *fh, enum split kind, MPI_Status *status)
{
    if (fh->split_active != (int)kind)
        return mica_error(MPI_ERR_OTHER, "fh has no matching split collective in progress");
    fh->split_active = SPLIT_NONE;
    if (status != MPI_STATUS_IGNORE) {
        int error = status->MPI_ERROR;
        *status = fh->split_status;
        status->MPI_ERROR = error;
    }
    return MPI_SUCCESS;
}

int mica_file_read_all_begin_c(mica_file_t *fh, void *buf, MPI_Count count, mica_type_t *datatype)
{
    return split_begin(fh, SPLIT_READ_ALL, READ, INDIVIDUAL, 0, buf, count, datatype);
}

int mica_file_read_all_end(mica_file_t *fh, void *buf, MPI_Status *status)
{
    (void)buf;
    return split_end(fh, SPLIT_READ_ALL, status);
}

int mica_file_write_all_begin_c(mica_file_t *fh, const void *buf, MPI_Count count,
                                mica_type_t *datatype)
{
    return split_begin(fh, SPLIT_WRITE_ALL, WRITE, INDIVIDUAL, 0, (void *)buf, count, datatype);
}

int mica_file_write_all_end(mica_file_t *fh, const void *buf, MPI_Status *status)
{
    (void)buf;
    return split_end(fh, SPLIT_WRITE_ALL, status);
}

int mica_file_read_at_all_begin_c(mica_file_t *fh, MPI_Offset offset, void *buf, MPI_Count count,
                                  mica_type_t *datatype)
{
    return split_begin(fh, SPLIT_READ_AT_ALL, READ, AT, offset, buf, count, datatype);
}

int mica_file_read_at_all_end(mica_file_t *fh, void *buf, MPI_Status *status)
{
    (void)buf;
    return split_end(fh, SPLIT_READ_AT_ALL, status);
}

int mica_file_write_at_all_begin_c(mica_file_t *fh, MPI_Offset offset, const void *buf,
                                   MPI_Count count, mica_type_t *datatype)
{
    return split_begin(fh, SPLIT_WRITE_AT_ALL, WRITE, AT, offset, (void *)buf, count, datatype);
}

int mica_file_write_at_all_end(mica_file_t *fh, const void *buf, MPI_Status *status)
{
    (void)buf;
    return split_end(fh, SPLIT_WRITE_AT_ALL, status);
}

int mica_file_read_ordered_begin_c(mica_file_t *fh, void *buf, MPI_Count count,
                                   mica_type_t *datatype)
{
    return split_begin(fh, SPLIT_READ_ORDERED, READ, ORDERED, 0, buf, count, datatype);
}

int mica_file_read_ordered_end(mica_file_t *fh, void *buf, MPI_Status *status)
{
    (void)buf;
    return split_end(fh, SPLIT_READ_ORDERED, status);
}

int mica_file_write_ordered_begin_c(mica_file_t *fh, const void *buf, MPI_Count count,
                                    mica_type_t *datatype)
{
    return split_begin(fh, SPLIT_WRITE_ORDERED, WRITE, ORDERED, 0, (void *)buf, count, datatype);
}

int mica_file_write_ordered_end(mica_file_t *fh, const void *buf, MPI_Status *status)
{
    (void)buf;
    return split_end(fh, SPLIT_WRITE_ORDERED, status);
}

/* File pointers. */
static int seek_target(mica_file_t *fh, MPI_Offset current, MPI_Offset offset, int whence,
                       MPI_Offset *target)
{
    MPI_Offset base;
    int rc = MPI_SUCCESS;
    switch (whence) {
    case MPI_SEEK_SET: base = 0; break;
    case MPI_SEEK_CUR: base = current; break;
    case MPI_SEEK_END: rc = mica_io_view_end(fh, &base); break;
    default: return mica_error(MPI_ERR_ARG, "whence=%d is not MPI_SEEK_SET, MPI_SEEK_CUR or "
                               "MPI_SEEK_END", whence);
    }
    if (rc != MPI_SUCCESS)
        return rc;
    if (base + offset < 0)
        return mica_error(MPI_ERR_ARG, "offset=%lld would put the file pointer before the view",
                          (long long)offset);
    *target = base + offset;
    return MPI_SUCCESS;
}

int mica_file_seek(mica_file_t *fh, MPI_Offset offset, int whence)
{
    int rc = not_sequential(fh, "individual file pointer");
    if (rc == MPI_SUCCESS)
        rc = seek_target(fh, fh->position, offset, whence, &fh->position);
    return rc;
}

int mica_file_get_position(mica_file_t *fh, MPI_Offset *offset)
{
    int rc = not_sequential(fh, "individual file pointer");
    if (rc == MPI_SUCCESS)
        *offset = fh->position;
    return rc;
}

int mica_file_get_position_shared(mica_file_t *fh, MPI_Offset *offset)
{
    return mica_io_shared_fetch_add(fh, 0, offset);
}

/* Collective: every rank is past its earlier shared accesses before rank 0 moves the pointer,
 * and none goes on before it has. */
int mica_file_seek_shared(mica_file_t *fh, MPI_Offset offset, int whence)
{
    if (whence != MPI_SEEK_SET && whence != MPI_SEEK_CUR && whence != MPI_SEEK_END)
        return mica_error(MPI_ERR_ARG, "whence=%d is not MPI_SEEK_SET, MPI_SEEK_CUR or "
                          "MPI_SEEK_END", whence);
    int rc = mica_barrier(fh->comm);
    if (rc != MPI_SUCCESS)
        return rc;
    int cls = 0, local = MPI_SUCCESS;
    if (fh->comm->rank == 0) {
        MPI_Offset current = 0, target = 0;
        local = mica_io_shared_fetch_add(fh, 0, &current);
        if (local == MPI_SUCCESS)
            local = seek_target(fh, current, offset, whence, &target);
        if (local == MPI_SUCCESS)
            local = mica_io_shared_set(fh, target);
        cls = local == MPI_SUCCESS ? 0 : mica_error_class_of(local);
    }
    rc = mica_bcast_c(&cls, 1, &mica_type_MPI_INT, 0, fh->comm);
    if (rc != MPI_SUCCESS)
        return rc;
    if (local != MPI_SUCCESS)
        return local;
    return cls ? mica_error(cls, "offset=%lld: the shared file pointer could not be moved",
                            (long long)offset) : MPI_SUCCESS;
}
