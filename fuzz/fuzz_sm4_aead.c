/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Opening SM4-GCM and SM4-CCM (NIST SP 800-38D, 38C) with fuzzer-chosen
 * ciphertexts, tags, IVs and AAD under a fixed key, and sealing the same
 * bytes. Properties:
 *  - GCM's one-shot decryption and the stream fed in fuzzer-chosen pieces
 *    agree on the status and, when it is FASTSM2_OK, on every byte;
 *  - a refused opening leaves the output zeroed; an accepted one is what
 *    sealing its plaintext gives back (ciphertext and tag);
 *  - sealing, then changing one fuzzer-chosen bit of the ciphertext, the
 *    tag, the AAD or the IV: refused (FASTSM2_ERR_TAG, output zeroed);
 *    unchanged, it opens to the plaintext, in place too;
 *  - a status other than OK and TAG only for lengths the header refuses.
 * Input: mode (bit 0: CCM), IV length, tag length, AAD length, piece
 * seed, bit to flip (2 bytes), then IV, AAD, tag and the rest as the
 * ciphertext.
 */
#include "fuzz_util.h"

#define MAXTEXT 4096

static fastsm2_sm4_key key;

/* GCM through the stream: AAD and text in pieces from seed. */
static int gcm_stream(int enc, unsigned char *out, const unsigned char *iv, size_t ivlen, const unsigned char *aad,
                      size_t aadlen, const unsigned char *in, size_t len, unsigned char *tag, size_t taglen,
                      uint8_t seed)
{
    fastsm2_sm4_gcm_ctx c;
    uint32_t x = seed * 2654435761u + 1;
    int st = fastsm2_sm4_gcm_init(&c, enc, &key, iv, ivlen);
    if (st != FASTSM2_OK)
        return st;
    for (size_t at = 0; at < aadlen;) {
        x = x * 1103515245u + 12345u;
        size_t n = (x >> 16) % 40;
        n = n > aadlen - at ? aadlen - at : n;
        FZ_CHECK(fastsm2_sm4_gcm_aad(&c, aad + at, n) == FASTSM2_OK);
        at += n;
    }
    memcpy(out, in, len); /* in place */
    for (size_t at = 0; at < len;) {
        x = x * 1103515245u + 12345u;
        size_t n = (x >> 16) % 70;
        n = n > len - at ? len - at : n;
        FZ_CHECK(fastsm2_sm4_gcm_update(&c, out + at, out + at, n) == FASTSM2_OK);
        at += n;
    }
    return enc ? fastsm2_sm4_gcm_encrypt_final(&c, tag, taglen) : fastsm2_sm4_gcm_decrypt_final(&c, tag, taglen);
}

static int seal(int ccm, unsigned char *out, unsigned char *tag, size_t taglen, const unsigned char *iv, size_t ivlen,
                const unsigned char *aad, size_t aadlen, const unsigned char *in, size_t len)
{
    return ccm ? fastsm2_sm4_ccm_encrypt(out, tag, taglen, &key, iv, ivlen, aad, aadlen, in, len)
               : fastsm2_sm4_gcm_encrypt(out, tag, taglen, &key, iv, ivlen, aad, aadlen, in, len);
}

