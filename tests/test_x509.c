/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Certificates and requests (include/fastsm2.h, "Certificates"): names,
 * times, requests and certificates made here and read by OpenSSL 3 (its
 * parser, its SM2 verification with the signer ID, its view of every
 * extension), certificates OpenSSL makes verified here, and chain
 * verification refusing each defect with its reason.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/err.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "testossl.h"
#include "testutil.h"

#include "codec/dbuf.h"
#include "x509/x509.h"

#define ID  "1234567812345678"
#define BIG 16384

static const int64_t T2025 = 1735689600; /* 2025-01-01 00:00:00 UTC */
static const int64_t YEAR = 365 * 86400;

/* ---- helpers -------------------------------------------------------------- */

static EVP_PKEY *ossl_key(const fastsm2_privkey *key)
{
    unsigned char der[256];
    size_t n = sizeof der;
    if (fastsm2_privkey_serialize(der, &n, key, FASTSM2_KEYFMT_DER) != FASTSM2_OK)
        return NULL;
    return fs2t_ossl_read_key(NULL, der, n, FS2T_DER_PKCS8);
}

static X509 *ossl_cert(const unsigned char *der, size_t n)
{
    const unsigned char *p = der;
    X509 *x = d2i_X509(NULL, &p, (long)n);
    if (x != NULL && p != der + n) {
        X509_free(x);
        return NULL;
    }
    return x;
}

/* 1 if OpenSSL verifies x's signature by pk with the signer ID id. */
static int ossl_cert_verifies(X509 *x, EVP_PKEY *pk, const char *id)
{
    ASN1_OCTET_STRING *v = ASN1_OCTET_STRING_new();
    ASN1_OCTET_STRING_set(v, (const unsigned char *)id, (int)strlen(id));
    X509_set0_distinguishing_id(x, v);
    int ok = X509_verify(x, pk) == 1;
    ERR_clear_error();
    return ok;
}

static size_t make_cert(unsigned char *out, fastsm2_x509_builder *b, const fastsm2_privkey *ikey,
                        const unsigned char *icert, size_t icertlen)
{
    size_t n = BIG;
    int ret = fastsm2_x509_make_certificate(out, &n, b, ikey, icert, icertlen, NULL, 0, FASTSM2_KEYFMT_DER);
    CHECK_STATUS(ret, FASTSM2_OK);
    return ret == FASTSM2_OK ? n : 0;
}

/* A CA: self-signed when icert is NULL. */
static size_t make_ca(unsigned char *out, const char *subject, const fastsm2_privkey *key, const fastsm2_privkey *ikey,
                      const unsigned char *icert, size_t icertlen, int path_len, int64_t nb, int64_t na)
{
    fastsm2_x509_builder *b;
    fastsm2_pubkey pub;
    CHECK_STATUS(fastsm2_x509_builder_new(&b), FASTSM2_OK);
    CHECK_STATUS(fastsm2_x509_set_subject(b, subject), FASTSM2_OK);
    CHECK_STATUS(fastsm2_privkey_pubkey(&pub, key), FASTSM2_OK);
    CHECK_STATUS(fastsm2_x509_set_public_key(b, &pub), FASTSM2_OK);
    CHECK_STATUS(fastsm2_x509_set_basic_constraints(b, 1, path_len), FASTSM2_OK);
    CHECK_STATUS(fastsm2_x509_set_key_usage(b, FASTSM2_KU_KEY_CERT_SIGN | FASTSM2_KU_CRL_SIGN), FASTSM2_OK);
    CHECK_STATUS(fastsm2_x509_set_validity(b, nb, na), FASTSM2_OK);
    size_t n = make_cert(out, b, icert ? ikey : key, icert, icertlen);
    fastsm2_x509_builder_free(b);
    return n;
}

static size_t make_leaf(unsigned char *out, const char *subject, const fastsm2_privkey *key,
                        const fastsm2_privkey *ikey, const unsigned char *icert, size_t icertlen, unsigned ku,
                        unsigned eku)
{
    fastsm2_x509_builder *b;
    fastsm2_pubkey pub;
    CHECK_STATUS(fastsm2_x509_builder_new(&b), FASTSM2_OK);
    CHECK_STATUS(fastsm2_x509_set_subject(b, subject), FASTSM2_OK);
    CHECK_STATUS(fastsm2_privkey_pubkey(&pub, key), FASTSM2_OK);
    CHECK_STATUS(fastsm2_x509_set_public_key(b, &pub), FASTSM2_OK);
    if (ku)
        CHECK_STATUS(fastsm2_x509_set_key_usage(b, ku), FASTSM2_OK);
    if (eku)
        CHECK_STATUS(fastsm2_x509_set_ext_key_usage(b, eku), FASTSM2_OK);
    CHECK_STATUS(fastsm2_x509_add_san(b, "DNS:leaf.example"), FASTSM2_OK);
    CHECK_STATUS(fastsm2_x509_set_validity(b, T2025, T2025 + YEAR), FASTSM2_OK);
    size_t n = make_cert(out, b, ikey, icert, icertlen);
    fastsm2_x509_builder_free(b);
    return n;
}

static unsigned char *cat(const unsigned char *a, size_t an, const unsigned char *b, size_t bn, size_t *n)
{
    unsigned char *r = malloc(an + bn + 1);
    memcpy(r, a, an);
    if (bn)
        memcpy(r + an, b, bn);
    *n = an + bn;
    return r;
}

static fastsm2_x509_verify_params params_at(int64_t t)
{
    fastsm2_x509_verify_params p;
    fastsm2_x509_verify_params_init(&p);
    p.time = t;
    return p;
}

/* ---- names ------------------------------------------------------------- */

