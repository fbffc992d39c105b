/* Bootstrap client: how a Mica process learns its rank and exchanges
 * start-up data with the other processes of its job.
 *
 * It speaks the PMI-1 wire protocol ("simple PMI"), so any process manager
 * that offers it can launch Mica programs: Mica's own mpiexec, MPICH's Hydra
 * (both its default PMI_FD mode and -pmi-port), and others. Without a
 * process manager the process is a singleton (rank 0 of 1) and the
 * key-value store is a table in this process.
 *
 * Modes, chosen from the environment by mica_boot_init():
 *   PMI_FD (+ PMI_RANK, PMI_SIZE)   an inherited, already connected socket;
 *   PMI_PORT=host:port (+ PMI_ID or PMI_RANK)
 *                                   connect over TCP, then the initack
 *                                   handshake tells rank and size;
 *   neither                         singleton.
 *
 * Values and keys travel inside a text line, so they must be non-empty
 * printable ASCII without spaces and without '\\' (0x21..0x7e minus '\\').
 * Callers with binary data hex-encode it. Their lengths are bounded by
 * key_max and val_max below (Hydra: 1024 bytes for a value).
 *
 * Not thread-safe: PMI-1 allows one request in flight; callers serialise.
 * All functions except mica_boot_init() require a successful init first.
 */
#ifndef MICA_RUNTIME_BOOT_H
#define MICA_RUNTIME_BOOT_H

typedef struct mica_boot {
    int rank, size, appnum;
    char jobid[64];     /* unique per job on this host, [A-Za-z0-9_-] only:
                           names the job's sockets "mica-<jobid>-..." */
    int universe_size;  /* the launcher's universe size, or size if unknown */
    int key_max;        /* longest key accepted by mica_boot_put (bytes) */
    int val_max;        /* longest value accepted by mica_boot_put (bytes) */
    int singleton;      /* 1 when no process manager is present */
} mica_boot_t;

/* 0 on success; -1 with a message on stderr on failure. Calling it again
 * after success returns the same information. */
int mica_boot_init(mica_boot_t *b);

/* How long (seconds) a request may wait for the process manager's answer before it fails with
 * a message; 0 (the default) waits for ever. Fences wait for ever: the other processes may be
 * slow to come. Call before mica_boot_init. */
void mica_boot_set_timeout(int seconds);

/* Publish key=val under this rank. Visible to others after the next
 * mica_boot_fence(). A later put of the same key replaces the value.
 * 0 on success, -1 (message on stderr) on a bad key/value or I/O error. */
int mica_boot_put(const char *key, const char *val);

/* Collective over all ranks of the job: every put made before it by any
 * rank is visible to every get made after it. 0 on success, -1 on error. */
int mica_boot_fence(void);

/* Read the value `rank` put under `key` into val[len].
 * 0 found; 1 not found (no message); -1 error, incl. len too small
 * (message on stderr). */
int mica_boot_get(int rank, const char *key, char *val, int len);

/* Is the process manager still there? 0 once its connection has closed (it died): a process
 * waiting for ever on a peer that went with it should end. Cheap (one poll, no wait); 1 for a
 * singleton. */
int mica_boot_alive(void);

/* Tell the process manager the job must die (PMI abort, carrying code and
 * msg), then _exit(code). Prints msg itself unless Mica's mpiexec, which
 * reports it, is the process manager. Async-signal-unsafe but never
 * returns; usable after a failed or before any init. */
_Noreturn void mica_boot_abort(int code, const char *msg);

/* Tell the process manager this process finished cleanly (PMI finalize)
 * and release the connection. 0 on success, -1 on error. */
int mica_boot_finalize(void);

#endif
