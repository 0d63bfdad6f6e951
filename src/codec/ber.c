/* SPDX-License-Identifier: Apache-2.0 */
/* BER to DER for CMS's outer layers; see ber.h. */
#include "ber.h"

#include "der.h"

/* One BER header at p[0..n): the tag, the contents' length (*indef set for
 * the indefinite form), the header's size; 0 if malformed. *minimal says
 * whether the header is DER's own. */
static size_t ber_hdr(const unsigned char *p, size_t n, unsigned *tag, size_t *len, int *indef, int *minimal)
{
    if (n < 2 || (p[0] & 0x1Fu) == 0x1Fu)
        return 0;
    *tag = p[0];
    *indef = 0;
    *minimal = 1;
    if (p[1] < 0x80u) {
        if (p[1] > n - 2) /* cut short */
            return 0;
        *len = p[1];
        return 2;
    }
    size_t k = p[1] & 0x7Fu;
    if (k == 0) {
        if ((p[0] & 0x20u) == 0) /* indefinite primitive */
            return 0;
        *indef = 1;
        *minimal = 0;
        *len = 0;
        return 2;
    }
    if (k > 8 || n - 2 < k)
        return 0;
    uint64_t v = 0;
    for (size_t i = 0; i < k; i++)
        v = (v << 8) | p[2 + i];
    if (v > SIZE_MAX || v > n - 2 - k)
        return 0;
    *minimal = p[2] != 0 && v >= 0x80u;
    *len = (size_t)v;
    return 2 + k;
}

/* The element at the front of p[0..n): *used bytes of input, *clen bytes of
 * DER contents, *tag_out the DER tag (a constructed OCTET STRING becomes
 * 0x04); when o is not NULL the whole DER element is written to it. *changed
 * is set when anything differs from the input. */
static int element(fs2_der_out *o, const unsigned char *p, size_t n, size_t *used, size_t *clen, int *changed,
                   int depth);

/* The contents of a constructed element, from p[0..n) (definite: exactly
 * n bytes; indefinite: up to the end-of-contents pair, *used then counting
 * it): their DER size in *clen, written to o when not NULL. strings: each
 * piece must be an OCTET STRING, and only the pieces' bytes are kept. */
static int contents(fs2_der_out *o, const unsigned char *p, size_t n, int indef, int strings, size_t *used,
                    size_t *clen, int *changed, int depth)
{
    size_t at = 0, total = 0;
    for (;;) {
        if (indef) {
            if (n - at >= 2 && p[at] == 0 && p[at + 1] == 0) {
                at += 2;
                break;
            }
            if (at == n)
                return 0; /* no end-of-contents */
        } else if (at == n) {
            break;
        }
        if (n - at >= 1 && p[at] == 0) /* end-of-contents where none is open, or a zero tag */
            return 0;
        size_t u, c;
        if (strings) {
            unsigned t;
            size_t len;
            int ind, minimal;
            size_t h = ber_hdr(p + at, n - at, &t, &len, &ind, &minimal);
            if (h == 0 || (t != FS2_DER_OCTET_STRING && t != (FS2_DER_OCTET_STRING | 0x20u)))
                return 0;
            if (t == FS2_DER_OCTET_STRING) {
                if (o != NULL)
                    fs2_der_put_bytes(o, p + at + h, len);
                u = h + len;
                c = len;
            } else {
                if (depth + 1 > FS2_BER_DEPTH ||
                    !contents(o, p + at + h, ind ? n - at - h : len, ind, 1, &u, &c, changed, depth + 1) ||
                    (!ind && u != len))
                    return 0;
                u += h;
            }
        } else {
            if (!element(o, p + at, n - at, &u, &c, changed, depth + 1))
                return 0;
            c = fs2_der_tlv_len(c);
        }
        at += u;
        if (total > SIZE_MAX - c)
            return 0;
        total += c;
    }
    *used = at;
    *clen = total;
    return 1;
}

static int element(fs2_der_out *o, const unsigned char *p, size_t n, size_t *used, size_t *clen, int *changed,
                   int depth)
{
    unsigned tag;
    size_t len, u, c;
    int indef, minimal;
    if (depth > FS2_BER_DEPTH)
        return 0;
    size_t h = ber_hdr(p, n, &tag, &len, &indef, &minimal);
    if (h == 0 || tag == 0)
        return 0;
    if (!minimal)
        *changed = 1;
    if ((tag & 0x20u) == 0) { /* primitive: as it is */
        if (o != NULL)
            fs2_der_put_tlv(o, tag, p + h, len);
        *used = h + len;
        *clen = len;
        return 1;
    }
    int strings = tag == (FS2_DER_OCTET_STRING | 0x20u);
    if (strings)
        *changed = 1;
    size_t body = indef ? n - h : len;
    /* measure, then write the header and the contents */
    if (!contents(NULL, p + h, body, indef, strings, &u, &c, changed, depth))
        return 0;
    if (!indef && u != len)
        return 0;
    if (o != NULL) {
        size_t u2, c2;
        fs2_der_put_hdr(o, strings ? FS2_DER_OCTET_STRING : tag, c);
        if (!contents(o, p + h, body, indef, strings, &u2, &c2, changed, depth))
            return 0;
    }
    *used = h + u;
    *clen = c;
    return 1;
}

int fs2_ber_to_der(unsigned char *out, size_t cap, size_t *derlen, int *changed, const unsigned char *in, size_t inlen)
{
    size_t used, clen;
    *changed = 0;
    if (in == NULL || !element(NULL, in, inlen, &used, &clen, changed, 0) || used != inlen)
        return 0;
    *derlen = fs2_der_tlv_len(clen);
    if (*derlen == SIZE_MAX)
        return 0;
    if (out == NULL || !*changed)
        return 1;
    fs2_der_out o;
    int ch = 0;
    fs2_der_out_init(&o, out, cap);
    if (!element(&o, in, inlen, &used, &clen, &ch, 0) || o.overflow || o.n != *derlen)
        return 0;
    return 1;
}
