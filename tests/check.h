/* Assertions for the MPI test programs (the t_*.c programs): a failed check prints the rank, where
 * and what; the program goes on so one run shows every failure, and main returns
 * CHECK_RESULT(). */
#ifndef MICA_TEST_CHECK_H
#define MICA_TEST_CHECK_H
#include <stdio.h>

static int check_failures;
#define CHECK(cond)                                                                           \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            int r_ = -1;                                                                      \
            MPI_Comm_rank(MPI_COMM_WORLD, &r_);                                               \
            if (check_failures++ < 20)                                                        \
                printf("rank %d: FAILED %s:%d: %s\n", r_, __FILE__, __LINE__, #cond);         \
            fflush(stdout);                                                                   \
        }                                                                                     \
    } while (0)
/* The same, with a printf-style note of the values involved. */
#define CHECKF(cond, ...)                                                                     \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            int r_ = -1;                                                                      \
            MPI_Comm_rank(MPI_COMM_WORLD, &r_);                                               \
            if (check_failures++ < 20) {                                                      \
                printf("rank %d: FAILED %s:%d: %s: ", r_, __FILE__, __LINE__, #cond);         \
                printf(__VA_ARGS__);                                                          \
                printf("\n");                                                                 \
            }                                                                                 \
            fflush(stdout);                                                                   \
        }                                                                                     \
    } while (0)
#define CHECK_RESULT() (check_failures != 0)

/* The error class of a return code (-1 if MPI_Error_class refuses it). */
static inline int check_class(int rc)
{
    int c = -1;
    MPI_Error_class(rc, &c);
    return c;
}
#endif
