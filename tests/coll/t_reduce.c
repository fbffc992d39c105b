/* np: 1 2 3 4 8 */
/* MPI_Reduce and MPI_Allreduce: every predefined operation on the types it allows, each as
 * allreduce, allreduce with MPI_IN_PLACE, reduce to a rotating root, and reduce in place at the
 * root; short and long vectors (both allreduce algorithms), a vector count below the folded
 * process count, a derived vector type (gaps untouched), the large-count forms, and errors. */
#include <mpi.h>
#include <complex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"

static int rank, size, variant;

enum { SUM, PROD, MAX, MIN, LAND, LOR, LXOR, BAND, BOR, BXOR, NOPS };
static const char *const op_names[] = {"SUM", "PROD", "MAX", "MIN", "LAND", "LOR", "LXOR",
                                       "BAND", "BOR", "BXOR"};
#define ARITH (1u << SUM | 1u << PROD | 1u << MAX | 1u << MIN)
#define LOGIC (1u << LAND | 1u << LOR | 1u << LXOR)
#define BITS (1u << BAND | 1u << BOR | 1u << BXOR)
#define ALL (ARITH | LOGIC | BITS)
static MPI_Op mpi_op(int o)
{
    static const MPI_Op ops[] = {MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN, MPI_LAND, MPI_LOR,
                                 MPI_LXOR, MPI_BAND, MPI_BOR, MPI_BXOR};
    return ops[o];
}

/* Rank r's element i for operation o: small values whose reduction is exact in every type. */
static long long value(int o, int r, int i)
{
    switch (o) {
    case SUM: return (r + i) % 7;
    case PROD: return r % 3 == 0 && (i & 1) ? 2 : 1;
    case MAX: case MIN: return (r * 5 + i * 3) % 11;
    case LAND: case LOR: case LXOR: return i % 4 == 0 ? 1 : (r + i) % 3 != 0;
    default: return (1 << ((r + i) % 7)) | (i & 1);
    }
}

static long long combine(int o, long long a, long long b)
{
    switch (o) {
    case SUM: return a + b;
    case PROD: return a * b;
    case MAX: return a > b ? a : b;
    case MIN: return a < b ? a : b;
    case LAND: return a && b;
    case LOR: return a || b;
    case LXOR: return !a != !b;
    case BAND: return a & b;
    case BOR: return a | b;
    default: return a ^ b;
    }
}

static long long expected(int o, int i)
{
    long long v = value(o, 0, i);
    for (int r = 1; r < size; r++)
        v = combine(o, v, value(o, r, i));
    return v;
}

/* Run the four variants of one (op, type, count): `in` holds this rank's data. */
static void run(const void *in, void *out, int n, MPI_Datatype t, MPI_Op op, size_t esz,
                int (*ok)(const void *out, int n, int o), int o, const char *tname)
{
    int root = variant++ % size;
    for (int v = 0; v < 4; v++) {
        memset(out, 0x5a, n * esz);
        int rc;
        if (v == 0) {
            rc = MPI_Allreduce(in, out, n, t, op, MPI_COMM_WORLD);
        } else if (v == 1) {
            memcpy(out, in, n * esz);
            rc = MPI_Allreduce(MPI_IN_PLACE, out, n, t, op, MPI_COMM_WORLD);
        } else if (v == 2) {
            rc = MPI_Reduce(in, out, n, t, op, root, MPI_COMM_WORLD);
        } else {
            if (rank == root)
                memcpy(out, in, n * esz);
            rc = MPI_Reduce(rank == root ? MPI_IN_PLACE : in, out, n, t, op, root,
                            MPI_COMM_WORLD);
        }
        CHECKF(rc == MPI_SUCCESS, "%s on %s variant %d", o >= 0 ? op_names[o] : "loc", tname, v);
        if (v < 2 || rank == root)
            CHECKF(ok(out, n, o), "%s on %s, count %d, variant %d (root %d)",
                   o >= 0 ? op_names[o] : "loc", tname, n, v, root);
    }
}

