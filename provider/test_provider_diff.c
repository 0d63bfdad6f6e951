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

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/provider.h>
#include <openssl/x509.h>

#include "provtest.h"

#define ITERS 110

static unsigned long n_cases_out, n_cases_in;

static size_t rand_below(size_t n)
{
    return (size_t)(fs2t_rand_u64() % n);
}

static size_t rand_id(unsigned char *id)
{
    size_t len = 1 + rand_below(40);
    fs2t_rand_bytes(id, len);
    id[0] = (unsigned char)('a' + rand_below(26)); /* never "1234..." */
    return len;
}

/* Write a private key in form 0 PEM PKCS#8, 1 PEM SEC1, 2 DER SEC1, 3 DER
 * PKCS#8; public: 4 PEM SPKI, 5 DER SPKI. A malloc'd buffer. */
static unsigned char *write_key(EVP_PKEY *pk, int form, size_t *len)
{
    BIO *b = BIO_new(BIO_s_mem());
    int ok = 0;
    switch (form) {
    case 0: ok = PEM_write_bio_PrivateKey(b, pk, NULL, NULL, 0, NULL, NULL); break;
    case 1: ok = PEM_write_bio_PrivateKey_traditional(b, pk, NULL, NULL, 0, NULL, NULL); break;
    case 2: {
        unsigned char *der = NULL;
        int n = i2d_PrivateKey(pk, &der);
        ok = n > 0 && BIO_write(b, der, n) == n;
        OPENSSL_free(der);
        break;
    }
    case 3: ok = i2d_PKCS8PrivateKey_bio(b, pk, NULL, NULL, 0, NULL, NULL); break;
    case 4: ok = PEM_write_bio_PUBKEY(b, pk); break;
    default: ok = i2d_PUBKEY_bio(b, pk); break;
    }
    if (!ok)
        pt_die("write key");
    char *data;
    long n = BIO_get_mem_data(b, &data);
    unsigned char *out = malloc((size_t)n + 1);
    memcpy(out, data, (size_t)n);
    out[n] = 0;
    *len = (size_t)n;
    BIO_free(b);
    return out;
}

static EVP_PKEY *read_key(OSSL_LIB_CTX *lc, const unsigned char *in, size_t len, int form)
{
    EVP_PKEY *pk = NULL;
    BIO *b = BIO_new_mem_buf(in, (int)len);
    if (form == 0 || form == 1)
        pk = PEM_read_bio_PrivateKey_ex(b, NULL, NULL, NULL, lc, NULL);
    else if (form == 4)
        pk = PEM_read_bio_PUBKEY_ex(b, NULL, NULL, NULL, lc, NULL);
    else if (form == 5) {
        const unsigned char *p = in;
        pk = d2i_PUBKEY_ex(NULL, &p, (long)len, lc, NULL);
    } else
        pk = d2i_PrivateKey_ex_bio(b, NULL, lc, NULL);
    BIO_free(b);
    ERR_clear_error();
    return pk;
}

/* A key of one context moved into our key management by its parameters. */
static EVP_PKEY *to_ours(EVP_PKEY *pk, int selection)
{
    OSSL_PARAM *params = NULL;
    EVP_PKEY *out = NULL;
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(lc_ours, "SM2", PQ_OURS);
    if (EVP_PKEY_todata(pk, selection, &params) != 1 || !c || EVP_PKEY_fromdata_init(c) != 1 ||
        EVP_PKEY_fromdata(c, &out, selection, params) != 1)
        pt_die("fromdata into fastsm2prov");
    if (strcmp(OSSL_PROVIDER_get0_name(EVP_PKEY_get0_provider(out)), "fastsm2prov") != 0)
        pt_die("the key is not in fastsm2prov");
    OSSL_PARAM_free(params); /* public values and d: test keys */
    EVP_PKEY_CTX_free(c);
    return out;
}

