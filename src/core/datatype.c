/* Derived datatypes: the constructors, commit, dup and free.
 *
 * Every constructor reduces to one operation, "add `count` copies of type T at displacement d",
 * applied to a builder that appends T's blocks (merging blocks that touch) and tracks the bounds,
 * the size and the basic type. Flattening at construction makes packing a walk over one list.
 *
 * Bounds follow the standard's type-map rules: lb is the lowest and ub the highest bound of all
 * copies; bounds set by MPI_Type_create_resized are markers that stick (once any part has them,
 * only the marked parts decide that bound); a struct's extent is padded up to the strictest
 * alignment of its parts, as a C compiler pads a struct. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/attr.h"
#include "core/datatype.h"
#include "core/errors.h"
#include "core_api.h"

#define SCAN_BLOCKS 8                 /* types with more blocks get a table of packed offsets */

typedef struct {
    mica_block_t *blocks;
    size_t n, cap;
    MPI_Count size;
    int have, sticky_lb, sticky_ub;   /* bounds seen: from data, from markers */
    MPI_Aint lb, ub, slb, sub;
    mica_type_t *basic;
    int mixed, align, err;
    MPI_Count nbasic;
    mica_sig_t *sig;                  /* basic elements, as runs */
    size_t nsig, sigcap;
    MPI_Count nelem;
} build_t;

static void push_sig(build_t *b, mica_type_t *basic, MPI_Count n)
{
    if (b->nsig && b->sig[b->nsig - 1].basic == basic) {
        b->sig[b->nsig - 1].n += n;
        return;
    }
    if (b->nsig == b->sigcap) {
        size_t cap = b->sigcap ? 2 * b->sigcap : 4;
        mica_sig_t *p = cap <= INT_MAX ? realloc(b->sig, cap * sizeof *p) : NULL;
        if (!p) {
            b->err = mica_error(MPI_ERR_NO_MEM, "no memory for the signature of the datatype");
            return;
        }
        b->sig = p;
        b->sigcap = cap;
    }
    b->sig[b->nsig++] = (mica_sig_t){basic, n};
}

static void push(build_t *b, MPI_Aint offset, MPI_Aint length)
{
    if (b->n && b->blocks[b->n - 1].offset + b->blocks[b->n - 1].length == offset) {
        b->blocks[b->n - 1].length += length;
        return;
    }
    if (b->n == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 8;
        mica_block_t *p = cap <= INT_MAX ? realloc(b->blocks, cap * sizeof *p) : NULL;
        if (!p) {
            b->err = mica_error(MPI_ERR_NO_MEM, "no memory for the blocks of the datatype "
                                "(%zu blocks so far)", b->n);
            return;
        }
        b->blocks = p;
        b->cap = cap;
    }
    b->blocks[b->n++] = (mica_block_t){offset, length};
}

static void add(build_t *b, const mica_type_t *t, MPI_Count count, MPI_Aint disp)
{
    MPI_Aint step, last, lo, hi;
    MPI_Count bytes;
    if (b->err || count <= 0)
        return;
    if (__builtin_mul_overflow(count - 1, t->extent, &step) ||
        __builtin_add_overflow(disp, step, &last) ||
        __builtin_mul_overflow(count, t->size, &bytes) ||
        __builtin_add_overflow(b->size, bytes, &b->size)) {
        b->err = mica_error(MPI_ERR_ARG, "the datatype would span more bytes than MPI_Aint holds");
        return;
    }
    lo = t->lb + (last < disp ? last : disp);
    hi = t->lb + t->extent + (last > disp ? last : disp);
    if (t->explicit_lb) {
        b->slb = b->sticky_lb && b->slb < lo ? b->slb : lo;
        b->sticky_lb = 1;
    }
    if (t->explicit_ub) {
        b->sub = b->sticky_ub && b->sub > hi ? b->sub : hi;
        b->sticky_ub = 1;
    }
    if (t->size > 0 && !(t->explicit_lb && t->explicit_ub)) {
        b->lb = b->have && b->lb < lo ? b->lb : lo;
        b->ub = b->have && b->ub > hi ? b->ub : hi;
        b->have = 1;
    }
    if (t->align > b->align)
        b->align = t->align;
    if (t->size == 0)
        return;
    if (!t->basic || (b->basic && b->basic != t->basic))
        b->mixed = 1;
    b->basic = t->basic;
    b->nbasic += count * t->nbasic;
    b->nelem += count * t->nelem;
    if (t->nsig == 1)
        push_sig(b, t->sig[0].basic, count * t->sig[0].n);
    else
        for (MPI_Count j = 0; j < count && !b->err; j++)
            for (int k = 0; k < t->nsig; k++)
                push_sig(b, t->sig[k].basic, t->sig[k].n);
    if (t->nblocks == 1 && t->blocks[0].length == t->extent) {
        /* The copies touch: one block. */
        push(b, disp + t->blocks[0].offset, count * t->extent);
        return;
    }
    for (MPI_Count j = 0; j < count && !b->err; j++)
        for (int k = 0; k < t->nblocks; k++)
            push(b, disp + j * t->extent + t->blocks[k].offset, t->blocks[k].length);
}

/* The distance between blocks when they are all alike and evenly spaced (forward), else 0. */
static MPI_Aint regular_stride(const mica_block_t *blocks, size_t n)
{
    if (n < 2 || blocks[1].offset <= blocks[0].offset)
        return 0;
    MPI_Aint stride = blocks[1].offset - blocks[0].offset;
    for (size_t i = 1; i < n; i++)
        if (blocks[i].length != blocks[0].length ||
            blocks[i].offset - blocks[i - 1].offset != stride)
            return 0;
    return stride;
}

