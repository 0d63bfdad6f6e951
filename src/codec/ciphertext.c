/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SM2 ciphertext codec: C1, C3 and C2 of GB/T 32918.4 clause 6.1 in
 * the three layouts the library reads and writes:
 *  - raw C1C3C2 (the 2016 order): 04||x1||y1 || C3 || C2 (C1 may also be
 *    02/03||x1 when reading, GB/T 32918.1 4.2.9);
 *  - raw C1C2C3 (the 2010 draft's order): 04||x1||y1 || C2 || C3;
 *  - DER, GM/T 0009-2012 clause 7.2 (SM2Cipher):
 *      SEQUENCE { XCoordinate INTEGER, YCoordinate INTEGER,
 *                 HASH OCTET STRING (SIZE(32)), CipherText OCTET STRING }
 *    x and y as minimal non-negative INTEGERs (a leading 00 when the top
 *    bit is set, shorter when leading bytes are zero), as OpenSSL 3 and
 *    GmSSL 3 write them; C3 before C2 whatever the order flag.
 * In every layout C2 comes after everything else but a raw C1C2C3's C3, and
 * its length follows from the whole length. So both directions work on the
 * prefix (everything before C2, at most FASTSM2_CT_PREFIX_MAX bytes) and the
 * total length: the one-shot and the streaming calls of
 * src/protocol/encrypt.c share them, and C2 is written in place and read in
 * pieces. Byte-level only: whether C1 is a point of the curve is for the
 * caller.
 */
#include "codec/ciphertext.h"
#include "codec/der.h"

#define C1_LEN 65 /* 04 || x || y */
#define C3_LEN 32

/* The SEQUENCE's contents before C2: two INTEGERs of at most 33 content
 * bytes (35 bytes each with tag and length), and C3 with its header. */
#define DER_BEFORE_C2_MAX (35 + 35 + 2 + C3_LEN)

size_t fs2_ct_max_size(size_t c2len, int flags)
{
    if (c2len > SIZE_MAX - 256)
        return 0;
    if (flags & FASTSM2_CT_RAW)
        return C1_LEN + C3_LEN + c2len;
    return fs2_der_tlv_len(DER_BEFORE_C2_MAX + fs2_der_tlv_len(c2len));
}

size_t fs2_ct_write_prefix(fs2_ct_layout *l, unsigned char *out, size_t cap, const unsigned char x1[32],
                           const unsigned char y1[32], uint64_t c2len, int flags)
{
    static const unsigned char zero[C3_LEN];
    fs2_der_out o;

    memset(l, 0, sizeof *l);
    if (c2len > SIZE_MAX - 256)
        return 0;
    l->c1[0] = 0x04;
    memcpy(l->c1 + 1, x1, 32);
    memcpy(l->c1 + 33, y1, 32);
    l->c1len = C1_LEN;
    l->c2_len = c2len;
    fs2_der_out_init(&o, out, cap);
    if (flags & FASTSM2_CT_RAW) {
        fs2_der_put_bytes(&o, l->c1, C1_LEN);
        if (flags & FASTSM2_CT_C1C2C3) {
            l->c3_off = C1_LEN + c2len;
        } else {
            l->c3_off = C1_LEN;
            fs2_der_put_bytes(&o, zero, C3_LEN);
        }
    } else {
        size_t body = fs2_der_uint_len(x1, 32) + fs2_der_uint_len(y1, 32) + fs2_der_tlv_len(C3_LEN) +
                      fs2_der_tlv_len((size_t)c2len);
        fs2_der_put_hdr(&o, FS2_DER_SEQUENCE, body);
        fs2_der_put_uint(&o, x1, 32);
        fs2_der_put_uint(&o, y1, 32);
        l->c3_off = o.n + 2; /* after the tag and the one length byte */
        fs2_der_put_tlv(&o, FS2_DER_OCTET_STRING, zero, C3_LEN);
        fs2_der_put_hdr(&o, FS2_DER_OCTET_STRING, (size_t)c2len);
    }
    if (o.overflow) {
        memset(l, 0, sizeof *l);
        return 0;
    }
    l->c2_off = o.n;
    l->total = o.n + c2len + ((flags & FASTSM2_CT_RAW) && (flags & FASTSM2_CT_C1C2C3) ? C3_LEN : 0);
    return o.n;
}

/* A DER header at p[0..n) whose tag must be `tag`: its length in *len and
 * its own size (tag and length bytes), or 0 when it is cut short or not in
 * the shortest definite form (der.c's rules, fs2_der_get_hdr). Its contents
 * may run past n. */
static size_t der_hdr(const unsigned char *p, size_t n, unsigned tag, uint64_t *len)
{
    fs2_der_in in;
    unsigned t;
    size_t h;
    fs2_der_init(&in, p, n);
    h = fs2_der_get_hdr(&in, &t, len);
    return h != 0 && t == tag ? h : 0;
}

static int read_fail(fs2_ct_layout *l)
{
    memset(l, 0, sizeof *l);
    return FASTSM2_ERR_CIPHERTEXT;
}

int fs2_ct_read_prefix(fs2_ct_layout *l, const unsigned char *prefix, size_t prefixlen, uint64_t ctlen, int flags)
{
    memset(l, 0, sizeof *l);
    if (prefixlen > ctlen)
        prefixlen = (size_t)ctlen;
    l->total = ctlen;
    if (flags & FASTSM2_CT_RAW) {
        size_t c1len = (prefixlen && (prefix[0] == 0x02 || prefix[0] == 0x03)) ? 33 : C1_LEN;
        if (ctlen < c1len + C3_LEN || prefixlen < c1len)
            return read_fail(l);
        memcpy(l->c1, prefix, c1len);
        l->c1len = c1len;
        l->c2_len = ctlen - c1len - C3_LEN;
        if (flags & FASTSM2_CT_C1C2C3) {
            l->c2_off = c1len;
            l->c3_off = c1len + l->c2_len;
        } else {
            l->c3_off = c1len;
            l->c2_off = c1len + C3_LEN;
        }
        return FASTSM2_OK;
    }

    uint64_t seqlen, c2len;
    size_t h = der_hdr(prefix, prefixlen, FS2_DER_SEQUENCE, &seqlen);
    if (h == 0 || seqlen != ctlen - h)
        return read_fail(l);
    fs2_der_in in, c3;
    fs2_der_init(&in, prefix + h, prefixlen - h);
    l->c1[0] = 0x04;
    l->c1len = C1_LEN;
    if (!fs2_der_get_uint(&in, l->c1 + 1, 32) || !fs2_der_get_uint(&in, l->c1 + 33, 32) ||
        !fs2_der_get(&in, FS2_DER_OCTET_STRING, &c3) || c3.n != C3_LEN)
        return read_fail(l);
    size_t at = prefixlen - in.n; /* just after C3 */
    l->c3_off = at - C3_LEN;
    if ((h = der_hdr(prefix + at, prefixlen - at, FS2_DER_OCTET_STRING, &c2len)) == 0)
        return read_fail(l);
    at += h;
    if (c2len != ctlen - at)
        return read_fail(l);
    l->c2_off = at;
    l->c2_len = c2len;
    return FASTSM2_OK;
}
