/* For test_spawn_args.sh: a C tool that shows what the Fortran bindings make of
 * MPI_COMM_SPAWN(_MULTIPLE)'s string arrays, instead of spawning. */
#include <stdio.h>
#include <mpi.h>

static void show_argv(const char *what, char **argv)
{
    printf("%s:", what);
    if (argv == MPI_ARGV_NULL)
        printf(" MPI_ARGV_NULL");
    for (int i = 0; argv && argv[i]; i++)
        printf(" [%s]", argv[i]);
    printf("\n");
}

int MPI_Comm_spawn(const char *command, char *argv[], int maxprocs, MPI_Info info, int root,
                   MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[])
{
    printf("spawn [%s] maxprocs %d errcodes %s\n", command, maxprocs,
           array_of_errcodes == MPI_ERRCODES_IGNORE ? "ignored" : "given");
    show_argv("argv", argv);
    for (int i = 0; array_of_errcodes != MPI_ERRCODES_IGNORE && i < maxprocs; i++)
        array_of_errcodes[i] = 40 + i;
    *intercomm = MPI_COMM_NULL;
    return MPI_SUCCESS;
}

int MPI_Comm_spawn_multiple(int count, char *array_of_commands[], char **array_of_argv[],
                            const int array_of_maxprocs[], const MPI_Info array_of_info[],
                            int root, MPI_Comm comm, MPI_Comm *intercomm,
                            int array_of_errcodes[])
{
    printf("spawn_multiple %d%s\n", count, array_of_argv == MPI_ARGVS_NULL ? " MPI_ARGVS_NULL" : "");
    for (int i = 0; i < count; i++) {
        char what[64];
        snprintf(what, sizeof what, "command %d [%s] maxprocs %d argv", i, array_of_commands[i],
                 array_of_maxprocs[i]);
        show_argv(what, array_of_argv == MPI_ARGVS_NULL ? MPI_ARGV_NULL : array_of_argv[i]);
    }
    *intercomm = MPI_COMM_NULL;
    return MPI_SUCCESS;
}
