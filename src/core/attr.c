/* Attribute caching: MPI_Comm_*_attr and MPI_Type_*_attr with their keyvals, and the deprecated
 * MPI_Keyval_* / MPI_Attr_* forms of the communicator ones.
 *
 * A keyval is a plain int in the standard ABI, not a handle, so keyvals are not arena objects:
 * a user keyval is KEYVAL_FIRST + its index in a table of records, and the predefined ones
 * (MPI_TAG_UB .. MPI_UNIVERSE_SIZE, 501..507) have static records. A record lives while the
 * user has not freed it or an attribute still uses it (the standard lets the attributes of a
 * freed keyval live on, and their delete callbacks still run): `refs` counts both.
 *
 * Callbacks are user code that may call MPI, even on the same object, so they run without the
 * module's lock, holding a reference to their keyval; afterwards the list is searched again.
 * MPI_*_NULL_COPY_FN, MPI_*_DUP_FN and MPI_*_NULL_DELETE_FN are the ABI's constants 0 and 1
 * cast to function pointers, never called: they are recognised by value.
 *
 * Each attribute has a record of its own, held by the callbacks running on it: what points
 * into a record stays valid while the attribute lives. An attribute remembers the language that
 * set it (interlang.h): C reads one that Fortran set as a pointer to its integer, kept in the
 * record, and C callbacks get that pointer too. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/attr.h"
#include "core/comm.h"
#include "core/datatype.h"
#include "core/errors.h"
#include "core/interlang.h"
#include "core/progress.h"
#include "core/state.h"
#include "core_api.h"

#define KEYVAL_FIRST 1024             /* above the predefined keyvals; 0 is MPI_KEYVAL_INVALID */
#define REUSE_AFTER 256               /* slots of freed keyvals are reused once the table is
                                         this long: until then a stale keyval is always caught */

enum copy_mode { COPY_NONE, COPY_DUP, COPY_USER };

typedef struct keyval {
    int id;                           /* the int the user holds */
    unsigned kind;                    /* MICA_COMM, MICA_TYPE or MICA_WIN */
    int refs;                         /* the user's until freed, one per attribute, one per
                                         callback running */
    int freed;
    enum copy_mode copy_mode;
    union {                           /* a window's is never called: windows are not copied */
        MPI_Comm_copy_attr_function *comm;
        MPI_Type_copy_attr_function *type;
    } copy;
    union {                           /* NULL: MPI_*_NULL_DELETE_FN */
        MPI_Comm_delete_attr_function *comm;
        MPI_Type_delete_attr_function *type;
        MPI_Win_delete_attr_function *win;
    } del;
    void *extra_state;                /* Fortran keyvals: the INTEGER extra state's value */
    int fortran;                      /* 0, or the Fortran callbacks' style (interlang.h) */
    const char *name;                 /* predefined: its name */
    int *value;                       /* predefined: what MPI_Comm_get_attr points to */
} keyval_t;

typedef union {
    MPI_Aint aint;
    MPI_Fint fint;
} fortran_val;

struct attr {
    keyval_t *kv;
    void *value;                      /* the word the C function set */
    int lang;                         /* 0: set in C, else how Fortran set it (interlang.h) */
    fortran_val f;                    /* set in Fortran: the integer, which C points to (and
                                         may change through that pointer) */
    int refs;                         /* the list's, and one per callback running on it */
};