/* The builder's result as a new type object. `pad`: round the extent up to the alignment (struct);
 * `forced`: the bounds are markers at [lb, ub) (subarray). */
static mica_type_t *finish(build_t *b, int pad, const MPI_Aint *forced)
{
    mica_type_t *t = NULL;
    if (!b->err && !(t = mica_obj_new(MICA_TYPE, sizeof *t)))
        b->err = mica_error(MPI_ERR_NO_MEM, "no memory for a new datatype");
    if (b->err) {
        free(b->blocks);
        free(b->sig);
        return NULL;
    }
    MPI_Aint lb = b->sticky_lb ? b->slb : b->have ? b->lb : 0;
    MPI_Aint ub = b->sticky_ub ? b->sub : b->have ? b->ub : 0;
    t->explicit_lb = b->sticky_lb;
    t->explicit_ub = b->sticky_ub;
    if (forced) {
        lb = forced[0], ub = forced[1];
        t->explicit_lb = t->explicit_ub = 1;
    }
    t->align = b->align ? b->align : 1;
    if (pad && !t->explicit_ub && ub > lb && (ub - lb) % t->align)
        ub += t->align - (ub - lb) % t->align;
    t->lb = lb;
    t->extent = ub - lb;
    t->size = b->size;
    t->basic = b->mixed || !b->size ? NULL : b->basic;
    t->nbasic = t->basic ? b->nbasic : 0;
    t->nsig = (int)b->nsig;
    t->sig = b->sig;
    if (b->nsig && (b->sig = realloc(b->sig, b->nsig * sizeof *b->sig)))
        t->sig = b->sig;              /* shrunk to fit; the bigger block stays if that fails */
    t->nelem = b->nelem;
    /* One allocation: the blocks, then their offsets in the packed form. */
    size_t n = b->n;
    t->nblocks = (int)n;
    if (n) {
        size_t bytes = n * sizeof(mica_block_t) + (n > SCAN_BLOCKS ? n * sizeof(MPI_Aint) : 0);
        mica_block_t *blocks = realloc(b->blocks, bytes);
        if (!blocks) {
            free(b->blocks);
            free(t->sig);
            mica_obj_free(t);
            b->err = mica_error(MPI_ERR_NO_MEM, "no memory for the blocks of the datatype");
            return NULL;
        }
        t->blocks = blocks;
        if (n > SCAN_BLOCKS) {
            t->packoff = (MPI_Aint *)(blocks + n);
            MPI_Aint at = 0;
            for (size_t i = 0; i < n; i++) {
                t->packoff[i] = at;
                at += blocks[i].length;
            }
        }
        MPI_Aint tlo = blocks[0].offset, thi = blocks[0].offset + blocks[0].length;
        for (size_t i = 1; i < n; i++) {
            if (blocks[i].offset < tlo)
                tlo = blocks[i].offset;
            if (blocks[i].offset + blocks[i].length > thi)
                thi = blocks[i].offset + blocks[i].length;
        }
        t->true_lb = tlo;
        t->true_extent = thi - tlo;
        t->stride = regular_stride(blocks, n);
    } else {
        free(b->blocks);
    }
    t->contiguous = n == 1 && t->blocks[0].offset == t->lb && t->blocks[0].length == t->extent;
    return t;
}

/* The arguments of a constructor, kept for MPI_Type_get_contents. */
static struct mica_type_contents *contents_new(int large, MPI_Count ni, MPI_Count na, MPI_Count nc,
                                               MPI_Count nd)
{
    struct mica_type_contents *c;
    size_t bytes = sizeof *c + nc * sizeof(MPI_Count) + na * sizeof(MPI_Aint) +
                   nd * sizeof(mica_type_t *) + ni * sizeof(int);
    if (!(c = malloc(bytes)))
        return NULL;
    *c = (struct mica_type_contents){.large = large, .ni = ni, .na = na, .nc = nc, .nd = nd};
    c->counts = (MPI_Count *)(c + 1);
    c->aints = (MPI_Aint *)(c->counts + nc);
    c->types = (mica_type_t **)(c->aints + na);
    c->ints = (int *)(c->types + nd);
    return c;
}

void mica_type_retain(mica_type_t *type)
{
    if (!mica_type_is_predefined(type))
        __atomic_add_fetch(&type->obj.refs, 1, __ATOMIC_RELAXED);
}

void mica_type_release(mica_type_t *type)
{
    if (mica_type_is_predefined(type) ||
        __atomic_sub_fetch(&type->obj.refs, 1, __ATOMIC_ACQ_REL))
        return;
    struct mica_type_contents *c = type->contents;
    if (c) {
        for (MPI_Count i = 0; i < c->nd; i++)
            mica_type_release(c->types[i]);
        free(c);
    }
    free(type->blocks);
    free(type->sig);
    mica_obj_free(type);
}

/* Hand the new type to the user, recording how it was made; or clean up after a failure. */
static int deliver(mica_type_t *t, int combiner, struct mica_type_contents *c, int err,
                   MPI_Datatype *newtype)
{
    if (!err && !c)
        err = mica_error(MPI_ERR_NO_MEM, "no memory for a new datatype");
    if (err) {
        if (t)
            mica_type_release(t);
        free(c);
        return err;
    }
    for (MPI_Count i = 0; i < c->nd; i++)
        mica_type_retain(c->types[i]);
    t->combiner = combiner;
    t->contents = c;
    *newtype = (MPI_Datatype)t->obj.handle;
    return MPI_SUCCESS;
}