static void test_ours_to_openssl(void)
{
    unsigned long key_ok = 0, sig_ok = 0, sig_bad_rejected = 0, ct_ok = 0, sigs = 0, cts = 0;
    for (int it = 0; it < ITERS; it++) {
        EVP_PKEY *pk = pt_keygen(lc_ours, PQ_OURS);
        unsigned char d[32], P[65], od[32], oP[65];
        CHECK(pt_priv_bytes(pk, d) && pt_pub_bytes(pk, P));

        /* private key file -> OpenSSL: same d, same P */
        int form = it % 4;
        size_t len;
        unsigned char *file = write_key(pk, form, &len);
        EVP_PKEY *opk = read_key(lc_ref, file, len, form);
        free(file);
        int k_ok = opk && EVP_PKEY_is_a(opk, "SM2") && pt_priv_bytes(opk, od) && memcmp(od, d, 32) == 0 &&
                   pt_pub_bytes(opk, oP) && memcmp(oP, P, 65) == 0;
        if (!k_ok && fs2t_failed < 10)
            fprintf(stderr, "ours->OpenSSL: private key form %d did not load or differs\n", form);
        key_ok += (unsigned long)k_ok;
        if (!opk) {
            EVP_PKEY_free(pk);
            continue;
        }
        /* public key file */
        file = write_key(pk, 4 + (it & 1), &len);
        EVP_PKEY *opub = read_key(lc_ref, file, len, 4 + (it & 1));
        free(file);
        CHECK(opub && EVP_PKEY_is_a(opub, "SM2") && pt_pub_bytes(opub, oP) && memcmp(oP, P, 65) == 0);
        if (!opub)
            opub = opk, EVP_PKEY_up_ref(opk);

        unsigned char msg[300], id[40];
        size_t msglen = rand_below(301);
        fs2t_rand_bytes(msg, msglen);
        for (int kind = 0; kind < 3; kind++) { /* default ID, custom ID, none */
            const unsigned char *sid = (const unsigned char *)FASTSM2_DEFAULT_ID;
            size_t sidlen = FASTSM2_DEFAULT_ID_LEN;
            if (kind == 1)
                sidlen = rand_id(id), sid = id;
            if (kind == 2)
                sid = NULL, sidlen = 0;
            unsigned char sig[80];
            size_t siglen = sizeof sig;
            CHECK(pt_sign(lc_ours, PQ_OURS, pk, sid, sidlen, msg, msglen, sig, &siglen));
            sigs++;
            int v = pt_verify(lc_ref, PQ_REF, opub, sid, sidlen, msg, msglen, sig, siglen);
            if (!v && fs2t_failed < 10)
                fprintf(stderr, "ours->OpenSSL: signature not accepted (it %d, kind %d)\n", it, kind);
            sig_ok += (unsigned long)v;
            /* a wrong ID fails there and here */
            unsigned char wid[41] = {'x'};
            size_t widlen = sidlen ? sidlen : 1;
            if (sidlen)
                memcpy(wid, sid, sidlen), wid[sidlen - 1] ^= 0x20;
            int bad1 = pt_verify(lc_ref, PQ_REF, opub, wid, widlen, msg, msglen, sig, siglen);
            int bad2 = kind == 2 ? pt_verify(lc_ref, PQ_REF, opub, FASTSM2_DEFAULT_ID, 16, msg, msglen, sig, siglen)
                                 : pt_verify(lc_ref, PQ_REF, opub, NULL, 0, msg, msglen, sig, siglen);
            int bad3 = pt_verify(lc_ours, PQ_OURS, pk, wid, widlen, msg, msglen, sig, siglen);
            sig_bad_rejected += (unsigned long)(bad1 == 0 && bad2 == 0 && bad3 == 0);
        }

        size_t ptlen = 1 + rand_below(300), ctlen = 0, declen = 0;
        unsigned char pt[300];
        fs2t_rand_bytes(pt, ptlen);
        unsigned char *ct = pt_crypt(lc_ours, PQ_OURS, pk, 1, pt, ptlen, &ctlen);
        CHECK(ct != NULL);
        cts++;
        unsigned char *dec = ct ? pt_crypt(lc_ref, PQ_REF, opk, 0, ct, ctlen, &declen) : NULL;
        int c_ok = dec && declen == ptlen && memcmp(dec, pt, ptlen) == 0;
        if (!c_ok && fs2t_failed < 10)
            fprintf(stderr, "ours->OpenSSL: ciphertext (ptlen %zu) not decrypted\n", ptlen);
        ct_ok += (unsigned long)c_ok;
        free(ct);
        free(dec);
        EVP_PKEY_free(opub);
        EVP_PKEY_free(opk);
        EVP_PKEY_free(pk);
    }
    CHECK(key_ok == ITERS);
    CHECK(sig_ok == sigs && sigs == 3 * ITERS);
    CHECK(sig_bad_rejected == sigs);
    CHECK(ct_ok == cts && cts == ITERS);
    n_cases_out += sigs + cts;
    printf("fastsm2prov -> OpenSSL: %lu/%d keys, %lu/%lu signatures, %lu wrong-ID rejections, %lu/%lu ciphertexts\n",
           key_ok, ITERS, sig_ok, sigs, sig_bad_rejected, ct_ok, cts);
}

