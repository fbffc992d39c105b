/* Predefined datatypes: size, bounds and true bounds match the C types they describe (Fortran
 * types as gfortran lays them out on x86-64), the pair types have their C struct layouts, every
 * one is named, committed and NAMED, and none can be freed. */
#include <mpi.h>
#include <complex.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

static int failures;
#define EXPECT(cond) do { if (!(cond)) { failures++; printf("FAILED line %d: %s\n", __LINE__, #cond); } } while (0)

struct basic { MPI_Datatype type; const char *name; MPI_Aint size; };
#define B(h, ctype) {h, #h, sizeof(ctype)}
static const struct basic basics[] = {
    B(MPI_AINT, MPI_Aint), B(MPI_COUNT, MPI_Count), B(MPI_OFFSET, MPI_Offset), B(MPI_PACKED, char),
    B(MPI_SHORT, short), B(MPI_INT, int), B(MPI_LONG, long), B(MPI_LONG_LONG_INT, long long),
    B(MPI_UNSIGNED_SHORT, unsigned short), B(MPI_UNSIGNED, unsigned),
    B(MPI_UNSIGNED_LONG, unsigned long), B(MPI_UNSIGNED_LONG_LONG, unsigned long long),
    B(MPI_FLOAT, float), B(MPI_C_COMPLEX, float _Complex),
    B(MPI_CXX_FLOAT_COMPLEX, float _Complex), B(MPI_DOUBLE, double),
    B(MPI_C_DOUBLE_COMPLEX, double _Complex), B(MPI_CXX_DOUBLE_COMPLEX, double _Complex),
    B(MPI_LONG_DOUBLE, long double), B(MPI_C_LONG_DOUBLE_COMPLEX, long double _Complex),
    B(MPI_CXX_LONG_DOUBLE_COMPLEX, long double _Complex), B(MPI_C_BOOL, _Bool),
    B(MPI_CXX_BOOL, _Bool), B(MPI_WCHAR, wchar_t), B(MPI_INT8_T, int8_t), B(MPI_UINT8_T, uint8_t),
    B(MPI_CHAR, char), B(MPI_SIGNED_CHAR, signed char), B(MPI_UNSIGNED_CHAR, unsigned char),
    B(MPI_BYTE, unsigned char), B(MPI_INT16_T, int16_t), B(MPI_UINT16_T, uint16_t),
    B(MPI_INT32_T, int32_t), B(MPI_UINT32_T, uint32_t), B(MPI_INT64_T, int64_t),
    B(MPI_UINT64_T, uint64_t),
    /* Fortran, gfortran on x86-64 */
    {MPI_LOGICAL, "MPI_LOGICAL", 4}, {MPI_INTEGER, "MPI_INTEGER", 4}, {MPI_REAL, "MPI_REAL", 4},
    {MPI_COMPLEX, "MPI_COMPLEX", 8}, {MPI_DOUBLE_PRECISION, "MPI_DOUBLE_PRECISION", 8},
    {MPI_DOUBLE_COMPLEX, "MPI_DOUBLE_COMPLEX", 16}, {MPI_CHARACTER, "MPI_CHARACTER", 1},
    {MPI_LOGICAL1, "MPI_LOGICAL1", 1}, {MPI_INTEGER1, "MPI_INTEGER1", 1},
    {MPI_LOGICAL2, "MPI_LOGICAL2", 2}, {MPI_INTEGER2, "MPI_INTEGER2", 2},
    {MPI_REAL2, "MPI_REAL2", 2}, {MPI_LOGICAL4, "MPI_LOGICAL4", 4},
    {MPI_INTEGER4, "MPI_INTEGER4", 4}, {MPI_REAL4, "MPI_REAL4", 4},
    {MPI_COMPLEX4, "MPI_COMPLEX4", 4}, {MPI_LOGICAL8, "MPI_LOGICAL8", 8},
    {MPI_INTEGER8, "MPI_INTEGER8", 8}, {MPI_REAL8, "MPI_REAL8", 8},
    {MPI_COMPLEX8, "MPI_COMPLEX8", 8}, {MPI_LOGICAL16, "MPI_LOGICAL16", 16},
    {MPI_INTEGER16, "MPI_INTEGER16", 16}, {MPI_REAL16, "MPI_REAL16", 16},
    {MPI_COMPLEX16, "MPI_COMPLEX16", 16}, {MPI_COMPLEX32, "MPI_COMPLEX32", 32},
};

struct pair { MPI_Datatype type; const char *name; MPI_Aint size, extent, true_extent; };
#define P(h, V, I) {h, #h, sizeof(V) + sizeof(I), sizeof(struct { V v; I i; }), \
                    offsetof(struct { V v; I i; }, i) + sizeof(I)}
static const struct pair pairs[] = {
    P(MPI_FLOAT_INT, float, int), P(MPI_DOUBLE_INT, double, int), P(MPI_LONG_INT, long, int),
    P(MPI_2INT, int, int), P(MPI_SHORT_INT, short, int), P(MPI_LONG_DOUBLE_INT, long double, int),
    P(MPI_2REAL, float, float), P(MPI_2DOUBLE_PRECISION, double, double),
    P(MPI_2INTEGER, int, int),
};

