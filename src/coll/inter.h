/* The collectives on intercommunicators (inter.c): the generated entry points (algorithms.tsv)
 * hand an intercommunicator's arguments, as the intracommunicator's, to mica_coll_inter_X, which
 * checks them and runs the collective in the entry point's form (request: NULL when blocking).
 * The lock is held. */
#ifndef MICA_COLL_INTER_H
#define MICA_COLL_INTER_H

#include "coll/sched.h"

int mica_coll_inter_barrier(enum mica_coll_form form, const mica_coll_args_t *a,
                            mica_comm_t *comm, MPI_Request *request);
int mica_coll_inter_bcast(enum mica_coll_form form, const mica_coll_args_t *a, mica_comm_t *comm,
                          MPI_Request *request);
int mica_coll_inter_reduce(enum mica_coll_form form, const mica_coll_args_t *a, mica_comm_t *comm,
                           MPI_Request *request);
int mica_coll_inter_allreduce(enum mica_coll_form form, const mica_coll_args_t *a,
                              mica_comm_t *comm, MPI_Request *request);
int mica_coll_inter_gather(enum mica_coll_form form, const mica_coll_args_t *a, mica_comm_t *comm,
                           MPI_Request *request);
int mica_coll_inter_gatherv(enum mica_coll_form form, const mica_coll_args_t *a,
                            mica_comm_t *comm, MPI_Request *request);
int mica_coll_inter_scatter(enum mica_coll_form form, const mica_coll_args_t *a,
                            mica_comm_t *comm, MPI_Request *request);
int mica_coll_inter_scatterv(enum mica_coll_form form, const mica_coll_args_t *a,
                             mica_comm_t *comm, MPI_Request *request);
int mica_coll_inter_allgather(enum mica_coll_form form, const mica_coll_args_t *a,
                              mica_comm_t *comm, MPI_Request *request);
int mica_coll_inter_allgatherv(enum mica_coll_form form, const mica_coll_args_t *a,
                               mica_comm_t *comm, MPI_Request *request);
int mica_coll_inter_alltoall(enum mica_coll_form form, const mica_coll_args_t *a,
                             mica_comm_t *comm, MPI_Request *request);
int mica_coll_inter_alltoallv(enum mica_coll_form form, const mica_coll_args_t *a,
                              mica_comm_t *comm, MPI_Request *request);
/* The datatypes looked up (mica_coll_lookup_alltoallw). */
int mica_coll_inter_alltoallw(enum mica_coll_form form, const mica_coll_args_t *a,
                              mica_comm_t *comm, MPI_Request *request);
int mica_coll_inter_reduce_scatter(enum mica_coll_form form, const mica_coll_args_t *a,
                                   mica_comm_t *comm, MPI_Request *request);
int mica_coll_inter_reduce_scatter_block(enum mica_coll_form form, const mica_coll_args_t *a,
                                         mica_comm_t *comm, MPI_Request *request);
/* MPI_Scan and MPI_Exscan are not defined on intercommunicators: an error. */
int mica_coll_inter_scan(enum mica_coll_form form, const mica_coll_args_t *a, mica_comm_t *comm,
                         MPI_Request *request);
int mica_coll_inter_exscan(enum mica_coll_form form, const mica_coll_args_t *a, mica_comm_t *comm,
                           MPI_Request *request);

#endif
