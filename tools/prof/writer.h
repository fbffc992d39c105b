/* mica-prof: a small buffered writer using only write(2), for per-rank files, also from signal
 * handlers (no allocation, no locale, no printf): strings, integers, doubles with 9 decimals,
 * hexadecimal addresses, JSON strings. */
#ifndef MICA_PROF_WRITER_H
#define MICA_PROF_WRITER_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    int fd;
    size_t n;
    char buf[8192];
} mp_wbuf;

void mp_w_flush(mp_wbuf *w);
void mp_w_mem(mp_wbuf *w, const char *s, size_t n);
void mp_w_s(mp_wbuf *w, const char *s);
void mp_w_u(mp_wbuf *w, uint64_t v);
void mp_w_i(mp_wbuf *w, long long v);
/* A non-negative double with 9 decimals. */
void mp_w_d(mp_wbuf *w, double v);
void mp_w_hex(mp_wbuf *w, uint64_t v);
void mp_w_js(mp_wbuf *w, const char *s);

#endif
