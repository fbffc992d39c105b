/* np: 1 */
/* Attribute caching on datatypes: set/get/delete on derived and predefined types, copy callbacks
 * on MPI_Type_dup (MPI_TYPE_DUP_FN, MPI_TYPE_NULL_COPY_FN, a user callback), delete callbacks on
 * replacement, delete and MPI_Type_free, failing callbacks, freed keyvals, and keyvals of the
 * wrong kind. */
#include <mpi.h>
#include <stdint.h>

#include "../check.h"

static int error_class(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

static int deletes, copies, fail_delete, fail_copy;
static void *last_deleted;
static MPI_Datatype last_type;
static int last_keyval;

static int count_delete(MPI_Datatype type, int keyval, void *value, void *extra)
{
    CHECK(extra == (void *)&deletes);
    deletes++;
    last_type = type;
    last_keyval = keyval;
    last_deleted = value;
    if (fail_delete) {
        fail_delete--;
        return MPI_ERR_TYPE;
    }
    return MPI_SUCCESS;
}

static int times_ten(MPI_Datatype type, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)keyval, (void)extra;
    int size = -1;
    copies++;
    MPI_Type_size(type, &size);        /* the original type, usable in the callback */
    CHECK(size == 3 * (int)sizeof(int));
    if (fail_copy) {
        fail_copy--;
        return MPI_ERR_ARG;
    }
    *(void **)out = (void *)((intptr_t)in * 10);
    *flag = 1;
    return MPI_SUCCESS;
}

