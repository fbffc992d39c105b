/* For test_pcontrol.sh: MPI_Pcontrol(0), (1) and (2, "extra") before MPI_Init, between
 * MPI_Init and MPI_Finalize, and after MPI_Finalize; each must return MPI_SUCCESS. Prints one
 * line per call on stdout; exits 1 if any call fails. */
#include <mpi.h>
#include <stdio.h>

static int failures;

static void pcontrol_all(const char *when)
{
    int rc;
    rc = MPI_Pcontrol(0);
    printf("pcontrol: %s level 0 rc=%d\n", when, rc);
    failures += rc != MPI_SUCCESS;
    rc = MPI_Pcontrol(1);
    printf("pcontrol: %s level 1 rc=%d\n", when, rc);
    failures += rc != MPI_SUCCESS;
    rc = MPI_Pcontrol(2, "extra");
    printf("pcontrol: %s level 2 rc=%d\n", when, rc);
    failures += rc != MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    pcontrol_all("before-init");
    if (MPI_Init(&argc, &argv) != MPI_SUCCESS) {
        printf("pcontrol: MPI_Init failed\n");
        return 1;
    }
    pcontrol_all("initialized");
    if (MPI_Finalize() != MPI_SUCCESS) {
        printf("pcontrol: MPI_Finalize failed\n");
        return 1;
    }
    pcontrol_all("after-finalize");
    printf("pcontrol: %d failures\n", failures);
    return failures != 0;
}
