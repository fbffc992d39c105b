/* mica-prof: the names of the files the tool writes (files.h), built without printf (also in a
 * signal handler), and the wait for the other ranks' files. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "files.h"
#include "clock.h"
#include "config.h"
#include "state.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void mp_file_path(char *out, size_t n, const char *suffix)
{
    /* dir/name-or-mica-prof.<id><suffix>, built without printf */
    size_t k = 0;
    const char *parts[5];
    int np = 0;
    parts[np++] = mp_cfg.dir;
    parts[np++] = "/";
    if (mp_cfg.name[0]) {
        parts[np++] = mp_cfg.name;
    } else {
        parts[np++] = "mica-prof.";
        parts[np++] = mp_st.id;
    }
    parts[np++] = suffix;
    for (int i = 0; i < np; i++)
        for (const char *s = parts[i]; *s && k + 1 < n; s++)
            out[k++] = *s;
    out[k] = 0;
}

/* ".rank<r><ext>"; r < 0: this process's rank, from the launcher's environment before MPI_Init */
void mp_file_rank_suffix_of(long r, char *out, size_t n, const char *ext)
{
    char num[24];
    int i = 23;
    num[i] = 0;
    const char *pre = ".rank";
    if (r < 0) {
        const char *e = getenv("PMI_RANK");
        if (!e)
            e = getenv("OMPI_COMM_WORLD_RANK");
        if (!e)
            e = getenv("PMIX_RANK");
        if (e && *e) {
            r = strtol(e, NULL, 10);
        } else {
            pre = ".pid";
            r = mp_st.pid;
        }
    }
    do {
        num[--i] = (char)('0' + r % 10);
        r /= 10;
    } while (r);
    size_t k = 0;
    for (const char *s = pre; *s && k + 1 < n; s++)
        out[k++] = *s;
    for (const char *s = num + i; *s && k + 1 < n; s++)
        out[k++] = *s;
    for (const char *s = ext; *s && k + 1 < n; s++)
        out[k++] = *s;
    out[k] = 0;
}

void mp_file_rank_suffix(char *out, size_t n, const char *ext)
{
    mp_file_rank_suffix_of(mp_st.rank, out, n, ext);
}

void mp_wait_rank_files(void)
{
    char suffix[64], path[2048];
    uint64_t until = mp_mono_ns() + (uint64_t)(mp_cfg.exit_wait * 1e9);
    for (int r = 0; r < mp_world_size; r++) {
        mp_file_rank_suffix_of(r, suffix, sizeof suffix, ".json");
        mp_file_path(path, sizeof path, suffix);
        while (access(path, F_OK) != 0 && mp_mono_ns() < until)
            nanosleep(&(struct timespec){0, 5000000}, NULL);
    }
}


int mp_file_open(const char *path)
{
    mkdir(mp_cfg.dir, 0777);
    return open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
}
