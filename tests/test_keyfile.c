/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Key files: PKCS#8 / SEC1 private keys and SPKI public keys, in DER and
 * PEM. OpenSSL 3's libcrypto is the reference: our outputs must be
 * byte-identical to its, its files must load here and ours there. Then a
 * table of bad inputs with the exact error each must give, and a mutation
 * fuzz (run under ASan too).
 */
#include "testossl.h"

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <stdlib.h>
#include <string.h>

/* Files made by the openssl 3.0 command line: `openssl genpkey -algorithm
 * SM2`, `openssl ec -in k.pem` (OpenSSL 3.0 labels it SM2 PRIVATE KEY) and
 * `openssl pkey -in k.pem -pubout`. */
static const char file_pkcs8_pem[] = "-----BEGIN PRIVATE KEY-----\n"
                                     "MIGHAgEAMBMGByqGSM49AgEGCCqBHM9VAYItBG0wawIBAQQgIR9dVybywS6XYse4\n"
                                     "rYKyCFpYFdzmt6bOH5MLXY3o9bKhRANCAASIaTMLSpJMaSQyVEhQXYnV8Mx8vall\n"
                                     "AH/nrSMyi4PnsciRZWYLnG8iq7Izhr5Lk9U8oWrX3476MVv95klSuDDM\n"
                                     "-----END PRIVATE KEY-----\n";
static const char file_sec1_pem[] = "-----BEGIN SM2 PRIVATE KEY-----\n"
                                    "MHcCAQEEICEfXVcm8sEul2LHuK2CsghaWBXc5remzh+TC12N6PWyoAoGCCqBHM9V\n"
                                    "AYItoUQDQgAEiGkzC0qSTGkkMlRIUF2J1fDMfL2pZQB/560jMouD57HIkWVmC5xv\n"
                                    "IquyM4a+S5PVPKFq19+O+jFb/eZJUrgwzA==\n"
                                    "-----END SM2 PRIVATE KEY-----\n";
static const char file_spki_pem[] = "-----BEGIN PUBLIC KEY-----\n"
                                    "MFkwEwYHKoZIzj0CAQYIKoEcz1UBgi0DQgAEiGkzC0qSTGkkMlRIUF2J1fDMfL2p\n"
                                    "ZQB/560jMouD57HIkWVmC5xvIquyM4a+S5PVPKFq19+O+jFb/eZJUrgwzA==\n"
                                    "-----END PUBLIC KEY-----\n";
static const char file_d_hex[] = "211F5D5726F2C12E9762C7B8AD82B2085A5815DCE6B7A6CE1F930B5D8DE8F5B2";

static const unsigned char oid_sm2[] = {0x06, 0x08, 0x2A, 0x81, 0x1C, 0xCF, 0x55, 0x01, 0x82, 0x2D};
static const unsigned char oid_p256[] = {0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07};

/* ---- helpers --------------------------------------------------------------- */

/* PEM armour as OpenSSL's generic writer makes it, for any label. */
static size_t ossl_pem(unsigned char *out, size_t cap, const char *label, const unsigned char *der, size_t derlen)
{
    BIO *b = BIO_new(BIO_s_mem());
    CHECK(PEM_write_bio(b, label, "", der, (long)derlen) > 0);
    return fs2t_bio_drain(b, out, cap);
}

/* ---- PEM armour ----------------------------------------------------------- */

/* Parse text as a private key; compare d when OK. */
static int parse_priv_text(const char *text, unsigned char d[32])
{
    fastsm2_privkey key;
    int ret = fastsm2_privkey_parse(&key, (const unsigned char *)text, strlen(text));
    if (ret == FASTSM2_OK)
        CHECK(fastsm2_privkey_to_bytes(d, &key) == FASTSM2_OK);
    else
        CHECK(fs2t_all_zero((const unsigned char *)&key, sizeof key));
    return ret;
}

/* s with the first `from` replaced by `to`; the result lives in one of four
 * rotating buffers, so calls may nest. */
static char *replace(const char *s, const char *from, const char *to)
{
    static char bufs[4][4096];
    static int next;
    char *buf = bufs[next++ & 3];
    const char *at = strstr(s, from);
    if (at == NULL) {
        fprintf(stderr, "replace: '%s' not found\n", from);
        exit(2);
    }
    size_t pre = (size_t)(at - s);
    snprintf(buf, sizeof bufs[0], "%.*s%s%s", (int)pre, s, to, at + strlen(from));
    return buf;
}

