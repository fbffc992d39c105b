/* What every generated C binding file includes.
 *
 * With weak symbols (the default) each file defines PMPI_X and makes MPI_X its weak alias.
 * Built with -DMICA_NO_WEAK, the same file is compiled twice, as the MPI standard's library
 * implementation example does it: with -DMICA_PROFILELIB it defines PMPI_X (for libpmpi.a),
 * without it MPI_X (for libmpi.a). */
#ifndef MICA_BINDING_H
#define MICA_BINDING_H

#include "core/comm.h"
#include "core/errors.h"
#include "core/progress.h"
#include "core/state.h"
#include "core_api.h"
#include "io/io.h"

#if !defined(MICA_NO_WEAK) || defined(MICA_PROFILELIB)
#define MICA_NAME(name) PMPI_##name
#else
#define MICA_NAME(name) MPI_##name
#endif

#endif
