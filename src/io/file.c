/* Files: open, close, delete, sizes, and the file's attributes; the shared file pointer. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "coll/comm.h"
#include "core/errors.h"
#include "core/op.h"
#include "core_api.h"
#include "io/io.h"

/* MPI_FILE_NULL's error handler: the default for new files, MPI_ERRORS_RETURN as the standard
 * says, and where errors of MPI_File_open, MPI_File_delete and bad file handles go. */
mica_errobj_t mica_file_null_eo = {.obj = {.handle = (uintptr_t)MPI_FILE_NULL},
                                   .errhandler = &mica_errors_return};

int mica_io_errno_class(int err)
{
    switch (err) {
    case ENOENT: return MPI_ERR_NO_SUCH_FILE;
    case EEXIST: return MPI_ERR_FILE_EXISTS;
    case EACCES: case EPERM: return MPI_ERR_ACCESS;
    case EROFS: return MPI_ERR_READ_ONLY;
    case ENOSPC: case EFBIG: return MPI_ERR_NO_SPACE;
    case EDQUOT: return MPI_ERR_QUOTA;
    case ETXTBSY: case EBUSY: return MPI_ERR_FILE_IN_USE;
    case ENAMETOOLONG: case ENOTDIR: case EISDIR: case ELOOP: return MPI_ERR_BAD_FILE;
    default: return MPI_ERR_IO;
    }
}

/* Every rank learns the worst error class any rank had (0: none): collective operations on a
 * file succeed or fail together. */
static int agree(mica_comm_t *comm, int cls)
{
    int all = cls;
    int rc = mica_allreduce_c(&cls, &all, 1, &mica_type_MPI_INT, &mica_op_MPI_MAX, comm);
    return rc != MPI_SUCCESS ? rc : all;
}

static int check_amode(int amode)
{
    const int known = MPI_MODE_RDONLY | MPI_MODE_RDWR | MPI_MODE_WRONLY | MPI_MODE_CREATE |
                      MPI_MODE_EXCL | MPI_MODE_DELETE_ON_CLOSE | MPI_MODE_UNIQUE_OPEN |
                      MPI_MODE_SEQUENTIAL | MPI_MODE_APPEND;
    int access = !!(amode & MPI_MODE_RDONLY) + !!(amode & MPI_MODE_RDWR) +
                 !!(amode & MPI_MODE_WRONLY);
    if (amode & ~known)
        return mica_error(MPI_ERR_AMODE, "amode=%#x has unknown bits", amode);
    if (access != 1)
        return mica_error(MPI_ERR_AMODE, "amode=%#x must have exactly one of MPI_MODE_RDONLY, "
                          "MPI_MODE_RDWR and MPI_MODE_WRONLY", amode);
    if ((amode & MPI_MODE_RDONLY) && (amode & (MPI_MODE_CREATE | MPI_MODE_EXCL)))
        return mica_error(MPI_ERR_AMODE, "amode=%#x: MPI_MODE_RDONLY with MPI_MODE_CREATE or "
                          "MPI_MODE_EXCL", amode);
    if ((amode & MPI_MODE_RDWR) && (amode & MPI_MODE_SEQUENTIAL))
        return mica_error(MPI_ERR_AMODE, "amode=%#x: MPI_MODE_RDWR with MPI_MODE_SEQUENTIAL",
                          amode);
    return MPI_SUCCESS;
}

static int open_flags(int amode)
{
    /* Never O_APPEND: pwrite would ignore its offset. MPI_MODE_APPEND only places the pointers. */
    return amode & MPI_MODE_RDONLY ? O_RDONLY : amode & MPI_MODE_WRONLY ? O_WRONLY : O_RDWR;
}

/* What rank 0 tells the others after creating the file and the shared pointer's file. */
struct open_news {
    int cls;
    char shared_path[1024];
};

/* Rank 0: create the file if asked, and the shared file pointer's file, holding `initial`. */
static int open_first(const char *filename, int amode, struct open_news *news, int *err)
{
    if (amode & MPI_MODE_CREATE) {
        int flags = open_flags(amode) | O_CREAT | (amode & MPI_MODE_EXCL ? O_EXCL : 0);
        int fd = open(filename, flags, 0666);
        if (fd < 0)
            return *err = errno, mica_io_errno_class(errno);
        close(fd);
    }
    const char *dir = getenv("TMPDIR");
    snprintf(news->shared_path, sizeof news->shared_path, "%s/.mica-shared-fp-XXXXXX",
             dir && *dir ? dir : "/tmp");
    int fd = mkstemp(news->shared_path);
    if (fd < 0) {
        snprintf(news->shared_path, sizeof news->shared_path, "/tmp/.mica-shared-fp-XXXXXX");
        fd = mkstemp(news->shared_path);
    }
    if (fd < 0)
        return *err = errno, MPI_ERR_IO;
    close(fd);
    return 0;
}

static void file_free(mica_file_t *f)
{
    if (f->fd >= 0)
        close(f->fd);
    if (f->shared_fd >= 0)
        close(f->shared_fd);
    mica_io_view_free(f);
    free(f->path);
    free(f->shared_path);
    if (f->eo.errhandler)
        mica_errhandler_release(f->eo.errhandler);
    if (f->comm) {
        MPI_Comm c = (MPI_Comm)f->comm->eo.obj.handle;
        mica_comm_free(&c);
    }
    mica_obj_free(f);
}

