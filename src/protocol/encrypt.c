/* SPDX-License-Identifier: Apache-2.0 */
/* Public-key encryption, GB/T 32918.4-2016 clauses 6 (encrypt) and 7
 * (decrypt), with the SM3 KDF (5.4.3). The ciphertext's bytes (raw C1C3C2
 * or C1C2C3, GM/T 0009 DER) are the codec's (src/codec/ciphertext.c):
 * every layout is "a prefix, then C2, then (raw C1C2C3 only) C3", so the
 * prefix is written up front and C2 goes straight into its final place.
 *
 * One engine serves the one-shot calls and the streaming API: the KDF
 * (src/hash/sm3_kdf.c, counter blocks hashed in the SIMD lanes) and the C3
 * hash SM3(x2 || M || y2) advance together over the message in pieces of
 * FS2_CT_CHUNK bytes, so that each piece of M is read from cache by the
 * hash right after (or before) the KDF XOR touched it. The plaintext is
 * secret until the C3 check: no branch or address depends on it. */
#include <stdlib.h>

#include "protocol/protocol.h"

#define FS2_CT_CHUNK   4096
/* The KDF's 32-bit counter bounds klen (GB/T 32918.4 5.4.3). */
#define FS2_CT_MSG_MAX ((uint64_t)0xFFFFFFFFu * 32u - 1u)

#define FS2_ENC_STREAM_MAGIC 0x6673326374656eULL /* "fs2cten" */
#define FS2_DEC_STREAM_MAGIC 0x66733263746465ULL /* "fs2ctde" */

static int flags_ok(int flags)
{
    return (flags & ~(FASTSM2_CT_RAW | FASTSM2_CT_C1C2C3)) == 0;
}

size_t fastsm2_ciphertext_size(size_t msglen, int flags)
{
    return fs2_ct_max_size(msglen, flags);
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
    uint64_t total;     /* length of M */
    uint64_t done;      /* bytes of M through so far */
    fs2_kdf_ctx kdf;    /* t = KDF(x2 || y2, klen) */
    fastsm2_sm3_ctx c3; /* SM3(x2 || M || y2) so far */
    unsigned char y2[32];
} __attribute__((may_alias)) fs2_ct_engine;

_Static_assert(sizeof(fs2_ct_engine) <= sizeof(fastsm2_encrypt_stream), "fastsm2_encrypt_stream too small");
_Static_assert(sizeof(fs2_ct_engine) <= sizeof(fastsm2_decrypt_stream), "fastsm2_decrypt_stream too small");
_Static_assert(_Alignof(fs2_ct_engine) <= _Alignof(fastsm2_encrypt_stream), "fastsm2_encrypt_stream under-aligned");

