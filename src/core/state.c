/* The process's MPI state (state.h): where it is in its life, what MPI_Init gave it, and ending
 * the job. MPI_Init and MPI_Finalize (mpi/init.c) set it. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#include "core/state.h"
#include "runtime/boot.h"

enum mica_phase mica_phase = MICA_BEFORE;
int mica_thread_level = MPI_THREAD_SINGLE;
pthread_t mica_main_thread;
int mica_runtime_up;

_Noreturn void mica_abort_job(int code, const char *msg)
{
    fflush(NULL);
    code &= 0xff;
    mica_boot_abort(code ? code : 1, msg);
    _exit(code ? code : 1);           /* not reached */
}
