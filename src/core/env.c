/* Inquiries about the library and the process: versions, processor name, clocks, error text. */
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <stdio.h>

#include "core/errors.h"
#include "core_api.h"

int mica_get_version(int *version, int *subversion)
{
    if (!version || !subversion)
        return mica_raise(NULL, mica_error(MPI_ERR_ARG, "%s is NULL", version ? "subversion" : "version"),
                          "MPI_Get_version");
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}

int mica_get_library_version(char *version, int *resultlen)
{
    if (!version || !resultlen)
        return mica_raise(NULL, mica_error(MPI_ERR_ARG, "%s is NULL", version ? "resultlen" : "version"),
                          "MPI_Get_library_version");
    *resultlen = snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING,
                          "Mica %s (MPI %d.%d, standard ABI %d.%d)", MICA_VERSION_STRING,
                          MPI_VERSION, MPI_SUBVERSION, MPI_ABI_VERSION, MPI_ABI_SUBVERSION);
    return MPI_SUCCESS;
}

int mica_get_processor_name(char *name, int *resultlen)
{
    if (gethostname(name, MPI_MAX_PROCESSOR_NAME))
        return mica_error(MPI_ERR_OTHER, "the host name is not available");
    name[MPI_MAX_PROCESSOR_NAME - 1] = '\0';
    *resultlen = (int)strlen(name);
    return MPI_SUCCESS;
}

double mica_wtime(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

double mica_wtick(void)
{
    struct timespec t;
    clock_getres(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int mica_error_class(int errorcode, int *errorclass)
{
    int cls = mica_error_class_of(errorcode);
    if (cls < 0)
        return mica_error(MPI_ERR_ARG, "errorcode=%d is not a valid error code", errorcode);
    *errorclass = cls;
    return MPI_SUCCESS;
}

int mica_error_string(int errorcode, char *string, int *resultlen)
{
    if (mica_error_class_of(errorcode) < 0)
        return mica_error(MPI_ERR_ARG, "errorcode=%d is not a valid error code", errorcode);
    mica_error_text(errorcode, string, MPI_MAX_ERROR_STRING);
    *resultlen = (int)strlen(string);
    return MPI_SUCCESS;
}

MPI_Aint mica_aint_add(MPI_Aint base, MPI_Aint disp)
{
    return (MPI_Aint)((uintptr_t)base + (uintptr_t)disp);
}

MPI_Aint mica_aint_diff(MPI_Aint addr1, MPI_Aint addr2)
{
    return (MPI_Aint)((uintptr_t)addr1 - (uintptr_t)addr2);
}