static int build(build_t *b, int pad, const MPI_Aint *forced, int combiner,
                 struct mica_type_contents *c, MPI_Datatype *newtype)
{
    mica_type_t *t = finish(b, pad, forced);
    return deliver(t, combiner, c, t ? MPI_SUCCESS : b->err, newtype);
}

/* Arguments that are int in one form and MPI_Count in the other are kept as MPI_Count here. */
static MPI_Count *widen(const int *a, MPI_Count n)
{
    MPI_Count *w = malloc((n > 0 ? n : 1) * sizeof *w);
    for (MPI_Count i = 0; w && i < n; i++)
        w[i] = a[i];
    return w;
}

#define WIDE(name, from, n)                                                                 \
    MPI_Count *name = widen(from, n);                                                       \
    if (!name)                                                                              \
        return mica_error(MPI_ERR_NO_MEM, "no memory for the arguments")
#define UNWIDE(name) free(name)

static int negative(const MPI_Count *a, MPI_Count n, const char *what)
{
    for (MPI_Count i = 0; a && i < n; i++)
        if (a[i] < 0)
            return mica_error(MPI_ERR_ARG, "%s[%lld]=%lld is negative", what, (long long)i,
                              (long long)a[i]);
    return MPI_SUCCESS;
}

static int null_array(const void *a, MPI_Count count, const char *what)
{
    return !a && count > 0 ? mica_error(MPI_ERR_ARG, "%s is NULL", what) : MPI_SUCCESS;
}

/* ---- contiguous, vector, hvector ---------------------------------------------------------- */

static int contiguous(MPI_Count count, mica_type_t *old, MPI_Datatype *newtype, int large)
{
    build_t b = {0};
    add(&b, old, count, 0);
    struct mica_type_contents *c = contents_new(large, !large, 0, large, 1);
    if (c) {
        if (large)
            c->counts[0] = count;
        else
            c->ints[0] = (int)count;
        c->types[0] = old;
    }
    mica_type_t *t = finish(&b, 0, NULL);
    return deliver(t, MPI_COMBINER_CONTIGUOUS, c, t ? 0 : b.err, newtype);
}

int mica_type_contiguous_c(MPI_Count count, mica_type_t *oldtype, MPI_Datatype *newtype)
{
    return contiguous(count, oldtype, newtype, 1);
}

int mica_type_contiguous(int count, mica_type_t *oldtype, MPI_Datatype *newtype)
{
    return contiguous(count, oldtype, newtype, 0);
}

static int vector(MPI_Count count, MPI_Count blocklength, MPI_Count stride, int bytes,
                  mica_type_t *old, MPI_Datatype *newtype, int large)
{
    build_t b = {0};
    MPI_Aint step = stride;
    if (!bytes && __builtin_mul_overflow(stride, old->extent, &step))
        return mica_error(MPI_ERR_ARG, "stride=%lld times the extent overflows", (long long)stride);
    for (MPI_Count i = 0; i < count && !b.err; i++)
        add(&b, old, blocklength, i * step);
    struct mica_type_contents *c;
    if (large) {
        if ((c = contents_new(1, 0, 0, 3, 1)))
            c->counts[0] = count, c->counts[1] = blocklength, c->counts[2] = stride;
    } else if ((c = contents_new(0, bytes ? 2 : 3, bytes, 0, 1))) {
        c->ints[0] = (int)count, c->ints[1] = (int)blocklength;
        if (bytes)
            c->aints[0] = stride;
        else
            c->ints[2] = (int)stride;
    }
    if (c)
        c->types[0] = old;
    return build(&b, 0, NULL, bytes ? MPI_COMBINER_HVECTOR : MPI_COMBINER_VECTOR, c, newtype);
}

int mica_type_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                       mica_type_t *oldtype, MPI_Datatype *newtype)
{
    return vector(count, blocklength, stride, 0, oldtype, newtype, 1);
}

int mica_type_vector(int count, int blocklength, int stride, mica_type_t *oldtype,
                     MPI_Datatype *newtype)
{
    return vector(count, blocklength, stride, 0, oldtype, newtype, 0);
}

int mica_type_create_hvector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                               mica_type_t *oldtype, MPI_Datatype *newtype)
{
    return vector(count, blocklength, stride, 1, oldtype, newtype, 1);
}

int mica_type_create_hvector(int count, int blocklength, MPI_Aint stride, mica_type_t *oldtype,
                             MPI_Datatype *newtype)
{
    return vector(count, blocklength, stride, 1, oldtype, newtype, 0);
}

/* ---- indexed, hindexed, indexed_block, hindexed_block, struct ---------------------------- */

/* The general constructor: block i is lengths[i] (or `length`) copies of types[i] (or `old`) at
 * displs[i] elements of old (or bytes). */