static void test_names(void)
{
    static const struct {
        const char *in, *out; /* out NULL: the same */
    } good[] = {
        {"/C=CN/ST=Beijing/L=Haidian/O=fastsm2/OU=PKI/CN=ca.example", NULL},
        {"/CN=a\\/b\\+c\\=d\\\\e", NULL},
        {"/CN=x+UID=u1", "/CN=x+UID=u1"},
        {"/UID=u1+CN=x", "/CN=x+UID=u1"}, /* a multi-valued RDN's SET is sorted by its DER */
        {"/emailAddress=a@example.com/DC=example/serialNumber=123", NULL},
        {"/commonName=long form", "/CN=long form"},
        {"/2.5.4.97=VATCN-1", "/2.5.4.97=VATCN-1"},
        {"/CN=\xe4\xb8\xad\xe6\x96\x87", NULL}, /* UTF-8 */
        {"/CN=tab\\x09here", NULL},
        {"", ""},
    };
    static const char *const bad[] = {
        "CN=x",
        "/=x",
        "/CN",
        "/CN=",
        "/C=CHN",
        "/XX=y",
        "/1.2..3=x",
        "/CN=\\q",
        "/CN=\\x4",
        "/C=C\xc3\xa9",
        "/emailAddress=\xc3\xa9",
        "/CN=\xc3",
        "/CN=a/",
        "/CN=a+",
        "/99.1=x",
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        fs2_dbuf d, s;
        fs2_dbuf_init(&d);
        fs2_dbuf_init(&s);
        CHECK_STATUS(fs2_name_from_string(&d, good[i].in), FASTSM2_OK);
        fs2_span sp;
        fs2_der_init(&sp, d.p, d.n);
        CHECK(fs2_name_check(&sp));
        CHECK_STATUS(fs2_name_to_string(&s, &sp), FASTSM2_OK);
        const char *want = good[i].out ? good[i].out : good[i].in;
        if (s.n != strlen(want) || (s.n != 0 && memcmp(s.p, want, s.n) != 0)) {
            CHECK(0);
            fprintf(stderr, "name %s printed as %.*s\n", good[i].in, (int)s.n, (const char *)s.p);
        }
        fs2_dbuf_free(&d);
        fs2_dbuf_free(&s);
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        fs2_dbuf d;
        fs2_dbuf_init(&d);
        int ret = fs2_name_from_string(&d, bad[i]);
        if (ret != FASTSM2_ERR_NAME) {
            CHECK(0);
            fprintf(stderr, "name '%s' gave %s\n", bad[i], fastsm2_error_name(ret));
        } else {
            CHECK(1);
        }
        fs2_dbuf_free(&d);
    }
    /* the same DER as OpenSSL makes from the same fields (UTF8String, C as
     * PrintableString) */
    {
        X509_NAME *n = X509_NAME_new();
        X509_NAME_add_entry_by_txt(n, "C", MBSTRING_UTF8, (const unsigned char *)"CN", -1, -1, 0);
        X509_NAME_add_entry_by_txt(n, "O", MBSTRING_UTF8, (const unsigned char *)"Org", -1, -1, 0);
        X509_NAME_add_entry_by_txt(n, "CN", MBSTRING_UTF8, (const unsigned char *)"name", -1, -1, 0);
        unsigned char *od = NULL;
        int on = i2d_X509_NAME(n, &od);
        fs2_dbuf d;
        fs2_dbuf_init(&d);
        CHECK_STATUS(fs2_name_from_string(&d, "/C=CN/O=Org/CN=name"), FASTSM2_OK);
        CHECK(on > 0 && (size_t)on == d.n && memcmp(od, d.p, d.n) == 0);
        fs2_dbuf_free(&d);
        OPENSSL_free(od);
        X509_NAME_free(n);
    }
    /* OIDs */
    static const char *const oids[] = {"1.2.156.10197.1.501", "2.5.29.37.0", "0.9.2342.19200300.100.1.25", "2.999.1",
                                       "1.3.6.1.4.1.311.60.2.1.3"};
    for (size_t i = 0; i < sizeof oids / sizeof oids[0]; i++) {
        fs2_dbuf d, s;
        fs2_dbuf_init(&d);
        fs2_dbuf_init(&s);
        CHECK(fs2_oid_from_string(&d, oids[i], strlen(oids[i])));
        fs2_span sp;
        fs2_der_init(&sp, d.p, d.n);
        fs2_oid_to_string(&s, &sp);
        CHECK(s.n == strlen(oids[i]) && memcmp(s.p, oids[i], s.n) == 0);
        ASN1_OBJECT *o = OBJ_txt2obj(oids[i], 1);
        CHECK(o != NULL && (size_t)OBJ_length(o) == d.n && memcmp(OBJ_get0_data(o), d.p, d.n) == 0);
        ASN1_OBJECT_free(o);
        fs2_dbuf_free(&d);
        fs2_dbuf_free(&s);
    }
    static const char *const bad_oids[] = {"1", "1.", ".1", "1..2", "3.1", "1.40", "01.2", "1.2.a", ""};
    for (size_t i = 0; i < sizeof bad_oids / sizeof bad_oids[0]; i++) {
        fs2_dbuf d;
        fs2_dbuf_init(&d);
        CHECK(!fs2_oid_from_string(&d, bad_oids[i], strlen(bad_oids[i])));
        fs2_dbuf_free(&d);
    }
}

/* ---- times ------------------------------------------------------------- */

static void test_times(void)
{
    static const struct {
        int64_t t;
        const char *der_hex;
    } known[] = {
        {0, "170D3730303130313030303030305A"},                /* 700101000000Z */
        {951782400, "170D3030303232393030303030305A"},        /* 2000-02-29 */
        {2524607999, "170D3439313233313233353935395A"},       /* 2049-12-31 23:59:59 */
        {2524608000, "180F32303530303130313030303030305A"},   /* 2050: GeneralizedTime */
        {-631152000, "180F31393530303130313030303030305A"},   /* 1950-01-01 is UTCTime 50... */
        {253402300799, "180F39393939313233313233353935395A"}, /* 9999-12-31 23:59:59 */
        {-62167219200, "180F30303030303130313030303030305A"}, /* 0000-01-01 */
        {-631152001, "180F31393439313233313233353935395A"},   /* 1949: GeneralizedTime */
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        unsigned char want[32];
        size_t wn = fs2t_unhex(want, sizeof want, known[i].der_hex);
        fs2_dbuf d;
        fs2_dbuf_init(&d);
        CHECK(fs2_time_put(&d, known[i].t));
        int same = d.n == wn && memcmp(d.p, want, wn) == 0;
        /* 1950-01-01 is written as UTCTime */
        if (known[i].t == -631152000)
            same = d.n == 15 && d.p[0] == 0x17 && memcmp(d.p + 2, "500101000000Z", 13) == 0;
        CHECK(same);
        fs2_der_in in;
        int64_t t = 1;
        fs2_der_init(&in, d.p, d.n);
        CHECK(fs2_time_get(&in, &t) && t == known[i].t && fs2_der_at_end(&in));
        fs2_dbuf_free(&d);
    }
    /* round trips of random times, and OpenSSL's reading of ours */
    for (int i = 0; i < 2000; i++) {
        int64_t t = (int64_t)(fs2t_rand_u64() % (uint64_t)(253402300799LL + 62167219200LL)) - 62167219200LL;
        fs2_dbuf d;
        fs2_dbuf_init(&d);
        CHECK(fs2_time_put(&d, t));
        fs2_der_in in;
        int64_t back = 0;
        fs2_der_init(&in, d.p, d.n);
        CHECK(fs2_time_get(&in, &back) && back == t);
        if (t >= 0 && t < 253402300799LL) {
            const unsigned char *p = d.p;
            ASN1_TIME *at = d2i_ASN1_TIME(NULL, &p, (long)d.n);
            struct tm tm;
            CHECK(at != NULL && ASN1_TIME_to_tm(at, &tm) == 1);
            if (at != NULL) {
                int64_t ot = (int64_t)timegm(&tm);
                CHECK(ot == t);
            }
            ASN1_TIME_free(at);
        }
        fs2_dbuf_free(&d);
    }
    static const char *const bad[] = {
        "170D3730303130313030303030305B",       /* not Z */
        "170B37303031303130303030305A",         /* no seconds */
        "170D3730313330313030303030305A",       /* month 13 */
        "170D3730303233303030303030305A",       /* Feb 30 */
        "170D3031303232393030303030305A",       /* Feb 29 2001 */
        "170D3730303130313234303030305A",       /* hour 24 */
        "170D3730303130313030363030305A",       /* minute 60 */
        "170D3730303130313030303036305A",       /* second 60 */
        "180D3730303130313030303030305A",       /* a GeneralizedTime of 13 bytes */
        "1811323030303031303130303030302E305A", /* a fraction */
        "170D37303031303130303030302B5A",       /* a sign */
        "0D0D3730303130313030303030305A",       /* another tag */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        unsigned char b[32];
        size_t n = fs2t_unhex(b, sizeof b, bad[i]);
        fs2_der_in in;
        int64_t t;
        fs2_der_init(&in, b, n);
        CHECK(!fs2_time_get(&in, &t) && in.p == b);
    }
}

/* ---- requests -------------------------------------------------------------- */

