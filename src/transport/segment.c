/* Sharing each rank's segment without a name (segment.h). */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "core/errors.h"
#include "transport/segment.h"

/* The bootstrap key under which a rank whose usual name was taken publishes the one it bound. */
#define SOCKET_KEY "mica-shm"

/* The abstract socket name of `rank` ("mica-<jobid>-<rank>", with 64 random bits more when
 * `random`), in a->sun_path after its leading 0 byte; its address length, or 0 if too long. */
static socklen_t address(struct sockaddr_un *a, const char *jobid, int rank, uint64_t random)
{
    memset(a, 0, sizeof *a);
    a->sun_family = AF_UNIX;
    size_t room = sizeof a->sun_path - 1;
    int n = random ? snprintf(a->sun_path + 1, room, "mica-%s-%d-%016llx", jobid, rank,
                              (unsigned long long)random)
                   : snprintf(a->sun_path + 1, room, "mica-%s-%d", jobid, rank);
    if (n < 0 || (size_t)n >= room)
        return 0;
    return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)n);
}

static uint64_t random64(void)
{
    uint64_t r;
    if (getrandom(&r, sizeof r, GRND_NONBLOCK) != sizeof r) {  /* still unique: time and pid */
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        r = ((uint64_t)ts.tv_nsec << 20) ^ (uint64_t)ts.tv_sec ^ ((uint64_t)getpid() << 40);
    }
    return r | 1;                     /* never 0, which means the usual name */
}

/* Is the process at the other end of socket s one of this user's? */
static int ours(int s)
{
    struct ucred cred;
    socklen_t len = sizeof cred;
    return !getsockopt(s, SOL_SOCKET, SO_PEERCRED, &cred, &len) && cred.uid == geteuid();
}

/* Bind this rank's listening socket: its usual name, or, when another process holds that, a
 * random one that the peers find in the key-value store. A socket, or -1 after a message. */
static int listen_as(const mica_boot_t *boot)
{
    for (int tries = 0; tries < 8; tries++) {
        struct sockaddr_un a;
        uint64_t random = tries ? random64() : 0;
        socklen_t len = address(&a, boot->jobid, boot->rank, random);
        int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        if (!len || s < 0) {
            fprintf(stderr, "mica: rank %d: no socket to share shared memory: %s\n", boot->rank,
                    len ? strerror(errno) : "the job id is too long");
            if (s >= 0)
                close(s);
            return -1;
        }
        if (!bind(s, (struct sockaddr *)&a, len) && !listen(s, boot->size)) {
            if (random && mica_boot_put(SOCKET_KEY, a.sun_path + 1)) {
                close(s);
                return -1;
            }
            return s;
        }
        int e = errno;
        close(s);
        if (e != EADDRINUSE) {
            fprintf(stderr, "mica: rank %d: cannot listen on @%s: %s\n", boot->rank,
                    a.sun_path + 1, strerror(e));
            return -1;
        }
    }
    fprintf(stderr, "mica: rank %d: every name tried for its socket was taken\n", boot->rank);
    return -1;
}

/* Start connecting to rank r, by its usual name or (`published`) the one it published. A
 * socket connected to one of this user's processes; -1 to try again later (its backlog is
 * full); -2 when another user's process holds that name; -3 after a message. */
static int connect_to(const mica_boot_t *boot, int r, int published)
{
    struct sockaddr_un a;
    socklen_t len = address(&a, boot->jobid, r, 0);
    if (published) {
        char name[sizeof a.sun_path];
        if (mica_boot_get(r, SOCKET_KEY, name, (int)sizeof name) != 0) {
            fprintf(stderr, "mica: rank %d: rank %d's socket @%s belongs to another user and "
                    "rank %d published no other\n", boot->rank, r, a.sun_path + 1, r);
            return -3;
        }
        memset(a.sun_path, 0, sizeof a.sun_path);
        memcpy(a.sun_path + 1, name, strlen(name));
        len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + strlen(name));
    }
    int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (s < 0 || connect(s, (struct sockaddr *)&a, len)) {
        int e = errno;
        if (s >= 0)
            close(s);
        if (e == EAGAIN)
            return -1;
        fprintf(stderr, "mica: rank %d: cannot reach rank %d at @%s: %s\n", boot->rank, r,
                a.sun_path + 1, strerror(e));
        return -3;
    }
    if (!ours(s)) {
        close(s);
        if (!published)
            return -2;
        fprintf(stderr, "mica: rank %d: rank %d's published socket @%s belongs to another user\n",
                boot->rank, r, a.sun_path + 1);
        return -3;
    }
    return s;
}

