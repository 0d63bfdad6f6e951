/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Password-encrypted private key files (fastsm2_privkey_parse_encrypted_limit
 * and fastsm2_privkey_parse_cb: PKCS#8 EncryptedPrivateKeyInfo with PBES2,
 * PEM or DER), read with the password FZ_PASSWORD and a low iteration limit
 * fixed at build time (FZ_MAX_ITER), so that every input costs at most a
 * few hundred HMAC blocks: a count above it is FASTSM2_ERR_ITERATIONS with
 * the count reported, before any password is asked. Both readers agree. A
 * key that decrypts is encrypted again in each scheme (few iterations), in
 * DER and PEM, and parses again to the same d. A refused input gives a
 * negative status and an object no call accepts. The seeds (fuzz/corpus/
 * privkey_enc) are encrypted with FZ_PASSWORD.
 */
#include "fuzz_util.h"

#ifndef FZ_MAX_ITER
#define FZ_MAX_ITER 64
#endif
#define FZ_PASSWORD "fuzz-pw"

typedef struct {
    int calls;
} fz_ask;

static int give_password(void *buf, size_t cap, size_t *len, void *arg)
{
    fz_ask *a = arg;
    a->calls++;
    FZ_CHECK(cap >= sizeof FZ_PASSWORD - 1);
    memcpy(buf, FZ_PASSWORD, sizeof FZ_PASSWORD - 1);
    *len = sizeof FZ_PASSWORD - 1;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fastsm2_privkey key, again;
    unsigned char d[32], d2[32], buf[FASTSM2_PRIVKEY_ENCRYPTED_MAX];
    uint32_t iter = 12345, iter2 = 54321;
    int st = fastsm2_privkey_parse_encrypted_limit(&key, data, size, FZ_PASSWORD, sizeof FZ_PASSWORD - 1, FZ_MAX_ITER,
                                                   &iter);
    fz_ask ask = {0};
    int st2 = fastsm2_privkey_parse_cb(&again, data, size, give_password, &ask, FZ_MAX_ITER, &iter2);
    FZ_CHECK(st == st2 && iter == iter2);
    FZ_CHECK(ask.calls <= 1);
    if (st == FASTSM2_ERR_ITERATIONS) {
        FZ_CHECK(iter > FZ_MAX_ITER && ask.calls == 0);
    }
    if (iter != 0) {
        FZ_CHECK(iter <= FZ_MAX_ITER || st == FASTSM2_ERR_ITERATIONS);
    }
    if (st != FASTSM2_OK) {
        FZ_CHECK(st < 0);
        FZ_CHECK(fastsm2_privkey_to_bytes(d, &key) == FASTSM2_ERR_ARG);
        FZ_CHECK(fastsm2_privkey_to_bytes(d, &again) == FASTSM2_ERR_ARG);
        return 0;
    }
    FZ_CHECK(fastsm2_privkey_to_bytes(d, &key) == FASTSM2_OK);
    FZ_CHECK(fastsm2_privkey_to_bytes(d2, &again) == FASTSM2_OK);
    FZ_CHECK(memcmp(d, d2, 32) == 0);
    fastsm2_privkey_clear(&again);
    /* a plain key file reads the same with a password or without */
    if (iter == 0) {
        FZ_CHECK(ask.calls == 0);
        FZ_CHECK(fastsm2_privkey_parse(&again, data, size) == FASTSM2_OK);
        fastsm2_privkey_clear(&again);
        fastsm2_privkey_clear(&key);
        return 0;
    }
    FZ_CHECK(ask.calls == 1);
    FZ_CHECK(fastsm2_privkey_parse(&again, data, size) == FASTSM2_ERR_ENCRYPTED_KEY);
    /* encrypted again, each scheme, DER and PEM: the same d */
    static const int schemes[] = {FASTSM2_PBE_SM3_SM4, FASTSM2_PBE_SHA256_SM4, FASTSM2_PBE_SHA256_AES256};
    for (int s = 0; s < 3; s++)
        for (int pem = 0; pem < 2; pem++) {
            size_t len = sizeof buf;
            uint32_t n = 1 + (uint32_t)(size % 4);
            FZ_CHECK(fastsm2_privkey_serialize_encrypted(buf, &len, &key, pem ? FASTSM2_KEYFMT_PEM : FASTSM2_KEYFMT_DER,
                                                         schemes[s], n, "re", 2) == FASTSM2_OK);
            FZ_CHECK(fastsm2_privkey_parse_encrypted_limit(&again, buf, len, "re", 2, FZ_MAX_ITER, &iter) ==
                     FASTSM2_OK);
            FZ_CHECK(iter == n);
            FZ_CHECK(fastsm2_privkey_to_bytes(d2, &again) == FASTSM2_OK);
            FZ_CHECK(memcmp(d, d2, 32) == 0);
            FZ_CHECK(fastsm2_privkey_parse_encrypted_limit(&again, buf, len, "re", 2, n - 1 ? n - 1 : 0, &iter) ==
                     (n > 1 ? FASTSM2_ERR_ITERATIONS : FASTSM2_OK));
            fastsm2_privkey_clear(&again);
        }
    fastsm2_privkey_clear(&key);
    return 0;
}
