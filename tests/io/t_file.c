/* np: 1 4 */
/* MPI-IO on POSIX files: open modes and their errors, explicit offsets, individual and shared
 * file pointers, a strided view with the file's exact contents checked, nonblocking and split
 * collective access, sizes, delete on close, and the file error handlers. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../check.h"

#define N 16                          /* ints per rank in the block tests */

static int rank, size;

static int cls(int rc)
{
    int c = -1;
    MPI_Error_class(rc, &c);
    return c;
}

/* A fresh file name no other run uses: rank 0 makes it with mkstemp, everyone learns it. */
static void temp_name(char *name, size_t len)
{
    if (rank == 0) {
        const char *dir = getenv("TMPDIR");
        snprintf(name, len, "%s/mica-t_file-XXXXXX", dir && *dir ? dir : "/tmp");
        int fd = mkstemp(name);
        CHECK(fd >= 0);
        close(fd);
        unlink(name);
    }
    MPI_Bcast(name, (int)len, MPI_CHAR, 0, MPI_COMM_WORLD);
}

static int handler_calls, handler_class;
static void count_errors(MPI_File *fh, int *code, ...)
{
    (void)fh;
    handler_calls++;
    MPI_Error_class(*code, &handler_class);
}

static void test_open_errors(const char *name)
{
    MPI_File fh = (MPI_File)0;
    MPI_Errhandler eh;
    CHECK(MPI_File_get_errhandler(MPI_FILE_NULL, &eh) == MPI_SUCCESS);
    CHECK(eh == MPI_ERRORS_RETURN);

    CHECK(cls(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh)) ==
          MPI_ERR_NO_SUCH_FILE);
    CHECK(fh == MPI_FILE_NULL);
    CHECK(cls(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDONLY | MPI_MODE_CREATE,
                            MPI_INFO_NULL, &fh)) == MPI_ERR_AMODE);
    CHECK(cls(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDONLY | MPI_MODE_RDWR,
                            MPI_INFO_NULL, &fh)) == MPI_ERR_AMODE);
    CHECK(cls(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE, MPI_INFO_NULL, &fh)) ==
          MPI_ERR_AMODE);
    CHECK(cls(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDWR | MPI_MODE_SEQUENTIAL,
                            MPI_INFO_NULL, &fh)) == MPI_ERR_AMODE);
    CHECK(cls(MPI_File_delete(name, MPI_INFO_NULL)) == MPI_ERR_NO_SUCH_FILE);

    /* Exclusive creation: the first succeeds, the second finds the file. */
    CHECK(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_WRONLY,
                        MPI_INFO_NULL, &fh) == MPI_SUCCESS);
    int amode = 0;
    CHECK(MPI_File_get_amode(fh, &amode) == MPI_SUCCESS);
    CHECK(amode == (MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_WRONLY));
    int x = 0;
    MPI_Status st;
    CHECK(cls(MPI_File_read_at(fh, 0, &x, 1, MPI_INT, &st)) == MPI_ERR_ACCESS);
    CHECK(MPI_File_close(&fh) == MPI_SUCCESS);
    CHECK(fh == MPI_FILE_NULL);
    CHECK(cls(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_RDWR,
                            MPI_INFO_NULL, &fh)) == MPI_ERR_FILE_EXISTS);
    CHECK(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh) ==
          MPI_SUCCESS);
    CHECK(cls(MPI_File_write_at(fh, 0, &x, 1, MPI_INT, &st)) == MPI_ERR_READ_ONLY);
    CHECK(cls(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "xdr", MPI_INFO_NULL)) ==
          MPI_ERR_UNSUPPORTED_DATAREP);
    CHECK(cls(MPI_File_seek(fh, 0, 12345)) == MPI_ERR_ARG);
    CHECK(MPI_File_close(&fh) == MPI_SUCCESS);

    /* MPI_FILE_NULL's handler: takes errors on no file, and new files inherit it. */
    MPI_Errhandler counting;
    CHECK(MPI_File_create_errhandler(count_errors, &counting) == MPI_SUCCESS);
    CHECK(MPI_File_set_errhandler(MPI_FILE_NULL, counting) == MPI_SUCCESS);
    MPI_Offset sz;
    CHECK(cls(MPI_File_get_size(MPI_FILE_NULL, &sz)) == MPI_ERR_FILE);
    CHECK(handler_calls == 1 && handler_class == MPI_ERR_FILE);
    CHECK(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDWR, MPI_INFO_NULL, &fh) == MPI_SUCCESS);
    CHECK(MPI_File_get_errhandler(fh, &eh) == MPI_SUCCESS);
    CHECK(eh == counting);
    MPI_Errhandler_free(&eh);
    CHECK(cls(MPI_File_set_size(fh, -1)) == MPI_ERR_ARG);
    CHECK(handler_calls == 2 && handler_class == MPI_ERR_ARG);
    CHECK(MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN) == MPI_SUCCESS);
    CHECK(cls(MPI_File_set_size(fh, -1)) == MPI_ERR_ARG);
    CHECK(handler_calls == 2);
    CHECK(MPI_File_close(&fh) == MPI_SUCCESS);
    CHECK(MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN) == MPI_SUCCESS);
    MPI_Errhandler_free(&counting);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        CHECK(MPI_File_delete(name, MPI_INFO_NULL) == MPI_SUCCESS);
    MPI_Barrier(MPI_COMM_WORLD);
}

