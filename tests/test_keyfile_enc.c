/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Password-encrypted PKCS#8 keys (RFC 8018 PBES2), public keys from X.509
 * certificates, and the named errors of key files that are not plain SM2
 * keys. References: OpenSSL 3's libcrypto (it reads ours, we read its), and
 * the files GmSSL 3.1 and 3.2 wrote (tests/fixtures/gmssl, see its README).
 */
#include "testossl.h"

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <stdlib.h>
#include <string.h>

static const char PASS[] = "fastsm2-fixture";

static int is_named_error(int r)
{
    return r < 0 && r >= FASTSM2_ERR_LAST;
}

/* The key's d. */
static void key_d(unsigned char d[32], const fastsm2_privkey *k)
{
    CHECK(fastsm2_privkey_to_bytes(d, k) == FASTSM2_OK);
}

static int same_pub(const fastsm2_pubkey *a, const fastsm2_pubkey *b)
{
    unsigned char x[65], y[65];
    size_t xl = sizeof x, yl = sizeof y;
    return fastsm2_pubkey_to_bytes(x, &xl, a, 0) == FASTSM2_OK && fastsm2_pubkey_to_bytes(y, &yl, b, 0) == FASTSM2_OK &&
           xl == yl && memcmp(x, y, xl) == 0;
}

static unsigned char *fixture(const char *name, size_t *len)
{
    char path[1024];
    const char *src = getenv("FASTSM2_SOURCE");
    snprintf(path, sizeof path, "%s/tests/fixtures/gmssl/%s", src ? src : FS2T_SOURCE_DIR, name);
    unsigned char *p = fs2t_read_file(path, len);
    if (p == NULL) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(2);
    }
    return p;
}

/* ---- GmSSL's files ------------------------------------------------------ */

