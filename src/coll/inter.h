/* The blocking collectives on intercommunicators (inter.c): the generated entry points
 * (algorithms.tsv) hand an intercommunicator's arguments to mica_coll_inter_X, which checks them,
 * takes the lock and runs. */
#ifndef MICA_COLL_INTER_H
#define MICA_COLL_INTER_H

#include "coll/sched.h"

int mica_coll_inter_barrier(const mica_coll_args_t *a, mica_comm_t *comm);
int mica_coll_inter_bcast(const mica_coll_args_t *a, mica_comm_t *comm);
int mica_coll_inter_reduce(const mica_coll_args_t *a, mica_comm_t *comm);
int mica_coll_inter_allreduce(const mica_coll_args_t *a, mica_comm_t *comm);
int mica_coll_inter_gather(const mica_coll_args_t *a, mica_comm_t *comm);
int mica_coll_inter_gatherv(const mica_coll_args_t *a, mica_comm_t *comm);
int mica_coll_inter_scatter(const mica_coll_args_t *a, mica_comm_t *comm);
int mica_coll_inter_scatterv(const mica_coll_args_t *a, mica_comm_t *comm);
int mica_coll_inter_allgather(const mica_coll_args_t *a, mica_comm_t *comm);
int mica_coll_inter_allgatherv(const mica_coll_args_t *a, mica_comm_t *comm);
int mica_coll_inter_alltoall(const mica_coll_args_t *a, mica_comm_t *comm);
int mica_coll_inter_alltoallv(const mica_coll_args_t *a, mica_comm_t *comm);
/* The datatypes looked up (mica_coll_lookup_alltoallw). */
int mica_coll_inter_alltoallw(const mica_coll_args_t *a, mica_comm_t *comm);
int mica_coll_inter_reduce_scatter(const mica_coll_args_t *a, mica_comm_t *comm);
int mica_coll_inter_reduce_scatter_block(const mica_coll_args_t *a, mica_comm_t *comm);
/* MPI_Scan and MPI_Exscan are not defined on intercommunicators: an error. */
int mica_coll_inter_scan(const mica_coll_args_t *a, mica_comm_t *comm);
int mica_coll_inter_exscan(const mica_coll_args_t *a, mica_comm_t *comm);

/* The nonblocking and persistent collectives on intercommunicators: not yet (fn: the MPI name). */
int mica_coll_inter_not_yet(const char *fn);

#endif
