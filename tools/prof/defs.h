/* mica-prof: the few macros every file of the tool uses (symbol visibility, branch hints,
 * forced inlining) and a bounded string copy. */
#ifndef MICA_PROF_DEFS_H
#define MICA_PROF_DEFS_H

#include <stddef.h>
#include <string.h>

#define MP_API __attribute__((visibility("default")))
#define MP_HIDDEN __attribute__((visibility("hidden")))
#define MP_LIKELY(x) __builtin_expect(!!(x), 1)
#define MP_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define MP_INLINE static inline __attribute__((always_inline))

/* s into d[n], cut short if need be, always terminated */
static inline void mp_strlcpy(char *d, const char *s, size_t n)
{
    size_t k = strlen(s);
    if (k >= n)
        k = n - 1;
    memcpy(d, s, k);
    d[k] = 0;
}

#endif