/* Send descriptors fds[0 .. n-1] (n <= MAX_FDS) with the int `word` as the message's bytes. */
#define MAX_FDS 250                   /* the kernel takes at most 253 in one message */
static int send_fds(int s, int word, const int *fds, int n)
{
    char control[CMSG_SPACE(MAX_FDS * sizeof(int))];
    struct iovec iov = {&word, sizeof word};
    struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control,
                       .msg_controllen = CMSG_SPACE((size_t)n * sizeof(int))};
    memset(control, 0, sizeof control);
    struct cmsghdr *c = CMSG_FIRSTHDR(&m);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN((size_t)n * sizeof(int));
    memcpy(CMSG_DATA(c), fds, (size_t)n * sizeof(int));
    ssize_t sent;
    while ((sent = sendmsg(s, &m, MSG_NOSIGNAL)) < 0 && errno == EINTR)
        ;
    return sent == (ssize_t)sizeof word ? 0 : -1;
}

/* Wait until s is readable (every 100 ms asking whether the launcher is still there). */
static int wait_readable(int s)
{
    for (;;) {
        struct pollfd p = {.fd = s, .events = POLLIN};
        int n = poll(&p, 1, 100);
        if (n > 0)
            return 0;
        if ((n < 0 && errno != EINTR) || !mica_boot_alive())
            return -1;
    }
}

/* Receive a message of send_fds: its word, and up to `most` descriptors into fds; how many
 * came, or -1. */
static int recv_fds(int s, int *word, int *fds, int most)
{
    char control[CMSG_SPACE(MAX_FDS * sizeof(int))];
    struct iovec iov = {word, sizeof *word};
    struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control,
                       .msg_controllen = sizeof control};
    ssize_t got;
    if (wait_readable(s))
        return -1;
    while ((got = recvmsg(s, &m, MSG_CMSG_CLOEXEC | MSG_WAITALL)) < 0 && errno == EINTR)
        ;
    struct cmsghdr *c = CMSG_FIRSTHDR(&m);
    if (got != (ssize_t)sizeof *word || (m.msg_flags & MSG_CTRUNC) || !c ||
        c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
        return -1;
    int n = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
    memcpy(fds, CMSG_DATA(c), (size_t)n * sizeof(int));
    if (n > most) {                   /* more than asked for: not ours to keep */
        for (int i = most; i < n; i++)
            close(fds[i]);
        return -1;
    }
    return n;
}

/* Map a segment that rank r handed over, after checking that it is what every rank makes. */
static char *map_peer(const mica_boot_t *boot, int r, int fd, size_t bytes)
{
    struct stat st;
    if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
        (size_t)st.st_size != bytes) {
        fprintf(stderr, "mica: rank %d: refused rank %d's segment (owner %ld, %lld bytes)\n",
                boot->rank, r, (long)st.st_uid, (long long)st.st_size);
        return NULL;
    }
    char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    return p == MAP_FAILED ? NULL : p;
}

/* Rank 0: take every other rank's segment (one connection each, the rank in the message),
 * then hand every rank all the segments. fd[r] and conn[r] are filled as ranks come. */
static int gather_and_hand_out(const mica_boot_t *boot, int listener, size_t bytes, char **seg,
                               int *fd, int *conn)
{
    int n = boot->size;
    for (int joined = 0; joined < n - 1;) {
        if (wait_readable(listener)) {
            fprintf(stderr, "mica: rank 0: the process manager went while the ranks joined\n");
            return -1;
        }
        int c, r;
        while ((c = accept4(listener, NULL, NULL, SOCK_CLOEXEC)) >= 0) {
            int one;                  /* another user's process gets nothing, gives nothing */
            if (!ours(c) || recv_fds(c, &r, &one, 1) != 1) {
                close(c);
                continue;
            }
            if (r < 1 || r >= n || conn[r] >= 0) {
                fprintf(stderr, "mica: rank 0: a process of this user claimed rank %d twice or "
                        "out of range\n", r);
                close(one);
                close(c);
                return -1;
            }
            fd[r] = one;
            conn[r] = c;
            if (!(seg[r] = map_peer(boot, r, one, bytes)))
                return -1;
            joined++;
        }
    }
    /* Hand out: each rank gets all n descriptors (its own too, to keep the message simple).
     * Descriptors in flight count against the sender's limit of open files, so at most a
     * window of ranks has them unread at once; each says when it has taken them. */
    int window = n > 256 ? 1 : 256 / n, ack;
    for (int r = 1, oldest = 1; r < n; r++) {
        for (int first = 0; first < n; first += MAX_FDS) {
            int k = n - first < MAX_FDS ? n - first : MAX_FDS;
            if (send_fds(conn[r], first, &fd[first], k)) {
                fprintf(stderr, "mica: rank 0: cannot hand the segments to rank %d: %s\n", r,
                        strerror(errno));
                return -1;
            }
        }
        while (oldest <= r && (r - oldest + 1 >= window || r == n - 1)) {
            if (wait_readable(conn[oldest]) || read(conn[oldest], &ack, 1) != 1) {
                fprintf(stderr, "mica: rank 0: rank %d did not take the segments\n", oldest);
                return -1;
            }
            oldest++;
        }
    }
    return 0;
}

