/* A window's hints: the standard's info keys for windows, kept as the program set them (rma.h).
 * A key Mica does not know, or a value the standard does not allow, is ignored and not
 * returned by MPI_Win_get_info. */
#include <stdio.h>
#include <string.h>

#include "core/errors.h"
#include "core/info.h"
#include "rma/rma.h"
#include "core_api.h"

static void boolean(mica_info_t *info, const char *key, int *out)
{
    const char *v = mica_info_value(info, key);
    if (v && !strcmp(v, "true"))
        *out = 1;
    else if (v && !strcmp(v, "false"))
        *out = 0;
}

/* "none", or a comma-separated list of rar, raw, war, waw. */
static int ordering_ok(const char *v)
{
    if (!strcmp(v, "none"))
        return 1;
    if (!*v || strlen(v) >= sizeof ((mica_rma_hints_t *)0)->accumulate_ordering)
        return 0;
    for (const char *p = v;; p += 4) {
        if (strncmp(p, "rar", 3) && strncmp(p, "raw", 3) && strncmp(p, "war", 3) &&
            strncmp(p, "waw", 3))
            return 0;
        if (p[3] == 0)
            return 1;
        if (p[3] != ',')
            return 0;
    }
}

/* The kinds of memory a window's memory is: the "mpi" and "system" ones asked for (MPI 4.1
 * memory allocation kinds; Mica allocates no other), or both when none was. */
static void alloc_kinds(mica_rma_hints_t *h, const char *v)
{
    strcpy(h->alloc_kinds, "mpi,system");
    if (!v)
        return;
    char out[sizeof h->alloc_kinds] = "";
    for (const char *p = v; *p;) {
        size_t len = strcspn(p, ",");
        size_t kind = strcspn(p, ",:");
        if (((kind == 3 && !strncmp(p, "mpi", 3)) || (kind == 6 && !strncmp(p, "system", 6))) &&
            strlen(out) + len + 2 < sizeof out) {
            if (*out)
                strcat(out, ",");
            strncat(out, p, len);
        }
        p += len + (p[len] == ',');
    }
    strcpy(h->alloc_kinds, out);
}

void mica_rma_hints_set(mica_rma_win_t *win, mica_info_t *info, int creating)
{
    mica_rma_hints_t *h = &win->hints;
    if (creating) {
        memset(h, 0, sizeof *h);
        strcpy(h->accumulate_ordering, "rar,raw,war,waw");
        strcpy(h->accumulate_ops, "same_op_no_op");
        alloc_kinds(h, info ? mica_info_value(info, "mpi_memory_alloc_kinds") : NULL);
    }
    if (!info)
        return;
    boolean(info, "no_locks", &h->no_locks);
    boolean(info, "same_size", &h->same_size);
    boolean(info, "same_disp_unit", &h->same_disp_unit);
    boolean(info, "alloc_shared_noncontig", &h->alloc_shared_noncontig);
    const char *v = mica_info_value(info, "accumulate_ordering");
    if (v && ordering_ok(v))
        snprintf(h->accumulate_ordering, sizeof h->accumulate_ordering, "%s", v);
    v = mica_info_value(info, "accumulate_ops");
    if (v && (!strcmp(v, "same_op") || !strcmp(v, "same_op_no_op")))
        snprintf(h->accumulate_ops, sizeof h->accumulate_ops, "%s", v);
}

int mica_win_set_info(mica_win_t *win, mica_info_t *info)
{
    mica_rma_hints_set(mica_rma_win(win), info, 0);
    return MPI_SUCCESS;
}

int mica_win_get_info(mica_win_t *w, MPI_Info *info_used)
{
    mica_rma_hints_t *h = &mica_rma_win(w)->hints;
    int rc = mica_info_new(info_used);
    if (rc != MPI_SUCCESS)
        return rc;
    mica_info_t *info = mica_info_lookup(*info_used);
    const char *tf[] = {"false", "true"};
    const char *kv[][2] = {
        {"no_locks", tf[h->no_locks]},
        {"accumulate_ordering", h->accumulate_ordering},
        {"accumulate_ops", h->accumulate_ops},
        {"same_size", tf[h->same_size]},
        {"same_disp_unit", tf[h->same_disp_unit]},
        {"alloc_shared_noncontig", tf[h->alloc_shared_noncontig]},
        {"mpi_memory_alloc_kinds", h->alloc_kinds},
    };
    for (size_t i = 0; i < sizeof kv / sizeof *kv && rc == MPI_SUCCESS; i++)
        rc = mica_info_put(info, kv[i][0], kv[i][1]);
    return rc;
}
