/* mica-prof: what the Fortran wrappers (mp_fwrappers.c) need at run time: the MPI library's
 * own Fortran entry points, looked up per linker-name scheme on first use; its MPI_IN_PLACE;
 * out-of-line begin and end of a recorded call; MPI_PCONTROL. */
#ifndef MICA_PROF_FORTRAN_H
#define MICA_PROF_FORTRAN_H

#include <mpi.h>
#include <stdint.h>
#include "thread.h"

/* The library's entry point of Fortran function ffid under linker-name scheme 0..6 (generated
 * tables: mp_fsyms caches what mp_fsym_names names): mpif.h's four manglings, mpi_f08's
 * mpi_x_f08_ and MPI_X_f08, and its mpi_x_f08ts_ (TS 29113: buffers are descriptors). */
#define MP_FSCHEMES 7
#define MP_FSCHEME_TS 6
extern void *mp_fsyms[][MP_FSCHEMES];
extern const char *const mp_fsym_names[][MP_FSCHEMES];
void *mp_fsym_slow(int ffid, int scheme);
static inline void *mp_fsym(int ffid, int scheme)
{
    void *p = __atomic_load_n(&mp_fsyms[ffid][scheme], __ATOMIC_ACQUIRE);
    return p ? p : mp_fsym_slow(ffid, scheme);
}

/* A buffer argument, MPI_IN_PLACE when it is the library's Fortran MPI_IN_PLACE. */
const void *mp_fbuf(const void *p);
/* The stub that took ra is exported per linker name; these are the rest, out of line. */
mp_thread *mp_fbegin(void *ra, uint64_t *t0);
void mp_fend(mp_thread *t, int fid, uint64_t t0, uint64_t t1);
/* MPI_PCONTROL(LEVEL): recorded, passed on to the library, then acted upon. */
void mp_fpcontrol(MPI_Fint *level, int scheme, void *ra);

#endif