static void test_openssl_to_ours(void)
{
    unsigned long key_ok = 0, sig_ok = 0, sig_bad_rejected = 0, ct_ok = 0, sigs = 0, cts = 0;
    for (int it = 0; it < ITERS; it++) {
        EVP_PKEY *opk = pt_keygen(lc_ref, PQ_REF);
        unsigned char od[32], oP[65], d[32], P[65];
        if (!pt_priv_bytes(opk, od) || !pt_pub_bytes(opk, oP))
            pt_die("key bytes");
        /* the key by file (OpenSSL's decoders in our context), and by its
         * parameters into our key management */
        int form = it % 4;
        size_t len;
        unsigned char *file = write_key(opk, form, &len);
        EVP_PKEY *fk = read_key(lc_ours, file, len, form);
        free(file);
        EVP_PKEY *pk = to_ours(fk ? fk : opk, EVP_PKEY_KEYPAIR);
        int k_ok = fk != NULL && pt_priv_bytes(pk, d) && memcmp(d, od, 32) == 0 && pt_pub_bytes(pk, P) &&
                   memcmp(P, oP, 65) == 0;
        if (!k_ok && fs2t_failed < 10)
            fprintf(stderr, "OpenSSL->ours: private key form %d did not load or differs\n", form);
        key_ok += (unsigned long)k_ok;
        file = write_key(opk, 4 + (it & 1), &len);
        EVP_PKEY *fpub = read_key(lc_ours, file, len, 4 + (it & 1));
        free(file);
        CHECK(fpub != NULL);
        EVP_PKEY *pub = to_ours(fpub ? fpub : opk, EVP_PKEY_PUBLIC_KEY);
        CHECK(pt_pub_bytes(pub, P) && memcmp(P, oP, 65) == 0);

        fastsm2_pubkey lpub;
        CHECK_STATUS(fastsm2_pubkey_from_bytes(&lpub, oP, 65), FASTSM2_OK);
        unsigned char msg[300], id[40];
        size_t msglen = rand_below(301);
        fs2t_rand_bytes(msg, msglen);
        for (int kind = 0; kind < 3; kind++) {
            const unsigned char *sid = (const unsigned char *)FASTSM2_DEFAULT_ID;
            size_t sidlen = FASTSM2_DEFAULT_ID_LEN;
            if (kind == 1)
                sidlen = rand_id(id), sid = id;
            if (kind == 2)
                sid = NULL, sidlen = 0;
            unsigned char sig[80];
            size_t siglen = sizeof sig;
            if (!pt_sign(lc_ref, PQ_REF, opk, sid, sidlen, msg, msglen, sig, &siglen))
                pt_die("sign");
            sigs++;
            /* by the message, with the public key and with the key pair
             * (the file's key: the operation moves it across itself) */
            int v = pt_verify(lc_ours, PQ_OURS, pub, sid, sidlen, msg, msglen, sig, siglen) &&
                    (!fk || pt_verify(lc_ours, PQ_OURS, fk, sid, sidlen, msg, msglen, sig, siglen));
            /* and by the digest e = SM3(Z || M), Z from the library (an
             * empty ID: ENTL = 0, the curve and the key) */
            unsigned char z[32], e[32];
            if (sidlen) {
                CHECK_STATUS(fastsm2_compute_z(z, &lpub, sid, sidlen), FASTSM2_OK);
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
            v = v && c && EVP_PKEY_verify_init(c) == 1 && pt_runs_in(c, "fastsm2prov") &&
                EVP_PKEY_verify(c, sig, siglen, e, 32) == 1;
            EVP_PKEY_CTX_free(c);
            if (!v && fs2t_failed < 10)
                fprintf(stderr, "OpenSSL->ours: signature not accepted (it %d, kind %d)\n", it, kind);
            sig_ok += (unsigned long)v;
            unsigned char wid[41] = {'x'};
            size_t widlen = sidlen ? sidlen : 1;
            if (sidlen)
                memcpy(wid, sid, sidlen), wid[0] ^= 0x01;
            int bad_here = pt_verify(lc_ours, PQ_OURS, pub, wid, widlen, msg, msglen, sig, siglen);
            int bad_here2 = kind == 2
                                ? pt_verify(lc_ours, PQ_OURS, pub, FASTSM2_DEFAULT_ID, 16, msg, msglen, sig, siglen)
                                : pt_verify(lc_ours, PQ_OURS, pub, sid, sidlen - 1, msg, msglen, sig, siglen);
            int bad_there = pt_verify(lc_ref, PQ_REF, opk, wid, widlen, msg, msglen, sig, siglen);
            sig_bad_rejected += (unsigned long)(bad_here == 0 && bad_here2 == 0 && bad_there == 0);
        }

        size_t ptlen = 1 + rand_below(300), ctlen = 0, outlen = 0;
        unsigned char pt[300];
        fs2t_rand_bytes(pt, ptlen);
        unsigned char *ct = pt_crypt(lc_ref, PQ_REF, opk, 1, pt, ptlen, &ctlen);
        if (!ct)
            pt_die("encrypt");
        cts++;
        unsigned char *out = pt_crypt(lc_ours, PQ_OURS, pk, 0, ct, ctlen, &outlen);
        int c_ok = out && outlen == ptlen && memcmp(out, pt, ptlen) == 0;
        if (!c_ok && fs2t_failed < 10)
            fprintf(stderr, "OpenSSL->ours: ciphertext (ptlen %zu) not decrypted\n", ptlen);
        ct_ok += (unsigned long)c_ok;
        free(out);
        free(ct);
        EVP_PKEY_free(fk);
        EVP_PKEY_free(fpub);
        EVP_PKEY_free(pub);
        EVP_PKEY_free(pk);
        EVP_PKEY_free(opk);
    }
    CHECK(key_ok == ITERS);
    CHECK(sig_ok == sigs && sigs == 3 * ITERS);
    CHECK(sig_bad_rejected == sigs);
    CHECK(ct_ok == cts && cts == ITERS);
    n_cases_in += sigs + cts;
    printf("OpenSSL -> fastsm2prov: %lu/%d keys, %lu/%lu signatures, %lu wrong-ID rejections, %lu/%lu ciphertexts\n",
           key_ok, ITERS, sig_ok, sigs, sig_bad_rejected, ct_ok, cts);
}

static void test_long_plaintext(size_t L)
{
    unsigned char *pt = malloc(L);
    fs2t_rand_bytes(pt, L);
    EVP_PKEY *opk = pt_keygen(lc_ref, PQ_REF);
    EVP_PKEY *pk = to_ours(opk, EVP_PKEY_KEYPAIR);
    size_t ctlen = 0, declen = 0;
    unsigned char *ct = pt_crypt(lc_ours, PQ_OURS, pk, 1, pt, L, &ctlen);
    unsigned char *dec = ct ? pt_crypt(lc_ref, PQ_REF, opk, 0, ct, ctlen, &declen) : NULL;
    CHECK(dec && declen == L && memcmp(dec, pt, L) == 0);
    n_cases_out++;
    free(ct);
    free(dec);
    ct = pt_crypt(lc_ref, PQ_REF, opk, 1, pt, L, &ctlen);
    dec = ct ? pt_crypt(lc_ours, PQ_OURS, pk, 0, ct, ctlen, &declen) : NULL;
    CHECK(dec && declen == L && memcmp(dec, pt, L) == 0);
    n_cases_in++;
    free(ct);
    free(dec);
    EVP_PKEY_free(pk);
    EVP_PKEY_free(opk);
    free(pt);
}

/* d*G by our key management (fromdata with d alone) against EC_POINT_mul. */
static void check_scalar(const EC_GROUP *g, BN_CTX *bctx, const unsigned char d[32], const char *label)
{
    BIGNUM *bn = BN_bin2bn(d, 32, NULL);
    EC_POINT *pt = EC_POINT_new(g);
    unsigned char want[65], got[65];
    if (!bn || !pt || !EC_POINT_mul(g, pt, bn, NULL, NULL, bctx) ||
        EC_POINT_point2oct(g, pt, POINT_CONVERSION_UNCOMPRESSED, want, 65, bctx) != 65)
        pt_die("EC_POINT_mul");
    OSSL_PARAM_BLD *b = OSSL_PARAM_BLD_new();
    OSSL_PARAM_BLD_push_utf8_string(b, OSSL_PKEY_PARAM_GROUP_NAME, "SM2", 0);
    OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_PRIV_KEY, bn); /* unpadded: short for small d */
    OSSL_PARAM *params = OSSL_PARAM_BLD_to_param(b);
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(lc_ours, "SM2", PQ_OURS);
    EVP_PKEY *pk = NULL;
    int ok = c && EVP_PKEY_fromdata_init(c) == 1 && EVP_PKEY_fromdata(c, &pk, EVP_PKEY_KEYPAIR, params) == 1 &&
             pt_pub_bytes(pk, got) && memcmp(got, want, 65) == 0;
    if (!ok)
        fprintf(stderr, "d*G differs from OpenSSL for d = %s\n", label);
    CHECK(ok);
    EVP_PKEY_free(pk);
    EVP_PKEY_CTX_free(c);
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(b);
    EC_POINT_free(pt);
    BN_free(bn);
}

