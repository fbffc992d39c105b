/* np: 1 3 */
/* File views in the "external32" representation: the file holds each element big-endian at its
 * external32 size (a C long in 4 bytes), read back it gives the values written; strided
 * filetypes, the individual pointer, collective access, a short read's status, "internal" as
 * native, MPI_File_get_view/get_type_extent, and the refusals: a long that does not fit (the
 * class MPI_ERR_CONVERSION) and view types whose external32 size differs (not yet). */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../check.h"

static int rank, size;

static void temp_name(char *name, size_t len)
{
    if (rank == 0) {
        const char *dir = getenv("TMPDIR");
        snprintf(name, len, "%s/mica-t_external32-XXXXXX", dir && *dir ? dir : "/tmp");
        int fd = mkstemp(name);
        CHECK(fd >= 0);
        close(fd);
    }
    MPI_Bcast(name, (int)len, MPI_CHAR, 0, MPI_COMM_WORLD);
}

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Each rank writes 4 ints and 2 doubles at its own offset; the raw bytes are big-endian. */
static void test_contiguous(MPI_File fh)
{
    int ints[4] = {rank, 0x01020304, -2, 1 << 30};
    double d[2] = {1.5, -rank - 0.25};
    MPI_Status st;
    CHECK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "external32", MPI_INFO_NULL) == 0);
    char rep[MPI_MAX_DATAREP_STRING + 1] = "";
    MPI_Offset disp;
    MPI_Datatype et, ft;
    CHECK(MPI_File_get_view(fh, &disp, &et, &ft, rep) == MPI_SUCCESS);
    CHECK(strcmp(rep, "external32") == 0 && et == MPI_BYTE && ft == MPI_BYTE);
    MPI_Offset at = rank * 32;
    CHECK(MPI_File_write_at_all(fh, at, ints, 4, MPI_INT, &st) == MPI_SUCCESS);
    CHECK(MPI_File_write_at_all(fh, at + 16, d, 2, MPI_DOUBLE, &st) == MPI_SUCCESS);
    int n = -1;
    MPI_Get_count(&st, MPI_DOUBLE, &n);
    CHECK(n == 2);

    /* The same bytes through a native view. */
    CHECK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL) == 0);
    unsigned char raw[32];
    CHECK(MPI_File_read_at_all(fh, at, raw, 32, MPI_BYTE, &st) == MPI_SUCCESS);
    CHECKF(be32(raw) == (uint32_t)rank && be32(raw + 4) == 0x01020304 &&
           be32(raw + 8) == 0xfffffffe && be32(raw + 12) == 1u << 30,
           "%08x %08x %08x %08x", be32(raw), be32(raw + 4), be32(raw + 8), be32(raw + 12));
    CHECK(raw[16] == 0x3f && raw[17] == 0xf8 && raw[18] == 0);    /* 1.5 */

    /* And back through external32. */
    CHECK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "external32", MPI_INFO_NULL) == 0);
    int iback[4] = {0};
    double dback[2] = {0};
    CHECK(MPI_File_read_at_all(fh, at, iback, 4, MPI_INT, &st) == MPI_SUCCESS);
    CHECK(MPI_File_read_at_all(fh, at + 16, dback, 2, MPI_DOUBLE, &st) == MPI_SUCCESS);
    CHECK(memcmp(iback, ints, sizeof ints) == 0 && memcmp(dback, d, sizeof d) == 0);
}

/* A C long takes 4 bytes in the file; the individual pointer and the status count follow the
 * external32 bytes; a long that does not fit is refused. */
static void test_long(MPI_File fh)
{
    long l[3] = {-7, 123456789, rank};
    MPI_Status st;
    MPI_Aint ext = 0;
    CHECK(MPI_File_set_view(fh, 1000 + rank * 12, MPI_BYTE, MPI_BYTE, "external32",
                            MPI_INFO_NULL) == 0);
    CHECK(MPI_File_get_type_extent(fh, MPI_LONG, &ext) == MPI_SUCCESS && ext == 4);
    CHECK(MPI_File_get_type_extent(fh, MPI_DOUBLE, &ext) == MPI_SUCCESS && ext == 8);
    CHECK(MPI_File_write(fh, l, 3, MPI_LONG, &st) == MPI_SUCCESS);
    MPI_Offset pos = -1;
    CHECK(MPI_File_get_position(fh, &pos) == MPI_SUCCESS && pos == 12);
    int n = -1;
    MPI_Get_count(&st, MPI_LONG, &n);
    CHECK(n == 3);
    long big = 1L << 40;
    MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN);
    CHECK(check_class(MPI_File_write(fh, &big, 1, MPI_LONG, &st)) == MPI_ERR_CONVERSION);
    CHECK(MPI_File_sync(fh) == MPI_SUCCESS);
    MPI_Barrier(MPI_COMM_WORLD);

    long back[4] = {0, 0, 0, 99};
    CHECK(MPI_File_seek(fh, 0, MPI_SEEK_SET) == MPI_SUCCESS);
    CHECK(MPI_File_read(fh, back, 3, MPI_LONG, &st) == MPI_SUCCESS);
    CHECK(back[0] == -7 && back[1] == 123456789 && back[2] == rank && back[3] == 99);
    /* The last rank's read past the end: a short read counts the whole longs it got. */
    if (rank == size - 1) {
        CHECK(MPI_File_read_at(fh, 4, back, 4, MPI_LONG, &st) == MPI_SUCCESS);
        MPI_Get_count(&st, MPI_LONG, &n);
        CHECKF(n == 2, "%d", n);
        CHECK(back[0] == 123456789 && back[1] == rank);
    }

    /* View types whose external32 layout differs from memory's are not handled yet. */
    CHECK(check_class(MPI_File_set_view(fh, 0, MPI_LONG, MPI_LONG, "external32", MPI_INFO_NULL)) ==
          MPI_ERR_UNSUPPORTED_DATAREP);
    MPI_File_set_errhandler(fh, MPI_ERRORS_ARE_FATAL);
}