static void test_blocks(const char *name)
{
    MPI_File fh;
    MPI_Status st;
    int count = -1;
    CHECK(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                        &fh) == MPI_SUCCESS);
    CHECK(MPI_File_f2c(MPI_File_c2f(fh)) == fh);
    int flag = -1;
    CHECK(MPI_File_set_atomicity(fh, 1) == MPI_SUCCESS);
    CHECK(MPI_File_get_atomicity(fh, &flag) == MPI_SUCCESS && flag == 1);
    CHECK(MPI_File_set_info(fh, MPI_INFO_NULL) == MPI_SUCCESS);
    MPI_Group g;
    int gsize = -1, grank = -1;
    CHECK(MPI_File_get_group(fh, &g) == MPI_SUCCESS);
    MPI_Group_size(g, &gsize);
    MPI_Group_rank(g, &grank);
    CHECK(gsize == size && grank == rank);
    MPI_Group_free(&g);
    MPI_Info info;
    int nkeys = -1;
    CHECK(MPI_File_get_info(fh, &info) == MPI_SUCCESS);
    MPI_Info_get_nkeys(info, &nkeys);
    CHECK(nkeys == 0);
    MPI_Info_free(&info);

    /* Disjoint blocks at explicit offsets. */
    int out[N], in[N];
    for (int i = 0; i < N; i++)
        out[i] = rank * 100 + i;
    CHECK(MPI_File_write_at(fh, (MPI_Offset)rank * N * sizeof(int), out, N, MPI_INT, &st) ==
          MPI_SUCCESS);
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == N);
    CHECK(MPI_File_sync(fh) == MPI_SUCCESS);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(MPI_File_sync(fh) == MPI_SUCCESS);
    MPI_Offset fsize = -1;
    CHECK(MPI_File_get_size(fh, &fsize) == MPI_SUCCESS);
    CHECK(fsize == (MPI_Offset)size * N * sizeof(int));
    int peer = (rank + 1) % size;
    CHECK(MPI_File_read_at_all(fh, (MPI_Offset)peer * N * sizeof(int), in, N, MPI_INT, &st) ==
          MPI_SUCCESS);
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == N);
    for (int i = 0; i < N; i++)
        CHECKF(in[i] == peer * 100 + i, "in[%d]=%d", i, in[i]);

    /* A short read at the end of the file. */
    CHECK(MPI_File_read_at(fh, fsize - 2 * sizeof(int), in, N, MPI_INT, &st) == MPI_SUCCESS);
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == 2);
    CHECK(in[0] == (size - 1) * 100 + N - 2 && in[1] == (size - 1) * 100 + N - 1);

    /* The individual pointer: seek, read, position; SEEK_CUR and SEEK_END. */
    MPI_Offset pos = -1;
    CHECK(MPI_File_seek(fh, (MPI_Offset)peer * N * sizeof(int), MPI_SEEK_SET) == MPI_SUCCESS);
    CHECK(MPI_File_read(fh, in, N / 2, MPI_INT, &st) == MPI_SUCCESS);
    CHECK(in[0] == peer * 100 && in[N / 2 - 1] == peer * 100 + N / 2 - 1);
    CHECK(MPI_File_get_position(fh, &pos) == MPI_SUCCESS);
    CHECK(pos == (MPI_Offset)(peer * N + N / 2) * sizeof(int));
    CHECK(MPI_File_seek(fh, sizeof(int), MPI_SEEK_CUR) == MPI_SUCCESS);
    CHECK(MPI_File_read_all(fh, in, 1, MPI_INT, &st) == MPI_SUCCESS);
    CHECK(in[0] == peer * 100 + N / 2 + 1);
    CHECK(MPI_File_seek(fh, 0, MPI_SEEK_END) == MPI_SUCCESS);
    CHECK(MPI_File_get_position(fh, &pos) == MPI_SUCCESS);
    CHECK(pos == fsize);
    CHECK(cls(MPI_File_seek(fh, -fsize - 1, MPI_SEEK_END)) == MPI_ERR_ARG);
    CHECK(MPI_File_read(fh, in, 1, MPI_INT, &st) == MPI_SUCCESS);
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == 0);

    /* Write through the individual pointer, collectively, then check. */
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < N; i++)
        out[i] = -(rank * 100 + i);
    CHECK(MPI_File_seek(fh, (MPI_Offset)rank * N * sizeof(int), MPI_SEEK_SET) == MPI_SUCCESS);
    CHECK(MPI_File_write_all(fh, out, N, MPI_INT, &st) == MPI_SUCCESS);
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(fh);
    CHECK(MPI_File_read_at(fh, (MPI_Offset)peer * N * sizeof(int), in, N, MPI_INT, &st) ==
          MPI_SUCCESS);
    for (int i = 0; i < N; i++)
        CHECKF(in[i] == -(peer * 100 + i), "in[%d]=%d", i, in[i]);

    /* Nonblocking and split collective access. */
    MPI_Request req;
    int v = 7000 + rank;
    MPI_Offset mine = fsize + (MPI_Offset)rank * sizeof(int);
    CHECK(MPI_File_iwrite_at(fh, mine, &v, 1, MPI_INT, &req) == MPI_SUCCESS);
    CHECK(MPI_Wait(&req, &st) == MPI_SUCCESS);
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == 1 && req == MPI_REQUEST_NULL);
    int got = 0;
    CHECK(MPI_File_iread_at(fh, mine, &got, 1, MPI_INT, &req) == MPI_SUCCESS);
    CHECK(MPI_Wait(&req, &st) == MPI_SUCCESS);
    CHECK(got == v);
    v += 1000;
    CHECK(MPI_File_write_at_all_begin(fh, mine, &v, 1, MPI_INT) == MPI_SUCCESS);
    CHECK(cls(MPI_File_write_all_begin(fh, &v, 1, MPI_INT)) == MPI_ERR_OTHER);
    CHECK(cls(MPI_File_read_all_end(fh, &v, &st)) == MPI_ERR_OTHER);
    CHECK(MPI_File_write_at_all_end(fh, &v, &st) == MPI_SUCCESS);
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == 1);
    CHECK(MPI_File_read_at_all_begin(fh, mine, &got, 1, MPI_INT) == MPI_SUCCESS);
    CHECK(MPI_File_read_at_all_end(fh, &got, &st) == MPI_SUCCESS);
    CHECK(got == v);

    /* Sizes: set, preallocate (never shrinks). */
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(MPI_File_set_size(fh, 10) == MPI_SUCCESS);
    CHECK(MPI_File_get_size(fh, &fsize) == MPI_SUCCESS);
    CHECK(fsize == 10);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(MPI_File_preallocate(fh, 1000) == MPI_SUCCESS);
    CHECK(MPI_File_get_size(fh, &fsize) == MPI_SUCCESS);
    CHECK(fsize == 1000);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(MPI_File_preallocate(fh, 10) == MPI_SUCCESS);
    CHECK(MPI_File_get_size(fh, &fsize) == MPI_SUCCESS);
    CHECK(fsize == 1000);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(MPI_File_set_size(fh, 0) == MPI_SUCCESS);
    CHECK(MPI_File_get_size(fh, &fsize) == MPI_SUCCESS);
    CHECK(fsize == 0);
    CHECK(MPI_File_close(&fh) == MPI_SUCCESS);
}

