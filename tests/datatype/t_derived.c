/* Derived datatypes: size, bounds and true bounds of every constructor (negative strides,
 * resized bounds that stick, struct padding, subarrays in both orders), envelopes and contents,
 * dup, names, commit and free. */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

static int failures;
#define EXPECT(cond) do { if (!(cond)) { failures++; printf("FAILED line %d: %s\n", __LINE__, #cond); } } while (0)

/* Check size, lb, extent, true lb, true extent of `t`, then free it. */
#define SHAPE(t, size, lb, extent, tlb, text) shape(t, size, lb, extent, tlb, text, __LINE__)
static void shape(MPI_Datatype t, MPI_Count size, MPI_Aint lb, MPI_Aint extent, MPI_Aint tlb,
                  MPI_Aint text, int line)
{
    MPI_Count s = -1;
    MPI_Aint l = -1, e = -1, tl = -1, te = -1;
    MPI_Type_size_c(t, &s);
    MPI_Type_get_extent(t, &l, &e);
    MPI_Type_get_true_extent(t, &tl, &te);
    if (s != size || l != lb || e != extent || tl != tlb || te != text) {
        failures++;
        printf("FAILED line %d: size %lld lb %ld extent %ld true lb %ld true extent %ld; expected "
               "%lld %ld %ld %ld %ld\n", line, (long long)s, (long)l, (long)e, (long)tl, (long)te,
               (long long)size, (long)lb, (long)extent, (long)tlb, (long)text);
    }
}

