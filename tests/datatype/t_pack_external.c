/* np: 1 */
/* MPI_Pack_external, MPI_Unpack_external, MPI_Pack_external_size and their _c forms: the
 * "external32" bytes of each kind of basic type (big-endian; C long 4 bytes, wchar_t 2, long
 * double IEEE quadruple; complex numbers and MINLOC pairs as their parts), the standard's size
 * of every predefined type, derived types and long messages round trip, a value that does not
 * fit its external size is MPI_ERR_CONVERSION, an unknown datarep MPI_ERR_ARG, a short buffer
 * MPI_ERR_TRUNCATE. */
#include <mpi.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "../check.h"

static int error_class(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

/* Pack one value of `type` and compare the bytes with `want`; unpack them back and compare
 * with the value. */
static void bytes_of(const void *value, MPI_Datatype type, const unsigned char *want, int n)
{
    unsigned char buf[64], back[64];
    MPI_Aint pos = 0, size = -1;
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    MPI_Type_get_name(type, name, &len);
    CHECKF(MPI_Pack_external_size("external32", 1, type, &size) == MPI_SUCCESS && size == n,
           "%s: size %ld, want %d", name, (long)size, n);
    CHECKF(MPI_Pack_external("external32", value, 1, type, buf, sizeof buf, &pos) ==
           MPI_SUCCESS && pos == n, "%s: position %ld", name, (long)pos);
    CHECKF(memcmp(buf, want, n) == 0, "%s: bytes %02x %02x %02x %02x ...", name, buf[0], buf[1],
           buf[2], buf[3]);
    MPI_Aint tsize, lb;
    int native;
    MPI_Type_size(type, &native);
    MPI_Type_get_extent(type, &lb, &tsize);
    memset(back, 0, sizeof back);
    pos = 0;
    CHECKF(MPI_Unpack_external("external32", buf, n, &pos, back, 1, type) == MPI_SUCCESS &&
           pos == n, "%s: unpack", name);
    CHECKF(memcmp(back, value, type == MPI_LONG_DOUBLE ? 10 : (size_t)tsize) == 0,
           "%s: round trip", name);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    /* The bytes of each kind. */
    int i = 0x01020304;
    bytes_of(&i, MPI_INT, (unsigned char[]){1, 2, 3, 4}, 4);
    short sh = -2;
    bytes_of(&sh, MPI_SHORT, (unsigned char[]){0xff, 0xfe}, 2);
    long l = 5;
    bytes_of(&l, MPI_LONG, (unsigned char[]){0, 0, 0, 5}, 4);
    l = -2;
    bytes_of(&l, MPI_LONG, (unsigned char[]){0xff, 0xff, 0xff, 0xfe}, 4);
    unsigned long ul = 0xfffffffful;
    bytes_of(&ul, MPI_UNSIGNED_LONG, (unsigned char[]){0xff, 0xff, 0xff, 0xff}, 4);
    long long ll = 0x0102030405060708ll;
    bytes_of(&ll, MPI_LONG_LONG, (unsigned char[]){1, 2, 3, 4, 5, 6, 7, 8}, 8);
    MPI_Aint a = 0x1122;
    bytes_of(&a, MPI_AINT, (unsigned char[]){0, 0, 0, 0, 0, 0, 0x11, 0x22}, 8);
    float f = 1.0f;
    bytes_of(&f, MPI_FLOAT, (unsigned char[]){0x3f, 0x80, 0, 0}, 4);
    double d = -2.0;
    bytes_of(&d, MPI_DOUBLE, (unsigned char[]){0xc0, 0, 0, 0, 0, 0, 0, 0}, 8);
    long double ld = 1.0L;
    bytes_of(&ld, MPI_LONG_DOUBLE, (unsigned char[]){0x3f, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                                     0, 0, 0, 0}, 16);
    ld = -0.375L;                     /* -1.1b x 2^-2 */
    bytes_of(&ld, MPI_LONG_DOUBLE, (unsigned char[]){0xbf, 0xfd, 0x80, 0, 0, 0, 0, 0, 0, 0, 0,
                                                     0, 0, 0, 0, 0}, 16);
    float _Complex fc = __builtin_complex(1.0f, 2.0f);
    bytes_of(&fc, MPI_C_FLOAT_COMPLEX, (unsigned char[]){0x3f, 0x80, 0, 0, 0x40, 0, 0, 0}, 8);
    wchar_t w = L'A';
    bytes_of(&w, MPI_WCHAR, (unsigned char[]){0, 0x41}, 2);
    char c = 'x';
    bytes_of(&c, MPI_CHAR, (unsigned char[]){'x'}, 1);
    struct { float v; int i; } fi = {1.0f, 7};
    bytes_of(&fi, MPI_FLOAT_INT, (unsigned char[]){0x3f, 0x80, 0, 0, 0, 0, 0, 7}, 8);

    /* The standard's size of each predefined type. */
    struct { MPI_Datatype t; int size; } sizes[] = {
        {MPI_PACKED, 1}, {MPI_BYTE, 1}, {MPI_CHAR, 1}, {MPI_UNSIGNED_CHAR, 1},
        {MPI_SIGNED_CHAR, 1}, {MPI_WCHAR, 2}, {MPI_SHORT, 2}, {MPI_UNSIGNED_SHORT, 2},
        {MPI_INT, 4}, {MPI_UNSIGNED, 4}, {MPI_LONG, 4}, {MPI_UNSIGNED_LONG, 4},
        {MPI_LONG_LONG_INT, 8}, {MPI_UNSIGNED_LONG_LONG, 8}, {MPI_FLOAT, 4}, {MPI_DOUBLE, 8},
        {MPI_LONG_DOUBLE, 16}, {MPI_C_BOOL, 1}, {MPI_INT8_T, 1}, {MPI_INT16_T, 2},
        {MPI_INT32_T, 4}, {MPI_INT64_T, 8}, {MPI_UINT8_T, 1}, {MPI_UINT16_T, 2},
        {MPI_UINT32_T, 4}, {MPI_UINT64_T, 8}, {MPI_AINT, 8}, {MPI_COUNT, 8}, {MPI_OFFSET, 8},
        {MPI_C_COMPLEX, 8}, {MPI_C_DOUBLE_COMPLEX, 16}, {MPI_C_LONG_DOUBLE_COMPLEX, 32},
        {MPI_CHARACTER, 1}, {MPI_LOGICAL, 4}, {MPI_INTEGER, 4}, {MPI_REAL, 4},
        {MPI_DOUBLE_PRECISION, 8}, {MPI_COMPLEX, 8}, {MPI_DOUBLE_COMPLEX, 16},
        {MPI_INTEGER1, 1}, {MPI_INTEGER2, 2}, {MPI_INTEGER4, 4}, {MPI_INTEGER8, 8},
        {MPI_INTEGER16, 16}, {MPI_REAL4, 4}, {MPI_REAL8, 8}, {MPI_REAL16, 16},
        {MPI_COMPLEX8, 8}, {MPI_COMPLEX16, 16}, {MPI_COMPLEX32, 32}, {MPI_CXX_BOOL, 1},
        {MPI_CXX_FLOAT_COMPLEX, 8}, {MPI_CXX_DOUBLE_COMPLEX, 16},
        {MPI_CXX_LONG_DOUBLE_COMPLEX, 32}, {MPI_LONG_INT, 8}, {MPI_LONG_DOUBLE_INT, 20},
        {MPI_2INT, 8}, {MPI_SHORT_INT, 6}, {MPI_DOUBLE_INT, 12},
    };
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        MPI_Aint s = -1;
        MPI_Count sc = -1;
        CHECKF(MPI_Pack_external_size("external32", 3, sizes[k].t, &s) == MPI_SUCCESS &&
               s == 3 * sizes[k].size, "entry %zu: %ld, want 3 x %d", k, (long)s, sizes[k].size);
        CHECK(MPI_Pack_external_size_c("external32", 3, sizes[k].t, &sc) == MPI_SUCCESS &&
              sc == 3 * sizes[k].size);
    }

    /* A struct { char; long; double } with padding: 13 bytes, and back. */
    struct s { char c; long l; double d; } in[3] = {{'a', -1, 0.5}, {'b', 1 << 30, -3}, {'c', 0, 1e300}},
                                                   out[3];
    MPI_Datatype st;
    MPI_Type_create_struct(3, (int[]){1, 1, 1},
                           (MPI_Aint[]){offsetof(struct s, c), offsetof(struct s, l),
                                        offsetof(struct s, d)},
                           (MPI_Datatype[]){MPI_CHAR, MPI_LONG, MPI_DOUBLE}, &st);
    MPI_Type_commit(&st);
    unsigned char buf[256];
    MPI_Aint pos = 0, size;
    CHECK(MPI_Pack_external_size("external32", 3, st, &size) == MPI_SUCCESS && size == 39);
    CHECK(MPI_Pack_external("external32", in, 3, st, buf, sizeof buf, &pos) == MPI_SUCCESS &&
          pos == 39);
    CHECK(buf[0] == 'a' && buf[1] == 0xff && buf[4] == 0xff && buf[5] == 0x3f && buf[6] == 0xe0);
    CHECK(buf[13] == 'b' && buf[14] == 0x40 && buf[17] == 0);
    memset(out, 0, sizeof out);
    pos = 0;
    CHECK(MPI_Unpack_external("external32", buf, 39, &pos, out, 3, st) == MPI_SUCCESS && pos == 39);
    for (int k = 0; k < 3; k++)
        CHECK(out[k].c == in[k].c && out[k].l == in[k].l && out[k].d == in[k].d);
    /* Appending after what is there; a short buffer is truncation, nothing moves. */
    pos = 39;
    CHECK(MPI_Pack_external("external32", &i, 1, MPI_INT, buf, 43, &pos) == MPI_SUCCESS &&
          pos == 43 && buf[39] == 1 && buf[42] == 4);
    pos = 40;
    CHECK(error_class(MPI_Pack_external("external32", &i, 1, MPI_INT, buf, 43, &pos)) ==
          MPI_ERR_TRUNCATE && pos == 40);
    pos = 0;
    CHECK(error_class(MPI_Unpack_external("external32", buf, 38, &pos, out, 3, st)) ==
          MPI_ERR_TRUNCATE && pos == 0);
    MPI_Type_free(&st);

    /* Values that external32 cannot hold. */
    l = 1L << 40;
    pos = 0;
    CHECK(error_class(MPI_Pack_external("external32", &l, 1, MPI_LONG, buf, 4, &pos)) ==
          MPI_ERR_CONVERSION && pos == 0);
    l = -(1L << 31) - 1;
    CHECK(error_class(MPI_Pack_external("external32", &l, 1, MPI_LONG, buf, 4, &pos)) ==
          MPI_ERR_CONVERSION);
    ul = 1UL << 32;
    CHECK(error_class(MPI_Pack_external("external32", &ul, 1, MPI_UNSIGNED_LONG, buf, 4, &pos)) ==
          MPI_ERR_CONVERSION);
    w = 0x10000;
    CHECK(error_class(MPI_Pack_external("external32", &w, 1, MPI_WCHAR, buf, 2, &pos)) ==
          MPI_ERR_CONVERSION);
    l = -(1L << 31);                  /* the extremes fit */
    CHECK(MPI_Pack_external("external32", &l, 1, MPI_LONG, buf, 4, &pos) == MPI_SUCCESS &&
          buf[0] == 0x80 && buf[3] == 0);

    /* Unknown representations. */
    MPI_Aint s;
    pos = 0;
    CHECK(error_class(MPI_Pack_external_size("native", 1, MPI_INT, &s)) == MPI_ERR_ARG);
    CHECK(error_class(MPI_Pack_external("External32", &i, 1, MPI_INT, buf, 4, &pos)) ==
          MPI_ERR_ARG);
    CHECK(error_class(MPI_Unpack_external("internal", buf, 4, &pos, &i, 1, MPI_INT)) ==
          MPI_ERR_ARG);
    CHECK(error_class(MPI_Pack_external_size("external32", -1, MPI_INT, &s)) == MPI_ERR_COUNT);

    /* A long strided message, longer than one conversion chunk, with the _c forms. */
    enum { N = 100000 };
    double *x = malloc(2 * N * sizeof *x), *y = calloc(2 * N, sizeof *y);
    unsigned char *ext = malloc(N * 8);
    for (int k = 0; k < 2 * N; k++)
        x[k] = k * 0.25;
    MPI_Datatype v;
    MPI_Type_vector(N, 1, 2, MPI_DOUBLE, &v);
    MPI_Type_commit(&v);
    MPI_Count cpos = 0, csize;
    CHECK(MPI_Pack_external_size_c("external32", 1, v, &csize) == MPI_SUCCESS && csize == N * 8);
    CHECK(MPI_Pack_external_c("external32", x, 1, v, ext, N * 8, &cpos) == MPI_SUCCESS &&
          cpos == N * 8);
    double second;                    /* x[2] = 0.5 is 3fe0 0000 0000 0000 */
    unsigned char be[8];
    for (int k = 0; k < 8; k++)
        be[k] = ext[8 + 7 - k];
    memcpy(&second, be, 8);
    CHECK(second == 0.5);
    cpos = 0;
    CHECK(MPI_Unpack_external_c("external32", ext, N * 8, &cpos, y, 1, v) == MPI_SUCCESS &&
          cpos == N * 8);
    int same = 1;
    for (int k = 0; k < 2 * N; k++)
        same &= y[k] == (k % 2 ? 0 : x[k]);
    CHECK(same);
    MPI_Type_free(&v);
    free(x);
    free(y);
    free(ext);

    MPI_Finalize();
    return CHECK_RESULT();
}
