/* The neighborhood collectives: their algorithms (neighbor_coll.c) and the argument checks
 * (neighbor.c) behind the entry points generated from src/coll/algorithms.tsv. The checks
 * return MPI_SUCCESS or an error code naming the argument. */
#ifndef MICA_NEIGHBOR_H
#define MICA_NEIGHBOR_H

#include "coll/sched.h"
#include "topo/topo.h"

/* Each neighborhood collective's algorithm, choice, blocking run and check (mica_topo_X). */
#include "topo/algorithm_table.h"

#endif