/* Any other rank: hand rank 0 this rank's segment, then take everyone's. */
static int hand_in_and_collect(const mica_boot_t *boot, int memfd, size_t bytes, char **seg)
{
    int me = boot->rank, n = boot->size, s, published = 0, rc = -1;
    while ((s = connect_to(boot, 0, published)) < 0) {
        if (s == -3)
            return -1;
        if (s == -2)
            published = 1;            /* another user's process holds the name: rank 0's own */
        else
            poll(NULL, 0, 1);         /* its backlog is full: a moment */
    }
    if (send_fds(s, me, &memfd, 1)) {
        fprintf(stderr, "mica: rank %d: cannot hand its segment to rank 0: %s\n", me,
                strerror(errno));
        goto out;
    }
    int fds[MAX_FDS];
    for (int have = 0; have < n;) {
        int first, k = recv_fds(s, &first, fds, MAX_FDS);
        if (k <= 0 || first != have || first + k > n) {
            for (int i = 0; i < k; i++)
                close(fds[i]);
            fprintf(stderr, "mica: rank %d: rank 0 handed over no segments\n", me);
            goto out;
        }
        int bad = 0;
        for (int i = 0; i < k; i++) {
            int r = first + i;
            if (!bad && r != me && !(seg[r] = map_peer(boot, r, fds[i], bytes)))
                bad = 1;
            close(fds[i]);
        }
        if (bad)
            goto out;
        have += k;
    }
    char ack = 1;
    rc = write(s, &ack, 1) == 1 ? 0 : -1;
out:
    close(s);
    return rc;
}

int mica_segment_share(const mica_boot_t *boot, size_t bytes, char **seg)
{
    int me = boot->rank, n = boot->size, rc = -1, listener = -1;
    int memfd = memfd_create("mica-shm", MFD_CLOEXEC);
    int *fd = malloc((size_t)n * sizeof *fd), *conn = malloc((size_t)n * sizeof *conn);
    if (memfd < 0 || !fd || !conn) {
        fprintf(stderr, "mica: rank %d: no shared-memory segment: %s\n", me, strerror(errno));
        goto out;
    }
    for (int r = 0; r < n; r++)
        fd[r] = conn[r] = -1;
    if (ftruncate(memfd, (off_t)bytes)) {
        perror("mica: ftruncate of the shared-memory segment");
        goto out;
    }
    seg[me] = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0);
    if (seg[me] == MAP_FAILED) {
        seg[me] = NULL;
        perror("mica: mmap of the shared-memory segment");
        goto out;
    }
    if ((me == 0 && (listener = listen_as(boot)) < 0) || mica_boot_fence())
        goto out;
    fd[0] = memfd;
    rc = me == 0 ? gather_and_hand_out(boot, listener, bytes, seg, fd, conn)
                 : hand_in_and_collect(boot, memfd, bytes, seg);
out:
    for (int r = 1; fd && r < n; r++) {
        if (fd[r] >= 0)
            close(fd[r]);
        if (conn[r] >= 0)
            close(conn[r]);
    }
    if (listener >= 0)
        close(listener);
    if (memfd >= 0)
        close(memfd);
    free(fd);
    free(conn);
    return rc;
}

/* --- segments for a group, made after start-up (segment.h) -------------------------------- */

static size_t at_least_a_page(size_t bytes)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    return bytes ? bytes : page;
}

int mica_segment_new(size_t bytes, int *fd, char **map)
{
    bytes = at_least_a_page(bytes);
    *map = NULL;
    *fd = memfd_create("mica-win", MFD_CLOEXEC);
    if (*fd < 0)
        return mica_error(MPI_ERR_NO_MEM, "no shared segment of %zu bytes: memfd_create: %s",
                          bytes, strerror(errno));
    if (ftruncate(*fd, (off_t)bytes)) {
        int e = errno;
        close(*fd);
        return mica_error(MPI_ERR_NO_MEM, "no shared segment of %zu bytes: %s", bytes,
                          strerror(e));
    }
    *map = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0);
    if (*map == MAP_FAILED) {
        int e = errno;
        *map = NULL;
        close(*fd);
        return mica_error(MPI_ERR_NO_MEM, "cannot map a shared segment of %zu bytes: %s", bytes,
                          strerror(e));
    }
    return MPI_SUCCESS;
}

