/* np: 2 */
/* Attribute caching on communicators: set/get/delete, copy callbacks on MPI_Comm_dup
 * (MPI_COMM_DUP_FN, MPI_COMM_NULL_COPY_FN, user callbacks), delete callbacks on replacement,
 * delete and MPI_Comm_free, callbacks that fail (the MPI call fails with their error class),
 * freed keyvals living on while attributes use them, the deprecated MPI-1 forms, the predefined
 * attributes, error classes, and MPI_COMM_SELF's attributes deleted at the start of
 * MPI_Finalize in reverse order of setting (checked after MPI_Finalize returns). */
#include <mpi.h>
#include <string.h>
#include <stdint.h>
#include <stdlib.h>

#include "../check.h"

static int rank, size;

static int error_class(int rc)
{
    int cls = -1;
    MPI_Error_class(rc, &cls);
    return cls;
}

/* What the callbacks saw. */
static int deletes, copies, fail_delete, fail_copy;
static void *last_deleted;
static MPI_Comm last_comm;
static int last_keyval;
static void *last_extra;

static int count_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    deletes++;
    last_comm = comm;
    last_keyval = keyval;
    last_deleted = value;
    last_extra = extra;
    if (fail_delete) {
        fail_delete--;
        return MPI_ERR_OTHER;
    }
    return MPI_SUCCESS;
}

static int user_code;                /* an error code of the user's, with its own string */

/* Copies value + 1; says "no copy" for odd values. */
static int plus_one(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)keyval, (void)extra;
    int r = -1;
    copies++;
    MPI_Comm_rank(comm, &r);          /* MPI works inside a callback */
    CHECK(r == rank);
    if (fail_copy) {                  /* not an error code (MPI_ERR_OTHER), or the user's own */
        return fail_copy-- > 1 ? user_code : 12345678;
    }
    intptr_t v = (intptr_t)in;
    *flag = !(v & 1);
    *(void **)out = (void *)(v + 1);
    return MPI_SUCCESS;
}

static void *get(MPI_Comm comm, int keyval, int *flag)
{
    void *v = NULL;
    *flag = -1;
    CHECK(MPI_Comm_get_attr(comm, keyval, &v, flag) == MPI_SUCCESS);
    return *flag ? v : NULL;
}

static void predefined(void)
{
    int flag, *v;
    v = get(MPI_COMM_WORLD, MPI_TAG_UB, &flag);
    CHECKF(flag == 1 && v && *v >= 32767, "MPI_TAG_UB flag %d value %d", flag, v ? *v : -1);
    /* The largest tag is usable. */
    if (flag && v) {
        int x = rank, y = -1, peer = rank ^ 1;
        CHECK(MPI_Sendrecv(&x, 1, MPI_INT, peer, *v, &y, 1, MPI_INT, peer, *v, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE) == MPI_SUCCESS);
        CHECK(y == peer);
    }
    v = get(MPI_COMM_WORLD, MPI_HOST, &flag);
    CHECK(flag == 1 && v && *v == MPI_PROC_NULL);
    v = get(MPI_COMM_WORLD, MPI_IO, &flag);
    CHECK(flag == 1 && v && (*v == MPI_ANY_SOURCE || (*v >= 0 && *v < size)));
    v = get(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &flag);
    CHECK(flag == 1 && v && (*v == 0 || *v == 1));
    v = get(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &flag);
    CHECK(flag == 1 && v && *v >= size);
    v = get(MPI_COMM_WORLD, MPI_APPNUM, &flag);
    CHECK(flag == 1 && v && *v == 0);
    v = get(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &flag);
    CHECK(flag == 1 && v && *v >= MPI_ERR_LASTCODE);
    /* The deprecated form gives the same. */
    int *w = NULL;
    flag = 0;
    CHECK(MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, &w, &flag) == MPI_SUCCESS);
    CHECK(flag == 1 && w && *w >= 32767);

    /* They cannot be set, deleted or freed. */
    int dummy = 5, k = MPI_TAG_UB;
    CHECK(error_class(MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, &dummy)) == MPI_ERR_KEYVAL);
    CHECK(error_class(MPI_Comm_delete_attr(MPI_COMM_WORLD, MPI_TAG_UB)) == MPI_ERR_KEYVAL);
    CHECK(error_class(MPI_Comm_free_keyval(&k)) == MPI_ERR_KEYVAL);
    CHECK(k == MPI_TAG_UB);
    v = get(MPI_COMM_WORLD, MPI_TAG_UB, &flag);
    CHECK(flag == 1 && v && *v >= 32767);
}