static int error_class(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

int main(int argc, char **argv)
{
    MPI_Datatype t, u, v;
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    /* contiguous */
    EXPECT(MPI_Type_contiguous(3, MPI_INT, &t) == MPI_SUCCESS);
    SHAPE(t, 12, 0, 12, 0, 12);
    int ni, na, nd, comb, ints[16];
    MPI_Aint aints[16];
    MPI_Datatype types[16];
    EXPECT(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb) == MPI_SUCCESS &&
           comb == MPI_COMBINER_CONTIGUOUS && ni == 1 && na == 0 && nd == 1);
    EXPECT(MPI_Type_get_contents(t, 16, 16, 16, ints, aints, types) == MPI_SUCCESS &&
           ints[0] == 3 && types[0] == MPI_INT);
    EXPECT(MPI_Type_free(&t) == MPI_SUCCESS && t == MPI_DATATYPE_NULL);
    EXPECT(MPI_Type_contiguous(0, MPI_INT, &t) == MPI_SUCCESS);
    SHAPE(t, 0, 0, 0, 0, 0);
    MPI_Type_free(&t);

    /* vector, hvector, with positive and negative strides */
    EXPECT(MPI_Type_vector(3, 2, 4, MPI_DOUBLE, &t) == MPI_SUCCESS);
    SHAPE(t, 48, 0, 80, 0, 80);
    EXPECT(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb) == MPI_SUCCESS &&
           comb == MPI_COMBINER_VECTOR && ni == 3 && na == 0 && nd == 1);
    EXPECT(MPI_Type_get_contents(t, 3, 0, 1, ints, aints, types) == MPI_SUCCESS &&
           ints[0] == 3 && ints[1] == 2 && ints[2] == 4 && types[0] == MPI_DOUBLE);
    /* vector of that vector: the inner type is reached again through get_contents */
    EXPECT(MPI_Type_vector(2, 1, 3, t, &u) == MPI_SUCCESS);
    SHAPE(u, 96, 0, 240 + 80, 0, 320);
    EXPECT(MPI_Type_get_contents(u, 3, 0, 1, ints, aints, types) == MPI_SUCCESS && types[0] == t);
    EXPECT(MPI_Type_free(&types[0]) == MPI_SUCCESS);  /* returned derived handles are the caller's */
    MPI_Type_free(&t);
    SHAPE(u, 96, 0, 320, 0, 320);                       /* still whole after its parts are freed */
    MPI_Type_free(&u);
    EXPECT(MPI_Type_vector(3, 1, -2, MPI_INT, &t) == MPI_SUCCESS);
    SHAPE(t, 12, -16, 20, -16, 20);
    MPI_Type_free(&t);
    EXPECT(MPI_Type_create_hvector(2, 1, 100, MPI_CHAR, &t) == MPI_SUCCESS);
    SHAPE(t, 2, 0, 101, 0, 101);
    EXPECT(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb) == MPI_SUCCESS &&
           comb == MPI_COMBINER_HVECTOR && ni == 2 && na == 1 && nd == 1);
    EXPECT(MPI_Type_get_contents(t, 2, 1, 1, ints, aints, types) == MPI_SUCCESS &&
           ints[0] == 2 && ints[1] == 1 && aints[0] == 100);
    MPI_Type_free(&t);
    /* a vector whose blocks touch is contiguous */
    EXPECT(MPI_Type_vector(4, 2, 2, MPI_INT, &t) == MPI_SUCCESS);
    SHAPE(t, 32, 0, 32, 0, 32);
    MPI_Type_free(&t);

    /* indexed, hindexed, indexed_block, hindexed_block */
    int bl[3] = {1, 2, 3}, disp[3] = {0, 3, 10};
    MPI_Aint adisp[3] = {8, 0, 40};
    EXPECT(MPI_Type_indexed(3, bl, disp, MPI_INT, &t) == MPI_SUCCESS);
    SHAPE(t, 24, 0, 52, 0, 52);
    EXPECT(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb) == MPI_SUCCESS &&
           comb == MPI_COMBINER_INDEXED && ni == 7 && na == 0 && nd == 1);
    EXPECT(MPI_Type_get_contents(t, 7, 0, 1, ints, aints, types) == MPI_SUCCESS && ints[0] == 3 &&
           ints[1] == 1 && ints[3] == 3 && ints[4] == 0 && ints[6] == 10);
    MPI_Type_free(&t);
    EXPECT(MPI_Type_create_hindexed(3, bl, adisp, MPI_SHORT, &t) == MPI_SUCCESS);
    SHAPE(t, 12, 0, 46, 0, 46);
    EXPECT(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb) == MPI_SUCCESS &&
           comb == MPI_COMBINER_HINDEXED && ni == 4 && na == 3 && nd == 1);
    MPI_Type_free(&t);
    EXPECT(MPI_Type_create_indexed_block(3, 2, disp, MPI_FLOAT, &t) == MPI_SUCCESS);
    SHAPE(t, 24, 0, 48, 0, 48);
    EXPECT(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb) == MPI_SUCCESS &&
           comb == MPI_COMBINER_INDEXED_BLOCK && ni == 5 && na == 0 && nd == 1);
    MPI_Type_free(&t);
    EXPECT(MPI_Type_create_hindexed_block(3, 1, adisp, MPI_DOUBLE, &t) == MPI_SUCCESS);
    SHAPE(t, 24, 0, 48, 0, 48);
    EXPECT(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb) == MPI_SUCCESS &&
           comb == MPI_COMBINER_HINDEXED_BLOCK && ni == 2 && na == 3 && nd == 1);
    MPI_Type_free(&t);
    int negbl[2] = {1, -1};
    EXPECT(error_class(MPI_Type_indexed(2, negbl, disp, MPI_INT, &t)) == MPI_ERR_ARG);

    /* struct: padded like the C struct */
    struct s1 { char c; double d; };
    struct s2 { double d; char c; };
    struct s3 { int a; char b; };
    int one[2] = {1, 1};
    MPI_Aint d1[2] = {offsetof(struct s1, c), offsetof(struct s1, d)};
    MPI_Datatype t1[2] = {MPI_CHAR, MPI_DOUBLE};
    EXPECT(MPI_Type_create_struct(2, one, d1, t1, &t) == MPI_SUCCESS);
    SHAPE(t, 9, 0, sizeof(struct s1), 0, sizeof(struct s1));
    EXPECT(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb) == MPI_SUCCESS &&
           comb == MPI_COMBINER_STRUCT && ni == 3 && na == 2 && nd == 2);
    EXPECT(MPI_Type_get_contents(t, 3, 2, 2, ints, aints, types) == MPI_SUCCESS &&
           types[0] == MPI_CHAR && types[1] == MPI_DOUBLE && aints[1] == 8);
    MPI_Type_free(&t);
    MPI_Aint d2[2] = {offsetof(struct s2, d), offsetof(struct s2, c)};
    MPI_Datatype t2[2] = {MPI_DOUBLE, MPI_CHAR};
    EXPECT(MPI_Type_create_struct(2, one, d2, t2, &t) == MPI_SUCCESS);
    SHAPE(t, 9, 0, sizeof(struct s2), 0, 9);
    MPI_Type_free(&t);
    MPI_Aint d3[2] = {offsetof(struct s3, a), offsetof(struct s3, b)};
    MPI_Datatype t3[2] = {MPI_INT, MPI_CHAR};
    EXPECT(MPI_Type_create_struct(2, one, d3, t3, &t) == MPI_SUCCESS);
    SHAPE(t, 5, 0, sizeof(struct s3), 0, 5);
    MPI_Type_free(&t);
    MPI_Datatype bad[2] = {MPI_INT, MPI_DATATYPE_NULL};
    EXPECT(error_class(MPI_Type_create_struct(2, one, d3, bad, &t)) == MPI_ERR_TYPE);

    /* resized: the new bounds stick through later constructors */
    EXPECT(MPI_Type_create_resized(MPI_INT, -4, 16, &t) == MPI_SUCCESS);
    SHAPE(t, 4, -4, 16, 0, 4);
    EXPECT(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb) == MPI_SUCCESS &&
           comb == MPI_COMBINER_RESIZED && ni == 0 && na == 2 && nd == 1);
    EXPECT(MPI_Type_contiguous(2, t, &u) == MPI_SUCCESS);
    SHAPE(u, 8, -4, 32, 0, 20);
    MPI_Type_free(&u);
    /* a struct of a resized part and a plain part: only the resized part sets the bounds */
    MPI_Datatype tr[2] = {t, MPI_CHAR};
    MPI_Aint dr[2] = {0, 100};
    EXPECT(MPI_Type_create_struct(2, one, dr, tr, &u) == MPI_SUCCESS);
    SHAPE(u, 5, -4, 16, 0, 101);
    MPI_Type_free(&u);
    MPI_Type_free(&t);
    EXPECT(MPI_Type_create_resized(MPI_DOUBLE, 0, 8, &t) == MPI_SUCCESS);   /* same as MPI_DOUBLE */
    SHAPE(t, 8, 0, 8, 0, 8);
    MPI_Type_free(&t);

    /* subarray, C and Fortran order */
    int sizes[3] = {4, 5, 6}, subsizes[3] = {2, 3, 2}, starts[3] = {1, 1, 3};
    EXPECT(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &t) == MPI_SUCCESS);
    SHAPE(t, 24, 0, 80, 24, 32);
    EXPECT(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb) == MPI_SUCCESS &&
           comb == MPI_COMBINER_SUBARRAY && ni == 8 && na == 0 && nd == 1);
    EXPECT(MPI_Type_get_contents(t, 8, 0, 1, ints, aints, types) == MPI_SUCCESS && ints[0] == 2 &&
           ints[1] == 4 && ints[3] == 2 && ints[5] == 1 && ints[7] == MPI_ORDER_C);
    MPI_Type_free(&t);
    EXPECT(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_FORTRAN, MPI_INT, &t) == MPI_SUCCESS);
    SHAPE(t, 24, 0, 80, 20, 40);
    MPI_Type_free(&t);
    EXPECT(MPI_Type_create_subarray(3, sizes, subsizes, starts, MPI_ORDER_C, MPI_DOUBLE, &t) == MPI_SUCCESS);
    /* first element (1,1,3) at 8*(30+6+3), last (2,3,4) at 8*(60+18+4) */
    SHAPE(t, 96, 0, 960, 312, 8 * 83 - 312);
    MPI_Type_free(&t);
    int badstart[2] = {3, 0};
    EXPECT(error_class(MPI_Type_create_subarray(2, sizes, subsizes, badstart, MPI_ORDER_C, MPI_INT, &t)) == MPI_ERR_ARG);

    /* large-count constructors record large counts */
    MPI_Count cn[8];
    MPI_Count nni, nna, nnc, nnd;
    EXPECT(MPI_Type_contiguous_c(5, MPI_INT, &t) == MPI_SUCCESS);
    EXPECT(MPI_Type_get_envelope_c(t, &nni, &nna, &nnc, &nnd, &comb) == MPI_SUCCESS &&
           comb == MPI_COMBINER_CONTIGUOUS && nni == 0 && nna == 0 && nnc == 1 && nnd == 1);
    EXPECT(MPI_Type_get_contents_c(t, 0, 0, 4, 1, ints, aints, cn, types) == MPI_SUCCESS &&
           cn[0] == 5 && types[0] == MPI_INT);
    EXPECT(error_class(MPI_Type_get_envelope(t, &ni, &na, &nd, &comb)) == MPI_ERR_TYPE);
    MPI_Type_free(&t);
    MPI_Count cbl[2] = {2, 1}, cdisp[2] = {0, 16};
    MPI_Datatype ctypes[2] = {MPI_INT, MPI_DOUBLE};
    EXPECT(MPI_Type_create_struct_c(2, cbl, cdisp, ctypes, &t) == MPI_SUCCESS);
    SHAPE(t, 16, 0, 24, 0, 24);
    EXPECT(MPI_Type_get_envelope_c(t, &nni, &nna, &nnc, &nnd, &comb) == MPI_SUCCESS &&
           comb == MPI_COMBINER_STRUCT && nni == 0 && nna == 0 && nnc == 5 && nnd == 2);
    EXPECT(MPI_Type_get_contents_c(t, 0, 0, 5, 2, ints, aints, cn, types) == MPI_SUCCESS &&
           cn[0] == 2 && cn[1] == 2 && cn[2] == 1 && cn[4] == 16 && types[1] == MPI_DOUBLE);
    MPI_Type_free(&t);
    MPI_Count csizes[2] = {4, 5}, csub[2] = {2, 3}, cstart[2] = {1, 1};
    EXPECT(MPI_Type_create_subarray_c(2, csizes, csub, cstart, MPI_ORDER_C, MPI_INT, &t) == MPI_SUCCESS);
    SHAPE(t, 24, 0, 80, 24, 32);
    EXPECT(MPI_Type_get_envelope_c(t, &nni, &nna, &nnc, &nnd, &comb) == MPI_SUCCESS &&
           comb == MPI_COMBINER_SUBARRAY && nni == 2 && nnc == 6 && nnd == 1);
    MPI_Type_free(&t);
    MPI_Count cidx[2] = {3, 0};
    EXPECT(MPI_Type_create_hindexed_block_c(2, 2, cidx, MPI_CHAR, &t) == MPI_SUCCESS);
    SHAPE(t, 4, 0, 5, 0, 5);
    MPI_Type_free(&t);
    /* more than an int of bytes */
    EXPECT(MPI_Type_contiguous_c((MPI_Count)1 << 32, MPI_CHAR, &t) == MPI_SUCCESS);
    int isize = 0;
    MPI_Count csize = 0;
    EXPECT(MPI_Type_size(t, &isize) == MPI_SUCCESS && isize == MPI_UNDEFINED);
    EXPECT(MPI_Type_size_c(t, &csize) == MPI_SUCCESS && csize == (MPI_Count)1 << 32);
    MPI_Type_free(&t);
    EXPECT(error_class(MPI_Type_get_contents(MPI_INT, 1, 1, 1, ints, aints, types)) == MPI_ERR_TYPE);

    /* dup, names, commit */
    EXPECT(MPI_Type_vector(2, 1, 2, MPI_INT, &t) == MPI_SUCCESS);
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    EXPECT(MPI_Type_get_name(t, name, &len) == MPI_SUCCESS && len == 0 && name[0] == 0);
    EXPECT(MPI_Type_set_name(t, "pairs") == MPI_SUCCESS);
    EXPECT(MPI_Type_get_name(t, name, &len) == MPI_SUCCESS && len == 5 && !strcmp(name, "pairs"));
    char pos_[4] = {0}, out[64];
    int pos = 0;
    EXPECT(error_class(MPI_Pack(pos_, 1, t, out, sizeof out, &pos, MPI_COMM_SELF)) == MPI_ERR_TYPE);
    EXPECT(MPI_Type_commit(&t) == MPI_SUCCESS);
    EXPECT(MPI_Type_dup(t, &u) == MPI_SUCCESS && u != t);
    SHAPE(u, 8, 0, 12, 0, 12);
    EXPECT(MPI_Type_get_envelope(u, &ni, &na, &nd, &comb) == MPI_SUCCESS &&
           comb == MPI_COMBINER_DUP && ni == 0 && na == 0 && nd == 1);
    EXPECT(MPI_Type_get_name(u, name, &len) == MPI_SUCCESS && len == 0);
    int data[3] = {1, 2, 3};
    pos = 0;
    EXPECT(MPI_Pack(data, 1, u, out, sizeof out, &pos, MPI_COMM_SELF) == MPI_SUCCESS && pos == 8);
    v = t;
    EXPECT(MPI_Type_free(&u) == MPI_SUCCESS);
    EXPECT(MPI_Type_free(&t) == MPI_SUCCESS && t == MPI_DATATYPE_NULL);
    EXPECT(error_class(MPI_Type_free(&v)) == MPI_ERR_TYPE);   /* freed already */

    MPI_Aint addr1, addr2;
    EXPECT(MPI_Get_address(&data[0], &addr1) == MPI_SUCCESS && MPI_Get_address(&data[2], &addr2) == MPI_SUCCESS);
    EXPECT(MPI_Aint_diff(addr2, addr1) == 2 * sizeof(int));

    MPI_Finalize();
    printf("%d failures\n", failures);
    return failures != 0;
}
