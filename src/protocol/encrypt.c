/* SPDX-License-Identifier: Apache-2.0 */
/* Public-key encryption, GB/T 32918.4-2016 clauses 6 (encrypt) and 7
 * (decrypt), with the SM3 KDF (5.4.3). Ciphertext forms: raw
 * 04||x1||y1||C3||C2 (C1C3C2, the 2016 order) or ...||C2||C3 (C1C2C3), and
 * GM/T 0009 DER SEQUENCE { x, y, C3, C2 } (what OpenSSL and GmSSL emit).
 *
 * One engine serves the one-shot calls and the streaming API: the KDF
 * (src/sm3/sm3_kdf.c, counter blocks hashed in the SIMD lanes) and the C3
 * hash SM3(x2 || M || y2) advance together over the message in pieces of
 * FS2_CT_CHUNK bytes, so that each piece of M is read from cache by the
 * hash right after (or before) the KDF XOR touched it. Every ciphertext form
 * is "a prefix, then C2, then (C1C2C3 only) C3": the DER header is written
 * up front (its lengths are known from x1, y1 and the message length), so
 * C2 goes straight into its final place with no side buffer. */
#include <stdlib.h>

#include "encoding/der.h"
#include "protocol/protocol.h"

#define C1_RAW 65
#define FS2_CT_CHUNK 4096

#define FS2_ENC_STREAM_MAGIC 0x6673326374656eULL /* "fs2cten" */
#define FS2_DEC_STREAM_MAGIC 0x66733263746465ULL /* "fs2ctde" */

static int flags_ok(int flags)
{
    return (flags & ~(FASTSM2_CT_RAW | FASTSM2_CT_C1C2C3)) == 0;
}

size_t fastsm2_ciphertext_size(size_t msglen, int flags)
{
    if (msglen > SIZE_MAX - 256)
        return 0;
    if (flags & FASTSM2_CT_RAW)
        return C1_RAW + 32 + msglen;
    return fs2_ct_der_max_size(msglen);
}

static void fail_out(unsigned char *out, size_t *outlen, size_t cap)
{
    if (out && cap)
        memset(out, 0, cap);
    if (outlen)
        *outlen = 0;
}

/* ------------------------------------------------------------------ */
/* The shared engine                                                    */
/* ------------------------------------------------------------------ */

/* The KDF and the C3 hash over one message; the layout of the streaming
 * objects (fastsm2_encrypt_stream / fastsm2_decrypt_stream). */
typedef struct {
    uint64_t magic;
    uint64_t total;      /* length of M */
    uint64_t done;       /* bytes of M through so far */
    fs2_kdf_ctx kdf;     /* t = KDF(x2 || y2, klen) */
    fastsm2_sm3_ctx c3;  /* SM3(x2 || M || y2) so far */
    unsigned char y2[32];
} __attribute__((may_alias)) fs2_ct_engine;

_Static_assert(sizeof(fs2_ct_engine) <= sizeof(fastsm2_encrypt_stream), "fastsm2_encrypt_stream too small");
_Static_assert(sizeof(fs2_ct_engine) <= sizeof(fastsm2_decrypt_stream), "fastsm2_decrypt_stream too small");
_Static_assert(_Alignof(fs2_ct_engine) <= _Alignof(fastsm2_encrypt_stream), "fastsm2_encrypt_stream under-aligned");

static void engine_init(fs2_ct_engine *e, const unsigned char xy[64], uint64_t total, int engine)
{
    e->total = total;
    e->done = 0;
    fs2_kdf_init(&e->kdf, xy, 64, engine);
    fastsm2_sm3_init(&e->c3);
    fastsm2_sm3_update(&e->c3, xy, 32);
    memcpy(e->y2, xy + 32, 32);
}

/* Encrypting: out = in ^ t, C3 absorbs in (before it may be overwritten
 * when out == in). */
static void engine_encrypt(fs2_ct_engine *e, unsigned char *out, const unsigned char *in, size_t len)
{
    while (len) {
        size_t n = len < FS2_CT_CHUNK ? len : FS2_CT_CHUNK;
        fastsm2_sm3_update(&e->c3, in, n);
        fs2_kdf_stream(&e->kdf, out, in, n);
        in += n;
        out += n;
        len -= n;
        e->done += n;
    }
}