static void test_request(void)
{
    fastsm2_privkey key;
    fastsm2_pubkey pub;
    fastsm2_x509_builder *b;
    unsigned char req[BIG], pem[BIG];
    size_t n = sizeof req, pn = sizeof pem, need = 0;

    fs2t_keypair(&key, &pub);
    CHECK_STATUS(fastsm2_x509_builder_new(&b), FASTSM2_OK);
    /* no subject yet */
    CHECK_STATUS(fastsm2_x509_make_request(req, &n, b, &key, NULL, 0, FASTSM2_KEYFMT_DER), FASTSM2_ERR_ARG);
    CHECK(n == 0);
    CHECK_STATUS(fastsm2_x509_set_subject(b, "/C=CN/O=fastsm2/CN=req.example"), FASTSM2_OK);
    CHECK_STATUS(fastsm2_x509_add_san(b, "DNS:req.example"), FASTSM2_OK);
    CHECK_STATUS(fastsm2_x509_add_san(b, "IP:192.0.2.7"), FASTSM2_OK);
    CHECK_STATUS(fastsm2_x509_add_san(b, "IP:2001:db8::1"), FASTSM2_OK);
    CHECK_STATUS(fastsm2_x509_add_san(b, "email:pki@example.com"), FASTSM2_OK);
    CHECK_STATUS(fastsm2_x509_add_san(b, "URI:https://example.com/x"), FASTSM2_OK);
    CHECK_STATUS(fastsm2_x509_add_san(b, "DNS:"), FASTSM2_ERR_NAME);
    CHECK_STATUS(fastsm2_x509_add_san(b, "IP:300.1.1.1"), FASTSM2_ERR_NAME);
    CHECK_STATUS(fastsm2_x509_add_san(b, "RID:1.2.3"), FASTSM2_ERR_NAME);
    CHECK_STATUS(fastsm2_x509_add_san(b, "email:nobody"), FASTSM2_ERR_NAME);
    CHECK_STATUS(fastsm2_x509_set_key_usage(b, FASTSM2_KU_TLCP_SIGN), FASTSM2_OK);
    CHECK_STATUS(fastsm2_x509_set_ext_key_usage(b, FASTSM2_EKU_SERVER_AUTH | FASTSM2_EKU_CLIENT_AUTH), FASTSM2_OK);
    /* the size query, then the request */
    CHECK_STATUS(fastsm2_x509_make_request(NULL, &need, b, &key, NULL, 0, FASTSM2_KEYFMT_DER), FASTSM2_OK);
    n = sizeof req;
    CHECK_STATUS(fastsm2_x509_make_request(req, &n, b, &key, NULL, 0, FASTSM2_KEYFMT_DER), FASTSM2_OK);
    CHECK(n > 0 && n <= need);
    size_t small = n / 2;
    unsigned char tiny[BIG];
    CHECK_STATUS(fastsm2_x509_make_request(tiny, &small, b, &key, NULL, 0, FASTSM2_KEYFMT_DER),
                 FASTSM2_ERR_BUFFER_TOO_SMALL);
    CHECK(small == 0);
    CHECK_STATUS(fastsm2_x509_make_request(pem, &pn, b, &key, ID, 16, FASTSM2_KEYFMT_PEM), FASTSM2_OK);
    CHECK(strncmp((char *)pem, "-----BEGIN CERTIFICATE REQUEST-----\n", 36) == 0 && pem[pn] == 0);

    /* our own view */
    CHECK_STATUS(fastsm2_x509_verify_request(req, n, NULL, 0), FASTSM2_OK);
    CHECK_STATUS(fastsm2_x509_verify_request(pem, pn, NULL, 0), FASTSM2_OK);
    CHECK_STATUS(fastsm2_x509_verify_request(req, n, "", 0), FASTSM2_ERR_BAD_SIGNATURE);
    CHECK_STATUS(fastsm2_x509_verify_request(req, n, "other", 5), FASTSM2_ERR_BAD_SIGNATURE);
    fastsm2_x509_info info;
    CHECK_STATUS(fastsm2_x509_get_info(&info, req, n), FASTSM2_OK);
    CHECK(info.kind == FASTSM2_X509_REQUEST && info.sm2_key && info.has_key_usage &&
          info.key_usage == FASTSM2_KU_TLCP_SIGN && info.has_ext_key_usage &&
          info.ext_key_usage == (FASTSM2_EKU_SERVER_AUTH | FASTSM2_EKU_CLIENT_AUTH) && !info.has_basic_constraints &&
          info.extensions == 3 && info.serial_len == 0);
    char text[4096];
    size_t tn = sizeof text;
    CHECK_STATUS(fastsm2_x509_get_text(text, &tn, FASTSM2_X509_SAN, req, n), FASTSM2_OK);
    CHECK(strcmp(text, "DNS:req.example, IP:192.0.2.7, IP:2001:db8:0:0:0:0:0:1, email:pki@example.com, "
                       "URI:https://example.com/x") == 0);
    tn = sizeof text;
    CHECK_STATUS(fastsm2_x509_get_text(text, &tn, FASTSM2_X509_SUBJECT, pem, pn), FASTSM2_OK);
    CHECK(strcmp(text, "/C=CN/O=fastsm2/CN=req.example") == 0 && tn == strlen(text));
    tn = sizeof text;
    CHECK_STATUS(fastsm2_x509_get_text(text, &tn, FASTSM2_X509_ISSUER, req, n), FASTSM2_ERR_ARG);
    fastsm2_pubkey got;
    unsigned char a[65], c[65];
    size_t al = 65, cl = 65;
    CHECK_STATUS(fastsm2_x509_public_key(&got, req, n), FASTSM2_OK);
    CHECK_STATUS(fastsm2_pubkey_to_bytes(a, &al, &got, 0), FASTSM2_OK);
    CHECK_STATUS(fastsm2_pubkey_to_bytes(c, &cl, &pub, 0), FASTSM2_OK);
    CHECK(memcmp(a, c, 65) == 0);

    /* OpenSSL's */
    const unsigned char *p = req;
    X509_REQ *r = d2i_X509_REQ(NULL, &p, (long)n);
    CHECK(r != NULL && p == req + n);
    if (r != NULL) {
        EVP_PKEY *pk = X509_REQ_get0_pubkey(r);
        ASN1_OCTET_STRING *v = ASN1_OCTET_STRING_new();
        ASN1_OCTET_STRING_set(v, (const unsigned char *)ID, 16);
        X509_REQ_set0_distinguishing_id(r, v);
        CHECK(pk != NULL && X509_REQ_verify(r, pk) == 1);
        STACK_OF(X509_EXTENSION) *exts = X509_REQ_get_extensions(r);
        CHECK(exts != NULL && sk_X509_EXTENSION_num(exts) == 3);
        sk_X509_EXTENSION_pop_free(exts, X509_EXTENSION_free);
        char buf[256];
        X509_NAME_oneline(X509_REQ_get_subject_name(r), buf, sizeof buf);
        CHECK(strcmp(buf, "/C=CN/O=fastsm2/CN=req.example") == 0);
        X509_REQ_free(r);
    }
    ERR_clear_error();

    /* a request OpenSSL signs, read and verified here */
    {
        EVP_PKEY *pk = ossl_key(&key);
        X509_REQ * or = X509_REQ_new();
        X509_NAME *nm = X509_NAME_new();
        X509_NAME_add_entry_by_txt(nm, "CN", MBSTRING_UTF8, (const unsigned char *)"ossl req", -1, -1, 0);
        X509_REQ_set_subject_name(or, nm);
        X509_REQ_set_pubkey(or, pk);
        EVP_MD_CTX *mc = EVP_MD_CTX_new();
        EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new(pk, NULL);
        EVP_PKEY_CTX_set1_id(pc, ID, 16);
        EVP_MD_CTX_set_pkey_ctx(mc, pc);
        CHECK(EVP_DigestSignInit(mc, NULL, EVP_sm3(), NULL, pk) == 1);
        CHECK(X509_REQ_sign_ctx(or, mc) > 0);
        unsigned char *od = NULL;
        int on = i2d_X509_REQ(or, &od);
        CHECK(on > 0);
        CHECK_STATUS(fastsm2_x509_verify_request(od, (size_t)on, NULL, 0), FASTSM2_OK);
        CHECK_STATUS(fastsm2_x509_verify_request(od, (size_t)on, "", 0), FASTSM2_ERR_BAD_SIGNATURE);
        tn = sizeof text;
        CHECK_STATUS(fastsm2_x509_get_text(text, &tn, FASTSM2_X509_SUBJECT, od, (size_t)on), FASTSM2_OK);
        CHECK(strcmp(text, "/CN=ossl req") == 0);
        OPENSSL_free(od);
        EVP_MD_CTX_free(mc);
        EVP_PKEY_CTX_free(pc);
        X509_NAME_free(nm);
        X509_REQ_free(or);
        EVP_PKEY_free(pk);
        ERR_clear_error();
    }

    /* a certificate from the request, its extensions copied or not */
    fastsm2_privkey cakey;
    fastsm2_pubkey capub;
    unsigned char ca[BIG], cert[BIG];
    fs2t_keypair(&cakey, &capub);
    size_t can = make_ca(ca, "/CN=req CA", &cakey, NULL, NULL, 0, -1, T2025, T2025 + YEAR);
    for (int copy = 0; copy < 2; copy++) {
        fastsm2_x509_builder *cb;
        CHECK_STATUS(fastsm2_x509_builder_new(&cb), FASTSM2_OK);
        CHECK_STATUS(fastsm2_x509_set_request(cb, req, n, "", 0, 0), FASTSM2_ERR_BAD_SIGNATURE);
        CHECK_STATUS(fastsm2_x509_set_request(cb, ca, can, NULL, 0, 0), FASTSM2_ERR_DER); /* not a request */
        CHECK_STATUS(fastsm2_x509_set_request(cb, req, n, NULL, 0, copy ? FASTSM2_X509_COPY_EXTENSIONS : 0),
                     FASTSM2_OK);
        CHECK_STATUS(fastsm2_x509_set_validity(cb, T2025, T2025 + 30 * 86400), FASTSM2_OK);
        size_t cn = make_cert(cert, cb, &cakey, ca, can);
        CHECK_STATUS(fastsm2_x509_get_info(&info, cert, cn), FASTSM2_OK);
        CHECK(info.has_key_usage == copy && info.has_ext_key_usage == copy && info.skid_len == 20 &&
              info.akid_len == 20 && info.extensions == (copy ? 5u : 2u));
        tn = sizeof text;
        CHECK_STATUS(fastsm2_x509_get_text(text, &tn, FASTSM2_X509_SUBJECT, cert, cn), FASTSM2_OK);
        CHECK(strcmp(text, "/C=CN/O=fastsm2/CN=req.example") == 0);
        tn = sizeof text;
        CHECK_STATUS(fastsm2_x509_get_text(text, &tn, FASTSM2_X509_ISSUER, cert, cn), FASTSM2_OK);
        CHECK(strcmp(text, "/CN=req CA") == 0);
        fastsm2_x509_verify_params vp = params_at(T2025 + 86400);
        int depth = 9;
        CHECK_STATUS(fastsm2_x509_verify_chain(&depth, cert, cn, NULL, 0, ca, can, &vp), FASTSM2_OK);
        CHECK(depth == 0);
        fastsm2_x509_builder_free(cb);
    }
    fastsm2_x509_builder_free(b);
}

