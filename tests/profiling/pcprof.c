/* A profiling library for test_pcontrol.sh: it defines MPI_Pcontrol (varargs), records each
 * level (and the string argument of level 2), calls PMPI_Pcontrol and prints at exit on stdout
 * "pcprof: MPI_Pcontrol called N times: LEVELS". */
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int calls;
static char levels[1024];

static void pcprof_report(void)
{
    printf("pcprof: MPI_Pcontrol called %d times:%s\n", calls, levels);
    fflush(stdout);
}

int MPI_Pcontrol(const int level, ...)
{
    size_t n = strlen(levels);
    if (calls++ == 0)
        atexit(pcprof_report);
    if (level == 2) {
        va_list ap;
        va_start(ap, level);
        const char *extra = va_arg(ap, const char *);
        va_end(ap);
        snprintf(levels + n, sizeof levels - n, " 2(%s)", extra);
    } else {
        snprintf(levels + n, sizeof levels - n, " %d", level);
    }
    return PMPI_Pcontrol(level);
}
