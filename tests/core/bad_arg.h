/* The valid objects and values test_bad_arg.py's generated program calls functions with, and
 * the invalid ones it puts in their place one at a time. Every object made here gets a handler
 * that records which object raised an error, and returns. */
#include <limits.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *dir;              /* this case's own directory, for files */
static int tag_ub;
static const char *seen = "none";    /* the kind of handler that ran last, and its object */
static const void *seen_handle, *expect_handle;
static MPI_Errhandler eh_comm, eh_win, eh_file, eh_session;

static void h_comm(MPI_Comm *c, int *code, ...) { seen = "comm"; seen_handle = (const void *)*c; (void)code; }
static void h_win(MPI_Win *w, int *code, ...) { seen = "win"; seen_handle = (const void *)*w; (void)code; }
static void h_file(MPI_File *f, int *code, ...) { seen = "file"; seen_handle = (const void *)*f; (void)code; }
static void h_session(MPI_Session *s, int *code, ...) { seen = "session"; seen_handle = (const void *)*s; (void)code; }

/* Memory: each call gets fresh zeroed space, big enough for any argument of the sweep. */
static void *area(void)
{
    static char pool[32][1 << 14] __attribute__((aligned(64)));
    static int next;
    return pool[next++ % 32];
}
static void *v_out(void) { return area(); }
static void *v_buf(void) { return area(); }
static void *v_bsend_buf(void) { return area(); }
static int *v_ints(int x) { int *a = area(); for (int i = 0; i < 64; i++) a[i] = x; return a; }
static int *v_ones(void) { return v_ints(1); }
static int *v_zeros(void) { return v_ints(0); }
static int *v_intp(int x) { return v_ints(x); }
static MPI_Aint *v_aint_ones(void) { MPI_Aint *a = area(); for (int i = 0; i < 64; i++) a[i] = 1; return a; }
static MPI_Aint *v_aint_zeros(void) { return area(); }
static MPI_Count *v_count_ones(void) { MPI_Count *a = area(); for (int i = 0; i < 64; i++) a[i] = 1; return a; }
static MPI_Count *v_count_zeros(void) { return area(); }
static int (*v_ranges(void))[3] { int (*r)[3] = area(); r[0][0] = 0; r[0][1] = 0; r[0][2] = 1; return r; }
static MPI_Request *v_reqp(void) { return area(); }
static char long_key[MPI_MAX_INFO_KEY + 8], long_value[MPI_MAX_INFO_VAL + 8];
static char win_base[64] __attribute__((aligned(64)));
static int v_fn(void) { return MPI_SUCCESS; }
static void user_op(void *in, void *inout, int *len, MPI_Datatype *t) { (void)in; (void)inout; (void)len; (void)t; }
static int gq(void *s, MPI_Status *st) { (void)s; MPI_Status_set_elements(st, MPI_BYTE, 0); MPI_Status_set_cancelled(st, 0); st->MPI_SOURCE = MPI_UNDEFINED; st->MPI_TAG = MPI_UNDEFINED; return MPI_SUCCESS; }
static int gf(void *s) { (void)s; return MPI_SUCCESS; }
static int gc(void *s, int c) { (void)s; (void)c; return MPI_SUCCESS; }