/* A strided filetype: rank r owns every size-th int; the whole file, read natively, is the
 * ranks' ints big-endian in turn. */
static void test_strided(MPI_File fh)
{
    MPI_Datatype vec, ft;
    MPI_Type_vector(4, 1, size, MPI_INT, &vec);
    MPI_Type_create_resized(vec, 0, (MPI_Aint)(4 * size * sizeof(int)), &ft);
    MPI_Type_commit(&ft);
    MPI_Type_free(&vec);
    MPI_Status st;
    CHECK(MPI_File_set_view(fh, 4096 + rank * (MPI_Offset)sizeof(int), MPI_INT, ft, "external32",
                            MPI_INFO_NULL) == MPI_SUCCESS);
    int mine[8];
    for (int i = 0; i < 8; i++)
        mine[i] = 100 * rank + i;
    CHECK(MPI_File_write_all(fh, mine, 8, MPI_INT, &st) == MPI_SUCCESS);
    MPI_Barrier(MPI_COMM_WORLD);
    int back[8] = {0};
    CHECK(MPI_File_read_at_all(fh, 0, back, 8, MPI_INT, &st) == MPI_SUCCESS);
    CHECK(memcmp(back, mine, sizeof mine) == 0);
    MPI_Type_free(&ft);

    CHECK(MPI_File_set_view(fh, 4096, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL) == 0);
    unsigned char *raw = malloc((size_t)size * 32);
    CHECK(MPI_File_read_at_all(fh, 0, raw, size * 32, MPI_BYTE, &st) == MPI_SUCCESS);
    for (int i = 0; i < 8 * size; i++) {
        int r = i % size, k = i / size;
        CHECKF(be32(raw + 4 * i) == (uint32_t)(100 * r + k), "int %d: %08x", i, be32(raw + 4 * i));
    }
    free(raw);
}

/* MPICH's external32_derived_dtype: an indexed type of two chars, at offset rank. */
static void test_indexed_chars(MPI_File fh)
{
    MPI_Datatype dt;
    int blocks[2] = {1, 1}, disps[2] = {0, 1};
    MPI_Type_indexed(2, blocks, disps, MPI_CHAR, &dt);
    MPI_Type_commit(&dt);
    char buf[2] = {'a', (char)('0' + rank)}, back[2] = {0};
    MPI_Status st;
    CHECK(MPI_File_set_view(fh, 8192, dt, dt, "external32", MPI_INFO_NULL) == MPI_SUCCESS);
    CHECK(MPI_File_write_at_all(fh, rank, buf, 1, dt, &st) == MPI_SUCCESS);
    CHECK(MPI_File_read_at_all(fh, rank, back, 1, dt, &st) == MPI_SUCCESS);
    CHECK(back[0] == 'a' && back[1] == buf[1]);
    MPI_Type_free(&dt);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char name[256];
    temp_name(name, sizeof name);
    MPI_File fh;
    CHECK(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_INFO_NULL,
                        &fh) == MPI_SUCCESS);
    test_contiguous(fh);
    test_long(fh);
    test_strided(fh);
    test_indexed_chars(fh);

    /* "internal" is the native layout here. */
    char rep[MPI_MAX_DATAREP_STRING + 1] = "";
    MPI_Offset disp;
    MPI_Datatype et, ft;
    CHECK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "internal", MPI_INFO_NULL) == 0);
    CHECK(MPI_File_get_view(fh, &disp, &et, &ft, rep) == MPI_SUCCESS);
    CHECK(strcmp(rep, "internal") == 0);
    CHECK(MPI_File_close(&fh) == MPI_SUCCESS);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        MPI_File_delete(name, MPI_INFO_NULL);
    MPI_Finalize();
    return CHECK_RESULT();
}