/* Decrypting: out = in ^ t, C3 absorbs out. */
static void engine_decrypt(fs2_ct_engine *e, unsigned char *out, const unsigned char *in, size_t len)
{
    while (len) {
        size_t n = len < FS2_CT_CHUNK ? len : FS2_CT_CHUNK;
        fs2_kdf_stream(&e->kdf, out, in, n);
        fastsm2_sm3_update(&e->c3, out, n);
        in += n;
        out += n;
        len -= n;
        e->done += n;
    }
}

/* C3 (or u) = SM3(x2 || M || y2); returns whether t had a non-zero byte.
 * Wipes the engine. */
static int engine_final(fs2_ct_engine *e, unsigned char c3[32])
{
    int nonzero = fs2_kdf_nonzero(&e->kdf);
    fastsm2_sm3_update(&e->c3, e->y2, 32);
    fastsm2_sm3_final(c3, &e->c3);
    fs2_wipe(e, sizeof *e);
    return nonzero;
}

/* (x2, y2) as 64 bytes from a point (secret). */
static void shared_xy(unsigned char xy[64], fs2_affine *s2)
{
    fs2_u256_to_be(xy, s2->x);
    fs2_u256_to_be(xy + 32, s2->y);
    fs2_wipe(s2, sizeof *s2);
}

/* Everything before C2 for C1 = (x1, y1) and a C2 of c2len bytes, with C3
 * left zero: its length, or 0 when it does not fit in cap. *c3off gets the
 * offset of C3 from the start of the ciphertext (after C2 for C1C2C3). */
static size_t ct_prefix(unsigned char *out, size_t cap, const unsigned char x1[32], const unsigned char y1[32],
                        size_t c2len, int flags, size_t *c3off)
{
    static const unsigned char zero[32];
    if (flags & FASTSM2_CT_RAW) {
        size_t n = (flags & FASTSM2_CT_C1C2C3) ? C1_RAW : C1_RAW + 32;
        if (cap < n)
            return 0;
        out[0] = 0x04;
        memcpy(out + 1, x1, 32);
        memcpy(out + 33, y1, 32);
        if (flags & FASTSM2_CT_C1C2C3) {
            *c3off = C1_RAW + c2len;
        } else {
            memset(out + C1_RAW, 0, 32);
            *c3off = C1_RAW;
        }
        return n;
    }
    /* GM/T 0009: SEQUENCE { INTEGER x, INTEGER y, OCTET STRING C3, OCTET STRING C2 } */
    size_t c2tlv = fs2_der_tlv_len(c2len);
    size_t body = fs2_der_uint_len(x1, 32) + fs2_der_uint_len(y1, 32) + fs2_der_tlv_len(32);
    if (c2tlv > SIZE_MAX - body)
        return 0;
    fs2_der_out o;
    fs2_der_out_init(&o, out, cap);
    fs2_der_put_hdr(&o, FS2_DER_SEQUENCE, body + c2tlv);
    fs2_der_put_uint(&o, x1, 32);
    fs2_der_put_uint(&o, y1, 32);
    size_t c3 = o.n + 2; /* tag and one length byte */
    fs2_der_put_tlv(&o, FS2_DER_OCTET_STRING, zero, 32);
    fs2_der_put_hdr(&o, FS2_DER_OCTET_STRING, c2len);
    if (o.overflow)
        return 0;
    *c3off = c3;
    return o.n;
}

/* A2-A4 with nonce k: C1 = [k]G into x1, y1 and (x2, y2) = [k]P_B into xy
 * (h = 1: A3 is P_B != O, checked when the key was loaded). */
static void encrypt_points(unsigned char x1[32], unsigned char y1[32], unsigned char xy[64], const fs2_pub *p,
                           const uint64_t k[4])
{
    const fs2_ec_ops *ec = fs2_ec();
    fs2_affine c1, s2;
    if (ec->mul_base_and_mul) {
        ec->mul_base_and_mul(&c1, &s2, &p->pub.pt, fs2_pub_tables(p), k);
    } else {
        ec->mul_base(&c1, k);
        ec->mul(&s2, &p->pub.pt, fs2_pub_tables(p), k);
    }
    fs2_declassify(&c1, sizeof c1); /* C1 is sent: public */
    shared_xy(xy, &s2);
    fs2_u256_to_be(x1, c1.x);
    fs2_u256_to_be(y1, c1.y);
}