static int indexed(int combiner, MPI_Count count, const MPI_Count *lengths, MPI_Count length,
                   const MPI_Count *displs, int bytes, mica_type_t *old,
                   const MPI_Datatype *types, MPI_Datatype *newtype, int large)
{
    int rc;
    int is_struct = combiner == MPI_COMBINER_STRUCT;
    int block = combiner == MPI_COMBINER_INDEXED_BLOCK || combiner == MPI_COMBINER_HINDEXED_BLOCK;
    if ((!block && (rc = null_array(lengths, count, "array_of_blocklengths"))) ||
        (rc = null_array(displs, count, "array_of_displacements")) ||
        (is_struct && (rc = null_array(types, count, "array_of_types"))) ||
        (rc = negative(lengths, count, "array_of_blocklengths")))
        return rc;
    build_t b = {0};
    mica_type_t *t = old;
    for (MPI_Count i = 0; i < count && !b.err; i++) {
        if (is_struct && !(t = mica_type_lookup(types[i]))) {
            free(b.blocks), free(b.sig);
            return mica_bad_handle(MICA_TYPE, types[i], "array_of_types[i]");
        }
        MPI_Aint d = displs[i];
        if (!bytes && __builtin_mul_overflow(displs[i], t->extent, &d)) {
            free(b.blocks), free(b.sig);
            return mica_error(MPI_ERR_ARG, "array_of_displacements[%lld] times the extent overflows",
                              (long long)i);
        }
        add(&b, t, block ? length : lengths[i], d);
    }
    /* The recorded arguments, as the standard's table for MPI_Type_get_contents lists them. */
    MPI_Count nlen = block ? 1 : count, nd = is_struct ? count : 1;
    struct mica_type_contents *c;
    if (large)
        c = contents_new(1, 0, 0, 1 + nlen + count, nd);
    else
        c = contents_new(0, 1 + nlen + (bytes ? 0 : count), bytes ? count : 0, 0, nd);
    if (c) {
        for (MPI_Count i = 0; i < 1 + nlen + count; i++) {
            MPI_Count v = i == 0 ? count : i <= nlen ? (block ? length : lengths[i - 1])
                                                     : displs[i - 1 - nlen];
            if (large)
                c->counts[i] = v;
            else if (i <= nlen || !bytes)
                c->ints[i] = (int)v;
            else
                c->aints[i - 1 - nlen] = v;
        }
        for (MPI_Count i = 0; i < nd; i++)
            c->types[i] = is_struct ? mica_type_lookup(types[i]) : old;
    }
    return build(&b, is_struct, NULL, combiner, c, newtype);
}

int mica_type_indexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                        const MPI_Count array_of_displacements[], mica_type_t *oldtype,
                        MPI_Datatype *newtype)
{
    return indexed(MPI_COMBINER_INDEXED, count, array_of_blocklengths, 0, array_of_displacements,
                   0, oldtype, NULL, newtype, 1);
}

int mica_type_indexed(int count, const int array_of_blocklengths[],
                      const int array_of_displacements[], mica_type_t *oldtype,
                      MPI_Datatype *newtype)
{
    int rc;
    if ((rc = null_array(array_of_blocklengths, count, "array_of_blocklengths")) ||
        (rc = null_array(array_of_displacements, count, "array_of_displacements")))
        return rc;
    WIDE(lengths, array_of_blocklengths, count);
    MPI_Count *displs = widen(array_of_displacements, count);
    if (!displs)
        rc = mica_error(MPI_ERR_NO_MEM, "no memory for the arguments");
    else
        rc = indexed(MPI_COMBINER_INDEXED, count, lengths, 0, displs, 0, oldtype, NULL, newtype, 0);
    free(displs);
    UNWIDE(lengths);
    return rc;
}

int mica_type_create_hindexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                                const MPI_Count array_of_displacements[], mica_type_t *oldtype,
                                MPI_Datatype *newtype)
{
    return indexed(MPI_COMBINER_HINDEXED, count, array_of_blocklengths, 0, array_of_displacements,
                   1, oldtype, NULL, newtype, 1);
}

int mica_type_create_hindexed(int count, const int array_of_blocklengths[],
                              const MPI_Aint array_of_displacements[], mica_type_t *oldtype,
                              MPI_Datatype *newtype)
{
    int rc = null_array(array_of_blocklengths, count, "array_of_blocklengths");
    if (rc)
        return rc;
    WIDE(lengths, array_of_blocklengths, count);
    rc = indexed(MPI_COMBINER_HINDEXED, count, lengths, 0, (const MPI_Count *)array_of_displacements,
                 1, oldtype, NULL, newtype, 0);
    UNWIDE(lengths);
    return rc;
}

int mica_type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength,
                                     const MPI_Count array_of_displacements[],
                                     mica_type_t *oldtype, MPI_Datatype *newtype)
{
    return indexed(MPI_COMBINER_INDEXED_BLOCK, count, NULL, blocklength, array_of_displacements, 0,
                   oldtype, NULL, newtype, 1);
}

int mica_type_create_indexed_block(int count, int blocklength, const int array_of_displacements[],
                                   mica_type_t *oldtype, MPI_Datatype *newtype)
{
    int rc = null_array(array_of_displacements, count, "array_of_displacements");
    if (rc)
        return rc;
    WIDE(displs, array_of_displacements, count);
    rc = indexed(MPI_COMBINER_INDEXED_BLOCK, count, NULL, blocklength, displs, 0, oldtype, NULL,
                 newtype, 0);
    UNWIDE(displs);
    return rc;
}

int mica_type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength,
                                      const MPI_Count array_of_displacements[],
                                      mica_type_t *oldtype, MPI_Datatype *newtype)
{
    return indexed(MPI_COMBINER_HINDEXED_BLOCK, count, NULL, blocklength, array_of_displacements,
                   1, oldtype, NULL, newtype, 1);
}

int mica_type_create_hindexed_block(int count, int blocklength,
                                    const MPI_Aint array_of_displacements[], mica_type_t *oldtype,
                                    MPI_Datatype *newtype)
{
    return indexed(MPI_COMBINER_HINDEXED_BLOCK, count, NULL, blocklength,
                   (const MPI_Count *)array_of_displacements, 1, oldtype, NULL, newtype, 0);
}

int mica_type_create_struct_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                              const MPI_Count array_of_displacements[],
                              const MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    return indexed(MPI_COMBINER_STRUCT, count, array_of_blocklengths, 0, array_of_displacements, 1,
                   NULL, array_of_types, newtype, 1);
}

