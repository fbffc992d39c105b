/* np: 1 */
/* MPI_Status_set_elements_x and MPI_Get_elements_x, deprecated by MPI 4.1 but in the standard:
 * the MPI_Count forms under their MPI 3 names. Elements set are the elements got, for basic and
 * derived types, beyond what an int holds, and through MPI_Get_count. */
#include <mpi.h>

#include "../check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Status st;
    MPI_Count n = -1;
    int count = -1;

    CHECK(MPI_Status_set_elements_x(&st, MPI_INT, 10) == MPI_SUCCESS);
    CHECK(MPI_Get_elements_x(&st, MPI_INT, &n) == MPI_SUCCESS && n == 10);
    CHECK(MPI_Get_count(&st, MPI_INT, &count) == MPI_SUCCESS && count == 10);
    CHECK(MPI_Get_elements_x(&st, MPI_BYTE, &n) == MPI_SUCCESS && n == 40);

    /* Beyond an int: the int forms say MPI_UNDEFINED, the _x form the count. */
    MPI_Count big = (MPI_Count)1 << 33;
    CHECK(MPI_Status_set_elements_x(&st, MPI_BYTE, big) == MPI_SUCCESS);
    CHECK(MPI_Get_elements_x(&st, MPI_BYTE, &n) == MPI_SUCCESS && n == big);
    CHECK(MPI_Get_elements(&st, MPI_BYTE, &count) == MPI_SUCCESS && count == MPI_UNDEFINED);
    CHECK(MPI_Get_elements_x(&st, MPI_INT, &n) == MPI_SUCCESS && n == big / 4);

    /* A derived type of an int and a double: 3 elements are 1.5 of it. */
    MPI_Datatype t;
    MPI_Type_create_struct(2, (int[]){1, 1}, (MPI_Aint[]){0, 8},
                           (MPI_Datatype[]){MPI_INT, MPI_DOUBLE}, &t);
    MPI_Type_commit(&t);
    CHECK(MPI_Status_set_elements_x(&st, t, 3) == MPI_SUCCESS);
    CHECK(MPI_Get_elements_x(&st, t, &n) == MPI_SUCCESS && n == 3);
    CHECK(MPI_Get_count(&st, t, &count) == MPI_SUCCESS && count == MPI_UNDEFINED);
    CHECK(MPI_Get_elements_x(&st, MPI_BYTE, &n) == MPI_SUCCESS && n == 4 + 8 + 4);
    MPI_Type_free(&t);

    /* The cancelled flag stays apart. */
    int flag = -1;
    CHECK(MPI_Status_set_cancelled(&st, 1) == MPI_SUCCESS);
    CHECK(MPI_Status_set_elements_x(&st, MPI_INT, 2) == MPI_SUCCESS);
    CHECK(MPI_Test_cancelled(&st, &flag) == MPI_SUCCESS && flag == 1);

    MPI_Finalize();
    return CHECK_RESULT();
}
