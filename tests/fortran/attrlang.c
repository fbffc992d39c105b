/* For test_attr_interlang.sh: the C half of attrlang.f90 and attrlang08.f90, which call these
 * through BIND(C) interfaces with Fortran handles. Each check returns its count of failures
 * and says what failed, with the case number the Fortran program gives. */
#include <stdio.h>
#include <mpi.h>

enum { COMM, TYPE, WIN };

static int get(int kind, MPI_Fint h, int key, void *val, int *flag)
{
    switch (kind) {
    case COMM: return MPI_Comm_get_attr(MPI_Comm_f2c(h), key, val, flag);
    case TYPE: return MPI_Type_get_attr(MPI_Type_f2c(h), key, val, flag);
    default: return MPI_Win_get_attr(MPI_Win_f2c(h), key, val, flag);
    }
}

static int bad(int where, const char *what)
{
    printf("case %d: %s\n", where, what);
    return 1;
}

/* Set from C: the value is the pointer `word`. */
int c_set(int kind, MPI_Fint h, int key, MPI_Aint word)
{
    void *v = (void *)word;
    switch (kind) {
    case COMM: return MPI_Comm_set_attr(MPI_Comm_f2c(h), key, v);
    case TYPE: return MPI_Type_set_attr(MPI_Type_f2c(h), key, v);
    default: return MPI_Win_set_attr(MPI_Win_f2c(h), key, v);
    }
}

/* C reads the word C set. */
int c_expect_word(int where, int kind, MPI_Fint h, int key, MPI_Aint word)
{
    void *v = NULL;
    int flag = 0;
    if (get(kind, h, key, &v, &flag) != MPI_SUCCESS || !flag)
        return bad(where, "C get: no attribute");
    if (v != (void *)word) {
        printf("case %d: C get: %p, expected the word %p\n", where, v, (void *)word);
        return 1;
    }
    return 0;
}

/* C reads an attribute Fortran set with MPI_*_SET_ATTR as a pointer to an MPI_Aint holding the
 * value; the same pointer every time, and from MPI_Attr_get too. */
int c_expect_aint(int where, int kind, MPI_Fint h, int key, MPI_Aint value)
{
    MPI_Aint *p = NULL, *q = NULL;
    int flag = 0;
    if (get(kind, h, key, &p, &flag) != MPI_SUCCESS || !flag)
        return bad(where, "C get: no attribute");
    if (*p != value) {
        printf("case %d: C get: *(MPI_Aint *) is %ld, expected %ld\n", where, (long)*p,
               (long)value);
        return 1;
    }
    get(kind, h, key, &q, &flag);
    if (q != p)
        return bad(where, "C get: another pointer the second time");
    if (kind == COMM) {
        MPI_Attr_get(MPI_Comm_f2c(h), key, &q, &flag);
        if (!flag || q != p)
            return bad(where, "MPI_Attr_get: not the pointer MPI_Comm_get_attr gave");
    }
    return 0;
}

/* C reads an attribute Fortran set with MPI_ATTR_PUT as a pointer to an MPI_Fint. */
int c_expect_fint(int where, MPI_Fint h, int key, MPI_Fint value)
{
    MPI_Fint *p = NULL, *q = NULL;
    int flag = 0;
    if (MPI_Attr_get(MPI_Comm_f2c(h), key, &p, &flag) != MPI_SUCCESS || !flag)
        return bad(where, "MPI_Attr_get: no attribute");
    if (*p != value) {
        printf("case %d: MPI_Attr_get: *(MPI_Fint *) is %d, expected %d\n", where, (int)*p,
               (int)value);
        return 1;
    }
    MPI_Comm_get_attr(MPI_Comm_f2c(h), key, &q, &flag);
    if (!flag || q != p)
        return bad(where, "MPI_Comm_get_attr: not the pointer MPI_Attr_get gave");
    return 0;
}

/* The pointer C read stays valid while the attribute lives, however many others come and go
 * on the same communicator. */
int c_pointer_holds(int where, MPI_Fint h, int key, MPI_Aint value)
{
    MPI_Comm comm = MPI_Comm_f2c(h);
    MPI_Aint *p = NULL, *q = NULL;
    int flag = 0, keys[40], errs = 0;
    MPI_Comm_get_attr(comm, key, &p, &flag);
    if (!flag)
        return bad(where, "no attribute");
    for (int i = 0; i < 40; i++) {
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &keys[i], NULL);
        MPI_Comm_set_attr(comm, keys[i], &keys[i]);
    }
    for (int i = 0; i < 40; i += 2)
        MPI_Comm_delete_attr(comm, keys[i]);
    if (*p != value)
        errs += bad(where, "the value changed under the pointer");
    MPI_Comm_get_attr(comm, key, &q, &flag);
    if (q != p)
        errs += bad(where, "another pointer after other attributes came and went");
    for (int i = 0; i < 40; i++) {
        MPI_Comm_delete_attr(comm, keys[i]);
        MPI_Comm_free_keyval(&keys[i]);
    }
    return errs;
}

