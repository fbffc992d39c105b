/* np: 1 */
/* MPI_Alloc_mem / MPI_Free_mem: usable, aligned memory; the alignment hint; errors. */
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

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    /* Many blocks alive at once (the bookkeeping grows), each writable and aligned. */
    enum { N = 300 };
    char *blocks[N];
    for (int i = 0; i < N; i++) {
        blocks[i] = NULL;
        CHECK(MPI_Alloc_mem(1 + i * 37, MPI_INFO_NULL, &blocks[i]) == MPI_SUCCESS && blocks[i]);
        CHECK((uintptr_t)blocks[i] % 8 == 0);
        memset(blocks[i], i & 0xff, 1 + i * 37);
    }
    for (int i = 0; i < N; i += 2)
        CHECK(MPI_Free_mem(blocks[i]) == MPI_SUCCESS);
    for (int i = 1; i < N; i += 2) {
        CHECK(blocks[i][i * 37] == (char)(i & 0xff));
        CHECK(MPI_Free_mem(blocks[i]) == MPI_SUCCESS);
    }

    /* Size 0 gives a block that can be freed. */
    void *p = NULL;
    CHECK(MPI_Alloc_mem(0, MPI_INFO_NULL, &p) == MPI_SUCCESS);
    CHECK(MPI_Free_mem(p) == MPI_SUCCESS);

    /* The standard's alignment hint. */
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_minimum_memory_alignment", "4096");
    double *d = NULL;
    CHECK(MPI_Alloc_mem(100 * sizeof *d, info, &d) == MPI_SUCCESS);
    CHECKF((uintptr_t)d % 4096 == 0, "%p", (void *)d);
    d[99] = 1.5;
    CHECK(MPI_Free_mem(d) == MPI_SUCCESS);
    MPI_Info_free(&info);

    /* Errors: a negative size, no place for the pointer, memory that cannot be had, pointers
     * that are not MPI_Alloc_mem's (or no longer), and a bad info. */
    CHECK(class_of(MPI_Alloc_mem(-1, MPI_INFO_NULL, &p)) == MPI_ERR_ARG);
    CHECK(class_of(MPI_Alloc_mem(16, MPI_INFO_NULL, NULL)) == MPI_ERR_ARG);
    CHECK(class_of(MPI_Alloc_mem((MPI_Aint)1 << 62, MPI_INFO_NULL, &p)) == MPI_ERR_NO_MEM);
    int local;
    CHECK(class_of(MPI_Free_mem(&local)) == MPI_ERR_BASE);
    CHECK(MPI_Alloc_mem(8, MPI_INFO_NULL, &p) == MPI_SUCCESS);
    CHECK(class_of(MPI_Free_mem((char *)p + 1)) == MPI_ERR_BASE);
    CHECK(MPI_Free_mem(p) == MPI_SUCCESS);
    CHECK(class_of(MPI_Free_mem(p)) == MPI_ERR_BASE);
    CHECK(MPI_Free_mem(NULL) == MPI_SUCCESS);
    CHECK(class_of(MPI_Alloc_mem(8, (MPI_Info)MPI_COMM_WORLD, &p)) == MPI_ERR_INFO);

    MPI_Finalize();
    return CHECK_RESULT();
}