#define INT_TYPE(T, MT)                                                                       \
    static int ok_##T(const void *out, int n, int o)                                          \
    {                                                                                         \
        const T *p = out;                                                                     \
        for (int i = 0; i < n; i++)                                                           \
            if (p[i] != (T)expected(o, i))                                                    \
                return 0;                                                                     \
        return 1;                                                                             \
    }                                                                                         \
    static void test_##T(int n, unsigned ops)                                          \
    {                                                                                         \
        T *in = malloc(n * sizeof(T)), *out = malloc(n * sizeof(T));                          \
        for (int o = 0; o < NOPS; o++) {                                                     \
            if (!(ops & 1u << o))                                                             \
                continue;                                                                     \
            for (int i = 0; i < n; i++)                                                       \
                in[i] = (T)value(o, rank, i);                                                 \
            run(in, out, n, MT, mpi_op(o), sizeof(T), ok_##T, o, #MT);                        \
        }                                                                                     \
        free(in), free(out);                                                                  \
    }

typedef signed char schar;
typedef unsigned char uchar;
typedef unsigned short ushort;
typedef long long llong;
typedef unsigned long long ullong;
typedef long double ldouble;
typedef _Bool cbool;
INT_TYPE(int, MPI_INT)
INT_TYPE(long, MPI_LONG)
INT_TYPE(short, MPI_SHORT)
INT_TYPE(ushort, MPI_UNSIGNED_SHORT)
INT_TYPE(unsigned, MPI_UNSIGNED)
INT_TYPE(llong, MPI_LONG_LONG)
INT_TYPE(ullong, MPI_UNSIGNED_LONG_LONG)
INT_TYPE(schar, MPI_SIGNED_CHAR)
INT_TYPE(uchar, MPI_UNSIGNED_CHAR)
INT_TYPE(int8_t, MPI_INT8_T)
INT_TYPE(uint16_t, MPI_UINT16_T)
INT_TYPE(int64_t, MPI_INT64_T)
INT_TYPE(uint64_t, MPI_UINT64_T)
INT_TYPE(float, MPI_FLOAT)
INT_TYPE(double, MPI_DOUBLE)
INT_TYPE(ldouble, MPI_LONG_DOUBLE)
INT_TYPE(cbool, MPI_C_BOOL)
INT_TYPE(uint8_t, MPI_BYTE)
INT_TYPE(int32_t, MPI_INTEGER)
typedef int32_t int32_t_l;
INT_TYPE(int32_t_l, MPI_LOGICAL)

typedef double complex dcomplex;
static int ok_complex(const void *out, int n, int o)
{
    const dcomplex *p = out;
    for (int i = 0; i < n; i++) {
        dcomplex want = o == SUM ? 0 : 1;
        for (int r = 0; r < size; r++) {
            dcomplex v = (r + i) % 4 == 0 ? I : 1 + r * I;
            if (o == PROD)
                v = (r + i) % 4 == 0 ? I : 1;
            want = o == SUM ? want + v : want * v;
        }
        if (p[i] != want)
            return 0;
    }
    return 1;
}

static void test_complex(int n)
{
    dcomplex *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
    for (int o = SUM; o <= PROD; o++) {
        for (int i = 0; i < n; i++)
            in[i] = o == SUM ? ((rank + i) % 4 == 0 ? I : 1 + rank * I)
                             : ((rank + i) % 4 == 0 ? I : 1);
        run(in, out, n, MPI_C_DOUBLE_COMPLEX, mpi_op(o), sizeof *in, ok_complex, o,
            "MPI_C_DOUBLE_COMPLEX");
    }
    free(in), free(out);
}

/* MINLOC and MAXLOC: ties go to the lower index. */
typedef struct { double v; int i; } dint;
typedef struct { int v, i; } iint;
static int loc_value(int r, int i) { return (r * 3 + i) % 4; }
static int loc_op;                    /* 0: MINLOC, 1: MAXLOC */
static void loc_want(int i, int *v, int *at)
{
    *v = loc_value(0, i), *at = 0;
    for (int r = 1; r < size; r++) {
        int x = loc_value(r, i);
        if (loc_op ? x > *v : x < *v)
            *v = x, *at = r;
    }
}
static int ok_dint(const void *out, int n, int o)
{
    (void)o;
    const dint *p = out;
    for (int i = 0; i < n; i++) {
        int v, at;
        loc_want(i, &v, &at);
        if (p[i].v != v || p[i].i != at)
            return 0;
    }
    return 1;
}
static int ok_iint(const void *out, int n, int o)
{
    (void)o;
    const iint *p = out;
    for (int i = 0; i < n; i++) {
        int v, at;
        loc_want(i, &v, &at);
        if (p[i].v != v || p[i].i != at)
            return 0;
    }
    return 1;
}

static void test_loc(int n)
{
    dint *din = malloc(n * sizeof *din), *dout = malloc(n * sizeof *dout);
    iint *iin = malloc(n * sizeof *iin), *iout = malloc(n * sizeof *iout);
    for (loc_op = 0; loc_op < 2; loc_op++) {
        MPI_Op op = loc_op ? MPI_MAXLOC : MPI_MINLOC;
        for (int i = 0; i < n; i++) {
            din[i] = (dint){loc_value(rank, i), rank};
            iin[i] = (iint){loc_value(rank, i), rank};
        }
        run(din, dout, n, MPI_DOUBLE_INT, op, sizeof *din, ok_dint, -1, "MPI_DOUBLE_INT");
        run(iin, iout, n, MPI_2INT, op, sizeof *iin, ok_iint, -1, "MPI_2INT");
    }
    free(din), free(dout), free(iin), free(iout);
}

static void all_types(int n)
{
    test_int(n, ALL);
    test_long(n, ALL);
    test_short(n, ALL);
    test_ushort(n, ALL);
    test_unsigned(n, ALL);
    test_llong(n, ALL);
    test_ullong(n, ALL);
    test_schar(n, ALL);
    test_uchar(n, ALL);
    test_int8_t(n, ALL);
    test_uint16_t(n, ALL);
    test_int64_t(n, ALL);
    test_uint64_t(n, ALL);
    test_int32_t(n, ARITH | BITS);    /* MPI_INTEGER: no logical operations */
    test_float(n, ARITH);
    test_double(n, ARITH);
    test_ldouble(n, ARITH);
    test_cbool(n, LOGIC);
    test_int32_t_l(n, LOGIC);    /* MPI_LOGICAL */
    test_uint8_t(n, BITS);      /* MPI_BYTE */
    test_complex(n);
    test_loc(n);
}

/* A derived vector type: every other int of 2n; the gaps keep their value. */
static void vector_type(void)
{
    int n = 7;
    MPI_Datatype vec;
    MPI_Type_vector(n, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    int in[14], out[14];
    for (int i = 0; i < 2 * n; i++)
        in[i] = i % 2 ? -100 - i : rank + i, out[i] = -1;
    CHECK(MPI_Allreduce(in, out, 1, vec, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS);
    for (int i = 0; i < 2 * n; i++)
        CHECKF(out[i] == (i % 2 ? -1 : size * (size - 1) / 2 + size * i), "out[%d]=%d", i, out[i]);
    CHECK(MPI_Allreduce(MPI_IN_PLACE, in, 1, vec, MPI_MAX, MPI_COMM_WORLD) == MPI_SUCCESS);
    for (int i = 0; i < 2 * n; i++)
        CHECKF(in[i] == (i % 2 ? -100 - i : size - 1 + i), "in[%d]=%d", i, in[i]);
    MPI_Type_free(&vec);
}

/* Large vectors, and few large elements (count below the folded process count). */
static void large(void)
{
    for (int n = 1000; n <= (1 << 22); n *= 4) {
        double *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
        for (int i = 0; i < n; i++)
            in[i] = rank + (i % 1000);
        CHECK(MPI_Allreduce(in, out, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS);
        int bad = 0;
        for (int i = 0; i < n; i++)
            bad += out[i] != size * (size - 1) / 2.0 + size * (double)(i % 1000);
        CHECKF(!bad, "allreduce of %d doubles: %d wrong", n, bad);
        CHECK(MPI_Reduce(in, out, n, MPI_DOUBLE, MPI_MAX, size - 1, MPI_COMM_WORLD) == MPI_SUCCESS);
        if (rank == size - 1) {
            bad = 0;
            for (int i = 0; i < n; i++)
                bad += out[i] != size - 1 + (i % 1000);
            CHECKF(!bad, "reduce of %d doubles: %d wrong", n, bad);
        }
        free(in), free(out);
    }
    MPI_Datatype big;
    MPI_Type_contiguous(10000, MPI_INT, &big);
    MPI_Type_commit(&big);
    int *in = malloc(3 * 10000 * sizeof(int)), *out = malloc(3 * 10000 * sizeof(int));
    for (int i = 0; i < 30000; i++)
        in[i] = i ^ rank;
    CHECK(MPI_Allreduce(in, out, 3, big, MPI_BXOR, MPI_COMM_WORLD) == MPI_SUCCESS);
    int bad = 0;
    for (int i = 0; i < 30000; i++) {
        int want = 0;
        for (int r = 0; r < size; r++)
            want ^= i ^ r;
        bad += out[i] != want;
    }
    CHECKF(!bad, "3 elements of 10000 ints: %d wrong", bad);
    free(in), free(out);
    MPI_Type_free(&big);
}

static int error_class(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

static void errors(void)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int a = 1, b = 0;
    _Bool c = 1, d;
    CHECK(error_class(MPI_Allreduce(&c, &d, 1, MPI_C_BOOL, MPI_SUM, MPI_COMM_WORLD)) == MPI_ERR_OP);
    CHECK(error_class(MPI_Allreduce(&a, &b, 1, MPI_INT, MPI_REPLACE, MPI_COMM_WORLD)) == MPI_ERR_OP);
    CHECK(error_class(MPI_Allreduce(&a, &b, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD)) == MPI_ERR_OP);
    CHECK(error_class(MPI_Allreduce(&a, &b, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD)) == MPI_ERR_COUNT);
    CHECK(error_class(MPI_Allreduce(&a, &a, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD)) == MPI_ERR_BUFFER);
    CHECK(error_class(MPI_Reduce(&a, &b, 1, MPI_INT, MPI_SUM, -1, MPI_COMM_WORLD)) == MPI_ERR_ROOT);
    MPI_Datatype v;
    MPI_Type_vector(2, 1, 2, MPI_INT, &v);
    CHECK(error_class(MPI_Allreduce(&a, &b, 1, v, MPI_SUM, MPI_COMM_WORLD)) == MPI_ERR_TYPE);
    MPI_Type_free(&v);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    all_types(1);
    all_types(13);
    test_int(5000, ALL);        /* long enough for reduce-scatter + allgather */
    test_double(5000, ARITH);
    test_loc(3000);
    vector_type();
    large();
    long long x = rank, y = -1;
    CHECK(MPI_Allreduce_c(&x, &y, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD) == MPI_SUCCESS);
    CHECK(y == (long long)size * (size - 1) / 2);
    CHECK(MPI_Reduce_c(&x, &y, 1, MPI_LONG_LONG, MPI_MIN, 0, MPI_COMM_WORLD) == MPI_SUCCESS);
    CHECK(rank != 0 || y == 0);
    CHECK(MPI_Allreduce(&x, &y, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_SELF) == MPI_SUCCESS && y == rank);
    errors();
    MPI_Finalize();
    return CHECK_RESULT();
}
