/* np: 1 2 3 4 8 */
/* MPI_Allgather, MPI_Allgatherv, MPI_Alltoall, MPI_Alltoallv, MPI_Alltoallw: MPI_IN_PLACE,
 * derived vector types against plain ints (gaps untouched), uneven counts and displacements,
 * small and large blocks (both alltoall algorithms), the large-count forms. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"

static int rank, size;

static int val(int from, int to, int i) { return 100000 * from + 1000 * to + i; }

static void allgather(int n)
{
    int *send = malloc(n * sizeof(int)), *recv = malloc(size * n * sizeof(int));
    for (int i = 0; i < n; i++)
        send[i] = val(rank, 0, i);
    for (int i = 0; i < size * n; i++)
        recv[i] = -1;
    CHECK(MPI_Allgather(send, n, MPI_INT, recv, n, MPI_INT, MPI_COMM_WORLD) == MPI_SUCCESS);
    int bad = 0;
    for (int i = 0; i < size * n; i++)
        bad += recv[i] != val(i / n, 0, i % n);
    CHECKF(!bad, "allgather of %d ints: %d wrong", n, bad);
    for (int i = 0; i < size * n; i++)
        recv[i] = i / n == rank ? val(rank, 0, i % n) : -1;
    CHECK(MPI_Allgather(MPI_IN_PLACE, 0, MPI_INT, recv, n, MPI_INT, MPI_COMM_WORLD) ==
          MPI_SUCCESS);
    bad = 0;
    for (int i = 0; i < size * n; i++)
        bad += recv[i] != val(i / n, 0, i % n);
    CHECKF(!bad, "allgather in place of %d ints: %d wrong", n, bad);
    free(send), free(recv);
}

/* Send 2 ints, receive one vector element (2 ints with a gap: extent 3 ints) per process. */
static void allgather_vector(void)
{
    MPI_Datatype vec;
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    int send[2] = {val(rank, 0, 0), val(rank, 0, 1)}, *recv = malloc(3 * size * sizeof(int));
    for (int i = 0; i < 3 * size; i++)
        recv[i] = -1;
    CHECK(MPI_Allgather(send, 2, MPI_INT, recv, 1, vec, MPI_COMM_WORLD) == MPI_SUCCESS);
    for (int r = 0; r < size; r++)
        CHECKF(recv[3 * r] == val(r, 0, 0) && recv[3 * r + 1] == -1 &&
               recv[3 * r + 2] == val(r, 0, 1), "allgather into vector, block %d", r);
    MPI_Type_free(&vec);
    free(recv);
}

static void allgatherv(void)
{
    int *counts = malloc(size * sizeof(int)), *displs = malloc(size * sizeof(int)), total = 0;
    for (int r = size - 1; r >= 0; r--) {
        counts[r] = (r * 5) % 4;      /* some zero */
        displs[r] = total + 2;
        total += counts[r] + 2;
    }
    int mine = counts[rank], send[4], *recv = malloc((total + 1) * sizeof(int));
    for (int i = 0; i < mine; i++)
        send[i] = val(rank, 1, i);
    for (int pass = 0; pass < 3; pass++) {
        for (int i = 0; i <= total; i++)
            recv[i] = -1;
        int rc;
        if (pass == 0) {
            rc = MPI_Allgatherv(send, mine, MPI_INT, recv, counts, displs, MPI_INT, MPI_COMM_WORLD);
        } else if (pass == 1) {
            for (int i = 0; i < mine; i++)
                recv[displs[rank] + i] = send[i];
            rc = MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_INT, recv, counts, displs,
                                MPI_INT, MPI_COMM_WORLD);
        } else {
            MPI_Count *cc = malloc(size * sizeof *cc);
            MPI_Aint *cd = malloc(size * sizeof *cd);
            for (int r = 0; r < size; r++)
                cc[r] = counts[r], cd[r] = displs[r];
            rc = MPI_Allgatherv_c(send, mine, MPI_INT, recv, cc, cd, MPI_INT, MPI_COMM_WORLD);
            free(cc), free(cd);
        }
        CHECK(rc == MPI_SUCCESS);
        for (int r = 0; r < size; r++) {
            for (int i = 0; i < counts[r]; i++)
                CHECKF(recv[displs[r] + i] == val(r, 1, i), "allgatherv pass %d rank %d [%d]=%d",
                       pass, r, i, recv[displs[r] + i]);
            CHECK(recv[displs[r] - 1] == -1 && recv[displs[r] - 2] == -1);
        }
    }
    free(counts), free(displs), free(recv);
}

