/* np: 1 2 3 4 8 */
/* MPI_Barrier and MPI_Bcast: every root, several datatypes, a derived vector type (the gaps
 * must stay untouched), zero counts, MPI_COMM_SELF, and large messages (1 to 16 MiB: the
 * binomial tree, and the contiguous and packed paths of the long-message algorithm). */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"

static int rank, size;

static void basic_types(int root)
{
    int ints[17];
    double dbl[5];
    char chars[3];
    for (int i = 0; i < 17; i++)
        ints[i] = rank == root ? root * 100 + i : -1;
    for (int i = 0; i < 5; i++)
        dbl[i] = rank == root ? root + i / 4.0 : -1;
    memcpy(chars, rank == root ? "ab" : "zz", 3);
    CHECK(MPI_Bcast(ints, 17, MPI_INT, root, MPI_COMM_WORLD) == MPI_SUCCESS);
    CHECK(MPI_Bcast(dbl, 5, MPI_DOUBLE, root, MPI_COMM_WORLD) == MPI_SUCCESS);
    CHECK(MPI_Bcast(chars, 3, MPI_CHAR, root, MPI_COMM_WORLD) == MPI_SUCCESS);
    for (int i = 0; i < 17; i++)
        CHECKF(ints[i] == root * 100 + i, "root %d ints[%d]=%d", root, i, ints[i]);
    for (int i = 0; i < 5; i++)
        CHECKF(dbl[i] == root + i / 4.0, "root %d dbl[%d]=%g", root, i, dbl[i]);
    CHECK(!strcmp(chars, "ab"));
}

/* 3 elements of vector(4 blocks of 2 ints, stride 3): ints at 3k and 3k+1, gaps at 3k+2. */
static void vector_type(int root)
{
    MPI_Datatype vec;
    MPI_Type_vector(4, 2, 3, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    MPI_Aint lb, extent;
    MPI_Type_get_extent(vec, &lb, &extent);
    int n = 3 * (int)(extent / sizeof(int)) + 4;
    int *buf = malloc(n * sizeof(int));
    for (int i = 0; i < n; i++)
        buf[i] = rank == root ? 1000 * root + i : -7;
    CHECK(MPI_Bcast(buf, 3, vec, root, MPI_COMM_WORLD) == MPI_SUCCESS);
    for (int e = 0; e < 3; e++)
        for (int i = 0; i < 11; i++) {
            int at = e * (int)(extent / sizeof(int)) + i;
            int data = i % 3 != 2;
            int want = rank == root || data ? 1000 * root + at : -7;
            CHECKF(buf[at] == want, "root %d element %d int %d: %d, want %d", root, e, i,
                   buf[at], want);
        }
    free(buf);
    MPI_Type_free(&vec);
}

static void large(MPI_Count bytes, int root)
{
    unsigned char *buf = malloc(bytes);
    for (MPI_Count i = 0; i < bytes; i++)
        buf[i] = rank == root ? (unsigned char)(i * 7 + root + (i >> 12)) : 0;
    CHECK(MPI_Bcast(buf, (int)bytes, MPI_BYTE, root, MPI_COMM_WORLD) == MPI_SUCCESS);
    MPI_Count bad = 0;
    for (MPI_Count i = 0; i < bytes; i++)
        bad += buf[i] != (unsigned char)(i * 7 + root + (i >> 12));
    CHECKF(bad == 0, "%lld of %lld bytes wrong from root %d", (long long)bad, (long long)bytes,
           root);
    free(buf);
}

/* A large vector of doubles with gaps (the long-message algorithm packs it). */
static void large_vector(int root, int count)
{
    MPI_Datatype vec;
    MPI_Type_vector(count, 1, 2, MPI_DOUBLE, &vec);
    MPI_Type_commit(&vec);
    double *buf = malloc(2 * count * sizeof(double));
    for (int i = 0; i < 2 * count; i++)
        buf[i] = rank == root ? i * 0.5 + root : -1;
    CHECK(MPI_Bcast(buf, 1, vec, root, MPI_COMM_WORLD) == MPI_SUCCESS);
    int bad = 0;
    for (int i = 0; i < 2 * count; i++) {
        double want = rank == root || i % 2 == 0 ? i * 0.5 + root : -1;
        bad += buf[i] != want;
    }
    CHECKF(bad == 0, "%d of %d doubles wrong from root %d", bad, 2 * count, root);
    free(buf);
    MPI_Type_free(&vec);
}

int main(int argc, char **argv)
{
    /* From 4 MiB on, the scatter + ring algorithm even where it would not be chosen (more
     * processes than processors). */
    setenv("MICA_BCAST_LONG", "4194304", 0);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    for (int i = 0; i < 10; i++)
        CHECK(MPI_Barrier(MPI_COMM_WORLD) == MPI_SUCCESS);
    CHECK(MPI_Barrier(MPI_COMM_SELF) == MPI_SUCCESS);

    for (int root = 0; root < size; root++) {
        basic_types(root);
        vector_type(root);
    }
    int x = 5;
    CHECK(MPI_Bcast(&x, 0, MPI_INT, size - 1, MPI_COMM_WORLD) == MPI_SUCCESS && x == 5);
    CHECK(MPI_Bcast(NULL, 0, MPI_INT, 0, MPI_COMM_WORLD) == MPI_SUCCESS);
    CHECK(MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_SELF) == MPI_SUCCESS && x == 5);

    large(1 << 20, 0);
    large((4 << 20) + 13, size - 1);
    large(16 << 20, size / 2);
    large_vector(size > 1 ? 1 : 0, 100000);
    large_vector(size - 1, 600000);
    MPI_Count big = 1 << 20;          /* the large-count form */
    unsigned char *b = calloc(big, 1);
    if (rank == 0)
        b[big - 1] = 9;
    CHECK(MPI_Bcast_c(b, big, MPI_BYTE, 0, MPI_COMM_WORLD) == MPI_SUCCESS && b[big - 1] == 9);
    free(b);

    /* Errors: a bad root, MPI_IN_PLACE. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int cls = -1, rc = MPI_Bcast(&x, 1, MPI_INT, size, MPI_COMM_WORLD);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_ROOT);
    rc = MPI_Bcast(MPI_IN_PLACE, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_BUFFER);

    CHECK(MPI_Barrier(MPI_COMM_WORLD) == MPI_SUCCESS);
    MPI_Finalize();
    return CHECK_RESULT();
}
