/* mica-prof: this rank's call sites (sites.h): merged over its threads, resolved to locations,
 * equal (function, location) merged. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "sites.h"
#include "config.h"
#include "symbols.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    uintptr_t pc;
    int idx;
} pc_ix;

static int cmp_pc(const void *a, const void *b)
{
    uintptr_t x = ((const pc_ix *)a)->pc, y = ((const pc_ix *)b)->pc;
    return x < y ? -1 : x > y;
}

static int cmp_lsite(const void *a, const void *b)
{
    const mp_lsite *x = a, *y = b;
    if (x->fid != y->fid)
        return x->fid - y->fid;
    return strcmp(x->loc, y->loc);
}

mp_lsite *mp_sites_local(int *count)
{
    int n = 0, d = mp_cfg.depth;
    *count = 0;
    for (mp_thread *t = mp_threads; t; t = t->next)
        for (int i = 0; mp_thread_current(t) && t->sites && i < mp_cfg.max_sites; i++)
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
        for (int i = 0; mp_thread_current(t) && t->sites && i < mp_cfg.max_sites; i++)
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
    char **names = mp_symbols_resolve(pcs, nu);
    mp_lsite *ls = calloc((size_t)n, sizeof *ls);
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
            mp_stat_add(&ls[m - 1].st, &ls[i].st);
            free(ls[i].loc);
        } else {
            ls[m++] = ls[i];
        }
    }
    *count = m;
    return ls;
}