static void test_openssl_files(void)
{
    unsigned char d[32], want_d[32], out[1024];
    size_t len;
    fastsm2_privkey key;
    fastsm2_pubkey pub;

    fs2t_unhex(want_d, 32, file_d_hex);
    CHECK_STATUS(parse_priv_text(file_pkcs8_pem, d), FASTSM2_OK);
    CHECK(memcmp(d, want_d, 32) == 0);
    CHECK_STATUS(parse_priv_text(file_sec1_pem, d), FASTSM2_OK);
    CHECK(memcmp(d, want_d, 32) == 0);

    /* Serialize: byte-identical to the files openssl wrote. */
    CHECK_STATUS(fastsm2_privkey_parse(&key, (const unsigned char *)file_sec1_pem, strlen(file_sec1_pem)), FASTSM2_OK);
    len = sizeof out;
    CHECK_STATUS(fastsm2_privkey_serialize(out, &len, &key, FASTSM2_KEYFMT_PKCS8 | FASTSM2_KEYFMT_PEM), FASTSM2_OK);
    CHECK(len == strlen(file_pkcs8_pem) && memcmp(out, file_pkcs8_pem, len) == 0 && out[len] == 0);
    len = sizeof out;
    CHECK_STATUS(fastsm2_privkey_serialize(out, &len, &key, FASTSM2_KEYFMT_SEC1 | FASTSM2_KEYFMT_PEM), FASTSM2_OK);
    /* Same bytes but for the label: we write RFC 5915's EC PRIVATE KEY. */
    char *sec1_ec = replace(file_sec1_pem, "BEGIN SM2", "BEGIN EC");
    sec1_ec = replace(sec1_ec, "END SM2", "END EC");
    CHECK(len == strlen(sec1_ec) && memcmp(out, sec1_ec, len) == 0);
    CHECK_STATUS(fastsm2_privkey_pubkey(&pub, &key), FASTSM2_OK);
    len = sizeof out;
    CHECK_STATUS(fastsm2_pubkey_serialize(out, &len, &pub, FASTSM2_KEYFMT_PEM), FASTSM2_OK);
    CHECK(len == strlen(file_spki_pem) && memcmp(out, file_spki_pem, len) == 0);

    /* The public key file parses to the same key. */
    fastsm2_pubkey pub2;
    unsigned char p1[65], p2[65];
    size_t l1 = 65, l2 = 65;
    CHECK_STATUS(fastsm2_pubkey_parse(&pub2, (const unsigned char *)file_spki_pem, strlen(file_spki_pem)), FASTSM2_OK);
    CHECK(fastsm2_pubkey_to_bytes(p1, &l1, &pub, 0) == FASTSM2_OK);
    CHECK(fastsm2_pubkey_to_bytes(p2, &l2, &pub2, 0) == FASTSM2_OK);
    CHECK(l1 == 65 && l2 == 65 && memcmp(p1, p2, 65) == 0);
    /* Bare SEC1 points, both forms. */
    CHECK_STATUS(fastsm2_pubkey_parse(&pub2, p1, 65), FASTSM2_OK);
    l2 = 33;
    CHECK(fastsm2_pubkey_to_bytes(p2, &l2, &pub, 1) == FASTSM2_OK);
    CHECK_STATUS(fastsm2_pubkey_parse(&pub2, p2, 33), FASTSM2_OK);
    l2 = 65;
    CHECK(fastsm2_pubkey_to_bytes(p2, &l2, &pub2, 0) == FASTSM2_OK && memcmp(p1, p2, 65) == 0);
    fastsm2_privkey_clear(&key);

    /* `openssl ecparam -genkey` output: a parameters block first; text
     * around the blocks; CRLF line ends; a PUBLIC KEY before a private one. */
    char text[4096];
    snprintf(text, sizeof text,
             "Key made by openssl\r\n-----BEGIN SM2 PARAMETERS-----\r\nBggqgRzPVQGCLQ==\r\n"
             "-----END SM2 PARAMETERS-----\r\n%s%s trailing words\n",
             file_spki_pem, file_pkcs8_pem);
    CHECK_STATUS(parse_priv_text(text, d), FASTSM2_OK);
    CHECK(memcmp(d, want_d, 32) == 0);
    CHECK_STATUS(fastsm2_pubkey_parse(&pub2, (const unsigned char *)text, strlen(text)), FASTSM2_OK);
    snprintf(text, sizeof text, "%s", file_pkcs8_pem);
    for (char *p = text; (p = strchr(p, '\n')) != NULL; p += 2) { /* LF -> CRLF, in place */
        memmove(p + 1, p, strlen(p) + 1);
        *p = '\r';
    }
    CHECK_STATUS(parse_priv_text(text, d), FASTSM2_OK);
    CHECK(memcmp(d, want_d, 32) == 0);
    /* Base64 in odd line lengths and with spaces. */
    CHECK_STATUS(parse_priv_text(replace(file_pkcs8_pem, "BAQQgIR9dV", "BAQQg\n IR9d\tV"), d), FASTSM2_OK);
    CHECK(memcmp(d, want_d, 32) == 0);
}

static void test_pem_bad(void)
{
    unsigned char d[32];
    fastsm2_pubkey pub;
    const char *t;

    /* Edits of OpenSSL's files and the status each must give. */
    static const struct {
        const char *file, *from, *to;
        int want;
    } edits[] = {
        /* Bad base64 character, misplaced padding, non-zero pad bits, a
         * truncated group, data after the padding. */
        {file_pkcs8_pem, "MIGHAgEA", "MIGHA*EA", FASTSM2_ERR_PEM},
        {file_pkcs8_pem, "MIGHAgEA", "MIGHAgE=", FASTSM2_ERR_PEM},
        {file_pkcs8_pem, "MIGHAgEA", "MI=HAgEA", FASTSM2_ERR_PEM},
        {file_sec1_pem, "wzA==", "wzB==", FASTSM2_ERR_PEM},
        {file_sec1_pem, "wzA==", "wzA=", FASTSM2_ERR_PEM},
        {file_sec1_pem, "wzA==", "wzA", FASTSM2_ERR_PEM},
        {file_sec1_pem, "wzA==", "wzA====", FASTSM2_ERR_PEM},
        {file_sec1_pem, "wzA==", "wzA==AAAA", FASTSM2_ERR_PEM},
        {file_sec1_pem, "wzA==", "wzA=\n=", FASTSM2_OK},
        {file_sec1_pem, "wzA==", "wz===", FASTSM2_ERR_PEM},
        {file_sec1_pem, "wzA==", "wzA==\n====", FASTSM2_ERR_PEM},
        /* Missing END line, END label that differs, no BEGIN, BEGIN inside. */
        {file_pkcs8_pem, "-----END PRIVATE KEY-----\n", "", FASTSM2_ERR_PEM},
        {file_pkcs8_pem, "END PRIVATE KEY", "END PUBLIC KEY", FASTSM2_ERR_PEM},
        {file_pkcs8_pem, "-----END PRIVATE KEY-----", "-----END PRIVATE KEY", FASTSM2_ERR_PEM},
        {file_pkcs8_pem, "-----BEGIN PRIVATE KEY-----\n", "", FASTSM2_ERR_PEM},
        {file_pkcs8_pem, "AH/nrSMy", "-----BEGIN X-----\nAH/nrSMy", FASTSM2_ERR_PEM},
    };
    for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) {
        int st = parse_priv_text(replace(edits[i].file, edits[i].from, edits[i].to), d);
        CHECK_STATUS(st, edits[i].want);
        if (st != edits[i].want)
            fprintf(stderr, "  edit %zu: \"%s\" -> \"%s\"\n", i, edits[i].from, edits[i].to);
    }
    CHECK_STATUS(parse_priv_text("", d), FASTSM2_ERR_PEM);
    CHECK_STATUS(parse_priv_text("hello", d), FASTSM2_ERR_PEM);
    CHECK_STATUS(parse_priv_text(file_spki_pem, d), FASTSM2_ERR_PUBLIC_KEY); /* a public key, not a private one */
    /* A body that decodes to a non-key. */
    CHECK_STATUS(parse_priv_text("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", d), FASTSM2_ERR_DER);
    CHECK_STATUS(parse_priv_text("-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----\n", d), FASTSM2_ERR_DER);
    /* Encrypted keys: PKCS#8 and the old OpenSSL headers. */
    t = "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIBAA==\n-----END ENCRYPTED PRIVATE KEY-----\n";
    CHECK_STATUS(parse_priv_text(t, d), FASTSM2_ERR_DER); /* labelled encrypted, not a key at all */
    t = "-----BEGIN EC PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: "
        "AES-128-CBC,00112233445566778899AABBCCDDEEFF\n\n"
        "MHcCAQEEICEfXVcm8sEul2LHuK2CsghaWBXc5remzh+TC12N6PWyoAoGCCqBHM9V\n"
        "-----END EC PRIVATE KEY-----\n";
    CHECK_STATUS(parse_priv_text(t, d), FASTSM2_ERR_KEY_CIPHER);
    /* Other key types by label. */
    CHECK_STATUS(parse_priv_text(replace(replace(file_pkcs8_pem, "BEGIN PRIVATE", "BEGIN RSA PRIVATE"), "END PRIVATE",
                                         "END RSA PRIVATE"),
                                 d),
                 FASTSM2_ERR_KEY_FORMAT);
    CHECK_STATUS(fastsm2_pubkey_parse(&pub, (const unsigned char *)"hello", 5), FASTSM2_ERR_PEM);
    t = replace(file_spki_pem, "wzA==", "wz*==");
    CHECK_STATUS(fastsm2_pubkey_parse(&pub, (const unsigned char *)t, strlen(t)), FASTSM2_ERR_PEM);
    t = replace(file_spki_pem, "-----END PUBLIC KEY-----\n", "");
    CHECK_STATUS(fastsm2_pubkey_parse(&pub, (const unsigned char *)t, strlen(t)), FASTSM2_ERR_PEM);
    CHECK(fs2t_all_zero((const unsigned char *)&pub, sizeof pub));
    CHECK_STATUS(fastsm2_privkey_parse(NULL, (const unsigned char *)"x", 1), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_pubkey_parse(&pub, NULL, 1), FASTSM2_ERR_ARG);
}

