/* MPI_Reduce_local: every predefined operation on every predefined type, allowed exactly where
 * the standard allows it, or MPICH's extensions do (MPI_CHAR and MPI_CHARACTER as integers,
 * logical operations on every integer), MPI_ERR_OP elsewhere, naming the operation and the
 * type, with known
 * results for each allowed pair; MINLOC/MAXLOC with the lower index winning ties; derived types
 * through their basic type; user-defined operations. */
#include <mpi.h>
#include <complex.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static int failures;
#define EXPECT(cond) do { if (!(cond)) { failures++; printf("FAILED line %d: %s\n", __LINE__, #cond); } } while (0)

static int error_class(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

/* ---- the matrix: which (op, type) pairs are defined --------------------------------------- */

enum { CINT = 1, FINT, FLOAT, LOGICAL, COMPLEX, BYTE, MULTI, PAIR, CHAR, OTHER };
static const struct { MPI_Datatype t; const char *name; int group; } types[] = {
#define G(h, g) {h, #h, g}
    G(MPI_INT, CINT), G(MPI_LONG, CINT), G(MPI_SHORT, CINT), G(MPI_UNSIGNED_SHORT, CINT),
    G(MPI_UNSIGNED, CINT), G(MPI_UNSIGNED_LONG, CINT), G(MPI_LONG_LONG_INT, CINT),
    G(MPI_UNSIGNED_LONG_LONG, CINT), G(MPI_SIGNED_CHAR, CINT), G(MPI_UNSIGNED_CHAR, CINT),
    G(MPI_INT8_T, CINT), G(MPI_INT16_T, CINT), G(MPI_INT32_T, CINT), G(MPI_INT64_T, CINT),
    G(MPI_UINT8_T, CINT), G(MPI_UINT16_T, CINT), G(MPI_UINT32_T, CINT), G(MPI_UINT64_T, CINT),
    G(MPI_INTEGER, FINT), G(MPI_INTEGER1, FINT), G(MPI_INTEGER2, FINT), G(MPI_INTEGER4, FINT),
    G(MPI_INTEGER8, FINT), G(MPI_INTEGER16, FINT),
    G(MPI_FLOAT, FLOAT), G(MPI_DOUBLE, FLOAT), G(MPI_REAL, FLOAT), G(MPI_DOUBLE_PRECISION, FLOAT),
    G(MPI_LONG_DOUBLE, FLOAT), G(MPI_REAL2, FLOAT), G(MPI_REAL4, FLOAT), G(MPI_REAL8, FLOAT),
    G(MPI_REAL16, FLOAT),
    G(MPI_LOGICAL, LOGICAL), G(MPI_C_BOOL, LOGICAL), G(MPI_CXX_BOOL, LOGICAL),
    G(MPI_LOGICAL1, LOGICAL), G(MPI_LOGICAL2, LOGICAL), G(MPI_LOGICAL4, LOGICAL),
    G(MPI_LOGICAL8, LOGICAL), G(MPI_LOGICAL16, LOGICAL),
    G(MPI_COMPLEX, COMPLEX), G(MPI_C_COMPLEX, COMPLEX), G(MPI_C_DOUBLE_COMPLEX, COMPLEX),
    G(MPI_C_LONG_DOUBLE_COMPLEX, COMPLEX), G(MPI_CXX_FLOAT_COMPLEX, COMPLEX),
    G(MPI_CXX_DOUBLE_COMPLEX, COMPLEX), G(MPI_CXX_LONG_DOUBLE_COMPLEX, COMPLEX),
    G(MPI_DOUBLE_COMPLEX, COMPLEX), G(MPI_COMPLEX4, COMPLEX), G(MPI_COMPLEX8, COMPLEX),
    G(MPI_COMPLEX16, COMPLEX), G(MPI_COMPLEX32, COMPLEX),
    G(MPI_BYTE, BYTE), G(MPI_AINT, MULTI), G(MPI_OFFSET, MULTI), G(MPI_COUNT, MULTI),
    G(MPI_FLOAT_INT, PAIR), G(MPI_DOUBLE_INT, PAIR), G(MPI_LONG_INT, PAIR), G(MPI_2INT, PAIR),
    G(MPI_SHORT_INT, PAIR), G(MPI_LONG_DOUBLE_INT, PAIR), G(MPI_2REAL, PAIR),
    G(MPI_2DOUBLE_PRECISION, PAIR), G(MPI_2INTEGER, PAIR),
    G(MPI_CHAR, CHAR), G(MPI_CHARACTER, CHAR), G(MPI_WCHAR, OTHER), G(MPI_PACKED, OTHER),
};
#define INTEGERS (1 << CINT | 1 << FINT | 1 << MULTI | 1 << CHAR)
static const struct { MPI_Op op; const char *name; unsigned groups; } ops[] = {
#define O(h, g) {h, #h, g}
    O(MPI_SUM, INTEGERS | 1 << FLOAT | 1 << COMPLEX),
    O(MPI_PROD, INTEGERS | 1 << FLOAT | 1 << COMPLEX),
    O(MPI_MAX, INTEGERS | 1 << FLOAT), O(MPI_MIN, INTEGERS | 1 << FLOAT),
    O(MPI_LAND, INTEGERS | 1 << LOGICAL), O(MPI_LOR, INTEGERS | 1 << LOGICAL),
    O(MPI_LXOR, INTEGERS | 1 << LOGICAL),
    O(MPI_BAND, INTEGERS | 1 << BYTE), O(MPI_BOR, INTEGERS | 1 << BYTE),
    O(MPI_BXOR, INTEGERS | 1 << BYTE),
    O(MPI_MINLOC, 1 << PAIR), O(MPI_MAXLOC, 1 << PAIR),
    O(MPI_REPLACE, 0), O(MPI_NO_OP, 0),     /* one-sided only: never in a reduction */
};

static void matrix(void)
{
    int allowed = 0, refused = 0;
    for (size_t o = 0; o < sizeof ops / sizeof *ops; o++)
        for (size_t t = 0; t < sizeof types / sizeof *types; t++) {
            _Alignas(64) char a[64] = {0}, b[64] = {0};
            int rc = MPI_Reduce_local(a, b, 1, types[t].t, ops[o].op);
            int ok = ops[o].groups >> types[t].group & 1;
            if (ok ? rc != MPI_SUCCESS : error_class(rc) != MPI_ERR_OP) {
                failures++;
                printf("FAILED: %s on %s gave class %d, expected %s\n", ops[o].name, types[t].name,
                       error_class(rc), ok ? "MPI_SUCCESS" : "MPI_ERR_OP");
            }
            if (!ok) {
                char text[MPI_MAX_ERROR_STRING];
                int len;
                MPI_Error_string(rc, text, &len);
                EXPECT(strstr(text, ops[o].name) && (!ops[o].groups || strstr(text, types[t].name)));
                if (o == 0 && types[t].t == MPI_WCHAR)
                    printf("MPI_SUM on MPI_WCHAR -> %s\n", text);
            }
            allowed += ok, refused += !ok;
        }
    printf("matrix: %d allowed and %d refused (op, type) pairs checked\n", allowed, refused);
}

/* ---- known results ------------------------------------------------------------------------ */

#define N 1003

/* The arrays start zeroed so that padding (long double, pairs) compares equal. */
#define RUN(T, dt, op, expr) do {                                                           \
        T io[N], want[N];                                                                   \
        memset(io, 0, sizeof io), memset(want, 0, sizeof want);                             \
        for (int i = 0; i < N; i++) {                                                       \
            T x = a[i], y = b[i];                                                           \
            io[i] = y;                                                                      \
            want[i] = (T)(expr);                                                            \
        }                                                                                   \
        int rc_ = MPI_Reduce_local(a, io, N, dt, op);                                       \
        if (rc_ != MPI_SUCCESS || memcmp(io, want, sizeof io)) {                            \
            failures++;                                                                     \
            printf("FAILED: %s on %s (line %d)\n", #op, #dt, __LINE__);                     \
        }                                                                                   \
        checked++;                                                                          \
    } while (0)

static int checked;

#define INTS(T, dt) do {                                                                    \
        T a[N], b[N];                                                                       \
        for (int i = 0; i < N; i++)                                                         \
            a[i] = (T)(i % 7 - 2), b[i] = (T)(i % 5 - 1) * (T)3;                            \
        RUN(T, dt, MPI_SUM, x + y);                                                         \
        RUN(T, dt, MPI_PROD, x * y);                                                        \
        RUN(T, dt, MPI_MAX, x > y ? x : y);                                                 \
        RUN(T, dt, MPI_MIN, x < y ? x : y);                                                 \
        RUN(T, dt, MPI_BAND, x & y);                                                        \
        RUN(T, dt, MPI_BOR, x | y);                                                         \
        RUN(T, dt, MPI_BXOR, x ^ y);                                                        \
    } while (0)