static void test_scalar_mult(void)
{
    EC_GROUP *g = EC_GROUP_new_by_curve_name(NID_sm2);
    BN_CTX *bctx = BN_CTX_new();
    unsigned char d[32];
    memset(d, 0, 32);
    for (unsigned v = 1; v <= 3; v++) {
        d[31] = (unsigned char)v;
        check_scalar(g, bctx, d, "1, 2, 3");
    }
    memcpy(d, fs2t_n, 32);
    d[31] -= 2;
    check_scalar(g, bctx, d, "n-2");
    memset(d, 0, 32);
    d[15] = 1;
    check_scalar(g, bctx, d, "2^128");
    memset(d, 0, 32);
    d[0] = 0x80;
    check_scalar(g, bctx, d, "2^255");
    memset(d, 0xAA, 32);
    check_scalar(g, bctx, d, "0xAA..");
    for (int i = 0; i < 40; i++) {
        fs2t_rand_int256(d); /* random lengths: every size of the native integer */
        if (memcmp(d, fs2t_n, 32) >= 0)
            d[0] = 0x7F;
        if (fs2t_all_zero(d, 32))
            d[31] = 7;
        check_scalar(g, bctx, d, "random");
    }
    BN_CTX_free(bctx);
    EC_GROUP_free(g);
}

int main(int argc, char **argv)
{
    pt_setup(argc, argv);
    test_scalar_mult();
    test_ours_to_openssl();
    test_openssl_to_ours();
    test_long_plaintext(4096);
    test_long_plaintext(1048576);
    printf("random cases: %lu fastsm2prov -> OpenSSL, %lu OpenSSL -> fastsm2prov\n", n_cases_out, n_cases_in);
    CHECK(n_cases_out >= 300 && n_cases_in >= 300);
    pt_teardown();
    return fs2t_finish("test_provider_diff");
}