/* ---- key files against OpenSSL -------------------------------------------- */

static void test_keys_vs_openssl(void)
{
    for (int iter = 0; iter < 12; iter++) {
        EVP_PKEY *k = fs2t_ossl_keygen(NULL, NULL);
        unsigned char want[1024], got[1024], d[32], d2[32];
        size_t wlen, glen;
        fastsm2_privkey key;
        fastsm2_pubkey pub;

        CHECK(fs2t_ossl_priv_bytes(k, d));
        CHECK_STATUS(fastsm2_privkey_from_bytes(&key, d), FASTSM2_OK);
        CHECK_STATUS(fastsm2_privkey_pubkey(&pub, &key), FASTSM2_OK);

        /* PKCS#8 DER and PEM. */
        wlen = fs2t_ossl_write_key_to(want, sizeof want, k, FS2T_DER_PKCS8);
        glen = sizeof got;
        CHECK_STATUS(fastsm2_privkey_serialize(got, &glen, &key, FASTSM2_KEYFMT_PKCS8 | FASTSM2_KEYFMT_DER),
                     FASTSM2_OK);
        CHECK(wlen == 138 && glen == wlen && memcmp(got, want, wlen) == 0);
        wlen = fs2t_ossl_write_key_to(want, sizeof want, k, FS2T_PEM_PKCS8);
        glen = sizeof got;
        CHECK_STATUS(fastsm2_privkey_serialize(got, &glen, &key, FASTSM2_KEYFMT_PKCS8 | FASTSM2_KEYFMT_PEM),
                     FASTSM2_OK);
        CHECK(glen == wlen && memcmp(got, want, wlen) == 0 && got[glen] == 0);
        /* ... and they load here. */
        fastsm2_privkey key2;
        CHECK_STATUS(fastsm2_privkey_parse(&key2, want, wlen), FASTSM2_OK);
        CHECK(fastsm2_privkey_to_bytes(d2, &key2) == FASTSM2_OK && memcmp(d, d2, 32) == 0);

        /* SEC1 DER (openssl ec -outform DER) and PEM. */
        wlen = fs2t_ossl_write_key_to(want, sizeof want, k, FS2T_DER_SEC1);
        glen = sizeof got;
        CHECK_STATUS(fastsm2_privkey_serialize(got, &glen, &key, FASTSM2_KEYFMT_SEC1 | FASTSM2_KEYFMT_DER), FASTSM2_OK);
        CHECK(wlen == 121 && glen == wlen && memcmp(got, want, wlen) == 0);
        CHECK_STATUS(fastsm2_privkey_parse(&key2, want, wlen), FASTSM2_OK);
        CHECK(fastsm2_privkey_to_bytes(d2, &key2) == FASTSM2_OK && memcmp(d, d2, 32) == 0);
        unsigned char sec1[200];
        memcpy(sec1, want, wlen);
        size_t sec1len = wlen;
        wlen = ossl_pem(want, sizeof want, "EC PRIVATE KEY", sec1, sec1len);
        glen = sizeof got;
        CHECK_STATUS(fastsm2_privkey_serialize(got, &glen, &key, FASTSM2_KEYFMT_SEC1 | FASTSM2_KEYFMT_PEM), FASTSM2_OK);
        CHECK(glen == wlen && memcmp(got, want, wlen) == 0);

        /* Ours load in OpenSSL. */
        EVP_PKEY *back = fs2t_ossl_read_key(NULL, got, glen, FS2T_PEM_SEC1);
        CHECK(back != NULL);
        if (back != NULL) {
            CHECK(fs2t_ossl_priv_bytes(back, d2));
            CHECK(memcmp(d, d2, 32) == 0);
            EVP_PKEY_free(back);
        }
        glen = sizeof got;
        CHECK_STATUS(fastsm2_privkey_serialize(got, &glen, &key, FASTSM2_KEYFMT_PKCS8 | FASTSM2_KEYFMT_DER),
                     FASTSM2_OK);
        back = fs2t_ossl_read_key(NULL, got, glen, FS2T_DER_PKCS8); /* no bytes after the key */
        CHECK(back != NULL);
        if (back != NULL) {
            CHECK(fs2t_ossl_priv_bytes(back, d2));
            CHECK(memcmp(d, d2, 32) == 0);
            EVP_PKEY_free(back);
        }

        /* SPKI DER and PEM, both ways. */
        wlen = fs2t_ossl_write_key_to(want, sizeof want, k, FS2T_DER_SPKI);
        glen = sizeof got;
        CHECK_STATUS(fastsm2_pubkey_serialize(got, &glen, &pub, FASTSM2_KEYFMT_DER), FASTSM2_OK);
        CHECK(wlen == 91 && glen == wlen && memcmp(got, want, wlen) == 0);
        fastsm2_pubkey pub2;
        unsigned char p1[65], p2[65];
        size_t l1 = 65, l2 = 65;
        CHECK_STATUS(fastsm2_pubkey_parse(&pub2, want, wlen), FASTSM2_OK);
        CHECK(fastsm2_pubkey_to_bytes(p1, &l1, &pub, 0) == FASTSM2_OK);
        CHECK(fastsm2_pubkey_to_bytes(p2, &l2, &pub2, 0) == FASTSM2_OK && memcmp(p1, p2, 65) == 0);
        back = fs2t_ossl_read_key(NULL, got, glen, FS2T_DER_SPKI);
        CHECK(back != NULL);
        EVP_PKEY_free(back);
        wlen = fs2t_ossl_write_key_to(want, sizeof want, k, FS2T_PEM_SPKI);
        glen = sizeof got;
        CHECK_STATUS(fastsm2_pubkey_serialize(got, &glen, &pub, FASTSM2_KEYFMT_PEM), FASTSM2_OK);
        CHECK(glen == wlen && memcmp(got, want, wlen) == 0);
        CHECK_STATUS(fastsm2_pubkey_parse(&pub2, want, wlen), FASTSM2_OK);

        fastsm2_privkey_clear(&key);
        fastsm2_privkey_clear(&key2);
        EVP_PKEY_free(k);
    }
}

