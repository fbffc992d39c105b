/* Packing: moving the data of (buf, count, type) to and from its packed form, the contiguous
 * stream of its bytes in type-map order. Any window [pos, pos + len) of the stream can be moved
 * on its own, so a large message is sent or received piece by piece; MPI_Pack/MPI_Unpack and
 * the copies between two typed buffers are built on the same walk. */
#include <limits.h>
#include <string.h>

#include "core/datatype.h"
#include "core/errors.h"
#include "core_api.h"

/* The block holding byte `r` of one element's packed form, and how far into it `r` is. */
static int find_block(const mica_type_t *t, MPI_Aint r, MPI_Aint *within)
{
    int b = 0;
    if (t->packoff) {
        int lo = 0, hi = t->nblocks - 1;
        while (lo < hi) {             /* the last block starting at or before r */
            int mid = lo + (hi - lo + 1) / 2;
            if (t->packoff[mid] <= r)
                lo = mid;
            else
                hi = mid - 1;
        }
        b = lo;
        r -= t->packoff[b];
    } else {
        while (r >= t->blocks[b].length)
            r -= t->blocks[b++].length;
    }
    *within = r;
    return b;
}

/* Small blocks are the common case of strided types: copies of a known size compile to moves. */
static inline void move(char *restrict dst, const char *restrict src, MPI_Aint n)
{
    switch (n) {
    case 1: *dst = *src; break;
    case 2: memcpy(dst, src, 2); break;
    case 4: memcpy(dst, src, 4); break;
    case 8: memcpy(dst, src, 8); break;
    case 12: memcpy(dst, src, 12); break;
    case 16: memcpy(dst, src, 16); break;
    default: memcpy(dst, src, n);
    }
}

/* One walk for both directions; `unpack` is a constant at each call site. */
static inline void walk(char *buf, MPI_Count count, const mica_type_t *t, MPI_Count pos,
                        char *packed, MPI_Count len, int unpack)
{
    MPI_Count total = count * t->size;
    if (pos < 0 || pos >= total || len <= 0)
        return;
    if (len > total - pos)
        len = total - pos;
    if (t->contiguous) {
        char *data = buf + t->true_lb + pos;
        if (unpack)
            memcpy(data, packed, len);
        else
            memcpy(packed, data, len);
        return;
    }
    MPI_Aint within;
    char *elem = buf + (pos / t->size) * t->extent;
    int b = find_block(t, pos % t->size, &within);
    const mica_block_t *blocks = t->blocks;
    int nblocks = t->nblocks;
    /* The rest of a partial element first. */
    if (b || within) {
        while (len > 0 && b < nblocks) {
            MPI_Aint n = blocks[b].length - within;
            if (n > len)
                n = len;
            char *data = elem + blocks[b].offset + within;
            if (unpack)
                move(data, packed, n);
            else
                move(packed, data, n);
            packed += n, len -= n, within = 0, b++;
        }
        elem += t->extent;
    }
    /* Whole elements. */
    if (nblocks == 1) {
        MPI_Aint n = blocks[0].length;
        for (elem += blocks[0].offset; len >= n; elem += t->extent, packed += n, len -= n) {
            if (unpack)
                move(elem, packed, n);
            else
                move(packed, elem, n);
        }
        elem -= blocks[0].offset;
    } else if (t->stride) {
        /* Evenly spaced blocks of one length: the common vector; its usual block sizes get
         * loops of their own so each copy is a single move. */
        MPI_Aint n = blocks[0].length, stride = t->stride;
#define REGULAR(n)                                                                          \
        for (; len >= t->size; elem += t->extent, len -= t->size) {                         \
            char *data = elem + blocks[0].offset;                                           \
            for (b = 0; b < nblocks; b++, data += stride, packed += (n)) {                  \
                if (unpack)                                                                 \
                    move(data, packed, (n));                                                \
                else                                                                        \
                    move(packed, data, (n));                                                \
            }                                                                               \
        }
        switch (n) {
        case 4: REGULAR(4) break;
        case 8: REGULAR(8) break;
        case 16: REGULAR(16) break;
        default: REGULAR(n)
        }
#undef REGULAR
    } else {
        for (; len >= t->size; elem += t->extent)
            for (b = 0; b < nblocks; b++) {
                MPI_Aint n = blocks[b].length;
                if (unpack)
                    move(elem + blocks[b].offset, packed, n);
                else
                    move(packed, elem + blocks[b].offset, n);
                packed += n, len -= n;
            }
    }
    /* The start of a last, partial element. */
    for (b = 0; len > 0; b++) {
        MPI_Aint n = blocks[b].length < len ? blocks[b].length : len;
        if (unpack)
            move(elem + blocks[b].offset, packed, n);
        else
            move(packed, elem + blocks[b].offset, n);
        packed += n, len -= n;
    }
}

void mica_type_pack(const void *buf, MPI_Count count, const mica_type_t *type, MPI_Count pos,
                    void *packed, MPI_Count len)
{
    walk((char *)buf, count, type, pos, packed, len, 0);
}

void mica_type_unpack(void *buf, MPI_Count count, const mica_type_t *type, MPI_Count pos,
                      const void *packed, MPI_Count len)
{
    walk(buf, count, type, pos, (char *)packed, len, 1);
}