/* A1: k from kb (known answers) or the CSPRNG. FASTSM2_OK or an error. */
static int draw_nonce(uint64_t k[4], const unsigned char *kb)
{
    if (kb) {
        uint64_t ok = fs2_scalar_load_check(k, kb, 0);
        fs2_declassify(&ok, sizeof ok);
        return ok ? FASTSM2_OK : FASTSM2_ERR_SCALAR;
    }
    return fs2_random_scalar(k, 0) ? FASTSM2_OK : FASTSM2_ERR_RANDOM;
}

/* ------------------------------------------------------------------ */
/* One-shot encryption and decryption                                   */
/* ------------------------------------------------------------------ */

/* One attempt with nonce k: FASTSM2_OK, or FASTSM2_ERR_KDF_ZERO. */
static int encrypt_once(unsigned char *out, size_t *outlen, const fs2_pub *p, const unsigned char *msg,
                        size_t msglen, int flags, const uint64_t k[4], int kdf_engine)
{
    unsigned char xy[64], c3[32], x1[32], y1[32];
    size_t c3off;
    fs2_ct_engine e;

    encrypt_points(x1, y1, xy, p, k);
    size_t pre = ct_prefix(out, *outlen, x1, y1, msglen, flags, &c3off);
    if (pre == 0 || *outlen - pre < msglen + ((flags & FASTSM2_CT_RAW) && (flags & FASTSM2_CT_C1C2C3) ? 32 : 0)) {
        fs2_wipe(xy, sizeof xy);
        return FASTSM2_ERR_BUFFER_TOO_SMALL; /* not reached: the caller checked the size */
    }
    /* A5-A7: t = KDF(x2 || y2, klen), C2 = M xor t, C3 = Hash(x2 || M || y2) */
    engine_init(&e, xy, msglen, kdf_engine);
    fs2_wipe(xy, sizeof xy);
    engine_encrypt(&e, out + pre, msg, msglen);
    int nonzero = engine_final(&e, c3);
    fs2_declassify(&nonzero, sizeof nonzero); /* public: decides a retry */
    if (!nonzero)
        return FASTSM2_ERR_KDF_ZERO; /* A5: t all zero needs a new k */
    memcpy(out + c3off, c3, 32);
    *outlen = pre + msglen + ((flags & FASTSM2_CT_RAW) && (flags & FASTSM2_CT_C1C2C3) ? 32 : 0);
    return FASTSM2_OK;
}

static int encrypt_impl(unsigned char *out, size_t *outlen, const fastsm2_pubkey *pub, const void *msg,
                        size_t msglen, int flags, const unsigned char *kb, int kdf_engine)
{
    if (!out || !outlen)
        return FASTSM2_ERR_ARG;
    size_t cap = *outlen;
    const fs2_pub *p = fs2_pub_get(pub);
    if (!p || !msg || !flags_ok(flags)) {
        fail_out(out, outlen, cap);
        return FASTSM2_ERR_ARG;
    }
    /* The KDF's "t all zero" test (A5) has no meaning for klen = 0, and
     * GmSSL refuses empty messages too. */
    if (msglen == 0) {
        fail_out(out, outlen, cap);
        return FASTSM2_ERR_LENGTH;
    }
    size_t need = fastsm2_ciphertext_size(msglen, flags);
    if (need == 0 || cap < need) {
        fail_out(out, outlen, cap);
        return FASTSM2_ERR_BUFFER_TOO_SMALL;
    }
    uint64_t k[4];
    int ret = FASTSM2_ERR_RANDOM;
    for (int tries = 0; tries < (kb ? 1 : 16); tries++) {
        ret = draw_nonce(k, kb);
        if (ret != FASTSM2_OK)
            break;
        *outlen = cap;
        ret = encrypt_once(out, outlen, p, msg, msglen, flags, k, kdf_engine);
        if (ret != FASTSM2_ERR_KDF_ZERO)
            break;
    }
    fs2_wipe(k, sizeof k);
    if (ret != FASTSM2_OK)
        fail_out(out, outlen, cap);
    return ret;
}