int mica_type_create_struct(int count, const int array_of_blocklengths[],
                            const MPI_Aint array_of_displacements[],
                            const MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    int rc = null_array(array_of_blocklengths, count, "array_of_blocklengths");
    if (rc)
        return rc;
    WIDE(lengths, array_of_blocklengths, count);
    rc = indexed(MPI_COMBINER_STRUCT, count, lengths, 0, (const MPI_Count *)array_of_displacements,
                 1, NULL, array_of_types, newtype, 0);
    UNWIDE(lengths);
    return rc;
}

/* ---- subarray ---------------------------------------------------------------------------- */

static int subarray(int ndims, const MPI_Count *sizes, const MPI_Count *subsizes,
                    const MPI_Count *starts, int order, mica_type_t *old, MPI_Datatype *newtype,
                    int large)
{
    if (ndims <= 0)
        return mica_error(MPI_ERR_ARG, "ndims=%d is not positive", ndims);
    if (!sizes || !subsizes || !starts)
        return mica_error(MPI_ERR_ARG, "%s is NULL", !sizes ? "array_of_sizes" :
                          !subsizes ? "array_of_subsizes" : "array_of_starts");
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
        return mica_error(MPI_ERR_ARG, "order=%d is neither MPI_ORDER_C nor MPI_ORDER_FORTRAN",
                          order);
    for (int d = 0; d < ndims; d++) {
        if (sizes[d] <= 0)
            return mica_error(MPI_ERR_ARG, "array_of_sizes[%d]=%lld is not positive", d,
                              (long long)sizes[d]);
        if (subsizes[d] <= 0 || subsizes[d] > sizes[d])
            return mica_error(MPI_ERR_ARG, "array_of_subsizes[%d]=%lld is not in 1..%lld", d,
                              (long long)subsizes[d], (long long)sizes[d]);
        if (starts[d] < 0 || starts[d] > sizes[d] - subsizes[d])
            return mica_error(MPI_ERR_ARG, "array_of_starts[%d]=%lld is not in 0..%lld", d,
                              (long long)starts[d], (long long)(sizes[d] - subsizes[d]));
    }
    /* Dimension k in fastest-first order is dims[k]; stride[k] is its step in bytes. */
    int dims[ndims];
    MPI_Aint stride[ndims], base = 0, total;
    int overflow = 0;
    for (int k = 0; k < ndims; k++) {
        dims[k] = order == MPI_ORDER_C ? ndims - 1 - k : k;
        overflow |= __builtin_mul_overflow(k ? stride[k - 1] : old->extent,
                                           k ? sizes[dims[k - 1]] : 1, &stride[k]);
    }
    overflow |= __builtin_mul_overflow(stride[ndims - 1], sizes[dims[ndims - 1]], &total);
    if (overflow)
        return mica_error(MPI_ERR_ARG, "the array spans more bytes than MPI_Aint holds");
    for (int k = 0; k < ndims; k++)
        base += starts[dims[k]] * stride[k];
    /* One row of the fastest dimension at each index of the others, in order. */
    build_t b = {0};
    MPI_Count idx[ndims];
    memset(idx, 0, sizeof idx);
    for (;;) {
        MPI_Aint d = base;
        for (int k = 1; k < ndims; k++)
            d += idx[k] * stride[k];
        add(&b, old, subsizes[dims[0]], d);
        int k = 1;
        while (k < ndims && ++idx[k] == subsizes[dims[k]])
            idx[k++] = 0;
        if (k == ndims || b.err)
            break;
    }
    struct mica_type_contents *c = contents_new(large, large ? 2 : 3 * ndims + 2, 0,
                                                large ? 3 * ndims : 0, 1);
    if (c) {
        c->ints[0] = ndims;
        c->ints[large ? 1 : 3 * ndims + 1] = order;
        for (int d = 0; d < ndims; d++)
            for (int j = 0; j < 3; j++) {
                MPI_Count v = (j == 0 ? sizes : j == 1 ? subsizes : starts)[d];
                if (large)
                    c->counts[j * ndims + d] = v;
                else
                    c->ints[1 + j * ndims + d] = (int)v;
            }
        c->types[0] = old;
    }
    MPI_Aint bounds[2] = {0, total};
    return build(&b, 0, bounds, MPI_COMBINER_SUBARRAY, c, newtype);
}

int mica_type_create_subarray_c(int ndims, const MPI_Count array_of_sizes[],
                                const MPI_Count array_of_subsizes[],
                                const MPI_Count array_of_starts[], int order,
                                mica_type_t *oldtype, MPI_Datatype *newtype)
{
    return subarray(ndims, array_of_sizes, array_of_subsizes, array_of_starts, order, oldtype,
                    newtype, 1);
}

int mica_type_create_subarray(int ndims, const int array_of_sizes[],
                              const int array_of_subsizes[], const int array_of_starts[],
                              int order, mica_type_t *oldtype, MPI_Datatype *newtype)
{
    if (ndims <= 0)
        return mica_error(MPI_ERR_ARG, "ndims=%d is not positive", ndims);
    if (!array_of_sizes || !array_of_subsizes || !array_of_starts)
        return subarray(ndims, NULL, NULL, NULL, order, oldtype, newtype, 0);
    MPI_Count *w = malloc(3 * ndims * sizeof *w);
    if (!w)
        return mica_error(MPI_ERR_NO_MEM, "no memory for the arguments");
    for (int d = 0; d < ndims; d++) {
        w[d] = array_of_sizes[d];
        w[ndims + d] = array_of_subsizes[d];
        w[2 * ndims + d] = array_of_starts[d];
    }
    int rc = subarray(ndims, w, w + ndims, w + 2 * ndims, order, oldtype, newtype, 0);
    free(w);
    return rc;
}

