/* np: 1 */
/* The MPI 5.0 ABI's own functions, before MPI_Init as after: the ABI version; the sizes of its
 * integer types; the Fortran compiler's description (gfortran's: sizes, optional types, .TRUE.
 * is 1 and .FALSE. 0 in every LOGICAL size); a program's own booleans and description, the
 * latter settable once; bad sizes are MPI_ERR_ARG. */
#include <mpi.h>
#include <stdint.h>
#include <string.h>

#include "../check.h"

static int class_of(int rc)
{
    int c = -1;
    MPI_Error_class(rc, &c);
    return c;
}

static int has(MPI_Info info, const char *key, const char *want)
{
    char value[64];
    int flag = 0, len = sizeof value;
    MPI_Info_get_string(info, key, &len, value, &flag);
    return flag && !strcmp(value, want);
}

int main(int argc, char **argv)
{
    int major = -1, minor = -1, is_set = 0;
    CHECK(MPI_Abi_get_version(&major, &minor) == MPI_SUCCESS);
    CHECKF(major == MPI_ABI_VERSION && minor == MPI_ABI_SUBVERSION, "%d.%d", major, minor);
    MPI_Info info = MPI_INFO_NULL;
    CHECK(MPI_Abi_get_info(&info) == MPI_SUCCESS);
    CHECK(has(info, "mpi_aint_size", "8") && has(info, "mpi_count_size", "8") &&
          has(info, "mpi_offset_size", "8"));
    MPI_Info_free(&info);

    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    CHECK(MPI_Abi_get_fortran_info(&info) == MPI_SUCCESS);
    CHECK(has(info, "mpi_logical_size", "4") && has(info, "mpi_integer_size", "4") &&
          has(info, "mpi_real_size", "4") && has(info, "mpi_double_precision_size", "8"));
    CHECK(has(info, "mpi_integer16_supported", "true") && has(info, "mpi_real2_supported", "false"));
    MPI_Info_free(&info);

    int32_t t4 = -5, f4 = -5;
    int8_t t1 = -5, f1 = -5;
    CHECK(MPI_Abi_get_fortran_booleans(4, &t4, &f4, &is_set) == MPI_SUCCESS);
    CHECKF(t4 == 1 && f4 == 0 && is_set, "true %d false %d set %d", t4, f4, is_set);
    CHECK(MPI_Abi_get_fortran_booleans(1, &t1, &f1, &is_set) == MPI_SUCCESS && t1 == 1 && f1 == 0);
    t4 = -1, f4 = 0;
    CHECK(MPI_Abi_set_fortran_booleans(4, &t4, &f4) == MPI_SUCCESS);
    t4 = f4 = 7;
    CHECK(MPI_Abi_get_fortran_booleans(4, &t4, &f4, &is_set) == MPI_SUCCESS && t4 == -1 && f4 == 0);
    CHECK(class_of(MPI_Abi_get_fortran_booleans(3, &t4, &f4, &is_set)) == MPI_ERR_ARG);

    MPI_Info mine;
    MPI_Info_create(&mine);
    MPI_Info_set(mine, "mpi_integer_size", "8");
    CHECK(MPI_Abi_set_fortran_info(mine) == MPI_SUCCESS);
    CHECK(class_of(MPI_Abi_set_fortran_info(mine)) == MPI_ERR_ABI);
    MPI_Info_free(&mine);
    CHECK(MPI_Abi_get_fortran_info(&info) == MPI_SUCCESS && has(info, "mpi_integer_size", "8"));
    MPI_Info_free(&info);
    MPI_Finalize();
    return CHECK_RESULT();
}