static void alltoall(int n)
{
    int *send = malloc(size * n * sizeof(int)), *recv = malloc(size * n * sizeof(int));
    for (int i = 0; i < size * n; i++)
        send[i] = val(rank, i / n, i % n);
    for (int i = 0; i < size * n; i++)
        recv[i] = -1;
    CHECK(MPI_Alltoall(send, n, MPI_INT, recv, n, MPI_INT, MPI_COMM_WORLD) == MPI_SUCCESS);
    int bad = 0;
    for (int i = 0; i < size * n; i++)
        bad += recv[i] != val(i / n, rank, i % n);
    CHECKF(!bad, "alltoall of %d ints: %d wrong", n, bad);
    memcpy(recv, send, size * n * sizeof(int));
    CHECK(MPI_Alltoall(MPI_IN_PLACE, 0, MPI_INT, recv, n, MPI_INT, MPI_COMM_WORLD) ==
          MPI_SUCCESS);
    bad = 0;
    for (int i = 0; i < size * n; i++)
        bad += recv[i] != val(i / n, rank, i % n);
    CHECKF(!bad, "alltoall in place of %d ints: %d wrong", n, bad);
    free(send), free(recv);
}

/* Alltoall with a vector receive type: block j is 2 ints at 3j and 3j + 2. */
static void alltoall_vector(void)
{
    MPI_Datatype vec;
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    int *send = malloc(2 * size * sizeof(int)), *recv = malloc(3 * size * sizeof(int));
    for (int i = 0; i < 2 * size; i++)
        send[i] = val(rank, i / 2, i % 2);
    for (int i = 0; i < 3 * size; i++)
        recv[i] = -1;
    CHECK(MPI_Alltoall(send, 2, MPI_INT, recv, 1, vec, MPI_COMM_WORLD) == MPI_SUCCESS);
    for (int j = 0; j < size; j++)
        CHECKF(recv[3 * j] == val(j, rank, 0) && recv[3 * j + 1] == -1 &&
               recv[3 * j + 2] == val(j, rank, 1), "alltoall into vector, block %d", j);
    MPI_Type_free(&vec);
    free(send), free(recv);
}

/* Alltoallv: rank i sends (i + j) % 3 ints to rank j; blocks in reverse order with gaps. */
static int cnt(int from, int to) { return (from + to) % 3 + (from == to); }