/* ---- darray ------------------------------------------------------------------------------ */

/* The global indices of dimension `d` that process coordinate `c` of `p` holds, as runs
 * [start, start + len): blocks of `k` dealt round-robin (block distribution is one round of
 * blocks of ceil(gsize / p); none, one block of everything). */
typedef struct { MPI_Count start, len; } run_t;

static MPI_Count darray_runs(MPI_Count gsize, int distrib, int darg, int p, int c, run_t *runs)
{
    MPI_Count k = distrib == MPI_DISTRIBUTE_NONE ? gsize
                : distrib == MPI_DISTRIBUTE_BLOCK && darg == MPI_DISTRIBUTE_DFLT_DARG
                    ? (gsize + p - 1) / p
                : darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
    MPI_Count n = 0;
    for (MPI_Count start = (MPI_Count)c * k; start < gsize; start += (MPI_Count)p * k) {
        if (runs)
            runs[n] = (run_t){start, gsize - start < k ? gsize - start : k};
        n++;
    }
    return n;
}

static int darray(int size, int rank, int ndims, const MPI_Count *gsizes, const int *distribs,
                  const int *dargs, const int *psizes, int order, mica_type_t *old,
                  MPI_Datatype *newtype, int large)
{
    if (size <= 0)
        return mica_error(MPI_ERR_ARG, "size=%d is not positive", size);
    if (rank < 0 || rank >= size)
        return mica_error(MPI_ERR_ARG, "rank=%d is not in 0..%d", rank, size - 1);
    if (ndims <= 0)
        return mica_error(MPI_ERR_ARG, "ndims=%d is not positive", ndims);
    if (!gsizes || !distribs || !dargs || !psizes)
        return mica_error(MPI_ERR_ARG, "%s is NULL", !gsizes ? "array_of_gsizes" :
                          !distribs ? "array_of_distribs" : !dargs ? "array_of_dargs" :
                          "array_of_psizes");
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
        return mica_error(MPI_ERR_ARG, "order=%d is neither MPI_ORDER_C nor MPI_ORDER_FORTRAN",
                          order);
    long long procs = 1;
    for (int d = 0; d < ndims; d++) {
        if (gsizes[d] <= 0)
            return mica_error(MPI_ERR_ARG, "array_of_gsizes[%d]=%lld is not positive", d,
                              (long long)gsizes[d]);
        if (psizes[d] <= 0)
            return mica_error(MPI_ERR_ARG, "array_of_psizes[%d]=%d is not positive", d, psizes[d]);
        if (procs <= size)
            procs *= psizes[d];
        int dist = distribs[d], darg = dargs[d];
        if (dist != MPI_DISTRIBUTE_BLOCK && dist != MPI_DISTRIBUTE_CYCLIC &&
            dist != MPI_DISTRIBUTE_NONE)
            return mica_error(MPI_ERR_ARG, "array_of_distribs[%d]=%d is not MPI_DISTRIBUTE_BLOCK, "
                              "_CYCLIC or _NONE", d, dist);
        if (dist == MPI_DISTRIBUTE_NONE && psizes[d] != 1)
            return mica_error(MPI_ERR_ARG, "array_of_psizes[%d]=%d: a dimension of "
                              "MPI_DISTRIBUTE_NONE is not spread over processes (1)", d, psizes[d]);
        if (dist != MPI_DISTRIBUTE_NONE && darg != MPI_DISTRIBUTE_DFLT_DARG && darg <= 0)
            return mica_error(MPI_ERR_ARG, "array_of_dargs[%d]=%d is neither positive nor "
                              "MPI_DISTRIBUTE_DFLT_DARG", d, darg);
        if (dist == MPI_DISTRIBUTE_BLOCK && darg != MPI_DISTRIBUTE_DFLT_DARG &&
            (long long)darg * psizes[d] < gsizes[d])
            return mica_error(MPI_ERR_ARG, "array_of_dargs[%d]=%d: %d blocks of it do not cover "
                              "array_of_gsizes[%d]=%lld", d, darg, psizes[d], d,
                              (long long)gsizes[d]);
    }
    if (procs != size)
        return mica_error(MPI_ERR_ARG, "the product of array_of_psizes is not size=%d", size);
    /* The process grid is row-major whatever the order; the array's dimension k in
     * fastest-first order is dims[k], its step stride[k] bytes. */
    int coords[ndims], dims[ndims];
    MPI_Aint stride[ndims], total;
    for (int d = ndims - 1, r = rank; d >= 0; d--) {
        coords[d] = r % psizes[d];
        r /= psizes[d];
    }
    int overflow = 0;
    for (int k = 0; k < ndims; k++) {
        dims[k] = order == MPI_ORDER_C ? ndims - 1 - k : k;
        overflow |= __builtin_mul_overflow(k ? stride[k - 1] : old->extent,
                                           k ? gsizes[dims[k - 1]] : 1, &stride[k]);
    }
    overflow |= __builtin_mul_overflow(stride[ndims - 1], gsizes[dims[ndims - 1]], &total);
    if (overflow)
        return mica_error(MPI_ERR_ARG, "the array spans more bytes than MPI_Aint holds");
    /* This process's runs in each dimension; then every combination, in the array's order. */
    run_t *runs[ndims];
    MPI_Count nruns[ndims];
    int err = MPI_SUCCESS;
    for (int k = 0; k < ndims; k++) {
        int d = dims[k];
        nruns[k] = darray_runs(gsizes[d], distribs[d], dargs[d], psizes[d], coords[d], NULL);
        runs[k] = malloc((nruns[k] ? nruns[k] : 1) * sizeof(run_t));
        if (!runs[k] && !err)
            err = mica_error(MPI_ERR_NO_MEM, "no memory for a distributed array");
        else if (runs[k])
            darray_runs(gsizes[d], distribs[d], dargs[d], psizes[d], coords[d], runs[k]);
    }
    build_t b = {0};
    int empty = 0;
    for (int k = 0; k < ndims; k++)
        empty |= nruns[k] == 0;
    /* Each index of the slower dimensions (run_of[k], within[k]: which run, how far in it),
     * slowest last, with every run of the fastest dimension at it. */
    MPI_Count run_of[ndims], within[ndims];
    memset(run_of, 0, sizeof run_of);
    memset(within, 0, sizeof within);
    while (!err && !empty && !b.err) {
        MPI_Aint disp = 0;
        for (int k = 1; k < ndims; k++)
            disp += (runs[k][run_of[k]].start + within[k]) * stride[k];
        for (MPI_Count r = 0; r < nruns[0]; r++)
            add(&b, old, runs[0][r].len, disp + runs[0][r].start * stride[0]);
        int k = 1;
        for (; k < ndims; k++) {      /* the next index of the slower dimensions */
            if (++within[k] < runs[k][run_of[k]].len)
                break;
            within[k] = 0;
            if (++run_of[k] < nruns[k])
                break;
            run_of[k] = 0;
        }
        if (k == ndims)
            break;
    }
    for (int k = 0; k < ndims; k++)
        free(runs[k]);
    if (err) {
        free(b.blocks), free(b.sig);
        return err;
    }
    /* The arguments, as MPI_Type_get_contents lists them. */
    struct mica_type_contents *c = contents_new(large, large ? 3 * ndims + 4 : 4 * ndims + 4, 0,
                                                large ? ndims : 0, 1);
    if (c) {
        int *in = c->ints;
        *in++ = size, *in++ = rank, *in++ = ndims;
        for (int d = 0; d < ndims; d++) {
            if (large)
                c->counts[d] = gsizes[d];
            else
                in[d] = (int)gsizes[d];
        }
        in += large ? 0 : ndims;
        for (int d = 0; d < ndims; d++)
            in[d] = distribs[d], in[ndims + d] = dargs[d], in[2 * ndims + d] = psizes[d];
        in[3 * ndims] = order;
        c->types[0] = old;
    }
    MPI_Aint bounds[2] = {0, total};
    return build(&b, 0, bounds, MPI_COMBINER_DARRAY, c, newtype);
}

