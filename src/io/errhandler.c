/* A file's error handler: setting, getting, calling and creating one. MPI_FILE_NULL has one
 * too, the one new files get (file.c). */
#include "core/errors.h"
#include "core_api.h"
#include "io/io.h"

/* The core gets NULL for MPI_FILE_NULL. */
static mica_errobj_t *file_errobj(mica_file_t *file)
{
    return file ? &file->eo : &mica_file_null_eo;
}

int mica_file_set_errhandler(mica_file_t *file, mica_errhandler_t *errhandler)
{
    return mica_errobj_set_errhandler(file_errobj(file), MICA_FILE, errhandler);
}

int mica_file_get_errhandler(mica_file_t *file, MPI_Errhandler *errhandler)
{
    *errhandler = (MPI_Errhandler)mica_errhandler_retain(file_errobj(file)->errhandler)->obj.handle;
    return MPI_SUCCESS;
}

int mica_file_call_errhandler(mica_file_t *fh, int errorcode)
{
    mica_errhandler_invoke(file_errobj(fh), errorcode, "MPI_File_call_errhandler");
    return MPI_SUCCESS;
}

int mica_file_create_errhandler(MPI_File_errhandler_function *file_errhandler_fn,
                                MPI_Errhandler *errhandler)
{
    return mica_errhandler_new(MICA_FILE, (void (*)(void *, int *, ...))file_errhandler_fn,
                               "file_errhandler_fn", errhandler);
}