int fastsm2_encrypt(unsigned char *out, size_t *outlen, const fastsm2_pubkey *pub, const void *msg, size_t msglen,
                    int flags)
{
    return encrypt_impl(out, outlen, pub, msg, msglen, flags, NULL, FS2_KDF_LANES);
}

int fs2_encrypt_engine(unsigned char *out, size_t *outlen, const fastsm2_pubkey *pub, const void *msg, size_t msglen,
                       int flags, int engine)
{
    return encrypt_impl(out, outlen, pub, msg, msglen, flags, NULL, engine);
}

int fastsm2_encrypt_with_nonce(unsigned char *out, size_t *outlen, const fastsm2_pubkey *pub, const void *msg,
                               size_t msglen, int flags, const unsigned char k[32])
{
    if (!k) {
        if (out && outlen)
            fail_out(out, outlen, *outlen);
        return FASTSM2_ERR_ARG;
    }
    return encrypt_impl(out, outlen, pub, msg, msglen, flags, k, FS2_KDF_LANES);
}

static int decrypt_impl(unsigned char *out, size_t *outlen, const fastsm2_privkey *key, const unsigned char *ct,
                        size_t ctlen, int flags, int kdf_engine)
{
    if (!outlen)
        return FASTSM2_ERR_ARG;
    size_t cap = *outlen;
    if (!out && cap) {
        *outlen = 0;
        return FASTSM2_ERR_ARG;
    }
    const fs2_priv *k = fs2_priv_get(key);
    if (!k || !ct || !flags_ok(flags)) {
        fail_out(out, outlen, cap);
        return FASTSM2_ERR_ARG;
    }
    fs2_affine c1;
    const unsigned char *c3, *c2;
    size_t c2len;
    int ret;
    if (flags & FASTSM2_CT_RAW) {
        /* B1: C1 is 04||x||y (or compressed 02/03||x) */
        size_t c1len = (ctlen && (ct[0] == 0x02 || ct[0] == 0x03)) ? 33 : C1_RAW;
        if (ctlen <= c1len + 32) {
            fail_out(out, outlen, cap);
            return FASTSM2_ERR_CIPHERTEXT;
        }
        ret = fs2_point_load(&c1, ct, c1len);
        c2len = ctlen - c1len - 32;
        if (flags & FASTSM2_CT_C1C2C3) {
            c2 = ct + c1len;
            c3 = c2 + c2len;
        } else {
            c3 = ct + c1len;
            c2 = c3 + 32;
        }
    } else {
        unsigned char x[32], y[32], enc[65];
        ret = fs2_ct_der_decode(x, y, &c3, &c2, &c2len, ct, ctlen);
        if (ret != FASTSM2_OK) {
            fail_out(out, outlen, cap);
            return FASTSM2_ERR_CIPHERTEXT;
        }
        if (c2len == 0) {
            fail_out(out, outlen, cap);
            return FASTSM2_ERR_CIPHERTEXT;
        }
        enc[0] = 0x04;
        memcpy(enc + 1, x, 32);
        memcpy(enc + 33, y, 32);
        ret = fs2_point_load(&c1, enc, 65);
    }
    if (ret != FASTSM2_OK) { /* C1 not on the curve (B1), or infinity (B2) */
        fail_out(out, outlen, cap);
        return FASTSM2_ERR_POINT;
    }
    if (cap < c2len) {
        fail_out(out, outlen, cap);
        return FASTSM2_ERR_BUFFER_TOO_SMALL;
    }
    /* B3: (x2, y2) = [d_B]C1 */
    fs2_affine s2;
    unsigned char xy[64], u[32];
    fs2_ct_engine e;
    fs2_ec()->mul(&s2, &c1, NULL, k->d);
    shared_xy(xy, &s2);
    /* B4-B5: t = KDF(x2 || y2, klen) (not all zero), M' = C2 xor t;
     * B6: u = Hash(x2 || M' || y2) == C3; the plaintext leaves only if so */
    engine_init(&e, xy, c2len, kdf_engine);
    fs2_wipe(xy, sizeof xy);
    engine_decrypt(&e, out, c2, c2len);
    int nonzero = engine_final(&e, u);
    int ok = fs2_ct_memeq(u, c3, 32) & (nonzero != 0);
    fs2_declassify(&ok, sizeof ok); /* whether the ciphertext authenticates is public */
    if (!ok) {
        fail_out(out, outlen, cap);
        return FASTSM2_ERR_DECRYPT;
    }
    *outlen = c2len;
    return FASTSM2_OK;
}

