/* mica-prof: what the generated wrappers (mp_wrappers*.c, mp_fwrappers.c) use. Everything is
 * written once in the tool's modules; the generator only emits, per MPI function, a wrapper that
 * calls these hooks and the function's PMPI_ twin. The hot path (mp_enter / the clock /
 * mp_leave and the point-to-point byte helper) is inline and touches only the calling thread's
 * own block. */
#ifndef MICA_PROF_H
#define MICA_PROF_H

#include <mpi.h>
#include <stdint.h>
#include "mp_gen.h"
#include "account.h"
#include "clock.h"
#include "comms.h"
#include "fortran.h"
#include "hooks.h"
#include "state.h"
#include "thread.h"

/* Start of a recorded call: the call site (return address of the wrapper); the wrapper then
 * notes what the call moves (its arguments are all inputs) and reads the clock, MP_T0(). */
#define MP_BEGIN_NOCLOCK()                                                      \
    mp_thread *t_ = mp_enter();                                                 \
    uint64_t t0_ = 0;                                                           \
    if (t_ && (t_->fl & (MP_FL_SITE1 | MP_FL_SITES))) {                         \
        if (t_->fl & MP_FL_SITE1)                                               \
            t_->pcs[0] = (uintptr_t)__builtin_return_address(0);               \
        else                                                                    \
            mp_backtrace(t_);                                                   \
    }
#define MP_T0() (t0_ = mp_clock(t_->fl & MP_FL_TSC))
#define MP_BEGIN()                                                              \
    MP_BEGIN_NOCLOCK();                                                         \
    if (t_)                                                                     \
        MP_T0();

/* The clock at the end of a recorded call. */
#define MP_END_TIME() mp_clock(t_->fl & MP_FL_TSC)

#endif