void mica_segment_unmap(char *map, size_t bytes)
{
    if (map)
        munmap(map, at_least_a_page(bytes));
}

/* "mica-win-<pid>-<64 random bits>": unguessable, but the peers' checks do not rest on that. */
static socklen_t group_address(struct sockaddr_un *a, const char *name)
{
    memset(a, 0, sizeof *a);
    a->sun_family = AF_UNIX;
    size_t n = strlen(name);
    memcpy(a->sun_path + 1, name, n);
    return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n);
}

int mica_segment_listen(int *listener, char name[MICA_SEGMENT_NAME])
{
    for (int tries = 0; tries < 8; tries++) {
        snprintf(name, MICA_SEGMENT_NAME, "mica-win-%ld-%016llx", (long)getpid(),
                 (unsigned long long)random64());
        struct sockaddr_un a;
        socklen_t len = group_address(&a, name);
        int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        if (s < 0)
            return mica_error(MPI_ERR_OTHER, "no socket to share a segment: %s", strerror(errno));
        if (!bind(s, (struct sockaddr *)&a, len) && !listen(s, 64)) {
            *listener = s;
            return MPI_SUCCESS;
        }
        int e = errno;
        close(s);
        if (e != EADDRINUSE)
            return mica_error(MPI_ERR_OTHER, "cannot listen on @%s: %s", name, strerror(e));
    }
    return mica_error(MPI_ERR_OTHER, "every name tried to share a segment was taken");
}

/* The process at the other end of s: its id if it is one of this user's, else -1. */
static long peer_pid(int s)
{
    struct ucred cred;
    socklen_t len = sizeof cred;
    if (getsockopt(s, SOL_SOCKET, SO_PEERCRED, &cred, &len) || cred.uid != geteuid())
        return -1;
    return (long)cred.pid;
}

int mica_segment_give(int listener, int memfd, const int *pids, int n)
{
    unsigned char *served = calloc((size_t)n + 1, 1);
    int rc = served ? MPI_SUCCESS : mica_error(MPI_ERR_NO_MEM, "no memory to share a segment");
    for (int given = 0; rc == MPI_SUCCESS && given < n;) {
        if (wait_readable(listener)) {
            rc = mica_error(MPI_ERR_OTHER, "the process manager went while a shared segment "
                            "was handed out");
            break;
        }
        int c;
        while (given < n && (c = accept4(listener, NULL, NULL, SOCK_CLOEXEC)) >= 0) {
            long pid = peer_pid(c);
            int i = 0;                /* a stranger, or a process served already, gets nothing */
            while (i < n && (pids[i] != pid || served[i]))
                i++;
            if (i < n && !send_fds(c, 0, &memfd, 1)) {
                served[i] = 1;
                given++;
            }
            close(c);
        }
    }
    free(served);
    close(listener);
    return rc;
}

int mica_segment_take(const char *name, int owner_pid, size_t bytes, char **map)
{
    struct sockaddr_un a;
    socklen_t len = group_address(&a, name);
    int s, fd = -1, word;
    for (;;) {                        /* EAGAIN: the owner's backlog is full, a moment */
        s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        if (s < 0)
            return mica_error(MPI_ERR_OTHER, "no socket to take a segment: %s", strerror(errno));
        if (!connect(s, (struct sockaddr *)&a, len))
            break;
        int e = errno;
        close(s);
        if (e != EAGAIN)
            return mica_error(MPI_ERR_OTHER, "cannot reach @%s for a shared segment: %s", name,
                              strerror(e));
        poll(NULL, 0, 1);
    }
    int rc = MPI_SUCCESS;
    if (peer_pid(s) != owner_pid)
        rc = mica_error(MPI_ERR_OTHER, "@%s is not held by process %d, which shares the "
                        "segment: refused", name, owner_pid);
    else if (recv_fds(s, &word, &fd, 1) != 1)
        rc = mica_error(MPI_ERR_OTHER, "process %d handed over no shared segment", owner_pid);
    close(s);
    if (rc != MPI_SUCCESS)
        return rc;
    bytes = at_least_a_page(bytes);
    struct stat st;
    if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
        (size_t)st.st_size != bytes)
        rc = mica_error(MPI_ERR_OTHER, "refused the shared segment of process %d (owner %ld, "
                        "%lld bytes)", owner_pid, (long)st.st_uid, (long long)st.st_size);
    else if ((*map = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)) == MAP_FAILED) {
        *map = NULL;
        rc = mica_error(MPI_ERR_NO_MEM, "cannot map a shared segment of %zu bytes: %s", bytes,
                        strerror(errno));
    }
    close(fd);
    return rc;
}