/* Each rank's view: every size-th int from int `rank` on, through a vector filetype. */
static void test_strided_view(const char *name)
{
    enum { M = 8 };
    MPI_File fh;
    MPI_Status st;
    MPI_Datatype vec, filetype;
    MPI_Type_vector(2, 1, size, MPI_INT, &vec);
    MPI_Type_create_resized(vec, 0, 2 * size * sizeof(int), &filetype);
    MPI_Type_commit(&filetype);
    CHECK(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDWR, MPI_INFO_NULL, &fh) == MPI_SUCCESS);
    CHECK(MPI_File_set_view(fh, rank * sizeof(int), MPI_INT, filetype, "native", MPI_INFO_NULL)
          == MPI_SUCCESS);
    MPI_Offset disp = -1, off = -1;
    MPI_Datatype et, ft;
    char rep[MPI_MAX_DATAREP_STRING];
    CHECK(MPI_File_get_view(fh, &disp, &et, &ft, rep) == MPI_SUCCESS);
    CHECK(disp == (MPI_Offset)(rank * sizeof(int)) && et == MPI_INT && !strcmp(rep, "native"));
    int ftsize = -1;
    MPI_Type_size(ft, &ftsize);
    CHECK(ftsize == 2 * (int)sizeof(int));
    MPI_Type_free(&ft);
    CHECK(MPI_File_get_byte_offset(fh, 3, &off) == MPI_SUCCESS);
    CHECK(off == (MPI_Offset)((rank + 2 * size + size) * sizeof(int)));
    MPI_Aint ext = -1;
    CHECK(MPI_File_get_type_extent(fh, filetype, &ext) == MPI_SUCCESS);
    CHECK(ext == (MPI_Aint)(2 * size * sizeof(int)));

    int out[M], in[2 * M];
    for (int i = 0; i < M; i++)
        out[i] = rank * 1000 + i;
    CHECK(MPI_File_write_all(fh, out, M, MPI_INT, &st) == MPI_SUCCESS);
    MPI_Offset pos = -1;
    CHECK(MPI_File_get_position(fh, &pos) == MPI_SUCCESS);
    CHECK(pos == M);
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(fh);

    /* Through the view, into a strided memory type: the gaps stay untouched. */
    MPI_Datatype every_other;
    MPI_Type_vector(M, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    for (int i = 0; i < 2 * M; i++)
        in[i] = -1;
    CHECK(MPI_File_read_at(fh, 0, in, 1, every_other, &st) == MPI_SUCCESS);
    for (int i = 0; i < M; i++)
        CHECKF(in[2 * i] == rank * 1000 + i && in[2 * i + 1] == -1, "in[%d]=%d", 2 * i, in[2 * i]);
    MPI_Type_free(&every_other);

    /* The exact file contents, through the default view. */
    CHECK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL) == MPI_SUCCESS);
    int *all = malloc((size_t)size * M * sizeof(int));
    CHECK(MPI_File_read_at(fh, 0, all, size * M, MPI_INT, &st) == MPI_SUCCESS);
    int count = -1;
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == size * M);
    for (int j = 0; j < M; j++)
        for (int r = 0; r < size; r++)
            CHECKF(all[j * size + r] == r * 1000 + j, "int %d is %d", j * size + r,
                   all[j * size + r]);
    free(all);
    MPI_Offset fsize;
    MPI_File_get_size(fh, &fsize);
    CHECK(fsize == (MPI_Offset)size * M * sizeof(int));
    CHECK(MPI_File_close(&fh) == MPI_SUCCESS);
    MPI_Type_free(&vec);
    MPI_Type_free(&filetype);
}