struct mica_attrs {
    int n, cap;
    struct attr *a[];
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static keyval_t **table;              /* user keyvals; NULL: a free slot */
static int table_len, table_cap, table_free, cursor;

/* --- the predefined attributes of communicators ----------------------------------------------- */

/* Tags span every non-negative int: matching compares the whole int. */
static int tag_ub = MICA_TAG_UB;
static int host = MPI_PROC_NULL;      /* no host process */
static int io = MPI_ANY_SOURCE;       /* every process can do language I/O */
/* Every process of a job runs on one host (the shm transport) and MPI_Wtime reads its
 * CLOCK_MONOTONIC, one clock for the whole machine with no per-process offset: the clocks are
 * synchronized. (A job spanning hosts, once a network transport exists, must say 0.) */
static int wtime_is_global = 1;
static int appnum = 0;
/* Error codes use every value up to MPI_ERR_LASTCODE (a class and a message slot); user classes
 * and codes come above it (core/errcodes.c). */
static int lastusedcode = MPI_ERR_LASTCODE;
static int universe_size = 1;

#define PREDEFINED(keyval, var) \
    {.id = keyval, .kind = MICA_COMM, .refs = 1, .name = #keyval, .value = &var}
static keyval_t predefined[] = {
    PREDEFINED(MPI_TAG_UB, tag_ub), PREDEFINED(MPI_IO, io), PREDEFINED(MPI_HOST, host),
    PREDEFINED(MPI_WTIME_IS_GLOBAL, wtime_is_global), PREDEFINED(MPI_APPNUM, appnum),
    PREDEFINED(MPI_LASTUSEDCODE, lastusedcode), PREDEFINED(MPI_UNIVERSE_SIZE, universe_size),
};
#define NPREDEFINED ((int)(sizeof predefined / sizeof predefined[0]))

void mica_attr_set_environment(int universe, int app)
{
    universe_size = universe;
    appnum = app;
}

void mica_attr_set_lastusedcode(int code)
{
    __atomic_store_n(&lastusedcode, code, __ATOMIC_RELAXED);
}

/* --- keyvals (the lock held) ------------------------------------------------------------------ */

static const char *kind_name(unsigned kind)
{
    return kind == MICA_COMM ? "communicator" : kind == MICA_TYPE ? "datatype" : "window";
}

/* The record of `keyval`, of any kind; NULL if there is none. */
static keyval_t *lookup_keyval(int keyval)
{
    for (int i = 0; i < NPREDEFINED; i++)
        if (predefined[i].id == keyval)
            return &predefined[i];
    if (keyval >= KEYVAL_FIRST && keyval - KEYVAL_FIRST < table_len)
        return table[keyval - KEYVAL_FIRST];
    return NULL;
}

/* The record of `keyval` for objects of `kind`; NULL with *err set if there is none. */
static keyval_t *find_keyval(int keyval, unsigned kind, const char *arg, int *err)
{
    keyval_t *kv = lookup_keyval(keyval);
    if (!kv) {
        *err = keyval == MPI_KEYVAL_INVALID
                   ? mica_error(MPI_ERR_KEYVAL, "%s is MPI_KEYVAL_INVALID", arg)
                   : mica_error(MPI_ERR_KEYVAL, "%s=%d is not a keyval (never created, or freed)",
                                arg, keyval);
        return NULL;
    }
    if (kv->kind != kind) {
        *err = mica_error(MPI_ERR_KEYVAL, "%s=%d is a %s keyval, not a %s keyval", arg, keyval,
                          kind_name(kv->kind), kind_name(kind));
        return NULL;
    }
    return kv;
}

/* A keyval the user may change attributes of: not a predefined one. */
static keyval_t *find_user_keyval(int keyval, unsigned kind, const char *arg, const char *what,
                                  int *err)
{
    keyval_t *kv = find_keyval(keyval, kind, arg, err);
    if (kv && kv->value) {
        *err = mica_error(MPI_ERR_KEYVAL, "%s is %s, a predefined attribute: it cannot be %s",
                          arg, kv->name, what);
        return NULL;
    }
    return kv;
}

static void release(keyval_t *kv)
{
    if (--kv->refs == 0) {            /* never for the predefined ones */
        table[kv->id - KEYVAL_FIRST] = NULL;
        table_free++;
        free(kv);
    }
}

static int new_keyval(const keyval_t *init, int *keyval)
{
    keyval_t *kv = malloc(sizeof *kv);
    if (!kv)
        return mica_error(MPI_ERR_NO_MEM, "no memory for a keyval");
    *kv = *init;
    kv->refs = 1;
    pthread_mutex_lock(&lock);
    int slot = -1;
    if (table_free && table_len >= REUSE_AFTER) {
        while (table[cursor])
            cursor = (cursor + 1) % table_len;
        slot = cursor;
        cursor = (cursor + 1) % table_len;
        table_free--;
    } else {
        if (table_len == table_cap) {
            int cap = table_cap ? 2 * table_cap : 16;
            keyval_t **t = cap < INT32_MAX - KEYVAL_FIRST ? realloc(table, cap * sizeof *t) : NULL;
            if (!t) {
                pthread_mutex_unlock(&lock);
                free(kv);
                return mica_error(MPI_ERR_NO_MEM, "no memory for another keyval");
            }
            table = t;
            table_cap = cap;
        }
        slot = table_len++;
    }
    kv->id = KEYVAL_FIRST + slot;
    table[slot] = kv;
    pthread_mutex_unlock(&lock);
    *keyval = kv->id;
    return MPI_SUCCESS;
}

static int free_keyval(int *keyval, unsigned kind, const char *arg)
{
    int err = MPI_SUCCESS;
    pthread_mutex_lock(&lock);
    keyval_t *kv = find_user_keyval(*keyval, kind, arg, "freed", &err);
    if (kv) {                         /* freed again while attributes keep it: the first counts
                                       * (MPICH accepts it too: its keyval_double_free tests) */
        if (!kv->freed) {
            kv->freed = 1;
            release(kv);              /* its attributes keep it until they are deleted */
        }
        *keyval = MPI_KEYVAL_INVALID;
    }
    pthread_mutex_unlock(&lock);
    return err;
}

/* --- callbacks (called without the lock) ------------------------------------------------------ */

/* A callback's error fails the MPI call: its class is kept (MPI_ERR_OTHER if it is not an
 * error code), with a message saying which callback. */
/* A callback's error: the code it returned, when it is one (a user's own code, with its own
 * string, is what the user expects back from MPI_Comm_dup: MPICH's errors/comm/userdup), else
 * MPI_ERR_OTHER saying which callback returned what. */
static int callback_error(const keyval_t *kv, const char *which, int rc)
{
    if (mica_error_class_of(rc) > 0)
        return rc;
    return mica_error(MPI_ERR_OTHER, "the %s callback of %s keyval %d returned %d, which is no "
                      "error code", which, kind_name(kv->kind), kv->id, rc);
}

/* Fortran callbacks: SUBROUTINE COPY(OLD, KEYVAL, EXTRA_STATE, VAL_IN, VAL_OUT, FLAG, IERROR) and
 * DELETE(OBJ, KEYVAL, VAL, EXTRA_STATE, IERROR); the values are INTEGER(KIND=MPI_ADDRESS_KIND), or
 * INTEGER for MPI_KEYVAL_CREATE's (the low part of the stored word; set: sign-extended). */
typedef void fortran_copy_fn(MPI_Fint *obj, MPI_Fint *keyval, void *extra_state, void *in,
                             void *out, MPI_Fint *flag, MPI_Fint *ierror);
typedef void fortran_delete_fn(MPI_Fint *obj, MPI_Fint *keyval, void *value, void *extra_state,
                               MPI_Fint *ierror);

static fortran_val to_fortran(const keyval_t *kv, const void *value)
{
    fortran_val v;
    if (kv->fortran == MICA_FORTRAN_AINT)
        v.aint = (MPI_Aint)value;
    else
        v.fint = (MPI_Fint)(MPI_Aint)value;
    return v;
}

static void *from_fortran(const keyval_t *kv, fortran_val v)
{
    return (void *)(kv->fortran == MICA_FORTRAN_AINT ? v.aint : (MPI_Aint)v.fint);
}

/* The attribute whose word is a->value becomes set in Fortran the way `lang` says (0: C). */
static void set_lang(struct attr *a, int lang)
{
    a->lang = lang;
    if (lang == MICA_FORTRAN_AINT)
        a->f.aint = (MPI_Aint)a->value;
    else if (lang == MICA_FORTRAN_INT)
        a->f.fint = (MPI_Fint)(MPI_Aint)a->value;
}

/* What Fortran reads of an attribute: C's word, or the integer Fortran set (sign-extended). */
static void *word_of(const struct attr *a)
{
    if (a->lang == MICA_FORTRAN_AINT)
        return (void *)a->f.aint;
    if (a->lang == MICA_FORTRAN_INT)
        return (void *)(MPI_Aint)a->f.fint;
    return a->value;
}

/* What C reads: C's word, or a pointer to the integer Fortran set. */
static void *c_value(struct attr *a)
{
    return a->lang ? (void *)&a->f : a->value;
}

/* An attribute as its callbacks get it, taken with the lock held; its record and keyval are
 * held meanwhile (another thread or a callback may delete the attribute). */
typedef struct {
    struct attr *a;
    keyval_t *kv;
    void *word, *c;                   /* what Fortran and C read */
    int lang;
} held_t;

/* Fortran's callbacks get the word whichever language set it. */
static int run_fortran_delete(const keyval_t *kv, uintptr_t handle, void *value)
{
    MPI_Fint obj = mica_fortran_c2f(kv->kind, (const void *)handle), id = kv->id;
    MPI_Fint ierror = MPI_SUCCESS;
    fortran_val val = to_fortran(kv, value), extra = to_fortran(kv, kv->extra_state);
    fortran_delete_fn *fn = (fortran_delete_fn *)(void (*)(void))kv->del.comm;
    fn(&obj, &id, &val, &extra, &ierror);
    return ierror;
}

/* The copy is an attribute set in Fortran, as the keyval's callbacks do. */
static int run_fortran_copy(const keyval_t *kv, uintptr_t handle, void *in, struct attr *out,
                            int *flag)
{
    MPI_Fint obj = mica_fortran_c2f(kv->kind, (const void *)handle), id = kv->id;
    MPI_Fint ierror = MPI_SUCCESS, fflag = 0;
    fortran_val vin = to_fortran(kv, in), vout = {0}, extra = to_fortran(kv, kv->extra_state);
    fortran_copy_fn *fn = (fortran_copy_fn *)(void (*)(void))kv->copy.comm;
    fn(&obj, &id, &extra, &vin, &vout, &fflag, &ierror);
    if (ierror == MPI_SUCCESS && fflag) {    /* any non-zero LOGICAL is .TRUE. */
        out->value = from_fortran(kv, vout);
        set_lang(out, kv->fortran);
        *flag = 1;
    }
    return ierror;
}

void mica_fortran_keyval(int keyval, int style)
{
    pthread_mutex_lock(&lock);
    keyval_t *kv = keyval >= KEYVAL_FIRST && keyval - KEYVAL_FIRST < table_len
                       ? table[keyval - KEYVAL_FIRST] : NULL;
    if (kv)
        kv->fortran = style;
    pthread_mutex_unlock(&lock);
}

/* The user's copy and delete functions run without the big lock (core/progress.h): they may
 * call MPI. */
static int run_delete(const held_t *h, uintptr_t handle)
{
    const keyval_t *kv = h->kv;
    void *value = h->c;
    int rc = MPI_SUCCESS, held = mica_callback_begin();
    if (kv->fortran && kv->del.comm)
        rc = run_fortran_delete(kv, handle, h->word);
    else if (kv->kind == MICA_COMM && kv->del.comm)
        rc = kv->del.comm((MPI_Comm)handle, kv->id, value, kv->extra_state);
    else if (kv->kind == MICA_TYPE && kv->del.type)
        rc = kv->del.type((MPI_Datatype)handle, kv->id, value, kv->extra_state);
    else if (kv->kind == MICA_WIN && kv->del.win)
        rc = kv->del.win((MPI_Win)handle, kv->id, value, kv->extra_state);
    mica_callback_end(held);
    return rc == MPI_SUCCESS ? rc : callback_error(kv, "delete", rc);
}

/* The copy of attribute `in` for a duplicate of object `handle`: *flag says whether it has one.
 * MPI_*_DUP_FN's keeps the language that set the original; a user function's is its own. */
static int run_copy(const held_t *in, uintptr_t handle, struct attr *out, int *flag)
{
    keyval_t *kv = in->kv;
    int rc = MPI_SUCCESS;
    *out = (struct attr){.kv = kv};
    *flag = 0;
    switch (kv->copy_mode) {
    case COPY_NONE:
        break;
    case COPY_DUP:
        out->value = in->word;
        set_lang(out, in->lang);
        *flag = 1;
        break;
    case COPY_USER: {
        int held = mica_callback_begin();
        if (kv->fortran)
            rc = run_fortran_copy(kv, handle, in->word, out, flag);
        else if (kv->kind == MICA_COMM)
            rc = kv->copy.comm((MPI_Comm)handle, kv->id, kv->extra_state, in->c, &out->value,
                               flag);
        else
            rc = kv->copy.type((MPI_Datatype)handle, kv->id, kv->extra_state, in->c,
                               &out->value, flag);
        mica_callback_end(held);
        break;
    }
    }
    return rc == MPI_SUCCESS ? rc : callback_error(kv, "copy", rc);
}

/* --- attribute lists (the lock held) ---------------------------------------------------------- */

static int find_attr(const mica_attrs_t *l, const keyval_t *kv)
{
    for (int i = 0; l && i < l->n; i++)
        if (l->a[i]->kv == kv)
            return i;
    return -1;
}

static int append(mica_attrs_t **l, const struct attr *init)
{
    if (!*l || (*l)->n == (*l)->cap) {
        int cap = *l ? 2 * (*l)->cap : 4;
        mica_attrs_t *m = realloc(*l, sizeof *m + (size_t)cap * sizeof m->a[0]);
        if (!m)
            return mica_error(MPI_ERR_NO_MEM, "no memory for another attribute");
        if (!*l)
            m->n = 0;
        m->cap = cap;
        *l = m;
    }
    struct attr *a = malloc(sizeof *a);
    if (!a)
        return mica_error(MPI_ERR_NO_MEM, "no memory for another attribute");
    *a = *init;
    a->refs = 1;
    a->kv->refs++;
    (*l)->a[(*l)->n++] = a;
    return MPI_SUCCESS;
}

static void unref(struct attr *a)
{
    if (--a->refs == 0)
        free(a);
}

static void remove_at(mica_attrs_t *l, int i)
{
    release(l->a[i]->kv);
    unref(l->a[i]);
    memmove(&l->a[i], &l->a[i + 1], (size_t)(l->n - i - 1) * sizeof l->a[0]);
    l->n--;
}

static held_t hold(struct attr *a)
{
    a->refs++;
    a->kv->refs++;
    return (held_t){.a = a, .kv = a->kv, .word = word_of(a), .c = c_value(a), .lang = a->lang};
}

static void unhold(const held_t *h)
{
    release(h->kv);
    unref(h->a);
}

/* Forget every attribute without running callbacks (a duplicate that failed). */
static void drop_all(mica_attrs_t **l)
{
    pthread_mutex_lock(&lock);
    while (*l && (*l)->n)
        remove_at(*l, (*l)->n - 1);
    free(*l);
    *l = NULL;
    pthread_mutex_unlock(&lock);
}

/* --- the operations, for any kind of object --------------------------------------------------- */

/* The value is C's: the Fortran binding marks it as Fortran's afterwards (mica_fortran_attr). */
static int set_attr(unsigned kind, uintptr_t handle, mica_attrs_t **attrs, int keyval,
                    void *value, const char *arg)
{
    int err = MPI_SUCCESS;
    pthread_mutex_lock(&lock);
    keyval_t *kv = find_user_keyval(keyval, kind, arg, "set", &err);
    int i = kv ? find_attr(*attrs, kv) : -1;
    struct attr set = {.kv = kv, .value = value};
    if (i >= 0) {
        /* As if the old value were deleted first: its delete callback runs, and may refuse. */
        held_t old = hold((*attrs)->a[i]);
        pthread_mutex_unlock(&lock);
        err = run_delete(&old, handle);
        pthread_mutex_lock(&lock);
        if (err == MPI_SUCCESS) {
            i = find_attr(*attrs, kv);
            if (i >= 0) {             /* the same record: its integer stays where it was */
                (*attrs)->a[i]->value = value;
                (*attrs)->a[i]->lang = 0;
            } else {
                err = append(attrs, &set);
            }
        }
        unhold(&old);
    } else if (kv) {
        err = append(attrs, &set);
    }
    pthread_mutex_unlock(&lock);
    return err;
}

static int get_attr(unsigned kind, mica_attrs_t **attrs, int keyval, void *attribute_val,
                    int *flag, const char *arg)
{
    if (!attribute_val)
        return mica_error(MPI_ERR_ARG, "attribute_val is NULL");
    int err = MPI_SUCCESS;
    pthread_mutex_lock(&lock);
    keyval_t *kv = find_keyval(keyval, kind, arg, &err);
    *flag = 0;
    if (kv && kv->value) {
        /* The predefined attributes hold on every communicator, as in MPICH (the standard
         * only requires them on MPI_COMM_WORLD); the value is a pointer to the int. */
        *(void **)attribute_val = kv->value;
        *flag = 1;
    } else if (kv) {
        int i = find_attr(*attrs, kv);
        if (i >= 0) {
            *(void **)attribute_val = c_value((*attrs)->a[i]);
            *flag = 1;
        }
    }
    pthread_mutex_unlock(&lock);
    return err;
}

/* Deleting an attribute that is not there succeeds with nothing to do (as MPICH). */
static int delete_attr(unsigned kind, uintptr_t handle, mica_attrs_t **attrs, int keyval,
                       const char *arg)
{
    int err = MPI_SUCCESS;
    pthread_mutex_lock(&lock);
    keyval_t *kv = find_user_keyval(keyval, kind, arg, "deleted", &err);
    int i = kv ? find_attr(*attrs, kv) : -1;
    if (i >= 0) {
        held_t old = hold((*attrs)->a[i]);
        pthread_mutex_unlock(&lock);
        err = run_delete(&old, handle);
        pthread_mutex_lock(&lock);
        if (err == MPI_SUCCESS && (i = find_attr(*attrs, kv)) >= 0)
            remove_at(*attrs, i);
        unhold(&old);
    }
    pthread_mutex_unlock(&lock);
    return err;
}

int mica_attr_delete_all(uintptr_t handle, mica_attrs_t **attrs)
{
    int err = MPI_SUCCESS;
    pthread_mutex_lock(&lock);
    /* A callback may set attributes on the object: they go too. */
    while (err == MPI_SUCCESS && *attrs && (*attrs)->n) {
        held_t last = hold((*attrs)->a[(*attrs)->n - 1]);
        pthread_mutex_unlock(&lock);
        err = run_delete(&last, handle);
        pthread_mutex_lock(&lock);
        int i;
        if (err == MPI_SUCCESS && (i = find_attr(*attrs, last.kv)) >= 0)
            remove_at(*attrs, i);
        unhold(&last);
    }
    if (err == MPI_SUCCESS) {
        free(*attrs);
        *attrs = NULL;
    }
    pthread_mutex_unlock(&lock);
    return err;
}

int mica_attr_copy_all(uintptr_t handle, mica_attrs_t **from, uintptr_t newhandle,
                       mica_attrs_t **to)
{
    /* The callbacks run on a snapshot: they may change the original's list meanwhile. */
    pthread_mutex_lock(&lock);
    int n = *from ? (*from)->n : 0;
    held_t *snap = n ? malloc((size_t)n * sizeof *snap) : NULL;
    if (n && !snap) {
        pthread_mutex_unlock(&lock);
        return mica_error(MPI_ERR_NO_MEM, "no memory to copy %d attributes", n);
    }
    for (int i = 0; i < n; i++)
        snap[i] = hold((*from)->a[i]);
    pthread_mutex_unlock(&lock);
    int err = MPI_SUCCESS;
    for (int i = 0; i < n && err == MPI_SUCCESS; i++) {
        struct attr out;
        int flag = 0;
        err = run_copy(&snap[i], handle, &out, &flag);
        if (err == MPI_SUCCESS && flag) {
            pthread_mutex_lock(&lock);
            err = append(to, &out);
            pthread_mutex_unlock(&lock);
        }
    }
    pthread_mutex_lock(&lock);
    for (int i = 0; i < n; i++)
        unhold(&snap[i]);
    pthread_mutex_unlock(&lock);
    free(snap);
    if (err != MPI_SUCCESS) {
        /* Undo the copies made: their delete callbacks free what the copies allocated. The
         * copy's error is the one reported. */
        (void)mica_attr_delete_all(newhandle, to);
        drop_all(to);
    }
    return err;
}

/* --- what Fortran set (interlang.h) ----------------------------------------------------------- */

/* The attribute list of object `handle` of `kind`; NULL if it is none. */
static mica_attrs_t **attrs_of(unsigned kind, const void *handle)
{
    void *o = mica_lookup(handle, kind);
    if (!o)
        return NULL;
    switch (kind) {
    case MICA_COMM: return &((mica_comm_t *)o)->attrs;
    case MICA_TYPE: return &((mica_type_t *)o)->attrs;
    case MICA_WIN: return &((mica_win_t *)o)->attrs;
    }
    return NULL;
}

/* The attribute of `keyval` on the object (the locks held); NULL if it has none. */
static struct attr *find_object_attr(unsigned kind, const void *handle, int keyval)
{
    mica_attrs_t **attrs = attrs_of(kind, handle);
    keyval_t *kv = attrs ? lookup_keyval(keyval) : NULL;
    int i = kv && kv->kind == kind ? find_attr(*attrs, kv) : -1;
    return i >= 0 ? (*attrs)->a[i] : NULL;
}

void mica_fortran_attr(unsigned kind, const void *handle, int keyval, int style)
{
    mica_lock();
    pthread_mutex_lock(&lock);
    struct attr *a = find_object_attr(kind, handle, keyval);
    if (a)
        set_lang(a, style);
    pthread_mutex_unlock(&lock);
    mica_unlock();
}

MPI_Aint mica_fortran_attr_value(unsigned kind, const void *handle, int keyval, void *value)
{
    MPI_Aint v = (MPI_Aint)value;
    mica_lock();
    pthread_mutex_lock(&lock);
    struct attr *a = find_object_attr(kind, handle, keyval);
    if (a && a->lang && value == c_value(a))
        v = (MPI_Aint)word_of(a);
    pthread_mutex_unlock(&lock);
    mica_unlock();
    return v;
}

/* --- communicators ---------------------------------------------------------------------------- */

static enum copy_mode comm_copy_mode(MPI_Comm_copy_attr_function *fn)
{
    return fn == MPI_COMM_NULL_COPY_FN ? COPY_NONE : fn == MPI_COMM_DUP_FN ? COPY_DUP : COPY_USER;
}

int mica_comm_create_keyval(MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                            MPI_Comm_delete_attr_function *comm_delete_attr_fn, int *comm_keyval,
                            void *extra_state)
{
    keyval_t kv = {.kind = MICA_COMM, .copy_mode = comm_copy_mode(comm_copy_attr_fn),
                   .copy.comm = comm_copy_attr_fn, .del.comm = comm_delete_attr_fn,
                   .extra_state = extra_state};
    return new_keyval(&kv, comm_keyval);
}

int mica_comm_free_keyval(int *comm_keyval)
{
    return free_keyval(comm_keyval, MICA_COMM, "comm_keyval");
}

int mica_comm_set_attr(mica_comm_t *comm, int comm_keyval, void *attribute_val)
{
    return set_attr(MICA_COMM, comm->eo.obj.handle, &comm->attrs, comm_keyval, attribute_val,
                    "comm_keyval");
}

int mica_comm_get_attr(mica_comm_t *comm, int comm_keyval, void *attribute_val, int *flag)
{
    return get_attr(MICA_COMM, &comm->attrs, comm_keyval, attribute_val, flag, "comm_keyval");
}

int mica_comm_delete_attr(mica_comm_t *comm, int comm_keyval)
{
    return delete_attr(MICA_COMM, comm->eo.obj.handle, &comm->attrs, comm_keyval,
                       "comm_keyval");
}

/* The deprecated MPI-1 forms: the same, with MPI_Copy_function and MPI_Delete_function. */

int mica_keyval_create(MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval,
                       void *extra_state)
{
    keyval_t kv = {.kind = MICA_COMM, .copy_mode = comm_copy_mode(copy_fn),
                   .copy.comm = copy_fn, .del.comm = delete_fn, .extra_state = extra_state};
    return new_keyval(&kv, keyval);
}

int mica_keyval_free(int *keyval)
{
    return free_keyval(keyval, MICA_COMM, "keyval");
}

int mica_attr_put(mica_comm_t *comm, int keyval, void *attribute_val)
{
    return set_attr(MICA_COMM, comm->eo.obj.handle, &comm->attrs, keyval, attribute_val,
                    "keyval");
}

int mica_attr_get(mica_comm_t *comm, int keyval, void *attribute_val, int *flag)
{
    return get_attr(MICA_COMM, &comm->attrs, keyval, attribute_val, flag, "keyval");
}

int mica_attr_delete(mica_comm_t *comm, int keyval)
{
    return delete_attr(MICA_COMM, comm->eo.obj.handle, &comm->attrs, keyval, "keyval");
}

/* --- datatypes -------------------------------------------------------------------------------- */

int mica_type_create_keyval(MPI_Type_copy_attr_function *type_copy_attr_fn,
                            MPI_Type_delete_attr_function *type_delete_attr_fn, int *type_keyval,
                            void *extra_state)
{
    enum copy_mode mode = type_copy_attr_fn == MPI_TYPE_NULL_COPY_FN ? COPY_NONE
                          : type_copy_attr_fn == MPI_TYPE_DUP_FN     ? COPY_DUP
                                                                     : COPY_USER;
    keyval_t kv = {.kind = MICA_TYPE, .copy_mode = mode, .copy.type = type_copy_attr_fn,
                   .del.type = type_delete_attr_fn, .extra_state = extra_state};
    return new_keyval(&kv, type_keyval);
}

int mica_type_free_keyval(int *type_keyval)
{
    return free_keyval(type_keyval, MICA_TYPE, "type_keyval");
}

int mica_type_set_attr(mica_type_t *datatype, int type_keyval, void *attribute_val)
{
    return set_attr(MICA_TYPE, datatype->obj.handle, &datatype->attrs, type_keyval,
                    attribute_val, "type_keyval");
}

int mica_type_get_attr(mica_type_t *datatype, int type_keyval, void *attribute_val, int *flag)
{
    return get_attr(MICA_TYPE, &datatype->attrs, type_keyval, attribute_val, flag,
                    "type_keyval");
}

int mica_type_delete_attr(mica_type_t *datatype, int type_keyval)
{
    return delete_attr(MICA_TYPE, datatype->obj.handle, &datatype->attrs, type_keyval,
                       "type_keyval");
}

/* --- windows (their predefined attributes are rma/win.c's) ---------------------------------- */

int mica_win_create_keyval(MPI_Win_copy_attr_function *win_copy_attr_fn,
                           MPI_Win_delete_attr_function *win_delete_attr_fn, int *win_keyval,
                           void *extra_state)
{
    (void)win_copy_attr_fn;           /* windows are never duplicated */
    keyval_t kv = {.kind = MICA_WIN, .copy_mode = COPY_NONE, .del.win = win_delete_attr_fn,
                   .extra_state = extra_state};
    return new_keyval(&kv, win_keyval);
}

int mica_win_free_keyval(int *win_keyval)
{
    return free_keyval(win_keyval, MICA_WIN, "win_keyval");
}

int mica_win_set_attr(mica_win_t *win, int win_keyval, void *attribute_val)
{
    return set_attr(MICA_WIN, win->eo.obj.handle, &win->attrs, win_keyval, attribute_val,
                    "win_keyval");
}

int mica_attr_win_get(mica_win_t *win, int win_keyval, void *attribute_val, int *flag)
{
    return get_attr(MICA_WIN, &win->attrs, win_keyval, attribute_val, flag, "win_keyval");
}

int mica_win_delete_attr(mica_win_t *win, int win_keyval)
{
    return delete_attr(MICA_WIN, win->eo.obj.handle, &win->attrs, win_keyval, "win_keyval");
}
