/* mica-prof reports: the job's report at MPI_Finalize (aggregated with PMPI collectives on the
 * tool's own communicator), each rank's own file when the job ends otherwise, call-site
 * resolution (dladdr-style lookup plus a batched addr2line per object), and the trace. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <link.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static const char *const cat_names[MP_NCAT] = {"other", "p2p", "coll", "rma", "io"};

/* ---------------------------------------------------------------------------------------- */
/* This rank's statistics, merged over its threads (no allocation: usable in a signal handler) */

typedef struct {
    mp_stat f[MP_NFUNC];
    uint64_t hist[MP_NCAT][MP_NBUCKET], hbytes[MP_NCAT];
    int nthreads;
    uint64_t sites_lost, ev_lost;
    uint64_t now;
    double rate, run, collected, mpi;
} mp_local;

static mp_local L;

static void stat_add(mp_stat *d, const mp_stat *s)
{
    d->calls += s->calls;
    d->ticks += s->ticks;
    d->sent += s->sent;
    d->recv += s->recv;
    if (s->tmin < d->tmin)
        d->tmin = s->tmin;
    if (s->tmax > d->tmax)
        d->tmax = s->tmax;
}

static int current(const mp_thread *t)
{
    return (t->gen & ~(uint64_t)1) == (__atomic_load_n(&mp_gen, __ATOMIC_ACQUIRE) & ~(uint64_t)1);
}

static void merge_local(void)
{
    memset(&L, 0, sizeof L);
    for (int i = 0; i < MP_NFUNC; i++)
        L.f[i].tmin = UINT64_MAX;
    for (mp_thread *t = __atomic_load_n(&mp_threads, __ATOMIC_ACQUIRE); t; t = t->next) {
        if (!current(t))
            continue;
        L.nthreads++;
        for (int i = 0; i < MP_NFUNC; i++)
            if (t->f[i].calls)
                stat_add(&L.f[i], &t->f[i]);
        /* with call sites on, calls are recorded per site only */
        for (int i = 0; t->sites && i < mp_cfg.max_sites; i++)
            if (t->sites[i].used)
                stat_add(&L.f[t->sites[i].fid], &t->sites[i].st);
        for (int c = 0; c < MP_NCAT; c++) {
            for (int b = 0; b < MP_NBUCKET; b++)
                L.hist[c][b] += t->hist[c][b];
            L.hbytes[c] += t->hbytes[c];
        }
        L.sites_lost += t->sites_lost;
        L.ev_lost += t->ev_lost;
    }
    L.now = mp_now();
    L.rate = mp_tick_rate();
    uint64_t from = mp_st.reset_at > mp_st.tick0 ? mp_st.reset_at : mp_st.tick0;
    L.run = (double)(L.now - from) / L.rate;
    uint64_t on = mp_st.on_total;
    if (!(__atomic_load_n(&mp_gen, __ATOMIC_ACQUIRE) & 1))
        on += L.now - mp_st.on_since;
    L.collected = (double)on / L.rate;
    uint64_t mpi = 0;
    for (int i = 0; i < MP_NFUNC; i++)
        mpi += L.f[i].ticks;
    L.mpi = (double)mpi / L.rate;
}

/* The matrix row of this rank: bytes[n+1] then messages[n+1] (last column: outside world);
 * the threads keep (bytes, messages) pairs. */
static void merge_row(uint64_t *row, int n)
{
    memset(row, 0, sizeof(uint64_t) * 2 * (size_t)(n + 1));
    for (mp_thread *t = __atomic_load_n(&mp_threads, __ATOMIC_ACQUIRE); t; t = t->next) {
        if (!current(t) || t->row == NULL || t->row_n != n)
            continue;
        for (int i = 0; i <= n; i++) {
            row[i] += t->row[2 * i];
            row[n + 1 + i] += t->row[2 * i + 1];
        }
    }
}

/* ---------------------------------------------------------------------------------------- */
/* A small buffered writer using only write(2): for per-rank files, also from signal handlers */

typedef struct {
    int fd;
    size_t n;
    char buf[8192];
} wbuf;

static void w_flush(wbuf *w)
{
    size_t off = 0;
    while (off < w->n) {
        ssize_t k = write(w->fd, w->buf + off, w->n - off);
        if (k <= 0) {
            if (k < 0 && errno == EINTR)
                continue;
            break;
        }
        off += (size_t)k;
    }
    w->n = 0;
}

static void w_mem(wbuf *w, const char *s, size_t n)
{
    while (n) {
        if (w->n == sizeof w->buf)
            w_flush(w);
        size_t k = sizeof w->buf - w->n < n ? sizeof w->buf - w->n : n;
        memcpy(w->buf + w->n, s, k);
        w->n += k;
        s += k;
        n -= k;
    }
}

static void w_s(wbuf *w, const char *s)
{
    w_mem(w, s, strlen(s));
}