/* Valid objects: fresh for every call, so a call that frees or changes one harms nothing. */
static MPI_Comm v_comm(void)
{
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Comm_set_errhandler(c, eh_comm);
    return c;
}
static MPI_Comm v_cart(void)
{
    MPI_Comm c;
    int dims[1] = {1}, periods[1] = {1};
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &c);
    MPI_Comm_set_errhandler(c, eh_comm);
    return c;
}
static MPI_Comm v_graph(void)
{
    MPI_Comm c;
    int index[1] = {1}, edges[1] = {0};
    MPI_Graph_create(MPI_COMM_WORLD, 1, index, edges, 0, &c);
    MPI_Comm_set_errhandler(c, eh_comm);
    return c;
}
static MPI_Comm v_distgraph(void)
{
    MPI_Comm c;
    int one[1] = {0}, w[1] = {1};
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, one, w, 1, one, w, MPI_INFO_NULL, 0, &c);
    MPI_Comm_set_errhandler(c, eh_comm);
    return c;
}
static MPI_Datatype v_uncommitted(void)
{
    MPI_Datatype t;
    MPI_Type_contiguous(2, MPI_INT, &t);
    return t;
}
static MPI_Datatype v_derived(void)
{
    MPI_Datatype t = v_uncommitted();
    MPI_Type_commit(&t);
    return t;
}
static MPI_Op v_userop(void)
{
    MPI_Op op;
    MPI_Op_create(user_op, 1, &op);
    return op;
}
static MPI_Info v_info(void)
{
    MPI_Info i;
    MPI_Info_create(&i);
    MPI_Info_set(i, "k", "v");
    return i;
}
static MPI_Group v_group(void)
{
    MPI_Group g;
    MPI_Comm_group(MPI_COMM_WORLD, &g);
    return g;
}
static MPI_Errhandler v_errhandler(void)
{
    MPI_Errhandler e;
    MPI_Comm_create_errhandler(h_comm, &e);
    return e;
}
static MPI_Request v_request(void)
{
    MPI_Request r;
    MPI_Irecv(v_buf(), 1, MPI_INT, MPI_PROC_NULL, 0, v_comm(), &r);
    return r;
}
static MPI_Request v_prequest(void)
{
    MPI_Request r;
    MPI_Recv_init(v_buf(), 1, MPI_INT, MPI_PROC_NULL, 0, v_comm(), &r);
    return r;
}
/* Started partitioned requests of 4 partitions (to and from MPI_PROC_NULL). */
static MPI_Request v_part(int send)
{
    MPI_Request r;
    if (send)
        MPI_Psend_init(v_buf(), 4, 1, MPI_INT, MPI_PROC_NULL, 0, v_comm(), MPI_INFO_NULL, &r);
    else
        MPI_Precv_init(v_buf(), 4, 1, MPI_INT, MPI_PROC_NULL, 0, v_comm(), MPI_INFO_NULL, &r);
    MPI_Start(&r);
    return r;
}
static MPI_Request v_grequest(void)
{
    MPI_Request r;
    MPI_Grequest_start(gq, gf, gc, NULL, &r);
    return r;
}
static MPI_Win v_win(void)
{
    MPI_Win w;
    MPI_Win_create(win_base, sizeof win_base, 1, MPI_INFO_NULL, v_comm(), &w);
    MPI_Win_set_errhandler(w, eh_win);
    return w;
}
static MPI_Win v_win_lockall(void) { MPI_Win w = v_win(); MPI_Win_lock_all(0, w); return w; }
static MPI_Win v_win_locked(void) { MPI_Win w = v_win(); MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, w); return w; }
static MPI_Win v_win_dynamic(void)
{
    MPI_Win w;
    MPI_Win_create_dynamic(MPI_INFO_NULL, v_comm(), &w);
    MPI_Win_set_errhandler(w, eh_win);
    return w;
}
static MPI_Win v_win_dyn_attached(void) { MPI_Win w = v_win_dynamic(); MPI_Win_attach(w, win_base, 64); return w; }
static MPI_Win v_win_posted(void) { MPI_Win w = v_win(); MPI_Win_post(v_group(), 0, w); return w; }
static MPI_Win v_win_started(void) { MPI_Win w = v_win_posted(); MPI_Win_start(v_group(), 0, w); return w; }
static MPI_Win v_win_completed(void) { MPI_Win w = v_win_started(); MPI_Win_complete(w); return w; }
static char *v_new_file(void)
{
    static int n;
    char *name = area();
    snprintf(name, 4096, "%s/f%d", dir, n++);
    return name;
}
static char *v_existing_file(void)
{
    char *name = v_new_file();
    FILE *f = fopen(name, "w");
    if (f)
        fclose(f);
    return name;
}
static MPI_File v_file(void)
{
    MPI_File f;
    MPI_File_open(MPI_COMM_SELF, v_new_file(), MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                  MPI_INFO_NULL, &f);
    MPI_File_set_errhandler(f, eh_file);
    return f;
}
static MPI_Message v_message(void)
{
    MPI_Comm c = v_comm();
    MPI_Message m;
    MPI_Send(v_buf(), 1, MPI_INT, 0, 0, c);
    MPI_Mprobe(0, 0, c, &m, MPI_STATUS_IGNORE);
    return m;
}
static MPI_Session v_session(void)
{
    MPI_Session s;
    MPI_Session_init(MPI_INFO_NULL, eh_session, &s);
    return s;
}
static MPI_Group v_session_group(void)
{
    MPI_Group g;
    MPI_Group_from_session_pset(v_session(), "mpi://WORLD", &g);
    return g;
}
static int v_class(void) { int c; MPI_Add_error_class(&c); return c; }
static int v_code(void) { int c; MPI_Add_error_code(v_class(), &c); return c; }
static int v_code_with_string(void) { int c = v_code(); MPI_Add_error_string(c, "bad_arg"); return c; }
static void *v_mem(void) { void *p; MPI_Alloc_mem(64, MPI_INFO_NULL, &p); return p; }
static int v_keyval_comm(void) { int k; MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k, NULL); return k; }
static int v_keyval_type(void) { int k; MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &k, NULL); return k; }
static int v_keyval_win(void) { int k; MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &k, NULL); return k; }
static MPI_Comm *v_comm_ref(MPI_Comm h) { MPI_Comm *p = area(); *p = h; return p; }
static MPI_Datatype *v_type_ref(MPI_Datatype h) { MPI_Datatype *p = area(); *p = h; return p; }
static MPI_Op *v_op_ref(MPI_Op h) { MPI_Op *p = area(); *p = h; return p; }
static MPI_Info *v_info_ref(MPI_Info h) { MPI_Info *p = area(); *p = h; return p; }
static MPI_Group *v_group_ref(MPI_Group h) { MPI_Group *p = area(); *p = h; return p; }
static MPI_Errhandler *v_errhandler_ref(MPI_Errhandler h) { MPI_Errhandler *p = area(); *p = h; return p; }
static MPI_Request *v_request_ref(MPI_Request h) { MPI_Request *p = area(); *p = h; return p; }
static MPI_Win *v_win_ref(MPI_Win h) { MPI_Win *p = area(); *p = h; return p; }
static MPI_File *v_file_ref(MPI_File h) { MPI_File *p = area(); *p = h; return p; }
static MPI_Message *v_message_ref(MPI_Message h) { MPI_Message *p = area(); *p = h; return p; }
static MPI_Session *v_session_ref(MPI_Session h) { MPI_Session *p = area(); *p = h; return p; }
/* Arrays of handles: the first element made by the call's argument, the rest alike. */
#define ARRAY(kind, T, make) \
    static T *v_##kind##_array(T first) { T *a = area(); a[0] = first; for (int i = 1; i < 8; i++) a[i] = make; return a; }