static void check(MPI_Datatype t, const char *name, MPI_Aint size, MPI_Aint extent, MPI_Aint true_extent)
{
    int isize = -1, len = -1, ni = -1, na = -1, nd = -1, comb = -1;
    MPI_Count csize = -1, clb = -1, cext = -1;
    MPI_Aint lb = -1, ext = -1, tlb = -1, text = -1;
    char got[MPI_MAX_OBJECT_NAME];
    EXPECT(MPI_Type_size(t, &isize) == MPI_SUCCESS && isize == size);
    EXPECT(MPI_Type_size_c(t, &csize) == MPI_SUCCESS && csize == size);
    EXPECT(MPI_Type_get_extent(t, &lb, &ext) == MPI_SUCCESS && lb == 0 && ext == extent);
    EXPECT(MPI_Type_get_extent_c(t, &clb, &cext) == MPI_SUCCESS && clb == 0 && cext == extent);
    EXPECT(MPI_Type_get_true_extent(t, &tlb, &text) == MPI_SUCCESS && tlb == 0 && text == true_extent);
    EXPECT(MPI_Type_get_name(t, got, &len) == MPI_SUCCESS && !strcmp(got, name) && len == (int)strlen(name));
    EXPECT(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb) == MPI_SUCCESS && comb == MPI_COMBINER_NAMED &&
           ni == 0 && na == 0 && nd == 0);
    if (isize != size || ext != extent || text != true_extent || strcmp(got, name))
        printf("%s: size %d extent %ld true extent %ld, name %s\n", name, isize, (long)ext, (long)text, got);
    /* Predefined types are committed: they pack without MPI_Type_commit. */
    char in[64] = {1, 2, 3}, out[64];
    int pos = 0;
    EXPECT(MPI_Pack(in, 1, t, out, sizeof out, &pos, MPI_COMM_SELF) == MPI_SUCCESS && pos == size);
    /* ... and they cannot be freed. */
    MPI_Datatype copy = t;
    int rc = MPI_Type_free(&copy), cls = -1;
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_TYPE && copy == t);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    int n = 0;
    for (size_t i = 0; i < sizeof basics / sizeof *basics; i++, n++)
        check(basics[i].type, basics[i].name, basics[i].size, basics[i].size, basics[i].size);
    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++, n++)
        check(pairs[i].type, pairs[i].name, pairs[i].size, pairs[i].extent, pairs[i].true_extent);

    /* The layouts the standard's users rely on, spelled out. */
    MPI_Aint lb, ext;
    int size;
    MPI_Type_size(MPI_DOUBLE_INT, &size), MPI_Type_get_extent(MPI_DOUBLE_INT, &lb, &ext);
    EXPECT(size == 12 && ext == 16);
    MPI_Type_size(MPI_SHORT_INT, &size), MPI_Type_get_extent(MPI_SHORT_INT, &lb, &ext);
    EXPECT(size == 6 && ext == 8);
    MPI_Type_size(MPI_LONG_DOUBLE_INT, &size), MPI_Type_get_extent(MPI_LONG_DOUBLE_INT, &lb, &ext);
    EXPECT(size == 20 && ext == 32);
    MPI_Type_size(MPI_LONG_INT, &size), MPI_Type_get_extent(MPI_LONG_INT, &lb, &ext);
    EXPECT(size == 12 && ext == 16);

    /* Synonyms are the same handle, named as MPICH names it (its datatype/typename test). */
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    EXPECT(MPI_LONG_LONG == MPI_LONG_LONG_INT && MPI_C_FLOAT_COMPLEX == MPI_C_COMPLEX);
    EXPECT(MPI_Type_get_name(MPI_LONG_LONG, name, &len) == MPI_SUCCESS && !strcmp(name, "MPI_LONG_LONG_INT"));
    EXPECT(MPI_Type_get_name(MPI_C_FLOAT_COMPLEX, name, &len) == MPI_SUCCESS && !strcmp(name, "MPI_C_COMPLEX"));

    /* Every datatype handle of the ABI's range that the header defines is one of the above. */
    EXPECT(n == 9 + 61);

    /* Value-index pairs and types of a given size. */
    MPI_Datatype t;
    EXPECT(MPI_Type_get_value_index(MPI_DOUBLE, MPI_INT, &t) == MPI_SUCCESS && t == MPI_DOUBLE_INT);
    EXPECT(MPI_Type_get_value_index(MPI_SHORT, MPI_INT, &t) == MPI_SUCCESS && t == MPI_SHORT_INT);
    EXPECT(MPI_Type_get_value_index(MPI_REAL, MPI_REAL, &t) == MPI_SUCCESS && t == MPI_2REAL);
    EXPECT(MPI_Type_get_value_index(MPI_CHAR, MPI_INT, &t) == MPI_SUCCESS && t == MPI_DATATYPE_NULL);
    EXPECT(MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, &t) == MPI_SUCCESS && t == MPI_REAL8);
    EXPECT(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 4, &t) == MPI_SUCCESS && t == MPI_INTEGER4);
    EXPECT(MPI_Type_match_size(MPI_TYPECLASS_COMPLEX, 32, &t) == MPI_SUCCESS && t == MPI_COMPLEX32);
    EXPECT(MPI_Type_match_size(MPI_TYPECLASS_REAL, 3, &t) != MPI_SUCCESS);

    /* Freeing a predefined type names it; the null handle is an error of its own. */
    t = MPI_INT;
    int rc = MPI_Type_free(&t), cls;
    char text[MPI_MAX_ERROR_STRING];
    MPI_Error_class(rc, &cls);
    MPI_Error_string(rc, text, &len);
    printf("MPI_Type_free(MPI_INT) -> %s\n", text);
    EXPECT(cls == MPI_ERR_TYPE && strstr(text, "MPI_INT") && strstr(text, "MPI_Type_free") && t == MPI_INT);
    t = MPI_DATATYPE_NULL;
    rc = MPI_Type_free(&t);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_TYPE);
    int isize = -5;
    rc = MPI_Type_size(MPI_DATATYPE_NULL, &isize);
    MPI_Error_class(rc, &cls);
    EXPECT(cls == MPI_ERR_TYPE && isize == -5);

    MPI_Finalize();
    printf("%d predefined datatypes checked, %d failures\n", n, failures);
    return failures != 0;
}
