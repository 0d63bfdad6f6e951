/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Private key files (fastsm2_privkey_parse: PKCS#8 or SEC1, PEM or DER): a
 * key that parses re-encodes in all four formats, each of which parses
 * again to the same d and public key; it signs a digest that its public
 * key verifies, and its public key file loads as the same point. A refused
 * input gives a negative status and an object no call accepts.
 */
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fastsm2_privkey key, again;
    fastsm2_pubkey pub, pub2;
    unsigned char d[32], d2[32], buf[1024], e[32], sig[64];
    int st = fastsm2_privkey_parse(&key, data, size);
    if (st != FASTSM2_OK) {
        FZ_CHECK(st < 0);
        FZ_CHECK(fastsm2_privkey_to_bytes(d, &key) == FASTSM2_ERR_ARG);
        FZ_CHECK(fastsm2_sign_digest(sig, &key, d) == FASTSM2_ERR_ARG);
        return 0;
    }
    FZ_CHECK(fastsm2_privkey_to_bytes(d, &key) == FASTSM2_OK);
    FZ_CHECK(fastsm2_privkey_pubkey(&pub, &key) == FASTSM2_OK);
    static const int fmts[] = {FASTSM2_KEYFMT_PKCS8 | FASTSM2_KEYFMT_DER, FASTSM2_KEYFMT_PKCS8 | FASTSM2_KEYFMT_PEM,
                               FASTSM2_KEYFMT_SEC1 | FASTSM2_KEYFMT_DER, FASTSM2_KEYFMT_SEC1 | FASTSM2_KEYFMT_PEM};
    for (int i = 0; i < 4; i++) {
        size_t len = sizeof buf;
        FZ_CHECK(fastsm2_privkey_serialize(buf, &len, &key, fmts[i]) == FASTSM2_OK);
        FZ_CHECK(fastsm2_privkey_parse(&again, buf, len) == FASTSM2_OK);
        FZ_CHECK(fastsm2_privkey_to_bytes(d2, &again) == FASTSM2_OK);
        FZ_CHECK(memcmp(d, d2, 32) == 0);
        fastsm2_privkey_clear(&again);
    }
    size_t len = sizeof buf;
    FZ_CHECK(fastsm2_pubkey_serialize(buf, &len, &pub, FASTSM2_KEYFMT_DER) == FASTSM2_OK);
    FZ_CHECK(fastsm2_pubkey_parse(&pub2, buf, len) == FASTSM2_OK);
    unsigned char p1[65], p2[65];
    size_t l1 = sizeof p1, l2 = sizeof p2;
    FZ_CHECK(fastsm2_pubkey_to_bytes(p1, &l1, &pub, 0) == FASTSM2_OK);
    FZ_CHECK(fastsm2_pubkey_to_bytes(p2, &l2, &pub2, 0) == FASTSM2_OK);
    FZ_CHECK(memcmp(p1, p2, 65) == 0);
    /* it signs, and its public key verifies; a message signature too */
    fastsm2_sm3(e, data, size);
    FZ_CHECK(fastsm2_sign_digest(sig, &key, e) == FASTSM2_OK);
    FZ_CHECK(fastsm2_verify_digest(&pub, e, sig) == 1);
    FZ_CHECK(fastsm2_sign(sig, &key, NULL, 0, data, size) == FASTSM2_OK);
    FZ_CHECK(fastsm2_verify(&pub2, NULL, 0, data, size, sig) == 1);
    sig[size % 64] ^= 1;
    FZ_CHECK(fastsm2_verify(&pub2, NULL, 0, data, size, sig) == 0);
    fastsm2_privkey_clear(&key);
    return 0;
}