int mica_type_create_darray_c(int size, int rank, int ndims, const MPI_Count array_of_gsizes[],
                              const int array_of_distribs[], const int array_of_dargs[],
                              const int array_of_psizes[], int order, mica_type_t *oldtype,
                              MPI_Datatype *newtype)
{
    return darray(size, rank, ndims, array_of_gsizes, array_of_distribs, array_of_dargs,
                  array_of_psizes, order, oldtype, newtype, 1);
}

int mica_type_create_darray(int size, int rank, int ndims, const int array_of_gsizes[],
                            const int array_of_distribs[], const int array_of_dargs[],
                            const int array_of_psizes[], int order, mica_type_t *oldtype,
                            MPI_Datatype *newtype)
{
    if (ndims <= 0 || !array_of_gsizes)
        return darray(size, rank, ndims, NULL, array_of_distribs, array_of_dargs,
                      array_of_psizes, order, oldtype, newtype, 0);
    WIDE(gsizes, array_of_gsizes, ndims);
    int rc = darray(size, rank, ndims, gsizes, array_of_distribs, array_of_dargs,
                    array_of_psizes, order, oldtype, newtype, 0);
    UNWIDE(gsizes);
    return rc;
}

/* ---- resized, dup ------------------------------------------------------------------------ */

/* A new type with the layout of `old`. */
static mica_type_t *clone(const mica_type_t *old, int *err)
{
    mica_type_t *t = mica_obj_new(MICA_TYPE, sizeof *t);
    if (!t) {
        *err = mica_error(MPI_ERR_NO_MEM, "no memory for a new datatype");
        return NULL;
    }
    t->size = old->size;
    t->lb = old->lb, t->extent = old->extent;
    t->true_lb = old->true_lb, t->true_extent = old->true_extent;
    t->contiguous = old->contiguous;
    t->basic = old->basic, t->nbasic = old->nbasic;
    t->align = old->align;
    t->explicit_lb = old->explicit_lb, t->explicit_ub = old->explicit_ub;
    t->nelem = old->nelem;
    if (old->nsig) {
        if (!(t->sig = malloc(old->nsig * sizeof *t->sig))) {
            mica_obj_free(t);
            *err = mica_error(MPI_ERR_NO_MEM, "no memory for a new datatype");
            return NULL;
        }
        memcpy(t->sig, old->sig, old->nsig * sizeof *t->sig);
        t->nsig = old->nsig;
    }
    t->nblocks = old->nblocks;
    if (old->nblocks) {
        size_t n = old->nblocks;
        size_t bytes = n * sizeof(mica_block_t) + (n > SCAN_BLOCKS ? n * sizeof(MPI_Aint) : 0);
        if (!(t->blocks = malloc(bytes))) {
            free(t->sig);
            mica_obj_free(t);
            *err = mica_error(MPI_ERR_NO_MEM, "no memory for a new datatype");
            return NULL;
        }
        memcpy(t->blocks, old->blocks, n * sizeof(mica_block_t));
        t->stride = old->stride;
        if (n > SCAN_BLOCKS) {
            t->packoff = (MPI_Aint *)(t->blocks + n);
            MPI_Aint at = 0;
            for (size_t i = 0; i < n; i++) {
                t->packoff[i] = at;
                at += t->blocks[i].length;
            }
        }
    }
    return t;
}