#define LOGICALS(T, dt) do {                                                                \
        T a[N], b[N];                                                                       \
        for (int i = 0; i < N; i++)                                                         \
            a[i] = (T)(i % 2 ? 1 : 0), b[i] = (T)(i % 3 ? 0 : 1);                           \
        if (sizeof(T) > 1) /* any non-zero value is true */                                 \
            for (int i = 0; i < N; i += 4)                                                  \
                a[i] = (T)5;                                                                \
        RUN(T, dt, MPI_LAND, (x != 0) && (y != 0));                                         \
        RUN(T, dt, MPI_LOR, (x != 0) || (y != 0));                                          \
        RUN(T, dt, MPI_LXOR, (x != 0) != (y != 0));                                         \
    } while (0)
#define FLOATS(T, dt) do {                                                                  \
        T a[N], b[N];                                                                       \
        for (int i = 0; i < N; i++)                                                         \
            a[i] = (T)(i % 7 - 3) + (T)0.5, b[i] = (T)(i % 5 - 2) + (T)0.25;                \
        RUN(T, dt, MPI_SUM, x + y);                                                         \
        RUN(T, dt, MPI_PROD, x * y);                                                        \
        RUN(T, dt, MPI_MAX, x > y ? x : y);                                                 \
        RUN(T, dt, MPI_MIN, x < y ? x : y);                                                 \
    } while (0)
