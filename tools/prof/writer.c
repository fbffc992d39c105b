/* mica-prof: a small buffered writer using only write(2) (writer.h), for per-rank files, also
 * from signal handlers: no allocation, no locale, no printf. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "writer.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

void mp_w_flush(mp_wbuf *w)
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

void mp_w_mem(mp_wbuf *w, const char *s, size_t n)
{
    while (n) {
        if (w->n == sizeof w->buf)
            mp_w_flush(w);
        size_t k = sizeof w->buf - w->n < n ? sizeof w->buf - w->n : n;
        memcpy(w->buf + w->n, s, k);
        w->n += k;
        s += k;
        n -= k;
    }
}

void mp_w_s(mp_wbuf *w, const char *s)
{
    mp_w_mem(w, s, strlen(s));
}

void mp_w_u(mp_wbuf *w, uint64_t v)
{
    char b[24];
    int i = 23;
    b[i] = 0;
    do {
        b[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    mp_w_s(w, b + i);
}

void mp_w_i(mp_wbuf *w, long long v)
{
    if (v < 0) {
        mp_w_s(w, "-");
        v = -v;
    }
    mp_w_u(w, (uint64_t)v);
}

/* A non-negative double with 9 decimals, without printf. */
void mp_w_d(mp_wbuf *w, double v)
{
    if (!(v >= 0) || v > 1e15)
        v = 0;
    uint64_t ip = (uint64_t)v;
    uint64_t fr = (uint64_t)((v - (double)ip) * 1e9 + 0.5);
    if (fr >= 1000000000u) {
        ip++;
        fr -= 1000000000u;
    }
    mp_w_u(w, ip);
    char b[11];
    b[0] = '.';
    for (int i = 9; i >= 1; i--) {
        b[i] = (char)('0' + fr % 10);
        fr /= 10;
    }
    b[10] = 0;
    mp_w_s(w, b);
}

void mp_w_hex(mp_wbuf *w, uint64_t v)
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
    mp_w_s(w, b + i);
}

void mp_w_js(mp_wbuf *w, const char *s)
{
    mp_w_s(w, "\"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            char e[2] = {'\\', (char)c};
            mp_w_mem(w, e, 2);
        } else if (c < 0x20) {
            char e[7] = "\\u0000";
            e[4] = "0123456789abcdef"[c >> 4];
            e[5] = "0123456789abcdef"[c & 15];
            mp_w_mem(w, e, 6);
        } else {
            mp_w_mem(w, (const char *)&c, 1);
        }
    }
    mp_w_s(w, "\"");
}

