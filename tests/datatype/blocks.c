/* A unit test of datatype flattening (core/datatype.c), run by test_blocks.sh: built against the
 * library's internal headers and linked with libmpi.a, it reads each type's block list, which
 * MPI cannot show. The constructors append each part's blocks in type-map order and merge a
 * block into the one before it when they touch; nothing else is merged or reordered. */
#include <stdio.h>
#include <stdlib.h>

#include "core/datatype.h"

static int failures;

/* Check `type`'s blocks against (offset, length) pairs, and its flags; frees the type. */
static void expect(const char *what, MPI_Datatype type, int contiguous, MPI_Aint stride, int n,
                   const MPI_Aint *blocks)
{
    MPI_Type_commit(&type);
    const mica_type_t *t = mica_type_lookup(type);
    int ok = t && t->nblocks == n && t->contiguous == contiguous && t->stride == stride;
    for (int i = 0; ok && i < n; i++)
        ok = t->blocks[i].offset == blocks[2 * i] && t->blocks[i].length == blocks[2 * i + 1];
    /* Types with more than a few blocks carry each block's offset in the packed form. */
    MPI_Aint packed = 0;
    for (int i = 0; ok && n > 8 && i < n; packed += t->blocks[i++].length)
        ok = t->packoff && t->packoff[i] == packed;
    if (!ok) {
        failures++;
        fprintf(stderr, "FAIL %s: expected %d blocks, contiguous %d, stride %ld; got", what, n,
                contiguous, (long)stride);
        if (t) {
            fprintf(stderr, " contiguous %d, stride %ld:", t->contiguous, (long)t->stride);
            for (int i = 0; i < t->nblocks; i++)
                fprintf(stderr, " {%ld, %ld}", (long)t->blocks[i].offset,
                        (long)t->blocks[i].length);
        }
        fprintf(stderr, "\n");
    }
    MPI_Type_free(&type);
}

#define EXPECT(what, type, contiguous, stride, ...)                                              \
    expect(what, type, contiguous, stride,                                                    \
           (int)(sizeof((MPI_Aint[]){__VA_ARGS__}) / sizeof(MPI_Aint) / 2),                    \
           (MPI_Aint[]){__VA_ARGS__})

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Datatype t, u, v;

    /* Copies of a type that fills its extent make one block. */
    MPI_Type_contiguous(4, MPI_INT, &t);
    EXPECT("contiguous(4, int)", t, 1, 0, 0, 16);

    /* A vector whose blocks touch (stride == blocklength) is one block... */
    MPI_Type_vector(3, 2, 2, MPI_INT, &t);
    EXPECT("vector(3, 2, 2, int)", t, 1, 0, 0, 24);
    /* ...and one with gaps keeps its blocks, evenly spaced. */
    MPI_Type_vector(3, 1, 2, MPI_INT, &t);
    EXPECT("vector(3, 1, 2, int)", t, 0, 8, 0, 4, 8, 4, 16, 4);

    /* Blocks merge only with the block before them in type-map order. */
    MPI_Type_create_hindexed(3, (int[]){1, 1, 1}, (MPI_Aint[]){0, 4, 8}, MPI_INT, &t);
    EXPECT("hindexed at 0, 4, 8", t, 1, 0, 0, 12);
    MPI_Type_create_hindexed(3, (int[]){1, 1, 1}, (MPI_Aint[]){4, 0, 8}, MPI_INT, &t);
    EXPECT("hindexed at 4, 0, 8", t, 0, 0, 4, 4, 0, 4, 8, 4);
    MPI_Type_create_hindexed(2, (int[]){1, 1}, (MPI_Aint[]){4, 0}, MPI_INT, &t);
    EXPECT("hindexed at 4, 0 (backward)", t, 0, 0, 4, 4, 0, 4);

    /* A struct: the gap before an aligned double stays; the extent is padded (C layout). */
    MPI_Type_create_struct(2, (int[]){1, 1}, (MPI_Aint[]){0, 8},
                           (MPI_Datatype[]){MPI_INT, MPI_DOUBLE}, &t);
    EXPECT("struct {int; double}", t, 0, 0, 0, 4, 8, 8);
    /* Touching parts of different types merge; padding makes it not contiguous. */
    MPI_Type_create_struct(3, (int[]){1, 1, 1}, (MPI_Aint[]){0, 4, 8},
                           (MPI_Datatype[]){MPI_INT, MPI_INT, MPI_CHAR}, &u);
    MPI_Type_dup(u, &t);
    EXPECT("struct {int; int; char}", t, 0, 0, 0, 9);
    /* Copies of it do not touch (extent 12 > 9 bytes of data). */
    MPI_Type_contiguous(3, u, &t);
    EXPECT("contiguous(3, struct {int; int; char})", t, 0, 12, 0, 9, 12, 9, 24, 9);
    MPI_Type_free(&u);
    /* Empty parts are skipped: the blocks around them still merge. */
    MPI_Type_create_struct(3, (int[]){1, 0, 1}, (MPI_Aint[]){0, 100, 4},
                           (MPI_Datatype[]){MPI_INT, MPI_DOUBLE, MPI_INT}, &t);
    EXPECT("struct {int; 0 double; int}", t, 1, 0, 0, 8);

    /* Merging across copies: the last block of one copy touches the first of the next. */
    MPI_Type_vector(2, 1, 2, MPI_INT, &u);              /* {0, 4} {8, 4}, extent 12 */
    MPI_Type_contiguous(2, u, &t);
    EXPECT("contiguous(2, vector(2, 1, 2, int))", t, 0, 0, 0, 4, 8, 8, 20, 4);
    /* A resized extent decides where the copies go. */
    MPI_Type_create_resized(u, 0, 16, &v);
    MPI_Type_contiguous(2, v, &t);
    EXPECT("contiguous(2, resized(vector, 16))", t, 0, 8, 0, 4, 8, 4, 16, 4, 24, 4);
    MPI_Type_free(&v);
    MPI_Type_create_resized(MPI_INT, 0, 4, &v);
    MPI_Type_contiguous(5, v, &t);
    EXPECT("contiguous(5, resized(int, 4))", t, 1, 0, 0, 20);
    MPI_Type_free(&v);
    MPI_Type_free(&u);

    /* A predefined pair with a hole (short, then int at 4), repeated: the int of the first
     * copy touches the short of the second. */
    MPI_Type_contiguous(2, MPI_SHORT_INT, &t);
    EXPECT("contiguous(2, MPI_SHORT_INT)", t, 0, 0, 0, 2, 4, 6, 12, 4);

    /* Many blocks: the packed-offset table (checked in expect). */
    MPI_Type_vector(10, 1, 3, MPI_INT, &t);
    EXPECT("vector(10, 1, 3, int)", t, 0, 12, 0, 4, 12, 4, 24, 4, 36, 4, 48, 4, 60, 4, 72, 4,
           84, 4, 96, 4, 108, 4);
    MPI_Type_indexed(10, (int[]){1, 2, 1, 2, 1, 2, 1, 2, 1, 2},
                     (int[]){0, 2, 5, 7, 10, 12, 15, 17, 20, 22}, MPI_INT, &t);
    EXPECT("indexed, 10 uneven blocks", t, 0, 0, 0, 4, 8, 8, 20, 4, 28, 8, 40, 4, 48, 8, 60, 4,
           68, 8, 80, 4, 88, 8);

    MPI_Finalize();
    if (failures)
        return 1;
    printf("blocks: all cases pass\n");
    return 0;
}
