/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The signing inverse (1 + d)^-1 * 2^256 mod n that a private key holds
 * (src/protocol/keys.c, priv_init): made with the key, never written after.
 *  - a key generated, loaded from bytes or parsed from a file holds it at
 *    once, and it equals OpenSSL's BN_mod_inverse times 2^256 mod n;
 *  - signing, decryption and export leave the key's bytes unchanged;
 *  - signatures through each path (one signature, sign_with_nonce, the
 *    batch API on two threads) verify, and a signature with a fixed nonce
 *    is the same on a key and on its reloaded twin.
 */
#include <openssl/bn.h>
#include <string.h>

#include "protocol/protocol.h"
#include "testutil.h"

static const char *N_HEX = "FFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFF7203DF6B21C6052B53BBF40939D54123";

/* (1 + d)^-1 * 2^256 mod n, big-endian, by OpenSSL's BIGNUM. */
static void want_dinv(unsigned char out[32], const fastsm2_privkey *key)
{
    unsigned char db[32];
    BIGNUM *n = NULL, *d, *r256;
    BN_CTX *ctx = BN_CTX_new();
    BN_hex2bn(&n, N_HEX);
    CHECK(fastsm2_privkey_to_bytes(db, key) == FASTSM2_OK);
    d = BN_bin2bn(db, 32, NULL);
    r256 = BN_new();
    BN_add_word(d, 1);
    BN_mod_inverse(d, d, n, ctx);
    BN_set_bit(r256, 256);
    BN_mod_mul(d, d, r256, n, ctx);
    BN_bn2binpad(d, out, 32);
    BN_free(n), BN_free(d), BN_free(r256);
    BN_CTX_free(ctx);
}

static int cached_ok(const fastsm2_privkey *key)
{
    unsigned char got[32], want[32];
    fs2_u256_to_be(got, fs2_priv_get(key)->dinv_m.v);
    want_dinv(want, key);
    return memcmp(got, want, 32) == 0;
}

int main(void)
{
    for (int iter = 0; iter < 20; iter++) {
        fastsm2_privkey key, key2;
        fastsm2_pubkey pub;
        unsigned char e[32], k[32], sig1[64], sig2[64], pt[32], ct[256], out[64], db[32];
        size_t ctlen = sizeof ct, outlen = sizeof out;
        fs2t_rand_bytes(e, sizeof e);
        fs2t_rand_bytes(pt, sizeof pt);
        memset(k, 0, sizeof k);
        fs2t_rand_bytes(k + 1, 31); /* < n */
        k[31] |= 1;

        CHECK_STATUS(fastsm2_privkey_generate(&key), FASTSM2_OK);
        CHECK(cached_ok(&key));
        fastsm2_privkey before = key;
        CHECK_STATUS(fastsm2_privkey_pubkey(&pub, &key), FASTSM2_OK);
        CHECK_STATUS(fastsm2_encrypt(ct, &ctlen, &pub, pt, sizeof pt, 0), FASTSM2_OK);
        CHECK_STATUS(fastsm2_decrypt(out, &outlen, &key, ct, ctlen, 0), FASTSM2_OK);
        CHECK(outlen == sizeof pt && memcmp(out, pt, sizeof pt) == 0);
        CHECK_STATUS(fastsm2_privkey_to_bytes(db, &key), FASTSM2_OK);

        /* the same key loaded again, from bytes and from a file: the same
         * inverse, and the same signature for the same nonce */
        CHECK_STATUS(fastsm2_privkey_from_bytes(&key2, db), FASTSM2_OK);
        CHECK(cached_ok(&key2));
        unsigned char file[256];
        size_t flen = sizeof file;
        fastsm2_privkey key3;
        CHECK_STATUS(fastsm2_privkey_serialize(file, &flen, &key, FASTSM2_KEYFMT_PKCS8 | FASTSM2_KEYFMT_DER),
                     FASTSM2_OK);
        CHECK_STATUS(fastsm2_privkey_parse(&key3, file, flen), FASTSM2_OK);
        CHECK(cached_ok(&key3));
        CHECK_STATUS(fastsm2_sign_digest_with_nonce(sig1, &key2, e, k), FASTSM2_OK);
        CHECK_STATUS(fastsm2_sign_digest_with_nonce(sig2, &key, e, k), FASTSM2_OK);
        CHECK(memcmp(sig1, sig2, 64) == 0);
        CHECK(fastsm2_verify_digest(&pub, e, sig1) == 1);

        /* a random-nonce signature */
        CHECK_STATUS(fastsm2_sign_digest(sig1, &key, e), FASTSM2_OK);
        CHECK(fastsm2_verify_digest(&pub, e, sig1) == 1);
        /* the batch API, two threads */
        enum { NB = 24 };
        unsigned char digests[32 * NB], sigs[64 * NB];
        fs2t_rand_bytes(digests, sizeof digests);
        CHECK_STATUS(fastsm2_sign_digest_batch(sigs, &key2, 1, digests, NB, 2), FASTSM2_OK);
        int all = 1;
        for (int i = 0; i < NB; i++)
            all &= fastsm2_verify_digest(&pub, digests + 32 * i, sigs + 64 * i) == 1;
        CHECK(all);
        /* none of it wrote to the key */
        CHECK(memcmp(&before, &key, sizeof key) == 0);
        fastsm2_privkey_clear(&before);
        fastsm2_privkey_clear(&key3);
        fastsm2_privkey_clear(&key);
        fastsm2_privkey_clear(&key2);
    }
    return fs2t_finish("test_sign_inverse");
}
