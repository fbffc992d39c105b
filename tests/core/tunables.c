/* Prints every tunable's value after MPI_Init, one "NAME value" a line, for test_tunables.sh.
 * Linked with libmpi.a, it reads the library's table directly (a hidden symbol: no part of
 * the library's interface). */
#include <mpi.h>
#include <stdio.h>

#include "core/tunables.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    for (int i = 0; i < mica_tunable_count; i++) {
        const mica_tunable_t *t = &mica_tunable_table[i];
        long v = t->type == MICA_TUNABLE_SIZE ? *(long *)t->value : *(int *)t->value;
        printf("%s %ld\n", t->name, v);
    }
    MPI_Finalize();
    return 0;
}