static void alltoallv(int scale)
{
    int *sc = malloc(size * sizeof(int)), *sd = malloc(size * sizeof(int));
    int *rc = malloc(size * sizeof(int)), *rd = malloc(size * sizeof(int)), st = 0, rt = 0;
    for (int j = size - 1; j >= 0; j--) {
        sc[j] = cnt(rank, j) * scale, sd[j] = st, st += sc[j] + 1;
        rc[j] = cnt(j, rank) * scale, rd[j] = rt + 1, rt += rc[j] + 1;
    }
    int *send = malloc((st + 1) * sizeof(int)), *recv = malloc((rt + 1) * sizeof(int));
    for (int j = 0; j < size; j++)
        for (int i = 0; i < sc[j]; i++)
            send[sd[j] + i] = val(rank, j, i);
    for (int pass = 0; pass < 4; pass++) {
        for (int i = 0; i <= rt; i++)
            recv[i] = -1;
        int err;
        if (pass == 0) {
            err = MPI_Alltoallv(send, sc, sd, MPI_INT, recv, rc, rd, MPI_INT, MPI_COMM_WORLD);
        } else if (pass == 1) {
            /* In place: the send blocks have the receive layout (counts are symmetric here
             * only when scale keeps cnt(rank, j) == cnt(j, rank): it does). */
            for (int j = 0; j < size; j++)
                for (int i = 0; i < rc[j]; i++)
                    recv[rd[j] + i] = val(rank, j, i);
            err = MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_INT, recv, rc, rd,
                                MPI_INT, MPI_COMM_WORLD);
        } else if (pass == 2) {
            MPI_Count *c1 = malloc(size * sizeof *c1), *c2 = malloc(size * sizeof *c2);
            MPI_Aint *d1 = malloc(size * sizeof *d1), *d2 = malloc(size * sizeof *d2);
            for (int j = 0; j < size; j++)
                c1[j] = sc[j], c2[j] = rc[j], d1[j] = sd[j], d2[j] = rd[j];
            err = MPI_Alltoallv_c(send, c1, d1, MPI_INT, recv, c2, d2, MPI_INT, MPI_COMM_WORLD);
            free(c1), free(c2), free(d1), free(d2);
        } else {
            /* Alltoallw: byte displacements, a type per peer (ints as pairs where even). */
            MPI_Datatype *st_ = malloc(size * sizeof *st_), *rt_ = malloc(size * sizeof *rt_);
            int *c1 = malloc(size * sizeof(int)), *c2 = malloc(size * sizeof(int));
            int *d1 = malloc(size * sizeof(int)), *d2 = malloc(size * sizeof(int));
            MPI_Datatype two;
            MPI_Type_contiguous(2, MPI_INT, &two);
            MPI_Type_commit(&two);
            for (int j = 0; j < size; j++) {
                st_[j] = sc[j] % 2 ? MPI_INT : two;
                c1[j] = sc[j] % 2 ? sc[j] : sc[j] / 2;
                rt_[j] = MPI_INT, c2[j] = rc[j];
                d1[j] = sd[j] * (int)sizeof(int), d2[j] = rd[j] * (int)sizeof(int);
            }
            err = MPI_Alltoallw(send, c1, d1, st_, recv, c2, d2, rt_, MPI_COMM_WORLD);
            MPI_Type_free(&two);
            free(st_), free(rt_), free(c1), free(c2), free(d1), free(d2);
        }
        CHECK(err == MPI_SUCCESS);
        int bad = 0;
        for (int j = 0; j < size; j++) {
            for (int i = 0; i < rc[j]; i++)
                bad += recv[rd[j] + i] != val(j, rank, i);
            bad += recv[rd[j] - 1] != -1;
        }
        CHECKF(!bad, "alltoallv pass %d scale %d: %d wrong", pass, scale, bad);
    }
    free(sc), free(sd), free(rc), free(rd), free(send), free(recv);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    allgather(1);
    allgather(5);
    allgather(100000);
    allgather_vector();
    allgatherv();
    alltoall(1);
    alltoall(3);
    alltoall(5000);                   /* pairwise exchange */
    alltoall_vector();
    alltoallv(1);
    alltoallv(1000);
    long long x = rank, *all = malloc(size * sizeof *all);
    CHECK(MPI_Allgather_c(&x, 1, MPI_LONG_LONG, all, 1, MPI_LONG_LONG, MPI_COMM_WORLD) ==
          MPI_SUCCESS);
    for (int r = 0; r < size; r++)
        CHECK(all[r] == r);
    for (int r = 0; r < size; r++)
        all[r] = rank * size + r;
    long long *back = malloc(size * sizeof *back);
    CHECK(MPI_Alltoall_c(all, 1, MPI_LONG_LONG, back, 1, MPI_LONG_LONG, MPI_COMM_WORLD) ==
          MPI_SUCCESS);
    for (int r = 0; r < size; r++)
        CHECK(back[r] == r * size + rank);
    free(all), free(back);
    MPI_Finalize();
    return CHECK_RESULT();
}
