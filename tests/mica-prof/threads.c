/* MPI_THREAD_MULTIPLE, for test_threads.sh: on each rank NT threads each send NM messages of
 * 64 bytes to the next rank and receive NM from the previous one (tag = thread). Prints
 * "threads: unsupported" and succeeds if the library does not provide MPI_THREAD_MULTIPLE. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

#define NT 4
#define NM 50
static int rank, n;

static void *work(void *arg)
{
    int t = (int)(long)arg;
    char buf[64] = {0}, rb[64];
    for (int i = 0; i < NM; i++) {
        MPI_Send(buf, 64, MPI_BYTE, (rank + 1) % n, t, MPI_COMM_WORLD);
        MPI_Recv(rb, 64, MPI_BYTE, (rank + n - 1) % n, t, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided;
    pthread_t th[NT];
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided < MPI_THREAD_MULTIPLE) {
        printf("threads: unsupported\n");
        MPI_Finalize();
        return 0;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    for (long t = 0; t < NT; t++)
        pthread_create(&th[t], NULL, work, (void *)t);
    for (int t = 0; t < NT; t++)
        pthread_join(th[t], NULL);
    MPI_Finalize();
    return 0;
}