#define COMPLEXES(T, R, dt) do {                                                            \
        T a[N], b[N];                                                                       \
        for (int i = 0; i < N; i++) {                                                       \
            __real__ a[i] = (R)(i % 3), __imag__ a[i] = (R)(i % 4 - 2);                     \
            __real__ b[i] = (R)(i % 5 - 1), __imag__ b[i] = (R)1;                           \
        }                                                                                   \
        RUN(T, dt, MPI_SUM, x + y);                                                         \
        RUN(T, dt, MPI_PROD, x * y);                                                        \
    } while (0)
#define PAIRS(V, I, dt) do {                                                                \
        typedef struct { V v; I i; } P;                                                     \
        P a[N], b[N];                                                                       \
        memset(a, 0, sizeof a), memset(b, 0, sizeof b);                                     \
        for (int i = 0; i < N; i++) {                                                       \
            a[i].v = (V)(i % 3), a[i].i = (I)(100 + i % 7);                                 \
            b[i].v = (V)(i / 3 % 3), b[i].i = (I)(100 + i % 5);                             \
        }                                                                                   \
        for (int maxloc = 0; maxloc < 2; maxloc++) {                                        \
            P io[N];                                                                        \
            memcpy(io, b, sizeof io);                                                       \
            int rc_ = MPI_Reduce_local(a, io, N, dt, maxloc ? MPI_MAXLOC : MPI_MINLOC), ok_ = 1; \
            for (int i = 0; i < N; i++) {                                                   \
                P x = a[i], y = b[i];                                                       \
                int xwins = maxloc ? x.v > y.v : x.v < y.v, tie = x.v == y.v;               \
                V v = xwins || tie ? x.v : y.v;                                             \
                I j = tie ? (x.i < y.i ? x.i : y.i) : xwins ? x.i : y.i;                    \
                ok_ &= io[i].v == v && io[i].i == j;                                        \
            }                                                                               \
            if (rc_ != MPI_SUCCESS || !ok_) {                                               \
                failures++;                                                                 \
                printf("FAILED: %s on %s\n", maxloc ? "MPI_MAXLOC" : "MPI_MINLOC", #dt);    \
            }                                                                               \
            checked++;                                                                      \
        }                                                                                   \
    } while (0)