/* ---- certificates, OpenSSL both ways --------------------------------------- */

static void test_certificates(void)
{
    fastsm2_privkey cakey, ikey, lkey;
    fastsm2_pubkey capub, ipub, lpub;
    unsigned char ca[BIG], inter[BIG], leaf[BIG], pem[BIG];
    fs2t_keypair(&cakey, &capub);
    fs2t_keypair(&ikey, &ipub);
    fs2t_keypair(&lkey, &lpub);

    size_t can = make_ca(ca, "/C=CN/O=fastsm2/CN=Root CA", &cakey, NULL, NULL, 0, 1, T2025 - YEAR, T2025 + 9 * YEAR);
    size_t in =
        make_ca(inter, "/C=CN/O=fastsm2/CN=Intermediate CA", &ikey, &cakey, ca, can, 0, T2025 - YEAR, T2025 + 5 * YEAR);
    size_t ln = make_leaf(leaf, "/C=CN/O=fastsm2/CN=leaf.example", &lkey, &ikey, inter, in,
                          FASTSM2_KU_DIGITAL_SIGNATURE, FASTSM2_EKU_SERVER_AUTH);
    CHECK(can && in && ln);

    /* facts */
    fastsm2_x509_info info;
    CHECK_STATUS(fastsm2_x509_get_info(&info, ca, can), FASTSM2_OK);
    CHECK(info.kind == FASTSM2_X509_CERTIFICATE && info.version == 3 && info.serial_len == 16 &&
          info.serial[0] >= 0x40 && info.serial[0] < 0x80 && info.self_issued && info.has_basic_constraints &&
          info.ca && info.path_len == 1 && info.key_usage == (FASTSM2_KU_KEY_CERT_SIGN | FASTSM2_KU_CRL_SIGN) &&
          info.skid_len == 20 && info.akid_len == 20 && memcmp(info.skid, info.akid, 20) == 0 &&
          info.not_before == T2025 - YEAR && info.not_after == T2025 + 9 * YEAR);
    unsigned char ca_skid[20];
    memcpy(ca_skid, info.skid, 20);
    CHECK_STATUS(fastsm2_x509_get_info(&info, inter, in), FASTSM2_OK);
    CHECK(!info.self_issued && info.ca && info.path_len == 0 && memcmp(info.akid, ca_skid, 20) == 0);
    unsigned char fp[32];
    fastsm2_sm3(fp, inter, in);
    CHECK(memcmp(fp, info.fingerprint, 32) == 0);
    CHECK_STATUS(fastsm2_x509_get_info(&info, leaf, ln), FASTSM2_OK);
    CHECK(!info.has_basic_constraints && info.has_key_usage && info.key_usage == FASTSM2_KU_DIGITAL_SIGNATURE &&
          info.ext_key_usage == FASTSM2_EKU_SERVER_AUTH && info.extensions == 5);
    /* the serial differs from certificate to certificate */
    unsigned char s1[20];
    memcpy(s1, info.serial, 16);
    CHECK_STATUS(fastsm2_x509_get_info(&info, inter, in), FASTSM2_OK);
    CHECK(memcmp(s1, info.serial, 16) != 0);

    /* PEM and DER views agree */
    size_t pn = sizeof pem;
    char text[8192];
    size_t tn = sizeof text;
    CHECK_STATUS(fastsm2_pem_encode((char *)pem, &pn, "CERTIFICATE", leaf, ln), FASTSM2_OK);
    unsigned char back[BIG];
    size_t bn = sizeof back;
    CHECK_STATUS(fastsm2_x509_get_der(back, &bn, FASTSM2_X509_DER, pem, pn), FASTSM2_OK);
    CHECK(bn == ln && memcmp(back, leaf, ln) == 0);
    bn = sizeof back;
    CHECK_STATUS(fastsm2_pem_decode(back, &bn, "CERTIFICATE", (char *)pem, pn), FASTSM2_OK);
    CHECK(bn == ln && memcmp(back, leaf, ln) == 0);
    CHECK_STATUS(fastsm2_x509_get_text(text, &tn, FASTSM2_X509_TEXT, pem, pn), FASTSM2_OK);
    CHECK(strstr(text, "Subject: /C=CN/O=fastsm2/CN=leaf.example\n") != NULL &&
          strstr(text, "Issuer: /C=CN/O=fastsm2/CN=Intermediate CA\n") != NULL &&
          strstr(text, "Key usage (critical): digitalSignature\n") != NULL &&
          strstr(text, "Extended key usage: serverAuth\n") != NULL &&
          strstr(text, "Subject alternative names: DNS:leaf.example\n") != NULL &&
          strstr(text, "Not before: 2025-01-01 00:00:00 UTC\n") != NULL);
    CHECK_STATUS(fastsm2_x509_get_text(text, &tn, 99, leaf, ln), FASTSM2_ERR_ARG);

    /* OpenSSL reads them, and verifies each signature with the ID (and not
     * without it: 3.x hashes the empty ID) */
    X509 *oca = ossl_cert(ca, can), *oin = ossl_cert(inter, in), *olf = ossl_cert(leaf, ln);
    CHECK(oca && oin && olf);
    if (oca && oin && olf) {
        EVP_PKEY *pca = X509_get0_pubkey(oca), *pin = X509_get0_pubkey(oin);
        CHECK(ossl_cert_verifies(oca, pca, ID));
        CHECK(ossl_cert_verifies(oin, pca, ID));
        CHECK(ossl_cert_verifies(olf, pin, ID));
        CHECK(!ossl_cert_verifies(olf, pin, "1234567812345679"));
        CHECK(!ossl_cert_verifies(olf, pca, ID));
        /* OpenSSL's view of the extensions */
        CHECK(X509_check_ca(oca) == 1 && X509_check_ca(oin) == 1 && X509_check_ca(olf) == 0);
        CHECK((X509_get_key_usage(olf) & KU_DIGITAL_SIGNATURE) && !(X509_get_key_usage(olf) & KU_KEY_CERT_SIGN));
        CHECK(X509_get_extended_key_usage(olf) == XKU_SSL_SERVER);
        CHECK(X509_get_pathlen(oca) == 1 && X509_get_pathlen(oin) == 0);
        const ASN1_OCTET_STRING *sk = X509_get0_subject_key_id(oca), *ak = X509_get0_authority_key_id(oin);
        CHECK(sk && ak && ASN1_OCTET_STRING_cmp(sk, ak) == 0);
        CHECK(X509_check_host(olf, "leaf.example", 0, 0, NULL) == 1);
        CHECK(X509_check_issued(oin, olf) == X509_V_OK && X509_check_issued(oca, oin) == X509_V_OK);
        /* the whole chain through X509_verify_cert, the ID on every certificate */
        X509_STORE *st = X509_STORE_new();
        X509_STORE_add_cert(st, oca);
        STACK_OF(X509) *chain = sk_X509_new_null();
        sk_X509_push(chain, oin);
        X509_STORE_CTX *sc = X509_STORE_CTX_new();
        X509_STORE_CTX_init(sc, st, olf, chain);
        X509_VERIFY_PARAM_set_time(X509_STORE_CTX_get0_param(sc), (time_t)(T2025 + 86400));
        int vr = X509_verify_cert(sc);
        if (vr != 1)
            fprintf(stderr, "OpenSSL: %s\n", X509_verify_cert_error_string(X509_STORE_CTX_get_error(sc)));
        CHECK(vr == 1);
        X509_STORE_CTX_free(sc);
        sk_X509_free(chain);
        X509_STORE_free(st);
    }
    ERR_clear_error();

    /* ours */
    fastsm2_x509_verify_params vp = params_at(T2025 + 86400);
    int depth = -5;
    CHECK_STATUS(fastsm2_x509_verify_chain(&depth, leaf, ln, inter, in, ca, can, &vp), FASTSM2_OK);
    CHECK(depth == 0);
    /* bundles: PEM both, intermediates in any order, extra certificates */
    {
        size_t p1 = sizeof pem, p2;
        unsigned char pem2[BIG];
        CHECK_STATUS(fastsm2_pem_encode((char *)pem, &p1, "CERTIFICATE", inter, in), FASTSM2_OK);
        p2 = sizeof pem2;
        CHECK_STATUS(fastsm2_pem_encode((char *)pem2, &p2, "CERTIFICATE", ca, can), FASTSM2_OK);
        size_t un;
        unsigned char *u = cat(pem2, p2, pem, p1, &un); /* the root first, then the intermediate */
        CHECK_STATUS(fastsm2_x509_verify_chain(&depth, leaf, ln, u, un, pem2, p2, &vp), FASTSM2_OK);
        CHECK(fastsm2_x509_bundle_count(u, un) == 2);
        unsigned char one[BIG];
        size_t on = sizeof one;
        CHECK_STATUS(fastsm2_x509_bundle_get(one, &on, 1, u, un), FASTSM2_OK);
        CHECK(on == in && memcmp(one, inter, in) == 0);
        on = sizeof one;
        CHECK_STATUS(fastsm2_x509_bundle_get(one, &on, 2, u, un), FASTSM2_ERR_LENGTH);
        free(u);
        u = cat(ca, can, inter, in, &un); /* DER, one after another */
        CHECK(fastsm2_x509_bundle_count(u, un) == 2);
        CHECK_STATUS(fastsm2_x509_verify_chain(&depth, leaf, ln, u, un, ca, can, &vp), FASTSM2_OK);
        /* the trust anchor in the middle of the path: the intermediate trusted */
        CHECK_STATUS(fastsm2_x509_verify_chain(&depth, leaf, ln, NULL, 0, inter, in, &vp), FASTSM2_OK);
        /* a trusted certificate verified alone */
        CHECK_STATUS(fastsm2_x509_verify_chain(&depth, ca, can, NULL, 0, ca, can, &vp), FASTSM2_OK);
        free(u);
    }
    /* the signer ID */
    fastsm2_x509_verify_params vp2 = vp;
    vp2.id = "";
    vp2.idlen = 0;
    CHECK_STATUS(fastsm2_x509_verify_chain(&depth, leaf, ln, inter, in, ca, can, &vp2), FASTSM2_ERR_BAD_SIGNATURE);
    CHECK(depth == 0);
    CHECK_STATUS(fastsm2_x509_verify_signature(leaf, ln, inter, in, NULL, 0), FASTSM2_OK);
    CHECK_STATUS(fastsm2_x509_verify_signature(leaf, ln, ca, can, NULL, 0), FASTSM2_ERR_BAD_SIGNATURE);
    CHECK_STATUS(fastsm2_x509_verify_signature(leaf, ln, inter, in, "x", 1), FASTSM2_ERR_BAD_SIGNATURE);
    /* the wrong issuer key is refused when making */
    {
        fastsm2_x509_builder *b;
        unsigned char out[BIG];
        size_t on = sizeof out;
        CHECK_STATUS(fastsm2_x509_builder_new(&b), FASTSM2_OK);
        CHECK_STATUS(fastsm2_x509_set_subject(b, "/CN=x"), FASTSM2_OK);
        CHECK_STATUS(fastsm2_x509_set_public_key(b, &lpub), FASTSM2_OK);
        CHECK_STATUS(fastsm2_x509_make_certificate(out, &on, b, &lkey, inter, in, NULL, 0, FASTSM2_KEYFMT_DER),
                     FASTSM2_ERR_POINT);
        CHECK(on == 0 && fs2t_all_zero(out, 64));
        /* not self-signed and no public key */
        fastsm2_x509_builder_free(b);
        CHECK_STATUS(fastsm2_x509_builder_new(&b), FASTSM2_OK);
        CHECK_STATUS(fastsm2_x509_set_subject(b, "/CN=x"), FASTSM2_OK);
        on = sizeof out;
        CHECK_STATUS(fastsm2_x509_make_certificate(out, &on, b, &ikey, inter, in, NULL, 0, FASTSM2_KEYFMT_DER),
                     FASTSM2_ERR_ARG);
        /* serials, validity, constraints out of range */
        unsigned char s21[21] = {1}, zero[3] = {0, 0, 0}, top[20] = {0x80};
        CHECK_STATUS(fastsm2_x509_set_serial(b, s21, 21), FASTSM2_ERR_LENGTH);
        CHECK_STATUS(fastsm2_x509_set_serial(b, zero, 3), FASTSM2_ERR_LENGTH);
        CHECK_STATUS(fastsm2_x509_set_serial(b, top, 20), FASTSM2_ERR_LENGTH);
        CHECK_STATUS(fastsm2_x509_set_validity(b, 10, 9), FASTSM2_ERR_ARG);
        CHECK_STATUS(fastsm2_x509_set_validity(b, 0, 253402300800LL), FASTSM2_ERR_ARG);
        CHECK_STATUS(fastsm2_x509_set_basic_constraints(b, 1, -2), FASTSM2_ERR_ARG);
        CHECK_STATUS(fastsm2_x509_set_key_usage(b, 0x200), FASTSM2_ERR_ARG);
        CHECK_STATUS(fastsm2_x509_add_extension(b, "1.2.x", 0, (const unsigned char *)"\x05\x00", 2), FASTSM2_ERR_NAME);
        CHECK_STATUS(fastsm2_x509_add_extension(b, "1.2.3", 0, (const unsigned char *)"\x05\x01", 2), FASTSM2_ERR_DER);
        fastsm2_x509_builder_free(b);
    }
    /* a chosen serial, a 2050 validity (GeneralizedTime), any extension */
    {
        fastsm2_x509_builder *b;
        unsigned char out[BIG], serial[3] = {0x00, 0x81, 0x02};
        CHECK_STATUS(fastsm2_x509_builder_new(&b), FASTSM2_OK);
        CHECK_STATUS(fastsm2_x509_set_subject(b, "/CN=custom"), FASTSM2_OK);
        CHECK_STATUS(fastsm2_x509_set_serial(b, serial, 3), FASTSM2_OK);
        CHECK_STATUS(fastsm2_x509_set_validity(b, T2025, 2556144000LL), FASTSM2_OK); /* 2051 */
        CHECK_STATUS(fastsm2_x509_add_extension(b, "1.2.3.4", 0, (const unsigned char *)"\x05\x00", 2), FASTSM2_OK);
        CHECK_STATUS(fastsm2_x509_add_extension(b, "1.2.3.5", 1, (const unsigned char *)"\x05\x00", 2), FASTSM2_OK);
        size_t on = make_cert(out, b, &lkey, NULL, 0);
        CHECK_STATUS(fastsm2_x509_get_info(&info, out, on), FASTSM2_OK);
        CHECK(info.serial_len == 2 && info.serial[0] == 0x81 && info.serial[1] == 0x02 && info.extensions == 4 &&
              info.unknown_critical == 1 && info.not_after == 2556144000LL);
        tn = sizeof text;
        CHECK_STATUS(fastsm2_x509_get_text(text, &tn, FASTSM2_X509_SERIAL, out, on), FASTSM2_OK);
        CHECK(strcmp(text, "0081") != 0 && strcmp(text, "008102") == 0);
        X509 *o = ossl_cert(out, on);
        CHECK(o != NULL && X509_get_ext_count(o) == 4);
        if (o != NULL)
            CHECK(ASN1_TIME_cmp_time_t(X509_get0_notAfter(o), (time_t)2556144000LL) == 0);
        X509_free(o);
        /* an unknown critical extension is refused in a chain */
        fastsm2_x509_verify_params v = params_at(T2025 + 1);
        int d;
        CHECK_STATUS(fastsm2_x509_verify_chain(&d, out, on, NULL, 0, out, on, &v), FASTSM2_ERR_CRITICAL);
        fastsm2_x509_builder_free(b);
    }
    /* a subject-less certificate: the subjectAltName is critical */
    {
        fastsm2_x509_builder *b;
        unsigned char out[BIG];
        CHECK_STATUS(fastsm2_x509_builder_new(&b), FASTSM2_OK);
        CHECK_STATUS(fastsm2_x509_set_subject(b, ""), FASTSM2_OK);
        CHECK_STATUS(fastsm2_x509_add_san(b, "email:only@example.com"), FASTSM2_OK);
        size_t on = make_cert(out, b, &lkey, NULL, 0);
        X509 *o = ossl_cert(out, on);
        CHECK(o != NULL);
        if (o != NULL) {
            int crit = -1;
            GENERAL_NAMES *gn = X509_get_ext_d2i(o, NID_subject_alt_name, &crit, NULL);
            CHECK(gn != NULL && crit == 1 && sk_GENERAL_NAME_num(gn) == 1);
            GENERAL_NAMES_free(gn);
        }
        X509_free(o);
        fastsm2_x509_builder_free(b);
    }

    /* certificates OpenSSL makes, verified here */
    {
        EVP_PKEY *pk = ossl_key(&cakey), *lpk = ossl_key(&lkey);
        X509 *oc = X509_new(), *ol = X509_new();
        X509_NAME *nm = X509_NAME_new(), *ln_ = X509_NAME_new();
        X509_NAME_add_entry_by_txt(nm, "CN", MBSTRING_UTF8, (const unsigned char *)"OpenSSL CA", -1, -1, 0);
        X509_NAME_add_entry_by_txt(ln_, "CN", MBSTRING_UTF8, (const unsigned char *)"OpenSSL leaf", -1, -1, 0);
        X509V3_CTX v3;
        for (int k = 0; k < 2; k++) {
            X509 *x = k ? ol : oc;
            X509_set_version(x, 2);
            ASN1_INTEGER_set(X509_get_serialNumber(x), 1000 + k);
            X509_set_issuer_name(x, nm);
            X509_set_subject_name(x, k ? ln_ : nm);
            X509_time_adj_ex(X509_getm_notBefore(x), 0, 0, (time_t *)&(time_t){(time_t)T2025});
            X509_time_adj_ex(X509_getm_notAfter(x), 365, 0, (time_t *)&(time_t){(time_t)T2025});
            X509_set_pubkey(x, k ? lpk : pk);
            X509V3_set_ctx(&v3, oc, x, NULL, NULL, 0);
            const char *exts[][2] = {{"basicConstraints", k ? "critical,CA:FALSE" : "critical,CA:TRUE"},
                                     {"keyUsage", k ? "critical,digitalSignature" : "critical,keyCertSign"},
                                     {"subjectKeyIdentifier", "hash"},
                                     {"authorityKeyIdentifier", "keyid"}};
            for (int e = 0; e < 4; e++) {
                X509_EXTENSION *ex = X509V3_EXT_conf(NULL, &v3, exts[e][0], exts[e][1]);
                CHECK(ex != NULL);
                X509_add_ext(x, ex, -1);
                X509_EXTENSION_free(ex);
            }
            EVP_MD_CTX *mc = EVP_MD_CTX_new();
            EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new(pk, NULL);
            EVP_PKEY_CTX_set1_id(pc, ID, 16);
            EVP_MD_CTX_set_pkey_ctx(mc, pc);
            CHECK(EVP_DigestSignInit(mc, NULL, EVP_sm3(), NULL, pk) == 1);
            CHECK(X509_sign_ctx(x, mc) > 0);
            EVP_MD_CTX_free(mc);
            EVP_PKEY_CTX_free(pc);
        }
        unsigned char *dc = NULL, *dl = NULL;
        int nc = i2d_X509(oc, &dc), nl = i2d_X509(ol, &dl);
        CHECK(nc > 0 && nl > 0);
        CHECK_STATUS(fastsm2_x509_verify_chain(&depth, dl, (size_t)nl, NULL, 0, dc, (size_t)nc, &vp), FASTSM2_OK);
        CHECK_STATUS(fastsm2_x509_get_info(&info, dl, (size_t)nl), FASTSM2_OK);
        CHECK(info.has_basic_constraints && !info.ca && info.key_usage == FASTSM2_KU_DIGITAL_SIGNATURE &&
              info.serial_len == 2 && info.serial[0] == 0x03 && info.serial[1] == 0xE9);
        CHECK_STATUS(fastsm2_x509_verify_chain(&depth, dl, (size_t)nl, NULL, 0, dc, (size_t)nc, &vp2),
                     FASTSM2_ERR_BAD_SIGNATURE);
        /* and a leaf of ours under OpenSSL's CA: our builder reads its SKID */
        fastsm2_x509_builder *b;
        unsigned char out[BIG];
        CHECK_STATUS(fastsm2_x509_builder_new(&b), FASTSM2_OK);
        CHECK_STATUS(fastsm2_x509_set_subject(b, "/CN=ours under theirs"), FASTSM2_OK);
        CHECK_STATUS(fastsm2_x509_set_public_key(b, &lpub), FASTSM2_OK);
        CHECK_STATUS(fastsm2_x509_set_validity(b, T2025, T2025 + 86400 * 30), FASTSM2_OK);
        size_t on = make_cert(out, b, &cakey, dc, (size_t)nc);
        CHECK_STATUS(fastsm2_x509_verify_chain(&depth, out, on, NULL, 0, dc, (size_t)nc, &vp), FASTSM2_OK);
        X509 *ours = ossl_cert(out, on);
        CHECK(ours != NULL && X509_check_issued(oc, ours) == X509_V_OK && ossl_cert_verifies(ours, pk, ID));
        X509_free(ours);
        fastsm2_x509_builder_free(b);
        OPENSSL_free(dc);
        OPENSSL_free(dl);
        X509_free(oc);
        X509_free(ol);
        X509_NAME_free(nm);
        X509_NAME_free(ln_);
        EVP_PKEY_free(pk);
        EVP_PKEY_free(lpk);
        ERR_clear_error();
    }
    X509_free(oca);
    X509_free(oin);
    X509_free(olf);
}

