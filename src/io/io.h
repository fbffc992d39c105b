/* MPI-IO on POSIX files (one host): file handles, views, and data access.
 *
 * Every rank opens the file itself and moves its own bytes with pread/pwrite, which is what the
 * standard's consistency rules need on one host; collective data access does independent I/O.
 * The shared file pointer lives in a small hidden file rank 0 creates at open, updated under an
 * fcntl lock, so any rank moves it without asking another rank. */
#ifndef MICA_IO_H
#define MICA_IO_H

#include "core/comm.h"
#include "core/datatype.h"

/* The data representations of a view (MPI_File_set_view's datarep): "native" and "internal"
 * are the bytes of memory; "external32" the standard's portable one (core/type_external.c),
 * whose sizes are the native ones here but for MPI_LONG, MPI_UNSIGNED_LONG and MPI_WCHAR: the
 * view's types may not hold those (their displacements would need scaling), the data may. */
enum mica_io_datarep { MICA_DATAREP_NATIVE, MICA_DATAREP_INTERNAL, MICA_DATAREP_EXTERNAL32 };

struct mica_file {
    mica_errobj_t eo;
    mica_comm_t *comm;                /* a private duplicate of the opening communicator */
    int fd;
    int amode;
    int atomic;                       /* MPI_File_set_atomicity's flag */
    char *path;
    char *shared_path;                /* the shared file pointer's file (rank 0 removes it) */
    int shared_fd;

    /* The view: data starts at byte disp and follows the filetype's blocks, tiled. */
    int datarep;                      /* enum mica_io_datarep: how the data looks in the file */
    MPI_Offset disp;
    mica_type_t *etype, *filetype;    /* retained */
    MPI_Offset *filetype_cum;         /* data bytes before each of the filetype's blocks */
    MPI_Offset position;              /* the individual file pointer, in etypes */

    /* A split collective in progress (MPI_File_*_begin .. _end). */
    int split_active;
    MPI_Status split_status;
};

/* MPI_FILE_NULL's error handler handles errors on no file or a bad file handle (the bindings
 * raise a file function's errors through mica_errobj_of_file). */
extern mica_errobj_t mica_file_null_eo;
static inline mica_errobj_t *mica_errobj_of_file(MPI_File h)
{
    mica_errobj_t *eo = mica_lookup(h, MICA_FILE);
    return eo ? eo : &mica_file_null_eo;
}

/* The view (view.c): the absolute byte offset of data byte `d` of the view, and how many data
 * bytes follow there contiguously in the file. */
MPI_Offset mica_io_view_map(const mica_file_t *fh, MPI_Offset d, MPI_Offset *contiguous);
/* Set the default view (disp 0, MPI_BYTE, MPI_BYTE) or release the view's types. */
int mica_io_view_init(mica_file_t *fh);
/* Where MPI_SEEK_END puts a pointer: the etypes of the view before the end of the file. */
int mica_io_view_end(mica_file_t *fh, MPI_Offset *etypes);
void mica_io_view_free(mica_file_t *fh);

/* The error class of a failed POSIX call's errno. */
int mica_io_errno_class(int err);

/* The shared file pointer (file.c), in etypes: read it and add `delta` atomically. */
int mica_io_shared_fetch_add(mica_file_t *fh, MPI_Offset delta, MPI_Offset *old);
int mica_io_shared_set(mica_file_t *fh, MPI_Offset value);

#endif
