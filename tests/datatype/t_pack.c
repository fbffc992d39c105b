/* MPI_Pack, MPI_Unpack, MPI_Pack_size: the packed form is the data in type-map order, packing
 * several messages one after another, and unpacking restores exactly the data (never the gaps). */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

static int failures;
#define EXPECT(cond) do { if (!(cond)) { failures++; printf("FAILED line %d: %s\n", __LINE__, #cond); } } while (0)

static int error_class(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

struct rec { char c; double d; int i[3]; };

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    char buf[4096];
    int pos, size;

    /* A vector of ints: every other int. */
    int a[20], b[20];
    for (int i = 0; i < 20; i++)
        a[i] = i;
    MPI_Datatype vec;
    MPI_Type_vector(5, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    EXPECT(MPI_Pack_size(2, vec, MPI_COMM_SELF, &size) == MPI_SUCCESS && size == 40);
    pos = 0;
    EXPECT(MPI_Pack(a, 2, vec, buf, sizeof buf, &pos, MPI_COMM_SELF) == MPI_SUCCESS && pos == 40);
    int *p = (int *)buf;
    /* element 2 starts one extent (9 ints) after element 1 */
    int want[10] = {0, 2, 4, 6, 8, 9, 11, 13, 15, 17};
    EXPECT(!memcmp(p, want, sizeof want));
    memset(b, -1, sizeof b);
    pos = 0;
    EXPECT(MPI_Unpack(buf, 40, &pos, b, 2, vec, MPI_COMM_SELF) == MPI_SUCCESS && pos == 40);
    for (int i = 0; i < 18; i++) {
        int in_type = i < 9 ? i % 2 == 0 : (i - 9) % 2 == 0;
        EXPECT(b[i] == (in_type ? i : -1));
    }

    /* A struct with padding; several packs into one buffer, unpacked in the same order. */
    struct rec r[5], s[5];
    memset(r, 0, sizeof r);
    for (int i = 0; i < 5; i++) {
        r[i].c = 'a' + i;
        r[i].d = i * 1.5;
        r[i].i[0] = i, r[i].i[1] = -i, r[i].i[2] = 100 * i;
    }
    int bl[3] = {1, 1, 3};
    MPI_Aint disp[3] = {offsetof(struct rec, c), offsetof(struct rec, d), offsetof(struct rec, i)};
    MPI_Datatype types[3] = {MPI_CHAR, MPI_DOUBLE, MPI_INT}, rect;
    MPI_Type_create_struct(3, bl, disp, types, &rect);
    MPI_Type_commit(&rect);
    MPI_Aint lb, ext;
    MPI_Type_get_extent(rect, &lb, &ext);
    EXPECT(ext == sizeof(struct rec));
    int x = 42;
    double y = 2.5;
    pos = 0;
    EXPECT(MPI_Pack(&x, 1, MPI_INT, buf, sizeof buf, &pos, MPI_COMM_SELF) == MPI_SUCCESS && pos == 4);
    EXPECT(MPI_Pack(r, 5, rect, buf, sizeof buf, &pos, MPI_COMM_SELF) == MPI_SUCCESS && pos == 4 + 5 * 21);
    EXPECT(MPI_Pack(&y, 1, MPI_DOUBLE, buf, sizeof buf, &pos, MPI_COMM_SELF) == MPI_SUCCESS && pos == 4 + 105 + 8);
    EXPECT(buf[4] == 'a' && buf[4 + 21] == 'b');
    int packed = pos, x2 = 0;
    double y2 = 0;
    memset(s, 0x55, sizeof s);
    pos = 0;
    EXPECT(MPI_Unpack(buf, packed, &pos, &x2, 1, MPI_INT, MPI_COMM_SELF) == MPI_SUCCESS && x2 == 42);
    EXPECT(MPI_Unpack(buf, packed, &pos, s, 5, rect, MPI_COMM_SELF) == MPI_SUCCESS);
    EXPECT(MPI_Unpack(buf, packed, &pos, &y2, 1, MPI_DOUBLE, MPI_COMM_SELF) == MPI_SUCCESS && y2 == 2.5);
    EXPECT(pos == packed);
    for (int i = 0; i < 5; i++)
        EXPECT(s[i].c == r[i].c && s[i].d == r[i].d && !memcmp(s[i].i, r[i].i, sizeof r[i].i));
    EXPECT(((unsigned char *)&s[0])[1] == 0x55);       /* the padding is not written */
    /* Too little room, too little data. */
    pos = 0;
    EXPECT(error_class(MPI_Pack(r, 5, rect, buf, 100, &pos, MPI_COMM_SELF)) == MPI_ERR_TRUNCATE && pos == 0);
    pos = 0;
    EXPECT(error_class(MPI_Unpack(buf, 100, &pos, s, 5, rect, MPI_COMM_SELF)) == MPI_ERR_TRUNCATE);
    pos = 200;
    EXPECT(error_class(MPI_Pack(r, 1, rect, buf, 100, &pos, MPI_COMM_SELF)) == MPI_ERR_ARG);

    /* Pair types pack their data only: MPI_SHORT_INT is 6 bytes. */
    struct { short v; int i; } si[3] = {{1, 10}, {2, 20}, {3, 30}}, si2[3];
    pos = 0;
    EXPECT(MPI_Pack(si, 3, MPI_SHORT_INT, buf, sizeof buf, &pos, MPI_COMM_SELF) == MPI_SUCCESS && pos == 18);
    short sv;
    int iv;
    memcpy(&sv, buf + 12, 2), memcpy(&iv, buf + 14, 4);
    EXPECT(sv == 3 && iv == 30);
    memset(si2, 0, sizeof si2);
    pos = 0;
    EXPECT(MPI_Unpack(buf, 18, &pos, si2, 3, MPI_SHORT_INT, MPI_COMM_SELF) == MPI_SUCCESS);
    EXPECT(si2[1].v == 2 && si2[1].i == 20 && si2[2].v == 3 && si2[2].i == 30);

    /* Many blocks (found by bisection), a negative lower bound, large counts. */
    int big[1000], bbl[50], bdisp[50];
    for (int i = 0; i < 1000; i++)
        big[i] = i;
    for (int i = 0; i < 50; i++)
        bbl[i] = 1 + i % 3, bdisp[i] = 3 * i + (i % 2);
    MPI_Datatype idx, neg;
    MPI_Type_indexed(50, bbl, bdisp, MPI_INT, &idx);
    MPI_Type_commit(&idx);
    MPI_Count cpos = 0, csize;
    EXPECT(MPI_Pack_size_c(3, idx, MPI_COMM_SELF, &csize) == MPI_SUCCESS);
    EXPECT(MPI_Pack_c(big, 3, idx, buf, sizeof buf, &cpos, MPI_COMM_SELF) == MPI_SUCCESS && cpos == csize);
    MPI_Type_get_extent(idx, &lb, &ext);
    int k = 0, ok = 1;
    for (int e = 0; e < 3; e++)
        for (int i = 0; i < 50; i++)
            for (int j = 0; j < bbl[i]; j++)
                ok &= ((int *)buf)[k++] == big[e * ext / 4 + bdisp[i] + j];
    EXPECT(ok && k * 4 == csize);
    MPI_Type_create_resized(MPI_INT, -8, 12, &neg);   /* elements at 0, 12, 24: ints 0, 3, 6 */
    MPI_Type_commit(&neg);
    pos = 0;
    EXPECT(MPI_Pack(big, 3, neg, buf, sizeof buf, &pos, MPI_COMM_SELF) == MPI_SUCCESS && pos == 12);
    EXPECT(((int *)buf)[0] == 0 && ((int *)buf)[1] == 3 && ((int *)buf)[2] == 6);

    /* A subarray is the selected elements, row by row. */
    int grid[4][5], sub[6];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 5; j++)
            grid[i][j] = 10 * i + j;
    int sizes[2] = {4, 5}, subsizes[2] = {2, 3}, starts[2] = {1, 2};
    MPI_Datatype sa;
    MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &sa);
    MPI_Type_commit(&sa);
    pos = 0;
    EXPECT(MPI_Pack(grid, 1, sa, sub, sizeof sub, &pos, MPI_COMM_SELF) == MPI_SUCCESS && pos == 24);
    int wantsub[6] = {12, 13, 14, 22, 23, 24};
    EXPECT(!memcmp(sub, wantsub, sizeof sub));

    MPI_Type_free(&vec), MPI_Type_free(&rect), MPI_Type_free(&idx), MPI_Type_free(&neg), MPI_Type_free(&sa);
    MPI_Finalize();
    printf("%d failures\n", failures);
    return failures != 0;
}
