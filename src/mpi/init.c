/* MPI_Init .. MPI_Finalize, thread levels, and MPI_Abort. Starting MPI starts the runtime and
 * the modules above the core, which hang their operations on the core's seams. */
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coll/coll.h"
#include "core/attr.h"
#include "core/comm.h"
#include "core/errors.h"
#include "core/progress.h"
#include "core/tunables.h"
#include "mpi/intercomm.h"
#include "mpi/orchestrators.h"
#include "pt2pt/engine.h"
#include "runtime/boot.h"
#include "topo/topo.h"
#include "transport/transport.h"
#include "core/state.h"
#include "core_api.h"

static int self_world[1];             /* MPI_COMM_SELF's one rank, in MPI_COMM_WORLD */

static int valid_level(int level)
{
    return level == MPI_THREAD_SINGLE || level == MPI_THREAD_FUNNELED ||
           level == MPI_THREAD_SERIALIZED || level == MPI_THREAD_MULTIPLE;
}

/* The runtime (boot, shared memory, point-to-point) runs while MPI_Init's world model or any
 * session needs it: the first of them starts it, the last to finalize stops it, and a later
 * MPI_Session_init starts it again. Stopping is collective over the job (every process stops
 * at its own last finalize); the launcher's connection stays open until the process exits, so
 * a restart finds it (the launcher learns of a clean exit from the atexit handler). */
static int runtime_refs;              /* under runtime_lock */
static int runtime_booted;
static pthread_mutex_t runtime_lock = PTHREAD_MUTEX_INITIALIZER;

static void boot_goodbye(void)
{
    if (runtime_booted && !runtime_refs)
        mica_boot_finalize();
}

int mica_runtime_start(void)
{
    pthread_mutex_lock(&runtime_lock);
    int rc = 0;
    if (runtime_refs++ == 0) {
        mica_boot_t boot;
        mica_tunables_read();
        mica_boot_set_timeout(mica_tunables.pmi_timeout);
        /* A launcher killed during start-up takes our stderr pipe with it: the message that
         * says so must not kill us with SIGPIPE before the transport has removed what it made
         * in /dev/shm. Blocked here, a SIGPIPE is discarded before the mask is restored. */
        sigset_t pipe, old;
        sigemptyset(&pipe);
        sigaddset(&pipe, SIGPIPE);
        pthread_sigmask(SIG_BLOCK, &pipe, &old);
        /* Likewise a launcher that kills us when it dies (mpiexec's PR_SET_PDEATHSIG): during
         * start-up its death shows on its socket, and we leave cleanly; armed again after. */
        int deathsig = 0;
        pid_t parent = getppid();
        if (!prctl(PR_GET_PDEATHSIG, &deathsig) && deathsig)
            prctl(PR_SET_PDEATHSIG, 0);
        rc = mica_boot_init(&boot) || mica_transport_init(&boot) ||
             mica_pt2pt_init(boot.rank, boot.size);
        if (deathsig) {
            prctl(PR_SET_PDEATHSIG, deathsig);
            if (!rc && getppid() != parent)   /* it died just after: so do we */
                raise(deathsig);
        }
        if (!sigismember(&old, SIGPIPE)) {
            const struct timespec now = {0, 0};
            while (sigtimedwait(&pipe, NULL, &now) == SIGPIPE)
                ;
            pthread_sigmask(SIG_SETMASK, &old, NULL);
        }
        if (rc) {
            runtime_refs--;
        } else {
            if (!runtime_booted)
                atexit(boot_goodbye);
            runtime_booted = 1;
            mica_spin_polls = mica_tunables.spin_polls != MICA_TUNABLE_AUTO ? mica_tunables.spin_polls
                              : boot.size > sysconf(_SC_NPROCESSORS_ONLN) ? 0 : 1 << 16;
            mica_comm_world.rank = boot.rank;
            mica_comm_world.size = mica_comm_world.remote_size = boot.size;
            self_world[0] = boot.rank;
            mica_comm_self.world = self_world;
            mica_attr_set_environment(boot.universe_size, boot.appnum);
            mica_pt2pt_register();
            mica_coll_register();
            mica_topo_register();
            mica_intercomm_register();
            mica_grequest_register();
            mica_runtime_up = 1;
        }
    }
    pthread_mutex_unlock(&runtime_lock);
    return rc ? -1 : 0;
}

