/* SPDX-License-Identifier: Apache-2.0 */
/* Strict DER reader and bounded writer (X.690 clause 10); see der.h. */
#include "der.h"

/* ---- reader ------------------------------------------------------------ */

size_t fs2_der_get_hdr(const fs2_der_in *in, unsigned *tag, uint64_t *len)
{
    const unsigned char *p = in->p;
    size_t n = in->n;
    uint64_t v;

    if (n < 2)
        return 0;
    if ((p[0] & 0x1Fu) == 0x1Fu) /* high-tag-number form: not used by us */
        return 0;
    *tag = p[0];
    if (p[1] < 0x80u) {
        *len = p[1];
        return 2;
    }
    size_t k = p[1] & 0x7Fu;
    /* 0x80 is the indefinite form (BER only); more length bytes than a
     * uint64_t holds cannot describe anything. */
    if (k == 0 || k > 8 || n - 2 < k)
        return 0;
    if (p[2] == 0) /* leading zero length byte: not minimal */
        return 0;
    v = 0;
    for (size_t i = 0; i < k; i++)
        v = (v << 8) | p[2 + i];
    if (v < 0x80u) /* long form where the short one fits */
        return 0;
    *len = v;
    return 2 + k;
}

int fs2_der_get_any(fs2_der_in *in, unsigned *tag, fs2_der_in *body)
{
    unsigned t;
    uint64_t len;
    size_t h = fs2_der_get_hdr(in, &t, &len);

    /* contents beyond the cursor (or beyond memory): malformed here */
    if (h == 0 || len > in->n - h)
        return 0;
    *tag = t;
    body->p = in->p + h;
    body->n = (size_t)len;
    in->p += h + (size_t)len;
    in->n -= h + (size_t)len;
    return 1;
}

int fs2_der_get(fs2_der_in *in, unsigned tag, fs2_der_in *body)
{
    fs2_der_in save = *in;
    unsigned t;
    if (!fs2_der_get_any(in, &t, body))
        return 0;
    if (t != tag) {
        *in = save;
        return 0;
    }
    return 1;
}

int fs2_der_get_uint(fs2_der_in *in, unsigned char *out, size_t outlen)
{
    fs2_der_in save = *in, b;
    if (!fs2_der_get(in, FS2_DER_INTEGER, &b))
        return 0;
    if (b.n == 0 || (b.p[0] & 0x80u)) /* empty, or negative */
        goto bad;
    if (b.n > 1 && b.p[0] == 0) {
        if (!(b.p[1] & 0x80u)) /* redundant leading 00 */
            goto bad;
        b.p++; /* the sign byte of a positive number with its top bit set */
        b.n--;
    }
    if (b.n > outlen)
        goto bad;
    memset(out, 0, outlen - b.n);
    memcpy(out + (outlen - b.n), b.p, b.n);
    return 1;
bad:
    *in = save;
    return 0;
}

int fs2_der_get_bits(fs2_der_in *in, fs2_der_in *bits)
{
    fs2_der_in save = *in, b;
    if (!fs2_der_get(in, FS2_DER_BIT_STRING, &b))
        return 0;
    if (b.n == 0 || b.p[0] != 0) { /* no unused-bits byte, or bits unused */
        *in = save;
        return 0;
    }
    bits->p = b.p + 1;
    bits->n = b.n - 1;
    return 1;
}

int fs2_der_get_oid(fs2_der_in *in, fs2_der_in *oid)
{
    fs2_der_in save = *in, b;
    if (!fs2_der_get(in, FS2_DER_OID, &b))
        return 0;
    /* Non-empty; every sub-identifier minimal (does not start with 0x80)
     * and the last one terminated (top bit clear). */
    int ok = b.n > 0 && !(b.p[b.n - 1] & 0x80u);
    for (size_t i = 0; ok && i < b.n; i++)
        if (b.p[i] == 0x80u && (i == 0 || !(b.p[i - 1] & 0x80u)))
            ok = 0;
    if (!ok) {
        *in = save;
        return 0;
    }
    *oid = b;
    return 1;
}

int fs2_der_get_null(fs2_der_in *in)
{
    fs2_der_in save = *in, b;
    if (!fs2_der_get(in, FS2_DER_NULL, &b))
        return 0;
    if (b.n != 0) {
        *in = save;
        return 0;
    }
    return 1;
}

/* ---- writer ------------------------------------------------------------ */

static size_t len_bytes(size_t len)
{
    size_t k = 0;
    if (len < 0x80u)
        return 0;
    while (len) {
        k++;
        len >>= 8;
    }
    return k;
}

size_t fs2_der_tlv_len(size_t len)
{
    size_t hdr = 2 + len_bytes(len);
    return len > SIZE_MAX - hdr ? SIZE_MAX : hdr + len;
}

/* Content length of the minimal INTEGER for be[0..n). */
static size_t uint_body_len(const unsigned char *be, size_t n, size_t *skip)
{
    size_t i = 0;
    if (n == 0) { /* the number zero, written as 02 01 00 */
        *skip = 0;
        return 1;
    }
    while (i + 1 < n && be[i] == 0)
        i++;
    *skip = i;
    return (n - i) + ((be[i] & 0x80u) ? 1 : 0);
}

size_t fs2_der_uint_len(const unsigned char *be, size_t n)
{
    size_t skip;
    return fs2_der_tlv_len(uint_body_len(be, n, &skip));
}

void fs2_der_put_bytes(fs2_der_out *o, const void *p, size_t n)
{
    if (o->overflow || n > o->cap - o->n) {
        o->overflow = 1;
        return;
    }
    if (n)
        memcpy(o->p + o->n, p, n);
    o->n += n;
}

void fs2_der_put_hdr(fs2_der_out *o, unsigned tag, size_t len)
{
    unsigned char h[2 + sizeof(size_t)];
    size_t k = len_bytes(len);
    h[0] = (unsigned char)tag;
    if (k == 0) {
        h[1] = (unsigned char)len;
    } else {
        h[1] = (unsigned char)(0x80u | k);
        for (size_t i = 0; i < k; i++)
            h[2 + i] = (unsigned char)(len >> (8 * (k - 1 - i)));
    }
    fs2_der_put_bytes(o, h, 2 + k);
}

void fs2_der_put_tlv(fs2_der_out *o, unsigned tag, const void *p, size_t n)
{
    fs2_der_put_hdr(o, tag, n);
    fs2_der_put_bytes(o, p, n);
}

void fs2_der_put_uint(fs2_der_out *o, const unsigned char *be, size_t n)
{
    static const unsigned char zero = 0;
    size_t skip, blen = uint_body_len(be, n, &skip);
    fs2_der_put_hdr(o, FS2_DER_INTEGER, blen);
    if (blen > n - skip)
        fs2_der_put_bytes(o, &zero, 1);
    fs2_der_put_bytes(o, be + skip, n - skip);
}
