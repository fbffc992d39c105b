/* mica-prof: what the tool knows of each communicator: size, rank, its processes' ranks in
 * MPI_COMM_WORLD (for the matrix), whether it is an intercommunicator, its neighbours (for the
 * neighborhood collectives). Built once per communicator, when it is created or first used. */
#ifndef MICA_PROF_COMMS_H
#define MICA_PROF_COMMS_H

#include <mpi.h>
#include <stdint.h>

typedef struct {
    uint64_t key;
    int rank, size, np, inter, indeg, outdeg;
    int *world;                     /* MPI_COMM_WORLD rank of each peer (the remote group of an
                                     * intercommunicator) */
    int ranks[];
} mp_cinfo;

/* At MPI_Init: MPI_COMM_WORLD's record. */
void mp_comm_world_init(void);
/* The record of c, or NULL (not between MPI_Init and MPI_Finalize, or MPI_COMM_NULL). */
const mp_cinfo *mp_comm_get(MPI_Comm c);
void mp_comm_created(MPI_Comm comm);
void mp_comm_forget(MPI_Comm comm);

#endif
