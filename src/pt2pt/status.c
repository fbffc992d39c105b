/* What a status tells: counts and elements, and setting its fields (for generalized requests). */
#include "core/datatype.h"
#include "core/request.h"
#include "core_api.h"

int mica_get_count_c(const MPI_Status *status, mica_type_t *datatype, MPI_Count *count)
{
    MPI_Count bytes = mica_status_count(status);
    if (datatype->size == 0)
        *count = 0;
    else
        *count = bytes % datatype->size ? MPI_UNDEFINED : bytes / datatype->size;
    return MPI_SUCCESS;
}

int mica_get_elements_c(const MPI_Status *status, mica_type_t *datatype, MPI_Count *count)
{
    *count = mica_type_elements(datatype, mica_status_count(status));
    return MPI_SUCCESS;
}

int mica_status_set_elements_c(MPI_Status *status, mica_type_t *datatype, MPI_Count count)
{
    mica_status_set_count(status, mica_type_element_bytes(datatype, count));
    return MPI_SUCCESS;
}

/* The _x forms, deprecated by MPI 4.1 but still in the standard (and the ABI): the MPI_Count
 * forms under their MPI 3 names. */
int mica_get_elements_x(const MPI_Status *status, mica_type_t *datatype, MPI_Count *count)
{
    return mica_get_elements_c(status, datatype, count);
}

int mica_status_set_elements_x(MPI_Status *status, mica_type_t *datatype, MPI_Count count)
{
    return mica_status_set_elements_c(status, datatype, count);
}

int mica_status_set_cancelled(MPI_Status *status, int flag)
{
    status->MPI_internal[MICA_STATUS_CANCELLED] = flag != 0;
    return MPI_SUCCESS;
}

/* MPI 5.0's accessors of the public fields, for callers that cannot see the struct's layout. */
int mica_status_get_source(const MPI_Status *status, int *source)
{
    *source = status->MPI_SOURCE;
    return MPI_SUCCESS;
}

int mica_status_set_source(MPI_Status *status, int source)
{
    status->MPI_SOURCE = source;
    return MPI_SUCCESS;
}

int mica_status_get_tag(const MPI_Status *status, int *tag)
{
    *tag = status->MPI_TAG;
    return MPI_SUCCESS;
}

int mica_status_set_tag(MPI_Status *status, int tag)
{
    status->MPI_TAG = tag;
    return MPI_SUCCESS;
}

int mica_status_get_error(const MPI_Status *status, int *error)
{
    *error = status->MPI_ERROR;
    return MPI_SUCCESS;
}

int mica_status_set_error(MPI_Status *status, int error)
{
    status->MPI_ERROR = error;
    return MPI_SUCCESS;
}

/* The int forms say MPI_UNDEFINED when the count does not fit. */
static int narrow(MPI_Count c, int *count)
{
    *count = c > 0x7fffffff ? MPI_UNDEFINED : (int)c;
    return MPI_SUCCESS;
}

int mica_get_count(const MPI_Status *status, mica_type_t *datatype, int *count)
{
    MPI_Count c = 0;
    int rc = mica_get_count_c(status, datatype, &c);
    return rc == MPI_SUCCESS ? narrow(c, count) : rc;
}

int mica_get_elements(const MPI_Status *status, mica_type_t *datatype, int *count)
{
    MPI_Count c = 0;
    int rc = mica_get_elements_c(status, datatype, &c);
    return rc == MPI_SUCCESS ? narrow(c, count) : rc;
}
