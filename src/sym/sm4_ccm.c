/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SM4-CCM, NIST SP 800-38C (RFC 3610's formatting) with GB/T 32907 as the
 * block cipher (include/fastsm2.h): CBC-MAC over B0, the encoded AAD and
 * the plaintext, and counter mode from A1; the tag is the MAC XOR E(A0).
 * One-shot only: B0 carries the plaintext's length.
 */
#include "sm4_modes.h"
#include "sym.h"

/* Blocks per CBC-MAC call over the AAD and the payload. */
#define CCM_CHUNK 32

/* The MAC over len bytes (after any already in it), zero-padded to a
 * whole block; hdr (hlen < 16 bytes) comes first. */
static void mac_bytes(const fs2_sm4_ops *t, const uint32_t rk[32], unsigned char mac[16], const unsigned char *hdr,
                      size_t hlen, const unsigned char *p, size_t len)
{
    unsigned char b[16];
    if (hlen != 0) {
        size_t m = 16 - hlen < len ? 16 - hlen : len;
        memset(b, 0, 16);
        memcpy(b, hdr, hlen);
        if (m != 0)
            memcpy(b + hlen, p, m);
        t->cbc_mac(rk, mac, b, 1);
        p += m;
        len -= m;
    }
    t->cbc_mac(rk, mac, p, len / 16);
    if (len % 16 != 0) {
        memset(b, 0, 16);
        memcpy(b, p + len / 16 * 16, len % 16);
        t->cbc_mac(rk, mac, b, 1);
    }
    fs2_wipe(b, sizeof b);
}

/* SP 800-38C A.2: B0, the MAC over B0 and the AAD into mac, and A0 (the
 * counter block of the tag) into a0. */
static void ccm_start(const fs2_sm4_ops *t, const fs2_sm4_key *k, unsigned char mac[16], unsigned char a0[16],
                      const unsigned char *nonce, size_t noncelen, const unsigned char *aad, size_t aadlen,
                      size_t inlen, size_t taglen)
{
    size_t L = 15 - noncelen;
    unsigned char b0[16], hdr[10];
    size_t hlen = 0;
    b0[0] = (unsigned char)((aadlen != 0 ? 0x40 : 0) | (((taglen - 2) / 2) << 3) | (L - 1));
    memcpy(b0 + 1, nonce, noncelen);
    uint64_t q = inlen;
    for (size_t i = 0; i < L; i++, q >>= 8)
        b0[15 - i] = (unsigned char)q;
    memset(mac, 0, 16);
    t->cbc_mac(k->rk, mac, b0, 1);
    if (aadlen != 0) {
        /* the AAD's length: 2 bytes below 2^16 - 2^8, else 0xFFFE and 4
         * bytes below 2^32, else 0xFFFF and 8 bytes */
        uint64_t a = aadlen;
        if (a < 0xFF00) {
            hlen = 2;
        } else if (a <= 0xFFFFFFFFu) {
            hdr[0] = 0xFF, hdr[1] = 0xFE, hlen = 6;
        } else {
            hdr[0] = 0xFF, hdr[1] = 0xFF, hlen = 10;
        }
        for (size_t i = 0; i < (hlen == 2 ? 2 : hlen - 2); i++)
            hdr[hlen - 1 - i] = (unsigned char)(a >> (8 * i));
        mac_bytes(t, k->rk, mac, hdr, hlen, aad, aadlen);
    }
    memset(a0, 0, 16);
    a0[0] = (unsigned char)(L - 1);
    memcpy(a0 + 1, nonce, noncelen);
}

/* The checks of both calls; FASTSM2_OK or the status. */
static int ccm_check(const fs2_sm4_key *k, const unsigned char *tag, const unsigned char *nonce, size_t noncelen,
                     const unsigned char *aad, size_t aadlen, const unsigned char *in, size_t inlen, size_t taglen)
{
    if (k == NULL || tag == NULL || nonce == NULL || (aad == NULL && aadlen != 0) || (in == NULL && inlen != 0))
        return FASTSM2_ERR_ARG;
    if (noncelen < 7 || noncelen > 13)
        return FASTSM2_ERR_IV;
    if (taglen < 4 || taglen > 16 || taglen % 2 != 0)
        return FASTSM2_ERR_LENGTH;
    size_t L = 15 - noncelen;
    if (L < 8 && (uint64_t)inlen >> (8 * L) != 0)
        return FASTSM2_ERR_LENGTH;
    return FASTSM2_OK;
}

/* The payload's counter mode from A1 (the counter field, L bytes, never
 * overflows: the length check bounds it). */
static void ccm_ctr(const fs2_sm4_ops *t, const fs2_sm4_key *k, const unsigned char a0[16], unsigned char *out,
                    const unsigned char *in, size_t len)
{
    unsigned char ctr[16], ks[16];
    size_t n = len / 16, r = len % 16;
    memcpy(ctr, a0, 16);
    fs2_sm4_ctr_add(ctr, 1, 1);
    fs2_sm4_ctr_blocks(t, k->rk, out, in, n, ctr, 1);
    if (r != 0) {
        fs2_sm4_ctr_block(t, k->rk, ks, ctr, 1);
        for (size_t i = 0; i < r; i++)
            out[16 * n + i] = in[16 * n + i] ^ ks[i];
        fs2_wipe(ks, sizeof ks);
    }
}

/* The full tag: mac XOR E(A0). */
static void ccm_tag(const fs2_sm4_ops *t, const fs2_sm4_key *k, unsigned char tag[16], const unsigned char mac[16],
                    const unsigned char a0[16])
{
    memset(tag, 0, 16);
    t->ctr32(k->rk, tag, mac, 1, a0);
}

int fastsm2_sm4_ccm_encrypt(unsigned char *out, unsigned char *tag, size_t taglen, const fastsm2_sm4_key *key,
                            const unsigned char *nonce, size_t noncelen, const unsigned char *aad, size_t aadlen,
                            const unsigned char *in, size_t inlen)
{
    const fs2_sm4_key *k = fs2_sm4_key_get(key);
    if (out == NULL && inlen != 0) {
        fs2_sm4_zero(tag, taglen <= 16 ? taglen : 16);
        return FASTSM2_ERR_ARG;
    }
    int st = ccm_check(k, tag, nonce, noncelen, aad, aadlen, in, inlen, taglen);
    if (st != FASTSM2_OK) {
        fs2_sm4_zero(out, inlen);
        fs2_sm4_zero(tag, taglen <= 16 ? taglen : 16);
        return st;
    }
    const fs2_sm4_ops *t = fs2_sm4();
    unsigned char mac[16], a0[16], full[16];
    ccm_start(t, k, mac, a0, nonce, noncelen, aad, aadlen, inlen, taglen);
    mac_bytes(t, k->rk, mac, NULL, 0, in, inlen); /* before an in-place encryption */
    ccm_ctr(t, k, a0, out, in, inlen);
    ccm_tag(t, k, full, mac, a0);
    memcpy(tag, full, taglen);
    fs2_wipe(mac, sizeof mac);
    fs2_wipe(full, sizeof full);
    return FASTSM2_OK;
}

int fastsm2_sm4_ccm_decrypt(unsigned char *out, const fastsm2_sm4_key *key, const unsigned char *nonce, size_t noncelen,
                            const unsigned char *aad, size_t aadlen, const unsigned char *in, size_t inlen,
                            const unsigned char *tag, size_t taglen)
{
    const fs2_sm4_key *k = fs2_sm4_key_get(key);
    if (out == NULL && inlen != 0)
        return FASTSM2_ERR_ARG;
    int st = ccm_check(k, tag, nonce, noncelen, aad, aadlen, in, inlen, taglen);
    if (st != FASTSM2_OK) {
        fs2_sm4_zero(out, inlen);
        return st;
    }
    const fs2_sm4_ops *t = fs2_sm4();
    unsigned char mac[16], a0[16], full[16];
    ccm_start(t, k, mac, a0, nonce, noncelen, aad, aadlen, inlen, taglen);
    ccm_ctr(t, k, a0, out, in, inlen);
    mac_bytes(t, k->rk, mac, NULL, 0, out, inlen);
    ccm_tag(t, k, full, mac, a0);
    int eq = fs2_ct_memeq(full, tag, taglen);
    /* Public by design: whether the tag matches (the status). */
    fs2_declassify(&eq, sizeof eq);
    fs2_wipe(mac, sizeof mac);
    fs2_wipe(full, sizeof full);
    if (!eq) {
        fs2_sm4_zero(out, inlen); /* no unauthenticated plaintext leaves */
        return FASTSM2_ERR_TAG;
    }
    return FASTSM2_OK;
}