static void results(void)
{
    INTS(int, MPI_INT); INTS(long, MPI_LONG); INTS(short, MPI_SHORT);
    INTS(unsigned short, MPI_UNSIGNED_SHORT); INTS(unsigned, MPI_UNSIGNED);
    INTS(unsigned long, MPI_UNSIGNED_LONG); INTS(long long, MPI_LONG_LONG);
    INTS(unsigned long long, MPI_UNSIGNED_LONG_LONG); INTS(signed char, MPI_SIGNED_CHAR);
    INTS(unsigned char, MPI_UNSIGNED_CHAR); INTS(int8_t, MPI_INT8_T); INTS(int16_t, MPI_INT16_T);
    INTS(int32_t, MPI_INT32_T); INTS(int64_t, MPI_INT64_T); INTS(uint8_t, MPI_UINT8_T);
    INTS(uint16_t, MPI_UINT16_T); INTS(uint32_t, MPI_UINT32_T); INTS(uint64_t, MPI_UINT64_T);
    INTS(int32_t, MPI_INTEGER); INTS(int8_t, MPI_INTEGER1); INTS(int16_t, MPI_INTEGER2);
    INTS(int32_t, MPI_INTEGER4); INTS(int64_t, MPI_INTEGER8); INTS(__int128, MPI_INTEGER16);
    INTS(MPI_Aint, MPI_AINT); INTS(MPI_Offset, MPI_OFFSET); INTS(MPI_Count, MPI_COUNT);
    INTS(char, MPI_CHAR); INTS(char, MPI_CHARACTER);
    /* C integers take the logical operations too; the other integers by MPICH's extension */
    LOGICALS(MPI_Aint, MPI_AINT); LOGICALS(int32_t, MPI_INTEGER); LOGICALS(char, MPI_CHAR);
    LOGICALS(int, MPI_INT); LOGICALS(unsigned char, MPI_UNSIGNED_CHAR); LOGICALS(uint64_t, MPI_UINT64_T);
    LOGICALS(_Bool, MPI_C_BOOL); LOGICALS(_Bool, MPI_CXX_BOOL); LOGICALS(int32_t, MPI_LOGICAL);
    LOGICALS(int8_t, MPI_LOGICAL1); LOGICALS(int16_t, MPI_LOGICAL2); LOGICALS(int32_t, MPI_LOGICAL4);
    LOGICALS(int64_t, MPI_LOGICAL8); LOGICALS(__int128, MPI_LOGICAL16);
    FLOATS(float, MPI_FLOAT); FLOATS(double, MPI_DOUBLE); FLOATS(long double, MPI_LONG_DOUBLE);
    FLOATS(float, MPI_REAL); FLOATS(double, MPI_DOUBLE_PRECISION); FLOATS(_Float16, MPI_REAL2);
    FLOATS(float, MPI_REAL4); FLOATS(double, MPI_REAL8); FLOATS(__float128, MPI_REAL16);
    COMPLEXES(float _Complex, float, MPI_C_FLOAT_COMPLEX);
    COMPLEXES(float _Complex, float, MPI_CXX_FLOAT_COMPLEX);
    COMPLEXES(double _Complex, double, MPI_C_DOUBLE_COMPLEX);
    COMPLEXES(double _Complex, double, MPI_CXX_DOUBLE_COMPLEX);
    COMPLEXES(long double _Complex, long double, MPI_C_LONG_DOUBLE_COMPLEX);
    COMPLEXES(long double _Complex, long double, MPI_CXX_LONG_DOUBLE_COMPLEX);
    COMPLEXES(float _Complex, float, MPI_COMPLEX); COMPLEXES(double _Complex, double, MPI_DOUBLE_COMPLEX);
    COMPLEXES(_Float16 _Complex, _Float16, MPI_COMPLEX4);
    COMPLEXES(float _Complex, float, MPI_COMPLEX8); COMPLEXES(double _Complex, double, MPI_COMPLEX16);
    typedef _Complex float __attribute__((mode(TC))) complex128;
    COMPLEXES(complex128, __float128, MPI_COMPLEX32);
    {
        unsigned char a[N], b[N];
        for (int i = 0; i < N; i++)
            a[i] = (unsigned char)(i * 37), b[i] = (unsigned char)(i * 11 + 5);
        RUN(unsigned char, MPI_BYTE, MPI_BAND, x & y);
        RUN(unsigned char, MPI_BYTE, MPI_BOR, x | y);
        RUN(unsigned char, MPI_BYTE, MPI_BXOR, x ^ y);
    }
    PAIRS(float, int, MPI_FLOAT_INT); PAIRS(double, int, MPI_DOUBLE_INT); PAIRS(long, int, MPI_LONG_INT);
    PAIRS(int, int, MPI_2INT); PAIRS(short, int, MPI_SHORT_INT);
    PAIRS(long double, int, MPI_LONG_DOUBLE_INT); PAIRS(float, float, MPI_2REAL);
    PAIRS(double, double, MPI_2DOUBLE_PRECISION); PAIRS(int, int, MPI_2INTEGER);
    printf("results: %d (op, type) reductions of %d elements checked\n", checked, N);

    /* The tie rule spelled out: equal values keep the lower index, wherever it comes from. */
    struct { double v; int i; } in[3] = {{1.0, 7}, {2.0, 3}, {5.0, 1}}, io[3] = {{1.0, 4}, {2.0, 9}, {4.0, 0}};
    EXPECT(MPI_Reduce_local(in, io, 3, MPI_DOUBLE_INT, MPI_MINLOC) == MPI_SUCCESS);
    EXPECT(io[0].v == 1.0 && io[0].i == 4 && io[1].v == 2.0 && io[1].i == 3 && io[2].v == 4.0 && io[2].i == 0);
    EXPECT(MPI_Reduce_local(in, io, 3, MPI_DOUBLE_INT, MPI_MAXLOC) == MPI_SUCCESS);
    EXPECT(io[2].v == 5.0 && io[2].i == 1);
}