int mica_file_open(mica_comm_t *comm, const char *filename, int amode, mica_info_t *info,
                   MPI_File *fh)
{
    (void)info;
    *fh = MPI_FILE_NULL;
    if (comm->inter)
        return mica_error(MPI_ERR_COMM, "comm is an intercommunicator");
    if (!filename)
        return mica_error(MPI_ERR_BAD_FILE, "filename is NULL");
    int rc = check_amode(amode);      /* the same amode everywhere: all fail alike */
    if (rc != MPI_SUCCESS)
        return rc;
    mica_file_t *f = mica_obj_new(MICA_FILE, sizeof *f);
    if (!f)
        return mica_error(MPI_ERR_NO_MEM, "no memory for a file");
    f->fd = f->shared_fd = -1;
    f->amode = amode;
    f->eo.errhandler = mica_errhandler_retain(mica_file_null_eo.errhandler);
    MPI_Comm dup;
    if ((rc = mica_coll_comm_dup_hidden(comm, &dup)) != MPI_SUCCESS) {
        file_free(f);
        return rc;
    }
    f->comm = mica_comm_lookup(dup);

    struct open_news news = {0};
    int err = 0;
    if (f->comm->rank == 0)
        news.cls = open_first(filename, amode, &news, &err);
    rc = mica_bcast_c(&news, sizeof news, &mica_type_MPI_BYTE, 0, f->comm);
    int cls = rc != MPI_SUCCESS ? MPI_ERR_OTHER : news.cls;
    if (!cls) {
        f->path = strdup(filename);
        f->shared_path = strdup(news.shared_path);
        if (!f->path || !f->shared_path)
            cls = MPI_ERR_NO_MEM;
        else if ((f->fd = open(filename, open_flags(amode))) < 0)
            err = errno, cls = mica_io_errno_class(errno);
        else if ((f->shared_fd = open(news.shared_path, O_RDWR)) < 0)
            err = errno, cls = MPI_ERR_IO;
        else
            cls = mica_io_view_init(f) != MPI_SUCCESS ? MPI_ERR_NO_MEM : 0;
    }
    if (!cls && (amode & MPI_MODE_APPEND)) {
        /* Both pointers start at the end (the default view counts bytes from 0). */
        struct stat st;
        if (fstat(f->fd, &st) < 0)
            err = errno, cls = MPI_ERR_IO;
        else
            f->position = st.st_size;
        if (!cls && f->comm->rank == 0 && mica_io_shared_set(f, st.st_size) != MPI_SUCCESS)
            cls = MPI_ERR_IO;
    }
    int all = agree(f->comm, cls);
    if (all) {
        if (f->comm->rank == 0 && news.shared_path[0])
            unlink(news.shared_path);
        file_free(f);
        if (err)
            return mica_error(all, "filename=\"%s\": %s", filename, strerror(err));
        return mica_error(all, "filename=\"%s\" could not be opened (on another rank)", filename);
    }
    *fh = (MPI_File)f->eo.obj.handle;
    return MPI_SUCCESS;
}

int mica_file_close(MPI_File *fh)
{
    mica_file_t *f = mica_file_lookup(*fh);
    close(f->fd);
    close(f->shared_fd);
    f->fd = f->shared_fd = -1;
    int rc = mica_barrier(f->comm);   /* every rank is done with the file */
    int cls = 0, err = 0;
    if (f->comm->rank == 0) {
        unlink(f->shared_path);
        if ((f->amode & MPI_MODE_DELETE_ON_CLOSE) && unlink(f->path) < 0)
            err = errno, cls = mica_io_errno_class(errno);
    }
    /* No rank returns before the file is gone, and all learn whether deleting it failed. */
    int all = rc == MPI_SUCCESS ? agree(f->comm, cls) : rc;
    char path[256];
    snprintf(path, sizeof path, "%s", f->path);
    file_free(f);
    *fh = MPI_FILE_NULL;
    if (rc != MPI_SUCCESS || !all)
        return rc;
    return mica_error(all, "deleting \"%s\" on close: %s", path,
                      err ? strerror(err) : "failed on rank 0");
}

int mica_file_delete(const char *filename, mica_info_t *info)
{
    (void)info;
    if (!filename)
        return mica_error(MPI_ERR_BAD_FILE, "filename is NULL");
    if (unlink(filename) < 0)
        return mica_error(mica_io_errno_class(errno), "filename=\"%s\": %s", filename,
                          strerror(errno));
    return MPI_SUCCESS;
}

static int writable(mica_file_t *f, const char *what)
{
    if (f->amode & MPI_MODE_RDONLY)
        return mica_error(MPI_ERR_READ_ONLY, "fh was opened MPI_MODE_RDONLY: cannot %s", what);
    if (f->amode & MPI_MODE_SEQUENTIAL)
        return mica_error(MPI_ERR_UNSUPPORTED_OPERATION,
                          "fh was opened MPI_MODE_SEQUENTIAL: cannot %s", what);
    return MPI_SUCCESS;
}