static void set_get_delete(void)
{
    int k = MPI_KEYVAL_INVALID, flag, extra = 7;
    CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_delete, &k, &extra) ==
          MPI_SUCCESS);
    CHECK(k != MPI_KEYVAL_INVALID);
    CHECK(get(MPI_COMM_WORLD, k, &flag) == NULL && flag == 0);
    deletes = 0;
    CHECK(MPI_Comm_set_attr(MPI_COMM_WORLD, k, (void *)100) == MPI_SUCCESS);
    CHECK(get(MPI_COMM_WORLD, k, &flag) == (void *)100 && flag == 1);
    CHECK(deletes == 0);
    /* Replacing runs the delete callback on the old value. */
    CHECK(MPI_Comm_set_attr(MPI_COMM_WORLD, k, (void *)200) == MPI_SUCCESS);
    CHECK(deletes == 1 && last_deleted == (void *)100 && last_comm == MPI_COMM_WORLD);
    CHECK(last_keyval == k && last_extra == &extra);
    CHECK(get(MPI_COMM_WORLD, k, &flag) == (void *)200 && flag == 1);
    /* An attribute is per communicator. */
    CHECK(get(MPI_COMM_SELF, k, &flag) == NULL && flag == 0);
    CHECK(MPI_Comm_delete_attr(MPI_COMM_WORLD, k) == MPI_SUCCESS);
    CHECK(deletes == 2 && last_deleted == (void *)200);
    CHECK(get(MPI_COMM_WORLD, k, &flag) == NULL && flag == 0);
    /* Deleting what is not there: nothing to do. */
    CHECK(MPI_Comm_delete_attr(MPI_COMM_WORLD, k) == MPI_SUCCESS);
    CHECK(deletes == 2);

    /* A failing delete callback fails the call and the attribute stays. */
    CHECK(MPI_Comm_set_attr(MPI_COMM_WORLD, k, (void *)300) == MPI_SUCCESS);
    fail_delete = 1;
    CHECK(error_class(MPI_Comm_delete_attr(MPI_COMM_WORLD, k)) == MPI_ERR_OTHER);
    CHECK(get(MPI_COMM_WORLD, k, &flag) == (void *)300 && flag == 1);
    fail_delete = 1;
    CHECK(error_class(MPI_Comm_set_attr(MPI_COMM_WORLD, k, (void *)400)) == MPI_ERR_OTHER);
    CHECK(get(MPI_COMM_WORLD, k, &flag) == (void *)300 && flag == 1);
    CHECK(MPI_Comm_delete_attr(MPI_COMM_WORLD, k) == MPI_SUCCESS);
    CHECK(get(MPI_COMM_WORLD, k, &flag) == NULL && flag == 0);

    /* Freeing a communicator deletes its attributes; a failing callback stops the free. */
    MPI_Comm dup;
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &dup) == MPI_SUCCESS);
    CHECK(MPI_Comm_set_attr(dup, k, (void *)500) == MPI_SUCCESS);
    fail_delete = 1;
    deletes = 0;
    CHECK(error_class(MPI_Comm_free(&dup)) == MPI_ERR_OTHER);
    CHECK(dup != MPI_COMM_NULL && deletes == 1);
    CHECK(get(dup, k, &flag) == (void *)500 && flag == 1);
    MPI_Comm saved = dup;
    CHECK(MPI_Comm_free(&dup) == MPI_SUCCESS);
    CHECK(dup == MPI_COMM_NULL && deletes == 2 && last_deleted == (void *)500);
    CHECK(last_comm == saved);

    CHECK(MPI_Comm_free_keyval(&k) == MPI_SUCCESS);
    CHECK(k == MPI_KEYVAL_INVALID);
}