static void test_gmssl_fixtures(void)
{
    static const char *const versions[] = {"3.1", "3.2"};
    size_t msglen;
    unsigned char *msg = fixture("msg.txt", &msglen);
    for (int v = 0; v < 2; v++) {
        char name[64];
        size_t len, publen, siglen, ctlen, certlen, hlen;
#define FIX(var, file, lenvar)                               \
    snprintf(name, sizeof name, "%s/%s", versions[v], file); \
    unsigned char *var = fixture(name, &lenvar)
        FIX(keyfile, "key.pem", len);
        FIX(pubfile, "pub.pem", publen);
        FIX(sigfile, "sig.der", siglen);
        FIX(ctfile, "ct.der", ctlen);
        FIX(certfile, "cert.pem", certlen);
        FIX(hfile, "hmac.txt", hlen);
        size_t alen;
        FIX(sigalice, "sig-alice.der", alen);
#undef FIX
        fastsm2_privkey key;
        fastsm2_pubkey pub, pub2, certpub;
        /* The key: only with its password. */
        CHECK_STATUS(fastsm2_privkey_parse(&key, keyfile, len), FASTSM2_ERR_ENCRYPTED_KEY);
        CHECK_STATUS(fastsm2_privkey_parse_encrypted(&key, keyfile, len, "wrong", 5), FASTSM2_ERR_PASSWORD);
        CHECK(fs2t_all_zero(&key, sizeof key));
        CHECK_STATUS(fastsm2_privkey_parse_encrypted(&key, keyfile, len, PASS, strlen(PASS)), FASTSM2_OK);
        CHECK_STATUS(fastsm2_pubkey_parse(&pub, pubfile, publen), FASTSM2_OK);
        CHECK_STATUS(fastsm2_privkey_pubkey(&pub2, &key), FASTSM2_OK);
        CHECK(same_pub(&pub, &pub2));
        /* Its signatures, default ID and another. */
        unsigned char sig[64], out[256];
        CHECK_STATUS(fastsm2_sig_from_der(sig, sigfile, siglen), FASTSM2_OK);
        CHECK(fastsm2_verify(&pub, NULL, 0, msg, msglen, sig) == 1);
        CHECK_STATUS(fastsm2_sig_from_der(sig, sigalice, alen), FASTSM2_OK);
        CHECK(fastsm2_verify(&pub, "alice@example.com", 17, msg, msglen, sig) == 1);
        CHECK(fastsm2_verify(&pub, NULL, 0, msg, msglen, sig) == 0);
        /* Its ciphertext. */
        size_t outlen = sizeof out;
        CHECK_STATUS(fastsm2_decrypt(out, &outlen, &key, ctfile, ctlen, FASTSM2_CT_DER), FASTSM2_OK);
        CHECK(outlen == msglen && memcmp(out, msg, msglen) == 0);
        /* Its certificate holds the same public key. */
        CHECK_STATUS(fastsm2_pubkey_parse_certificate(&certpub, certfile, certlen), FASTSM2_OK);
        CHECK(same_pub(&pub, &certpub));
        CHECK_STATUS(fastsm2_pubkey_parse(&pub2, certfile, certlen), FASTSM2_ERR_CERTIFICATE);
        /* A certificate or a public key where a private key belongs says
         * what it is, PEM and DER, through every private-key parser. */
        {
            fastsm2_privkey k2;
            unsigned char pubder[128], pubpem[256];
            size_t pdl = sizeof pubder, ppl = sizeof pubpem;
            CHECK_STATUS(fastsm2_pubkey_serialize(pubder, &pdl, &pub, FASTSM2_KEYFMT_DER), FASTSM2_OK);
            CHECK_STATUS(fastsm2_pubkey_serialize(pubpem, &ppl, &pub, FASTSM2_KEYFMT_PEM), FASTSM2_OK);
            CHECK_STATUS(fastsm2_privkey_parse(&k2, pubder, pdl), FASTSM2_ERR_PUBLIC_KEY);
            CHECK_STATUS(fastsm2_privkey_parse(&k2, pubpem, ppl), FASTSM2_ERR_PUBLIC_KEY);
            CHECK_STATUS(fastsm2_privkey_parse_encrypted(&k2, pubder, pdl, "pw", 2), FASTSM2_ERR_PUBLIC_KEY);
            CHECK_STATUS(fastsm2_privkey_parse_encrypted(&k2, pubpem, ppl, "pw", 2), FASTSM2_ERR_PUBLIC_KEY);
            CHECK_STATUS(fastsm2_privkey_parse(&k2, certfile, certlen), FASTSM2_ERR_CERTIFICATE);
            CHECK_STATUS(fastsm2_privkey_parse_encrypted(&k2, certfile, certlen, "pw", 2), FASTSM2_ERR_CERTIFICATE);
            /* A SEQUENCE { SEQUENCE, INTEGER } is none of them: DER. */
            static const unsigned char odd[] = {0x30, 0x05, 0x30, 0x00, 0x02, 0x01, 0x01};
            CHECK_STATUS(fastsm2_privkey_parse(&k2, odd, sizeof odd), FASTSM2_ERR_DER);
        }
        /* Its HMAC-SM3 (key 00..0f). */
        unsigned char hk[16], mac[32];
        char hex[65];
        for (int i = 0; i < 16; i++)
            hk[i] = (unsigned char)i;
        CHECK_STATUS(fastsm2_hmac_sm3(mac, hk, 16, msg, msglen), FASTSM2_OK);
        fs2t_hex(hex, mac, 32);
        for (int i = 0; i < 64; i++)
            hex[i] = (char)(hex[i] >= 'A' && hex[i] <= 'F' ? hex[i] + 32 : hex[i]);
        CHECK(hlen >= 64 && memcmp(hfile, hex, 64) == 0);
        /* The certificate in DER (OpenSSL converts it) and chopped. */
        BIO *b = BIO_new_mem_buf(certfile, (int)certlen);
        X509 *x = PEM_read_bio_X509(b, NULL, NULL, NULL);
        BIO_free(b);
        CHECK(x != NULL);
        unsigned char *der = NULL;
        int dl = i2d_X509(x, &der);
        CHECK(dl > 0);
        CHECK_STATUS(fastsm2_pubkey_parse_certificate(&certpub, der, (size_t)dl), FASTSM2_OK);
        CHECK(same_pub(&pub, &certpub));
        CHECK_STATUS(fastsm2_pubkey_parse(&pub2, der, (size_t)dl), FASTSM2_ERR_CERTIFICATE);
        {
            fastsm2_privkey k2;
            CHECK_STATUS(fastsm2_privkey_parse(&k2, der, (size_t)dl), FASTSM2_ERR_CERTIFICATE);
        }
        CHECK_STATUS(fastsm2_pubkey_parse_certificate(&certpub, der, 0), FASTSM2_ERR_PEM);
        for (int cut = 1; cut < dl; cut++)
            CHECK_STATUS(fastsm2_pubkey_parse_certificate(&certpub, der, (size_t)cut), FASTSM2_ERR_DER);
        OPENSSL_free(der);
        X509_free(x);
        fastsm2_privkey_clear(&key);
        free(keyfile), free(pubfile), free(sigfile), free(ctfile), free(certfile), free(hfile), free(sigalice);
    }
    free(msg);
}

/* ---- our files: round trips, OpenSSL reads them, we read OpenSSL's ------ */

