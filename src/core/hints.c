/* Hints (info objects) given to communicators.
 *
 * No communicator hint changes what Mica does yet, so every hint is ignored; an ignored hint is
 * not returned by MPI_Comm_get_info (MPI 4.0: it returns the hints not ignored and those with
 * defaults the implementation supports), which therefore returns an empty info. */
#include "core/errors.h"
#include "core/info.h"
#include "core_api.h"

int mica_comm_set_info(mica_comm_t *comm, mica_info_t *info)
{
    (void)comm;
    if (!info)
        return mica_bad_handle(MICA_INFO, MPI_INFO_NULL, "info");
    return MPI_SUCCESS;
}

int mica_comm_get_info(mica_comm_t *comm, MPI_Info *info_used)
{
    (void)comm;
    return mica_info_new(info_used);
}
