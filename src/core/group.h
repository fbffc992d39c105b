/* Groups: an ordered set of processes, named by their ranks in MPI_COMM_WORLD. */
#ifndef MICA_GROUP_H
#define MICA_GROUP_H

#include "core/objects.h"

struct mica_group {
    mica_obj_t obj;
    int size;
    int rank;                         /* this process's rank in the group, or MPI_UNDEFINED */
    int *world;                       /* the world rank of each member (NULL when empty) */
};

/* A new group owning `world` (malloc'd, `size` entries; NULL when size is 0); NULL when out of
 * memory (then `world` is freed). */
mica_group_t *mica_group_new(int *world, int size);
/* Give a group back (a no-op for MPI_GROUP_EMPTY). */
void mica_group_release(mica_group_t *group);
/* The handle of a group: MPI_GROUP_EMPTY for any empty one. */
MPI_Group mica_group_handle(mica_group_t *group);

#endif