/* ---- key files: bad inputs ---------------------------------------------- */

/* SEC1 ECPrivateKey by hand: d of dlen bytes, optional params OID (10 bytes
 * with its tag) and optional point. */
static size_t make_sec1(unsigned char *out, const unsigned char *d, size_t dlen, const unsigned char *params,
                        const unsigned char *pt, size_t ptlen)
{
    size_t o = 2;
    out[0] = 0x30;
    out[o++] = 2, out[o++] = 1, out[o++] = 1;
    out[o++] = 4, out[o++] = (unsigned char)dlen;
    memcpy(out + o, d, dlen), o += dlen;
    if (params != NULL) {
        out[o++] = 0xA0, out[o++] = 10;
        memcpy(out + o, params, 10), o += 10;
    }
    if (pt != NULL) {
        out[o++] = 0xA1, out[o++] = (unsigned char)(ptlen + 3);
        out[o++] = 3, out[o++] = (unsigned char)(ptlen + 1), out[o++] = 0;
        memcpy(out + o, pt, ptlen), o += ptlen;
    }
    out[1] = (unsigned char)(o - 2);
    return o;
}

/* PKCS#8 by hand around an inner ECPrivateKey, with an AlgorithmIdentifier
 * body given raw (algid, alglen) and a version. */
static size_t make_pkcs8(unsigned char *out, int version, const unsigned char *algid, size_t alglen,
                         const unsigned char *inner, size_t innerlen)
{
    size_t o = 3;
    out[0] = 0x30, out[1] = 0x81;
    out[o++] = 2, out[o++] = 1, out[o++] = (unsigned char)version;
    out[o++] = 0x30, out[o++] = (unsigned char)alglen;
    memcpy(out + o, algid, alglen), o += alglen;
    out[o++] = 4, out[o++] = (unsigned char)innerlen;
    memcpy(out + o, inner, innerlen), o += innerlen;
    if (o - 3 < 0x80) { /* short form */
        memmove(out + 2, out + 3, o - 3);
        out[1] = (unsigned char)(o - 3);
        return o - 1;
    }
    out[2] = (unsigned char)(o - 3);
    return o;
}

static int parse_priv(const unsigned char *in, size_t len)
{
    fastsm2_privkey key;
    memset(&key, 0xAA, sizeof key);
    int ret = fastsm2_privkey_parse(&key, in, len);
    if (ret != FASTSM2_OK)
        CHECK(fs2t_all_zero((const unsigned char *)&key, sizeof key));
    return ret;
}

static int parse_pub(const unsigned char *in, size_t len)
{
    fastsm2_pubkey pub;
    int ret = fastsm2_pubkey_parse(&pub, in, len);
    if (ret != FASTSM2_OK)
        CHECK(fs2t_all_zero((const unsigned char *)&pub, sizeof pub));
    return ret;
}

