/* SPDX-License-Identifier: Apache-2.0 */
/* The shared inputs of fastsm2-speed: one SM2 key pair in both libraries. */
#include <stdio.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/rand.h>

#include "bench.h"
#include "bench_env.h"

static int env_fail(const char *what)
{
    fprintf(stderr, "fastsm2-speed: set-up failed: %s\n", what);
    return 0;
}

int bench_env_init(bench_env *env)
{
    unsigned char d[32], pub[65], mine[65], z[32];
    size_t publen = 0, minelen = sizeof(mine);
    BIGNUM *bn = NULL;
    fastsm2_sm3_ctx h;
    int ok;

    memset(env, 0, sizeof(*env));
    env->sm3 = EVP_MD_fetch(NULL, "SM3", NULL);
    if (!env->sm3)
        return env_fail("OpenSSL has no SM3 (EVP_MD_fetch)");
    if (RAND_bytes(env->msg, sizeof(env->msg)) != 1 || RAND_bytes(env->data, sizeof(env->data)) != 1)
        return env_fail("RAND_bytes");

    /* The SM2 key pair: made by OpenSSL, loaded into fastsm2 from d, and the
     * two public keys compared. */
    env->sm2 = EVP_PKEY_Q_keygen(NULL, NULL, "SM2");
    if (!env->sm2)
        return env_fail("OpenSSL cannot generate an SM2 key");
    if (!EVP_PKEY_get_bn_param(env->sm2, OSSL_PKEY_PARAM_PRIV_KEY, &bn) || BN_bn2binpad(bn, d, 32) != 32 ||
        !EVP_PKEY_get_octet_string_param(env->sm2, OSSL_PKEY_PARAM_PUB_KEY, pub, sizeof(pub), &publen) ||
        publen != 65) {
        BN_clear_free(bn);
        return env_fail("cannot read OpenSSL's SM2 key");
    }
    BN_clear_free(bn);
    ok = fastsm2_privkey_from_bytes(&env->key, d) == FASTSM2_OK;
    memset(d, 0, sizeof(d));
    if (!ok)
        return env_fail("fastsm2_privkey_from_bytes rejects OpenSSL's d");
    if (fastsm2_privkey_pubkey(&env->pub, &env->key) != FASTSM2_OK ||
        fastsm2_pubkey_to_bytes(mine, &minelen, &env->pub, 0) != FASTSM2_OK || minelen != 65 ||
        memcmp(mine, pub, 65) != 0)
        return env_fail("fastsm2's P = dG differs from OpenSSL's public key");

    /* The verify and encrypt rows measure a key in steady use: its tables
     * made, as an application that keeps a key makes them. */
    if (fastsm2_pubkey_precompute(&env->pub) != FASTSM2_OK)
        return env_fail("fastsm2_pubkey_precompute");

    /* e = SM3(Z_A || msg) for the default ID (GB/T 32918.2 6.1 A1-A2). */
    if (fastsm2_compute_z(z, &env->pub, NULL, 0) != FASTSM2_OK)
        return env_fail("fastsm2_compute_z");
    fastsm2_sm3_init(&h);
    fastsm2_sm3_update(&h, z, sizeof(z));
    fastsm2_sm3_update(&h, env->msg, sizeof(env->msg));
    fastsm2_sm3_final(env->e, &h);

    env->p256 = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
    if (!env->p256)
        return env_fail("OpenSSL cannot generate a P-256 key");
    return 1;
}

void bench_env_free(bench_env *env)
{
    EVP_PKEY_free(env->sm2);
    EVP_PKEY_free(env->p256);
    EVP_MD_free(env->sm3);
    fastsm2_privkey_clear(&env->key);
    memset(env, 0, sizeof(*env));
}
