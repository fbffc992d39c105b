/* mica-prof: return addresses resolved to function, file and line (symbols.h): the object
 * that holds each address (dl_iterate_phdr), then one addr2line run per object. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "symbols.h"
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

typedef struct {
    uintptr_t pc;
    const char *obj;
    uintptr_t bias;
} mp_where;

static int phdr_cb(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    mp_where *w = data;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *p = &info->dlpi_phdr[i];
        if (p->p_type != PT_LOAD)
            continue;
        uintptr_t lo = info->dlpi_addr + p->p_vaddr;
        if (w->pc >= lo && w->pc < lo + p->p_memsz) {
            w->obj = info->dlpi_name;
            w->bias = info->dlpi_addr;
            return 1;
        }
    }
    return 0;
}

static char *xstrdup(const char *s)
{
    char *d = malloc(strlen(s) + 1);
    if (d)
        strcpy(d, s);
    return d;
}

const char *mp_symbols_base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* Run addr2line on one object for n offsets; fills fn[i] and fl[i] (malloc'd) when it can. */
static void addr2line_batch(const char *obj, const uintptr_t *off, int n, char **fn, char **fl)
{
    if (!mp_cfg.addr2line[0] || n == 0)
        return;
    char in[] = "/tmp/mica-prof-a2l-XXXXXX";
    int fd = mkstemp(in);
    if (fd < 0)
        return;
    FILE *f = fdopen(fd, "w");
    for (int i = 0; i < n; i++)
        fprintf(f, "%#lx\n", (unsigned long)off[i]);
    fclose(f);
    int pfd[2];
    if (pipe(pfd) != 0) {
        unlink(in);
        return;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, in, O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, pfd[1], 1);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addclose(&fa, pfd[0]);
    posix_spawn_file_actions_addclose(&fa, pfd[1]);
    /* the helper runs without the tool (and without the MPI library) preloaded */
    int ne = 0;
    for (char **e = environ; *e; e++)
        ne++;
    char **env = malloc(sizeof(char *) * (size_t)(ne + 1));
    int k = 0;
    for (char **e = environ; env && *e; e++)
        if (strncmp(*e, "LD_PRELOAD=", 11))
            env[k++] = *e;
    if (env)
        env[k] = NULL;
    char *argv[] = {mp_cfg.addr2line, (char *)"-f", (char *)"-C", (char *)"-e", (char *)obj, NULL};
    pid_t pid;
    int rc = posix_spawnp(&pid, mp_cfg.addr2line, &fa, NULL, argv, env ? env : environ);
    posix_spawn_file_actions_destroy(&fa);
    free(env);
    close(pfd[1]);
    if (rc != 0) {
        close(pfd[0]);
        unlink(in);
        return;
    }
    FILE *r = fdopen(pfd[0], "r");
    char line[4096];
    for (int i = 0; r && i < n; i++) {
        if (!fgets(line, sizeof line, r))
            break;
        line[strcspn(line, "\n")] = 0;
        fn[i] = xstrdup(line);
        if (!fgets(line, sizeof line, r))
            break;
        line[strcspn(line, "\n")] = 0;
        char *d = strstr(line, " (discriminator");
        if (d)
            *d = 0;
        fl[i] = xstrdup(line);
    }
    if (r) {
        while (fgets(line, sizeof line, r))
            ;
        fclose(r);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    unlink(in);
}

/* One string per address: "function file:line", or "function (object+0xoffset)". */
char **mp_symbols_resolve(const uintptr_t *pcs, int n)
{
    char **out = calloc((size_t)n + 1, sizeof(char *));
    mp_where *w = calloc((size_t)n + 1, sizeof *w);
    if (out == NULL || w == NULL) {
        free(w);
        return out;
    }
    char exe[4096];
    ssize_t el = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[el > 0 ? el : 0] = 0;
    for (int i = 0; i < n; i++) {
        w[i].pc = pcs[i];
        if (pcs[i] == 0 || !dl_iterate_phdr(phdr_cb, &w[i]))
            w[i].obj = NULL;
        else if (w[i].obj == NULL || w[i].obj[0] == 0)
            w[i].obj = exe;
    }
    /* batch per object */
    int *done = calloc((size_t)n + 1, sizeof(int));
    uintptr_t *off = malloc(sizeof(uintptr_t) * ((size_t)n + 1));
    int *ix = malloc(sizeof(int) * ((size_t)n + 1));
    char **fn = calloc((size_t)n + 1, sizeof(char *)), **fl = calloc((size_t)n + 1, sizeof(char *));
    for (int i = 0; done && off && ix && fn && fl && i < n; i++) {
        if (done[i] || w[i].obj == NULL)
            continue;
        int m = 0;
        for (int j = i; j < n; j++) {
            if (!done[j] && w[j].obj && !strcmp(w[j].obj, w[i].obj)) {
                done[j] = 1;
                ix[m] = j;
                off[m++] = w[j].pc - 1 - w[j].bias;   /* the call instruction, not the return */
            }
        }
        memset(fn, 0, sizeof(char *) * (size_t)m);
        memset(fl, 0, sizeof(char *) * (size_t)m);
        addr2line_batch(w[i].obj, off, m, fn, fl);
        for (int k = 0; k < m; k++) {
            char buf[8192];
            const char *func = fn[k] && strcmp(fn[k], "??") ? fn[k] : NULL;
            const char *file = fl[k] && strncmp(fl[k], "??", 2) && !strstr(fl[k], ":?") ? fl[k] : NULL;
            if (file && func)
                snprintf(buf, sizeof buf, "%s %s", func, file);
            else if (file)
                snprintf(buf, sizeof buf, "%s", file);
            else if (func)
                snprintf(buf, sizeof buf, "%s (%s+%#lx)", func, mp_symbols_base_name(w[i].obj), (unsigned long)off[k]);
            else
                snprintf(buf, sizeof buf, "%s+%#lx", mp_symbols_base_name(w[i].obj), (unsigned long)off[k]);
            out[ix[k]] = xstrdup(buf);
            free(fn[k]);
            free(fl[k]);
        }
    }
    for (int i = 0; i < n; i++) {
        if (out[i] == NULL) {
            char buf[64];
            if (pcs[i] == 0)
                snprintf(buf, sizeof buf, "-");
            else
                snprintf(buf, sizeof buf, "%#lx", (unsigned long)pcs[i]);
            out[i] = xstrdup(buf);
        }
        for (char *c = out[i]; c && *c; c++)
            if (*c == '\t' || *c == '\n' || *c == '\x1e')
                *c = ' ';
    }
    free(done);
    free(off);
    free(ix);
    free(fn);
    free(fl);
    free(w);
    return out;
}

