/* The packing engine seen from inside (linked statically against libmpi.a, see
 * test_internals.sh): every byte window [pos, pos + len) of the packed stream, at odd positions
 * and of odd lengths, equals that slice of the whole stream; unpacking a stream cut into uneven
 * pieces writes exactly what unpacking it whole writes; mica_type_copy between all kinds of
 * layouts; reduction kernels on misaligned data. */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/datatype.h"
#include "core/op.h"

static int failures;
#define EXPECT(cond) do { if (!(cond)) { failures++; printf("FAILED line %d: %s\n", __LINE__, #cond); } } while (0)

static unsigned seed = 12345;
static unsigned rnd(void) { return (seed = seed * 1103515245u + 12345u) >> 8; }

/* The packed stream computed the slow way, byte by byte from the block list. */
static void reference_pack(const char *buf, MPI_Count count, const mica_type_t *t, char *out)
{
    for (MPI_Count e = 0; e < count; e++)
        for (int b = 0; b < t->nblocks; b++)
            for (MPI_Aint i = 0; i < t->blocks[b].length; i++)
                *out++ = buf[e * t->extent + t->blocks[b].offset + i];
}

static void windows(const char *what, MPI_Datatype h, MPI_Count count)
{
    mica_type_t *t = mica_type_lookup(h);
    MPI_Count total = count * t->size;
    MPI_Aint span = (count - 1) * t->extent + t->true_lb + t->true_extent + 64, base = 64 - t->true_lb;
    if (t->true_lb > 0)
        base = 0, span += t->true_lb;
    char *mem = malloc(span + 64), *buf = mem + base;    /* buf: the buffer address; data from true_lb */
    char *full = malloc(total + 16), *win = malloc(total + 16), *ref = malloc(span + 64),
         *got = malloc(span + 64);
    for (MPI_Aint i = 0; i < span + 64; i++)
        mem[i] = (char)rnd();
    reference_pack(buf, count, t, full);
    /* the engine's whole stream */
    memset(win, 0, total);
    mica_type_pack(buf, count, t, 0, win, total);
    EXPECT(!memcmp(win, full, total));
    /* every window of a few lengths */
    int bad = 0;
    static const MPI_Count lens[] = {1, 2, 3, 5, 7, 13, 64, 1000};
    for (MPI_Count pos = 0; pos < total; pos++)
        for (size_t l = 0; l < sizeof lens / sizeof *lens; l++) {
            MPI_Count len = lens[l] < total - pos ? lens[l] : total - pos;
            memset(win, 0x77, len + 16);
            mica_type_pack(buf, count, t, pos, win, lens[l]);       /* clipped at the end */
            bad += memcmp(win, full + pos, len) != 0 || win[len] != 0x77;
        }
    EXPECT(bad == 0);
    /* unpack whole vs. in uneven pieces, in order and out of order */
    memset(ref, (char)0xee, span + 64), memset(got, (char)0xee, span + 64);
    mica_type_unpack(ref + base, count, t, 0, full, total);
    for (MPI_Count pos = 0; pos < total;) {
        MPI_Count len = 1 + rnd() % 37;
        mica_type_unpack(got + base, count, t, pos, full + pos, len);
        pos += len;
    }
    EXPECT(!memcmp(ref, got, span + 64));
    memset(got, (char)0xee, span + 64);
    for (MPI_Count pos = total - (total % 11 ? total % 11 : 11); ; pos -= 11) {
        mica_type_unpack(got + base, count, t, pos, full + pos, 11);
        if (pos == 0)
            break;
    }
    EXPECT(!memcmp(ref, got, span + 64));
    /* unpacking then packing again gives the stream back */
    mica_type_pack(ref + base, count, t, 0, win, total);
    EXPECT(!memcmp(win, full, total));
    if (bad)
        printf("%s: %d bad windows\n", what, bad);
    printf("%s: %lld bytes, %d blocks per element: windows ok\n", what, (long long)total, t->nblocks);
    free(mem), free(full), free(win), free(ref), free(got);
}