/* Rank 0 changes the size; everyone returns when it is done, with its outcome. */
static int resize(mica_file_t *f, MPI_Offset size, int allocate)
{
    int cls = 0, err = 0;
    if (f->comm->rank == 0) {
        struct stat st;
        if (fstat(f->fd, &st) < 0) {
            err = errno;
        } else if (allocate) {
            if (size > st.st_size && (err = posix_fallocate(f->fd, 0, size)) != 0 &&
                (err == EOPNOTSUPP || err == EINVAL))
                err = ftruncate(f->fd, size) < 0 ? errno : 0;
        } else if (ftruncate(f->fd, size) < 0) {
            err = errno;
        }
        cls = err ? mica_io_errno_class(err) : 0;
    }
    int all = agree(f->comm, cls);
    if (!all)
        return MPI_SUCCESS;
    return err ? mica_error(all, "size=%lld: %s", (long long)size, strerror(err))
               : mica_error(all, "size=%lld: failed on rank 0", (long long)size);
}

int mica_file_set_size(mica_file_t *fh, MPI_Offset size)
{
    if (size < 0)
        return mica_error(MPI_ERR_ARG, "size=%lld is negative", (long long)size);
    int rc = writable(fh, "set its size");
    return rc != MPI_SUCCESS ? rc : resize(fh, size, 0);
}

int mica_file_preallocate(mica_file_t *fh, MPI_Offset size)
{
    if (size < 0)
        return mica_error(MPI_ERR_ARG, "size=%lld is negative", (long long)size);
    int rc = writable(fh, "preallocate");
    return rc != MPI_SUCCESS ? rc : resize(fh, size, 1);
}

int mica_file_get_size(mica_file_t *fh, MPI_Offset *size)
{
    struct stat st;
    if (fstat(fh->fd, &st) < 0)
        return mica_error(mica_io_errno_class(errno), "fh: %s", strerror(errno));
    *size = st.st_size;
    return MPI_SUCCESS;
}

int mica_file_sync(mica_file_t *fh)
{
    int err = fsync(fh->fd) < 0 ? errno : 0;
    int all = agree(fh->comm, err ? mica_io_errno_class(err) : 0);
    if (!all)
        return MPI_SUCCESS;
    return mica_error(all, "fh: %s", err ? strerror(err) : "failed on another rank");
}

int mica_file_get_amode(mica_file_t *fh, int *amode)
{
    *amode = fh->amode;
    return MPI_SUCCESS;
}

int mica_file_get_group(mica_file_t *fh, MPI_Group *group)
{
    return mica_comm_group(fh->comm, group);
}

/* No hints are used yet, so none are kept: MPI_File_get_info returns an empty info. */
int mica_file_set_info(mica_file_t *fh, mica_info_t *info)
{
    (void)fh, (void)info;
    return MPI_SUCCESS;
}

int mica_file_get_info(mica_file_t *fh, MPI_Info *info_used)
{
    (void)fh;
    return mica_info_create(info_used);
}

/* In atomic mode each access locks the bytes it spans (access.c). */
int mica_file_set_atomicity(mica_file_t *fh, int flag)
{
    fh->atomic = !!flag;
    return mica_barrier(fh->comm);
}

int mica_file_get_atomicity(mica_file_t *fh, int *flag)
{
    *flag = fh->atomic;
    return MPI_SUCCESS;
}

/* The shared file pointer: 8 bytes in its own file, changed under an fcntl write lock. */
static int shared_lock(mica_file_t *f, short type)
{
    struct flock l = {.l_type = type, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
    while (fcntl(f->shared_fd, F_SETLKW, &l) < 0)
        if (errno != EINTR)
            return mica_error(MPI_ERR_IO, "fh: locking the shared file pointer: %s",
                              strerror(errno));
    return MPI_SUCCESS;
}

static int shared_rw(mica_file_t *f, MPI_Offset *value, int write)
{
    int64_t v = write ? *value : 0;
    ssize_t n = write ? pwrite(f->shared_fd, &v, sizeof v, 0) : pread(f->shared_fd, &v, sizeof v, 0);
    if (n < 0)
        return mica_error(MPI_ERR_IO, "fh: the shared file pointer: %s", strerror(errno));
    if (!write)
        *value = n == sizeof v ? v : 0;   /* a new, empty file: 0 */
    return MPI_SUCCESS;
}

int mica_io_shared_fetch_add(mica_file_t *fh, MPI_Offset delta, MPI_Offset *old)
{
    int rc = shared_lock(fh, F_WRLCK);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = shared_rw(fh, old, 0);
    MPI_Offset now = *old + delta;
    if (rc == MPI_SUCCESS && delta)
        rc = shared_rw(fh, &now, 1);
    shared_lock(fh, F_UNLCK);
    return rc;
}

int mica_io_shared_set(mica_file_t *fh, MPI_Offset value)
{
    int rc = shared_lock(fh, F_WRLCK);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = shared_rw(fh, &value, 1);
    shared_lock(fh, F_UNLCK);
    return rc;
}