ARRAY(type, MPI_Datatype, MPI_INT)
ARRAY(request, MPI_Request, v_request())
ARRAY(comm, MPI_Comm, v_comm())

/* Invalid: handles of objects that were freed. */
static MPI_Comm freed_comm(void) { MPI_Comm c = v_comm(), d = c; MPI_Comm_free(&c); return d; }
static MPI_Datatype freed_type(void) { MPI_Datatype t = v_derived(), d = t; MPI_Type_free(&t); return d; }
static MPI_Op freed_op(void) { MPI_Op o = v_userop(), d = o; MPI_Op_free(&o); return d; }
static MPI_Info freed_info(void) { MPI_Info i = v_info(), d = i; MPI_Info_free(&i); return d; }
static MPI_Group freed_group(void) { MPI_Group g = v_group(), d = g; MPI_Group_free(&g); return d; }
static MPI_Errhandler freed_errhandler(void) { MPI_Errhandler e = v_errhandler(), d = e; MPI_Errhandler_free(&e); return d; }
static MPI_Request freed_request(void) { MPI_Request r = v_request(), d = r; MPI_Wait(&r, MPI_STATUS_IGNORE); return d; }
static MPI_Win freed_win(void) { MPI_Win w = v_win(), d = w; MPI_Win_free(&w); return d; }
static MPI_File freed_file(void) { MPI_File f = v_file(), d = f; MPI_File_close(&f); return d; }
static MPI_Message freed_message(void) { MPI_Message m = v_message(), d = m; MPI_Mrecv(v_buf(), 1, MPI_INT, &m, MPI_STATUS_IGNORE); return d; }
static MPI_Session freed_session(void) { MPI_Session s = v_session(), d = s; MPI_Session_finalize(&s); return d; }
static int freed_keyval(void) { int k = v_keyval_comm(), d = k; MPI_Comm_free_keyval(&k); return d; }

static void start(void)
{
    MPI_Init(NULL, NULL);
    MPI_Comm_create_errhandler(h_comm, &eh_comm);
    MPI_Win_create_errhandler(h_win, &eh_win);
    MPI_File_create_errhandler(h_file, &eh_file);
    MPI_Session_create_errhandler(h_session, &eh_session);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh_comm);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, eh_comm);
    MPI_File_set_errhandler(MPI_FILE_NULL, eh_file);
    int *ub, flag;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
    tag_ub = *ub;
    memset(long_key, 'k', sizeof long_key - 1);
    memset(long_value, 'v', sizeof long_value - 1);
    fflush(stdout);
}

static void finish(int rc)
{
    const char *who = seen;
    int same = seen_handle == expect_handle, cls = -1;
    if (MPI_Error_class(rc, &cls) != MPI_SUCCESS)
        cls = -1;
    printf("returned %d class %d handler %s same %d\n", rc, cls, who, same);
    fflush(stdout);
    _exit(0);                         /* no MPI_Finalize: the call may have left a mess */
}