static void *get(MPI_Datatype type, int keyval, int *flag)
{
    void *v = NULL;
    *flag = -1;
    CHECK(MPI_Type_get_attr(type, keyval, &v, flag) == MPI_SUCCESS);
    return *flag ? v : NULL;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    int kdup, knull, kuser, flag;
    void *extra = &deletes;
    CHECK(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, count_delete, &kdup, extra) == MPI_SUCCESS);
    CHECK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, count_delete, &knull, extra) ==
          MPI_SUCCESS);
    CHECK(MPI_Type_create_keyval(times_ten, count_delete, &kuser, extra) == MPI_SUCCESS);

    MPI_Datatype t, d;
    MPI_Type_contiguous(3, MPI_INT, &t);
    CHECK(get(t, kdup, &flag) == NULL && flag == 0);
    CHECK(MPI_Type_set_attr(t, kdup, (void *)1) == MPI_SUCCESS);
    CHECK(MPI_Type_set_attr(t, knull, (void *)2) == MPI_SUCCESS);
    CHECK(MPI_Type_set_attr(t, kuser, (void *)3) == MPI_SUCCESS);
    CHECK(get(t, kuser, &flag) == (void *)3 && flag == 1);
    /* Replacement deletes the old value first. */
    deletes = 0;
    CHECK(MPI_Type_set_attr(t, knull, (void *)4) == MPI_SUCCESS);
    CHECK(deletes == 1 && last_deleted == (void *)2 && last_type == t && last_keyval == knull);
    CHECK(get(t, knull, &flag) == (void *)4 && flag == 1);

    /* Attributes work on an uncommitted type and survive commit. */
    CHECK(MPI_Type_commit(&t) == MPI_SUCCESS);
    CHECK(get(t, kdup, &flag) == (void *)1 && flag == 1);

    copies = 0;
    CHECK(MPI_Type_dup(t, &d) == MPI_SUCCESS);
    CHECK(copies == 1);
    CHECK(get(d, kdup, &flag) == (void *)1 && flag == 1);
    CHECK(get(d, knull, &flag) == NULL && flag == 0);
    CHECK(get(d, kuser, &flag) == (void *)30 && flag == 1);
    CHECK(get(t, kuser, &flag) == (void *)3 && flag == 1);

    /* MPI_Type_free runs the delete callbacks, on the handle being freed. */
    deletes = 0;
    MPI_Datatype saved = d;
    CHECK(MPI_Type_free(&d) == MPI_SUCCESS);
    CHECK(d == MPI_DATATYPE_NULL && deletes == 2 && last_type == saved);

    /* A failing copy callback fails MPI_Type_dup; the copies already made are deleted. */
    fail_copy = 1;
    deletes = 0;
    d = MPI_INT;
    CHECK(error_class(MPI_Type_dup(t, &d)) == MPI_ERR_ARG);
    CHECK(d == MPI_DATATYPE_NULL);
    CHECK(deletes == 1 && last_deleted == (void *)1);

    /* A failing delete callback fails delete_attr and MPI_Type_free: nothing is lost. */
    fail_delete = 1;
    CHECK(error_class(MPI_Type_delete_attr(t, kdup)) == MPI_ERR_TYPE);
    CHECK(get(t, kdup, &flag) == (void *)1 && flag == 1);
    CHECK(MPI_Type_delete_attr(t, kdup) == MPI_SUCCESS);
    CHECK(get(t, kdup, &flag) == NULL && flag == 0);
    fail_delete = 1;
    MPI_Datatype tt = t;
    CHECK(error_class(MPI_Type_free(&tt)) == MPI_ERR_TYPE);
    CHECK(tt == t);
    int size = -1;
    CHECK(MPI_Type_size(t, &size) == MPI_SUCCESS && size == 3 * (int)sizeof(int));

    /* A freed keyval lives while its attributes do. */
    int saved_key = kuser;
    CHECK(MPI_Type_free_keyval(&kuser) == MPI_SUCCESS && kuser == MPI_KEYVAL_INVALID);
    CHECK(get(t, saved_key, &flag) == (void *)3 && flag == 1);
    deletes = 0;
    CHECK(MPI_Type_free(&t) == MPI_SUCCESS);
    CHECK(deletes == 2 && t == MPI_DATATYPE_NULL);
    void *v;
    CHECK(error_class(MPI_Type_get_attr(MPI_INT, saved_key, &v, &flag)) == MPI_ERR_KEYVAL);

    /* Predefined types carry attributes too, and copy them to their duplicates. */
    CHECK(MPI_Type_set_attr(MPI_DOUBLE, kdup, (void *)9) == MPI_SUCCESS);
    CHECK(get(MPI_DOUBLE, kdup, &flag) == (void *)9 && flag == 1);
    CHECK(get(MPI_INT, kdup, &flag) == NULL && flag == 0);
    CHECK(MPI_Type_dup(MPI_DOUBLE, &d) == MPI_SUCCESS);
    CHECK(get(d, kdup, &flag) == (void *)9 && flag == 1);
    CHECK(MPI_Type_free(&d) == MPI_SUCCESS);
    deletes = 0;
    CHECK(MPI_Type_delete_attr(MPI_DOUBLE, kdup) == MPI_SUCCESS);
    CHECK(deletes == 1 && last_type == MPI_DOUBLE && last_deleted == (void *)9);

    /* Errors: keyvals of the wrong kind, invalid ones, a NULL value pointer. */
    int ck;
    CHECK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &ck, NULL) ==
          MPI_SUCCESS);
    CHECK(error_class(MPI_Type_set_attr(MPI_INT, ck, NULL)) == MPI_ERR_KEYVAL);
    CHECK(error_class(MPI_Type_free_keyval(&ck)) == MPI_ERR_KEYVAL);
    CHECK(error_class(MPI_Comm_set_attr(MPI_COMM_SELF, kdup, NULL)) == MPI_ERR_KEYVAL);
    CHECK(error_class(MPI_Type_get_attr(MPI_INT, MPI_KEYVAL_INVALID, &v, &flag)) ==
          MPI_ERR_KEYVAL);
    CHECK(error_class(MPI_Type_delete_attr(MPI_INT, 99999)) == MPI_ERR_KEYVAL);
    CHECK(error_class(MPI_Type_get_attr(MPI_INT, kdup, NULL, &flag)) == MPI_ERR_ARG);
    CHECK(error_class(MPI_Type_set_attr(MPI_DATATYPE_NULL, kdup, NULL)) == MPI_ERR_TYPE);
    CHECK(MPI_Comm_free_keyval(&ck) == MPI_SUCCESS);

    CHECK(MPI_Type_free_keyval(&kdup) == MPI_SUCCESS && kdup == MPI_KEYVAL_INVALID);
    CHECK(MPI_Type_free_keyval(&knull) == MPI_SUCCESS);
    MPI_Finalize();
    return CHECK_RESULT();
}