/* The shared file pointer: ordered writes land in rank order; shared writes do not overlap. */
static void test_shared(const char *name)
{
    MPI_File fh;
    MPI_Status st;
    int total = size * (size + 1) / 2, count = -1;
    CHECK(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDWR | MPI_MODE_CREATE, MPI_INFO_NULL,
                        &fh) == MPI_SUCCESS);
    CHECK(MPI_File_set_size(fh, 0) == MPI_SUCCESS);
    CHECK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL) == MPI_SUCCESS);
    int mine[64];
    for (int i = 0; i <= rank; i++)
        mine[i] = rank;
    CHECK(MPI_File_write_ordered(fh, mine, rank + 1, MPI_INT, &st) == MPI_SUCCESS);
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == rank + 1);
    MPI_Offset pos = -1;
    CHECK(MPI_File_get_position_shared(fh, &pos) == MPI_SUCCESS);
    CHECK(pos == total);
    MPI_Barrier(MPI_COMM_WORLD);
    int v = 100 + rank;
    CHECK(MPI_File_write_shared(fh, &v, 1, MPI_INT, &st) == MPI_SUCCESS);
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(fh);
    CHECK(MPI_File_get_position_shared(fh, &pos) == MPI_SUCCESS);
    CHECK(pos == total + size);

    int *all = malloc((size_t)(total + size) * sizeof(int));
    CHECK(MPI_File_read_at(fh, 0, all, total + size, MPI_INT, &st) == MPI_SUCCESS);
    for (int r = 0, k = 0; r < size; r++)
        for (int i = 0; i <= r; i++, k++)
            CHECKF(all[k] == r, "int %d is %d", k, all[k]);
    int seen = 0;
    for (int i = 0; i < size; i++)
        if (all[total + i] >= 100 && all[total + i] < 100 + size)
            seen |= 1 << (all[total + i] - 100);
    CHECK(seen == (1 << size) - 1);
    free(all);

    /* Back to the start; read in rank order. */
    CHECK(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET) == MPI_SUCCESS);
    int in[64] = {0};
    CHECK(MPI_File_read_ordered(fh, in, rank + 1, MPI_INT, &st) == MPI_SUCCESS);
    for (int i = 0; i <= rank; i++)
        CHECK(in[i] == rank);
    CHECK(MPI_File_seek_shared(fh, -1, MPI_SEEK_END) == MPI_SUCCESS);
    CHECK(MPI_File_get_position_shared(fh, &pos) == MPI_SUCCESS);
    CHECK(pos == total + size - 1);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(MPI_File_close(&fh) == MPI_SUCCESS);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        CHECK(MPI_File_delete(name, MPI_INFO_NULL) == MPI_SUCCESS);
    MPI_Barrier(MPI_COMM_WORLD);
}

