/* mica-prof: the options (config.h), from MICA_PROF_* environment variables. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

mp_config mp_cfg;

static int env_flag(const char *name, int dflt)
{
    const char *v = getenv(name);
    if (v == NULL || *v == 0)
        return dflt;
    if (!strcmp(v, "0") || !strcasecmp(v, "off") || !strcasecmp(v, "no") || !strcasecmp(v, "false"))
        return 0;
    return 1;
}

static long env_long(const char *name, long dflt, long lo, long hi)
{
    const char *v = getenv(name);
    if (v == NULL || *v == 0)
        return dflt;
    long x = strtol(v, NULL, 10);
    return x < lo ? lo : x > hi ? hi : x;
}

void mp_config_read(void)
{
    const char *v;
    mp_cfg.sites = env_flag("MICA_PROF_SITES", 1);
    mp_cfg.depth = (int)env_long("MICA_PROF_DEPTH", 1, 1, MP_MAXDEPTH);
    mp_cfg.max_sites = (int)env_long("MICA_PROF_MAX_SITES", 4096, 64, 1 << 22);
    int b = 1;
    while ((1 << b) < mp_cfg.max_sites)
        b++;
    mp_cfg.max_sites = 1 << b;
    mp_cfg.trace = env_flag("MICA_PROF_TRACE", 0);
    mp_cfg.trace_max = env_long("MICA_PROF_TRACE_MAX", 200000, 16, 1L << 30);
    mp_cfg.top = (int)env_long("MICA_PROF_TOP", 20, 1, 100000);
    mp_cfg.signals = env_flag("MICA_PROF_SIGNALS", 1);
    mp_cfg.exit_wait = (double)env_long("MICA_PROF_EXIT_WAIT_MS", 3000, 0, 3600000) / 1000;
    mp_cfg.quiet = env_flag("MICA_PROF_QUIET", 0);
    v = getenv("MICA_PROF_REPORT");
    mp_cfg.per_rank = v && !strcasecmp(v, "rank");
    v = getenv("MICA_PROF_DIR");
    snprintf(mp_cfg.dir, sizeof mp_cfg.dir, "%s", v && *v ? v : ".");
    v = getenv("MICA_PROF_NAME");
    snprintf(mp_cfg.name, sizeof mp_cfg.name, "%s", v && *v ? v : "");
    v = getenv("MICA_PROF_ADDR2LINE");
    snprintf(mp_cfg.addr2line, sizeof mp_cfg.addr2line, "%s", v && *v ? v : "addr2line");
    if (v && (!strcmp(v, "0") || !strcasecmp(v, "off")))
        mp_cfg.addr2line[0] = 0;
    v = getenv("MICA_PROF_CLOCK");
    mp_cfg.clock = (v && !strcasecmp(v, "monotonic")) ? 0 : (v && !strcasecmp(v, "tsc")) ? 1 : -1;
    mp_cfg.start = env_flag("MICA_PROF_START", 1);
}
