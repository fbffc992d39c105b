/* np: 1 2 3 4 8 */
/* MPI_THREAD_MULTIPLE: two threads each create, use and free communicators (dups and splits of
 * their own parent) and run collectives on them at the same time; the context ids they get never
 * clash, and the results are right. */
#include <mpi.h>
#include <pthread.h>
#include <stdlib.h>

#include "../check.h"

static int rank, size;
static MPI_Comm parent[2];

static void *work(void *arg)
{
    int t = (int)(long)arg;
    for (int i = 0; i < 40; i++) {
        MPI_Comm c;
        if (i % 2)
            MPI_Comm_dup(parent[t], &c);
        else
            MPI_Comm_split(parent[t], 0, rank, &c);
        int v = rank + t * 1000 + i, sum = -1;
        MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, c);
        CHECKF(sum == size * (size - 1) / 2 + size * (t * 1000 + i), "thread %d round %d: %d", t,
               i, sum);
        int b = rank == i % size ? i : -1;
        MPI_Bcast(&b, 1, MPI_INT, i % size, c);
        CHECK(b == i);
        MPI_Comm_free(&c);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(provided == MPI_THREAD_MULTIPLE);
    MPI_Comm_dup(MPI_COMM_WORLD, &parent[0]);
    MPI_Comm_dup(MPI_COMM_WORLD, &parent[1]);
    pthread_t th;
    pthread_create(&th, NULL, work, (void *)1L);
    work((void *)0L);
    pthread_join(th, NULL);
    MPI_Comm_free(&parent[0]);
    MPI_Comm_free(&parent[1]);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return CHECK_RESULT();
}