/* MPI_Comm_dup copies what the copy callbacks say, in each keyval's way. */
static void copy_on_dup(void)
{
    int kdup, knull, kuser, flag;
    CHECK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, count_delete, &kdup, NULL) == MPI_SUCCESS);
    CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &knull, NULL) ==
          MPI_SUCCESS);
    CHECK(MPI_Comm_create_keyval(plus_one, count_delete, &kuser, NULL) == MPI_SUCCESS);
    CHECK(kdup != knull && knull != kuser && kdup != kuser);
    MPI_Comm a, b, c;
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &a) == MPI_SUCCESS);
    CHECK(MPI_Comm_set_attr(a, kdup, (void *)10) == MPI_SUCCESS);
    CHECK(MPI_Comm_set_attr(a, knull, (void *)20) == MPI_SUCCESS);
    CHECK(MPI_Comm_set_attr(a, kuser, (void *)30) == MPI_SUCCESS);
    copies = 0;
    CHECK(MPI_Comm_dup(a, &b) == MPI_SUCCESS);
    CHECK(copies == 1);
    CHECK(get(b, kdup, &flag) == (void *)10 && flag == 1);
    CHECK(get(b, knull, &flag) == NULL && flag == 0);
    CHECK(get(b, kuser, &flag) == (void *)31 && flag == 1);
    /* The original is untouched. */
    CHECK(get(a, kuser, &flag) == (void *)30 && flag == 1);
    /* Also through MPI_Comm_dup_with_info; an odd value makes plus_one decline to copy. */
    CHECK(MPI_Comm_dup_with_info(b, MPI_INFO_NULL, &c) == MPI_SUCCESS);
    CHECK(get(c, kdup, &flag) == (void *)10 && flag == 1);
    CHECK(get(c, kuser, &flag) == NULL && flag == 0);

    /* A failing copy callback fails the dup; the copies already made are deleted again. */
    MPI_Comm d = MPI_COMM_WORLD;
    fail_copy = 1;
    deletes = 0;
    CHECK(error_class(MPI_Comm_dup(a, &d)) == MPI_ERR_OTHER);
    CHECK(d == MPI_COMM_NULL);
    CHECKF(deletes == 1 && last_deleted == (void *)10, "deletes %d", deletes);
    CHECK(last_comm != a && last_comm != MPI_COMM_NULL);
    /* A code of the user's comes back as it is, with its string (MPICH's errors/comm/userdup). */
    int user_class, len;
    char msg[MPI_MAX_ERROR_STRING];
    MPI_Add_error_class(&user_class);
    MPI_Add_error_code(user_class, &user_code);
    MPI_Add_error_string(user_code, "the user's own code");
    fail_copy = 2;
    int rc = MPI_Comm_dup(a, &d);
    CHECK(rc == user_code && d == MPI_COMM_NULL && error_class(rc) == user_class);
    CHECK(MPI_Error_string(rc, msg, &len) == MPI_SUCCESS && !strcmp(msg, "the user's own code"));
    fail_copy = 0;

    /* Freeing runs the delete callbacks of what was copied. */
    deletes = 0;
    CHECK(MPI_Comm_free(&b) == MPI_SUCCESS);
    CHECK(deletes == 2);
    deletes = 0;
    CHECK(MPI_Comm_free(&c) == MPI_SUCCESS);
    CHECK(deletes == 1 && last_deleted == (void *)10);
    CHECK(MPI_Comm_free(&a) == MPI_SUCCESS);

    /* A freed keyval lives on while attributes use it: its value and callbacks still work. */
    int saved = kuser;
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &a) == MPI_SUCCESS);
    CHECK(MPI_Comm_set_attr(a, kuser, (void *)40) == MPI_SUCCESS);
    CHECK(MPI_Comm_free_keyval(&kuser) == MPI_SUCCESS);
    CHECK(kuser == MPI_KEYVAL_INVALID);
    CHECK(get(a, saved, &flag) == (void *)40 && flag == 1);
    int again = saved;                /* freed again while in use: accepted, as MPICH does */
    CHECK(MPI_Comm_free_keyval(&again) == MPI_SUCCESS && again == MPI_KEYVAL_INVALID);
    copies = 0;
    CHECK(MPI_Comm_dup(a, &b) == MPI_SUCCESS);
    CHECK(copies == 1 && get(b, saved, &flag) == (void *)41 && flag == 1);
    deletes = 0;
    CHECK(MPI_Comm_free(&a) == MPI_SUCCESS);
    CHECK(MPI_Comm_free(&b) == MPI_SUCCESS);
    CHECK(deletes == 2 && last_keyval == saved);
    /* Its last attribute gone, the keyval is gone. */
    void *v;
    CHECK(error_class(MPI_Comm_get_attr(MPI_COMM_WORLD, saved, &v, &flag)) == MPI_ERR_KEYVAL);

    CHECK(MPI_Comm_free_keyval(&kdup) == MPI_SUCCESS);
    CHECK(MPI_Comm_free_keyval(&knull) == MPI_SUCCESS);
    CHECK(kdup == MPI_KEYVAL_INVALID && knull == MPI_KEYVAL_INVALID);
}

