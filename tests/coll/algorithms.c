/* One collective (argv[1]) in its blocking, nonblocking and persistent forms, on every count
 * from 0 to 3 per process and every root, against the result computed here; reductions use a
 * non-commutative operation (affine maps composed in rank order), so an algorithm that mixes
 * the order fails. test_algorithms.sh runs it once per algorithm of src/coll/algorithms.tsv,
 * forced with MICA_<COLLECTIVE>_ALGORITHM. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"

#define MAX 64
static int rank, size;
static MPI_Op compose_op;
static MPI_Datatype affine;

/* inout = in "then" inout for affine maps x -> a x + b (mod 2^32). */
static void compose(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    unsigned *f = in, *g = inout;
    for (int i = 0; i < *len; i++, f += 2, g += 2) {
        unsigned a = g[0] * f[0], b = g[0] * f[1] + g[1];
        g[0] = a, g[1] = b;
    }
}

/* Process p's map for element i, and the composition of those of processes 0 .. p. */
static void map_of(int p, int i, unsigned f[2])
{
    f[0] = 2 * (unsigned)p + 3, f[1] = (unsigned)(p * 7 + i);
}

static void composed(int upto, int i, unsigned want[2])
{
    want[0] = 1, want[1] = 0;
    for (int p = 0; p <= upto; p++) {
        unsigned f[2];
        int one = 1;
        map_of(p, i, f);
        compose(want, f, &one, NULL);
        memcpy(want, f, sizeof f);
    }
}

/* Start form k (0 blocking, 1 nonblocking, 2 persistent) of the collective the callback runs. */
typedef int coll_fn(int form, void *buf, void *out, int n, int root, MPI_Request *req);

static int bcast(int form, void *buf, void *out, int n, int root, MPI_Request *req)
{
    (void)out;
    if (form == 0)
        return MPI_Bcast(buf, n, MPI_INT, root, MPI_COMM_WORLD);
    if (form == 1)
        return MPI_Ibcast(buf, n, MPI_INT, root, MPI_COMM_WORLD, req);
    return MPI_Bcast_init(buf, n, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, req);
}

static int reduce(int form, void *buf, void *out, int n, int root, MPI_Request *req)
{
    if (form == 0)
        return MPI_Reduce(buf, out, n, affine, compose_op, root, MPI_COMM_WORLD);
    if (form == 1)
        return MPI_Ireduce(buf, out, n, affine, compose_op, root, MPI_COMM_WORLD, req);
    return MPI_Reduce_init(buf, out, n, affine, compose_op, root, MPI_COMM_WORLD, MPI_INFO_NULL,
                           req);
}

static int allreduce(int form, void *buf, void *out, int n, int root, MPI_Request *req)
{
    (void)root;
    if (form == 0)
        return MPI_Allreduce(buf, out, n, affine, compose_op, MPI_COMM_WORLD);
    if (form == 1)
        return MPI_Iallreduce(buf, out, n, affine, compose_op, MPI_COMM_WORLD, req);
    return MPI_Allreduce_init(buf, out, n, affine, compose_op, MPI_COMM_WORLD, MPI_INFO_NULL,
                              req);
}

static int barrier(int form, void *buf, void *out, int n, int root, MPI_Request *req)
{
    (void)buf, (void)out, (void)n, (void)root;
    if (form == 0)
        return MPI_Barrier(MPI_COMM_WORLD);
    if (form == 1)
        return MPI_Ibarrier(MPI_COMM_WORLD, req);
    return MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, req);
}

static int run(coll_fn *fn, int form, void *buf, void *out, int n, int root)
{
    MPI_Request req = MPI_REQUEST_NULL;
    int rc = fn(form, buf, out, n, root, &req);
    if (rc == MPI_SUCCESS && form == 2)
        rc = MPI_Start(&req);
    if (rc == MPI_SUCCESS && form > 0)
        rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (form == 2)
        MPI_Request_free(&req);
    return rc;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Op_create(compose, 0, &compose_op);
    MPI_Type_contiguous(2, MPI_UNSIGNED, &affine);
    MPI_Type_commit(&affine);
    const char *name = argc > 1 ? argv[1] : "";
    coll_fn *fn = !strcmp(name, "bcast") ? bcast : !strcmp(name, "reduce") ? reduce
                : !strcmp(name, "allreduce") ? allreduce : !strcmp(name, "barrier") ? barrier
                : NULL;
    CHECKF(fn, "no test for the collective '%s': add one to tests/coll/algorithms.c", name);
    int rooted = fn == bcast || fn == reduce;
    for (int n = 0; fn && n <= 3 * size && n < MAX; n++)
        for (int root = 0; root < (rooted ? size : 1); root++)
            for (int form = 0; form < 3; form++) {
                unsigned buf[MAX][2], out[MAX][2], want[2];
                for (int i = 0; i < n; i++) {
                    map_of(rank, i, buf[i]);
                    out[i][0] = out[i][1] = 0xdead;
                }
                if (fn == bcast && rank != root)
                    memset(buf, 0xff, sizeof buf);
                CHECKF(run(fn, form, buf, out, fn == bcast ? 2 * n : n, root) == MPI_SUCCESS,
                       "n %d root %d form %d", n, root, form);
                for (int i = 0; i < n; i++) {
                    if (fn == bcast) {
                        map_of(root, i, want);
                        CHECKF(!memcmp(buf[i], want, sizeof want), "n %d root %d form %d [%d]",
                               n, root, form, i);
                    } else if (fn == allreduce || (fn == reduce && rank == root)) {
                        composed(size - 1, i, want);
                        CHECKF(!memcmp(out[i], want, sizeof want), "n %d root %d form %d [%d]",
                               n, root, form, i);
                    }
                }
            }
    MPI_Op_free(&compose_op);
    MPI_Type_free(&affine);
    MPI_Finalize();
    return CHECK_RESULT();
}