/* A keyval with C callbacks. The copy function checks that it gets a pointer to the MPI_Aint
 * Fortran set (copy_expect) and returns &target, set from C; the delete function records the
 * pointer it gets and, unless it is &target, the MPI_Aint it points to. */
static MPI_Aint target, copy_expect, deleted_aint;
static void *deleted;
static int copies, copy_errs, deletes;

static int copy_fn(MPI_Comm comm, int key, void *extra, void *in, void *out, int *flag)
{
    (void)comm, (void)key, (void)extra;
    copies++;
    if (*(MPI_Aint *)in != copy_expect)
        copy_errs++;
    *(void **)out = &target;
    *flag = 1;
    return MPI_SUCCESS;
}

static int delete_fn(MPI_Comm comm, int key, void *val, void *extra)
{
    (void)comm, (void)key, (void)extra;
    deletes++;
    deleted = val;
    if (val != &target)
        deleted_aint = *(MPI_Aint *)val;
    return MPI_SUCCESS;
}

int c_keyval(void)
{
    int key;
    MPI_Comm_create_keyval(copy_fn, delete_fn, &key, NULL);
    return key;
}

MPI_Aint c_target(void)
{
    return (MPI_Aint)&target;
}

void c_expect_copy_in(MPI_Aint value)
{
    copy_expect = value;
}

/* The callbacks ran `ncopies` and `ndeletes` times since the last call; the last delete got
 * `word` (C's), or with word 0 a pointer to `value` (Fortran's). */
int c_callbacks(int where, int ncopies, int ndeletes, MPI_Aint word, MPI_Aint value)
{
    int errs = 0;
    if (copies != ncopies || deletes != ndeletes) {
        printf("case %d: %d copies, %d deletes, expected %d and %d\n", where, copies, deletes,
               ncopies, ndeletes);
        errs++;
    }
    if (copy_errs)
        errs += bad(where, "the C copy function did not get a pointer to Fortran's value");
    if (ndeletes && word && deleted != (void *)word)
        errs += bad(where, "the C delete function did not get C's word");
    if (ndeletes && !word && (deleted == &target || deleted_aint != value))
        errs += bad(where, "the C delete function did not get a pointer to Fortran's value");
    copies = copy_errs = deletes = 0;
    deleted = NULL;
    deleted_aint = 0;
    return errs;
}

/* A keyval whose C copy function copies the pointer it gets: the copy of an attribute Fortran
 * set points to the original's integer. */
static int copy_pointer(MPI_Comm comm, int key, void *extra, void *in, void *out, int *flag)
{
    (void)comm, (void)key, (void)extra;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

int c_pointer_keyval(void)
{
    int key;
    MPI_Comm_create_keyval(copy_pointer, MPI_COMM_NULL_DELETE_FN, &key, NULL);
    return key;
}

/* C reads on `copy` the pointer it reads on `orig`, to `value`. */
int c_same_pointer(int where, MPI_Fint orig, MPI_Fint copy, int key, MPI_Aint value)
{
    MPI_Aint *p = NULL, *q = NULL;
    int flag = 0, flag2 = 0;
    MPI_Comm_get_attr(MPI_Comm_f2c(orig), key, &p, &flag);
    MPI_Comm_get_attr(MPI_Comm_f2c(copy), key, &q, &flag2);
    if (!flag || !flag2 || p != q || *q != value)
        return bad(where, "the copy does not point to the original's integer");
    return 0;
}

/* C changes the integer Fortran set through the pointer it reads. */
void c_poke(MPI_Fint comm, int key, MPI_Aint value)
{
    MPI_Aint *p = NULL;
    int flag = 0;
    MPI_Comm_get_attr(MPI_Comm_f2c(comm), key, &p, &flag);
    if (flag)
        *p = value;
}

/* The predefined attributes in C: pointers to their values, which Fortran read. */
int c_predefined(int where, MPI_Fint comm, MPI_Fint win, MPI_Aint tag_ub, MPI_Aint size)
{
    int *ub = NULL, flag = 0, errs = 0;
    MPI_Aint *sz = NULL;
    MPI_Comm_get_attr(MPI_Comm_f2c(comm), MPI_TAG_UB, &ub, &flag);
    if (!flag || *ub != tag_ub)
        errs += bad(where, "MPI_TAG_UB in C is not Fortran's");
    MPI_Win_get_attr(MPI_Win_f2c(win), MPI_WIN_SIZE, &sz, &flag);
    if (!flag || *sz != size)
        errs += bad(where, "MPI_WIN_SIZE in C is not Fortran's");
    return errs;
}
