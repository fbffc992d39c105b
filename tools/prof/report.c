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
    const char *loc;                /* in the gathered text */
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

/* A JSON string of the n bytes at s */
static void jstr_n(FILE *f, const char *s, size_t n)
{
    fputc('"', f);
    for (const char *end = s + n; s < end; s++) {
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

static void jstr(FILE *f, const char *s)
{
    jstr_n(f, s, strlen(s));
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

/* Spread of one figure over the ranks */
typedef struct {
    double min, max, sum;
} spread;

static void spread_add(spread *s, double v)
{
    s->min = v < s->min ? v : s->min;
    s->max = v > s->max ? v : s->max;
    s->sum += v;
}

/* The job's data for its report. Every rank takes part in gathering it; the results of the
 * reductions to rank 0 (and all that is derived from them) are meaningful on rank 0 only. */
typedef struct {
    int rank, P;
    double rate;
    /* per function: calls[NF], bytes sent[NF], bytes received[NF], summed over the ranks (everywhere) */
    uint64_t *g3;
    uint64_t *cmin, *cmax;          /* calls of one rank */
    double *tsum, *tmn, *tmx;       /* time of one rank */
    double *gcm;                    /* fastest call[NF], then minus the slowest call[NF] */
    int na, *act;                   /* the functions called by some rank */
    uint64_t *gpc;                  /* calls[rank][active function] */
    double *gpt;                    /* time[rank][active function] */
    rank_row *rows;
    uint64_t hg[MP_NCAT * MP_NBUCKET + MP_NCAT];    /* histograms, then bytes per category */
    int rn;                         /* length of a matrix row: bytes[P + 1], messages[P + 1] */
    uint64_t *mat;
    char *all;                      /* the ranks' call sites as text lines, one block per rank */
    int *lens, *displs;
    long total;
    /* rank 0's results */
    gsite *gs;                      /* call sites merged over the ranks, by time */
    int ng;
    int *order, *apos;              /* active functions by time; position of a function in act */
    spread run, col, mpi, pct;
    double pct_mean, lost;
    int threads_max;
    char lib[MPI_MAX_LIBRARY_VERSION_STRING + 1], written[64];
    const char *cmd;
} job;

/* Bytes (k = 0) or messages (k = 1) sent from rank r to rank c; c = P: outside the world */
static uint64_t mat_at(const job *J, int r, int k, int c)
{
    return J->mat[(size_t)r * (size_t)J->rn + (size_t)k * (size_t)(J->P + 1) + (size_t)c];
}

/* Per function totals, and their spreads over the ranks */
static void gather_functions(job *J, MPI_Comm comm)
{
    int NF = MP_NFUNC;
    double rate = J->rate;
    uint64_t *u3 = calloc(3 * (size_t)NF, sizeof(uint64_t)), *cl = calloc((size_t)NF, sizeof(uint64_t));
    double *tm = calloc((size_t)NF, sizeof(double)), *cm2 = calloc(2 * (size_t)NF, sizeof(double));
    J->g3 = calloc(3 * (size_t)NF, sizeof(uint64_t));
    J->cmin = calloc((size_t)NF, sizeof(uint64_t));
    J->cmax = calloc((size_t)NF, sizeof(uint64_t));
    J->tsum = calloc((size_t)NF, sizeof(double));
    J->tmn = calloc((size_t)NF, sizeof(double));
    J->tmx = calloc((size_t)NF, sizeof(double));
    J->gcm = calloc(2 * (size_t)NF, sizeof(double));
    for (int i = 0; i < NF; i++) {
        u3[i] = L.f[i].calls;
        u3[NF + i] = L.f[i].sent;
        u3[2 * NF + i] = L.f[i].recv;
        cl[i] = L.f[i].calls;
        tm[i] = (double)L.f[i].ticks / rate;
        cm2[i] = L.f[i].calls ? (double)L.f[i].tmin / rate : DBL_MAX;
        cm2[NF + i] = -((double)L.f[i].tmax / rate);  /* MIN of negatives = MAX */
    }
    PMPI_Allreduce(u3, J->g3, 3 * NF, MPI_UINT64_T, MPI_SUM, comm);
    PMPI_Reduce(cl, J->cmin, NF, MPI_UINT64_T, MPI_MIN, 0, comm);
    PMPI_Reduce(cl, J->cmax, NF, MPI_UINT64_T, MPI_MAX, 0, comm);
    PMPI_Reduce(tm, J->tsum, NF, MPI_DOUBLE, MPI_SUM, 0, comm);
    PMPI_Reduce(tm, J->tmn, NF, MPI_DOUBLE, MPI_MIN, 0, comm);
    PMPI_Reduce(tm, J->tmx, NF, MPI_DOUBLE, MPI_MAX, 0, comm);
    PMPI_Reduce(cm2, J->gcm, 2 * NF, MPI_DOUBLE, MPI_MIN, 0, comm);
    free(u3);
    free(cl);
    free(tm);
    free(cm2);
}

/* Per rank calls and time of the functions called by some rank (known everywhere from the
 * Allreduce, so the ranks' gathers agree on their number) */
static void gather_active(job *J, MPI_Comm comm)
{
    int na = 0, NF = MP_NFUNC, P = J->P;
    double rate = J->rate;
    J->act = malloc(sizeof(int) * (size_t)NF + 1);
    for (int i = 0; i < NF; i++)
        if (J->g3[i])
            J->act[na++] = i;
    J->na = na;
    uint64_t *pc = malloc(sizeof(uint64_t) * (size_t)(na + 1));
    double *pt = malloc(sizeof(double) * (size_t)(na + 1));
    for (int a = 0; a < na; a++) {
        pc[a] = L.f[J->act[a]].calls;
        pt[a] = (double)L.f[J->act[a]].ticks / rate;
    }
    if (J->rank == 0) {
        J->gpc = malloc(sizeof(uint64_t) * (size_t)(na + 1) * (size_t)P);
        J->gpt = malloc(sizeof(double) * (size_t)(na + 1) * (size_t)P);
    }
    PMPI_Gather(pc, na, MPI_UINT64_T, J->gpc, na, MPI_UINT64_T, 0, comm);
    PMPI_Gather(pt, na, MPI_DOUBLE, J->gpt, na, MPI_DOUBLE, 0, comm);
    free(pc);
    free(pt);
}

/* Per rank totals, the histograms and the point-to-point matrix */
static void gather_totals(job *J, MPI_Comm comm)
{
    int P = J->P;
    rank_row me;
    memset(&me, 0, sizeof me);
    me.run = L.run;
    me.collected = L.collected;
    me.mpi = L.mpi;
    for (int i = 0; i < MP_NFUNC; i++)
        me.calls += (double)L.f[i].calls;
    me.threads = L.nthreads;
    me.sites_lost = (double)L.sites_lost;
    me.ev_lost = (double)L.ev_lost;
    gethostname(me.host, sizeof me.host - 1);
    if (J->rank == 0)
        J->rows = calloc((size_t)P, sizeof(rank_row));
    PMPI_Gather(&me, (int)sizeof me, MPI_BYTE, J->rows, (int)sizeof me, MPI_BYTE, 0, comm);

    uint64_t hl[MP_NCAT * MP_NBUCKET + MP_NCAT];
    memcpy(hl, L.hist, sizeof L.hist);
    memcpy(hl + MP_NCAT * MP_NBUCKET, L.hbytes, sizeof L.hbytes);
    PMPI_Reduce(hl, J->hg, MP_NCAT * MP_NBUCKET + MP_NCAT, MPI_UINT64_T, MPI_SUM, 0, comm);

    J->rn = 2 * (P + 1);
    uint64_t *row = calloc((size_t)J->rn, sizeof(uint64_t));
    if (J->rank == 0)
        J->mat = calloc((size_t)J->rn * (size_t)P, sizeof(uint64_t));
    merge_row(row, P);
    PMPI_Gather(row, J->rn, MPI_UINT64_T, J->mat, J->rn, MPI_UINT64_T, 0, comm);
    free(row);
}

/* This rank's call sites, resolved here, as text lines "fid calls time tmin tmax sent recv loc" */
static char *site_lines(double rate, size_t *length)
{
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
    *length = len;
    return txt;
}

static void gather_sites(job *J, MPI_Comm comm)
{
    size_t len = 0;
    char *txt = site_lines(J->rate, &len);
    int mylen = (int)len;
    if (J->rank == 0)
        J->lens = calloc((size_t)J->P, sizeof(int));
    PMPI_Gather(&mylen, 1, MPI_INT, J->lens, 1, MPI_INT, 0, comm);
    if (J->rank == 0) {
        J->displs = calloc((size_t)J->P, sizeof(int));
        for (int r = 0; r < J->P; r++) {
            J->displs[r] = (int)J->total;
            J->total += J->lens[r];
        }
        J->all = malloc((size_t)J->total + 1);
    }
    PMPI_Gatherv(txt, mylen, MPI_CHAR, J->all, J->lens, J->displs, MPI_CHAR, 0, comm);
    if (J->rank == 0)
        J->all[J->total] = 0;
    free(txt);
}

/* All the collectives of the report on the tool's communicator: every rank calls this, and the
 * collectives come in the same order on all of them. */
static void job_gather(job *J)
{
    memset(J, 0, sizeof *J);
    J->rank = mp_world_rank;
    J->P = mp_world_size;
    merge_local();
    J->rate = L.rate;
    gather_functions(J, mp_st.comm);
    gather_active(J, mp_st.comm);
    gather_totals(J, mp_st.comm);
    gather_sites(J, mp_st.comm);
}

/* The gathered site lines as sites of one rank each (the lines are cut in place); their number */
static int parse_sites(job *J, gsite *gs)
{
    int ng = 0;
    for (int r = 0; r < J->P; r++) {
        char *p = J->all + J->displs[r], *end = p + J->lens[r];
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
                       &g.tmax, &s, &v, &off) >= 7 && off > 0 && g.fid >= 0 && g.fid < MP_NFUNC) {
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
    return ng;
}

/* Rank 0: the call sites merged by (function, location), by time */
static void job_merge_sites(job *J)
{
    int cnt = 0;
    for (long i = 0; i < J->total; i++)
        cnt += J->all[i] == '\n';
    gsite *gs = calloc((size_t)cnt + 1, sizeof *gs);
    int ng = parse_sites(J, gs);
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
    qsort(gs, (size_t)m, sizeof *gs, cmp_gsite_time);
    J->gs = gs;
    J->ng = m;
}

/* Rank 0: functions by time, the spreads over the ranks, and what the header says */
static void job_summarize(job *J)
{
    int na = J->na;
    g_time_sum = J->tsum;
    J->order = malloc(sizeof(int) * (size_t)(na + 1));
    memcpy(J->order, J->act, sizeof(int) * (size_t)na);
    qsort(J->order, (size_t)na, sizeof(int), cmp_fid_time);
    J->apos = malloc(sizeof(int) * (size_t)MP_NFUNC);
    for (int a = 0; a < na; a++)
        J->apos[J->act[a]] = a;

    spread none = {DBL_MAX, 0, 0};
    J->run = J->col = J->mpi = J->pct = none;
    for (int r = 0; r < J->P; r++) {
        const rank_row *x = &J->rows[r];
        spread_add(&J->run, x->run);
        spread_add(&J->col, x->collected);
        spread_add(&J->mpi, x->mpi);
        spread_add(&J->pct, x->collected > 0 ? 100.0 * x->mpi / x->collected : 0);
        J->threads_max = (int)x->threads > J->threads_max ? (int)x->threads : J->threads_max;
        J->lost += x->sites_lost;
    }
    /* the job's share, not the mean of the ranks' shares */
    J->pct_mean = J->col.sum > 0 ? 100.0 * J->mpi.sum / J->col.sum : 0;

    strcpy(J->lib, "unknown");
#ifdef MP_HAVE_GET_LIBRARY_VERSION
    int ll = 0;
    PMPI_Get_library_version(J->lib, &ll);
    J->lib[strcspn(J->lib, "\n")] = 0;
    for (char *c = J->lib; *c; c++)
        if (*c == '\t')
            *c = ' ';
#endif
    time_t now = time(NULL);
    strftime(J->written, sizeof J->written, "%Y-%m-%d %H:%M:%S", localtime(&now));
    J->cmd = cmdline();
}

/* ---------------------------------------------------------------------------------------- */
/* The job's report as text                                                                  */

static void text_summary(FILE *f, const job *J)
{
    int P = J->P;
    fprintf(f, "mica-prof report\n");
    fprintf(f, "  command      %s\n", J->cmd);
    fprintf(f, "  MPI library  %s\n", J->lib);
    fprintf(f, "  ranks        %d (threads recording per rank: up to %d)\n", P, J->threads_max);
    fprintf(f, "  written      %s, job %s\n", J->written, mp_st.id);
    fprintf(f, "  clock        %s (%.0f ticks/s)%s\n", mp_use_tsc ? "tsc" : "monotonic", J->rate,
            mp_st.resets ? ", statistics reset by MPI_Pcontrol(2)" : "");
    fprintf(f, "\nTime (s)                     min         mean          max\n");
    fprintf(f, "  run time          %12.6f %12.6f %12.6f\n", J->run.min, J->run.sum / P, J->run.max);
    fprintf(f, "  collected         %12.6f %12.6f %12.6f\n", J->col.min, J->col.sum / P, J->col.max);
    fprintf(f, "  in MPI            %12.6f %12.6f %12.6f\n", J->mpi.min, J->mpi.sum / P, J->mpi.max);
    fprintf(f, "  MPI %% of collected %11.2f%% %11.2f%% %11.2f%%\n", J->pct.min, J->pct_mean, J->pct.max);
    fprintf(f, "\nPer rank\n  %5s  %-20s %12s %12s %12s %7s %12s\n", "rank", "host", "run (s)",
            "collected", "MPI (s)", "MPI%", "calls");
    for (int r = 0; r < P; r++) {
        const rank_row *x = &J->rows[r];
        fprintf(f, "  %5d  %-20.20s %12.6f %12.6f %12.6f %6.2f%% %12.0f\n", r, x->host, x->run,
                x->collected, x->mpi, x->collected > 0 ? 100.0 * x->mpi / x->collected : 0, x->calls);
    }
}

static void text_functions(FILE *f, const job *J)
{
    int top = mp_cfg.top, na = J->na, NF = MP_NFUNC;
    double mpi_sum = J->mpi.sum;
    fprintf(f, "\nFunctions by time (all ranks; top %d of %d called)\n", top < na ? top : na, na);
    fprintf(f, "  %-28s %12s %12s %6s %12s %12s %16s %16s   %s\n", "function", "calls", "time (s)",
            "%MPI", "mean (us)", "max (us)", "bytes sent", "bytes recv",
            "time per rank min / mean / max (s)");
    for (int a = 0; a < na && a < top; a++) {
        int i = J->order[a];
        uint64_t c = J->g3[i];
        double t = J->tsum[i];
        fprintf(f, "  %-28s %12llu %12.6f %6.2f %12.3f %12.3f %16llu %16llu   %.6f / %.6f / %.6f\n",
                mp_fname[i], (unsigned long long)c, t, mpi_sum > 0 ? 100.0 * t / mpi_sum : 0,
                c ? t / (double)c * 1e6 : 0, -J->gcm[NF + i] * 1e6, (unsigned long long)J->g3[NF + i],
                (unsigned long long)J->g3[2 * NF + i], J->tmn[i], t / J->P, J->tmx[i]);
    }
}

static void text_sites(FILE *f, const job *J)
{
    int top = mp_cfg.top, ng = J->ng;
    double mpi_sum = J->mpi.sum;
    fprintf(f, "\nCall sites by time (top %d of %d)\n", top < ng ? top : ng, ng);
    fprintf(f, "  %4s  %-24s %10s %12s %6s %6s  %s\n", "#", "function", "calls", "time (s)",
            "%MPI", "ranks", "site");
    for (int i = 0; i < ng && i < top; i++) {
        const gsite *g = &J->gs[i];
        char sb[512];
        fprintf(f, "  %4d  %-24s %10llu %12.6f %6.2f %6d  %s\n", i + 1, mp_fname[g->fid],
                (unsigned long long)g->calls, g->time, mpi_sum > 0 ? 100.0 * g->time / mpi_sum : 0,
                g->nranks, short_loc(g->loc, sb, sizeof sb));
    }
    if (J->lost > 0)
        fprintf(f, "  (%.0f calls in sites beyond MICA_PROF_MAX_SITES are not shown)\n", J->lost);
}

static void text_sizes(FILE *f, const job *J)
{
    const uint64_t *hg = J->hg;
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
}

/* The heaviest pairs by bytes, equal bytes in row-major order. Each pass takes the largest entry
 * that comes strictly after the one shown before in that order, so the matrix stays untouched. */
static void text_top_pairs(FILE *f, const job *J)
{
    int P = J->P;
    uint64_t prev = 0;
    long prev_at = -1;
    for (int shown = 0; shown < mp_cfg.top; shown++) {
        uint64_t best = 0;
        long at = -1;
        for (int r = 0; r < P; r++)
            for (int c = 0; c < P; c++) {
                uint64_t v = mat_at(J, r, 0, c);
                long i = (long)r * P + c;
                if (prev_at >= 0 && (v > prev || (v == prev && i <= prev_at)))
                    continue;       /* shown already */
                if (v > best) {
                    best = v;
                    at = i;
                }
            }
        if (at < 0)
            break;
        int br = (int)(at / P), bc = (int)(at % P);
        fprintf(f, "  %6d -> %-6d %16llu bytes %12llu messages\n", br, bc, (unsigned long long)best,
                (unsigned long long)mat_at(J, br, 1, bc));
        prev = best;
        prev_at = at;
    }
}

static void text_matrix(FILE *f, const job *J)
{
    int P = J->P;
    fprintf(f, "\nPoint-to-point bytes sent (row: sender, column: receiver, MPI_COMM_WORLD ranks)\n");
    if (P > 16) {
        fprintf(f, "  (%d ranks: see the JSON file for the full matrix; heaviest pairs:)\n", P);
        text_top_pairs(f, J);
        return;
    }
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
                fprintf(f, " %12llu", (unsigned long long)mat_at(J, r, k, c));
            fprintf(f, "\n");
        }
    }
}

static void write_text(FILE *f, const job *J)
{
    text_summary(f, J);
    text_functions(f, J);
    if (mp_cfg.sites)
        text_sites(f, J);
    text_sizes(f, J);
    text_matrix(f, J);
}

/* ---------------------------------------------------------------------------------------- */
/* The job's report as JSON                                                                  */

static void json_summary(FILE *j, const job *J)
{
    int P = J->P;
    fprintf(j, "{\"tool\": \"mica-prof\", \"version\": 1, \"complete\": true, \"id\": ");
    jstr(j, mp_st.id);
    fprintf(j, ",\n \"command\": ");
    jstr(j, J->cmd);
    fprintf(j, ",\n \"mpi_library\": ");
    jstr(j, J->lib);
    fprintf(j, ",\n \"ranks\": %d, \"clock\": \"%s\", \"tick_rate\": %.0f, \"resets\": %d,\n",
            P, mp_use_tsc ? "tsc" : "monotonic", J->rate, mp_st.resets);
    fprintf(j, " \"options\": {\"sites\": %s, \"depth\": %d, \"trace\": %s},\n",
            mp_cfg.sites ? "true" : "false", mp_cfg.depth, mp_cfg.trace ? "true" : "false");
    fprintf(j, " \"run_time\": {\"min\": %.9f, \"mean\": %.9f, \"max\": %.9f},\n",
            J->run.min, J->run.sum / P, J->run.max);
    fprintf(j, " \"collected_time\": {\"min\": %.9f, \"mean\": %.9f, \"max\": %.9f},\n",
            J->col.min, J->col.sum / P, J->col.max);
    fprintf(j, " \"mpi_time\": {\"min\": %.9f, \"mean\": %.9f, \"max\": %.9f, \"total\": %.9f},\n",
            J->mpi.min, J->mpi.sum / P, J->mpi.max, J->mpi.sum);
    fprintf(j, " \"mpi_percent\": {\"min\": %.4f, \"mean\": %.4f, \"max\": %.4f},\n",
            J->pct.min, J->pct_mean, J->pct.max);
    fprintf(j, " \"per_rank\": [");
    for (int r = 0; r < P; r++) {
        const rank_row *x = &J->rows[r];
        fprintf(j, "%s\n  {\"rank\": %d, \"host\": ", r ? "," : "", r);
        jstr(j, x->host);
        fprintf(j, ", \"run_time\": %.9f, \"collected_time\": %.9f, \"mpi_time\": %.9f, \"calls\": %.0f, "
                "\"threads\": %.0f, \"sites_lost\": %.0f, \"events_lost\": %.0f}",
                x->run, x->collected, x->mpi, x->calls, x->threads, x->sites_lost, x->ev_lost);
    }
    fprintf(j, "]");
}

static void json_functions(FILE *j, const job *J)
{
    int P = J->P, na = J->na, NF = MP_NFUNC;
    fprintf(j, ",\n \"functions\": [");
    for (int a = 0; a < na; a++) {
        int i = J->order[a], ap = J->apos[i];
        fprintf(j, "%s\n  {\"name\": \"%s\", \"calls\": %llu, \"time\": %.9f, \"bytes_sent\": %llu, "
                "\"bytes_recv\": %llu, \"time_min_call\": %.9f, \"time_max_call\": %.9f, "
                "\"rank_time\": {\"min\": %.9f, \"mean\": %.9f, \"max\": %.9f}, "
                "\"rank_calls\": {\"min\": %llu, \"max\": %llu},\n   \"per_rank_calls\": [",
                a ? "," : "", mp_fname[i], (unsigned long long)J->g3[i], J->tsum[i],
                (unsigned long long)J->g3[NF + i], (unsigned long long)J->g3[2 * NF + i],
                J->gcm[i] == DBL_MAX ? 0 : J->gcm[i], -J->gcm[NF + i], J->tmn[i], J->tsum[i] / P, J->tmx[i],
                (unsigned long long)J->cmin[i], (unsigned long long)J->cmax[i]);
        for (int r = 0; r < P; r++)
            fprintf(j, "%s%llu", r ? ", " : "", (unsigned long long)J->gpc[(size_t)r * na + ap]);
        fprintf(j, "], \"per_rank_time\": [");
        for (int r = 0; r < P; r++)
            fprintf(j, "%s%.9f", r ? ", " : "", J->gpt[(size_t)r * na + ap]);
        fprintf(j, "]}");
    }
    fprintf(j, "]");
}

static void json_sites(FILE *j, const job *J)
{
    fprintf(j, ",\n \"sites\": [");
    for (int i = 0; i < J->ng; i++) {
        const gsite *g = &J->gs[i];
        fprintf(j, "%s\n  {\"function\": \"%s\", \"calls\": %llu, \"time\": %.9f, \"time_min_call\": %.9f, "
                "\"time_max_call\": %.9f, \"bytes_sent\": %llu, \"bytes_recv\": %llu, \"ranks\": %d, "
                "\"rank_time\": {\"min\": %.9f, \"max\": %.9f}, \"location\": [",
                i ? "," : "", mp_fname[g->fid], (unsigned long long)g->calls, g->time,
                g->tmin, g->tmax, (unsigned long long)g->sent, (unsigned long long)g->recv,
                g->nranks, g->rtmin, g->rtmax);
        /* one string per frame; the frames are separated by \x1e */
        const char *s = g->loc;
        for (int k = 0; s; k++) {
            const char *e = strchr(s, '\x1e');
            fprintf(j, "%s", k ? ", " : "");
            jstr_n(j, s, e ? (size_t)(e - s) : strlen(s));
            s = e ? e + 1 : NULL;
        }
        fprintf(j, "]}");
    }
    fprintf(j, "]");
}

static void json_histograms(FILE *j, const job *J)
{
    const uint64_t *hg = J->hg;
    fprintf(j, ",\n \"histograms\": {");
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
    fprintf(j, "}");
}

static void json_matrix(FILE *j, const job *J)
{
    int P = J->P;
    fprintf(j, ",\n \"matrix\": {\"bytes\": [");
    for (int k = 0; k < 2; k++) {
        if (k)
            fprintf(j, "],\n  \"messages\": [");
        for (int r = 0; r < P; r++) {
            fprintf(j, "%s[", r ? ", " : "");
            for (int c = 0; c < P; c++)
                fprintf(j, "%s%llu", c ? ", " : "", (unsigned long long)mat_at(J, r, k, c));
            fprintf(j, "]");
        }
    }
    fprintf(j, "],\n  \"outside_bytes\": [");
    for (int r = 0; r < P; r++)
        fprintf(j, "%s%llu", r ? ", " : "", (unsigned long long)mat_at(J, r, 0, P));
    fprintf(j, "], \"outside_messages\": [");
    for (int r = 0; r < P; r++)
        fprintf(j, "%s%llu", r ? ", " : "", (unsigned long long)mat_at(J, r, 1, P));
    fprintf(j, "]}");
}

static void write_json(FILE *j, const job *J)
{
    json_summary(j, J);
    json_functions(j, J);
    json_sites(j, J);
    json_histograms(j, J);
    json_matrix(j, J);
    fprintf(j, "\n}\n");
}

/* ---------------------------------------------------------------------------------------- */

/* Rank 0: the text and JSON files */
static void job_write(const job *J)
{
    char path[2048], jpath[2048];
    base_path(path, sizeof path, ".txt");
    base_path(jpath, sizeof jpath, ".json");
    mkdir(mp_cfg.dir, 0777);
    FILE *f = fopen(path, "w");
    FILE *j = fopen(jpath, "w");
    if (f)
        write_text(f, J);
    if (j) {
        write_json(j, J);
        fclose(j);
    }
    if (f)
        fclose(f);
    if (!mp_cfg.quiet)
        fprintf(stderr, "mica-prof: wrote %s and %s\n", path, jpath);
}

static void job_free(job *J)
{
    free(J->g3);
    free(J->cmin);
    free(J->cmax);
    free(J->tsum);
    free(J->tmn);
    free(J->tmx);
    free(J->gcm);
    free(J->act);
    free(J->gpc);
    free(J->gpt);
    free(J->rows);
    free(J->mat);
    free(J->all);
    free(J->lens);
    free(J->displs);
    free(J->gs);
    free(J->order);
    free(J->apos);
    memset(J, 0, sizeof *J);
}

void mp_report_final(void)
{
    job J;
    job_gather(&J);
    if (mp_cfg.trace)               /* a collective too: after the gathers, as on every rank */
        write_trace(mp_st.comm, J.rank, J.P, J.rate);
    if (J.rank == 0) {
        job_merge_sites(&J);
        job_summarize(&J);
        job_write(&J);
    }
    job_free(&J);
}