struct rec { char c; double d; int i[3]; };

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Datatype vec, rect, idx, neg, sa, vrec, cdi;

    MPI_Type_vector(5, 2, 3, MPI_INT, &vec);
    int bl[3] = {1, 1, 3};
    MPI_Aint disp[3] = {offsetof(struct rec, c), offsetof(struct rec, d), offsetof(struct rec, i)};
    MPI_Datatype types[3] = {MPI_CHAR, MPI_DOUBLE, MPI_INT};
    MPI_Type_create_struct(3, bl, disp, types, &rect);
    int ibl[40], idisp[40];
    for (int i = 0; i < 40; i++)
        ibl[i] = 1 + i % 4, idisp[i] = 5 * i + i % 3;
    MPI_Type_indexed(40, ibl, idisp, MPI_SHORT, &idx);
    MPI_Type_create_resized(vec, -12, 100, &neg);
    int sizes[3] = {4, 5, 6}, subsizes[3] = {2, 3, 4}, starts[3] = {1, 2, 1};
    MPI_Type_create_subarray(3, sizes, subsizes, starts, MPI_ORDER_FORTRAN, MPI_DOUBLE, &sa);
    MPI_Type_vector(3, 1, 2, rect, &vrec);
    MPI_Type_contiguous(3, MPI_DOUBLE_INT, &cdi);

    windows("MPI_INT", MPI_INT, 50);
    windows("MPI_DOUBLE_INT", MPI_DOUBLE_INT, 30);
    windows("MPI_SHORT_INT", MPI_SHORT_INT, 30);
    windows("vector", vec, 7);
    windows("struct", rect, 9);
    windows("indexed (40 blocks)", idx, 3);
    windows("resized vector", neg, 5);
    windows("subarray", sa, 2);
    windows("vector of struct", vrec, 4);
    windows("contiguous pairs", cdi, 5);

    /* basic elements, as MPI_Get_elements counts them: a pair is two */
    mica_type_t *trec = mica_type_lookup(rect), *tdi = mica_type_lookup(MPI_DOUBLE_INT);
    EXPECT(trec->nelem == 5 && trec->nsig == 3 && trec->sig[2].n == 3 && !trec->basic);
    EXPECT(mica_type_elements(trec, 2 * 21 + 1 + 8 + 4) == 13);
    EXPECT(mica_type_elements(trec, 21 + 2) == MPI_UNDEFINED);
    EXPECT(mica_type_element_bytes(trec, 13) == 55);
    EXPECT(mica_type_elements(tdi, 12) == 2 && mica_type_elements(tdi, 8) == 1 &&
           mica_type_elements(tdi, 36) == 6 && mica_type_elements(tdi, 10) == MPI_UNDEFINED);
    EXPECT(mica_type_element_bytes(tdi, 3) == 20);
    MPI_Datatype c2i;
    MPI_Type_contiguous(3, MPI_2INT, &c2i);
    mica_type_t *tc2i = mica_type_lookup(c2i);
    EXPECT(tc2i->nsig == 1 && tc2i->nelem == 6 && tc2i->basic == mica_type_lookup(MPI_2INT) && tc2i->nbasic == 3);
    EXPECT(mica_type_elements(tc2i, 28) == 7);
    MPI_Type_free(&c2i);

    /* mica_type_copy between layouts, beyond the bounce buffer's size */
    enum { N = 20000 };
    int *src = malloc(2 * N * sizeof(int)), *dst = malloc(3 * N * sizeof(int)), *back = malloc(2 * N * sizeof(int));
    for (int i = 0; i < 2 * N; i++)
        src[i] = i;
    MPI_Datatype ev2, ev3;
    MPI_Type_vector(N, 1, 2, MPI_INT, &ev2);     /* every other int */
    MPI_Type_vector(N, 1, 3, MPI_INT, &ev3);     /* every third int */
    mica_type_t *tint = mica_type_lookup(MPI_INT), *t2 = mica_type_lookup(ev2), *t3 = mica_type_lookup(ev3);
    memset(dst, -1, 3 * N * sizeof(int));
    mica_type_copy(src, 1, t2, dst, 1, t3);
    int ok = 1;
    for (int i = 0; i < 3 * N; i++)
        ok &= dst[i] == (i % 3 ? -1 : 2 * (i / 3));
    EXPECT(ok);
    mica_type_copy(dst, 1, t3, back, N, tint);
    ok = 1;
    for (int i = 0; i < N; i++)
        ok &= back[i] == 2 * i;
    EXPECT(ok);
    memset(dst, -1, 3 * N * sizeof(int));
    mica_type_copy(back, N, tint, dst, 1, t2);
    ok = 1;
    for (int i = 0; i < 2 * N; i++)
        ok &= dst[i] == (i % 2 ? -1 : i);
    EXPECT(ok);
    mica_type_copy(src, 2 * N, tint, dst, 2 * N, tint);
    EXPECT(!memcmp(src, dst, 2 * N * sizeof(int)));
    mica_type_copy(dst, 2 * N, tint, dst, 2 * N, tint);   /* in place: nothing to do */
    EXPECT(!memcmp(src, dst, 2 * N * sizeof(int)));

    /* reduction kernels on data that is not aligned for its type */
    char *ma = malloc(8 * 1000 + 1), *mb = malloc(8 * 1000 + 1);
    for (int i = 0; i < 1000; i++) {
        double x = i, y = 2 * i;
        memcpy(ma + 1 + 8 * i, &x, 8), memcpy(mb + 1 + 8 * i, &y, 8);
    }
    EXPECT(mica_op_apply(&mica_op_MPI_SUM, ma + 1, mb + 1, 1000, mica_type_lookup(MPI_DOUBLE)) == MPI_SUCCESS);
    ok = 1;
    for (int i = 0; i < 1000; i++) {
        double z;
        memcpy(&z, mb + 1 + 8 * i, 8);
        ok &= z == 3 * i;
    }
    EXPECT(ok);
    EXPECT(mica_op_check(&mica_op_MPI_SUM, mica_type_lookup(MPI_WCHAR)) != MPI_SUCCESS);
    EXPECT(mica_op_check(&mica_op_MPI_REPLACE, mica_type_lookup(MPI_WCHAR)) == MPI_SUCCESS);
    EXPECT(mica_op_check(&mica_op_MPI_SUM, mica_type_lookup(rect)) != MPI_SUCCESS);
    EXPECT(mica_op_check(&mica_op_MPI_MAXLOC, mica_type_lookup(cdi)) == MPI_SUCCESS);
    /* MPI_REPLACE through mica_op_apply copies, whatever the layout */
    struct rec r1[2] = {{'x', 1.5, {1, 2, 3}}, {'y', 2.5, {4, 5, 6}}}, r2[2];
    memset(r2, 0, sizeof r2);
    EXPECT(mica_op_apply(&mica_op_MPI_REPLACE, r1, r2, 2, mica_type_lookup(rect)) == MPI_SUCCESS);
    EXPECT(r2[1].c == 'y' && r2[1].d == 2.5 && r2[1].i[2] == 6);

    free(src), free(dst), free(back), free(ma), free(mb);
    MPI_Type_free(&vec), MPI_Type_free(&rect), MPI_Type_free(&idx), MPI_Type_free(&neg);
    MPI_Type_free(&sa), MPI_Type_free(&vrec), MPI_Type_free(&cdi), MPI_Type_free(&ev2), MPI_Type_free(&ev3);
    MPI_Finalize();
    printf("%d failures\n", failures);
    return failures != 0;
}
