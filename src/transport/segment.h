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

#endif