/* The MPI-1 forms: MPI_Keyval_create, MPI_Attr_put/get/delete, MPI_Keyval_free, MPI_DUP_FN. */
static void deprecated(void)
{
    int k, flag = -1;
    void *v = NULL;
    CHECK(MPI_Keyval_create(MPI_DUP_FN, count_delete, &k, NULL) == MPI_SUCCESS);
    CHECK(MPI_Attr_put(MPI_COMM_WORLD, k, (void *)77) == MPI_SUCCESS);
    CHECK(MPI_Attr_get(MPI_COMM_WORLD, k, &v, &flag) == MPI_SUCCESS);
    CHECK(flag == 1 && v == (void *)77);
    /* The same keyvals as the MPI-2 functions'. */
    CHECK(get(MPI_COMM_WORLD, k, &flag) == (void *)77 && flag == 1);
    MPI_Comm dup;
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &dup) == MPI_SUCCESS);
    CHECK(get(dup, k, &flag) == (void *)77 && flag == 1);
    CHECK(MPI_Comm_free(&dup) == MPI_SUCCESS);
    deletes = 0;
    CHECK(MPI_Attr_delete(MPI_COMM_WORLD, k) == MPI_SUCCESS);
    CHECK(deletes == 1 && last_deleted == (void *)77);
    CHECK(MPI_Attr_get(MPI_COMM_WORLD, k, &v, &flag) == MPI_SUCCESS && flag == 0);
    CHECK(MPI_Keyval_free(&k) == MPI_SUCCESS && k == MPI_KEYVAL_INVALID);
    CHECK(MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, &k, NULL) == MPI_SUCCESS);
    CHECK(MPI_Keyval_free(&k) == MPI_SUCCESS);
}