int fastsm2_decrypt(unsigned char *out, size_t *outlen, const fastsm2_privkey *key, const unsigned char *ct,
                    size_t ctlen, int flags)
{
    return decrypt_impl(out, outlen, key, ct, ctlen, flags, FS2_KDF_LANES);
}

int fs2_decrypt_engine(unsigned char *out, size_t *outlen, const fastsm2_privkey *key, const unsigned char *ct,
                       size_t ctlen, int flags, int engine)
{
    return decrypt_impl(out, outlen, key, ct, ctlen, flags, engine);
}

/* ------------------------------------------------------------------ */
/* Streaming                                                            */
/* ------------------------------------------------------------------ */

static fs2_ct_engine *stream_get(void *s, uint64_t magic)
{
    fs2_ct_engine *e = s;
    if (!e || e->magic != magic)
        return NULL;
    return e;
}

int fastsm2_encrypt_stream_init(fastsm2_encrypt_stream *s, unsigned char *prefix, size_t *prefixlen,
                                uint64_t *c3_offset, const fastsm2_pubkey *pub, uint64_t msglen, int flags)
{
    return fs2_encrypt_stream_init_nonce(s, prefix, prefixlen, c3_offset, pub, msglen, flags, NULL);
}

int fs2_encrypt_stream_init_nonce(fastsm2_encrypt_stream *s, unsigned char *prefix, size_t *prefixlen,
                                  uint64_t *c3_offset, const fastsm2_pubkey *pub, uint64_t msglen, int flags,
                                  const unsigned char *kb)
{
    if (!s)
        return FASTSM2_ERR_ARG;
    fs2_wipe(s, sizeof *s);
    if (!prefix || !prefixlen || !c3_offset)
        return FASTSM2_ERR_ARG;
    size_t cap = *prefixlen;
    *c3_offset = 0;
    const fs2_pub *p = fs2_pub_get(pub);
    if (!p || !flags_ok(flags)) {
        fail_out(prefix, prefixlen, cap);
        return FASTSM2_ERR_ARG;
    }
    if (msglen == 0 || msglen > SIZE_MAX - 256 || msglen > (uint64_t)0xFFFFFFFFu * 32u - 1u) {
        fail_out(prefix, prefixlen, cap);
        return FASTSM2_ERR_LENGTH;
    }
    if (cap < FASTSM2_CT_PREFIX_MAX) {
        fail_out(prefix, prefixlen, cap);
        return FASTSM2_ERR_BUFFER_TOO_SMALL;
    }
    uint64_t k[4];
    unsigned char x1[32], y1[32], xy[64];
    size_t c3off;
    int ret = draw_nonce(k, kb);
    if (ret != FASTSM2_OK) {
        fail_out(prefix, prefixlen, cap);
        return ret;
    }
    encrypt_points(x1, y1, xy, p, k);
    fs2_wipe(k, sizeof k);
    size_t pre = ct_prefix(prefix, cap, x1, y1, (size_t)msglen, flags, &c3off);
    if (pre == 0) { /* not reached: cap >= FASTSM2_CT_PREFIX_MAX */
        fs2_wipe(xy, sizeof xy);
        fail_out(prefix, prefixlen, cap);
        return FASTSM2_ERR_BUFFER_TOO_SMALL;
    }
    fs2_ct_engine *e = (fs2_ct_engine *)s;
    engine_init(e, xy, msglen, FS2_KDF_LANES);
    fs2_wipe(xy, sizeof xy);
    e->magic = FS2_ENC_STREAM_MAGIC;
    *prefixlen = pre;
    *c3_offset = c3off;
    return FASTSM2_OK;
}

