/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SM4-CBC decryption with PKCS#7 unpadding (NIST SP 800-38A 6.2, RFC 5652
 * 6.3) of fuzzer-chosen ciphertexts under a fixed key. Properties:
 *  - the one-shot call agrees with a plain reference: the unpadded CBC
 *    decryption, then the padding read byte by byte (valid when its last
 *    byte p is 1..16 and the last p bytes all equal p);
 *  - refused (FASTSM2_ERR_PADDING, FASTSM2_ERR_LENGTH) means the output
 *    zeroed over its capacity and *outlen 0; accepted means encrypting
 *    the plaintext gives the ciphertext back;
 *  - the streaming CBC and ECB decryptions in fuzzer-chosen pieces, in
 *    place, agree with the one-shot ones (status and bytes).
 * Input: piece seed, IV (16 bytes), then the ciphertext.
 */
#include "fuzz_util.h"

#define MAXLEN 2048

static fastsm2_sm4_key key;

/* The stream in pieces from seed, each piece in place in a buffer of its
 * own; returns the status of the first failing call or of final. */
static int stream(int mode, unsigned char *out, size_t *outlen, const unsigned char *iv, const unsigned char *in,
                  size_t len, uint8_t seed)
{
    fastsm2_sm4_ctx c;
    unsigned char p[100 + 15];
    uint32_t x = seed * 2246822519u + 3;
    size_t o = 0, ol;
    int st = fastsm2_sm4_init(&c, mode, FASTSM2_SM4_DECRYPT, FASTSM2_SM4_PAD_PKCS7, &key,
                              mode == FASTSM2_SM4_ECB ? NULL : iv, mode == FASTSM2_SM4_ECB ? 0 : 16);
    FZ_CHECK(st == FASTSM2_OK);
    for (size_t at = 0; at < len;) {
        x = x * 1103515245u + 12345u;
        size_t n = (x >> 16) % 100;
        n = n > len - at ? len - at : n;
        memcpy(p, in + at, n);
        ol = n + 15;
        FZ_CHECK(fastsm2_sm4_update(&c, p, &ol, p, n) == FASTSM2_OK);
        memcpy(out + o, p, ol);
        o += ol;
        at += n;
    }
    ol = 16;
    st = fastsm2_sm4_final(&c, p, &ol);
    if (st == FASTSM2_OK)
        memcpy(out + o, p, ol);
    *outlen = st == FASTSM2_OK ? o + ol : 0;
    return st;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int ready;
    static unsigned char ct[MAXLEN], raw[MAXLEN], a[MAXLEN + 17], b[MAXLEN + 16];
    if (!ready) {
        unsigned char k[16];
        for (int i = 0; i < 16; i++)
            k[i] = (unsigned char)(0x30 + 7 * i);
        FZ_CHECK(fastsm2_sm4_key_init(&key, k) == FASTSM2_OK);
        ready = 1;
    }
    fz_in in = {data, size};
    uint8_t seed = fz_u8(&in);
    unsigned char iv[16];
    fz_bytes(&in, iv, 16);
    size_t len = in.n < MAXLEN ? in.n : MAXLEN;
    memcpy(ct, in.p, len);

    for (int mode = FASTSM2_SM4_ECB; mode <= FASTSM2_SM4_CBC; mode++) {
        /* the reference: no padding, then the padding read plainly */
        size_t want = 0;
        int want_st;
        if (len == 0 || len % 16 != 0) {
            want_st = FASTSM2_ERR_LENGTH;
        } else {
            size_t rl = sizeof raw;
            FZ_CHECK((mode == FASTSM2_SM4_CBC
                          ? fastsm2_sm4_cbc_decrypt(raw, &rl, &key, iv, FASTSM2_SM4_PAD_NONE, ct, len)
                          : fastsm2_sm4_ecb_decrypt(raw, &key, ct, len)) == FASTSM2_OK);
            unsigned p = raw[len - 1];
            int good = p >= 1 && p <= 16;
            for (unsigned i = 0; good && i < p; i++)
                good = raw[len - 1 - i] == p;
            want_st = good ? FASTSM2_OK : FASTSM2_ERR_PADDING;
            want = good ? len - p : 0;
        }
        if (mode == FASTSM2_SM4_CBC) { /* the one-shot call */
            size_t al = len + 16;
            memset(a, 0x5A, sizeof a);
            int st = fastsm2_sm4_cbc_decrypt(a, &al, &key, iv, FASTSM2_SM4_PAD_PKCS7, ct, len);
            FZ_CHECK(st == want_st && al == want);
            if (st == FASTSM2_OK) {
                FZ_CHECK(memcmp(a, raw, want) == 0);
                size_t bl = sizeof b;
                FZ_CHECK(fastsm2_sm4_cbc_encrypt(b, &bl, &key, iv, FASTSM2_SM4_PAD_PKCS7, a, al) == FASTSM2_OK);
                FZ_CHECK(bl == len && memcmp(b, ct, len) == 0);
            } else {
                FZ_CHECK(fz_all_zero(a, len + 16) && a[len + 16] == 0x5A);
            }
        }
        /* the stream: a partial block at the end is FASTSM2_ERR_LENGTH
         * there too, no block at all FASTSM2_ERR_PADDING */
        size_t sl;
        int st = stream(mode, b, &sl, iv, ct, len, seed);
        int want_stream = len == 0 ? FASTSM2_ERR_PADDING : want_st;
        FZ_CHECK(st == want_stream && sl == want);
        if (st == FASTSM2_OK)
            FZ_CHECK(memcmp(b, raw, want) == 0);
    }
    return 0;
}