static void errors(void)
{
    int flag, tk, ck;
    void *v;
    CHECK(error_class(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, &v, &flag)) ==
          MPI_ERR_KEYVAL);
    CHECK(error_class(MPI_Comm_set_attr(MPI_COMM_WORLD, 123456, NULL)) == MPI_ERR_KEYVAL);
    CHECK(error_class(MPI_Comm_delete_attr(MPI_COMM_WORLD, -3)) == MPI_ERR_KEYVAL);
    int bad = MPI_KEYVAL_INVALID;
    CHECK(error_class(MPI_Comm_free_keyval(&bad)) == MPI_ERR_KEYVAL);
    CHECK(error_class(MPI_Comm_free_keyval(NULL)) == MPI_ERR_ARG);
    CHECK(error_class(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN,
                                             NULL, NULL)) == MPI_ERR_ARG);
    CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &ck, NULL) ==
          MPI_SUCCESS);
    CHECK(error_class(MPI_Comm_get_attr(MPI_COMM_WORLD, ck, NULL, &flag)) == MPI_ERR_ARG);
    CHECK(error_class(MPI_Comm_get_attr(MPI_COMM_WORLD, ck, &v, NULL)) == MPI_ERR_ARG);
    CHECK(error_class(MPI_Comm_set_attr(MPI_COMM_NULL, ck, NULL)) == MPI_ERR_COMM);
    /* A datatype keyval is not a communicator keyval, and the other way round. */
    CHECK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &tk, NULL) ==
          MPI_SUCCESS);
    CHECK(error_class(MPI_Comm_set_attr(MPI_COMM_WORLD, tk, NULL)) == MPI_ERR_KEYVAL);
    CHECK(error_class(MPI_Comm_get_attr(MPI_COMM_WORLD, tk, &v, &flag)) == MPI_ERR_KEYVAL);
    CHECK(error_class(MPI_Comm_free_keyval(&tk)) == MPI_ERR_KEYVAL);
    CHECK(error_class(MPI_Type_set_attr(MPI_INT, ck, NULL)) == MPI_ERR_KEYVAL);
    CHECK(error_class(MPI_Type_get_attr(MPI_INT, MPI_TAG_UB, &v, &flag)) == MPI_ERR_KEYVAL);
    CHECK(MPI_Type_free_keyval(&tk) == MPI_SUCCESS);
    int saved = ck;
    CHECK(MPI_Comm_free_keyval(&ck) == MPI_SUCCESS);
    /* Freed and unused: gone. */
    CHECK(error_class(MPI_Comm_set_attr(MPI_COMM_WORLD, saved, NULL)) == MPI_ERR_KEYVAL);
}

/* MPI_COMM_SELF's attributes go at the start of MPI_Finalize, the last set first. */
static int finalize_order[8], finalize_n, finalize_fail, finalize_active_ok = 1;
static int self_keys[3];

static int at_finalize(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)extra;
    int finalized = 1, r = -1;
    MPI_Finalized(&finalized);
    /* MPI is fully usable: even communication. */
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    int x = r, y = -1;
    MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (finalized || comm != MPI_COMM_SELF || r != rank || y != size * (size - 1) / 2)
        finalize_active_ok = 0;
    if (finalize_fail && keyval == self_keys[2]) {
        finalize_fail = 0;
        return MPI_ERR_INTERN;
    }
    if (finalize_n < 8)
        finalize_order[finalize_n++] = (int)(intptr_t)value;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    predefined();
    set_get_delete();
    copy_on_dup();
    deprecated();
    errors();

    for (int i = 0; i < 3; i++) {
        CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, at_finalize, &self_keys[i], NULL) ==
              MPI_SUCCESS);
        CHECK(MPI_Comm_set_attr(MPI_COMM_SELF, self_keys[i], (void *)(intptr_t)(i + 1)) ==
              MPI_SUCCESS);
    }
    /* A keyval freed by the user still has its attribute deleted at MPI_Finalize. */
    CHECK(MPI_Comm_free_keyval(&self_keys[0]) == MPI_SUCCESS);
    /* A failing delete callback fails MPI_Finalize, which can then be called again. */
    finalize_fail = 1;
    int rc = MPI_Finalize();
    int finalized = 1;
    MPI_Finalized(&finalized);
    CHECKF(error_class(rc) == MPI_ERR_INTERN && !finalized, "rc %d, finalized %d", rc,
           finalized);
    int failures = check_failures;
    rc = MPI_Finalize();
    int ok = rc == MPI_SUCCESS && finalize_active_ok && finalize_n == 3 &&
             finalize_order[0] == 3 && finalize_order[1] == 2 && finalize_order[2] == 1;
    if (!ok)
        printf("rank %d: FAILED at MPI_Finalize: rc %d, usable %d, %d deletes: %d %d %d\n", rank,
               rc, finalize_active_ok, finalize_n, finalize_order[0], finalize_order[1],
               finalize_order[2]);
    return failures || !ok;
}
