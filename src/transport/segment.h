/* Each rank's shared-memory segment, shared with the other ranks of the job without a name
 * anyone could see, squat or leave behind.
 *
 * A rank makes its segment with memfd_create: no name in /dev/shm, so when every process that
 * holds it is gone, so is the memory, whatever killed them (even SIGKILL during start-up, under
 * a launcher that cleans nothing). The descriptors travel over Unix sockets (SCM_RIGHTS): rank 0
 * listens in the abstract namespace as "mica-<jobid>-0" (such a socket too vanishes with its
 * process), every other rank connects once and hands in its segment, and rank 0 hands every
 * rank all of them: one connection a rank, not one a pair. Both ends check who is on the other
 * side (SO_PEERCRED): rank 0 takes and gives segments only to processes of the job's user, and
 * the ranks only from one. Abstract names carry no permissions, so another user may bind rank
 * 0's name first: rank 0 then binds a random one and publishes it in the bootstrap's key-value
 * store, where the others look when the usual name answers with another user's process. */
#ifndef MICA_SEGMENT_H
#define MICA_SEGMENT_H

#include <stddef.h>

#include "runtime/boot.h"

/* Make this rank's segment of `bytes` bytes and map every rank's (all of the same size) into
 * seg[0 .. size-1]. Collective over the job. 0, or -1 after a message on stderr. */
int mica_segment_share(const mica_boot_t *boot, size_t bytes, char **seg);

/* A segment made later for a group of the job's processes (a shared-memory window): its owner
 * makes it (mica_segment_new), listens on an abstract socket of a random name
 * (mica_segment_listen), tells the name to the others through the library's own messages, and
 * hands the memfd to each of them (mica_segment_give), who take and map it
 * (mica_segment_take). Each end checks the other's process id, learnt over the job's own
 * channels, with SO_PEERCRED: the memory goes to the group's processes only and to no other
 * process that finds the name; nothing is left behind when they are gone. Each returns an MPI
 * error code (core/errors.h). */
#define MICA_SEGMENT_NAME 64          /* room for a listening socket's name */
/* A memfd of `bytes` bytes (at least one page), mapped at *map. */
int mica_segment_new(size_t bytes, int *fd, char **map);
/* A listening socket (*listener) of a new random abstract name, written into name. */
int mica_segment_listen(int *listener, char name[MICA_SEGMENT_NAME]);
/* Hand memfd to one connection from each of the n processes pids[0 .. n-1], then close the
 * listener. */
int mica_segment_give(int listener, int memfd, const int *pids, int n);
/* Connect to `name`, check that process owner_pid holds it, take its memfd of `bytes` bytes
 * and map it at *map. */
int mica_segment_take(const char *name, int owner_pid, size_t bytes, char **map);
/* Unmap a segment of mica_segment_new or _take. */
void mica_segment_unmap(char *map, size_t bytes);

#endif
