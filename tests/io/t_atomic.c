/* np: 3 */
/* MPI-IO atomic mode (issue 11, root cause 6; MPICH's atomicityf): while rank 0 writes a block
 * of ints again and again, each time all of one value, the other ranks read it concurrently and
 * must see one write's values throughout, never a mix; with a contiguous view and with a
 * strided one (each access many pieces). Atomic mode off, MPI_File_get_atomicity says so. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "../check.h"

#define N 200000                      /* ints per access: many pages */
#define ROUNDS 12

static int rank;

static void temp_name(char *name, size_t len)
{
    if (rank == 0) {
        const char *dir = getenv("TMPDIR");
        snprintf(name, len, "%s/mica-t_atomic-XXXXXX", dir && *dir ? dir : "/tmp");
        int fd = mkstemp(name);
        CHECK(fd >= 0);
        close(fd);
    }
    MPI_Bcast(name, (int)len, MPI_CHAR, 0, MPI_COMM_WORLD);
}

static void run(const char *name, MPI_Datatype filetype)
{
    MPI_File fh;
    int *buf = malloc(N * sizeof *buf), flag = -1;
    MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    MPI_File_set_view(fh, 0, MPI_INT, filetype, "native", MPI_INFO_NULL);
    MPI_File_get_atomicity(fh, &flag);
    CHECK(flag == 0);
    MPI_File_set_atomicity(fh, 1);
    MPI_File_get_atomicity(fh, &flag);
    CHECK(flag == 1);
    if (rank == 0) {                  /* the first block: all zero */
        for (int i = 0; i < N; i++)
            buf[i] = 0;
        MPI_File_write_at(fh, 0, buf, N, MPI_INT, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    int mixed = 0;
    for (int round = 1; round <= ROUNDS; round++) {
        if (rank == 0) {
            for (int i = 0; i < N; i++)
                buf[i] = round;
            MPI_File_write_at(fh, 0, buf, N, MPI_INT, MPI_STATUS_IGNORE);
        } else {
            MPI_File_read_at(fh, 0, buf, N, MPI_INT, MPI_STATUS_IGNORE);
            for (int i = 1; i < N; i++)
                if (buf[i] != buf[0]) {
                    if (!mixed++)
                        printf("rank %d: round %d: int %d is %d, int 0 is %d\n", rank, round, i,
                               buf[i], buf[0]);
                    break;
                }
        }
    }
    CHECKF(!mixed, "%d reads saw a mix of two writes", mixed);
    MPI_File_close(&fh);
    free(buf);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char name[256];
    temp_name(name, sizeof name);
    run(name, MPI_INT);
    MPI_Datatype strided;             /* every other int of the file */
    MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &strided);
    MPI_Type_commit(&strided);
    run(name, strided);
    MPI_Type_free(&strided);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        MPI_File_delete(name, MPI_INFO_NULL);
    MPI_Finalize();
    return CHECK_RESULT();
}