static void test_round_trips(void)
{
    static const int schemes[3] = {FASTSM2_PBE_SM3_SM4, FASTSM2_PBE_SHA256_SM4, FASTSM2_PBE_SHA256_AES256};
    fastsm2_privkey key, back;
    fastsm2_pubkey pub;
    unsigned char d[32], d2[32], out[FASTSM2_PRIVKEY_ENCRYPTED_MAX], out2[FASTSM2_PRIVKEY_ENCRYPTED_MAX];
    fs2t_keypair(&key, &pub);
    key_d(d, &key);
    for (int s = 0; s < 3; s++) {
        for (int pem = 0; pem < 2; pem++) {
            int fmt = pem ? FASTSM2_KEYFMT_PEM : FASTSM2_KEYFMT_DER;
            size_t len = sizeof out, len2 = sizeof out2;
            uint32_t iter = pem ? 0 : 1000; /* 0: the default count */
            CHECK_STATUS(
                fastsm2_privkey_serialize_encrypted(out, &len, &key, fmt, schemes[s], iter, PASS, strlen(PASS)),
                FASTSM2_OK);
            CHECK(len > 0 && len < FASTSM2_PRIVKEY_ENCRYPTED_MAX);
            CHECK(!pem || memcmp(out, "-----BEGIN ENCRYPTED PRIVATE KEY-----\n", 38) == 0);
            /* Fresh salt and IV each time. */
            CHECK_STATUS(
                fastsm2_privkey_serialize_encrypted(out2, &len2, &key, fmt, schemes[s], iter, PASS, strlen(PASS)),
                FASTSM2_OK);
            CHECK(len2 == len && memcmp(out, out2, len) != 0);
            CHECK_STATUS(fastsm2_privkey_parse_encrypted(&back, out, len, PASS, strlen(PASS)), FASTSM2_OK);
            key_d(d2, &back);
            CHECK(memcmp(d, d2, 32) == 0);
            CHECK_STATUS(fastsm2_privkey_parse(&back, out, len), FASTSM2_ERR_ENCRYPTED_KEY);
            CHECK_STATUS(fastsm2_privkey_parse_encrypted(&back, out, len, PASS, strlen(PASS) - 1),
                         FASTSM2_ERR_PASSWORD);
            /* OpenSSL 3.0 reads the SHA-256 schemes (it has no hmacWithSM3). */
            BIO *b = BIO_new_mem_buf(out, (int)len);
            EVP_PKEY *k = pem ? PEM_read_bio_PrivateKey(b, NULL, NULL, (void *)PASS)
                              : d2i_PKCS8PrivateKey_bio(b, NULL, NULL, (void *)PASS);
            BIO_free(b);
            if (schemes[s] != FASTSM2_PBE_SM3_SM4) {
                CHECK(k != NULL);
                if (k != NULL) {
                    CHECK(fs2t_ossl_priv_bytes(k, d2));
                    CHECK(memcmp(d, d2, 32) == 0);
                }
            }
            EVP_PKEY_free(k);
        }
    }
    /* An unencrypted key through the encrypted parser: read, password unused. */
    size_t len = sizeof out;
    CHECK_STATUS(fastsm2_privkey_serialize(out, &len, &key, FASTSM2_KEYFMT_PEM), FASTSM2_OK);
    CHECK_STATUS(fastsm2_privkey_parse_encrypted(&back, out, len, "x", 1), FASTSM2_OK);
    /* An empty password works both ways. */
    len = sizeof out;
    CHECK_STATUS(
        fastsm2_privkey_serialize_encrypted(out, &len, &key, FASTSM2_KEYFMT_DER, FASTSM2_PBE_SM3_SM4, 1, NULL, 0),
        FASTSM2_OK);
    CHECK_STATUS(fastsm2_privkey_parse_encrypted(&back, out, len, "", 0), FASTSM2_OK);
    /* Bad arguments. */
    len = sizeof out;
    CHECK_STATUS(fastsm2_privkey_serialize_encrypted(out, &len, &key, FASTSM2_KEYFMT_PEM, 0, 0, "p", 1),
                 FASTSM2_ERR_ARG);
    CHECK(len == 0);
    len = sizeof out;
    CHECK_STATUS(
        fastsm2_privkey_serialize_encrypted(out, &len, &key, FASTSM2_KEYFMT_SEC1, FASTSM2_PBE_SM3_SM4, 0, "p", 1),
        FASTSM2_ERR_ARG);
    len = sizeof out;
    CHECK_STATUS(
        fastsm2_privkey_serialize_encrypted(out, &len, &key, FASTSM2_KEYFMT_DER, FASTSM2_PBE_SM3_SM4, 0, NULL, 1),
        FASTSM2_ERR_ARG);
    len = sizeof out;
    CHECK_STATUS(fastsm2_privkey_serialize_encrypted(out, &len, &key, FASTSM2_KEYFMT_DER, FASTSM2_PBE_SM3_SM4,
                                                     FASTSM2_PBE_MAX_ITERATIONS + 1u, "p", 1),
                 FASTSM2_ERR_ARG);
    len = 100;
    CHECK_STATUS(
        fastsm2_privkey_serialize_encrypted(out, &len, &key, FASTSM2_KEYFMT_PEM, FASTSM2_PBE_SM3_SM4, 1, "p", 1),
        FASTSM2_ERR_BUFFER_TOO_SMALL);
    CHECK(len == 0 && fs2t_all_zero(out, 100));
    CHECK_STATUS(fastsm2_privkey_parse_encrypted(&back, out, 10, NULL, 3), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_privkey_parse_encrypted(NULL, out, 10, "p", 1), FASTSM2_ERR_ARG);
    fastsm2_privkey_clear(&key);
    fastsm2_privkey_clear(&back);
}