static int open_(int ccm, unsigned char *out, const unsigned char *iv, size_t ivlen, const unsigned char *aad,
                 size_t aadlen, const unsigned char *in, size_t len, const unsigned char *tag, size_t taglen)
{
    return ccm ? fastsm2_sm4_ccm_decrypt(out, &key, iv, ivlen, aad, aadlen, in, len, tag, taglen)
               : fastsm2_sm4_gcm_decrypt(out, &key, iv, ivlen, aad, aadlen, in, len, tag, taglen);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int ready;
    static unsigned char iv[256], aad[256], tag[17], ct[MAXTEXT], a[MAXTEXT + 1], b[MAXTEXT + 1], t2[17];
    if (!ready) {
        unsigned char k[16];
        for (int i = 0; i < 16; i++)
            k[i] = (unsigned char)(0xA0 + i);
        FZ_CHECK(fastsm2_sm4_key_init(&key, k) == FASTSM2_OK);
        ready = 1;
    }
    fz_in in = {data, size};
    int ccm = fz_u8(&in) & 1;
    size_t ivlen = fz_u8(&in), taglen = fz_u8(&in) % 18, aadlen = fz_u8(&in);
    uint8_t seed = fz_u8(&in);
    uint16_t flip = fz_u16(&in);
    fz_bytes(&in, iv, ivlen);
    fz_bytes(&in, aad, aadlen);
    fz_bytes(&in, tag, taglen);
    size_t len = in.n < MAXTEXT ? in.n : MAXTEXT;
    memcpy(ct, in.p, len);

    int iv_ok = ccm ? ivlen >= 7 && ivlen <= 13 : ivlen >= 1;
    int tag_ok = ccm ? taglen >= 4 && taglen <= 16 && taglen % 2 == 0 : taglen >= 4 && taglen <= 16;
    int len_ok = !ccm || ivlen < 7 || ivlen > 13 || 15 - ivlen >= 8 || (len >> (8 * (15 - ivlen))) == 0;
    size_t tl = taglen;

    /* opening the fuzzer's bytes */
    memset(a, 0x5A, sizeof a);
    int st = open_(ccm, a, iv, ivlen, aad, aadlen, ct, len, tag, tl);
    if (!iv_ok)
        FZ_CHECK(st == FASTSM2_ERR_IV);
    else if (!tag_ok || !len_ok)
        FZ_CHECK(st == FASTSM2_ERR_LENGTH);
    else
        FZ_CHECK(st == FASTSM2_OK || st == FASTSM2_ERR_TAG);
    if (st != FASTSM2_OK)
        FZ_CHECK(fz_all_zero(a, len) && a[len] == 0x5A);
    if (!ccm && iv_ok && tag_ok) {
        int st2 = gcm_stream(FASTSM2_SM4_DECRYPT, b, iv, ivlen, aad, aadlen, ct, len, tag, tl, seed);
        FZ_CHECK(st2 == st);
        if (st == FASTSM2_OK)
            FZ_CHECK(memcmp(a, b, len) == 0);
    }
    if (st == FASTSM2_OK) { /* then sealing the plaintext gives these bytes back */
        FZ_CHECK(seal(ccm, b, t2, tl, iv, ivlen, aad, aadlen, a, len) == FASTSM2_OK);
        FZ_CHECK(memcmp(b, ct, len) == 0 && memcmp(t2, tag, tl) == 0);
    }
    if (!(iv_ok && tag_ok && len_ok))
        return 0;

    /* sealing the same bytes as a plaintext, then tampering */
    FZ_CHECK(seal(ccm, a, t2, tl, iv, ivlen, aad, aadlen, ct, len) == FASTSM2_OK);
    if (!ccm) {
        unsigned char t3[17];
        FZ_CHECK(gcm_stream(FASTSM2_SM4_ENCRYPT, b, iv, ivlen, aad, aadlen, ct, len, t3, tl, seed) == FASTSM2_OK);
        FZ_CHECK(memcmp(a, b, len) == 0 && memcmp(t2, t3, tl) == 0);
    }
    unsigned char *where[4] = {a, t2, aad, iv};
    size_t lens[4] = {len, tl, aadlen, ivlen};
    int w = flip & 3;
    size_t bit = (size_t)(flip >> 2);
    if (lens[w] != 0) {
        bit %= 8 * lens[w];
        where[w][bit / 8] ^= (unsigned char)(1u << (bit % 8));
        memset(b, 0x5A, sizeof b);
        FZ_CHECK(open_(ccm, b, iv, ivlen, aad, aadlen, a, len, t2, tl) == FASTSM2_ERR_TAG);
        FZ_CHECK(fz_all_zero(b, len) && b[len] == 0x5A);
        where[w][bit / 8] ^= (unsigned char)(1u << (bit % 8));
    }
    FZ_CHECK(open_(ccm, a, iv, ivlen, aad, aadlen, a, len, t2, tl) == FASTSM2_OK); /* in place */
    FZ_CHECK(memcmp(a, ct, len) == 0);
    return 0;
}
