/* mica-prof: return addresses resolved to "function file:line", or "function (object+0xoffset)"
 * when there is no line information (addr2line, MICA_PROF_ADDR2LINE, run once per object). */
#ifndef MICA_PROF_SYMBOLS_H
#define MICA_PROF_SYMBOLS_H

#include <stdint.h>

/* One malloc'd string per address (the array too); "-" for a null address. */
char **mp_symbols_resolve(const uintptr_t *pcs, int n);
/* The last component of a path. */
const char *mp_symbols_base_name(const char *path);

#endif