/* ---- derived types ------------------------------------------------------------------------ */

static void derived(void)
{
    /* A vector of ints: only its elements change. */
    int a[12], b[12];
    for (int i = 0; i < 12; i++)
        a[i] = i, b[i] = 100;
    MPI_Datatype vec, cdi, mixed, same, rz;
    MPI_Type_vector(2, 2, 3, MPI_INT, &vec);        /* ints 0 1 _ 3 4, extent 5 */
    MPI_Type_commit(&vec);
    EXPECT(MPI_Reduce_local(a, b, 2, vec, MPI_SUM) == MPI_SUCCESS);
    int want[12] = {100, 101, 100, 103, 104, 105, 106, 100, 108, 109, 100, 100};
    EXPECT(!memcmp(b, want, sizeof b));
    EXPECT(error_class(MPI_Reduce_local(a, b, 2, vec, MPI_MINLOC)) == MPI_ERR_OP);

    /* Pairs with holes inside a derived type. */
    struct { double v; int i; } p[6], q[6], r[6];
    for (int i = 0; i < 6; i++) {
        p[i].v = i % 2, p[i].i = i;
        q[i].v = i % 3 ? 1 : 0, q[i].i = 10 - i;
    }
    memcpy(r, q, sizeof r);
    MPI_Type_contiguous(3, MPI_DOUBLE_INT, &cdi);
    MPI_Type_commit(&cdi);
    EXPECT(MPI_Reduce_local(p, q, 2, cdi, MPI_MAXLOC) == MPI_SUCCESS);
    EXPECT(MPI_Reduce_local(p, r, 6, MPI_DOUBLE_INT, MPI_MAXLOC) == MPI_SUCCESS);
    int same_result = 1;
    for (int i = 0; i < 6; i++)
        same_result &= q[i].v == r[i].v && q[i].i == r[i].i;
    EXPECT(same_result);

    /* A struct of one basic type reduces; a struct of two does not. */
    int one[2] = {1, 1};
    MPI_Aint disp[2] = {0, 8};
    MPI_Datatype t2[2] = {MPI_INT, MPI_INT}, tm[2] = {MPI_INT, MPI_FLOAT};
    MPI_Type_create_struct(2, one, disp, t2, &same);
    MPI_Type_create_struct(2, one, disp, tm, &mixed);
    MPI_Type_commit(&same), MPI_Type_commit(&mixed);
    int s1[4] = {1, 2, 3, 4}, s2[4] = {10, 20, 30, 40};
    EXPECT(MPI_Reduce_local(s1, s2, 1, same, MPI_PROD) == MPI_SUCCESS);
    EXPECT(s2[0] == 10 && s2[1] == 20 && s2[2] == 90 && s2[3] == 40);
    int rc = MPI_Reduce_local(s1, s2, 1, mixed, MPI_SUM), len;
    char text[MPI_MAX_ERROR_STRING];
    MPI_Error_string(rc, text, &len);
    printf("MPI_SUM on a struct of int and float -> %s\n", text);
    EXPECT(error_class(rc) == MPI_ERR_OP && strstr(text, "MPI_SUM"));

    /* A resized type: every other double. */
    double d1[6] = {1, 2, 3, 4, 5, 6}, d2[6] = {10, 10, 10, 10, 10, 10};
    MPI_Type_create_resized(MPI_DOUBLE, 0, 16, &rz);
    MPI_Type_commit(&rz);
    EXPECT(MPI_Reduce_local(d1, d2, 3, rz, MPI_MAX) == MPI_SUCCESS);
    EXPECT(d2[0] == 10 && d2[1] == 10 && d2[4] == 10 && d2[5] == 10);
    d1[2] = 20;
    EXPECT(MPI_Reduce_local(d1, d2, 3, rz, MPI_MAX) == MPI_SUCCESS && d2[2] == 20 && d2[3] == 10);

    /* An uncommitted type is refused. */
    MPI_Datatype raw;
    MPI_Type_contiguous(2, MPI_INT, &raw);
    EXPECT(error_class(MPI_Reduce_local(s1, s2, 1, raw, MPI_SUM)) == MPI_ERR_TYPE);
    MPI_Type_free(&raw), MPI_Type_free(&vec), MPI_Type_free(&cdi), MPI_Type_free(&same);
    MPI_Type_free(&mixed), MPI_Type_free(&rz);
}