static void w_u(wbuf *w, uint64_t v)
{
    char b[24];
    int i = 23;
    b[i] = 0;
    do {
        b[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    w_s(w, b + i);
}

static void w_i(wbuf *w, long long v)
{
    if (v < 0) {
        w_s(w, "-");
        v = -v;
    }
    w_u(w, (uint64_t)v);
}

/* A non-negative double with 9 decimals, without printf. */
static void w_d(wbuf *w, double v)
{
    if (!(v >= 0) || v > 1e15)
        v = 0;
    uint64_t ip = (uint64_t)v;
    uint64_t fr = (uint64_t)((v - (double)ip) * 1e9 + 0.5);
    if (fr >= 1000000000u) {
        ip++;
        fr -= 1000000000u;
    }
    w_u(w, ip);
    char b[11];
    b[0] = '.';
    for (int i = 9; i >= 1; i--) {
        b[i] = (char)('0' + fr % 10);
        fr /= 10;
    }
    b[10] = 0;
    w_s(w, b);
}

static void w_hex(wbuf *w, uint64_t v)
{
    char b[20];
    int i = 19;
    b[i] = 0;
    do {
        b[--i] = "0123456789abcdef"[v & 15];
        v >>= 4;
    } while (v);
    b[--i] = 'x';
    b[--i] = '0';
    w_s(w, b + i);
}

static void w_js(wbuf *w, const char *s)
{
    w_s(w, "\"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            char e[2] = {'\\', (char)c};
            w_mem(w, e, 2);
        } else if (c < 0x20) {
            char e[7] = "\\u0000";
            e[4] = "0123456789abcdef"[c >> 4];
            e[5] = "0123456789abcdef"[c & 15];
            w_mem(w, e, 6);
        } else {
            w_mem(w, (const char *)&c, 1);
        }
    }
    w_s(w, "\"");
}

/* ---------------------------------------------------------------------------------------- */
/* File names                                                                                */

static void base_path(char *out, size_t n, const char *suffix)
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
static void rank_suffix_of(long r, char *out, size_t n, const char *ext)
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

static void rank_suffix(char *out, size_t n, const char *ext)
{
    rank_suffix_of(mp_st.rank, out, n, ext);
}

void mp_wait_rank_files(void)
{
    char suffix[64], path[2048];
    uint64_t until = mp_mono_ns() + (uint64_t)(mp_cfg.exit_wait * 1e9);
    for (int r = 0; r < mp_world_size; r++) {
        rank_suffix_of(r, suffix, sizeof suffix, ".json");
        base_path(path, sizeof path, suffix);
        while (access(path, F_OK) != 0 && mp_mono_ns() < until)
            nanosleep(&(struct timespec){0, 5000000}, NULL);
    }
}

/* ---------------------------------------------------------------------------------------- */
/* Resolving return addresses to function, file and line                                     */

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

static const char *base_name(const char *p)
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

typedef struct {
    uintptr_t pc;
    int idx;
} pc_ix;

static int cmp_pc(const void *a, const void *b)
{
    uintptr_t x = ((const pc_ix *)a)->pc, y = ((const pc_ix *)b)->pc;
    return x < y ? -1 : x > y;
}

/* One string per address: "function file:line", or "function (object+0xoffset)". */
static char **resolve(const uintptr_t *pcs, int n)
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
                snprintf(buf, sizeof buf, "%s (%s+%#lx)", func, base_name(w[i].obj), (unsigned long)off[k]);
            else
                snprintf(buf, sizeof buf, "%s+%#lx", base_name(w[i].obj), (unsigned long)off[k]);
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

/* ---------------------------------------------------------------------------------------- */
/* This rank's call sites: merged over threads, resolved                                     */

typedef struct {
    int fid;
    char *loc;                      /* frames joined by \x1e */
    mp_stat st;
} lsite;

static int cmp_lsite(const void *a, const void *b)
{
    const lsite *x = a, *y = b;
    if (x->fid != y->fid)
        return x->fid - y->fid;
    return strcmp(x->loc, y->loc);
}

static lsite *local_sites(int *count)
{
    int n = 0, d = mp_cfg.depth;
    *count = 0;
    for (mp_thread *t = mp_threads; t; t = t->next)
        for (int i = 0; current(t) && t->sites && i < mp_cfg.max_sites; i++)
            n += t->sites[i].used != 0;
    if (n == 0)
        return NULL;
    mp_site **all = malloc(sizeof *all * (size_t)n);
    uintptr_t *pcs = calloc((size_t)n * (size_t)d, sizeof *pcs);
    if (!all || !pcs) {
        free(all);
        free(pcs);
        return NULL;
    }
    int k = 0;
    for (mp_thread *t = mp_threads; t; t = t->next)
        for (int i = 0; current(t) && t->sites && i < mp_cfg.max_sites; i++)
            if (t->sites[i].used && k < n)
                all[k++] = &t->sites[i];
    n = k;
    /* unique addresses */
    pc_ix *u = malloc(sizeof *u * (size_t)n * (size_t)d);
    for (int i = 0; u && i < n; i++)
        for (int j = 0; j < d; j++) {
            u[i * d + j].pc = all[i]->pc[j];
            u[i * d + j].idx = i * d + j;
        }
    int nu = 0;
    if (u) {
        qsort(u, (size_t)n * (size_t)d, sizeof *u, cmp_pc);
        for (int i = 0; i < n * d; i++)
            if (nu == 0 || pcs[nu - 1] != u[i].pc)
                pcs[nu++] = u[i].pc;
    }
    char **names = resolve(pcs, nu);
    lsite *ls = calloc((size_t)n, sizeof *ls);
    for (int i = 0; ls && names && i < n; i++) {
        size_t len = 1;
        const char *fr[MP_MAXDEPTH];
        for (int j = 0; j < d; j++) {
            uintptr_t pc = all[i]->pc[j];
            int lo = 0, hi = nu - 1, at = -1;
            while (lo <= hi) {
                int mid = (lo + hi) / 2;
                if (pcs[mid] == pc) {
                    at = mid;
                    break;
                }
                if (pcs[mid] < pc)
                    lo = mid + 1;
                else
                    hi = mid - 1;
            }
            fr[j] = at >= 0 && names[at] ? names[at] : "?";
            len += strlen(fr[j]) + 1;
        }
        /* drop trailing empty frames (the stack was shorter than the depth) */
        int dd = d;
        while (dd > 1 && !strcmp(fr[dd - 1], "-"))
            dd--;
        ls[i].loc = malloc(len);
        ls[i].loc[0] = 0;
        for (int j = 0; j < dd; j++) {
            if (j)
                strcat(ls[i].loc, "\x1e");
            strcat(ls[i].loc, fr[j]);
        }
        ls[i].fid = (int)all[i]->fid;
        ls[i].st = all[i]->st;
    }
    for (int i = 0; names && i < nu; i++)
        free(names[i]);
    free(names);
    free(u);
    free(pcs);
    free(all);
    if (ls == NULL)
        return NULL;
    /* merge equal (function, location) */
    qsort(ls, (size_t)n, sizeof *ls, cmp_lsite);
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (m > 0 && !cmp_lsite(&ls[m - 1], &ls[i])) {
            stat_add(&ls[m - 1].st, &ls[i].st);
            free(ls[i].loc);
        } else {
            ls[m++] = ls[i];
        }
    }
    *count = m;
    return ls;
}

/* ---------------------------------------------------------------------------------------- */
/* This rank's own file (the job did not reach MPI_Finalize, or MPI_Pcontrol(3))             */

static void w_stat_fields(wbuf *w, const mp_stat *s, double rate)
{
    w_s(w, "\"calls\": ");
    w_u(w, s->calls);
    w_s(w, ", \"time\": ");
    w_d(w, (double)s->ticks / rate);
    w_s(w, ", \"time_min_call\": ");
    w_d(w, s->calls ? (double)s->tmin / rate : 0);
    w_s(w, ", \"time_max_call\": ");
    w_d(w, (double)s->tmax / rate);
    w_s(w, ", \"bytes_sent\": ");
    w_u(w, s->sent);
    w_s(w, ", \"bytes_recv\": ");
    w_u(w, s->recv);
}