static void test_delete_on_close(const char *name)
{
    MPI_File fh;
    MPI_Status st;
    CHECK(MPI_File_open(MPI_COMM_WORLD, name,
                        MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_DELETE_ON_CLOSE |
                        MPI_MODE_UNIQUE_OPEN, MPI_INFO_NULL, &fh) == MPI_SUCCESS);
    CHECK(MPI_File_write_at(fh, rank, "x", 1, MPI_CHAR, &st) == MPI_SUCCESS);
    CHECK(access(name, F_OK) == 0);
    CHECK(MPI_File_close(&fh) == MPI_SUCCESS);
    CHECK(access(name, F_OK) != 0);
    CHECK(cls(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh)) ==
          MPI_ERR_NO_SUCH_FILE);

    /* Append: both pointers start at the end. */
    if (rank == 0) {
        FILE *f = fopen(name, "w");
        CHECK(f != NULL);
        fputs("0123456789", f);
        fclose(f);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_WRONLY | MPI_MODE_APPEND |
                        MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh) == MPI_SUCCESS);
    MPI_Offset pos = -1;
    CHECK(MPI_File_get_position(fh, &pos) == MPI_SUCCESS);
    CHECK(pos == 10);
    CHECK(MPI_File_get_position_shared(fh, &pos) == MPI_SUCCESS);
    CHECK(pos == 10);
    CHECK(MPI_File_close(&fh) == MPI_SUCCESS);
    CHECK(access(name, F_OK) != 0);

    /* Sequential: only the shared file pointer. */
    int v = rank;
    CHECK(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_WRONLY |
                        MPI_MODE_SEQUENTIAL | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh) ==
          MPI_SUCCESS);
    CHECK(cls(MPI_File_write_at(fh, 0, &v, 1, MPI_INT, &st)) == MPI_ERR_UNSUPPORTED_OPERATION);
    CHECK(cls(MPI_File_write(fh, &v, 1, MPI_INT, &st)) == MPI_ERR_UNSUPPORTED_OPERATION);
    CHECK(cls(MPI_File_seek(fh, 0, MPI_SEEK_SET)) == MPI_ERR_UNSUPPORTED_OPERATION);
    CHECK(cls(MPI_File_set_size(fh, 0)) == MPI_ERR_UNSUPPORTED_OPERATION);
    CHECK(MPI_File_write_ordered(fh, &v, 1, MPI_INT, &st) == MPI_SUCCESS);
    MPI_Offset size_now = -1;
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(MPI_File_get_size(fh, &size_now) == MPI_SUCCESS);
    CHECK(size_now == (MPI_Offset)(size * sizeof(int)));
    CHECK(MPI_File_close(&fh) == MPI_SUCCESS);
    CHECK(access(name, F_OK) != 0);
}

