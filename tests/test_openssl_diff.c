/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Differential tests against the system OpenSSL 3 libcrypto, both ways:
 *
 *  ours -> OpenSSL: our keys serialized (PKCS#8/SEC1, PEM/DER, SPKI) load
 *    in OpenSSL with the same d and public point; our signatures (raw ->
 *    DER) verify in EVP_DigestVerify with SM3 and the ID; our default
 *    ciphertexts (GM/T 0009 DER, C1C3C2) decrypt in EVP_PKEY_decrypt.
 *  OpenSSL -> ours: OpenSSL keys (PEM PKCS#8, PEM "EC PRIVATE KEY", DER
 *    SEC1, DER PKCS#8, SPKI, bare SEC1 points) parse here; its signatures
 *    verify here; its ciphertexts decrypt here.
 *
 * With the default ID and custom IDs; a wrong ID must fail on both sides.
 * Note: OpenSSL 3.0 hashes an EMPTY ID when none is set (not the default
 * 1234567812345678), so the OpenSSL side always sets the ID explicitly.
 *
 * Also the scalar multiplication d*G for random and edge scalars against
 * EC_POINT_mul on the SM2 group.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include "backend.h"
#include "testutil.h"

/* Iterations per direction; each holds 2 signatures and 1 encryption, so
 * 3 * ITERS random cases per direction. */
#define ITERS 110

static const unsigned char N_BYTES[32] = {0xFF, 0xFF, 0xFF, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                          0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x72, 0x03, 0xDF, 0x6B, 0x21, 0xC6,
                                          0x05, 0x2B, 0x53, 0xBB, 0xF4, 0x09, 0x39, 0xD5, 0x41, 0x23};

static unsigned long n_cases_out, n_cases_in;

static void die_ossl(const char *what)
{
    fprintf(stderr, "OpenSSL failure: %s\n", what);
    ERR_print_errors_fp(stderr);
    exit(2);
}

/* ---------------------------------------------------------------------- */
/* OpenSSL helpers                                                         */
/* ---------------------------------------------------------------------- */

static EVP_PKEY *ossl_keygen(void)
{
    EVP_PKEY *pk = EVP_PKEY_Q_keygen(NULL, NULL, "SM2");
    if (!pk)
        die_ossl("SM2 keygen");
    return pk;
}

/* DER signature of SM3(Z(id) || msg). */
static int ossl_sign(EVP_PKEY *pk, const void *id, size_t idlen, const void *msg, size_t msglen, unsigned char *sig,
                     size_t *siglen)
{
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new(pk, NULL);
    int ok = m && pc && EVP_PKEY_CTX_set1_id(pc, id, idlen) > 0;
    if (ok) {
        EVP_MD_CTX_set_pkey_ctx(m, pc);
        ok = EVP_DigestSignInit(m, NULL, EVP_sm3(), NULL, pk) > 0 && EVP_DigestSign(m, sig, siglen, msg, msglen) > 0;
    }
    EVP_MD_CTX_free(m);
    EVP_PKEY_CTX_free(pc);
    return ok;
}

/* 1 if OpenSSL accepts the DER signature, else 0. */
static int ossl_verify(EVP_PKEY *pk, const void *id, size_t idlen, const void *msg, size_t msglen,
                       const unsigned char *sig, size_t siglen)
{
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new(pk, NULL);
    int ok = m && pc && EVP_PKEY_CTX_set1_id(pc, id, idlen) > 0;
    if (ok) {
        EVP_MD_CTX_set_pkey_ctx(m, pc);
        ok = EVP_DigestVerifyInit(m, NULL, EVP_sm3(), NULL, pk) > 0 &&
             EVP_DigestVerify(m, sig, siglen, msg, msglen) == 1;
    }
    EVP_MD_CTX_free(m);
    EVP_PKEY_CTX_free(pc);
    ERR_clear_error();
    return ok;
}

/* Encrypt or decrypt with EVP_PKEY; returns a malloc'd buffer or NULL. */
static unsigned char *ossl_crypt(EVP_PKEY *pk, int enc, const unsigned char *in, size_t inlen, size_t *outlen)
{
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(pk, NULL);
    unsigned char *out = NULL;
    size_t n = 0;
    int ok = c != NULL;
    if (ok)
        ok = (enc ? EVP_PKEY_encrypt_init(c) : EVP_PKEY_decrypt_init(c)) > 0;
    if (ok)
        ok = (enc ? EVP_PKEY_encrypt(c, NULL, &n, in, inlen) : EVP_PKEY_decrypt(c, NULL, &n, in, inlen)) > 0;
    if (ok) {
        out = malloc(n ? n : 1);
        ok = (enc ? EVP_PKEY_encrypt(c, out, &n, in, inlen) : EVP_PKEY_decrypt(c, out, &n, in, inlen)) > 0;
    }
    EVP_PKEY_CTX_free(c);
    if (!ok) {
        free(out);
        ERR_clear_error();
        return NULL;
    }
    *outlen = n;
    return out;
}

static int ossl_pub_bytes(EVP_PKEY *pk, unsigned char out[65])
{
    size_t len = 0;
    if (EVP_PKEY_get_octet_string_param(pk, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, out, 65, &len) != 1)
        return 0;
    return len == 65 && out[0] == 0x04;
}

static int ossl_priv_bytes(EVP_PKEY *pk, unsigned char out[32])
{
    BIGNUM *bn = NULL;
    if (EVP_PKEY_get_bn_param(pk, OSSL_PKEY_PARAM_PRIV_KEY, &bn) != 1)
        return 0;
    int ok = BN_bn2binpad(bn, out, 32) == 32;
    BN_clear_free(bn);
    return ok;
}

static EVP_PKEY *ossl_load_priv(const unsigned char *in, size_t len, int pem)
{
    EVP_PKEY *pk;
    if (pem) {
        BIO *b = BIO_new_mem_buf(in, (int)len);
        pk = PEM_read_bio_PrivateKey(b, NULL, NULL, NULL);
        BIO_free(b);
    } else {
        const unsigned char *p = in;
        pk = d2i_AutoPrivateKey(NULL, &p, (long)len);
        if (pk && p != in + len) { /* trailing bytes */
            EVP_PKEY_free(pk);
            pk = NULL;
        }
    }
    ERR_clear_error();
    return pk;
}

static EVP_PKEY *ossl_load_pub(const unsigned char *in, size_t len, int pem)
{
    EVP_PKEY *pk;
    if (pem) {
        BIO *b = BIO_new_mem_buf(in, (int)len);
        pk = PEM_read_bio_PUBKEY(b, NULL, NULL, NULL);
        BIO_free(b);
    } else {
        const unsigned char *p = in;
        pk = d2i_PUBKEY(NULL, &p, (long)len);
    }
    ERR_clear_error();
    return pk;
}

/* Serialize an OpenSSL private key in one of four forms into a malloc'd
 * buffer: 0 PEM PKCS#8, 1 PEM SEC1 ("EC PRIVATE KEY"), 2 DER SEC1,
 * 3 DER PKCS#8. */
static unsigned char *ossl_write_priv(EVP_PKEY *pk, int form, size_t *len)
{
    BIO *b = BIO_new(BIO_s_mem());
    int ok;
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
    default: ok = i2d_PKCS8PrivateKey_bio(b, pk, NULL, NULL, 0, NULL, NULL); break;
    }
    if (!ok)
        die_ossl("write private key");
    char *data;
    long n = BIO_get_mem_data(b, &data);
    unsigned char *out = malloc((size_t)n + 1);
    memcpy(out, data, (size_t)n);
    out[n] = 0;
    *len = (size_t)n;
    BIO_free(b);
    return out;
}

/* 0 PEM SPKI, 1 DER SPKI, 2 bare SEC1 point. */
static unsigned char *ossl_write_pub(EVP_PKEY *pk, int form, size_t *len)
{
    unsigned char *out = NULL;
    if (form == 2) {
        out = malloc(65);
        if (!ossl_pub_bytes(pk, out))
            die_ossl("public point");
        *len = 65;
        return out;
    }
    BIO *b = BIO_new(BIO_s_mem());
    int ok = form == 0 ? PEM_write_bio_PUBKEY(b, pk) : i2d_PUBKEY_bio(b, pk);
    if (!ok)
        die_ossl("write public key");
    char *data;
    long n = BIO_get_mem_data(b, &data);
    out = malloc((size_t)n + 1);
    memcpy(out, data, (size_t)n);
    out[n] = 0;
    *len = (size_t)n;
    BIO_free(b);
    return out;
}

/* ---------------------------------------------------------------------- */
/* Small helpers                                                           */
/* ---------------------------------------------------------------------- */

static size_t rand_below(size_t n)
{
    return (size_t)(fs2t_rand_u64() % n);
}

/* A random ID of 1..40 bytes that differs from the default. */
static size_t rand_id(unsigned char *id)
{
    size_t len = 1 + rand_below(40);
    fs2t_rand_bytes(id, len);
    id[0] = (unsigned char)('a' + rand_below(26)); /* never equal to "1234..." */
    return len;
}

static int our_pub_bytes(const fastsm2_pubkey *pub, unsigned char out[65])
{
    size_t len = 65;
    return fastsm2_pubkey_to_bytes(out, &len, pub, 0) == FASTSM2_OK && len == 65;
}

/* ---------------------------------------------------------------------- */
/* ours -> OpenSSL                                                         */
/* ---------------------------------------------------------------------- */

static void test_ours_to_openssl(void)
{
    static const int keyfmts[4] = {FASTSM2_KEYFMT_PKCS8 | FASTSM2_KEYFMT_PEM, FASTSM2_KEYFMT_SEC1 | FASTSM2_KEYFMT_PEM,
                                   FASTSM2_KEYFMT_PKCS8 | FASTSM2_KEYFMT_DER, FASTSM2_KEYFMT_SEC1 | FASTSM2_KEYFMT_DER};
    unsigned long key_ok = 0, sig_ok = 0, sig_bad_rejected = 0, ct_ok = 0;
    unsigned long sigs = 0, cts = 0;

    for (int it = 0; it < ITERS; it++) {
        fastsm2_privkey key;
        fastsm2_pubkey pub;
        if (fastsm2_privkey_generate(&key) != FASTSM2_OK || fastsm2_privkey_pubkey(&pub, &key) != FASTSM2_OK) {
            CHECK(0);
            continue;
        }
        unsigned char d[32], P[65], od[32], oP[65];
        CHECK_STATUS(fastsm2_privkey_to_bytes(d, &key), FASTSM2_OK);
        CHECK(our_pub_bytes(&pub, P));

        /* Private key file -> OpenSSL: same d, same public point. */
        int fmt = keyfmts[it % 4];
        unsigned char buf[1024];
        size_t buflen = sizeof buf;
        CHECK_STATUS(fastsm2_privkey_serialize(buf, &buflen, &key, fmt), FASTSM2_OK);
        int pem = (fmt & FASTSM2_KEYFMT_PEM) != 0;
        if (pem)
            CHECK(buflen < sizeof buf && buf[buflen] == 0 && strlen((char *)buf) == buflen);
        EVP_PKEY *opk = ossl_load_priv(buf, buflen, pem);
        int k_ok = opk != NULL && EVP_PKEY_is_a(opk, "SM2") && ossl_priv_bytes(opk, od) && memcmp(od, d, 32) == 0 &&
                   ossl_pub_bytes(opk, oP) && memcmp(oP, P, 65) == 0;
        if (!k_ok && fs2t_failed < 10)
            fprintf(stderr, "ours->OpenSSL: private key (fmt %d) did not load or differs\n", fmt);
        key_ok += (unsigned long)k_ok;
        if (!opk) {
            fastsm2_privkey_clear(&key);
            continue;
        }

        /* Public key file (SPKI PEM / DER) -> OpenSSL. */
        buflen = sizeof buf;
        int pfmt = (it & 1) ? FASTSM2_KEYFMT_PEM : FASTSM2_KEYFMT_DER;
        CHECK_STATUS(fastsm2_pubkey_serialize(buf, &buflen, &pub, pfmt), FASTSM2_OK);
        EVP_PKEY *opub = ossl_load_pub(buf, buflen, pfmt == FASTSM2_KEYFMT_PEM);
        CHECK(opub != NULL && EVP_PKEY_is_a(opub, "SM2") && ossl_pub_bytes(opub, oP) && memcmp(oP, P, 65) == 0);
        if (!opub)
            opub = opk, EVP_PKEY_up_ref(opk);

        /* Signatures, default ID (ours: the key's ID) and a custom ID. */
        unsigned char msg[300], id[40];
        size_t msglen = rand_below(301);
        fs2t_rand_bytes(msg, msglen);
        for (int custom = 0; custom < 2; custom++) {
            const unsigned char *sid = (const unsigned char *)FASTSM2_DEFAULT_ID;
            size_t sidlen = FASTSM2_DEFAULT_ID_LEN;
            if (custom) {
                sidlen = rand_id(id);
                sid = id;
            }
            unsigned char sig[64], der[FASTSM2_SIG_DER_MAX];
            size_t derlen = sizeof der;
            int st = custom ? fastsm2_sign(sig, &key, sid, sidlen, msg, msglen)
                            : fastsm2_sign(sig, &key, NULL, 0, msg, msglen);
            CHECK_STATUS(st, FASTSM2_OK);
            CHECK_STATUS(fastsm2_sig_to_der(der, &derlen, sig), FASTSM2_OK);
            sigs++;
            int v = ossl_verify(opub, sid, sidlen, msg, msglen, der, derlen);
            if (!v && fs2t_failed < 10)
                fprintf(stderr, "ours->OpenSSL: signature not accepted (it %d, custom %d, msglen %zu)\n", it, custom,
                        msglen);
            sig_ok += (unsigned long)v;
            /* A wrong ID (one byte changed, or default vs custom) fails. */
            unsigned char wid[41];
            memcpy(wid, sid, sidlen);
            wid[sidlen - 1] ^= 0x20;
            int bad1 = ossl_verify(opub, wid, sidlen, msg, msglen, der, derlen);
            /* custom: the default ID; default: a 15-byte prefix of it. */
            int bad2 =
                custom ? ossl_verify(opub, FASTSM2_DEFAULT_ID, FASTSM2_DEFAULT_ID_LEN, msg, msglen, der, derlen)
                       : ossl_verify(opub, FASTSM2_DEFAULT_ID, FASTSM2_DEFAULT_ID_LEN - 1, msg, msglen, der, derlen);
            sig_bad_rejected += (unsigned long)(bad1 == 0 && bad2 == 0);
            /* And here too. */
            CHECK(fastsm2_verify(&pub, wid, sidlen, msg, msglen, sig) == 0);
        }

        /* Encryption, default flags (DER, C1C3C2), 1..300 bytes. */
        size_t ptlen = 1 + rand_below(300);
        unsigned char pt[300];
        fs2t_rand_bytes(pt, ptlen);
        unsigned char ct[600];
        size_t ctlen = sizeof ct;
        CHECK_STATUS(fastsm2_encrypt(ct, &ctlen, &pub, pt, ptlen, 0), FASTSM2_OK);
        cts++;
        size_t declen = 0;
        unsigned char *dec = ossl_crypt(opk, 0, ct, ctlen, &declen);
        int c_ok = dec && declen == ptlen && memcmp(dec, pt, ptlen) == 0;
        if (!c_ok && fs2t_failed < 10)
            fprintf(stderr, "ours->OpenSSL: ciphertext (ptlen %zu) not decrypted\n", ptlen);
        ct_ok += (unsigned long)c_ok;
        free(dec);

        EVP_PKEY_free(opub);
        EVP_PKEY_free(opk);
        fastsm2_privkey_clear(&key);
    }
    CHECK(key_ok == ITERS);
    CHECK(sig_ok == sigs && sigs == 2 * ITERS);
    CHECK(sig_bad_rejected == sigs);
    CHECK(ct_ok == cts && cts == ITERS);
    n_cases_out += sigs + cts;
    printf("ours -> OpenSSL: %lu/%d keys, %lu/%lu signatures, %lu wrong-ID rejections, %lu/%lu ciphertexts\n", key_ok,
           ITERS, sig_ok, sigs, sig_bad_rejected, ct_ok, cts);
}

/* ---------------------------------------------------------------------- */
/* OpenSSL -> ours                                                         */
/* ---------------------------------------------------------------------- */

static void test_openssl_to_ours(void)
{
    unsigned long key_ok = 0, sig_ok = 0, sig_bad_rejected = 0, ct_ok = 0;
    unsigned long sigs = 0, cts = 0;

    for (int it = 0; it < ITERS; it++) {
        EVP_PKEY *opk = ossl_keygen();
        unsigned char od[32], oP[65], P[65], d[32];
        if (!ossl_priv_bytes(opk, od) || !ossl_pub_bytes(opk, oP))
            die_ossl("key bytes");

        /* Private key file -> ours. */
        size_t len;
        unsigned char *file = ossl_write_priv(opk, it % 4, &len);
        fastsm2_privkey key;
        fastsm2_pubkey pub, pub2;
        int st = fastsm2_privkey_parse(&key, file, len);
        free(file);
        int k_ok = st == FASTSM2_OK && fastsm2_privkey_to_bytes(d, &key) == FASTSM2_OK && memcmp(d, od, 32) == 0 &&
                   fastsm2_privkey_pubkey(&pub2, &key) == FASTSM2_OK && our_pub_bytes(&pub2, P) &&
                   memcmp(P, oP, 65) == 0;
        if (!k_ok && fs2t_failed < 10)
            fprintf(stderr, "OpenSSL->ours: private key form %d: %s\n", it % 4, fastsm2_error_name(st));
        key_ok += (unsigned long)k_ok;
        if (st != FASTSM2_OK) {
            EVP_PKEY_free(opk);
            continue;
        }

        /* Public key file -> ours. */
        file = ossl_write_pub(opk, it % 3, &len);
        st = fastsm2_pubkey_parse(&pub, file, len);
        free(file);
        CHECK_STATUS(st, FASTSM2_OK);
        if (st != FASTSM2_OK)
            pub = pub2;
        CHECK(our_pub_bytes(&pub, P) && memcmp(P, oP, 65) == 0);

        /* OpenSSL's signatures verify here. */
        unsigned char msg[300], id[40];
        size_t msglen = rand_below(301);
        fs2t_rand_bytes(msg, msglen);
        for (int custom = 0; custom < 2; custom++) {
            const unsigned char *sid = (const unsigned char *)FASTSM2_DEFAULT_ID;
            size_t sidlen = FASTSM2_DEFAULT_ID_LEN;
            if (custom) {
                sidlen = rand_id(id);
                sid = id;
            }
            unsigned char der[128], sig[64];
            size_t derlen = sizeof der;
            if (!ossl_sign(opk, sid, sidlen, msg, msglen, der, &derlen))
                die_ossl("sign");
            sigs++;
            st = fastsm2_sig_from_der(sig, der, derlen);
            CHECK_STATUS(st, FASTSM2_OK);
            int v = st == FASTSM2_OK && (custom ? fastsm2_verify(&pub, sid, sidlen, msg, msglen, sig)
                                                : fastsm2_verify(&pub, NULL, 0, msg, msglen, sig)) == 1;
            /* The digest API with e computed from our Z agrees. */
            unsigned char z[32], e[32];
            fastsm2_sm3_ctx h;
            CHECK_STATUS(fastsm2_compute_z(z, &pub, sid, sidlen), FASTSM2_OK);
            fastsm2_sm3_init(&h);
            fastsm2_sm3_update(&h, z, 32);
            fastsm2_sm3_update(&h, msg, msglen);
            fastsm2_sm3_final(e, &h);
            v = v && fastsm2_verify_digest(&pub, e, sig) == 1;
            if (!v && fs2t_failed < 10)
                fprintf(stderr, "OpenSSL->ours: signature not accepted (it %d, custom %d, msglen %zu)\n", it, custom,
                        msglen);
            sig_ok += (unsigned long)v;

            /* Wrong ID fails here and in OpenSSL. */
            unsigned char wid[41];
            memcpy(wid, sid, sidlen);
            wid[0] ^= 0x01;
            int bad_here = fastsm2_verify(&pub, wid, sidlen, msg, msglen, sig);
            int bad_here2 = fastsm2_verify(&pub, sid, sidlen - 1, msg, msglen, sig);
            int bad_there = ossl_verify(opk, wid, sidlen, msg, msglen, der, derlen);
            sig_bad_rejected += (unsigned long)(bad_here == 0 && bad_here2 == 0 && bad_there == 0);
        }

        /* OpenSSL's ciphertexts decrypt here. */
        size_t ptlen = 1 + rand_below(300);
        unsigned char pt[300], out[300];
        fs2t_rand_bytes(pt, ptlen);
        size_t ctlen = 0;
        unsigned char *ct = ossl_crypt(opk, 1, pt, ptlen, &ctlen);
        if (!ct)
            die_ossl("encrypt");
        cts++;
        size_t outlen = sizeof out;
        st = fastsm2_decrypt(out, &outlen, &key, ct, ctlen, 0);
        int c_ok = st == FASTSM2_OK && outlen == ptlen && memcmp(out, pt, ptlen) == 0;
        if (!c_ok && fs2t_failed < 10)
            fprintf(stderr, "OpenSSL->ours: ciphertext (ptlen %zu) not decrypted: %s\n", ptlen, fastsm2_error_name(st));
        ct_ok += (unsigned long)c_ok;
        free(ct);

        fastsm2_privkey_clear(&key);
        EVP_PKEY_free(opk);
    }
    CHECK(key_ok == ITERS);
    CHECK(sig_ok == sigs && sigs == 2 * ITERS);
    CHECK(sig_bad_rejected == sigs);
    CHECK(ct_ok == cts && cts == ITERS);
    n_cases_in += sigs + cts;
    printf("OpenSSL -> ours: %lu/%d keys, %lu/%lu signatures, %lu wrong-ID rejections, %lu/%lu ciphertexts\n", key_ok,
           ITERS, sig_ok, sigs, sig_bad_rejected, ct_ok, cts);
}

/* Encrypt L bytes with the streaming API in pieces of `piece` bytes into
 * one DER ciphertext; returns its length (0 on failure). */
static size_t stream_encrypt(unsigned char *ct, size_t cap, const fastsm2_pubkey *pub, const unsigned char *pt,
                             size_t L, size_t piece)
{
    fastsm2_encrypt_stream s;
    size_t prelen = cap;
    uint64_t c3off;
    unsigned char c3[32];
    if (fastsm2_encrypt_stream_init(&s, ct, &prelen, &c3off, pub, L, 0) != FASTSM2_OK || prelen + L > cap)
        return 0;
    for (size_t at = 0; at < L; at += piece) {
        size_t n = L - at < piece ? L - at : piece;
        if (fastsm2_encrypt_stream_update(&s, ct + prelen + at, pt + at, n) != FASTSM2_OK)
            return 0;
    }
    if (fastsm2_encrypt_stream_final(&s, c3) != FASTSM2_OK || c3off + 32 > prelen)
        return 0;
    memcpy(ct + c3off, c3, 32);
    return prelen + L;
}

/* Decrypt a DER ciphertext with the streaming API in pieces; FASTSM2_OK
 * and *outlen, or the first error. */
static int stream_decrypt(unsigned char *out, size_t *outlen, const fastsm2_privkey *key, const unsigned char *ct,
                          size_t ctlen, size_t piece)
{
    fastsm2_decrypt_stream s;
    uint64_t c2off, c2len, c3off;
    size_t pre = ctlen < FASTSM2_CT_PREFIX_MAX ? ctlen : FASTSM2_CT_PREFIX_MAX;
    int st = fastsm2_decrypt_stream_init(&s, &c2off, &c2len, &c3off, key, ct, pre, ctlen, 0);
    if (st != FASTSM2_OK)
        return st;
    for (size_t at = 0; at < c2len; at += piece) {
        size_t n = c2len - at < piece ? (size_t)c2len - at : piece;
        st = fastsm2_decrypt_stream_update(&s, out + at, ct + c2off + at, n);
        if (st != FASTSM2_OK)
            return st;
    }
    *outlen = (size_t)c2len;
    return fastsm2_decrypt_stream_final(&s, ct + c3off);
}

/* An L-byte plaintext both ways, one-shot and streaming (pieces of odd
 * sizes), on every backend this CPU has (the KDF runs in 1, 8 or 16 SIMD
 * lanes). */
static void test_long_plaintext(size_t L)
{
    unsigned char *pt = malloc(L), *out = malloc(L), *ct = malloc(L + 256);
    fs2t_rand_bytes(pt, L);
    EVP_PKEY *opk = ossl_keygen();
    size_t flen;
    unsigned char *file = ossl_write_priv(opk, 0, &flen);
    fastsm2_privkey key;
    fastsm2_pubkey pub;
    CHECK_STATUS(fastsm2_privkey_parse(&key, file, flen), FASTSM2_OK);
    free(file);
    CHECK_STATUS(fastsm2_privkey_pubkey(&pub, &key), FASTSM2_OK);

    size_t octlen = 0;
    unsigned char *oct = ossl_crypt(opk, 1, pt, L, &octlen);
    if (!oct)
        die_ossl("encrypt long");
    const char *was = fastsm2_backend_name();
    for (size_t bi = 0; fs2_backends[bi]; bi++) {
        if (!fs2_backend_available(fs2_backends[bi]))
            continue;
        CHECK(fs2_backend_force(fs2_backends[bi]->name) == 1);
        size_t ctlen = L + 256;
        CHECK(fastsm2_ciphertext_size(L, 0) <= ctlen);
        CHECK_STATUS(fastsm2_encrypt(ct, &ctlen, &pub, pt, L, 0), FASTSM2_OK);
        size_t declen = 0;
        unsigned char *dec = ossl_crypt(opk, 0, ct, ctlen, &declen);
        CHECK(dec && declen == L && memcmp(dec, pt, L) == 0);
        free(dec);
        n_cases_out++;

        size_t outlen = L;
        CHECK_STATUS(fastsm2_decrypt(out, &outlen, &key, oct, octlen, 0), FASTSM2_OK);
        CHECK(outlen == L && memcmp(out, pt, L) == 0);
        n_cases_in++;

        /* Streaming: ours in pieces -> OpenSSL, OpenSSL -> ours in pieces. */
        ctlen = stream_encrypt(ct, L + 256, &pub, pt, L, 1000 + 37 * bi);
        CHECK(ctlen > 0);
        dec = ctlen ? ossl_crypt(opk, 0, ct, ctlen, &declen) : NULL;
        CHECK(dec && declen == L && memcmp(dec, pt, L) == 0);
        free(dec);
        memset(out, 0, L);
        CHECK_STATUS(stream_decrypt(out, &outlen, &key, oct, octlen, 4093 + 64 * bi), FASTSM2_OK);
        CHECK(outlen == L && memcmp(out, pt, L) == 0);
        /* ... and a flipped C2 byte fails B6 in the stream too. */
        oct[octlen - 1] ^= 1;
        CHECK_STATUS(stream_decrypt(out, &outlen, &key, oct, octlen, 4096), FASTSM2_ERR_DECRYPT);
        oct[octlen - 1] ^= 1;
    }
    CHECK(fs2_backend_force(was) == 1);
    free(oct);

    fastsm2_privkey_clear(&key);
    EVP_PKEY_free(opk);
    free(pt);
    free(out);
    free(ct);
}

/* ---------------------------------------------------------------------- */
/* d*G against EC_POINT_mul                                                */
/* ---------------------------------------------------------------------- */

static void check_scalar(const EC_GROUP *g, BN_CTX *bctx, const unsigned char d[32], const char *label)
{
    BIGNUM *bn = BN_bin2bn(d, 32, NULL);
    EC_POINT *pt = EC_POINT_new(g);
    unsigned char want[65], wantc[33], got[65];
    if (!bn || !pt || !EC_POINT_mul(g, pt, bn, NULL, NULL, bctx) ||
        EC_POINT_point2oct(g, pt, POINT_CONVERSION_UNCOMPRESSED, want, 65, bctx) != 65 ||
        EC_POINT_point2oct(g, pt, POINT_CONVERSION_COMPRESSED, wantc, 33, bctx) != 33)
        die_ossl("EC_POINT_mul");
    fastsm2_privkey key;
    fastsm2_pubkey pub;
    int st = fastsm2_privkey_from_bytes(&key, d);
    CHECK_STATUS(st, FASTSM2_OK);
    int ok = st == FASTSM2_OK && fastsm2_privkey_pubkey(&pub, &key) == FASTSM2_OK && our_pub_bytes(&pub, got) &&
             memcmp(got, want, 65) == 0;
    if (ok) {
        size_t clen = sizeof got;
        ok = fastsm2_pubkey_to_bytes(got, &clen, &pub, 1) == FASTSM2_OK && clen == 33 && memcmp(got, wantc, 33) == 0;
    }
    if (!ok) {
        char hex[65];
        fs2t_hex(hex, d, 32);
        fprintf(stderr, "d*G differs from OpenSSL for %s d = %s\n", label, hex);
    }
    CHECK(ok);
    fastsm2_privkey_clear(&key);
    EC_POINT_free(pt);
    BN_free(bn);
}

static void test_scalar_mult(void)
{
    EC_GROUP *g = EC_GROUP_new_by_curve_name(NID_sm2);
    BN_CTX *bctx = BN_CTX_new();
    if (!g || !bctx)
        die_ossl("SM2 group");
    unsigned char d[32];

    /* Edge scalars. */
    memset(d, 0, 32);
    d[31] = 1;
    check_scalar(g, bctx, d, "1");
    d[31] = 2;
    check_scalar(g, bctx, d, "2");
    d[31] = 3;
    check_scalar(g, bctx, d, "3");
    /* n - 2, n - 3 */
    memcpy(d, N_BYTES, 32);
    d[31] -= 2;
    check_scalar(g, bctx, d, "n-2");
    d[31] -= 1;
    check_scalar(g, bctx, d, "n-3");
    /* 2^128, 2^255, 2^128 - 1, 2^255 - 1, 2^64, 2^192 */
    memset(d, 0, 32);
    d[15] = 1;
    check_scalar(g, bctx, d, "2^128");
    memset(d, 0, 32);
    d[0] = 0x80;
    check_scalar(g, bctx, d, "2^255");
    memset(d, 0, 32);
    memset(d + 16, 0xFF, 16);
    check_scalar(g, bctx, d, "2^128-1");
    memset(d, 0xFF, 32);
    d[0] = 0x7F;
    check_scalar(g, bctx, d, "2^255-1");
    memset(d, 0, 32);
    d[23] = 1;
    check_scalar(g, bctx, d, "2^64");
    memset(d, 0, 32);
    d[7] = 1;
    check_scalar(g, bctx, d, "2^192");
    /* Alternating bits (stress signed-digit recodings), all-ones low
     * bytes, (n-1)/2 and (n+1)/2. */
    memset(d, 0xAA, 32);
    check_scalar(g, bctx, d, "0xAA..");
    memset(d, 0x55, 32);
    check_scalar(g, bctx, d, "0x55..");
    memset(d, 0, 32);
    d[31] = 0xFF;
    d[30] = 0xFF;
    check_scalar(g, bctx, d, "0xFFFF");
    {
        BIGNUM *n = BN_bin2bn(N_BYTES, 32, NULL), *h = BN_new();
        BN_rshift1(h, n); /* (n-1)/2 since n is odd */
        BN_bn2binpad(h, d, 32);
        check_scalar(g, bctx, d, "(n-1)/2");
        BN_add_word(h, 1);
        BN_bn2binpad(h, d, 32);
        check_scalar(g, bctx, d, "(n+1)/2");
        BN_free(n);
        BN_free(h);
    }

    /* Random scalars: full-width ones below n-1, and short ones. */
    for (int i = 0; i < 60; i++) {
        fs2t_rand_bytes(d, 32);
        if (i % 4 == 3) {
            size_t z = rand_below(31);
            memset(d, 0, z); /* leading zero bytes */
        }
        if (memcmp(d, N_BYTES, 32) >= 0)
            d[0] = 0x7F;
        int allzero = 1;
        for (int j = 0; j < 32; j++)
            allzero &= d[j] == 0;
        if (allzero)
            d[31] = 5;
        check_scalar(g, bctx, d, "random");
    }
    BN_CTX_free(bctx);
    EC_GROUP_free(g);
}

int main(void)
{
    test_scalar_mult();
    test_ours_to_openssl();
    test_openssl_to_ours();
    test_long_plaintext(4096);
    test_long_plaintext(1048576);
    printf("random cases: %lu ours -> OpenSSL, %lu OpenSSL -> ours\n", n_cases_out, n_cases_in);
    CHECK(n_cases_out >= 300 && n_cases_in >= 300);
    return fs2t_finish("test_openssl_diff");
}