/* ---- refusals ------------------------------------------------------------- */

static void test_refusals(void)
{
    fastsm2_privkey ka, kb, kl;
    fastsm2_pubkey pa, pb, pl;
    unsigned char root[BIG], inter[BIG], leaf[BIG], x1[BIG], x2[BIG];
    int depth;
    fs2t_keypair(&ka, &pa);
    fs2t_keypair(&kb, &pb);
    fs2t_keypair(&kl, &pl);
    fastsm2_x509_verify_params vp = params_at(T2025 + 86400);

    size_t rn = make_ca(root, "/CN=Root", &ka, NULL, NULL, 0, -1, T2025 - YEAR, T2025 + YEAR);
    size_t in = make_ca(inter, "/CN=Inter", &kb, &ka, root, rn, -1, T2025 - YEAR, T2025 + YEAR);
    size_t ln = make_leaf(leaf, "/CN=leaf", &kl, &kb, inter, in, FASTSM2_KU_DIGITAL_SIGNATURE, FASTSM2_EKU_CLIENT_AUTH);
    CHECK_STATUS(fastsm2_x509_verify_chain(&depth, leaf, ln, inter, in, root, rn, &vp), FASTSM2_OK);

    /* a wrong signature: one bit of the leaf's signature flipped */
    memcpy(x1, leaf, ln);
    x1[ln - 5] ^= 0x01;
    CHECK_STATUS(fastsm2_x509_verify_chain(&depth, x1, ln, inter, in, root, rn, &vp), FASTSM2_ERR_BAD_SIGNATURE);
    CHECK(depth == 0);
    /* ... of the intermediate's */
    memcpy(x2, inter, in);
    x2[in - 5] ^= 0x01;
    CHECK_STATUS(fastsm2_x509_verify_chain(&depth, leaf, ln, x2, in, root, rn, &vp), FASTSM2_ERR_BAD_SIGNATURE);
    CHECK(depth == 1);
    /* validity */
    vp.time = T2025 + 2 * YEAR;
    CHECK_STATUS(fastsm2_x509_verify_chain(&depth, leaf, ln, inter, in, root, rn, &vp), FASTSM2_ERR_EXPIRED);
    CHECK(depth == 0);
    vp.time = T2025 - 1;
    CHECK_STATUS(fastsm2_x509_verify_chain(&depth, leaf, ln, inter, in, root, rn, &vp), FASTSM2_ERR_NOT_YET_VALID);
    CHECK(depth == 0);
    vp.time = T2025 + YEAR + 1; /* the leaf is valid, its issuers expired */
    CHECK_STATUS(fastsm2_x509_verify_chain(&depth, leaf, ln, inter, in, root, rn, &vp), FASTSM2_ERR_EXPIRED);
    CHECK(depth == 0);
    vp.time = T2025 + YEAR; /* the last second of the issuers' validity */
    CHECK_STATUS(fastsm2_x509_verify_chain(&depth, leaf, ln, inter, in, root, rn, &vp), FASTSM2_OK);
    vp.flags = FASTSM2_X509_NO_TIME_CHECK;
    vp.time = T2025 + 50 * YEAR;
    CHECK_STATUS(fastsm2_x509_verify_chain(&depth, leaf, ln, inter, in, root, rn, &vp), FASTSM2_OK);
    vp = params_at(T2025 + 86400);
    /* usage asked of the leaf */
    vp.key_usage = FASTSM2_KU_KEY_ENCIPHERMENT;
    CHECK_STATUS(fastsm2_x509_verify_chain(&depth, leaf, ln, inter, in, root, rn, &vp), FASTSM2_ERR_KEY_USAGE);
    CHECK(depth == 0);
    vp.key_usage = FASTSM2_KU_DIGITAL_SIGNATURE;
    vp.ext_key_usage = FASTSM2_EKU_SERVER_AUTH;
    CHECK_STATUS(fastsm2_x509_verify_chain(&depth, leaf, ln, inter, in, root, rn, &vp), FASTSM2_ERR_KEY_USAGE);
    vp.ext_key_usage = FASTSM2_EKU_CLIENT_AUTH;
    CHECK_STATUS(fastsm2_x509_verify_chain(&depth, leaf, ln, inter, in, root, rn, &vp), FASTSM2_OK);
    vp = params_at(T2025 + 86400);
    /* no issuer: the intermediate missing; an untrusted root */
    CHECK_STATUS(fastsm2_x509_verify_chain(&depth, leaf, ln, NULL, 0, root, rn, &vp), FASTSM2_ERR_ISSUER);
    CHECK(depth == 0);
    {
        fastsm2_privkey kz;
        fastsm2_pubkey pz;
        unsigned char other[BIG];
        fs2t_keypair(&kz, &pz);
        size_t on = make_ca(other, "/CN=Other root", &kz, NULL, NULL, 0, -1, T2025 - YEAR, T2025 + YEAR);
        size_t un;
        unsigned char *u = cat(inter, in, root, rn, &un);
        CHECK_STATUS(fastsm2_x509_verify_chain(&depth, leaf, ln, u, un, other, on, &vp), FASTSM2_ERR_ISSUER);
        CHECK(depth == 2); /* the path ends at Root, self-signed and not trusted */
        free(u);
        /* same name, other key: the AKID tells them apart, and the real one wins */
        size_t fn = make_ca(other, "/CN=Root", &kz, NULL, NULL, 0, -1, T2025 - YEAR, T2025 + YEAR);
        u = cat(other, fn, root, rn, &un);
        CHECK_STATUS(fastsm2_x509_verify_chain(&depth, inter, in, NULL, 0, u, un, &vp), FASTSM2_OK);
        CHECK_STATUS(fastsm2_x509_verify_chain(&depth, inter, in, NULL, 0, other, fn, &vp), FASTSM2_ERR_ISSUER);
        free(u);
    }
    /* a CA without cA: the intermediate made as an end entity */
    {
        fastsm2_x509_builder *b;
        CHECK_STATUS(fastsm2_x509_builder_new(&b), FASTSM2_OK);
        CHECK_STATUS(fastsm2_x509_set_subject(b, "/CN=Inter"), FASTSM2_OK);
        CHECK_STATUS(fastsm2_x509_set_public_key(b, &pb), FASTSM2_OK);
        CHECK_STATUS(fastsm2_x509_set_validity(b, T2025 - YEAR, T2025 + YEAR), FASTSM2_OK);
        size_t n = make_cert(x1, b, &ka, root, rn);
        CHECK_STATUS(fastsm2_x509_verify_chain(&depth, leaf, ln, x1, n, root, rn, &vp), FASTSM2_ERR_NOT_CA);
        CHECK(depth == 1);
        /* cA but keyUsage without keyCertSign */
        CHECK_STATUS(fastsm2_x509_set_basic_constraints(b, 1, -1), FASTSM2_OK);
        CHECK_STATUS(fastsm2_x509_set_key_usage(b, FASTSM2_KU_DIGITAL_SIGNATURE), FASTSM2_OK);
        n = make_cert(x1, b, &ka, root, rn);
        CHECK_STATUS(fastsm2_x509_verify_chain(&depth, leaf, ln, x1, n, root, rn, &vp), FASTSM2_ERR_KEY_USAGE);
        CHECK(depth == 1);
        fastsm2_x509_builder_free(b);
    }
    /* path length: root allows 0 CAs below it, one intermediate is there */
    {
        unsigned char r0[BIG], i0[BIG], l0[BIG], i1[BIG];
        size_t r0n = make_ca(r0, "/CN=Root0", &ka, NULL, NULL, 0, 0, T2025 - YEAR, T2025 + YEAR);
        size_t i0n = make_ca(i0, "/CN=Inter0", &kb, &ka, r0, r0n, -1, T2025 - YEAR, T2025 + YEAR);
        size_t l0n = make_leaf(l0, "/CN=leaf0", &kl, &kb, i0, i0n, 0, 0);
        CHECK_STATUS(fastsm2_x509_verify_chain(&depth, l0, l0n, i0, i0n, r0, r0n, &vp), FASTSM2_ERR_PATH_LENGTH);
        CHECK(depth == 2);
        /* the leaf straight under Root0 is fine */
        size_t l1n = make_leaf(i1, "/CN=leaf1", &kl, &ka, r0, r0n, 0, 0);
        CHECK_STATUS(fastsm2_x509_verify_chain(&depth, i1, l1n, NULL, 0, r0, r0n, &vp), FASTSM2_OK);
        /* a chain longer than max_depth */
        vp.max_depth = 2;
        CHECK_STATUS(fastsm2_x509_verify_chain(&depth, leaf, ln, inter, in, root, rn, &vp), FASTSM2_ERR_PATH_LENGTH);
        vp.max_depth = 3;
        CHECK_STATUS(fastsm2_x509_verify_chain(&depth, leaf, ln, inter, in, root, rn, &vp), FASTSM2_OK);
        vp.max_depth = 33;
        CHECK_STATUS(fastsm2_x509_verify_chain(&depth, leaf, ln, inter, in, root, rn, &vp), FASTSM2_ERR_ARG);
        vp = params_at(T2025 + 86400);
    }
    /* a loop: A issued by B and B by A, neither trusted */
    {
        unsigned char ca_a[BIG], ca_b[BIG];
        fastsm2_x509_builder *b;
        size_t an, bn;
        CHECK_STATUS(fastsm2_x509_builder_new(&b), FASTSM2_OK);
        CHECK_STATUS(fastsm2_x509_set_basic_constraints(b, 1, -1), FASTSM2_OK);
        CHECK_STATUS(fastsm2_x509_set_validity(b, T2025 - YEAR, T2025 + YEAR), FASTSM2_OK);
        /* B's self-signed certificate, only to issue A from it */
        CHECK_STATUS(fastsm2_x509_set_subject(b, "/CN=B"), FASTSM2_OK);
        size_t bsn = make_cert(x2, b, &kb, NULL, 0);
        CHECK_STATUS(fastsm2_x509_set_subject(b, "/CN=A"), FASTSM2_OK);
        CHECK_STATUS(fastsm2_x509_set_public_key(b, &pa), FASTSM2_OK);
        an = make_cert(ca_a, b, &kb, x2, bsn); /* A, issued by B */
        CHECK_STATUS(fastsm2_x509_set_subject(b, "/CN=B"), FASTSM2_OK);
        CHECK_STATUS(fastsm2_x509_set_public_key(b, &pb), FASTSM2_OK);
        bn = make_cert(ca_b, b, &ka, ca_a, an); /* B, issued by A */
        size_t lfn = make_leaf(x1, "/CN=looped", &kl, &ka, ca_a, an, 0, 0);
        size_t un;
        unsigned char *u = cat(ca_a, an, ca_b, bn, &un);
        CHECK_STATUS(fastsm2_x509_verify_chain(&depth, x1, lfn, u, un, root, rn, &vp), FASTSM2_ERR_CHAIN_LOOP);
        CHECK(depth == 2);
        free(u);
        fastsm2_x509_builder_free(b);
    }
    /* bad arguments and inputs */
    CHECK_STATUS(fastsm2_x509_verify_chain(&depth, leaf, ln, NULL, 0, NULL, 0, &vp), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_x509_verify_chain(&depth, leaf, ln, NULL, 5, root, rn, &vp), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_x509_verify_chain(&depth, leaf, ln - 1, inter, in, root, rn, &vp), FASTSM2_ERR_DER);
    CHECK(depth == -1);
    CHECK_STATUS(fastsm2_x509_verify_chain(&depth, leaf, ln, inter, in - 1, root, rn, &vp), FASTSM2_ERR_DER);
    CHECK_STATUS(fastsm2_x509_verify_chain(&depth, leaf, ln, inter, in, (const unsigned char *)"junk", 4, &vp),
                 FASTSM2_ERR_PEM);
    /* a request is not a certificate */
    {
        fastsm2_x509_builder *b;
        unsigned char req[BIG];
        size_t qn = sizeof req;
        CHECK_STATUS(fastsm2_x509_builder_new(&b), FASTSM2_OK);
        CHECK_STATUS(fastsm2_x509_set_subject(b, "/CN=r"), FASTSM2_OK);
        CHECK_STATUS(fastsm2_x509_make_request(req, &qn, b, &kl, NULL, 0, FASTSM2_KEYFMT_DER), FASTSM2_OK);
        CHECK_STATUS(fastsm2_x509_verify_chain(&depth, req, qn, NULL, 0, root, rn, &vp), FASTSM2_ERR_DER);
        CHECK_STATUS(fastsm2_x509_verify_request(leaf, ln, NULL, 0), FASTSM2_ERR_DER);
        fastsm2_x509_builder_free(b);
    }
}