int fastsm2_encrypt_stream_update(fastsm2_encrypt_stream *s, unsigned char *out, const void *in, size_t len)
{
    fs2_ct_engine *e = stream_get(s, FS2_ENC_STREAM_MAGIC);
    if (!e || (len && (!out || !in)))
        return FASTSM2_ERR_ARG;
    if (len > e->total - e->done)
        return FASTSM2_ERR_LENGTH;
    engine_encrypt(e, out, in, len);
    return FASTSM2_OK;
}

int fastsm2_encrypt_stream_final(fastsm2_encrypt_stream *s, unsigned char c3[32])
{
    fs2_ct_engine *e = stream_get(s, FS2_ENC_STREAM_MAGIC);
    if (!e || !c3) {
        if (c3)
            memset(c3, 0, 32);
        if (s)
            fs2_wipe(s, sizeof *s);
        return FASTSM2_ERR_ARG;
    }
    if (e->done != e->total) {
        memset(c3, 0, 32);
        fs2_wipe(s, sizeof *s);
        return FASTSM2_ERR_LENGTH;
    }
    int nonzero = engine_final(e, c3);
    fs2_declassify(&nonzero, sizeof nonzero); /* public: the output is thrown away */
    if (!nonzero) {
        memset(c3, 0, 32);
        return FASTSM2_ERR_KDF_ZERO;
    }
    return FASTSM2_OK;
}

/* Read a DER length at p[0..n): its value and size; 0 if malformed or cut
 * short (strictness comes from comparing with the re-encoded prefix). */
static size_t der_len_at(const unsigned char *p, size_t n, uint64_t *len)
{
    if (n < 1)
        return 0;
    if (p[0] < 0x80) {
        *len = p[0];
        return 1;
    }
    size_t k = p[0] & 0x7f;
    if (k == 0 || k > 8 || n < 1 + k)
        return 0;
    uint64_t v = 0;
    for (size_t i = 0; i < k; i++)
        v = (v << 8) | p[1 + i];
    *len = v;
    return 1 + k;
}

/* Parse the prefix of a DER ciphertext of ctlen bytes: C1's coordinates,
 * where C3 and C2 are. The prefix must be exactly what ct_prefix writes for
 * these values (strict DER), and the lengths must add up to ctlen. */
static int der_prefix_parse(unsigned char x[32], unsigned char y[32], uint64_t *c3off, uint64_t *c2off,
                            uint64_t *c2len, const unsigned char *pre, size_t prelen, uint64_t ctlen)
{
    uint64_t seqlen, c2l;
    size_t h;
    if (prelen < 2 || pre[0] != FS2_DER_SEQUENCE || (h = der_len_at(pre + 1, prelen - 1, &seqlen)) == 0)
        return 0;
    if (ctlen < 1 + h || seqlen != ctlen - 1 - h)
        return 0;
    fs2_der_in in, oc;
    size_t at = 1 + h;
    fs2_der_init(&in, pre + at, prelen - at);
    if (!fs2_der_get_uint(&in, x, 32) || !fs2_der_get_uint(&in, y, 32) || !fs2_der_get(&in, FS2_DER_OCTET_STRING, &oc) ||
        oc.n != 32)
        return 0;
    at = prelen - in.n;
    if (at + 1 >= prelen || pre[at] != FS2_DER_OCTET_STRING || (h = der_len_at(pre + at + 1, prelen - at - 1, &c2l)) == 0)
        return 0;
    at += 1 + h;
    if (c2l == 0 || c2l != ctlen - at || c2l > SIZE_MAX - 256)
        return 0;
    /* Re-encode and compare: refuses non-minimal lengths and the like. */
    unsigned char again[FASTSM2_CT_PREFIX_MAX];
    size_t off;
    size_t n = ct_prefix(again, sizeof again, x, y, (size_t)c2l, FASTSM2_CT_DER, &off);
    if (n != at || memcmp(again, pre, off) != 0 || memcmp(again + off + 32, pre + off + 32, n - off - 32) != 0)
        return 0;
    *c3off = off;
    *c2off = at;
    *c2len = c2l;
    return 1;
}

