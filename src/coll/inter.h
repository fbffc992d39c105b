/* The blocking collectives on intercommunicators (inter.c): each MPI entry point hands an
 * intercommunicator to its twin here, which checks the arguments, takes the lock and runs. */
#ifndef MICA_COLL_INTER_H
#define MICA_COLL_INTER_H

#include "coll/coll.h"

int mica_inter_barrier(mica_comm_t *comm);
int mica_inter_bcast(void *buf, MPI_Count count, mica_type_t *type, int root, mica_comm_t *comm);
int mica_inter_reduce(const void *sbuf, void *rbuf, MPI_Count count, mica_type_t *type,
                      mica_op_t *op, int root, mica_comm_t *comm);
int mica_inter_allreduce(const void *sbuf, void *rbuf, MPI_Count count, mica_type_t *type,
                         mica_op_t *op, mica_comm_t *comm);
int mica_inter_gather(const void *sbuf, MPI_Count scount, mica_type_t *stype, void *rbuf,
                      MPI_Count rcount, mica_type_t *rtype, int root, mica_comm_t *comm);
int mica_inter_gatherv(const void *sbuf, MPI_Count scount, mica_type_t *stype, void *rbuf,
                       const MPI_Count *rcounts, const MPI_Aint *displs, mica_type_t *rtype,
                       int root, mica_comm_t *comm);
int mica_inter_scatter(const void *sbuf, MPI_Count scount, mica_type_t *stype, void *rbuf,
                       MPI_Count rcount, mica_type_t *rtype, int root, mica_comm_t *comm);
int mica_inter_scatterv(const void *sbuf, const MPI_Count *scounts, const MPI_Aint *displs,
                        mica_type_t *stype, void *rbuf, MPI_Count rcount, mica_type_t *rtype,
                        int root, mica_comm_t *comm);
int mica_inter_allgather(const void *sbuf, MPI_Count scount, mica_type_t *stype, void *rbuf,
                         MPI_Count rcount, mica_type_t *rtype, mica_comm_t *comm);
int mica_inter_allgatherv(const void *sbuf, MPI_Count scount, mica_type_t *stype, void *rbuf,
                          const MPI_Count *rcounts, const MPI_Aint *displs, mica_type_t *rtype,
                          mica_comm_t *comm);
int mica_inter_alltoall(const void *sbuf, MPI_Count scount, mica_type_t *stype, void *rbuf,
                        MPI_Count rcount, mica_type_t *rtype, mica_comm_t *comm);
int mica_inter_alltoallv(const void *sbuf, const MPI_Count *scounts, const MPI_Aint *sdispls,
                         mica_type_t *stype, void *rbuf, const MPI_Count *rcounts,
                         const MPI_Aint *rdispls, mica_type_t *rtype, mica_comm_t *comm);
/* Lock held, types looked up and checked (alltoall.c does that). */
int mica_inter_alltoallw(const void *sbuf, const MPI_Count *scounts, const MPI_Aint *sdispls,
                         mica_type_t *const *stypes, void *rbuf, const MPI_Count *rcounts,
                         const MPI_Aint *rdispls, mica_type_t *const *rtypes, mica_comm_t *comm);
/* rcounts == NULL: every block has rcount elements (MPI_Reduce_scatter_block). */
int mica_inter_reduce_scatter(const void *sbuf, void *rbuf, MPI_Count rcount,
                              const MPI_Count *rcounts, mica_type_t *type, mica_op_t *op,
                              mica_comm_t *comm);
/* The nonblocking and persistent collectives on intercommunicators: not yet (fn: the MPI name). */
int mica_coll_inter_not_yet(const char *fn);
/* MPI_Scan and MPI_Exscan are not defined on intercommunicators. */
int mica_inter_undefined(const char *what);

#endif
