/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The streaming encryptor (GB/T 32918.4 clause 6.1): with the same nonce,
 * fastsm2_encrypt_stream_* fed in fuzzer-chosen pieces writes exactly the
 * bytes of the one-shot fastsm2_encrypt_with_nonce (whose decryption
 * recovers the message), in every layout; a piece past msglen
 * and a final before it are refused. Input: flags, piece seed, k (32
 * bytes), then the message, for the fixed key A.
 */
#include "fuzz_util.h"
#include "internal.h"
#include "protocol/protocol.h"

static fastsm2_privkey key;
static fastsm2_pubkey pub;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int ready;
    if (!ready) {
        fz_key(&key, &pub, 0);
        ready = 1;
    }
    fz_in in = {data, size};
    int flags = fz_ct_flags(fz_u8(&in));
    uint8_t seed = fz_u8(&in);
    unsigned char k[32];
    fz_bytes(&in, k, 32);
    const uint8_t *msg = in.p;
    size_t msglen = in.n;

    size_t cap = fastsm2_ciphertext_size(msglen, flags);
    unsigned char *one = malloc(cap + 1), *str = malloc(cap + FASTSM2_CT_PREFIX_MAX), *pt = malloc(msglen + 1);
    FZ_CHECK(one && str && pt);
    size_t onelen = cap;
    int st1 = fastsm2_encrypt_with_nonce(one, &onelen, &pub, msg, msglen, flags, k);

    fastsm2_encrypt_stream s;
    size_t prelen = FASTSM2_CT_PREFIX_MAX;
    uint64_t c3off;
    int st2 = fs2_encrypt_stream_init_nonce(&s, str, &prelen, &c3off, &pub, msglen, flags, k);
    if (st2 == FASTSM2_OK) {
        FZ_CHECK(prelen <= FASTSM2_CT_PREFIX_MAX && prelen + msglen <= cap);
        unsigned char c3[32];
        FZ_CHECK(fastsm2_encrypt_stream_final(&s, c3) == FASTSM2_ERR_LENGTH); /* msglen >= 1 */
        /* final before the end wipes s; start again */
        prelen = FASTSM2_CT_PREFIX_MAX;
        FZ_CHECK(fs2_encrypt_stream_init_nonce(&s, str, &prelen, &c3off, &pub, msglen, flags, k) == FASTSM2_OK);
        uint32_t x = seed * 2246822519u + 7;
        for (size_t at = 0; at < msglen;) {
            x = x * 1103515245u + 12345u;
            size_t n = (x >> 16) % 70; /* 0-byte pieces too */
            if (n > msglen - at)
                n = msglen - at;
            FZ_CHECK(fastsm2_encrypt_stream_update(&s, str + prelen + at, msg + at, n) == FASTSM2_OK);
            at += n;
        }
        unsigned char extra = 0;
        FZ_CHECK(fastsm2_encrypt_stream_update(&s, &extra, &extra, 1) == FASTSM2_ERR_LENGTH);
        st2 = fastsm2_encrypt_stream_final(&s, c3);
        if (st2 == FASTSM2_OK) {
            FZ_CHECK(c3off + 32 <= cap);
            memcpy(str + c3off, c3, 32);
        }
    }
    FZ_CHECK(st1 == st2);
    if (st1 == FASTSM2_OK) {
        size_t strlen_ = prelen + msglen + (c3off >= prelen ? 32 : 0);
        FZ_CHECK(strlen_ == onelen && memcmp(one, str, onelen) == 0);
        size_t ptlen = msglen + 1;
        FZ_CHECK(fastsm2_decrypt(pt, &ptlen, &key, one, onelen, flags) == FASTSM2_OK);
        FZ_CHECK(ptlen == msglen && memcmp(pt, msg, msglen) == 0);
    } else {
        FZ_CHECK(st1 == FASTSM2_ERR_LENGTH || st1 == FASTSM2_ERR_SCALAR || st1 == FASTSM2_ERR_KDF_ZERO ||
                 st1 == FASTSM2_ERR_ARG);
    }
    free(one);
    free(str);
    free(pt);
    return 0;
}
