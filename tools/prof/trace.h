/* mica-prof: the Chrome/Perfetto timeline DIR/NAME.trace.json (MICA_PROF_TRACE=1). */
#ifndef MICA_PROF_TRACE_H
#define MICA_PROF_TRACE_H

#include <mpi.h>

/* A collective over comm (rank of P): each rank writes its part, rank 0 joins them. */
void mp_trace_write(MPI_Comm comm, int rank, int P, double rate);

#endif