/* ---- hostile input ---------------------------------------------------------- */

static void test_mutations(void)
{
    fastsm2_privkey k;
    fastsm2_pubkey p;
    unsigned char cert[BIG], req[BIG], m[BIG];
    fastsm2_privkey ck;
    fastsm2_pubkey cp;
    unsigned char ca[BIG];
    fs2t_keypair(&k, &p);
    fs2t_keypair(&ck, &cp);
    size_t can = make_ca(ca, "/CN=mutation CA", &ck, NULL, NULL, 0, -1, T2025, T2025 + YEAR);
    size_t cn = make_leaf(cert, "/C=CN/O=o/CN=mutate", &k, &ck, ca, can, FASTSM2_KU_DIGITAL_SIGNATURE,
                          FASTSM2_EKU_ANY | FASTSM2_EKU_SERVER_AUTH);
    fastsm2_x509_builder *b;
    size_t qn = sizeof req;
    CHECK_STATUS(fastsm2_x509_builder_new(&b), FASTSM2_OK);
    CHECK_STATUS(fastsm2_x509_set_subject(b, "/CN=mutate"), FASTSM2_OK);
    CHECK_STATUS(fastsm2_x509_add_san(b, "DNS:m.example"), FASTSM2_OK);
    CHECK_STATUS(fastsm2_x509_make_request(req, &qn, b, &k, NULL, 0, FASTSM2_KEYFMT_DER), FASTSM2_OK);
    fastsm2_x509_builder_free(b);
    fastsm2_x509_verify_params vp = params_at(T2025 + 10);
    unsigned long ok = 0, refused = 0;
    /* every truncation is refused as DER */
    for (size_t n = 0; n < cn; n++) {
        fastsm2_x509_info info;
        int r = fastsm2_x509_get_info(&info, cert, n);
        CHECK(r == FASTSM2_ERR_DER || (n == 0 && r == FASTSM2_ERR_PEM));
    }
    for (size_t n = 0; n < qn; n++)
        CHECK(fastsm2_x509_verify_request(req, n, NULL, 0) != FASTSM2_OK);
    /* random edits: a named error or a success, and never a certificate
     * (issued by a trusted CA) or a request that verifies unless it is the
     * original */
    for (int i = 0; i < 3000; i++) {
        const unsigned char *src = i & 1 ? req : cert;
        size_t n = i & 1 ? qn : cn;
        memcpy(m, src, n);
        fs2t_mutate(m, &n, sizeof m);
        fastsm2_x509_info info;
        char text[8192];
        size_t tn = sizeof text;
        int r = fastsm2_x509_get_info(&info, m, n);
        CHECK(r == FASTSM2_OK || (r < 0 && r >= FASTSM2_ERR_LAST));
        if (r == FASTSM2_OK) {
            ok++;
            CHECK(fastsm2_x509_get_text(text, &tn, FASTSM2_X509_TEXT, m, n) == FASTSM2_OK);
        } else {
            refused++;
        }
        int same = n == (i & 1 ? qn : cn) && memcmp(m, src, n) == 0;
        if (i & 1) {
            r = fastsm2_x509_verify_request(m, n, NULL, 0);
        } else {
            int d;
            r = fastsm2_x509_verify_chain(&d, m, n, NULL, 0, ca, can, &vp);
        }
        CHECK(same ? r == FASTSM2_OK : r != FASTSM2_OK);
    }
    CHECK(ok > 0 && refused > 0);
}

int main(void)
{
    test_names();
    test_times();
    test_request();
    test_certificates();
    test_refusals();
    test_mutations();
    return fs2t_finish("test_x509");
}