static int resized(mica_type_t *old, MPI_Count lb, MPI_Count extent, MPI_Datatype *newtype,
                   int large)
{
    int err = MPI_SUCCESS;
    mica_type_t *t = clone(old, &err);
    if (t) {
        t->lb = lb;
        t->extent = extent;
        t->explicit_lb = t->explicit_ub = 1;
        t->contiguous = t->nblocks == 1 && t->blocks[0].offset == lb &&
                        t->blocks[0].length == extent;
    }
    struct mica_type_contents *c = contents_new(large, 0, large ? 0 : 2, large ? 2 : 0, 1);
    if (c) {
        if (large)
            c->counts[0] = lb, c->counts[1] = extent;
        else
            c->aints[0] = lb, c->aints[1] = extent;
        c->types[0] = old;
    }
    return deliver(t, MPI_COMBINER_RESIZED, c, err, newtype);
}

int mica_type_create_resized_c(mica_type_t *oldtype, MPI_Count lb, MPI_Count extent,
                               MPI_Datatype *newtype)
{
    return resized(oldtype, lb, extent, newtype, 1);
}

int mica_type_create_resized(mica_type_t *oldtype, MPI_Aint lb, MPI_Aint extent,
                             MPI_Datatype *newtype)
{
    return resized(oldtype, lb, extent, newtype, 0);
}

int mica_type_dup(mica_type_t *oldtype, MPI_Datatype *newtype)
{
    int err = MPI_SUCCESS;
    mica_type_t *t = clone(oldtype, &err);
    if (t)
        t->committed = oldtype->committed;
    struct mica_type_contents *c = contents_new(0, 0, 0, 0, 1);
    if (c)
        c->types[0] = oldtype;
    err = deliver(t, MPI_COMBINER_DUP, c, err, newtype);
    if (err != MPI_SUCCESS)
        return err;
    /* The duplicate carries the attributes that their copy callbacks copy. */
    err = mica_attr_copy_all(oldtype->obj.handle, &oldtype->attrs, t->obj.handle, &t->attrs);
    if (err != MPI_SUCCESS) {
        mica_type_release(t);
        *newtype = MPI_DATATYPE_NULL;
    }
    return err;
}

/* ---- MPI_Type_create_f90_* ---------------------------------------------------------------- */

/* The type for a Fortran kind asked for by precision and range (type_info.c chooses `basic`):
 * a copy of it that says how it was asked for (combiner MPI_COMBINER_F90_*, p and r), made once
 * per (combiner, p, r) and kept for the run. The standard counts these as predefined: the same
 * handle every time, and MPI_Type_free refuses them. Under the big lock, as every core call. */
int mica_type_f90(int combiner, int p, int r, mica_type_t *basic, MPI_Datatype *newtype)
{
    /* `parts`: the type's own allocations, referenced from here too because the object arena
     * (object.c) is no memory LeakSanitizer looks through, and these are never freed. */
    static struct { int combiner, p, r; MPI_Datatype type; void *parts[3]; } made[64];
    static int nmade;
    for (int i = 0; i < nmade; i++)
        if (made[i].combiner == combiner && made[i].p == p && made[i].r == r) {
            *newtype = made[i].type;
            return MPI_SUCCESS;
        }
    if (nmade == (int)(sizeof made / sizeof *made))
        return mica_error(MPI_ERR_INTERN, "more than %d distinct MPI_Type_create_f90_* types",
                          nmade);
    int err = MPI_SUCCESS;
    mica_type_t *t = clone(basic, &err);
    int ints = combiner == MPI_COMBINER_F90_INTEGER ? 1 : 2;
    struct mica_type_contents *c = contents_new(0, ints, 0, 0, 0);
    if (c) {
        c->ints[0] = ints == 1 ? r : p;
        if (ints == 2)
            c->ints[1] = r;
    }
    err = deliver(t, combiner, c, err, newtype);
    if (err != MPI_SUCCESS)
        return err;
    t->committed = 1;
    snprintf(t->name, sizeof t->name, "%s", basic->name);
    made[nmade].combiner = combiner, made[nmade].p = p, made[nmade].r = r;
    made[nmade].parts[0] = t->contents, made[nmade].parts[1] = t->blocks;
    made[nmade].parts[2] = t->sig;
    made[nmade++].type = *newtype;
    return MPI_SUCCESS;
}

/* ---- commit, free ------------------------------------------------------------------------ */

int mica_type_commit(MPI_Datatype *datatype)
{
    mica_type_lookup(*datatype)->committed = 1;
    return MPI_SUCCESS;
}

int mica_type_free(MPI_Datatype *datatype)
{
    mica_type_t *t = mica_type_lookup(*datatype);
    if (mica_type_is_predefined(t))
        return mica_error(MPI_ERR_TYPE, "datatype %s is predefined and cannot be freed", t->name);
    if (t->combiner == MPI_COMBINER_F90_INTEGER || t->combiner == MPI_COMBINER_F90_REAL ||
        t->combiner == MPI_COMBINER_F90_COMPLEX)
        return mica_error(MPI_ERR_TYPE, "datatype %s comes from MPI_Type_create_f90_*: it is "
                          "predefined and cannot be freed", t->name);
    /* The delete callbacks run now, on the handle being freed, and any of them can refuse;
     * operations still using the type keep it alive without its attributes. */
    int rc = mica_attr_delete_all(t->obj.handle, &t->attrs);
    if (rc != MPI_SUCCESS)
        return rc;
    mica_type_release(t);
    *datatype = MPI_DATATYPE_NULL;
    return MPI_SUCCESS;
}
