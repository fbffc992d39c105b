/* Last line of defence for shared memory: the ranks name their POSIX shm
 * objects "mica-<jobid>-...", which live in /dev/shm; whatever they left
 * behind (crash, kill, abort) is removed when the job ends. Only what this
 * user owns: a name of the job taken by another user is theirs to remove. */
#include "mpiexec.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void mica_shmclean_job(const char *jobid)
{
    char prefix[128];
    int n = snprintf(prefix, sizeof prefix, "mica-%s-", jobid);
    if (n < 0 || (size_t)n >= sizeof prefix)
        return;
    DIR *d = opendir("/dev/shm");
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        struct stat st;
        if (strncmp(e->d_name, prefix, (size_t)n) == 0 &&
            !fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) && st.st_uid == geteuid())
            unlinkat(dirfd(d), e->d_name, 0);
    }
    closedir(d);
}