static void test_openssl_encrypted(void)
{
    EVP_PKEY *k = EVP_PKEY_Q_keygen(NULL, NULL, "SM2");
    unsigned char d[32], d2[32], buf[2048];
    fastsm2_privkey key;
    CHECK(k != NULL);
    CHECK(fs2t_ossl_priv_bytes(k, d));
    const EVP_CIPHER *ciphers[2] = {EVP_sm4_cbc(), EVP_aes_256_cbc()};
    for (int c = 0; c < 2; c++) {
        for (int pem = 0; pem < 2; pem++) {
            BIO *b = BIO_new(BIO_s_mem());
            if (pem)
                CHECK(PEM_write_bio_PKCS8PrivateKey(b, k, ciphers[c], NULL, 0, NULL, (void *)PASS) == 1);
            else
                CHECK(i2d_PKCS8PrivateKey_bio(b, k, ciphers[c], NULL, 0, NULL, (void *)PASS) == 1);
            size_t len = fs2t_bio_drain(b, buf, sizeof buf);
            CHECK(len > 0);
            CHECK_STATUS(fastsm2_privkey_parse(&key, buf, len), FASTSM2_ERR_ENCRYPTED_KEY);
            CHECK_STATUS(fastsm2_privkey_parse_encrypted(&key, buf, len, PASS, strlen(PASS)), FASTSM2_OK);
            key_d(d2, &key);
            CHECK(memcmp(d, d2, 32) == 0);
            CHECK_STATUS(fastsm2_privkey_parse_encrypted(&key, buf, len, "Fastsm2-fixture", strlen(PASS)),
                         FASTSM2_ERR_PASSWORD);
        }
    }
    /* Ciphers and schemes we do not read: AES-128-CBC, PBES1 (3DES). */
    BIO *b = BIO_new(BIO_s_mem());
    CHECK(i2d_PKCS8PrivateKey_bio(b, k, EVP_aes_128_cbc(), NULL, 0, NULL, (void *)PASS) == 1);
    size_t len = fs2t_bio_drain(b, buf, sizeof buf);
    CHECK_STATUS(fastsm2_privkey_parse_encrypted(&key, buf, len, PASS, strlen(PASS)), FASTSM2_ERR_KEY_CIPHER);
    b = BIO_new(BIO_s_mem());
    CHECK(i2d_PKCS8PrivateKey_nid_bio(b, k, NID_pbe_WithSHA1And3_Key_TripleDES_CBC, NULL, 0, NULL, (void *)PASS) == 1);
    len = fs2t_bio_drain(b, buf, sizeof buf);
    CHECK(len > 0);
    CHECK_STATUS(fastsm2_privkey_parse_encrypted(&key, buf, len, PASS, strlen(PASS)), FASTSM2_ERR_KEY_CIPHER);
    CHECK_STATUS(fastsm2_privkey_parse(&key, buf, len), FASTSM2_ERR_ENCRYPTED_KEY);
    /* Legacy PEM encryption (Proc-Type: 4,ENCRYPTED) of the SEC1 form. */
    b = BIO_new(BIO_s_mem());
    CHECK(PEM_write_bio_PrivateKey_traditional(b, k, EVP_aes_256_cbc(), NULL, 0, NULL, (void *)PASS) == 1);
    len = fs2t_bio_drain(b, buf, sizeof buf);
    CHECK(len > 0 && strstr((const char *)buf, "Proc-Type: 4,ENCRYPTED") != NULL);
    CHECK_STATUS(fastsm2_privkey_parse(&key, buf, len), FASTSM2_ERR_KEY_CIPHER);
    CHECK_STATUS(fastsm2_privkey_parse_encrypted(&key, buf, len, PASS, strlen(PASS)), FASTSM2_ERR_KEY_CIPHER);
    /* An encrypted P-256 key decrypts to another curve. */
    EVP_PKEY *p256 = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
    b = BIO_new(BIO_s_mem());
    CHECK(i2d_PKCS8PrivateKey_bio(b, p256, EVP_aes_256_cbc(), NULL, 0, NULL, (void *)PASS) == 1);
    len = fs2t_bio_drain(b, buf, sizeof buf);
    CHECK_STATUS(fastsm2_privkey_parse_encrypted(&key, buf, len, PASS, strlen(PASS)), FASTSM2_ERR_CURVE);
    EVP_PKEY_free(p256);
    EVP_PKEY_free(k);
}

/* ---- corrupted files and wrong passwords ------------------------------- */

