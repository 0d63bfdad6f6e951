/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tests/test_openssl_diff.c's differential cases run through the provider:
 * "ours" is fastsm2prov behind EVP (library context lc_ours, algorithms
 * pinned by "provider=fastsm2prov"), "OpenSSL" is the default provider
 * alone in another library context (lc_ref). Keys cross only as files
 * (OpenSSL's encoders and decoders on our key management) or as the
 * parameters EVP_PKEY_todata/fromdata carry.
 *
 *  ours -> OpenSSL: our keys, written in four private and two public forms,
 *    load there with the same d and P; our signatures (default ID, custom
 *    ID, no ID) verify there, a wrong ID fails on both sides; our
 *    ciphertexts decrypt there.
 *  OpenSSL -> ours: the same the other way, plus EVP_PKEY_verify on the
 *    digest e = SM3(Z || M) computed by the library.
 *  Long plaintexts (4 KiB, 1 MiB) both ways; d*G for edge scalars against
 *    EC_POINT_mul.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/param_build.h>
#include <openssl/provider.h>

#include "provtest.h"

#define ITERS 110

static unsigned long n_cases_out, n_cases_in;

/* A key of one context moved into our key management by its parameters. */
static EVP_PKEY *to_ours(EVP_PKEY *pk, int selection)
{
    OSSL_PARAM *params = NULL;
    EVP_PKEY *out = NULL;
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(lc_ours, "SM2", PQ_OURS);
    if (EVP_PKEY_todata(pk, selection, &params) != 1 || !c || EVP_PKEY_fromdata_init(c) != 1 ||
        EVP_PKEY_fromdata(c, &out, selection, params) != 1)
        fs2t_ossl_die("fromdata into fastsm2prov");
    if (strcmp(OSSL_PROVIDER_get0_name(EVP_PKEY_get0_provider(out)), "fastsm2prov") != 0)
        fs2t_ossl_die("the key is not in fastsm2prov");
    OSSL_PARAM_free(params); /* public values and d: test keys */
    EVP_PKEY_CTX_free(c);
    return out;
}

static void test_ours_to_openssl(void)
{
    struct fs2t_tally t = {0};
    for (int it = 0; it < ITERS; it++) {
        EVP_PKEY *pk = fs2t_ossl_keygen(lc_ours, PQ_OURS);
        unsigned char d[32], P[65], od[32], oP[65];
        CHECK(fs2t_ossl_priv_bytes(pk, d) && fs2t_ossl_pub_bytes(pk, P));

        /* private key file -> OpenSSL: same d, same P */
        int form = it % 4;
        size_t len;
        unsigned char *file = fs2t_ossl_write_key(pk, form, &len);
        EVP_PKEY *opk = fs2t_ossl_read_key(lc_ref, file, len, form);
        free(file);
        int k_ok = opk && EVP_PKEY_is_a(opk, "SM2") && fs2t_ossl_priv_bytes(opk, od) && memcmp(od, d, 32) == 0 &&
                   fs2t_ossl_pub_bytes(opk, oP) && memcmp(oP, P, 65) == 0;
        fs2t_count(&t.key_ok, k_ok, "ours->OpenSSL: private key form %d did not load or differs\n", form);
        if (!opk) {
            EVP_PKEY_free(pk);
            continue;
        }
        /* public key file */
        file = fs2t_ossl_write_key(pk, 4 + (it & 1), &len);
        EVP_PKEY *opub = fs2t_ossl_read_key(lc_ref, file, len, 4 + (it & 1));
        free(file);
        CHECK(opub && EVP_PKEY_is_a(opub, "SM2") && fs2t_ossl_pub_bytes(opub, oP) && memcmp(oP, P, 65) == 0);
        if (!opub)
            opub = opk, EVP_PKEY_up_ref(opk);

        unsigned char msg[300], id[40];
        size_t msglen = fs2t_rand_len_bytes(msg, 0, 300);
        for (int kind = 0; kind < 3; kind++) { /* default ID, custom ID, none */
            size_t sidlen;
            const unsigned char *sid = fs2t_sig_id(kind, id, &sidlen);
            unsigned char sig[80];
            size_t siglen = sizeof sig;
            CHECK(fs2t_ossl_sign(lc_ours, PQ_OURS, pk, sid, sidlen, msg, msglen, sig, &siglen));
            t.sigs++;
            int v = fs2t_ossl_verify(lc_ref, PQ_REF, opub, sid, sidlen, msg, msglen, sig, siglen);
            fs2t_count(&t.sig_ok, v, "ours->OpenSSL: signature not accepted (it %d, kind %d)\n", it, kind);
            /* a wrong ID fails there and here */
            unsigned char wid[40];
            size_t widlen = fs2t_wrong_id(wid, sid, sidlen, 0);
            int bad1 = fs2t_ossl_verify(lc_ref, PQ_REF, opub, wid, widlen, msg, msglen, sig, siglen);
            /* the other of the two IDs "none" can mean: no ID set is the
             * empty ID up to OpenSSL 3.x and the default ID from 4.0 on */
            const int nd = fs2t_ossl_no_id_is_default();
            int bad2 = kind == 2 ? fs2t_ossl_verify(lc_ref, PQ_REF, opub, nd ? "" : FASTSM2_DEFAULT_ID, nd ? 0 : 16,
                                                    msg, msglen, sig, siglen)
                                 : fs2t_ossl_verify(lc_ref, PQ_REF, opub, "", 0, msg, msglen, sig, siglen);
            int bad3 = fs2t_ossl_verify(lc_ours, PQ_OURS, pk, wid, widlen, msg, msglen, sig, siglen);
            t.sig_bad_rejected += (unsigned long)(bad1 == 0 && bad2 == 0 && bad3 == 0);
        }

        unsigned char pt[300];
        size_t ptlen = fs2t_rand_len_bytes(pt, 1, 300), ctlen = 0;
        unsigned char *ct = fs2t_ossl_crypt(lc_ours, PQ_OURS, pk, 1, pt, ptlen, &ctlen);
        CHECK(ct != NULL);
        t.cts++;
        fs2t_count(&t.ct_ok, fs2t_ossl_decrypts_to(lc_ref, PQ_REF, opk, ct, ctlen, pt, ptlen),
                   "ours->OpenSSL: ciphertext (ptlen %zu) not decrypted\n", ptlen);
        free(ct);
        EVP_PKEY_free(opub);
        EVP_PKEY_free(opk);
        EVP_PKEY_free(pk);
    }
    n_cases_out += fs2t_tally_finish(&t, "fastsm2prov -> OpenSSL", ITERS, 3);
}

static void test_openssl_to_ours(void)
{
    struct fs2t_tally t = {0};
    for (int it = 0; it < ITERS; it++) {
        unsigned char od[32], oP[65], d[32], P[65];
        EVP_PKEY *opk = fs2t_ossl_keygen_bytes(lc_ref, PQ_REF, od, oP);
        /* the key by file (OpenSSL's decoders in our context), and by its
         * parameters into our key management */
        int form = it % 4;
        size_t len;
        unsigned char *file = fs2t_ossl_write_key(opk, form, &len);
        EVP_PKEY *fk = fs2t_ossl_read_key(lc_ours, file, len, form);
        free(file);
        EVP_PKEY *pk = to_ours(fk ? fk : opk, EVP_PKEY_KEYPAIR);
        int k_ok = fk != NULL && fs2t_ossl_priv_bytes(pk, d) && memcmp(d, od, 32) == 0 && fs2t_ossl_pub_bytes(pk, P) &&
                   memcmp(P, oP, 65) == 0;
        fs2t_count(&t.key_ok, k_ok, "OpenSSL->ours: private key form %d did not load or differs\n", form);
        file = fs2t_ossl_write_key(opk, 4 + (it & 1), &len);
        EVP_PKEY *fpub = fs2t_ossl_read_key(lc_ours, file, len, 4 + (it & 1));
        free(file);
        CHECK(fpub != NULL);
        EVP_PKEY *pub = to_ours(fpub ? fpub : opk, EVP_PKEY_PUBLIC_KEY);
        CHECK(fs2t_ossl_pub_bytes(pub, P) && memcmp(P, oP, 65) == 0);

        fastsm2_pubkey lpub;
        CHECK_STATUS(fastsm2_pubkey_from_bytes(&lpub, oP, 65), FASTSM2_OK);
        unsigned char msg[300], id[40];
        size_t msglen = fs2t_rand_len_bytes(msg, 0, 300);
        for (int kind = 0; kind < 3; kind++) {
            size_t sidlen;
            const unsigned char *sid = fs2t_sig_id(kind, id, &sidlen);
            unsigned char sig[80];
            size_t siglen = sizeof sig;
            if (!fs2t_ossl_sign(lc_ref, PQ_REF, opk, sid, sidlen, msg, msglen, sig, &siglen))
                fs2t_ossl_die("sign");
            t.sigs++;
            /* by the message, with the public key and with the key pair
             * (the file's key: the operation moves it across itself) */
            int v = fs2t_ossl_verify(lc_ours, PQ_OURS, pub, sid, sidlen, msg, msglen, sig, siglen) &&
                    (!fk || fs2t_ossl_verify(lc_ours, PQ_OURS, fk, sid, sidlen, msg, msglen, sig, siglen));
            /* and by the digest e = SM3(Z || M), Z from the library (an
             * empty ID: ENTL = 0, the curve and the key) */
            unsigned char z[32], e[32];
            if (sidlen || fs2t_ossl_no_id_is_default()) { /* no ID set: the default one from 4.0 on */
                CHECK_STATUS(fastsm2_compute_z(z, &lpub, sidlen ? (const void *)sid : FASTSM2_DEFAULT_ID,
                                               sidlen ? sidlen : FASTSM2_DEFAULT_ID_LEN),
                             FASTSM2_OK);
            } else {
                unsigned char zin[2 + 128 + 64] = {0, 0};
                fs2t_unhex(zin + 2, 32, "FFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF00000000FFFFFFFFFFFFFFFC");
                fs2t_unhex(zin + 34, 32, "28E9FA9E9D9F5E344D5A9E4BCF6509A7F39789F515AB8F92DDBCBD414D940E93");
                memcpy(zin + 66, fs2t_gx, 32);
                memcpy(zin + 98, fs2t_gy, 32);
                memcpy(zin + 130, oP + 1, 64);
                fastsm2_sm3(z, zin, sizeof zin);
            }
            fastsm2_sm3_ctx h;
            fastsm2_sm3_init(&h);
            fastsm2_sm3_update(&h, z, 32);
            fastsm2_sm3_update(&h, msg, msglen);
            fastsm2_sm3_final(e, &h);
            EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(lc_ours, pub, PQ_OURS);
            v = v && c && EVP_PKEY_verify_init(c) == 1 && fs2t_ossl_runs_in(c, "fastsm2prov") &&
                EVP_PKEY_verify(c, sig, siglen, e, 32) == 1;
            EVP_PKEY_CTX_free(c);
            fs2t_count(&t.sig_ok, v, "OpenSSL->ours: signature not accepted (it %d, kind %d)\n", it, kind);
            unsigned char wid[40];
            size_t widlen = fs2t_wrong_id(wid, sid, sidlen, 1);
            int bad_here = fs2t_ossl_verify(lc_ours, PQ_OURS, pub, wid, widlen, msg, msglen, sig, siglen);
            const int nd = fs2t_ossl_no_id_is_default();
            int bad_here2 = kind == 2
                                ? fs2t_ossl_verify(lc_ours, PQ_OURS, pub, nd ? "" : FASTSM2_DEFAULT_ID, nd ? 0 : 16,
                                                   msg, msglen, sig, siglen)
                                : fs2t_ossl_verify(lc_ours, PQ_OURS, pub, sid, sidlen - 1, msg, msglen, sig, siglen);
            int bad_there = fs2t_ossl_verify(lc_ref, PQ_REF, opk, wid, widlen, msg, msglen, sig, siglen);
            t.sig_bad_rejected += (unsigned long)(bad_here == 0 && bad_here2 == 0 && bad_there == 0);
        }

        unsigned char pt[300];
        size_t ptlen = fs2t_rand_len_bytes(pt, 1, 300), ctlen = 0;
        unsigned char *ct = fs2t_ossl_crypt(lc_ref, PQ_REF, opk, 1, pt, ptlen, &ctlen);
        if (!ct)
            fs2t_ossl_die("encrypt");
        t.cts++;
        fs2t_count(&t.ct_ok, fs2t_ossl_decrypts_to(lc_ours, PQ_OURS, pk, ct, ctlen, pt, ptlen),
                   "OpenSSL->ours: ciphertext (ptlen %zu) not decrypted\n", ptlen);
        free(ct);
        EVP_PKEY_free(fk);
        EVP_PKEY_free(fpub);
        EVP_PKEY_free(pub);
        EVP_PKEY_free(pk);
        EVP_PKEY_free(opk);
    }
    n_cases_in += fs2t_tally_finish(&t, "OpenSSL -> fastsm2prov", ITERS, 3);
}

static void test_long_plaintext(size_t L)
{
    unsigned char *pt = malloc(L);
    fs2t_rand_bytes(pt, L);
    EVP_PKEY *opk = fs2t_ossl_keygen(lc_ref, PQ_REF);
    EVP_PKEY *pk = to_ours(opk, EVP_PKEY_KEYPAIR);
    size_t ctlen = 0;
    unsigned char *ct = fs2t_ossl_crypt(lc_ours, PQ_OURS, pk, 1, pt, L, &ctlen);
    CHECK(fs2t_ossl_decrypts_to(lc_ref, PQ_REF, opk, ct, ctlen, pt, L));
    n_cases_out++;
    free(ct);
    ct = fs2t_ossl_crypt(lc_ref, PQ_REF, opk, 1, pt, L, &ctlen);
    CHECK(fs2t_ossl_decrypts_to(lc_ours, PQ_OURS, pk, ct, ctlen, pt, L));
    n_cases_in++;
    free(ct);
    EVP_PKEY_free(pk);
    EVP_PKEY_free(opk);
    free(pt);
}

/* d*G by our key management (fromdata with d alone) against OpenSSL. */
static void check_scalar(const unsigned char d[32], const unsigned char want[65], const unsigned char wantc[33],
                         const char *label)
{
    (void)wantc;
    unsigned char got[65];
    BIGNUM *bn = BN_bin2bn(d, 32, NULL);
    OSSL_PARAM_BLD *b = OSSL_PARAM_BLD_new();
    OSSL_PARAM_BLD_push_utf8_string(b, OSSL_PKEY_PARAM_GROUP_NAME, "SM2", 0);
    OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_PRIV_KEY, bn); /* unpadded: short for small d */
    OSSL_PARAM *params = OSSL_PARAM_BLD_to_param(b);
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(lc_ours, "SM2", PQ_OURS);
    EVP_PKEY *pk = NULL;
    int ok = c && EVP_PKEY_fromdata_init(c) == 1 && EVP_PKEY_fromdata(c, &pk, EVP_PKEY_KEYPAIR, params) == 1 &&
             fs2t_ossl_pub_bytes(pk, got) && memcmp(got, want, 65) == 0;
    if (!ok)
        fprintf(stderr, "d*G differs from OpenSSL for d = %s\n", label);
    CHECK(ok);
    EVP_PKEY_free(pk);
    EVP_PKEY_CTX_free(c);
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(b);
    BN_free(bn);
}

int main(int argc, char **argv)
{
    pt_setup(argc, argv);
    fs2t_ossl_scalars(check_scalar, 40);
    test_ours_to_openssl();
    test_openssl_to_ours();
    test_long_plaintext(4096);
    test_long_plaintext(1048576);
    printf("random cases: %lu fastsm2prov -> OpenSSL, %lu OpenSSL -> fastsm2prov\n", n_cases_out, n_cases_in);
    CHECK(n_cases_out >= 300 && n_cases_in >= 300);
    pt_teardown();
    return fs2t_finish("test_provider_diff");
}