static void test_keys_bad(void)
{
    unsigned char d[32], pt[65], ptc[33], buf[400], buf2[400], der[1024];
    size_t len, ptlen = 65, ptclen = 33;
    fastsm2_privkey key;
    fastsm2_pubkey pub;
    static const unsigned char algid_ec[] = {0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06,
                                             0x08, 0x2A, 0x81, 0x1C, 0xCF, 0x55, 0x01, 0x82, 0x2D};

    fs2t_unhex(d, 32, file_d_hex);
    CHECK_STATUS(fastsm2_privkey_from_bytes(&key, d), FASTSM2_OK);
    CHECK_STATUS(fastsm2_privkey_pubkey(&pub, &key), FASTSM2_OK);
    CHECK(fastsm2_pubkey_to_bytes(pt, &ptlen, &pub, 0) == FASTSM2_OK && ptlen == 65);
    CHECK(fastsm2_pubkey_to_bytes(ptc, &ptclen, &pub, 1) == FASTSM2_OK && ptclen == 33);

    /* Hand-made SEC1 forms: no params, no point, compressed point. */
    len = make_sec1(buf, d, 32, NULL, NULL, 0);
    CHECK_STATUS(parse_priv(buf, len), FASTSM2_OK);
    len = make_sec1(buf, d, 32, oid_sm2, ptc, 33);
    CHECK_STATUS(parse_priv(buf, len), FASTSM2_OK);
    /* d shorter than 32 bytes is left-padded; 0 or 33 bytes are refused. */
    {
        unsigned char small[32] = {0};
        small[31] = 7;
        len = make_sec1(buf, small + 30, 2, oid_sm2, NULL, 0);
        CHECK_STATUS(fastsm2_privkey_parse(&key, buf, len), FASTSM2_OK);
        unsigned char got[32];
        CHECK(fastsm2_privkey_to_bytes(got, &key) == FASTSM2_OK && memcmp(got, small, 32) == 0);
        len = make_sec1(buf, small, 0, oid_sm2, NULL, 0);
        CHECK_STATUS(parse_priv(buf, len), FASTSM2_ERR_PRIVATE_KEY);
        unsigned char d33[33] = {0};
        memcpy(d33 + 1, d, 32);
        len = make_sec1(buf, d33, 33, oid_sm2, NULL, 0);
        CHECK_STATUS(parse_priv(buf, len), FASTSM2_ERR_PRIVATE_KEY);
    }
    /* d = 0, n - 1, n, 2^256 - 1 -> PRIVATE_KEY; n - 2 is the largest. */
    {
        unsigned char bad_d[32];
        memset(bad_d, 0, 32);
        len = make_sec1(buf, bad_d, 32, oid_sm2, NULL, 0);
        CHECK_STATUS(parse_priv(buf, len), FASTSM2_ERR_PRIVATE_KEY);
        len = make_pkcs8(der, 0, algid_ec, sizeof algid_ec, buf, len);
        CHECK_STATUS(parse_priv(der, len), FASTSM2_ERR_PRIVATE_KEY);
        memcpy(bad_d, fs2t_n, 32);
        bad_d[31] -= 1;
        len = make_sec1(buf, bad_d, 32, oid_sm2, NULL, 0);
        CHECK_STATUS(parse_priv(buf, len), FASTSM2_ERR_PRIVATE_KEY);
        len = make_pkcs8(der, 0, algid_ec, sizeof algid_ec, buf, len);
        CHECK_STATUS(parse_priv(der, len), FASTSM2_ERR_PRIVATE_KEY);
        memcpy(bad_d, fs2t_n, 32);
        len = make_sec1(buf, bad_d, 32, oid_sm2, NULL, 0);
        CHECK_STATUS(parse_priv(buf, len), FASTSM2_ERR_PRIVATE_KEY);
        memset(bad_d, 0xFF, 32);
        len = make_sec1(buf, bad_d, 32, oid_sm2, NULL, 0);
        CHECK_STATUS(parse_priv(buf, len), FASTSM2_ERR_PRIVATE_KEY);
        memcpy(bad_d, fs2t_n, 32);
        bad_d[31] -= 2;
        len = make_sec1(buf, bad_d, 32, oid_sm2, NULL, 0);
        CHECK_STATUS(parse_priv(buf, len), FASTSM2_OK);
    }
    /* Embedded public key that does not match d: in SEC1, PKCS#8, compressed,
     * of another length, with another prefix. */
    {
        unsigned char wrong[65];
        memcpy(wrong, pt, 65);
        wrong[64] ^= 1;
        len = make_sec1(buf, d, 32, oid_sm2, wrong, 65);
        CHECK_STATUS(parse_priv(buf, len), FASTSM2_ERR_POINT);
        size_t l8 = make_pkcs8(der, 0, algid_ec, sizeof algid_ec, buf, len);
        CHECK_STATUS(parse_priv(der, l8), FASTSM2_ERR_POINT);
        unsigned char wc[33];
        memcpy(wc, ptc, 33);
        wc[0] ^= 1; /* the other y */
        len = make_sec1(buf, d, 32, oid_sm2, wc, 33);
        CHECK_STATUS(parse_priv(buf, len), FASTSM2_ERR_POINT);
        len = make_sec1(buf, d, 32, oid_sm2, pt, 64);
        CHECK_STATUS(parse_priv(buf, len), FASTSM2_ERR_POINT);
        /* the hybrid form (GB/T 32918.1 4.2.10): read when its prefix has
         * y's parity, refused with the other */
        memcpy(wrong, pt, 65);
        wrong[0] = (unsigned char)(0x07 ^ (pt[64] & 1)); /* the wrong parity */
        len = make_sec1(buf, d, 32, oid_sm2, wrong, 65);
        CHECK_STATUS(parse_priv(buf, len), FASTSM2_ERR_POINT);
        wrong[0] = (unsigned char)(0x06 | (pt[64] & 1));
        len = make_sec1(buf, d, 32, oid_sm2, wrong, 65);
        CHECK_STATUS(parse_priv(buf, len), FASTSM2_OK);
        wrong[64] ^= 1; /* another y, its parity in the prefix: still not the key's */
        wrong[0] ^= 1;
        len = make_sec1(buf, d, 32, oid_sm2, wrong, 65);
        CHECK_STATUS(parse_priv(buf, len), FASTSM2_ERR_POINT);
        /* Key of another d's public key. */
        fastsm2_privkey other;
        fastsm2_pubkey opub;
        unsigned char d2[32], opt[65];
        size_t oplen = 65;
        memcpy(d2, d, 32);
        d2[31] ^= 0x40;
        CHECK_STATUS(fastsm2_privkey_from_bytes(&other, d2), FASTSM2_OK);
        CHECK(fastsm2_privkey_pubkey(&opub, &other) == FASTSM2_OK);
        CHECK(fastsm2_pubkey_to_bytes(opt, &oplen, &opub, 0) == FASTSM2_OK);
        len = make_sec1(buf, d, 32, oid_sm2, opt, 65);
        CHECK_STATUS(parse_priv(buf, len), FASTSM2_ERR_POINT);
        fastsm2_privkey_clear(&other);
    }
    /* Curve parameters in SEC1: P-256 -> CURVE; NULL (implicit) KEY_FORMAT. */
    len = make_sec1(buf, d, 32, oid_p256, pt, 65);
    CHECK_STATUS(parse_priv(buf, len), FASTSM2_ERR_CURVE);
    {
        static const unsigned char null_param[10] = {0x05, 0x00, 0x05, 0x00, 0x05, 0x00, 0x05, 0x00, 0x05, 0x00};
        len = make_sec1(buf, d, 32, null_param, NULL, 0);
        CHECK_STATUS(parse_priv(buf, len), FASTSM2_ERR_KEY_FORMAT);
    }
    /* A trailing element inside the ECPrivateKey, and after it. */
    len = make_sec1(buf, d, 32, oid_sm2, pt, 65);
    buf[1] += 2, buf[len] = 5, buf[len + 1] = 0;
    CHECK_STATUS(parse_priv(buf, len + 2), FASTSM2_ERR_DER);
    buf[1] -= 2;
    CHECK_STATUS(parse_priv(buf, len + 2), FASTSM2_ERR_DER);
    /* [0] and [1] swapped. */
    {
        size_t l2 = make_sec1(buf2, d, 32, NULL, pt, 65);
        memcpy(buf2 + l2, buf + 39, 12);
        buf2[1] += 12;
        CHECK_STATUS(parse_priv(buf2, l2 + 12), FASTSM2_ERR_DER);
    }
    /* SEC1 version 2. */
    len = make_sec1(buf, d, 32, oid_sm2, pt, 65);
    buf[4] = 2;
    CHECK_STATUS(parse_priv(buf, len), FASTSM2_ERR_KEY_FORMAT);

    /* PKCS#8 with the SM2 OID flavour: parameters absent, NULL, the curve. */
    size_t innerlen = make_sec1(buf, d, 32, NULL, pt, 65);
    {
        /* The AlgorithmIdentifier's contents and the status each gives. */
        static const struct {
            unsigned char alg[24];
            size_t len;
            int want;
        } algs[] = {
            /* id-sm2 (1.2.156.10197.1.301) with parameters absent, NULL,
             * the curve */
            {{0x06, 0x08, 0x2A, 0x81, 0x1C, 0xCF, 0x55, 0x01, 0x82, 0x2D}, 10, FASTSM2_OK},
            {{0x06, 0x08, 0x2A, 0x81, 0x1C, 0xCF, 0x55, 0x01, 0x82, 0x2D, 0x05, 0x00}, 12, FASTSM2_OK},
            {{0x06, 0x08, 0x2A, 0x81, 0x1C, 0xCF, 0x55, 0x01, 0x82, 0x2D,
              0x06, 0x08, 0x2A, 0x81, 0x1C, 0xCF, 0x55, 0x01, 0x82, 0x2D},
             20,
             FASTSM2_OK},
            /* ... but not with the P-256 curve, nor an INTEGER */
            {{0x06, 0x08, 0x2A, 0x81, 0x1C, 0xCF, 0x55, 0x01, 0x82, 0x2D,
              0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07},
             20,
             FASTSM2_ERR_CURVE},
            {{0x06, 0x08, 0x2A, 0x81, 0x1C, 0xCF, 0x55, 0x01, 0x82, 0x2D, 0x02, 0x01, 0x01},
             13,
             FASTSM2_ERR_KEY_FORMAT},
            /* id-ecPublicKey with P-256, NULL, absent, explicit parameters */
            {{0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03,
              0x01, 0x07},
             19,
             FASTSM2_ERR_CURVE},
            {{0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x05, 0x00}, 11, FASTSM2_ERR_KEY_FORMAT},
            {{0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01}, 9, FASTSM2_ERR_KEY_FORMAT},
            {{0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x30, 0x03, 0x02, 0x01, 0x01},
             14,
             FASTSM2_ERR_KEY_FORMAT},
            /* rsaEncryption with NULL */
            {{0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01, 0x05, 0x00},
             13,
             FASTSM2_ERR_KEY_FORMAT},
            /* a third element after id-ecPublicKey, the SM2 curve */
            {{0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x08,
              0x2A, 0x81, 0x1C, 0xCF, 0x55, 0x01, 0x82, 0x2D, 0x05, 0x00},
             21,
             FASTSM2_ERR_DER},
        };
        for (size_t i = 0; i < sizeof algs / sizeof algs[0]; i++) {
            len = make_pkcs8(der, 0, algs[i].alg, algs[i].len, buf, innerlen);
            int st = parse_priv(der, len);
            CHECK_STATUS(st, algs[i].want);
            if (st != algs[i].want)
                fprintf(stderr, "  AlgorithmIdentifier %zu\n", i);
        }
        /* Version 2 PKCS#8. */
        len = make_pkcs8(der, 2, algid_ec, sizeof algid_ec, buf, innerlen);
        CHECK_STATUS(parse_priv(der, len), FASTSM2_ERR_KEY_FORMAT);
        /* Inner [0] parameters naming P-256 in an SM2 PKCS#8. */
        size_t il = make_sec1(buf2, d, 32, oid_p256, NULL, 0);
        len = make_pkcs8(der, 0, algid_ec, sizeof algid_ec, buf2, il);
        CHECK_STATUS(parse_priv(der, len), FASTSM2_ERR_CURVE);
    }
    /* PKCS#8 with attributes [0] (skipped), and v2 with [1] publicKey. */
    {
        size_t l8 = make_pkcs8(der, 0, algid_ec, sizeof algid_ec, buf, innerlen);
        static const unsigned char attrs[] = {0xA0, 0x00};
        memcpy(der + l8, attrs, 2);
        der[2] += 2;
        CHECK_STATUS(parse_priv(der, l8 + 2), FASTSM2_OK);
        l8 = make_pkcs8(der, 1, algid_ec, sizeof algid_ec, buf, innerlen);
        der[l8] = 0x81, der[l8 + 1] = 66, der[l8 + 2] = 0;
        memcpy(der + l8 + 3, pt, 65);
        der[2] += 68;
        CHECK_STATUS(parse_priv(der, l8 + 68), FASTSM2_OK);
        der[l8 + 3 + 64] ^= 1; /* differs from the inner point */
        CHECK_STATUS(parse_priv(der, l8 + 68), FASTSM2_ERR_POINT);
        der[l8 + 3 + 64] ^= 1;
        der[5] = 0; /* [1] publicKey in version 0: not allowed */
        CHECK_STATUS(parse_priv(der, l8 + 68), FASTSM2_ERR_DER);
        der[5] = 1;
        der[l8 + 2] = 1; /* unused bits */
        CHECK_STATUS(parse_priv(der, l8 + 68), FASTSM2_ERR_DER);
    }

    /* OpenSSL-made P-256 keys -> CURVE, Ed25519 keys -> KEY_FORMAT. */
    {
        EVP_PKEY *p256 = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
        EVP_PKEY *ed = EVP_PKEY_Q_keygen(NULL, NULL, "ED25519");
        CHECK(p256 != NULL && ed != NULL);
        static const struct {
            int ed, form, want;
        } cases[] = {
            {0, FS2T_DER_PKCS8, FASTSM2_ERR_CURVE},     {0, FS2T_PEM_PKCS8, FASTSM2_ERR_CURVE},
            {0, FS2T_DER_SEC1, FASTSM2_ERR_CURVE},      {0, FS2T_DER_SPKI, FASTSM2_ERR_CURVE},
            {0, FS2T_PEM_SPKI, FASTSM2_ERR_CURVE},      {1, FS2T_DER_PKCS8, FASTSM2_ERR_KEY_FORMAT},
            {1, FS2T_DER_SPKI, FASTSM2_ERR_KEY_FORMAT},
        };
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            len = fs2t_ossl_write_key_to(der, sizeof der, cases[i].ed ? ed : p256, cases[i].form);
            int spki = cases[i].form == FS2T_DER_SPKI || cases[i].form == FS2T_PEM_SPKI;
            CHECK_STATUS(spki ? parse_pub(der, len) : parse_priv(der, len), cases[i].want);
        }
        EVP_PKEY_free(p256);
        EVP_PKEY_free(ed);
    }
    /* OpenSSL's password-encrypted PKCS#8 of an SM2 key, DER and PEM. */
    {
        EVP_PKEY *k = fs2t_ossl_keygen(NULL, NULL);
        BIO *b = BIO_new(BIO_s_mem());
        CHECK(i2d_PKCS8PrivateKey_bio(b, k, EVP_aes_128_cbc(), NULL, 0, NULL, (void *)"pw") == 1);
        len = fs2t_bio_drain(b, der, sizeof der);
        CHECK(len > 0 && der[0] == 0x30);
        CHECK_STATUS(parse_priv(der, len), FASTSM2_ERR_ENCRYPTED_KEY);
        b = BIO_new(BIO_s_mem());
        CHECK(PEM_write_bio_PKCS8PrivateKey(b, k, EVP_aes_128_cbc(), NULL, 0, NULL, (void *)"pw") == 1);
        len = fs2t_bio_drain(b, der, sizeof der);
        CHECK(len > 0);
        CHECK_STATUS(parse_priv(der, len), FASTSM2_ERR_ENCRYPTED_KEY);
        EVP_PKEY_free(k);
    }

    /* DER structure errors on our own PKCS#8 / SEC1 / SPKI: truncation at
     * every length, trailing bytes, a non-minimal outer length. */
    int fmts[2] = {FASTSM2_KEYFMT_PKCS8, FASTSM2_KEYFMT_SEC1};
    for (int f = 0; f < 3; f++) {
        len = sizeof der;
        if (f < 2)
            CHECK_STATUS(fastsm2_privkey_serialize(der, &len, &key, fmts[f]), FASTSM2_OK);
        else
            CHECK_STATUS(fastsm2_pubkey_serialize(der, &len, &pub, FASTSM2_KEYFMT_DER), FASTSM2_OK);
        int (*parse)(const unsigned char *, size_t) = f < 2 ? parse_priv : parse_pub;
        CHECK_STATUS(parse(der, len), FASTSM2_OK);
        CHECK_STATUS(parse(der, 0), FASTSM2_ERR_PEM);
        for (size_t t = 1; t < len; t++)
            CHECK_STATUS(parse(der, t), FASTSM2_ERR_DER);
        der[len] = 0;
        CHECK_STATUS(parse(der, len + 1), FASTSM2_ERR_DER);
        /* 30 81 xx where 30 xx would do (SPKI is short-form). */
        if (f == 2) {
            memmove(der + 3, der + 2, len - 2);
            der[1] = 0x81;
            der[2] = (unsigned char)(len - 2);
            CHECK_STATUS(parse(der, len + 1), FASTSM2_ERR_DER);
        }
    }
    /* SPKI: point off the curve, bad prefix, wrong length, unused bits. */
    len = sizeof der;
    CHECK_STATUS(fastsm2_pubkey_serialize(der, &len, &pub, FASTSM2_KEYFMT_DER), FASTSM2_OK);
    der[len - 1] ^= 1;
    CHECK_STATUS(parse_pub(der, len), FASTSM2_ERR_POINT);
    der[len - 1] ^= 1;
    der[len - 65] = 0x05;
    CHECK_STATUS(parse_pub(der, len), FASTSM2_ERR_POINT);
    der[len - 65] = 0x04;
    der[len - 66] = 1;
    CHECK_STATUS(parse_pub(der, len), FASTSM2_ERR_DER);
    der[len - 66] = 0;
    der[1]--, der[len - 67]--; /* a 64-byte point */
    CHECK_STATUS(parse_pub(der, len - 1), FASTSM2_ERR_POINT);
    /* SPKI with the SM2 OID flavour and a compressed point. */
    {
        unsigned char s[100];
        size_t o = 0;
        s[o++] = 0x30, s[o++] = 0;
        s[o++] = 0x30, s[o++] = 12;
        memcpy(s + o, oid_sm2, 10), o += 10;
        s[o++] = 5, s[o++] = 0;
        s[o++] = 3, s[o++] = 34, s[o++] = 0;
        memcpy(s + o, ptc, 33), o += 33;
        s[1] = (unsigned char)(o - 2);
        CHECK_STATUS(parse_pub(s, o), FASTSM2_OK);
        /* an x with no point on the curve: FASTSM2_ERR_POINT */
        fs2t_x_off_curve(s + o - 32);
        CHECK_STATUS(parse_pub(s, o), FASTSM2_ERR_POINT);
        /* another point, compressed G: a valid key */
        s[o - 33] = 0x02;
        memcpy(s + o - 32, fs2t_gx, 32);
        CHECK_STATUS(parse_pub(s, o), FASTSM2_OK);
    }
    /* Bare points: off the curve, bad prefix. */
    {
        unsigned char bp[65];
        memcpy(bp, pt, 65);
        bp[64] ^= 1;
        CHECK_STATUS(parse_pub(bp, 65), FASTSM2_ERR_POINT);
        CHECK_STATUS(parse_pub(pt, 64), FASTSM2_ERR_PEM); /* not a point length: taken as PEM */
    }

    /* Serialize: bad format, buffer sizes. */
    len = sizeof der;
    CHECK_STATUS(fastsm2_privkey_serialize(der, &len, &key, 4), FASTSM2_ERR_ARG);
    CHECK(len == 0);
    len = sizeof der;
    CHECK_STATUS(fastsm2_pubkey_serialize(der, &len, &pub, FASTSM2_KEYFMT_SEC1), FASTSM2_ERR_ARG);
    len = sizeof der;
    CHECK_STATUS(fastsm2_privkey_serialize(der, &len, NULL, 0), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_privkey_serialize(der, NULL, &key, 0), FASTSM2_ERR_ARG);
    for (int fmt = 0; fmt < 4; fmt++) {
        size_t need = sizeof der;
        CHECK_STATUS(fastsm2_privkey_serialize(der, &need, &key, fmt), FASTSM2_OK);
        if (fmt & FASTSM2_KEYFMT_PEM)
            CHECK(der[need] == 0 && strlen((char *)der) == need);
        for (size_t cap = 0; cap < need + ((fmt & FASTSM2_KEYFMT_PEM) ? 1 : 0); cap++) {
            memset(der, 0xAA, sizeof der);
            len = cap;
            CHECK_STATUS(fastsm2_privkey_serialize(der, &len, &key, fmt), FASTSM2_ERR_BUFFER_TOO_SMALL);
            CHECK(len == 0 && fs2t_all_zero(der, cap) && der[cap] == 0xAA);
        }
        len = need + ((fmt & FASTSM2_KEYFMT_PEM) ? 1 : 0);
        CHECK_STATUS(fastsm2_privkey_serialize(der, &len, &key, fmt), FASTSM2_OK);
        CHECK(len == need);
    }
    for (int fmt = 0; fmt <= 2; fmt += 2) {
        size_t need = sizeof der;
        CHECK_STATUS(fastsm2_pubkey_serialize(der, &need, &pub, fmt), FASTSM2_OK);
        len = need - 1 + (fmt ? 1 : 0);
        CHECK_STATUS(fastsm2_pubkey_serialize(der, &len, &pub, fmt), FASTSM2_ERR_BUFFER_TOO_SMALL);
        CHECK(len == 0);
    }
    fastsm2_privkey_clear(&key);
}