static void test_corruption(void)
{
    fastsm2_privkey key, back;
    fastsm2_pubkey pub;
    unsigned char der[FASTSM2_PRIVKEY_ENCRYPTED_MAX];
    size_t len = sizeof der;
    fs2t_keypair(&key, &pub);
    /* Iterations 1: many trials stay quick. */
    CHECK_STATUS(fastsm2_privkey_serialize_encrypted(der, &len, &key, FASTSM2_KEYFMT_DER, FASTSM2_PBE_SM3_SM4, 1, PASS,
                                                     strlen(PASS)),
                 FASTSM2_OK);
    /* Every bit flipped: a named error (key wiped), or the same key: a
     * flip in the IV flips the same bit of the first plaintext block,
     * which may leave an acceptable key file (PKCS#8 version 0 -> 1)
     * holding the same d; d itself is guarded by the embedded public key.
     * A flip in the ciphertext garbles a block: FASTSM2_ERR_PASSWORD, as a
     * wrong password (the two cannot be told apart). */
    unsigned char d[32], d2[32];
    key_d(d, &key);
    size_t ct_start = len - 160; /* the last 160 bytes are the ciphertext */
    for (size_t i = 0; i < len * 8; i++) {
        der[i / 8] ^= (unsigned char)(1u << (i % 8));
        int r = fastsm2_privkey_parse_encrypted(&back, der, len, PASS, strlen(PASS));
        if (r == FASTSM2_OK) {
            key_d(d2, &back);
            CHECK(memcmp(d, d2, 32) == 0);
            CHECK(i / 8 < ct_start);
        } else {
            CHECK(is_named_error(r));
            CHECK(fs2t_all_zero(&back, sizeof back));
        }
        if (i / 8 >= ct_start)
            CHECK_STATUS(r, FASTSM2_ERR_PASSWORD);
        der[i / 8] ^= (unsigned char)(1u << (i % 8));
    }
    /* Every truncation. */
    for (size_t n = 0; n < len; n++) {
        int r = fastsm2_privkey_parse_encrypted(&back, der, n, PASS, strlen(PASS));
        CHECK(r != FASTSM2_OK && is_named_error(r));
    }
    /* Wrong passwords: each gets FASTSM2_ERR_PASSWORD. */
    for (int i = 0; i < 300; i++) {
        char pw[32];
        snprintf(pw, sizeof pw, "wrong-%d", i);
        CHECK_STATUS(fastsm2_privkey_parse_encrypted(&back, der, len, pw, strlen(pw)), FASTSM2_ERR_PASSWORD);
    }
    CHECK_STATUS(fastsm2_privkey_parse_encrypted(&back, der, len, PASS, strlen(PASS)), FASTSM2_OK);
    fastsm2_privkey_clear(&key);
    fastsm2_privkey_clear(&back);
}

/* ---- misleading inputs get their own names ------------------------------ */

