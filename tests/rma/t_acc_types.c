/* np: 2 */
/* What an accumulate's target datatype may be (MPI 4.1 12.3.4): any type made of one
 * predefined type (a vector of ints accumulates); an empty target region (a zero count, or a
 * type of no data) with any origin and result types of no data succeeds and changes nothing;
 * types of different predefined types with data are MPI_ERR_TYPE; MPI_Compare_and_swap takes
 * characters, not reals. */
#include <mpi.h>
#include "../check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int buf[8];
    for (int i = 0; i < 8; i++)
        buf[i] = i;
    MPI_Win win;
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    MPI_Datatype empty, every_other;
    MPI_Type_contiguous(0, MPI_INT, &empty);
    MPI_Type_commit(&empty);
    MPI_Type_vector(4, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    MPI_Win_fence(0, win);
    if (rank == 0) {
        int ones[4] = {1, 1, 1, 1}, res[4];
        double d = 1;
        CHECK(MPI_Accumulate(ones, 4, MPI_INT, 1, 0, 1, every_other, MPI_SUM, win) ==
              MPI_SUCCESS);
        /* Empty: mismatched types and NULL buffers are fine. */
        CHECK(MPI_Accumulate(NULL, 0, MPI_INT, 1, 0, 0, MPI_DOUBLE, MPI_SUM, win) ==
              MPI_SUCCESS);
        CHECK(MPI_Accumulate(NULL, 2, empty, 1, 0, 1, empty, MPI_SUM, win) == MPI_SUCCESS);
        CHECK(MPI_Get_accumulate(ones, 0, MPI_DOUBLE, NULL, 1, empty, 1, 0, 3, empty, MPI_SUM,
                                 win) == MPI_SUCCESS);
        CHECK(MPI_Get_accumulate(NULL, 0, MPI_INT, res, 0, MPI_DOUBLE, 1, 0, 0, MPI_INT,
                                 MPI_PROD, win) == MPI_SUCCESS);
        /* With data, the types must agree. */
        int rc = MPI_Accumulate(&d, 1, MPI_DOUBLE, 1, 0, 2, MPI_INT, MPI_SUM, win), cls;
        MPI_Error_class(rc, &cls);
        CHECKF(cls == MPI_ERR_TYPE, "double onto ints: class %d", cls);
        /* MPI_Compare_and_swap: integers and characters (as small integers, MPICH's
         * errors/rma/cas_type_check), not reals. */
        char c = 'x', cmp = 'y', was = 0;
        float f = 1, fcmp = 2, fwas;
        CHECK(MPI_Compare_and_swap(&c, &cmp, &was, MPI_CHAR, 1, 0, win) == MPI_SUCCESS);
        rc = MPI_Compare_and_swap(&f, &fcmp, &fwas, MPI_FLOAT, 1, 0, win);
        MPI_Error_class(rc, &cls);
        CHECKF(cls == MPI_ERR_TYPE, "MPI_Compare_and_swap of MPI_FLOAT: class %d", cls);
    }
    MPI_Win_fence(0, win);
    if (rank == 1)
        for (int i = 0; i < 8; i++)
            CHECKF(buf[i] == i + (i % 2 == 0), "buf[%d] = %d", i, buf[i]);
    MPI_Win_free(&win);
    MPI_Type_free(&empty);
    MPI_Type_free(&every_other);
    MPI_Finalize();
    return CHECK_RESULT();
}
