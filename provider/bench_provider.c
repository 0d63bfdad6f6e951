/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What EVP costs on top of the library: SM2 signing and verification as
 * `openssl speed sm2` runs them through fastsm2prov (EVP_DigestSignInit and
 * EVP_DigestSign on 20 bytes, an ID set, every iteration), beside the
 * library's fastsm2_sign/fastsm2_verify on the same message and ID, in
 * alternating slices in one process; each side keeps its best slice.
 *
 * usage: bench_provider MODULE_DIR [SECONDS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/provider.h>

#include "fastsm2.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

#define ID "TLSv1.3+GM+Cipher+Suite" /* the ID openssl speed sets */

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s MODULE_DIR [SECONDS]\n", argv[0]);
        return 2;
    }
    double secs = argc > 2 ? atof(argv[2]) : 2.0, slice = secs / 10;
    OSSL_LIB_CTX *lc = OSSL_LIB_CTX_new();
    OSSL_PROVIDER_set_default_search_path(lc, argv[1]);
    if (!OSSL_PROVIDER_load(lc, "fastsm2prov") || !OSSL_PROVIDER_load(lc, "default"))
        return 2;
    EVP_PKEY *pk = EVP_PKEY_Q_keygen(lc, "provider=fastsm2prov", "SM2");
    unsigned char d[32], P[65], msg[20] = {1}, sig[80], raw[64];
    BIGNUM *bn = NULL;
    size_t plen = 0;
    if (!pk || EVP_PKEY_get_bn_param(pk, OSSL_PKEY_PARAM_PRIV_KEY, &bn) != 1 || BN_bn2binpad(bn, d, 32) != 32 ||
        EVP_PKEY_get_octet_string_param(pk, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, P, 65, &plen) != 1)
        return 2;
    BN_clear_free(bn);
    fastsm2_privkey key;
    fastsm2_pubkey pub;
    if (fastsm2_privkey_from_bytes(&key, d) != FASTSM2_OK || fastsm2_pubkey_from_bytes(&pub, P, 65) != FASTSM2_OK)
        return 2;
    EVP_MD_CTX *m = EVP_MD_CTX_new(), *mv = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_from_pkey(lc, pk, "?provider=fastsm2prov");
    EVP_PKEY_CTX *pcv = EVP_PKEY_CTX_new_from_pkey(lc, pk, "?provider=fastsm2prov");
    EVP_PKEY_CTX_set1_id(pc, ID, strlen(ID));
    EVP_PKEY_CTX_set1_id(pcv, ID, strlen(ID));
    EVP_MD_CTX_set_pkey_ctx(m, pc);
    EVP_MD_CTX_set_pkey_ctx(mv, pcv);
    size_t siglen = sizeof sig;
    if (EVP_DigestSignInit(m, NULL, EVP_sm3(), NULL, pk) != 1 || EVP_DigestSign(m, sig, &siglen, msg, 20) != 1)
        return 2;
    double best[4] = {0, 0, 0, 0};
    for (int round = 0; round < 5; round++) {
        for (int which = 0; which < 4; which++) {
            long n = 0;
            double t0 = now(), t;
            do {
                for (int i = 0; i < 50; i++) {
                    int ok;
                    size_t sl = sizeof sig;
                    switch (which) {
                    case 0:
                        ok = EVP_DigestSignInit(m, NULL, EVP_sm3(), NULL, pk) == 1 &&
                             EVP_DigestSign(m, sig, &sl, msg, 20) == 1;
                        break;
                    case 1:
                        ok = fastsm2_sign(raw, &key, ID, strlen(ID), msg, 20) == FASTSM2_OK &&
                             fastsm2_sig_to_der(sig, &sl, raw) == FASTSM2_OK;
                        siglen = sl;
                        break;
                    case 2:
                        ok = EVP_DigestVerifyInit(mv, NULL, EVP_sm3(), NULL, pk) == 1 &&
                             EVP_DigestVerify(mv, sig, siglen, msg, 20) == 1;
                        break;
                    default:
                        ok = fastsm2_sig_from_der(raw, sig, siglen) == FASTSM2_OK &&
                             fastsm2_verify(&pub, ID, strlen(ID), msg, 20, raw) == 1;
                    }
                    if (!ok) {
                        fprintf(stderr, "operation %d failed\n", which);
                        return 1;
                    }
                }
                n += 50;
                t = now() - t0;
            } while (t < slice);
            if (n / t > best[which])
                best[which] = n / t;
        }
    }
    printf("sign/s:   EVP through fastsm2prov %9.0f   library %9.0f   EVP/library %.3f\n", best[0], best[1],
           best[0] / best[1]);
    printf("verify/s: EVP through fastsm2prov %9.0f   library %9.0f   EVP/library %.3f\n", best[2], best[3],
           best[2] / best[3]);
    fastsm2_privkey_clear(&key);
    EVP_MD_CTX_free(m);
    EVP_MD_CTX_free(mv);
    EVP_PKEY_free(pk);
    OSSL_LIB_CTX_free(lc);
    return 0;
}