int mica_runtime_stop(void)
{
    pthread_mutex_lock(&runtime_lock);
    int rc = 0;
    if (--runtime_refs == 0) {
        /* Hand every queued packet to its ring, then wait for everyone: after this no peer
         * needs anything from us, and no one maps our memory any longer. */
        MICA_WAIT_UNTIL(mica_pt2pt_flushed());
        rc = mica_boot_fence();
        mica_runtime_up = 0;
        mica_pt2pt_finalize();
        mica_transport_finalize();
    }
    pthread_mutex_unlock(&runtime_lock);
    return rc;
}

int mica_init_thread(int *argc, char ***argv, int required, int *provided)
{
    static const char fn[] = "MPI_Init_thread";
    (void)argc, (void)argv;
    if (mica_phase != MICA_BEFORE)
        return mica_raise(NULL, mica_error(MPI_ERR_OTHER, "%s", mica_phase == MICA_ACTIVE
                          ? "MPI is already initialized" : "MPI cannot be initialized again after MPI_Finalize"), fn);
    if (!valid_level(required))
        return mica_raise(NULL, mica_error(MPI_ERR_ARG, "required=%d is not a thread level", required), fn);
    if (!provided)
        return mica_raise(NULL, mica_error(MPI_ERR_ARG, "provided is NULL"), fn);
    if (mica_runtime_start())
        return mica_raise(NULL, mica_error(MPI_ERR_OTHER, "the job could not start: see the "
                          "messages above"), fn);
    /* Every entry point is thread-safe (one lock serialises the engine; objects and error codes
     * are locked or atomic), so each level is provided as asked. */
    mica_thread_level = required;
    mica_locking = required == MPI_THREAD_MULTIPLE;
    mica_main_thread = pthread_self();
    mica_phase = MICA_ACTIVE;
    *provided = required;
    return MPI_SUCCESS;
}

int mica_init(int *argc, char ***argv)
{
    int provided;
    return mica_init_thread(argc, argv, MPI_THREAD_SINGLE, &provided);
}

int mica_finalize(void)
{
    if (mica_phase != MICA_ACTIVE)
        return mica_raise(NULL, mica_error_inactive("MPI_Finalize"), "MPI_Finalize");
    /* First of all, MPI_COMM_SELF's attributes are deleted, the last set first: tools hook
     * their own finalization on it. A delete callback's error fails MPI_Finalize here, with MPI
     * still usable (as in MPICH). */
    int err = mica_attr_delete_all(mica_comm_self.eo.obj.handle, &mica_comm_self.attrs);
    if (err != MPI_SUCCESS)
        return mica_raise(&mica_comm_self.eo, err, "MPI_Finalize");
    mica_phase = MICA_AFTER;
    return mica_runtime_stop()
        ? mica_raise(NULL, mica_error(MPI_ERR_OTHER, "the launcher did not answer"), "MPI_Finalize")
        : MPI_SUCCESS;
}

int mica_initialized(int *flag)
{
    if (!flag)
        return mica_raise(NULL, mica_error(MPI_ERR_ARG, "flag is NULL"), "MPI_Initialized");
    *flag = mica_phase != MICA_BEFORE;
    return MPI_SUCCESS;
}

int mica_finalized(int *flag)
{
    if (!flag)
        return mica_raise(NULL, mica_error(MPI_ERR_ARG, "flag is NULL"), "MPI_Finalized");
    *flag = mica_phase == MICA_AFTER;
    return MPI_SUCCESS;
}

int mica_query_thread(int *provided)
{
    *provided = mica_thread_level;
    return MPI_SUCCESS;
}

int mica_is_thread_main(int *flag)
{
    *flag = pthread_equal(pthread_self(), mica_main_thread);
    return MPI_SUCCESS;
}

int mica_abort(mica_comm_t *comm, int errorcode)
{
    char msg[256];
    snprintf(msg, sizeof msg, "Mica: rank %d called MPI_Abort on %s with error code %d\n",
             mica_comm_world.rank, comm->name[0] ? comm->name : "a communicator", errorcode);
    mica_abort_job(errorcode, msg);
}
