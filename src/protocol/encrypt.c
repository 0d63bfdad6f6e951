/* SPDX-License-Identifier: Apache-2.0 */
/* Public-key encryption, GB/T 32918.4-2016 clauses 6 (encrypt) and 7
 * (decrypt), with the SM3 KDF (5.4.3). Ciphertext forms: raw
 * 04||x1||y1||C3||C2 (C1C3C2, the 2016 order) or ...||C2||C3 (C1C2C3), and
 * GM/T 0009 DER SEQUENCE { x, y, C3, C2 } (what OpenSSL and GmSSL emit). */
#include <stdlib.h>

#include "protocol/protocol.h"

#define C1_RAW 65

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

/* C3 = SM3(x2 || M || y2) */
static void c3_hash(unsigned char c3[32], const unsigned char xy[64], const unsigned char *m, size_t mlen)
{
    fastsm2_sm3_ctx c;
    fastsm2_sm3_init(&c);
    fastsm2_sm3_update(&c, xy, 32);
    fastsm2_sm3_update(&c, m, mlen);
    fastsm2_sm3_update(&c, xy + 32, 32);
    fastsm2_sm3_final(c3, &c);
}

/* One attempt with nonce k: FASTSM2_OK, or FASTSM2_ERR_KDF_ZERO. */
static int encrypt_once(unsigned char *out, size_t *outlen, const fs2_pub *p, const unsigned char *msg,
                        size_t msglen, int flags, const uint64_t k[4], unsigned char *c2)
{
    const fs2_backend *b = fs2_backend_get();
    fs2_affine c1, s2;
    unsigned char xy[64], c3[32], x1[32], y1[32];
    /* A2: C1 = [k]G; A4: (x2, y2) = [k]P_B (h = 1: A3 is P_B != O, checked
     * when the key was loaded) */
    b->ecmult_gen(&c1, k);
    fs2_declassify(&c1, sizeof c1); /* C1 is sent: public */
    b->ecmult_const(&s2, &p->pub.pt, k);
    fs2_u256_to_be(xy, s2.x);
    fs2_u256_to_be(xy + 32, s2.y);
    fs2_wipe(&s2, sizeof s2);
    /* A5-A6: t = KDF(x2 || y2, klen), C2 = M xor t; t = 0 needs a new k */
    int nonzero = fs2_kdf_xor(c2, msg, msglen, xy, 64);
    fs2_declassify(&nonzero, sizeof nonzero); /* public: decides a retry */
    if (!nonzero) {
        fs2_wipe(xy, sizeof xy);
        return FASTSM2_ERR_KDF_ZERO;
    }
    /* A7: C3 = Hash(x2 || M || y2) */
    c3_hash(c3, xy, msg, msglen);
    fs2_wipe(xy, sizeof xy);
    fs2_u256_to_be(x1, c1.x);
    fs2_u256_to_be(y1, c1.y);
    if (flags & FASTSM2_CT_RAW) {
        out[0] = 0x04;
        memcpy(out + 1, x1, 32);
        memcpy(out + 33, y1, 32);
        if (flags & FASTSM2_CT_C1C2C3) {
            memmove(out + C1_RAW, c2, msglen);
            memcpy(out + C1_RAW + msglen, c3, 32);
        } else {
            memmove(out + C1_RAW + 32, c2, msglen);
            memcpy(out + C1_RAW, c3, 32);
        }
        *outlen = C1_RAW + 32 + msglen;
        return FASTSM2_OK;
    }
    return fs2_ct_der_encode(out, outlen, x1, y1, c3, c2, msglen);
}

static int encrypt_impl(unsigned char *out, size_t *outlen, const fastsm2_pubkey *pub, const void *msg,
                        size_t msglen, int flags, const unsigned char *kb)
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
    /* C2 goes straight into place for raw output; DER needs a side buffer. */
    unsigned char *c2;
    if (flags & FASTSM2_CT_RAW) {
        c2 = out + C1_RAW + ((flags & FASTSM2_CT_C1C2C3) ? 0 : 32);
    } else {
        c2 = malloc(msglen);
        if (!c2) {
            fail_out(out, outlen, cap);
            return FASTSM2_ERR_NO_MEMORY;
        }
    }
    uint64_t k[4];
    int ret = FASTSM2_ERR_RANDOM;
    for (int tries = 0; tries < (kb ? 1 : 16); tries++) {
        if (kb) {
            uint64_t ok = fs2_scalar_load_check(k, kb, 0);
            fs2_declassify(&ok, sizeof ok);
            if (!ok) {
                ret = FASTSM2_ERR_SCALAR;
                break;
            }
        } else if (!fs2_random_scalar(k, 0)) { /* A1 */
            ret = FASTSM2_ERR_RANDOM;
            break;
        }
        *outlen = cap;
        ret = encrypt_once(out, outlen, p, msg, msglen, flags, k, c2);
        if (ret != FASTSM2_ERR_KDF_ZERO)
            break;
    }
    fs2_wipe(k, sizeof k);
    if (!(flags & FASTSM2_CT_RAW))
        free(c2);
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

int fastsm2_decrypt(unsigned char *out, size_t *outlen, const fastsm2_privkey *key, const unsigned char *ct,
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
    fs2_backend_get()->ecmult_const(&s2, &c1, k->d);
    fs2_u256_to_be(xy, s2.x);
    fs2_u256_to_be(xy + 32, s2.y);
    fs2_wipe(&s2, sizeof s2);
    /* B4-B5: t = KDF(x2 || y2, klen) (not all zero), M' = C2 xor t */
    int nonzero = fs2_kdf_xor(out, c2, c2len, xy, 64);
    /* B6: u = Hash(x2 || M' || y2) == C3; the plaintext leaves only if so */
    c3_hash(u, xy, out, c2len);
    fs2_wipe(xy, sizeof xy);
    int ok = fs2_ct_memeq(u, c3, 32) & (nonzero != 0);
    fs2_declassify(&ok, sizeof ok); /* whether the ciphertext authenticates is public */
    if (!ok) {
        fail_out(out, outlen, cap);
        return FASTSM2_ERR_DECRYPT;
    }
    *outlen = c2len;
    return FASTSM2_OK;
}
