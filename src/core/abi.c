/* The MPI 5.0 standard ABI's own functions: its version, the sizes of its integer types, and
 * what a Fortran binding built over the ABI needs to know of the Fortran compiler: the sizes of
 * its types, which optional types it has, and how it stores .TRUE. and .FALSE.. Mica describes
 * gfortran, its own Fortran binding's compiler, until the program says otherwise (a binding
 * for another compiler calls the setters first). Callable at any time, like the info functions
 * they build on. */
#include <stdlib.h>
#include <string.h>

#include "core/errors.h"
#include "core/info.h"
#include "core_api.h"

int mica_abi_get_version(int *abi_major, int *abi_minor)
{
    *abi_major = MPI_ABI_VERSION;
    *abi_minor = MPI_ABI_SUBVERSION;
    return MPI_SUCCESS;
}

static int described(const char *const pairs[][2], size_t n, MPI_Info *info)
{
    MPI_Info h = MPI_INFO_NULL;
    int rc = mica_info_create(&h);
    for (size_t i = 0; i < n && rc == MPI_SUCCESS; i++)
        rc = mica_info_set(mica_info_lookup(h), pairs[i][0], pairs[i][1]);
    if (rc != MPI_SUCCESS) {
        if (h != MPI_INFO_NULL)
            (void)mica_info_free(&h);
        return rc;
    }
    *info = h;
    return MPI_SUCCESS;
}

int mica_abi_get_info(MPI_Info *info)
{
    static const char *const abi[][2] = {
        {"mpi_aint_size", "8"}, {"mpi_count_size", "8"}, {"mpi_offset_size", "8"}};
    return described(abi, sizeof abi / sizeof *abi, info);
}

/* gfortran on this platform: default INTEGER, REAL and LOGICAL of 4 bytes; every optional
 * INTEGERn and LOGICALn; REAL4, 8, 16 but no REAL2 (so no COMPLEX4). */
static const char *const gfortran[][2] = {
    {"mpi_logical_size", "4"}, {"mpi_integer_size", "4"}, {"mpi_real_size", "4"},
    {"mpi_double_precision_size", "8"},
    {"mpi_logical1_supported", "true"}, {"mpi_logical2_supported", "true"},
    {"mpi_logical4_supported", "true"}, {"mpi_logical8_supported", "true"},
    {"mpi_logical16_supported", "true"},
    {"mpi_integer1_supported", "true"}, {"mpi_integer2_supported", "true"},
    {"mpi_integer4_supported", "true"}, {"mpi_integer8_supported", "true"},
    {"mpi_integer16_supported", "true"},
    {"mpi_real2_supported", "false"}, {"mpi_real4_supported", "true"},
    {"mpi_real8_supported", "true"}, {"mpi_real16_supported", "true"},
    {"mpi_complex4_supported", "false"}, {"mpi_complex8_supported", "true"},
    {"mpi_complex16_supported", "true"}, {"mpi_complex32_supported", "true"},
    {"mpi_double_complex_supported", "true"},
};
/* The program's, once set: its pairs, kept for the whole run (info objects do not outlive
 * MPI_Finalize, this may be asked after it). */
static const char *(*fortran_set)[2];
static size_t nfortran_set;

int mica_abi_get_fortran_info(MPI_Info *info)
{
    if (fortran_set)
        return described((const char *const (*)[2])fortran_set, nfortran_set, info);
    return described(gfortran, sizeof gfortran / sizeof *gfortran, info);
}

int mica_abi_set_fortran_info(mica_info_t *info)
{
    if (!info)
        return mica_error(MPI_ERR_INFO, "info is MPI_INFO_NULL");
    if (fortran_set)
        return mica_error(MPI_ERR_ABI, "the Fortran information was set already: it may be "
                          "set once");
    const char *(*pairs)[2] = calloc((size_t)info->n + 1, sizeof *pairs);
    for (int i = 0; pairs && i < info->n; i++)
        if (!(pairs[i][0] = strdup(info->entries[i].key)) ||
            !(pairs[i][1] = strdup(info->entries[i].value))) {
            for (int j = 0; j <= i; j++) {
                free((void *)pairs[j][0]);
                free((void *)pairs[j][1]);
            }
            free(pairs);
            pairs = NULL;
        }
    if (!pairs)
        return mica_error(MPI_ERR_NO_MEM, "no memory for the Fortran information");
    fortran_set = pairs;
    nfortran_set = (size_t)info->n;
    return MPI_SUCCESS;
}

/* .TRUE. and .FALSE. per LOGICAL size (1, 2, 4, 8, 16 bytes), as stored in memory: gfortran's
 * are 1 and 0 in every size. */
#define LOGICAL_SIZES 5
static unsigned char booleans[LOGICAL_SIZES][2][16];
static int booleans_set;

static int logical_slot(int size)
{
    for (int i = 0; i < LOGICAL_SIZES; i++)
        if (size == 1 << i)
            return i;
    return -1;
}

static int check_logical(int logical_size, const void *t, const void *f)
{
    if (logical_slot(logical_size) < 0)
        return mica_error(MPI_ERR_ARG, "logical_size=%d is not 1, 2, 4, 8 or 16", logical_size);
    if (!t || !f)
        return mica_error(MPI_ERR_ARG, "%s is NULL", !t ? "logical_true" : "logical_false");
    return MPI_SUCCESS;
}

static void defaults(void)
{
    if (booleans_set)
        return;
    for (int i = 0; i < LOGICAL_SIZES; i++) {
        memset(booleans[i], 0, sizeof booleans[i]);
        booleans[i][0][0] = 1;        /* little-endian 1 */
    }
    booleans_set = 1;
}

int mica_abi_get_fortran_booleans(int logical_size, void *logical_true, void *logical_false,
                                  int *is_set)
{
    int rc = check_logical(logical_size, logical_true, logical_false);
    if (rc != MPI_SUCCESS)
        return rc;
    defaults();
    int i = logical_slot(logical_size);
    memcpy(logical_true, booleans[i][0], (size_t)logical_size);
    memcpy(logical_false, booleans[i][1], (size_t)logical_size);
    *is_set = 1;
    return MPI_SUCCESS;
}

int mica_abi_set_fortran_booleans(int logical_size, void *logical_true, void *logical_false)
{
    int rc = check_logical(logical_size, logical_true, logical_false);
    if (rc != MPI_SUCCESS)
        return rc;
    defaults();
    int i = logical_slot(logical_size);
    memcpy(booleans[i][0], logical_true, (size_t)logical_size);
    memcpy(booleans[i][1], logical_false, (size_t)logical_size);
    return MPI_SUCCESS;
}
