/* SPDX-License-Identifier: Apache-2.0 */
/* The growable DER writer; see dbuf.h. */
#include <stdlib.h>

#include "codec/dbuf.h"
#include "codec/der.h"

void fs2_dbuf_init(fs2_dbuf *b)
{
    b->p = NULL;
    b->n = b->cap = 0;
    b->err = 0;
}

void fs2_dbuf_free(fs2_dbuf *b)
{
    if (b->p != NULL) {
        fs2_wipe(b->p, b->cap);
        free(b->p);
    }
    fs2_dbuf_init(b);
}

/* Room for n more bytes; 0 (err set) when there is none. */
static int reserve(fs2_dbuf *b, size_t n)
{
    if (b->err)
        return 0;
    if (n > FS2_DBUF_MAX - b->n) {
        b->err = FASTSM2_ERR_TOO_LARGE;
        return 0;
    }
    if (b->n + n <= b->cap)
        return 1;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->n + n)
        cap = cap > FS2_DBUF_MAX / 2 ? FS2_DBUF_MAX : cap * 2;
    /* not realloc: the old block may hold a key, and is wiped first */
    unsigned char *p = malloc(cap);
    if (p == NULL) {
        b->err = FASTSM2_ERR_NO_MEMORY;
        return 0;
    }
    if (b->p != NULL) {
        memcpy(p, b->p, b->n);
        fs2_wipe(b->p, b->cap);
        free(b->p);
    }
    b->p = p;
    b->cap = cap;
    return 1;
}

void fs2_dbuf_put(fs2_dbuf *b, const void *p, size_t n)
{
    if (n == 0 || !reserve(b, n))
        return;
    memcpy(b->p + b->n, p, n);
    b->n += n;
}

size_t fs2_der_hdr_len(uint64_t len)
{
    size_t k = 0;
    if (len < 0x80u)
        return 2;
    while (len) {
        k++;
        len >>= 8;
    }
    return 2 + k;
}

void fs2_dbuf_hdr(fs2_dbuf *b, unsigned tag, uint64_t len)
{
    unsigned char h[10];
    size_t k = fs2_der_hdr_len(len) - 2;
    h[0] = (unsigned char)tag;
    if (k == 0) {
        h[1] = (unsigned char)len;
    } else {
        h[1] = (unsigned char)(0x80u | k);
        for (size_t i = 0; i < k; i++)
            h[2 + i] = (unsigned char)(len >> (8 * (k - 1 - i)));
    }
    fs2_dbuf_put(b, h, 2 + k);
}

size_t fs2_dbuf_open(fs2_dbuf *b, unsigned tag)
{
    unsigned char h[2] = {(unsigned char)tag, 0};
    fs2_dbuf_put(b, h, 2);
    return b->n;
}

void fs2_dbuf_close(fs2_dbuf *b, size_t mark)
{
    if (b->err)
        return;
    size_t len = b->n - mark, extra = fs2_der_hdr_len(len) - 2;
    if (extra && !reserve(b, extra))
        return;
    if (extra)
        memmove(b->p + mark + extra, b->p + mark, len);
    unsigned char *h = b->p + mark - 1; /* the length byte */
    if (extra == 0) {
        h[0] = (unsigned char)len;
    } else {
        h[0] = (unsigned char)(0x80u | extra);
        for (size_t i = 0; i < extra; i++)
            h[1 + i] = (unsigned char)(len >> (8 * (extra - 1 - i)));
    }
    b->n += extra;
}

typedef struct {
    const unsigned char *p;
    size_t n;
} span;

static int cmp_span(const void *a, const void *b)
{
    const span *x = a, *y = b;
    size_t n = x->n < y->n ? x->n : y->n;
    int c = memcmp(x->p, y->p, n);
    if (c != 0)
        return c;
    return x->n < y->n ? -1 : x->n > y->n;
}

void fs2_dbuf_close_sorted(fs2_dbuf *b, size_t mark)
{
    if (b->err)
        return;
    /* split the contents into their elements */
    size_t count = 0;
    fs2_der_in in, el;
    unsigned tag;
    fs2_der_init(&in, b->p + mark, b->n - mark);
    while (fs2_der_get_any(&in, &tag, &el))
        count++;
    if (count > 1 && fs2_der_at_end(&in)) {
        span *s = malloc(count * sizeof *s);
        unsigned char *copy = malloc(b->n - mark);
        if (s == NULL || copy == NULL) {
            free(s);
            free(copy);
            b->err = FASTSM2_ERR_NO_MEMORY;
            return;
        }
        memcpy(copy, b->p + mark, b->n - mark);
        fs2_der_init(&in, copy, b->n - mark);
        for (size_t i = 0; i < count; i++) {
            const unsigned char *start = in.p;
            (void)fs2_der_get_any(&in, &tag, &el);
            s[i].p = start;
            s[i].n = (size_t)(in.p - start);
        }
        qsort(s, count, sizeof *s, cmp_span);
        size_t o = mark;
        for (size_t i = 0; i < count; i++) {
            memcpy(b->p + o, s[i].p, s[i].n);
            o += s[i].n;
        }
        fs2_wipe(copy, b->n - mark);
        free(copy);
        free(s);
    }
    fs2_dbuf_close(b, mark);
}

void fs2_dbuf_tlv(fs2_dbuf *b, unsigned tag, const void *p, size_t n)
{
    fs2_dbuf_hdr(b, tag, n);
    fs2_dbuf_put(b, p, n);
}

void fs2_dbuf_uint(fs2_dbuf *b, const unsigned char *be, size_t n)
{
    static const unsigned char zero = 0;
    size_t i = 0;
    while (i + 1 < n && be[i] == 0)
        i++;
    if (n == 0) {
        fs2_dbuf_tlv(b, FS2_DER_INTEGER, &zero, 1);
        return;
    }
    int pad = (be[i] & 0x80u) != 0;
    fs2_dbuf_hdr(b, FS2_DER_INTEGER, n - i + (size_t)pad);
    if (pad)
        fs2_dbuf_put(b, &zero, 1);
    fs2_dbuf_put(b, be + i, n - i);
}

void fs2_dbuf_small_uint(fs2_dbuf *b, unsigned v)
{
    unsigned char be[4];
    fs2_store32_be(be, v);
    fs2_dbuf_uint(b, be, 4);
}
