/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Ciphertexts (GB/T 32918.4 clause 7.1; DER and raw, C1C3C2 and C1C2C3):
 * the one-shot decryption and the streaming decryption
 * fed in pieces of fuzzer-chosen sizes give the same verdict and, when it
 * is FASTSM2_OK, the same plaintext; a refused ciphertext releases no
 * byte. Input: one byte of flags, one byte seeding the piece sizes, then
 * the ciphertext for the fixed key A (fuzz_util.h).
 */
#include "fuzz_util.h"

static fastsm2_privkey key;

/* The streaming decryption, in pieces whose sizes come from seed. */
static int stream_decrypt(unsigned char *out, size_t *outlen, const uint8_t *ct, size_t ctlen, int flags, uint8_t seed)
{
    fastsm2_decrypt_stream s;
    uint64_t c2off, c2len, c3off;
    size_t prelen = ctlen < FASTSM2_CT_PREFIX_MAX ? ctlen : FASTSM2_CT_PREFIX_MAX;
    int st = fastsm2_decrypt_stream_init(&s, &c2off, &c2len, &c3off, &key, ct, prelen, ctlen, flags);
    if (st != FASTSM2_OK)
        return st;
    FZ_CHECK(c2off + c2len <= ctlen && c3off + 32 <= ctlen && c2len >= 1);
    FZ_CHECK(c3off + 32 <= c2off || c3off >= c2off + c2len); /* C3 and C2 apart */
    uint32_t x = seed * 2654435761u + 1;
    for (uint64_t at = 0; at < c2len;) {
        x = x * 1103515245u + 12345u;
        size_t n = 1 + (x >> 16) % 97;
        if ((x >> 8 & 7) == 0)
            n = 1 + (x >> 12) % 5000; /* now and then a long piece */
        if (n > c2len - at)
            n = (size_t)(c2len - at);
        FZ_CHECK(fastsm2_decrypt_stream_update(&s, out + at, ct + c2off + at, n) == FASTSM2_OK);
        at += n;
    }
    /* one byte more than C2 is refused */
    unsigned char extra = 0;
    FZ_CHECK(fastsm2_decrypt_stream_update(&s, &extra, &extra, 1) == FASTSM2_ERR_LENGTH);
    *outlen = (size_t)c2len;
    return fastsm2_decrypt_stream_final(&s, ct + c3off);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int ready;
    if (!ready) {
        fz_key(&key, NULL, 0);
        ready = 1;
    }
    fz_in in = {data, size};
    int flags = fz_ct_flags(fz_u8(&in));
    uint8_t seed = fz_u8(&in);
    const uint8_t *ct = in.p;
    size_t ctlen = in.n;

    size_t cap = ctlen + 1;
    unsigned char *one = malloc(cap), *str = malloc(cap);
    FZ_CHECK(one && str);
    size_t onelen = cap, strlen_ = 0;
    int st1 = fastsm2_decrypt(one, &onelen, &key, ct, ctlen, flags);
    int st3 = stream_decrypt(str, &strlen_, ct, ctlen, flags, seed);
    if (st1 == FASTSM2_OK) {
        FZ_CHECK(st3 == FASTSM2_OK);
        FZ_CHECK(onelen == strlen_);
        FZ_CHECK(memcmp(one, str, onelen) == 0);
        FZ_CHECK(onelen >= 1 && onelen + 97 <= ctlen);
    } else {
        FZ_CHECK(st1 < 0);
        FZ_CHECK(onelen == 0 && fz_all_zero(one, cap));
        /* the stream may fail later than the one-shot call (it finds a
         * bad C3 only at final), never pass where it fails */
        FZ_CHECK(st3 != FASTSM2_OK);
        if (st3 != FASTSM2_ERR_DECRYPT)
            FZ_CHECK(st3 == st1);
    }
    free(one);
    free(str);
    return 0;
}
