/* mica-prof: the Fortran wrappers' run time (fortran.h): the MPI library's own entry points, its
 * MPI_IN_PLACE, MPI_PCONTROL. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "fortran.h"
#include "clock.h"
#include "hooks.h"
#include "state.h"
#include "thread.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

static void *find_fortran(const char *const names[MP_FSCHEMES], int scheme)
{
    /* the names to try for a call made under `scheme`; -1 ends (a TS 29113 descriptor can
     * only go on to a procedure that takes one) */
    static const int order[MP_FSCHEMES][MP_FSCHEMES] = {
        {0, 1, 2, 3, -1}, {1, 0, 2, 3, -1}, {2, 1, 0, 3, -1}, {3, 1, 0, 2, -1}, {4, 5, -1},
        {5, 4, -1}, {6, -1}};
    for (int i = 0; i < MP_FSCHEMES && order[scheme][i] >= 0; i++) {
        void *p = dlsym(RTLD_NEXT, names[order[scheme][i]]);
        if (p)
            return p;
    }
    /* no profiling entry point: the library's MPI_ name, after ours */
    for (int i = 0; i < MP_FSCHEMES && order[scheme][i] >= 0; i++) {
        void *p = dlsym(RTLD_NEXT, names[order[scheme][i]] + 1);
        if (p)
            return p;
    }
    return NULL;
}

void *mp_fsym_slow(int ffid, int scheme)
{
    void *p = find_fortran(mp_fsym_names[ffid], scheme);
    if (p == NULL) {
        fprintf(stderr, "mica-prof: the MPI library has no Fortran entry point %s\n",
                mp_fsym_names[ffid][scheme] + 1);
        abort();
    }
    __atomic_store_n(&mp_fsyms[ffid][scheme], p, __ATOMIC_RELEASE);
    return p;
}

static const void *f_in_place[4];
static int f_in_place_done;

const void *mp_fbuf(const void *p)
{
    if (!f_in_place_done) {
        int n = 0;
        /* Open MPI: the address of a common block variable */
        static const char *ompi[] = {"mpi_fortran_in_place_", "mpi_fortran_in_place",
                                     "mpi_fortran_in_place__", "MPI_FORTRAN_IN_PLACE"};
        for (int i = 0; i < 4 && n < 3; i++) {
            void *a = dlsym(RTLD_DEFAULT, ompi[i]);
            if (a)
                f_in_place[n++] = a;
        }
        /* MPICH: a pointer set by its Fortran initialization, else COMMON /MPIPRIV1/ MPI_BOTTOM,
         * MPI_IN_PLACE */
        void **pp = dlsym(RTLD_DEFAULT, "MPIR_F_MPI_IN_PLACE");
        if (pp && *pp && n < 4)
            f_in_place[n++] = *pp;
        else {
            char *c = dlsym(RTLD_DEFAULT, "mpipriv1_");
            if (c && n < 4)
                f_in_place[n++] = c + sizeof(MPI_Fint);
        }
        if (mp_st.inited)
            f_in_place_done = 1;
    }
    for (int i = 0; i < 4 && f_in_place[i]; i++)
        if (p == f_in_place[i])
            return MPI_IN_PLACE;
    return p;
}

/* The start of a recorded call whose caller's return address ra was taken by the exported stub
 * (the call site: ra itself, or the stack unwound from the frame that returns to ra). */
mp_thread *mp_fbegin(void *ra, uint64_t *t0)
{
    mp_thread *t = mp_enter();
    *t0 = 0;
    if (t) {
        if (t->fl & MP_FL_SITE1)
            t->pcs[0] = (uintptr_t)ra;
        else if (t->fl & MP_FL_SITES)
            mp_backtrace_from(t, (uintptr_t)ra);
        *t0 = mp_clock(t->fl & MP_FL_TSC);
    }
    return t;
}

void mp_fend(mp_thread *t, int fid, uint64_t t0, uint64_t t1)
{
    mp_leave(t, fid, t0, t1);
}

void mp_fpcontrol(MPI_Fint *level, int scheme, void *ra)
{
    static void *fn[MP_FSCHEMES];
    static const char *const names[MP_FSCHEMES] = {
        "pmpi_pcontrol", "pmpi_pcontrol_", "pmpi_pcontrol__", "PMPI_PCONTROL",
        "pmpi_pcontrol_f08_", "PMPI_Pcontrol_f08", "pmpi_pcontrol_f08_"};
    void *f = __atomic_load_n(&fn[scheme], __ATOMIC_ACQUIRE);
    if (f == NULL) {
        f = find_fortran(names, scheme);
        __atomic_store_n(&fn[scheme], f, __ATOMIC_RELEASE);
    }
    uint64_t t0;
    mp_thread *t = mp_fbegin(ra, &t0);
    if (f && mp_mpi_active())
        ((void (*)(MPI_Fint *))f)(level);
    if (t)
        mp_leave(t, MP_F_MPI_Pcontrol, t0, mp_clock(t->fl & MP_FL_TSC));
    mp_pcontrol((int)*level);
}