/* ---- fuzz ------------------------------------------------------------------- */

static int is_status(int r)
{
    return r == FASTSM2_OK || (r < 0 && r >= FASTSM2_ERR_LAST);
}

static void test_fuzz(void)
{
    fastsm2_privkey key;
    fastsm2_pubkey pub;
    unsigned char d[32], seeds[6][1024], buf[1100];
    size_t seedlen[6];

    fs2t_unhex(d, 32, file_d_hex);
    CHECK(fastsm2_privkey_from_bytes(&key, d) == FASTSM2_OK);
    CHECK(fastsm2_privkey_pubkey(&pub, &key) == FASTSM2_OK);
    for (int i = 0; i < 4; i++) {
        seedlen[i] = sizeof seeds[i];
        CHECK(fastsm2_privkey_serialize(seeds[i], &seedlen[i], &key, i) == FASTSM2_OK);
    }
    seedlen[4] = sizeof seeds[4];
    CHECK(fastsm2_pubkey_serialize(seeds[4], &seedlen[4], &pub, FASTSM2_KEYFMT_DER) == FASTSM2_OK);
    seedlen[5] = sizeof seeds[5];
    CHECK(fastsm2_pubkey_serialize(seeds[5], &seedlen[5], &pub, FASTSM2_KEYFMT_PEM) == FASTSM2_OK);

    unsigned long accepted = 0, bad_status = 0;
    for (int iter = 0; iter < 6000; iter++) {
        int s = iter % 6;
        size_t len = seedlen[s];
        memcpy(buf, seeds[s], len);
        fs2t_mutate(buf, &len, sizeof buf);
        /* Parse from an exact-size heap copy, so ASan sees any over-read. */
        unsigned char *h = malloc(len ? len : 1);
        memcpy(h, buf, len);
        int r = s < 4 ? fastsm2_privkey_parse(&key, h, len) : fastsm2_pubkey_parse(&pub, h, len);
        bad_status += !is_status(r);
        accepted += r == FASTSM2_OK;
        free(h);
    }
    CHECK(bad_status == 0);
    printf("key fuzz: %lu of 6000 mutated files accepted\n", accepted);

    /* Random bytes with a DER-looking or PEM-looking start. */
    for (int iter = 0; iter < 1000; iter++) {
        size_t len;
        unsigned char *h = fs2t_rand_input(200, (iter & 1) ? 0x30 : -1, &len);
        CHECK(is_status(fastsm2_privkey_parse(&key, h, len)));
        CHECK(is_status(fastsm2_pubkey_parse(&pub, h, len)));
        free(h);
    }
    fastsm2_privkey_clear(&key);
}

int main(void)
{
    test_openssl_files();
    test_pem_bad();
    test_keys_vs_openssl();
    test_keys_bad();
    test_fuzz();
    return fs2t_finish("test_keyfile");
}