static void w_hist_json(wbuf *w, const uint64_t hist[MP_NCAT][MP_NBUCKET], const uint64_t *hbytes)
{
    w_s(w, "{");
    for (int c = 1; c < MP_NCAT; c++) {
        w_s(w, c > 1 ? ", " : "");
        w_js(w, cat_names[c]);
        w_s(w, ": {\"bytes\": ");
        w_u(w, hbytes[c]);
        w_s(w, ", \"buckets\": [");
        int first = 1;
        for (int b = 0; b < MP_NBUCKET; b++) {
            if (!hist[c][b])
                continue;
            w_s(w, first ? "" : ", ");
            first = 0;
            w_s(w, "{\"lo\": ");
            w_u(w, b ? (uint64_t)1 << (b - 1) : 0);
            w_s(w, ", \"hi\": ");
            w_u(w, b == 0 ? 0 : b == 64 ? UINT64_MAX : ((uint64_t)1 << b) - 1);
            w_s(w, ", \"count\": ");
            w_u(w, hist[c][b]);
            w_s(w, "}");
        }
        w_s(w, "]}");
    }
    w_s(w, "}");
}

static void write_rank_file(wbuf *w, char *path, char *suffix, const char *why, int safe);

static int open_out(const char *path)
{
    mkdir(mp_cfg.dir, 0777);
    return open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
}

void mp_write_rank_file(const char *why, int safe)
{
    static wbuf W;                  /* static: no stack or heap use in a signal handler */
    static char path[2048], suffix[64];
    static int busy;
    wbuf *w = &W;
    if (__atomic_exchange_n(&busy, 1, __ATOMIC_ACQUIRE))
        return;                     /* another thread (or a signal on this one) is writing */
    write_rank_file(w, path, suffix, why, safe);
    __atomic_store_n(&busy, 0, __ATOMIC_RELEASE);
}

static void write_rank_file(wbuf *w, char *path, char *suffix, const char *why, int safe)
{
    merge_local();
    double rate = L.rate;
    static char final[2048];
    rank_suffix(suffix, 64, ".json");
    base_path(final, sizeof final, suffix);
    rank_suffix(suffix, 64, ".json.tmp");
    base_path(path, 2048, suffix);
    w->fd = open_out(path);
    if (w->fd < 0)
        return;
    w->n = 0;
    w_s(w, "{\"tool\": \"mica-prof\", \"version\": 1, \"complete\": false, \"reason\": ");
    w_js(w, why);
    w_s(w, ", \"id\": ");
    w_js(w, mp_st.id);
    w_s(w, ", \"rank\": ");
    w_i(w, mp_st.rank);
    w_s(w, ", \"ranks\": ");
    w_i(w, mp_world_size);
    w_s(w, ", \"pid\": ");
    w_i(w, mp_st.pid);
    w_s(w, ", \"threads\": ");
    w_i(w, L.nthreads);
    w_s(w, ", \"clock\": ");
    w_js(w, mp_use_tsc ? "tsc" : "monotonic");
    w_s(w, ", \"run_time\": ");
    w_d(w, L.run);
    w_s(w, ", \"collected_time\": ");
    w_d(w, L.collected);
    w_s(w, ", \"mpi_time\": ");
    w_d(w, L.mpi);
    w_s(w, ",\n \"functions\": [");
    int first = 1;
    for (int i = 0; i < MP_NFUNC; i++) {
        if (!L.f[i].calls)
            continue;
        w_s(w, first ? "\n  {\"name\": " : ",\n  {\"name\": ");
        first = 0;
        w_js(w, mp_fname[i]);
        w_s(w, ", ");
        w_stat_fields(w, &L.f[i], rate);
        w_s(w, "}");
    }
    w_s(w, "],\n \"sites\": [");
    first = 1;
    if (safe) {
        int n = 0;
        lsite *ls = local_sites(&n);
        for (int i = 0; i < n; i++) {
            w_s(w, first ? "\n  {\"function\": " : ",\n  {\"function\": ");
            first = 0;
            w_js(w, mp_fname[ls[i].fid]);
            w_s(w, ", ");
            w_stat_fields(w, &ls[i].st, rate);
            w_s(w, ", \"location\": [");
            char *s = ls[i].loc;
            for (int j = 0; s; j++) {
                char *e = strchr(s, '\x1e');
                if (e)
                    *e = 0;
                w_s(w, j ? ", " : "");
                w_js(w, s);
                s = e ? e + 1 : NULL;
            }
            w_s(w, "]}");
            free(ls[i].loc);
        }
        free(ls);
    } else {
        for (mp_thread *t = mp_threads; t; t = t->next)
            for (int i = 0; current(t) && t->sites && i < mp_cfg.max_sites; i++) {
                const mp_site *s = &t->sites[i];
                if (!s->used)
                    continue;
                w_s(w, first ? "\n  {\"function\": " : ",\n  {\"function\": ");
                first = 0;
                w_js(w, mp_fname[s->fid]);
                w_s(w, ", ");
                w_stat_fields(w, &s->st, rate);
                w_s(w, ", \"location\": [");
                for (int j = 0; j < mp_cfg.depth; j++) {
                    w_s(w, j ? ", \"" : "\"");
                    w_hex(w, s->pc[j]);
                    w_s(w, "\"");
                }
                w_s(w, "]}");
            }
    }
    w_s(w, "],\n \"histograms\": ");
    w_hist_json(w, (const uint64_t(*)[MP_NBUCKET])L.hist, L.hbytes);
    w_s(w, ",\n \"matrix_row\": {\"bytes\": [");
    int n = mp_world_size;
    for (int k = 0; k < 2; k++) {
        if (k)
            w_s(w, "], \"messages\": [");
        for (int j = 0; j <= n && n > 0; j++) {
            uint64_t v = 0;
            for (mp_thread *t = mp_threads; t; t = t->next)
                if (current(t) && t->row && t->row_n == n)
                    v += t->row[2 * j + k];
            w_s(w, j ? ", " : "");
            w_u(w, v);
        }
    }
    w_s(w, "]}\n}\n");
    w_flush(w);
    close(w->fd);
    rename(path, final);            /* a reader never sees half a file */

    /* and a short readable text */
    rank_suffix(suffix, 64, ".txt");
    base_path(path, 2048, suffix);
    w->fd = open_out(path);
    if (w->fd < 0)
        return;
    w_s(w, "mica-prof: partial profile of rank ");
    w_i(w, mp_st.rank);
    w_s(w, " (");
    w_s(w, why);
    w_s(w, ")\nrun time ");
    w_d(w, L.run);
    w_s(w, " s, MPI time ");
    w_d(w, L.mpi);
    w_s(w, " s\n\nfunction                         calls          time (s)      bytes sent      bytes recv\n");
    for (int i = 0; i < MP_NFUNC; i++) {
        if (!L.f[i].calls)
            continue;
        w_s(w, mp_fname[i]);
        for (size_t k = strlen(mp_fname[i]); k < 32; k++)
            w_s(w, " ");
        w_s(w, " ");
        w_u(w, L.f[i].calls);
        w_s(w, "  ");
        w_d(w, (double)L.f[i].ticks / rate);
        w_s(w, "  ");
        w_u(w, L.f[i].sent);
        w_s(w, "  ");
        w_u(w, L.f[i].recv);
        w_s(w, "\n");
    }
    w_flush(w);
    close(w->fd);
}