static void test_named_errors(void)
{
    fastsm2_privkey key;
    fastsm2_pubkey pub;
    /* An oversized PEM body (5 KiB of base64). */
    size_t n = 0;
    static char big[8192];
    n += (size_t)sprintf(big + n, "-----BEGIN PRIVATE KEY-----\n");
    for (int i = 0; i < 110; i++)
        n += (size_t)sprintf(big + n, "%s\n", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
    n += (size_t)sprintf(big + n, "-----END PRIVATE KEY-----\n");
    CHECK_STATUS(fastsm2_privkey_parse(&key, (unsigned char *)big, n), FASTSM2_ERR_TOO_LARGE);
    char *pubbig = malloc(n + 1);
    memcpy(pubbig, big, n + 1);
    memcpy(pubbig + 11, "PUBLIC KEY-----\n ", 16); /* keep the line count; fix both labels */
    n = 0;
    n += (size_t)sprintf(big + n, "-----BEGIN PUBLIC KEY-----\n");
    for (int i = 0; i < 110; i++)
        n += (size_t)sprintf(big + n, "%s\n", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
    n += (size_t)sprintf(big + n, "-----END PUBLIC KEY-----\n");
    CHECK_STATUS(fastsm2_pubkey_parse(&pub, (unsigned char *)big, n), FASTSM2_ERR_TOO_LARGE);
    free(pubbig);
    /* A P-256 certificate: CURVE; given as a public key: CERTIFICATE. */
    EVP_PKEY *p256 = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
    X509 *x = X509_new();
    CHECK(x != NULL && p256 != NULL);
    X509_set_version(x, 2);
    ASN1_INTEGER_set(X509_get_serialNumber(x), 7);
    X509_gmtime_adj(X509_getm_notBefore(x), 0);
    X509_gmtime_adj(X509_getm_notAfter(x), 86400);
    X509_NAME_add_entry_by_txt(X509_get_subject_name(x), "CN", MBSTRING_ASC, (const unsigned char *)"p256", -1, -1, 0);
    X509_set_issuer_name(x, X509_get_subject_name(x));
    X509_set_pubkey(x, p256);
    CHECK(X509_sign(x, p256, EVP_sha256()) > 0);
    unsigned char *der = NULL;
    int dl = i2d_X509(x, &der);
    CHECK(dl > 0);
    CHECK_STATUS(fastsm2_pubkey_parse_certificate(&pub, der, (size_t)dl), FASTSM2_ERR_CURVE);
    CHECK_STATUS(fastsm2_pubkey_parse(&pub, der, (size_t)dl), FASTSM2_ERR_CERTIFICATE);
    BIO *b = BIO_new(BIO_s_mem());
    CHECK(PEM_write_bio_X509(b, x) == 1);
    unsigned char pem[4096];
    size_t pl = fs2t_bio_drain(b, pem, sizeof pem);
    CHECK_STATUS(fastsm2_pubkey_parse_certificate(&pub, pem, pl), FASTSM2_ERR_CURVE);
    CHECK_STATUS(fastsm2_pubkey_parse(&pub, pem, pl), FASTSM2_ERR_CERTIFICATE);
    /* A public key file given as a certificate. */
    b = BIO_new(BIO_s_mem());
    CHECK(PEM_write_bio_PUBKEY(b, p256) == 1);
    pl = fs2t_bio_drain(b, pem, sizeof pem);
    CHECK_STATUS(fastsm2_pubkey_parse_certificate(&pub, pem, pl), FASTSM2_ERR_PEM);
    CHECK_STATUS(fastsm2_pubkey_parse_certificate(NULL, pem, pl), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_pubkey_parse_certificate(&pub, NULL, pl), FASTSM2_ERR_ARG);
    OPENSSL_free(der);
    X509_free(x);
    EVP_PKEY_free(p256);
}

/* Mutated encrypted keys and certificates: a named error or a key, never
 * a crash (run under ASan in make test-all). */
static void test_fuzz(void)
{
    fastsm2_privkey key, back;
    fastsm2_pubkey pub;
    unsigned char seed[FASTSM2_PRIVKEY_ENCRYPTED_MAX], buf[FASTSM2_PRIVKEY_ENCRYPTED_MAX + 64];
    size_t seedlen = sizeof seed;
    fs2t_keypair(&key, &pub);
    CHECK_STATUS(fastsm2_privkey_serialize_encrypted(seed, &seedlen, &key, FASTSM2_KEYFMT_DER,
                                                     FASTSM2_PBE_SHA256_AES256, 1, "p", 1),
                 FASTSM2_OK);
    int bad = 0;
    for (int i = 0; i < 2000; i++) {
        size_t len = seedlen;
        memcpy(buf, seed, seedlen);
        fs2t_mutate(buf, &len, sizeof buf);
        int r = fastsm2_privkey_parse_encrypted(&back, buf, len, "p", 1);
        bad += !(r == FASTSM2_OK || is_named_error(r));
        r = fastsm2_pubkey_parse_certificate(&pub, buf, len);
        bad += !(r == FASTSM2_OK || is_named_error(r));
    }
    CHECK(bad == 0);
    fastsm2_privkey_clear(&key);
    fastsm2_privkey_clear(&back);
}

/* The iteration count as written in der (a 3-byte INTEGER 02 03 xx xx xx
 * for counts in [2^16, 2^23)): its first content byte's offset, or 0. */
static size_t find_iter(const unsigned char *der, size_t len, uint32_t iter)
{
    for (size_t i = 0; i + 5 <= len; i++)
        if (der[i] == 0x02 && der[i + 1] == 0x03 && der[i + 2] == (unsigned char)(iter >> 16) &&
            der[i + 3] == (unsigned char)(iter >> 8) && der[i + 4] == (unsigned char)iter)
            return i + 2;
    return 0;
}

typedef struct {
    const char *pw; /* NULL: give up */
    int calls;
} cb_state;

static int give_pw(void *buf, size_t cap, size_t *len, void *arg)
{
    cb_state *st = arg;
    st->calls++;
    if (!st->pw || strlen(st->pw) > cap)
        return 0;
    memcpy(buf, st->pw, strlen(st->pw));
    *len = strlen(st->pw);
    return 1;
}

/* The reader's iteration limit (issue 34: the count and the limit named,
 * the limit raisable, the default bounding a hostile file): a count above
 * it is FASTSM2_ERR_ITERATIONS before any PBKDF2 work, with the count
 * reported; the callback parser asks for a password only when one is
 * needed and can be used. */
static void test_iteration_limit(void)
{
    fastsm2_privkey key, back;
    fastsm2_pubkey pub;
    unsigned char der[FASTSM2_PRIVKEY_ENCRYPTED_MAX], plain[FASTSM2_PRIVKEY_ENCRYPTED_MAX];
    size_t len = sizeof der, plainlen = sizeof plain;
    uint32_t iter = 12345;
    fs2t_keypair(&key, &pub);
    /* the default reads what OpenSSL, GmSSL and PBKDF2-SHA256 guidance write */
    CHECK(FASTSM2_PBE_MAX_ITERATIONS >= 600000 && FASTSM2_PBE_MAX_ITERATIONS >= FASTSM2_PBE_DEFAULT_ITERATIONS);
    /* ... and no more than 2^21, about a second of CPU (12.6 s at 2^24) */
    CHECK(FASTSM2_PBE_MAX_ITERATIONS <= 2097152);
    CHECK_STATUS(fastsm2_privkey_serialize_encrypted(der, &len, &key, FASTSM2_KEYFMT_DER, FASTSM2_PBE_SHA256_AES256,
                                                     70000, "p", 1),
                 FASTSM2_OK);
    CHECK_STATUS(fastsm2_privkey_parse_encrypted_limit(&back, der, len, "p", 1, 69999, &iter), FASTSM2_ERR_ITERATIONS);
    CHECK(iter == 70000);
    CHECK_STATUS(fastsm2_privkey_parse_encrypted_limit(&back, der, len, "p", 1, 70000, &iter), FASTSM2_OK);
    CHECK(iter == 70000);
    CHECK_STATUS(fastsm2_privkey_parse_encrypted_limit(&back, der, len, "p", 1, 0, NULL), FASTSM2_OK);
    /* a count past the default limit: refused at once by default (the old
     * limit, 2^24, cost seconds of PBKDF2 first), read when raised */
    size_t at = find_iter(der, len, 70000);
    CHECK(at != 0);
    if (at) {
        static const uint32_t counts[] = {FASTSM2_PBE_MAX_ITERATIONS + 1u, 8388607u};
        for (size_t i = 0; i < 2; i++) {
            uint32_t c = counts[i];
            unsigned char bad[FASTSM2_PRIVKEY_ENCRYPTED_MAX];
            memcpy(bad, der, len);
            bad[at] = (unsigned char)(c >> 16), bad[at + 1] = (unsigned char)(c >> 8), bad[at + 2] = (unsigned char)c;
            iter = 0;
            CHECK_STATUS(fastsm2_privkey_parse_encrypted(&back, bad, len, "p", 1), FASTSM2_ERR_ITERATIONS);
            CHECK_STATUS(fastsm2_privkey_parse_encrypted_limit(&back, bad, len, "p", 1, 0, &iter),
                         FASTSM2_ERR_ITERATIONS);
            CHECK(iter == c);
        }
    }
    /* the callback parser */
    cb_state st = {"p", 0};
    CHECK_STATUS(fastsm2_privkey_parse_cb(&back, der, len, give_pw, &st, 0, &iter), FASTSM2_OK);
    CHECK(st.calls == 1 && iter == 70000);
    st.calls = 0;
    CHECK_STATUS(fastsm2_privkey_parse_cb(&back, der, len, give_pw, &st, 1000, &iter), FASTSM2_ERR_ITERATIONS);
    CHECK(st.calls == 0 && iter == 70000); /* not asked: the file is refused anyway */
    st.pw = "wrong";
    CHECK_STATUS(fastsm2_privkey_parse_cb(&back, der, len, give_pw, &st, 0, NULL), FASTSM2_ERR_PASSWORD);
    st.pw = NULL;
    CHECK_STATUS(fastsm2_privkey_parse_cb(&back, der, len, give_pw, &st, 0, NULL), FASTSM2_ERR_ENCRYPTED_KEY);
    CHECK_STATUS(fastsm2_privkey_parse_cb(&back, der, len, NULL, NULL, 0, NULL), FASTSM2_ERR_ENCRYPTED_KEY);
    st.calls = 0;
    st.pw = "p";
    CHECK_STATUS(fastsm2_privkey_serialize(plain, &plainlen, &key, FASTSM2_KEYFMT_PEM), FASTSM2_OK);
    iter = 5;
    CHECK_STATUS(fastsm2_privkey_parse_cb(&back, plain, plainlen, give_pw, &st, 0, &iter), FASTSM2_OK);
    CHECK(st.calls == 0 && iter == 0); /* a plain key: no password asked */
    fastsm2_privkey_clear(&key);
    fastsm2_privkey_clear(&back);
}

/* A certificate around spki, built by hand: version [0] EXPLICIT with the
 * given INTEGER contents (vlen 0: no version), the serial's contents, empty
 * signature/issuer/validity/subject SEQUENCEs, then `tail` (the optional
 * [1] [2] [3] fields). All lengths under 128. */
static size_t hand_cert(unsigned char *out, const unsigned char *ver, size_t vlen, const unsigned char *serial,
                        size_t slen, const unsigned char *spki, size_t spkilen, const unsigned char *tail,
                        size_t taillen)
{
    unsigned char tbs[200];
    size_t n = 0;
    if (vlen) {
        tbs[n++] = 0xA0, tbs[n++] = (unsigned char)(vlen + 2), tbs[n++] = 0x02, tbs[n++] = (unsigned char)vlen;
        memcpy(tbs + n, ver, vlen), n += vlen;
    }
    tbs[n++] = 0x02, tbs[n++] = (unsigned char)slen;
    if (slen) /* memcpy from NULL is undefined even for 0 bytes */
        memcpy(tbs + n, serial, slen), n += slen;
    for (int i = 0; i < 4; i++)
        tbs[n++] = 0x30, tbs[n++] = 0x00;
    memcpy(tbs + n, spki, spkilen), n += spkilen;
    if (taillen)
        memcpy(tbs + n, tail, taillen), n += taillen;
    size_t m = 0, body = 2 + n + 2 + 3;
    out[m++] = 0x30, out[m++] = (unsigned char)body;
    out[m++] = 0x30, out[m++] = (unsigned char)n;
    memcpy(out + m, tbs, n), m += n;
    out[m++] = 0x30, out[m++] = 0x00;
    out[m++] = 0x03, out[m++] = 0x01, out[m++] = 0x00;
    return m;
}

/* The certificate parser is strict where DER is (issue 34, defect 9): an
 * empty INTEGER as serial number (or version), a redundant leading byte, the
 * optional fields repeated or out of order are FASTSM2_ERR_DER. */
static void test_cert_strict(void)
{
    fastsm2_privkey key;
    fastsm2_pubkey pub, got;
    unsigned char spki[100], cert[256];
    size_t spkilen = sizeof spki, n;
    fs2t_keypair(&key, &pub);
    CHECK_STATUS(fastsm2_pubkey_serialize(spki, &spkilen, &pub, FASTSM2_KEYFMT_DER), FASTSM2_OK);
    CHECK(spkilen < 100);
    static const unsigned char v3[] = {0x02}, one[] = {0x01}, neg[] = {0x80}, long_ok[] = {0x00, 0x80},
                               zero_pad[] = {0x00, 0x01}, ff_pad[] = {0xFF, 0x80}, v3_pad[] = {0x00, 0x02};
    static const unsigned char ext3[] = {0xA3, 0x02, 0x30, 0x00}, ext13[] = {0xA1, 0x00, 0xA3, 0x02, 0x30, 0x00},
                               ext31[] = {0xA3, 0x02, 0x30, 0x00, 0xA1, 0x00},
                               ext33[] = {0xA3, 0x02, 0x30, 0x00, 0xA3, 0x02, 0x30, 0x00};
    /* well formed: read */
    n = hand_cert(cert, v3, 1, one, 1, spki, spkilen, NULL, 0);
    CHECK_STATUS(fastsm2_pubkey_parse_certificate(&got, cert, n), FASTSM2_OK);
    CHECK(same_pub(&pub, &got));
    n = hand_cert(cert, NULL, 0, neg, 1, spki, spkilen, ext13, sizeof ext13); /* v1, negative serial */
    CHECK_STATUS(fastsm2_pubkey_parse_certificate(&got, cert, n), FASTSM2_OK);
    n = hand_cert(cert, v3, 1, long_ok, 2, spki, spkilen, ext3, sizeof ext3);
    CHECK_STATUS(fastsm2_pubkey_parse_certificate(&got, cert, n), FASTSM2_OK);
    /* not DER */
    n = hand_cert(cert, v3, 1, NULL, 0, spki, spkilen, NULL, 0); /* empty serial */
    CHECK_STATUS(fastsm2_pubkey_parse_certificate(&got, cert, n), FASTSM2_ERR_DER);
    n = hand_cert(cert, v3, 1, zero_pad, 2, spki, spkilen, NULL, 0);
    CHECK_STATUS(fastsm2_pubkey_parse_certificate(&got, cert, n), FASTSM2_ERR_DER);
    n = hand_cert(cert, v3, 1, ff_pad, 2, spki, spkilen, NULL, 0);
    CHECK_STATUS(fastsm2_pubkey_parse_certificate(&got, cert, n), FASTSM2_ERR_DER);
    n = hand_cert(cert, v3_pad, 2, one, 1, spki, spkilen, NULL, 0);
    CHECK_STATUS(fastsm2_pubkey_parse_certificate(&got, cert, n), FASTSM2_ERR_DER);
    n = hand_cert(cert, v3, 1, one, 1, spki, spkilen, ext31, sizeof ext31);
    CHECK_STATUS(fastsm2_pubkey_parse_certificate(&got, cert, n), FASTSM2_ERR_DER);
    n = hand_cert(cert, v3, 1, one, 1, spki, spkilen, ext33, sizeof ext33);
    CHECK_STATUS(fastsm2_pubkey_parse_certificate(&got, cert, n), FASTSM2_ERR_DER);
    /* an empty version INTEGER ([0] { 02 00 }) */
    n = hand_cert(cert, v3, 1, one, 1, spki, spkilen, NULL, 0);
    cert[4] = 0xA0, cert[5] = 0x02, cert[6] = 0x02, cert[7] = 0x00, cert[8] = 0x02,
    cert[9] = 0x02; /* serial 02 02 01 .. */
    CHECK_STATUS(fastsm2_pubkey_parse_certificate(&got, cert, n), FASTSM2_ERR_DER);
    fastsm2_privkey_clear(&key);
}

int main(void)
{
    test_cert_strict();
    test_iteration_limit();
    test_gmssl_fixtures();
    test_round_trips();
    test_openssl_encrypted();
    test_corruption();
    test_named_errors();
    test_fuzz();
    return fs2t_finish("test_keyfile_enc");
}