int fastsm2_decrypt_stream_init(fastsm2_decrypt_stream *s, uint64_t *c2_offset, uint64_t *c2len, uint64_t *c3_offset,
                                const fastsm2_privkey *key, const unsigned char *prefix, size_t prefixlen,
                                uint64_t ctlen, int flags)
{
    if (!s)
        return FASTSM2_ERR_ARG;
    fs2_wipe(s, sizeof *s);
    if (!c2_offset || !c2len || !c3_offset)
        return FASTSM2_ERR_ARG;
    *c2_offset = *c2len = *c3_offset = 0;
    const fs2_priv *k = fs2_priv_get(key);
    if (!k || !prefix || !flags_ok(flags))
        return FASTSM2_ERR_ARG;
    uint64_t want = ctlen < FASTSM2_CT_PREFIX_MAX ? ctlen : FASTSM2_CT_PREFIX_MAX;
    if (prefixlen < want)
        return FASTSM2_ERR_ARG;
    prefixlen = (size_t)want;

    fs2_affine c1;
    uint64_t c3o, c2o, c2l;
    int ret;
    if (flags & FASTSM2_CT_RAW) {
        size_t c1len = (ctlen && (prefix[0] == 0x02 || prefix[0] == 0x03)) ? 33 : C1_RAW;
        if (ctlen <= c1len + 32)
            return FASTSM2_ERR_CIPHERTEXT;
        ret = fs2_point_load(&c1, prefix, c1len);
        c2l = ctlen - c1len - 32;
        if (flags & FASTSM2_CT_C1C2C3) {
            c2o = c1len;
            c3o = c1len + c2l;
        } else {
            c3o = c1len;
            c2o = c1len + 32;
        }
    } else {
        unsigned char x[32], y[32], enc[65];
        if (!der_prefix_parse(x, y, &c3o, &c2o, &c2l, prefix, prefixlen, ctlen))
            return FASTSM2_ERR_CIPHERTEXT;
        enc[0] = 0x04;
        memcpy(enc + 1, x, 32);
        memcpy(enc + 33, y, 32);
        ret = fs2_point_load(&c1, enc, 65);
    }
    if (ret != FASTSM2_OK) /* C1 not on the curve (B1), or infinity (B2) */
        return FASTSM2_ERR_POINT;
    if (c2l > SIZE_MAX - 256 || c2l > (uint64_t)0xFFFFFFFFu * 32u - 1u)
        return FASTSM2_ERR_LENGTH;
    /* B3: (x2, y2) = [d_B]C1 */
    fs2_affine s2;
    unsigned char xy[64];
    fs2_ec()->mul(&s2, &c1, NULL, k->d);
    shared_xy(xy, &s2);
    fs2_ct_engine *e = (fs2_ct_engine *)s;
    engine_init(e, xy, c2l, FS2_KDF_LANES);
    fs2_wipe(xy, sizeof xy);
    e->magic = FS2_DEC_STREAM_MAGIC;
    *c2_offset = c2o;
    *c2len = c2l;
    *c3_offset = c3o;
    return FASTSM2_OK;
}

int fastsm2_decrypt_stream_update(fastsm2_decrypt_stream *s, unsigned char *out, const unsigned char *in, size_t len)
{
    fs2_ct_engine *e = stream_get(s, FS2_DEC_STREAM_MAGIC);
    if (!e || (len && (!out || !in)))
        return FASTSM2_ERR_ARG;
    if (len > e->total - e->done)
        return FASTSM2_ERR_LENGTH;
    engine_decrypt(e, out, in, len);
    return FASTSM2_OK;
}

int fastsm2_decrypt_stream_final(fastsm2_decrypt_stream *s, const unsigned char c3[32])
{
    fs2_ct_engine *e = stream_get(s, FS2_DEC_STREAM_MAGIC);
    if (!e || !c3) {
        if (s)
            fs2_wipe(s, sizeof *s);
        return FASTSM2_ERR_ARG;
    }
    if (e->done != e->total) {
        fs2_wipe(s, sizeof *s);
        return FASTSM2_ERR_LENGTH;
    }
    unsigned char u[32];
    int nonzero = engine_final(e, u);
    int ok = fs2_ct_memeq(u, c3, 32) & (nonzero != 0);
    fs2_wipe(u, sizeof u);
    fs2_declassify(&ok, sizeof ok); /* whether the ciphertext authenticates is public */
    return ok ? FASTSM2_OK : FASTSM2_ERR_DECRYPT;
}