void mica_type_copy(const void *src, MPI_Count scount, const mica_type_t *stype,
                    void *dst, MPI_Count dcount, const mica_type_t *dtype)
{
    MPI_Count bytes = scount * stype->size, dbytes = dcount * dtype->size;
    if (dbytes < bytes)
        bytes = dbytes;
    if (bytes <= 0 || (src == dst && stype == dtype))
        return;
    if (stype->contiguous && dtype->contiguous)
        memmove((char *)dst + dtype->true_lb, (const char *)src + stype->true_lb, bytes);
    else if (stype->contiguous)
        mica_type_unpack(dst, dcount, dtype, 0, (const char *)src + stype->true_lb, bytes);
    else if (dtype->contiguous)
        mica_type_pack(src, scount, stype, 0, (char *)dst + dtype->true_lb, bytes);
    else {
        /* Both scattered: through a bounce buffer, a piece at a time. */
        _Alignas(64) char tmp[16384];
        for (MPI_Count pos = 0; pos < bytes; pos += sizeof tmp) {
            MPI_Count n = bytes - pos < (MPI_Count)sizeof tmp ? bytes - pos : (MPI_Count)sizeof tmp;
            mica_type_pack(src, scount, stype, pos, tmp, n);
            mica_type_unpack(dst, dcount, dtype, pos, tmp, n);
        }
    }
}

/* ---- MPI_Pack, MPI_Unpack, MPI_Pack_size -------------------------------------------------- */

static int ready(const mica_type_t *t)
{
    return mica_type_ready(t) ? MPI_SUCCESS
                              : mica_error(MPI_ERR_TYPE, "datatype is not committed");
}

int mica_pack_c(const void *inbuf, MPI_Count incount, mica_type_t *datatype, void *outbuf,
                MPI_Count outsize, MPI_Count *position, mica_comm_t *comm)
{
    (void)comm;
    int rc = ready(datatype);
    if (rc)
        return rc;
    MPI_Count need;
    if (*position < 0 || *position > outsize)
        return mica_error(MPI_ERR_ARG, "*position=%lld is not within outsize=%lld",
                          (long long)*position, (long long)outsize);
    if (__builtin_mul_overflow(incount, datatype->size, &need) || need > outsize - *position)
        return mica_error(MPI_ERR_TRUNCATE, "incount=%lld elements need %lld bytes, only %lld "
                          "are left in outbuf", (long long)incount,
                          (long long)incount * datatype->size, (long long)(outsize - *position));
    if (need && !outbuf)
        return mica_error(MPI_ERR_BUFFER, "outbuf is NULL");
    mica_type_pack(inbuf, incount, datatype, 0, (char *)outbuf + *position, need);
    *position += need;
    return MPI_SUCCESS;
}

int mica_pack(const void *inbuf, int incount, mica_type_t *datatype, void *outbuf, int outsize,
              int *position, mica_comm_t *comm)
{
    MPI_Count pos = *position;
    int rc = mica_pack_c(inbuf, incount, datatype, outbuf, outsize, &pos, comm);
    if (rc == MPI_SUCCESS)
        *position = (int)pos;
    return rc;
}

int mica_unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf,
                  MPI_Count outcount, mica_type_t *datatype, mica_comm_t *comm)
{
    (void)comm;
    int rc = ready(datatype);
    if (rc)
        return rc;
    if (outcount < 0)
        return mica_error(MPI_ERR_COUNT, "outcount=%lld is negative", (long long)outcount);
    MPI_Count need;
    if (*position < 0 || *position > insize)
        return mica_error(MPI_ERR_ARG, "*position=%lld is not within insize=%lld",
                          (long long)*position, (long long)insize);
    if (__builtin_mul_overflow(outcount, datatype->size, &need) || need > insize - *position)
        return mica_error(MPI_ERR_TRUNCATE, "outcount=%lld elements need %lld bytes, only %lld "
                          "are left in inbuf", (long long)outcount,
                          (long long)outcount * datatype->size, (long long)(insize - *position));
    if (need && !inbuf)
        return mica_error(MPI_ERR_BUFFER, "inbuf is NULL");
    mica_type_unpack(outbuf, outcount, datatype, 0, (const char *)inbuf + *position, need);
    *position += need;
    return MPI_SUCCESS;
}

int mica_unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
                mica_type_t *datatype, mica_comm_t *comm)
{
    MPI_Count pos = *position;
    int rc = mica_unpack_c(inbuf, insize, &pos, outbuf, outcount, datatype, comm);
    if (rc == MPI_SUCCESS)
        *position = (int)pos;
    return rc;
}

int mica_pack_size_c(MPI_Count incount, mica_type_t *datatype, mica_comm_t *comm, MPI_Count *size)
{
    (void)comm;
    if (__builtin_mul_overflow(incount, datatype->size, size))
        return mica_error(MPI_ERR_VALUE_TOO_LARGE, "incount=%lld elements need more bytes than "
                          "MPI_Count holds", (long long)incount);
    return MPI_SUCCESS;
}

int mica_pack_size(int incount, mica_type_t *datatype, mica_comm_t *comm, int *size)
{
    MPI_Count n;
    int rc = mica_pack_size_c(incount, datatype, comm, &n);
    if (rc)
        return rc;
    if (n > INT_MAX)
        return mica_error(MPI_ERR_VALUE_TOO_LARGE, "incount=%d elements need %lld bytes, more "
                          "than an int holds: use MPI_Pack_size_c", incount, (long long)n);
    *size = (int)n;
    return MPI_SUCCESS;
}