/* ---------------------------------------------------------------------------------------- */
/* The job's report                                                                          */

typedef struct {
    double run, collected, mpi, calls, threads, sites_lost, ev_lost;
    char host[64];
} rank_row;

typedef struct {
    int fid, nranks;
    char *loc;
    double time, tmin, tmax, rtmin, rtmax;
    uint64_t calls, sent, recv;
} gsite;

static int cmp_gsite_key(const void *a, const void *b)
{
    const gsite *x = a, *y = b;
    if (x->fid != y->fid)
        return x->fid - y->fid;
    return strcmp(x->loc, y->loc);
}

static int cmp_gsite_time(const void *a, const void *b)
{
    const gsite *x = a, *y = b;
    return x->time < y->time ? 1 : x->time > y->time ? -1 : cmp_gsite_key(a, b);
}

static double *g_time_sum;          /* for sorting functions by time */

static int cmp_fid_time(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    double tx = g_time_sum[x], ty = g_time_sum[y];
    return tx < ty ? 1 : tx > ty ? -1 : x - y;
}

static void jstr(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static const char *short_loc(const char *loc, char *buf, size_t n)
{
    /* first frame, with the file name without its directories */
    size_t len = strcspn(loc, "\x1e");
    char fr[4096];
    int more = loc[len] != 0;
    if (len > sizeof fr - 1)
        len = sizeof fr - 1;
    memcpy(fr, loc, len);
    fr[len] = 0;
    char *sp = strrchr(fr, ' ');
    if (sp && strchr(sp, '/') && !strchr(sp, '(')) {
        *sp = 0;
        mp_strlcpy(buf, fr, n);
        size_t k = strlen(buf);
        if (k + 1 < n) {
            buf[k] = ' ';
            mp_strlcpy(buf + k + 1, base_name(sp + 1), n - k - 1);
        }
    } else {
        mp_strlcpy(buf, fr, n);
    }
    if (more && strlen(buf) + 7 < n)
        strcat(buf, " < ...");
    return buf;
}

static void size_label(char *b, size_t n, int k)
{
    static const char *u[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    if (k == 0) {
        snprintf(b, n, "0 B");
        return;
    }
    int e = (k - 1) / 10;
    uint64_t lo = (uint64_t)1 << (k - 1 - e * 10);
    if (k == 1)
        snprintf(b, n, "1 B");
    else if (e == 0)          /* [lo, 2lo - 1] bytes */
        snprintf(b, n, "%llu-%llu B", (unsigned long long)lo, (unsigned long long)(2 * lo - 1));
    else                      /* [lo, 2lo) units */
        snprintf(b, n, "%llu-<%llu %s", (unsigned long long)lo, (unsigned long long)(2 * lo), u[e]);
}

static char *cmdline(void)
{
    static char buf[4096];
    int fd = open("/proc/self/cmdline", O_RDONLY);
    ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : 0;
    if (fd >= 0)
        close(fd);
    if (n < 0)
        n = 0;
    buf[n] = 0;
    for (ssize_t i = 0; i + 1 < n; i++)
        if (buf[i] == 0)
            buf[i] = ' ';
    return buf;
}

static void write_trace(MPI_Comm comm, int rank, int P, double rate)
{
    char path[2048], suffix[64];
    snprintf(suffix, sizeof suffix, ".trace.%d.part", rank);
    base_path(path, sizeof path, suffix);
    FILE *f = (mkdir(mp_cfg.dir, 0777), fopen(path, "w"));
    double off_us = ((double)mp_st.wall0 - (double)mp_st.wall_base) / 1e3;
    int first = 1;
    for (mp_thread *t = mp_threads; f && t; t = t->next) {
        if (!current(t) || t->ev == NULL)
            continue;
        for (uint64_t i = 0; i < t->nev; i++) {
            const mp_event *e = &t->ev[i];
            fprintf(f, "%s{\"name\":\"%s\",\"ph\":\"X\",\"pid\":%d,\"tid\":%u,\"ts\":%.3f,\"dur\":%.3f}",
                    first ? "" : ",\n", mp_fname[e->fid], rank, e->tid,
                    off_us + (double)(e->t0 - mp_st.tick0) / rate * 1e6, (double)e->dt / rate * 1e6);
            first = 0;
        }
    }
    if (f)
        fclose(f);
    PMPI_Barrier(comm);
    if (rank != 0)
        return;
    base_path(path, sizeof path, ".trace.json");
    FILE *o = fopen(path, "w");
    if (o == NULL)
        return;
    fprintf(o, "{\"displayTimeUnit\": \"ms\", \"traceEvents\": [\n");
    for (int r = 0; r < P; r++)
        fprintf(o, "%s{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,\"args\":{\"name\":\"rank %d\"}}",
                r ? ",\n" : "", r, r);
    for (int r = 0; r < P; r++) {
        char part[2048];
        snprintf(suffix, sizeof suffix, ".trace.%d.part", r);
        base_path(part, sizeof part, suffix);
        FILE *in = fopen(part, "r");
        if (in == NULL)
            continue;
        int c = fgetc(in);
        if (c != EOF) {
            fputs(",\n", o);
            fputc(c, o);
            char buf[65536];
            size_t k;
            while ((k = fread(buf, 1, sizeof buf, in)) > 0)
                fwrite(buf, 1, k, o);
        }
        fclose(in);
        unlink(part);
    }
    fprintf(o, "\n]}\n");
    fclose(o);
}

void mp_report_final(void)
{
    MPI_Comm comm = mp_st.comm;
    int rank = mp_world_rank, P = mp_world_size, NF = MP_NFUNC;
    merge_local();
    double rate = L.rate;

    /* per-function arrays */
    uint64_t *u3 = calloc(3 * (size_t)NF, sizeof(uint64_t)), *g3 = calloc(3 * (size_t)NF, sizeof(uint64_t));
    uint64_t *cl = calloc((size_t)NF, sizeof(uint64_t)), *cmin = calloc((size_t)NF, sizeof(uint64_t)),
             *cmax = calloc((size_t)NF, sizeof(uint64_t));
    double *tm = calloc((size_t)NF, sizeof(double)), *tsum = calloc((size_t)NF, sizeof(double)),
           *tmn = calloc((size_t)NF, sizeof(double)), *tmx = calloc((size_t)NF, sizeof(double));
    double *cm2 = calloc(2 * (size_t)NF, sizeof(double)), *gcm = calloc(2 * (size_t)NF, sizeof(double));
    for (int i = 0; i < NF; i++) {
        u3[i] = L.f[i].calls;
        u3[NF + i] = L.f[i].sent;
        u3[2 * NF + i] = L.f[i].recv;
        cl[i] = L.f[i].calls;
        tm[i] = (double)L.f[i].ticks / rate;
        cm2[i] = L.f[i].calls ? (double)L.f[i].tmin / rate : DBL_MAX;
        cm2[NF + i] = -((double)L.f[i].tmax / rate);  /* MIN of negatives = MAX */
    }
    PMPI_Allreduce(u3, g3, 3 * NF, MPI_UINT64_T, MPI_SUM, comm);
    PMPI_Reduce(cl, cmin, NF, MPI_UINT64_T, MPI_MIN, 0, comm);
    PMPI_Reduce(cl, cmax, NF, MPI_UINT64_T, MPI_MAX, 0, comm);
    PMPI_Reduce(tm, tsum, NF, MPI_DOUBLE, MPI_SUM, 0, comm);
    PMPI_Reduce(tm, tmn, NF, MPI_DOUBLE, MPI_MIN, 0, comm);
    PMPI_Reduce(tm, tmx, NF, MPI_DOUBLE, MPI_MAX, 0, comm);
    PMPI_Reduce(cm2, gcm, 2 * NF, MPI_DOUBLE, MPI_MIN, 0, comm);

    /* per rank, per active function: calls and time */
    int na = 0;
    int *act = malloc(sizeof(int) * (size_t)NF + 1);
    for (int i = 0; i < NF; i++)
        if (g3[i])
            act[na++] = i;
    uint64_t *pc = malloc(sizeof(uint64_t) * (size_t)(na + 1)), *gpc = NULL;
    double *pt = malloc(sizeof(double) * (size_t)(na + 1)), *gpt = NULL;
    for (int a = 0; a < na; a++) {
        pc[a] = L.f[act[a]].calls;
        pt[a] = (double)L.f[act[a]].ticks / rate;
    }
    if (rank == 0) {
        gpc = malloc(sizeof(uint64_t) * (size_t)(na + 1) * (size_t)P);
        gpt = malloc(sizeof(double) * (size_t)(na + 1) * (size_t)P);
    }
    PMPI_Gather(pc, na, MPI_UINT64_T, gpc, na, MPI_UINT64_T, 0, comm);
    PMPI_Gather(pt, na, MPI_DOUBLE, gpt, na, MPI_DOUBLE, 0, comm);

    /* per rank totals */
    rank_row me, *rows = rank == 0 ? calloc((size_t)P, sizeof(rank_row)) : NULL;
    memset(&me, 0, sizeof me);
    me.run = L.run;
    me.collected = L.collected;
    me.mpi = L.mpi;
    for (int i = 0; i < NF; i++)
        me.calls += (double)L.f[i].calls;
    me.threads = L.nthreads;
    me.sites_lost = (double)L.sites_lost;
    me.ev_lost = (double)L.ev_lost;
    gethostname(me.host, sizeof me.host - 1);
    PMPI_Gather(&me, (int)sizeof me, MPI_BYTE, rows, (int)sizeof me, MPI_BYTE, 0, comm);

    /* histograms */
    uint64_t hl[MP_NCAT * MP_NBUCKET + MP_NCAT], hg[MP_NCAT * MP_NBUCKET + MP_NCAT];
    memcpy(hl, L.hist, sizeof L.hist);
    memcpy(hl + MP_NCAT * MP_NBUCKET, L.hbytes, sizeof L.hbytes);
    PMPI_Reduce(hl, hg, MP_NCAT * MP_NBUCKET + MP_NCAT, MPI_UINT64_T, MPI_SUM, 0, comm);

    /* matrix */
    int rn = 2 * (P + 1);
    uint64_t *row = calloc((size_t)rn, sizeof(uint64_t)), *mat = rank == 0 ? calloc((size_t)rn * (size_t)P, sizeof(uint64_t)) : NULL;
    merge_row(row, P);
    PMPI_Gather(row, rn, MPI_UINT64_T, mat, rn, MPI_UINT64_T, 0, comm);

    /* call sites, resolved here, gathered as text lines */
    int ns = 0;
    lsite *ls = mp_cfg.sites ? local_sites(&ns) : NULL;
    size_t cap = 256, len = 0;
    char *txt = malloc(cap);
    txt[0] = 0;
    for (int i = 0; i < ns; i++) {
        size_t need = strlen(ls[i].loc) + 256;
        if (len + need >= cap) {
            while (len + need >= cap)
                cap *= 2;
            txt = realloc(txt, cap);
        }
        len += (size_t)snprintf(txt + len, cap - len, "%d\t%llu\t%.9g\t%.9g\t%.9g\t%llu\t%llu\t%s\n",
                                ls[i].fid, (unsigned long long)ls[i].st.calls,
                                (double)ls[i].st.ticks / rate, (double)ls[i].st.tmin / rate,
                                (double)ls[i].st.tmax / rate, (unsigned long long)ls[i].st.sent,
                                (unsigned long long)ls[i].st.recv, ls[i].loc);
        free(ls[i].loc);
    }
    free(ls);
    int mylen = (int)len, *lens = rank == 0 ? calloc((size_t)P, sizeof(int)) : NULL, *displs = NULL;
    PMPI_Gather(&mylen, 1, MPI_INT, lens, 1, MPI_INT, 0, comm);
    char *all = NULL;
    long total = 0;
    if (rank == 0) {
        displs = calloc((size_t)P, sizeof(int));
        for (int r = 0; r < P; r++) {
            displs[r] = (int)total;
            total += lens[r];
        }
        all = malloc((size_t)total + 1);
    }
    PMPI_Gatherv(txt, mylen, MPI_CHAR, all, lens, displs, MPI_CHAR, 0, comm);
    free(txt);

    if (mp_cfg.trace)
        write_trace(comm, rank, P, rate);

    if (rank == 0) {
        all[total] = 0;
        /* parse and merge sites by (function, location) */
        int cnt = 0;
        for (long i = 0; i < total; i++)
            cnt += all[i] == '\n';
        gsite *gs = calloc((size_t)cnt + 1, sizeof *gs);
        int ng = 0;
        for (int r = 0; r < P; r++) {
            char *p = all + displs[r], *end = p + lens[r];
            while (p < end) {
                char *nl = memchr(p, '\n', (size_t)(end - p));
                if (nl == NULL)
                    break;
                *nl = 0;
                gsite g;
                memset(&g, 0, sizeof g);
                unsigned long long c, s, v;
                int off = 0;
                if (sscanf(p, "%d\t%llu\t%lf\t%lf\t%lf\t%llu\t%llu\t%n", &g.fid, &c, &g.time, &g.tmin,
                           &g.tmax, &s, &v, &off) >= 7 && off > 0 && g.fid >= 0 && g.fid < NF) {
                    g.calls = c;
                    g.sent = s;
                    g.recv = v;
                    g.loc = p + off;
                    g.nranks = 1;
                    g.rtmin = g.rtmax = g.time;
                    gs[ng++] = g;
                }
                p = nl + 1;
            }
        }
        qsort(gs, (size_t)ng, sizeof *gs, cmp_gsite_key);
        int m = 0;
        for (int i = 0; i < ng; i++) {
            if (m > 0 && !cmp_gsite_key(&gs[m - 1], &gs[i])) {
                gsite *d = &gs[m - 1];
                d->calls += gs[i].calls;
                d->sent += gs[i].sent;
                d->recv += gs[i].recv;
                d->time += gs[i].time;
                d->nranks++;
                if (gs[i].tmin < d->tmin)
                    d->tmin = gs[i].tmin;
                if (gs[i].tmax > d->tmax)
                    d->tmax = gs[i].tmax;
                if (gs[i].time < d->rtmin)
                    d->rtmin = gs[i].time;
                if (gs[i].time > d->rtmax)
                    d->rtmax = gs[i].time;
            } else {
                gs[m++] = gs[i];
            }
        }
        ng = m;
        qsort(gs, (size_t)ng, sizeof *gs, cmp_gsite_time);

        /* functions by time */
        g_time_sum = tsum;
        int *order = malloc(sizeof(int) * (size_t)(na + 1));
        memcpy(order, act, sizeof(int) * (size_t)na);
        qsort(order, (size_t)na, sizeof(int), cmp_fid_time);
        int *apos = malloc(sizeof(int) * (size_t)NF);
        for (int a = 0; a < na; a++)
            apos[act[a]] = a;

        double run_min = DBL_MAX, run_max = 0, run_sum = 0, mpi_min = DBL_MAX, mpi_max = 0, mpi_sum = 0;
        double col_min = DBL_MAX, col_max = 0, col_sum = 0, pct_min = DBL_MAX, pct_max = 0;
        int threads_max = 0;
        double lost = 0, evlost = 0;
        for (int r = 0; r < P; r++) {
            rank_row *x = &rows[r];
            double pct = x->collected > 0 ? 100.0 * x->mpi / x->collected : 0;
            run_min = x->run < run_min ? x->run : run_min;
            run_max = x->run > run_max ? x->run : run_max;
            run_sum += x->run;
            col_min = x->collected < col_min ? x->collected : col_min;
            col_max = x->collected > col_max ? x->collected : col_max;
            col_sum += x->collected;
            mpi_min = x->mpi < mpi_min ? x->mpi : mpi_min;
            mpi_max = x->mpi > mpi_max ? x->mpi : mpi_max;
            mpi_sum += x->mpi;
            pct_min = pct < pct_min ? pct : pct_min;
            pct_max = pct > pct_max ? pct : pct_max;
            threads_max = (int)x->threads > threads_max ? (int)x->threads : threads_max;
            lost += x->sites_lost;
            evlost += x->ev_lost;
        }
        double pct_mean = col_sum > 0 ? 100.0 * mpi_sum / col_sum : 0;
        char lib[MPI_MAX_LIBRARY_VERSION_STRING + 1] = "unknown";
#ifdef MP_HAVE_GET_LIBRARY_VERSION
        int ll = 0;
        PMPI_Get_library_version(lib, &ll);
        lib[strcspn(lib, "\n")] = 0;
        for (char *c = lib; *c; c++)
            if (*c == '\t')
                *c = ' ';
#endif
        char tbuf[64];
        time_t now = time(NULL);
        strftime(tbuf, sizeof tbuf, "%Y-%m-%d %H:%M:%S", localtime(&now));
        const char *cmd = cmdline();
        char path[2048], jpath[2048];
        base_path(path, sizeof path, ".txt");
        base_path(jpath, sizeof jpath, ".json");
        mkdir(mp_cfg.dir, 0777);
        FILE *f = fopen(path, "w");
        FILE *j = fopen(jpath, "w");
        int top = mp_cfg.top;
        size_t *hidden = malloc(sizeof(size_t) * (size_t)top);
        uint64_t *hval = malloc(sizeof(uint64_t) * (size_t)top);
        int nhidden = 0;

        if (f) {
            fprintf(f, "mica-prof report\n");
            fprintf(f, "  command      %s\n", cmd);
            fprintf(f, "  MPI library  %s\n", lib);
            fprintf(f, "  ranks        %d (threads recording per rank: up to %d)\n", P, threads_max);
            fprintf(f, "  written      %s, job %s\n", tbuf, mp_st.id);
            fprintf(f, "  clock        %s (%.0f ticks/s)%s\n", mp_use_tsc ? "tsc" : "monotonic", rate,
                    mp_st.resets ? ", statistics reset by MPI_Pcontrol(2)" : "");
            fprintf(f, "\nTime (s)                     min         mean          max\n");
            fprintf(f, "  run time          %12.6f %12.6f %12.6f\n", run_min, run_sum / P, run_max);
            fprintf(f, "  collected         %12.6f %12.6f %12.6f\n", col_min, col_sum / P, col_max);
            fprintf(f, "  in MPI            %12.6f %12.6f %12.6f\n", mpi_min, mpi_sum / P, mpi_max);
            fprintf(f, "  MPI %% of collected %11.2f%% %11.2f%% %11.2f%%\n", pct_min, pct_mean, pct_max);
            fprintf(f, "\nPer rank\n  %5s  %-20s %12s %12s %12s %7s %12s\n", "rank", "host", "run (s)",
                    "collected", "MPI (s)", "MPI%", "calls");
            for (int r = 0; r < P; r++) {
                rank_row *x = &rows[r];
                fprintf(f, "  %5d  %-20.20s %12.6f %12.6f %12.6f %6.2f%% %12.0f\n", r, x->host, x->run,
                        x->collected, x->mpi, x->collected > 0 ? 100.0 * x->mpi / x->collected : 0, x->calls);
            }
            fprintf(f, "\nFunctions by time (all ranks; top %d of %d called)\n", top < na ? top : na, na);
            fprintf(f, "  %-28s %12s %12s %6s %12s %12s %16s %16s   %s\n", "function", "calls", "time (s)",
                    "%MPI", "mean (us)", "max (us)", "bytes sent", "bytes recv",
                    "time per rank min / mean / max (s)");
            for (int a = 0; a < na && a < top; a++) {
                int i = order[a];
                uint64_t c = g3[i];
                fprintf(f, "  %-28s %12llu %12.6f %6.2f %12.3f %12.3f %16llu %16llu   %.6f / %.6f / %.6f\n",
                        mp_fname[i], (unsigned long long)c, tsum[i],
                        mpi_sum > 0 ? 100.0 * tsum[i] / mpi_sum : 0, c ? tsum[i] / (double)c * 1e6 : 0,
                        -gcm[NF + i] * 1e6, (unsigned long long)g3[NF + i],
                        (unsigned long long)g3[2 * NF + i], tmn[i], tsum[i] / P, tmx[i]);
            }
            if (mp_cfg.sites) {
                fprintf(f, "\nCall sites by time (top %d of %d)\n", top < ng ? top : ng, ng);
                fprintf(f, "  %4s  %-24s %10s %12s %6s %6s  %s\n", "#", "function", "calls", "time (s)",
                        "%MPI", "ranks", "site");
                for (int i = 0; i < ng && i < top; i++) {
                    char sb[512];
                    fprintf(f, "  %4d  %-24s %10llu %12.6f %6.2f %6d  %s\n", i + 1, mp_fname[gs[i].fid],
                            (unsigned long long)gs[i].calls, gs[i].time,
                            mpi_sum > 0 ? 100.0 * gs[i].time / mpi_sum : 0, gs[i].nranks,
                            short_loc(gs[i].loc, sb, sizeof sb));
                }
                if (lost > 0)
                    fprintf(f, "  (%.0f calls in sites beyond MICA_PROF_MAX_SITES are not shown)\n", lost);
            }
            fprintf(f, "\nMessage sizes (operations per size, all ranks; p2p: messages sent)\n");
            fprintf(f, "  %-22s", "size");
            for (int c = 1; c < MP_NCAT; c++)
                fprintf(f, " %14s", cat_names[c]);
            fprintf(f, "\n");
            for (int b = 0; b < MP_NBUCKET; b++) {
                int any = 0;
                for (int c = 1; c < MP_NCAT; c++)
                    any |= hg[c * MP_NBUCKET + b] != 0;
                if (!any)
                    continue;
                char lb[64];
                size_label(lb, sizeof lb, b);
                fprintf(f, "  %-22s", lb);
                for (int c = 1; c < MP_NCAT; c++)
                    fprintf(f, " %14llu", (unsigned long long)hg[c * MP_NBUCKET + b]);
                fprintf(f, "\n");
            }
            fprintf(f, "  %-22s", "total bytes");
            for (int c = 1; c < MP_NCAT; c++)
                fprintf(f, " %14llu", (unsigned long long)hg[MP_NCAT * MP_NBUCKET + c]);
            fprintf(f, "\n");
            fprintf(f, "\nPoint-to-point bytes sent (row: sender, column: receiver, MPI_COMM_WORLD ranks)\n");
            if (P <= 16) {
                for (int k = 0; k < 2; k++) {
                    if (k)
                        fprintf(f, "\nPoint-to-point messages sent\n");
                    fprintf(f, "  %6s", "");
                    for (int c = 0; c < P; c++)
                        fprintf(f, " %12d", c);
                    fprintf(f, "\n");
                    for (int r = 0; r < P; r++) {
                        fprintf(f, "  %6d", r);
                        for (int c = 0; c < P; c++)
                            fprintf(f, " %12llu", (unsigned long long)mat[(size_t)r * rn + (size_t)k * (P + 1) + c]);
                        fprintf(f, "\n");
                    }
                }
            } else {
                fprintf(f, "  (%d ranks: see the JSON file for the full matrix; heaviest pairs:)\n", P);
                for (int shown = 0; shown < top; shown++) {
                    uint64_t best = 0;
                    int br = -1, bc = -1;
                    for (int r = 0; r < P; r++)
                        for (int c = 0; c < P; c++) {
                            uint64_t v = mat[(size_t)r * rn + c];
                            if (v > best) {
                                best = v;
                                br = r;
                                bc = c;
                            }
                        }
                    if (br < 0)
                        break;
                    fprintf(f, "  %6d -> %-6d %16llu bytes %12llu messages\n", br, bc, (unsigned long long)best,
                            (unsigned long long)mat[(size_t)br * rn + P + 1 + bc]);
                    mat[(size_t)br * rn + bc] = 0;   /* restored below, for the JSON */
                    hidden[shown] = (size_t)br * rn + bc;
                    hval[shown] = best;
                    nhidden = shown + 1;
                }
            }
        }
        for (int k = 0; k < nhidden; k++)
            mat[hidden[k]] = hval[k];
        free(hidden);
        free(hval);
        if (j) {
            fprintf(j, "{\"tool\": \"mica-prof\", \"version\": 1, \"complete\": true, \"id\": ");
            jstr(j, mp_st.id);
            fprintf(j, ",\n \"command\": ");
            jstr(j, cmd);
            fprintf(j, ",\n \"mpi_library\": ");
            jstr(j, lib);
            fprintf(j, ",\n \"ranks\": %d, \"clock\": \"%s\", \"tick_rate\": %.0f, \"resets\": %d,\n",
                    P, mp_use_tsc ? "tsc" : "monotonic", rate, mp_st.resets);
            fprintf(j, " \"options\": {\"sites\": %s, \"depth\": %d, \"trace\": %s},\n",
                    mp_cfg.sites ? "true" : "false", mp_cfg.depth, mp_cfg.trace ? "true" : "false");
            fprintf(j, " \"run_time\": {\"min\": %.9f, \"mean\": %.9f, \"max\": %.9f},\n", run_min, run_sum / P, run_max);
            fprintf(j, " \"collected_time\": {\"min\": %.9f, \"mean\": %.9f, \"max\": %.9f},\n", col_min, col_sum / P, col_max);
            fprintf(j, " \"mpi_time\": {\"min\": %.9f, \"mean\": %.9f, \"max\": %.9f, \"total\": %.9f},\n",
                    mpi_min, mpi_sum / P, mpi_max, mpi_sum);
            fprintf(j, " \"mpi_percent\": {\"min\": %.4f, \"mean\": %.4f, \"max\": %.4f},\n", pct_min, pct_mean, pct_max);
            fprintf(j, " \"per_rank\": [");
            for (int r = 0; r < P; r++) {
                rank_row *x = &rows[r];
                fprintf(j, "%s\n  {\"rank\": %d, \"host\": ", r ? "," : "", r);
                jstr(j, x->host);
                fprintf(j, ", \"run_time\": %.9f, \"collected_time\": %.9f, \"mpi_time\": %.9f, \"calls\": %.0f, "
                        "\"threads\": %.0f, \"sites_lost\": %.0f, \"events_lost\": %.0f}",
                        x->run, x->collected, x->mpi, x->calls, x->threads, x->sites_lost, x->ev_lost);
            }
            fprintf(j, "],\n \"functions\": [");
            for (int a = 0; a < na; a++) {
                int i = order[a], ap = apos[i];
                fprintf(j, "%s\n  {\"name\": \"%s\", \"calls\": %llu, \"time\": %.9f, \"bytes_sent\": %llu, "
                        "\"bytes_recv\": %llu, \"time_min_call\": %.9f, \"time_max_call\": %.9f, "
                        "\"rank_time\": {\"min\": %.9f, \"mean\": %.9f, \"max\": %.9f}, "
                        "\"rank_calls\": {\"min\": %llu, \"max\": %llu},\n   \"per_rank_calls\": [",
                        a ? "," : "", mp_fname[i], (unsigned long long)g3[i], tsum[i],
                        (unsigned long long)g3[NF + i], (unsigned long long)g3[2 * NF + i],
                        gcm[i] == DBL_MAX ? 0 : gcm[i], -gcm[NF + i], tmn[i], tsum[i] / P, tmx[i],
                        (unsigned long long)cmin[i], (unsigned long long)cmax[i]);
                for (int r = 0; r < P; r++)
                    fprintf(j, "%s%llu", r ? ", " : "", (unsigned long long)gpc[(size_t)r * na + ap]);
                fprintf(j, "], \"per_rank_time\": [");
                for (int r = 0; r < P; r++)
                    fprintf(j, "%s%.9f", r ? ", " : "", gpt[(size_t)r * na + ap]);
                fprintf(j, "]}");
            }
            fprintf(j, "],\n \"sites\": [");
            for (int i = 0; i < ng; i++) {
                fprintf(j, "%s\n  {\"function\": \"%s\", \"calls\": %llu, \"time\": %.9f, \"time_min_call\": %.9f, "
                        "\"time_max_call\": %.9f, \"bytes_sent\": %llu, \"bytes_recv\": %llu, \"ranks\": %d, "
                        "\"rank_time\": {\"min\": %.9f, \"max\": %.9f}, \"location\": [",
                        i ? "," : "", mp_fname[gs[i].fid], (unsigned long long)gs[i].calls, gs[i].time,
                        gs[i].tmin, gs[i].tmax, (unsigned long long)gs[i].sent, (unsigned long long)gs[i].recv,
                        gs[i].nranks, gs[i].rtmin, gs[i].rtmax);
                char *s = gs[i].loc;
                for (int k = 0; s; k++) {
                    char *e = strchr(s, '\x1e');
                    if (e)
                        *e = 0;
                    fprintf(j, "%s", k ? ", " : "");
                    jstr(j, s);
                    if (e)
                        *e = '\x1e';
                    s = e ? e + 1 : NULL;
                }
                fprintf(j, "]}");
            }
            fprintf(j, "],\n \"histograms\": {");
            for (int c = 1; c < MP_NCAT; c++) {
                fprintf(j, "%s\"%s\": {\"bytes\": %llu, \"buckets\": [", c > 1 ? ", " : "", cat_names[c],
                        (unsigned long long)hg[MP_NCAT * MP_NBUCKET + c]);
                int first = 1;
                for (int b = 0; b < MP_NBUCKET; b++) {
                    uint64_t v = hg[c * MP_NBUCKET + b];
                    if (!v)
                        continue;
                    fprintf(j, "%s{\"lo\": %llu, \"hi\": %llu, \"count\": %llu}", first ? "" : ", ",
                            (unsigned long long)(b ? (uint64_t)1 << (b - 1) : 0),
                            (unsigned long long)(b == 0 ? 0 : b == 64 ? UINT64_MAX : ((uint64_t)1 << b) - 1),
                            (unsigned long long)v);
                    first = 0;
                }
                fprintf(j, "]}");
            }
            fprintf(j, "},\n \"matrix\": {\"bytes\": [");
            for (int k = 0; k < 2; k++) {
                if (k)
                    fprintf(j, "],\n  \"messages\": [");
                for (int r = 0; r < P; r++) {
                    fprintf(j, "%s[", r ? ", " : "");
                    for (int c = 0; c < P; c++)
                        fprintf(j, "%s%llu", c ? ", " : "", (unsigned long long)mat[(size_t)r * rn + (size_t)k * (P + 1) + c]);
                    fprintf(j, "]");
                }
            }
            fprintf(j, "],\n  \"outside_bytes\": [");
            for (int r = 0; r < P; r++)
                fprintf(j, "%s%llu", r ? ", " : "", (unsigned long long)mat[(size_t)r * rn + P]);
            fprintf(j, "], \"outside_messages\": [");
            for (int r = 0; r < P; r++)
                fprintf(j, "%s%llu", r ? ", " : "", (unsigned long long)mat[(size_t)r * rn + P + 1 + P]);
            fprintf(j, "]}\n}\n");
            fclose(j);
        }
        if (f)
            fclose(f);
        if (!mp_cfg.quiet)
            fprintf(stderr, "mica-prof: wrote %s and %s\n", path, jpath);
        free(gs);
        free(order);
        free(apos);
    }
    free(u3);
    free(g3);
    free(cl);
    free(cmin);
    free(cmax);
    free(tm);
    free(tsum);
    free(tmn);
    free(tmx);
    free(cm2);
    free(gcm);
    free(act);
    free(pc);
    free(pt);
    free(gpc);
    free(gpt);
    free(rows);
    free(row);
    free(mat);
    free(lens);
    free(displs);
    free(all);
}