static void engine_init(fs2_ct_engine *e, const unsigned char xy[64], uint64_t total)
{
    e->total = total;
    e->done = 0;
    fs2_kdf_init(&e->kdf, xy, 64, FS2_KDF_LANES);
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

/* B4 (t not all zero) and B6 (u = SM3(x2 || M' || y2) equals C3, compared
 * in constant time): 1 if the ciphertext authenticates, else 0. Wipes the
 * engine. */
static int engine_check(fs2_ct_engine *e, const unsigned char c3[32])
{
    unsigned char u[32];
    int nonzero = engine_final(e, u);
    int ok = fs2_ct_memeq(u, c3, 32) & (nonzero != 0);
    fs2_wipe(u, sizeof u);
    fs2_declassify(&ok, sizeof ok); /* whether the ciphertext authenticates is public */
    return ok;
}

/* (x2, y2) as 64 bytes from a point (secret). */
static void shared_xy(unsigned char xy[64], fs2_affine *s2)
{
    fs2_u256_to_be(xy, s2->x);
    fs2_u256_to_be(xy + 32, s2->y);
    fs2_wipe(s2, sizeof *s2);
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

/* B3: (x2, y2) = [d_B]C1. */
static void decrypt_point(unsigned char xy[64], const fs2_priv *k, const fs2_affine *c1)
{
    fs2_affine s2;
    fs2_ec()->mul(&s2, c1, NULL, k->d);
    shared_xy(xy, &s2);
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

/* A2-A4 with nonce k for a message of msglen bytes: the prefix written into
 * out[0..cap) and *l filled (src/codec/ciphertext.c), the engine set for
 * t = KDF(x2 || y2, klen) and C3. FASTSM2_OK, or
 * FASTSM2_ERR_BUFFER_TOO_SMALL (not reached: callers check the capacity
 * first). */
static int encrypt_begin(fs2_ct_engine *e, fs2_ct_layout *l, unsigned char *out, size_t cap, const fs2_pub *p,
                         const uint64_t k[4], uint64_t msglen, int flags)
{
    unsigned char x1[32], y1[32], xy[64];
    encrypt_points(x1, y1, xy, p, k);
    if (fs2_ct_write_prefix(l, out, cap, x1, y1, msglen, flags) == 0) {
        fs2_wipe(xy, sizeof xy);
        return FASTSM2_ERR_BUFFER_TOO_SMALL;
    }
    engine_init(e, xy, msglen);
    fs2_wipe(xy, sizeof xy);
    return FASTSM2_OK;
}

/* B1-B2 on the ciphertext of ctlen bytes whose first prefixlen bytes
 * (at least min(ctlen, FASTSM2_CT_PREFIX_MAX)) are at prefix: its layout
 * into *l and C1, checked to be on the curve and not infinity.
 * FASTSM2_OK, FASTSM2_ERR_CIPHERTEXT (malformed, or no C2: klen >= 1),
 * FASTSM2_ERR_POINT, FASTSM2_ERR_LENGTH (C2 longer than the KDF or a
 * size_t allows). */
static int decrypt_layout(fs2_ct_layout *l, fs2_affine *c1, const unsigned char *prefix, size_t prefixlen,
                          uint64_t ctlen, int flags)
{
    if (fs2_ct_read_prefix(l, prefix, prefixlen, ctlen, flags) != FASTSM2_OK || l->c2_len == 0)
        return FASTSM2_ERR_CIPHERTEXT;
    if (fs2_point_load(c1, l->c1, l->c1len) != FASTSM2_OK)
        return FASTSM2_ERR_POINT;
    if (l->c2_len > SIZE_MAX - 256 || l->c2_len > FS2_CT_MSG_MAX)
        return FASTSM2_ERR_LENGTH;
    return FASTSM2_OK;
}

/* B3, and the engine set for t = KDF(x2 || y2, klen) and u. */
static void decrypt_begin(fs2_ct_engine *e, const fs2_priv *k, const fs2_affine *c1, uint64_t c2len)
{
    unsigned char xy[64];
    decrypt_point(xy, k, c1);
    engine_init(e, xy, c2len);
    fs2_wipe(xy, sizeof xy);
}

/* ------------------------------------------------------------------ */
/* One-shot encryption and decryption                                   */
/* ------------------------------------------------------------------ */

static int encrypt_impl(unsigned char *out, size_t *outlen, const fastsm2_pubkey *pub, const void *msg, size_t msglen,
                        int flags, const unsigned char *kb)
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
    fs2_ct_layout l;
    fs2_ct_engine e;
    int ret = FASTSM2_ERR_RANDOM;
    for (int tries = 0; tries < (kb ? 1 : 16); tries++) {
        ret = draw_nonce(k, kb);
        if (ret == FASTSM2_OK)
            ret = encrypt_begin(&e, &l, out, cap, p, k, msglen, flags);
        if (ret != FASTSM2_OK)
            break;
        /* A5-A7: C2 = M xor t, C3 = Hash(x2 || M || y2), in place */
        engine_encrypt(&e, out + l.c2_off, msg, msglen);
        int nonzero = engine_final(&e, out + l.c3_off);
        fs2_declassify(&nonzero, sizeof nonzero); /* public: decides a retry */
        if (nonzero) {
            *outlen = (size_t)l.total;
            break;
        }
        ret = FASTSM2_ERR_KDF_ZERO; /* A5: t all zero needs a new k */
    }
    fs2_wipe(k, sizeof k);
    if (ret != FASTSM2_OK)
        fail_out(out, outlen, cap);
    return ret;
}

int fastsm2_encrypt(unsigned char *out, size_t *outlen, const fastsm2_pubkey *pub, const void *msg, size_t msglen,
                    int flags)
{
    return encrypt_impl(out, outlen, pub, msg, msglen, flags, NULL);
}

int fastsm2_encrypt_with_nonce(unsigned char *out, size_t *outlen, const fastsm2_pubkey *pub, const void *msg,
                               size_t msglen, int flags, const unsigned char k[32])
{
    if (!k) {
        if (out && outlen)
            fail_out(out, outlen, *outlen);
        return FASTSM2_ERR_ARG;
    }
    return encrypt_impl(out, outlen, pub, msg, msglen, flags, k);
}

static int decrypt_impl(unsigned char *out, size_t *outlen, const fastsm2_privkey *key, const unsigned char *ct,
                        size_t ctlen, int flags)
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
    fs2_ct_layout l;
    fs2_affine c1;
    size_t prelen = ctlen < FASTSM2_CT_PREFIX_MAX ? ctlen : FASTSM2_CT_PREFIX_MAX;
    int ret = decrypt_layout(&l, &c1, ct, prelen, ctlen, flags);
    if (ret == FASTSM2_OK && cap < l.c2_len)
        ret = FASTSM2_ERR_BUFFER_TOO_SMALL;
    if (ret != FASTSM2_OK) {
        fail_out(out, outlen, cap);
        return ret;
    }
    /* B3-B6: M' = C2 xor t into out; the plaintext leaves only if
     * u == C3 (out is zeroed otherwise) */
    fs2_ct_engine e;
    decrypt_begin(&e, k, &c1, l.c2_len);
    engine_decrypt(&e, out, ct + l.c2_off, (size_t)l.c2_len);
    if (!engine_check(&e, ct + l.c3_off)) {
        fail_out(out, outlen, cap);
        return FASTSM2_ERR_DECRYPT;
    }
    *outlen = (size_t)l.c2_len;
    return FASTSM2_OK;
}

int fastsm2_decrypt(unsigned char *out, size_t *outlen, const fastsm2_privkey *key, const unsigned char *ct,
                    size_t ctlen, int flags)
{
    return decrypt_impl(out, outlen, key, ct, ctlen, flags);
}

int fastsm2_plaintext_size(size_t *msglen, const unsigned char *ct, size_t ctlen, int flags)
{
    if (!msglen)
        return FASTSM2_ERR_ARG;
    *msglen = 0;
    if ((!ct && ctlen != 0) || !flags_ok(flags))
        return FASTSM2_ERR_ARG;
    if (ctlen == 0) /* NULL allowed: nothing to point at */
        return FASTSM2_ERR_CIPHERTEXT;
    fs2_ct_layout l;
    fs2_affine c1;
    size_t prelen = ctlen < FASTSM2_CT_PREFIX_MAX ? ctlen : FASTSM2_CT_PREFIX_MAX;
    int ret = decrypt_layout(&l, &c1, ct, prelen, ctlen, flags);
    if (ret == FASTSM2_OK)
        *msglen = (size_t)l.c2_len;
    return ret;
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
    if (msglen == 0 || msglen > SIZE_MAX - 256 || msglen > FS2_CT_MSG_MAX) {
        fail_out(prefix, prefixlen, cap);
        return FASTSM2_ERR_LENGTH;
    }
    if (cap < FASTSM2_CT_PREFIX_MAX) {
        fail_out(prefix, prefixlen, cap);
        return FASTSM2_ERR_BUFFER_TOO_SMALL;
    }
    uint64_t k[4];
    fs2_ct_layout l;
    fs2_ct_engine *e = (fs2_ct_engine *)s;
    int ret = draw_nonce(k, kb);
    if (ret == FASTSM2_OK)
        ret = encrypt_begin(e, &l, prefix, cap, p, k, msglen, flags);
    fs2_wipe(k, sizeof k);
    if (ret != FASTSM2_OK) {
        fail_out(prefix, prefixlen, cap);
        return ret;
    }
    e->magic = FS2_ENC_STREAM_MAGIC;
    *prefixlen = (size_t)l.c2_off;
    *c3_offset = l.c3_off;
    return FASTSM2_OK;
}

/* The next len bytes through a stream's engine: encrypting (C2 from M) or
 * decrypting (M' from C2), as its magic says. */
static int stream_update(void *s, uint64_t magic, unsigned char *out, const unsigned char *in, size_t len)
{
    fs2_ct_engine *e = stream_get(s, magic);
    if (!e || (len && (!out || !in)))
        return FASTSM2_ERR_ARG;
    if (len > e->total - e->done)
        return FASTSM2_ERR_LENGTH;
    if (magic == FS2_ENC_STREAM_MAGIC)
        engine_encrypt(e, out, in, len);
    else
        engine_decrypt(e, out, in, len);
    return FASTSM2_OK;
}

int fastsm2_encrypt_stream_update(fastsm2_encrypt_stream *s, unsigned char *out, const void *in, size_t len)
{
    return stream_update(s, FS2_ENC_STREAM_MAGIC, out, in, len);
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
    fs2_ct_layout l;
    fs2_affine c1;
    int ret = decrypt_layout(&l, &c1, prefix, (size_t)want, ctlen, flags);
    if (ret != FASTSM2_OK)
        return ret;
    fs2_ct_engine *e = (fs2_ct_engine *)s;
    decrypt_begin(e, k, &c1, l.c2_len);
    e->magic = FS2_DEC_STREAM_MAGIC;
    *c2_offset = l.c2_off;
    *c2len = l.c2_len;
    *c3_offset = l.c3_off;
    return FASTSM2_OK;
}

int fastsm2_decrypt_stream_update(fastsm2_decrypt_stream *s, unsigned char *out, const unsigned char *in, size_t len)
{
    return stream_update(s, FS2_DEC_STREAM_MAGIC, out, in, len);
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
    return engine_check(e, c3) ? FASTSM2_OK : FASTSM2_ERR_DECRYPT;
}