/* The standard's rule for views: displacements not negative nor decreasing, no overlapping
 * blocks in a file open for writing (ROMIO's class, MPI_ERR_IO; MPICH's io/tst_fileview). */
static void test_view_rules(const char *name)
{
    static const struct { int disp[2], len[2], readonly_ok; } cases[] = {
        {{-2, 2}, {1, 1}, 0},         /* negative */
        {{3, 0}, {1, 1}, 0},          /* decreasing */
        {{0, 1}, {3, 1}, 1},          /* overlapping: only for reading */
    };
    for (int amode = 0; amode < 2; amode++) {
        MPI_File fh;
        CHECK(MPI_File_open(MPI_COMM_WORLD, name, amode ? MPI_MODE_RDONLY : MPI_MODE_RDWR,
                            MPI_INFO_NULL, &fh) == MPI_SUCCESS);
        MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN);
        for (int i = 0; i < 3; i++) {
            MPI_Datatype t;
            MPI_Type_indexed(2, cases[i].len, cases[i].disp, MPI_INT, &t);
            MPI_Type_commit(&t);
            int want = amode && cases[i].readonly_ok ? MPI_SUCCESS : MPI_ERR_IO;
            CHECKF(cls(MPI_File_set_view(fh, 0, MPI_INT, t, "native", MPI_INFO_NULL)) == want,
                   "filetype case %d, amode %d", i, amode);
            CHECKF(cls(MPI_File_set_view(fh, 0, t, t, "native", MPI_INFO_NULL)) == want,
                   "etype case %d, amode %d", i, amode);
            MPI_Type_free(&t);
        }
        CHECK(MPI_File_close(&fh) == MPI_SUCCESS);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char name[512];
    temp_name(name, sizeof name);
    test_open_errors(name);
    test_blocks(name);
    test_strided_view(name);
    test_view_rules(name);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        CHECK(MPI_File_delete(name, MPI_INFO_NULL) == MPI_SUCCESS);
    MPI_Barrier(MPI_COMM_WORLD);
    test_shared(name);
    test_delete_on_close(name);
    MPI_Finalize();
    return CHECK_RESULT();
}