/* ---- user-defined operations -------------------------------------------------------------- */

static MPI_Datatype seen_type;
static long seen_len;
static void shift_add(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    seen_type = *dt, seen_len = *len;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] = ((int *)in)[i] * 10 + ((int *)inout)[i];
}
static void shift_add_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *dt)
{
    seen_type = *dt, seen_len = (long)*len;
    for (MPI_Count i = 0; i < *len; i++)
        ((int *)inout)[i] = ((int *)in)[i] * 100 + ((int *)inout)[i];
}

static void user(void)
{
    MPI_Op op, opc;
    int commute = -1;
    EXPECT(MPI_Op_create(shift_add, 0, &op) == MPI_SUCCESS);
    EXPECT(MPI_Op_commutative(op, &commute) == MPI_SUCCESS && commute == 0);
    EXPECT(MPI_Op_commutative(MPI_SUM, &commute) == MPI_SUCCESS && commute == 1);
    int a[3] = {1, 2, 3}, b[3] = {4, 5, 6};
    EXPECT(MPI_Reduce_local(a, b, 3, MPI_INT, op) == MPI_SUCCESS);
    EXPECT(b[0] == 14 && b[1] == 25 && b[2] == 36 && seen_type == MPI_INT && seen_len == 3);
    /* any type goes to a user function, derived ones by their handle */
    MPI_Datatype pair;
    MPI_Type_contiguous(1, MPI_CHAR, &pair);
    MPI_Type_commit(&pair);
    EXPECT(MPI_Reduce_local(a, b, 2, pair, op) == MPI_SUCCESS && seen_type == pair && seen_len == 2);
    EXPECT(b[0] == 24 && b[1] == 45 && b[2] == 36);
    MPI_Type_free(&pair);
    EXPECT(MPI_Op_create_c(shift_add_c, 1, &opc) == MPI_SUCCESS);
    EXPECT(MPI_Op_commutative(opc, &commute) == MPI_SUCCESS && commute == 1);
    EXPECT(MPI_Reduce_local_c(a, b, 1, MPI_INT, opc) == MPI_SUCCESS && b[0] == 124 && seen_len == 1);
    EXPECT(MPI_Op_free(&op) == MPI_SUCCESS && op == MPI_OP_NULL);
    EXPECT(MPI_Op_free(&opc) == MPI_SUCCESS && opc == MPI_OP_NULL);
    EXPECT(error_class(MPI_Reduce_local(a, b, 1, MPI_INT, op)) == MPI_ERR_OP);
    MPI_Op sum = MPI_SUM;
    EXPECT(error_class(MPI_Op_free(&sum)) == MPI_ERR_OP && sum == MPI_SUM);
    EXPECT(error_class(MPI_Op_create(NULL, 1, &op)) == MPI_ERR_ARG);
    EXPECT(error_class(MPI_Reduce_local(MPI_IN_PLACE, b, 1, MPI_INT, MPI_SUM)) == MPI_ERR_BUFFER);
}

/* ---- speed, for the record ------------------------------------------------------------------ */

static void speed(void)
{
    enum { M = 1 << 20 };
    static double x[M], y[M];
    for (int i = 0; i < M; i++)
        x[i] = i, y[i] = 1;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int k = 0; k < 20; k++)
        MPI_Reduce_local(x, y, M, MPI_DOUBLE, MPI_SUM);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
    EXPECT(y[M - 1] == 1 + 20.0 * (M - 1));
    printf("MPI_SUM on MPI_DOUBLE: %.1f GB/s of input\n", 20.0 * M * 8 / s / 1e9);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    matrix();
    results();
    derived();
    user();
    speed();
    MPI_Finalize();
    printf("%d failures\n", failures);
    return failures != 0;
}
