/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CMS signed data (include/fastsm2.h, "CMS"): made and verified here in
 * both content-type families (RFC 5652, GM/T 0010), attached and detached,
 * one-shot and as prefix + content + suffix; every defect refused with its
 * reason; OpenSSL's CMS parser reads what is made here (and, from OpenSSL
 * 3.2 on, which signs CMS with SM2, verifies it and signs for us).
 * Enveloped data: sealed and opened for one and two recipients, CBC and
 * GCM, every failure named with no plaintext; GmSSL's message opened.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/cms.h>
#include <openssl/err.h>
#include <openssl/x509.h>

#include "testossl.h"
#include "testutil.h"

#include "codec/ber.h"

#define BIG (1 << 17)

static const int64_t T2025 = 1735689600;

static size_t make_cert(unsigned char *out, const char *subject, const fastsm2_privkey *key,
                        const fastsm2_privkey *ikey, const unsigned char *icert, size_t icertlen, int ca)
{
    fastsm2_x509_builder *b;
    fastsm2_pubkey pub;
    size_t n = BIG;
    CHECK_STATUS(fastsm2_x509_builder_new(&b), FASTSM2_OK);
    CHECK_STATUS(fastsm2_x509_set_subject(b, subject), FASTSM2_OK);
    CHECK_STATUS(fastsm2_privkey_pubkey(&pub, key), FASTSM2_OK);
    CHECK_STATUS(fastsm2_x509_set_public_key(b, &pub), FASTSM2_OK);
    CHECK_STATUS(fastsm2_x509_set_validity(b, T2025, T2025 + 3650LL * 86400), FASTSM2_OK);
    if (ca)
        CHECK_STATUS(fastsm2_x509_set_basic_constraints(b, 1, -1), FASTSM2_OK);
    else
        CHECK_STATUS(fastsm2_x509_set_key_usage(b, FASTSM2_KU_DIGITAL_SIGNATURE | FASTSM2_KU_NON_REPUDIATION),
                     FASTSM2_OK);
    CHECK_STATUS(fastsm2_x509_make_certificate(out, &n, b, ikey, icert, icertlen, NULL, 0, FASTSM2_KEYFMT_DER),
                 FASTSM2_OK);
    fastsm2_x509_builder_free(b);
    return n;
}

static unsigned char *sign(size_t *n, const unsigned char *content, size_t len, const unsigned char *cert,
                           size_t certlen, const fastsm2_privkey *key, const void *id, size_t idlen, unsigned flags)
{
    size_t need = 0;
    CHECK_STATUS(fastsm2_cms_sign(NULL, &need, content, len, cert, certlen, key, id, idlen, flags), FASTSM2_OK);
    unsigned char *out = malloc(need);
    *n = need;
    CHECK_STATUS(fastsm2_cms_sign(out, n, content, len, cert, certlen, key, id, idlen, flags), FASTSM2_OK);
    CHECK(*n <= need);
    return out;
}

static void test_sign_verify(void)
{
    fastsm2_privkey cakey, key, other;
    fastsm2_pubkey capub, pub, opub;
    unsigned char ca[BIG], cert[BIG], ocert[BIG], content[3000];
    fs2t_keypair(&cakey, &capub);
    fs2t_keypair(&key, &pub);
    fs2t_keypair(&other, &opub);
    size_t can = make_cert(ca, "/CN=CMS CA", &cakey, &cakey, NULL, 0, 1);
    size_t cn = make_cert(cert, "/C=CN/O=fastsm2/CN=signer", &key, &cakey, ca, can, 0);
    size_t ocn = make_cert(ocert, "/CN=another signer", &other, &cakey, ca, can, 0);
    fs2t_rand_bytes(content, sizeof content);

    static const unsigned flag_sets[] = {0,
                                         FASTSM2_CMS_DETACHED,
                                         FASTSM2_CMS_GMT0010,
                                         FASTSM2_CMS_GMT0010 | FASTSM2_CMS_DETACHED,
                                         FASTSM2_CMS_NO_CERTS,
                                         FASTSM2_CMS_NO_ATTRIBUTES,
                                         FASTSM2_CMS_NO_ATTRIBUTES | FASTSM2_CMS_DETACHED | FASTSM2_CMS_GMT0010,
                                         FASTSM2_CMS_PEM};
    for (size_t f = 0; f < sizeof flag_sets / sizeof flag_sets[0]; f++) {
        unsigned flags = flag_sets[f];
        int detached = (flags & FASTSM2_CMS_DETACHED) != 0;
        size_t len = f == 0 ? 0 : fs2t_rand_below(sizeof content); /* an empty content too */
        size_t n;
        unsigned char *m = sign(&n, content, len, cert, cn, &key, NULL, 0, flags);
        const unsigned char *extra = flags & FASTSM2_CMS_NO_CERTS ? cert : NULL;
        size_t extralen = flags & FASTSM2_CMS_NO_CERTS ? cn : 0;
        const unsigned char *c = detached ? content : NULL;
        size_t cl = detached ? len : 0;
        CHECK_STATUS(fastsm2_cms_verify(m, n, c, cl, extra, extralen, NULL, 0, 0), FASTSM2_OK);
        /* another ID */
        CHECK_STATUS(fastsm2_cms_verify(m, n, c, cl, extra, extralen, "", 0, 0), FASTSM2_ERR_BAD_SIGNATURE);
        /* the signer's certificate missing */
        if (flags & FASTSM2_CMS_NO_CERTS)
            CHECK_STATUS(fastsm2_cms_verify(m, n, c, cl, NULL, 0, NULL, 0, 0), FASTSM2_ERR_ISSUER);
        /* another content */
        if (detached && len > 0) {
            unsigned char changed[3000];
            memcpy(changed, content, len);
            changed[len / 2] ^= 0x20;
            CHECK_STATUS(fastsm2_cms_verify(m, n, changed, len, extra, extralen, NULL, 0, 0),
                         flags & FASTSM2_CMS_NO_ATTRIBUTES ? FASTSM2_ERR_BAD_SIGNATURE : FASTSM2_ERR_DIGEST);
            CHECK_STATUS(fastsm2_cms_verify(m, n, changed, len - 1, extra, extralen, NULL, 0, 0),
                         flags & FASTSM2_CMS_NO_ATTRIBUTES ? FASTSM2_ERR_BAD_SIGNATURE : FASTSM2_ERR_DIGEST);
            CHECK_STATUS(fastsm2_cms_verify(m, n, NULL, 0, extra, extralen, NULL, 0, 0), FASTSM2_ERR_ARG);
        }
        if (!detached)
            CHECK_STATUS(fastsm2_cms_verify(m, n, content, len, extra, extralen, NULL, 0, 0), FASTSM2_ERR_ARG);
        /* facts and parts */
        fastsm2_cms_info info;
        CHECK_STATUS(fastsm2_cms_get_info(&info, m, n), FASTSM2_OK);
        CHECK(info.type == FASTSM2_CMS_SIGNED_DATA && info.gmt0010 == !!(flags & FASTSM2_CMS_GMT0010) &&
              info.detached == detached && info.signers == 1 &&
              info.certificates == (flags & FASTSM2_CMS_NO_CERTS ? 0u : 1u) &&
              (flags & FASTSM2_CMS_NO_ATTRIBUTES ? info.signing_time == 0 : info.signing_time > T2025));
        if (!detached && !(flags & FASTSM2_CMS_PEM))
            CHECK(info.content_len == len && info.content_offset + len < n &&
                  (len == 0 || memcmp(m + info.content_offset, content, len) == 0));
        unsigned char part[BIG];
        size_t pn = sizeof part;
        if (!detached) {
            CHECK_STATUS(fastsm2_cms_get(part, &pn, FASTSM2_CMS_CONTENT, m, n), FASTSM2_OK);
            CHECK(pn == len && memcmp(part, content, len) == 0);
        } else {
            CHECK_STATUS(fastsm2_cms_get(part, &pn, FASTSM2_CMS_CONTENT, m, n), FASTSM2_ERR_ARG);
        }
        pn = sizeof part;
        if (flags & FASTSM2_CMS_NO_CERTS) {
            CHECK_STATUS(fastsm2_cms_get(part, &pn, FASTSM2_CMS_SIGNER, m, n), FASTSM2_ERR_ISSUER);
        } else {
            CHECK_STATUS(fastsm2_cms_get(part, &pn, FASTSM2_CMS_SIGNER, m, n), FASTSM2_OK);
            CHECK(pn == cn && memcmp(part, cert, cn) == 0);
        }
        /* a bit flipped in what the signature covers (the content, the
         * signer's attributes and algorithms, the signature: the last 150
         * bytes hold them, 100 without attributes), never verifies; the rest of the message (the
         * versions, the certificates carried, the content type without
         * signed attributes) is not signed, in CMS */
        if (!(flags & FASTSM2_CMS_PEM)) {
            unsigned char *t = malloc(n);
            for (int k = 0; k < 200; k++) {
                size_t tail = flags & FASTSM2_CMS_NO_ATTRIBUTES ? 100 : 150;
                size_t at = n - 1 - fs2t_rand_below(tail);
                if (!detached && len > 0 && (k & 1))
                    at = (size_t)info.content_offset + fs2t_rand_below(len);
                memcpy(t, m, n);
                t[at] ^= (unsigned char)(1u << fs2t_rand_below(8));
                int r = fastsm2_cms_verify(t, n, c, cl, extra, extralen, NULL, 0, 0);
                CHECK(r != FASTSM2_OK && r < 0 && r >= FASTSM2_ERR_LAST);
            }
            for (size_t cut = 0; cut < n; cut += 1 + n / 97)
                CHECK(fastsm2_cms_verify(m, cut, c, cl, extra, extralen, NULL, 0, 0) != FASTSM2_OK);
            free(t);
        }
        free(m);
    }
    /* the signer's certificate must hold the key */
    size_t n = BIG;
    unsigned char out[BIG];
    CHECK_STATUS(fastsm2_cms_sign(out, &n, content, 10, ocert, ocn, &key, NULL, 0, 0), FASTSM2_ERR_POINT);
    CHECK(n == 0);
    n = BIG;
    CHECK_STATUS(fastsm2_cms_sign(out, &n, content, 10, cert, cn, &key, NULL, 0, 0x100), FASTSM2_ERR_ARG);
    /* a message with the signer's certificate swapped for another's */
    {
        size_t mn, bn;
        unsigned char *m = sign(&mn, content, 100, cert, cn, &key, NULL, 0, FASTSM2_CMS_NO_CERTS);
        unsigned char bundle[2 * BIG];
        memcpy(bundle, ocert, ocn);
        bn = ocn;
        CHECK_STATUS(fastsm2_cms_verify(m, mn, NULL, 0, bundle, bn, NULL, 0, 0), FASTSM2_ERR_ISSUER);
        memcpy(bundle + bn, cert, cn);
        bn += cn;
        CHECK_STATUS(fastsm2_cms_verify(m, mn, NULL, 0, bundle, bn, NULL, 0, 0), FASTSM2_OK);
        free(m);
    }
    /* GmSSL 3's signature: SM3 of the encapsulated content (and attributes)
     * signed as a digest, no Z_A; with and without attributes */
    for (int na = 0; na < 2; na++) {
        size_t mn;
        unsigned f = FASTSM2_CMS_GMSSL | (na ? FASTSM2_CMS_NO_ATTRIBUTES : 0);
        unsigned char *m = sign(&mn, content, 100, cert, cn, &key, NULL, 0, f);
        fastsm2_cms_info gi;
        CHECK_STATUS(fastsm2_cms_get_info(&gi, m, mn), FASTSM2_OK);
        CHECK(gi.gmt0010 == 1 && !gi.detached);
        CHECK_STATUS(fastsm2_cms_verify(m, mn, NULL, 0, NULL, 0, NULL, 0, FASTSM2_CMS_GMSSL), FASTSM2_OK);
        CHECK_STATUS(fastsm2_cms_verify(m, mn, NULL, 0, NULL, 0, "", 0, FASTSM2_CMS_GMSSL), FASTSM2_OK); /* no ID */
        CHECK_STATUS(fastsm2_cms_verify(m, mn, NULL, 0, NULL, 0, NULL, 0, 0), FASTSM2_ERR_BAD_SIGNATURE);
        m[mn - 80] ^= 1; /* inside the signature or the attributes */
        CHECK(fastsm2_cms_verify(m, mn, NULL, 0, NULL, 0, NULL, 0, FASTSM2_CMS_GMSSL) != FASTSM2_OK);
        free(m);
        size_t mm = 0;
        unsigned char *s2 = sign(&mm, content, 100, cert, cn, &key, NULL, 0, 0);
        CHECK_STATUS(fastsm2_cms_verify(s2, mm, NULL, 0, NULL, 0, NULL, 0, FASTSM2_CMS_GMSSL),
                     FASTSM2_ERR_BAD_SIGNATURE);
        free(s2);
    }
    n = BIG;
    CHECK_STATUS(
        fastsm2_cms_sign(out, &n, content, 10, cert, cn, &key, NULL, 0, FASTSM2_CMS_GMSSL | FASTSM2_CMS_DETACHED),
        FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_cms_verify(out, 1, NULL, 0, NULL, 0, NULL, 0, 0x40), FASTSM2_ERR_ARG);
    /* what GmSSL 3.1's cmssign made (tests/fixtures/pki/gmssl-3.1) */
    {
        size_t gl, ml;
        unsigned char *g = fs2t_read_file(FS2T_SOURCE_DIR "/tests/fixtures/pki/gmssl-3.1/signed.cms", &gl);
        unsigned char *msg = fs2t_read_file(FS2T_SOURCE_DIR "/tests/fixtures/pki/gmssl-3.1/msg.txt", &ml);
        CHECK(g != NULL && msg != NULL);
        if (g != NULL && msg != NULL) {
            CHECK_STATUS(fastsm2_cms_verify(g, gl, NULL, 0, NULL, 0, NULL, 0, FASTSM2_CMS_GMSSL), FASTSM2_OK);
            CHECK_STATUS(fastsm2_cms_verify(g, gl, NULL, 0, NULL, 0, NULL, 0, 0), FASTSM2_ERR_BAD_SIGNATURE);
            unsigned char got[256];
            size_t gn = sizeof got;
            CHECK_STATUS(fastsm2_cms_get(got, &gn, FASTSM2_CMS_CONTENT, g, gl), FASTSM2_OK);
            CHECK(gn == ml && memcmp(got, msg, ml) == 0);
        }
        free(g);
        free(msg);
    }
    /* a signer ID of the caller's */
    {
        size_t mn;
        unsigned char *m = sign(&mn, content, 100, cert, cn, &key, "", 0, 0);
        CHECK_STATUS(fastsm2_cms_verify(m, mn, NULL, 0, NULL, 0, "", 0, 0), FASTSM2_OK);
        CHECK_STATUS(fastsm2_cms_verify(m, mn, NULL, 0, NULL, 0, NULL, 0, 0), FASTSM2_ERR_BAD_SIGNATURE);
        free(m);
    }
}

static void test_stream(void)
{
    fastsm2_privkey key;
    fastsm2_pubkey pub;
    unsigned char cert[BIG], prefix[FASTSM2_CMS_PREFIX_MAX], suffix[FASTSM2_CMS_SUFFIX_MAX];
    fs2t_keypair(&key, &pub);
    size_t cn = make_cert(cert, "/CN=stream", &key, &key, NULL, 0, 0);
    static const size_t lens[] = {0, 1, 127, 128, 255, 256, 65535, 65536, 100000};
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        size_t len = lens[i];
        unsigned char *content = malloc(len + 1), d[32];
        fs2t_rand_bytes(content, len);
        fastsm2_sm3(d, content, len);
        for (int det = 0; det < 2; det++) {
            unsigned flags = det ? FASTSM2_CMS_DETACHED : 0;
            size_t pn = sizeof prefix, sn = sizeof suffix, qp = 0, qs = 0;
            CHECK_STATUS(fastsm2_cms_sign_digest(NULL, &qp, NULL, &qs, d, len, cert, cn, &key, NULL, 0, flags),
                         FASTSM2_OK);
            CHECK(qp <= FASTSM2_CMS_PREFIX_MAX && qs <= FASTSM2_CMS_SUFFIX_MAX);
            CHECK_STATUS(fastsm2_cms_sign_digest(prefix, &pn, suffix, &sn, d, len, cert, cn, &key, NULL, 0, flags),
                         FASTSM2_OK);
            CHECK(pn <= qp && sn <= qs);
            size_t n = pn + (det ? 0 : len) + sn;
            unsigned char *m = malloc(n);
            memcpy(m, prefix, pn);
            if (!det)
                memcpy(m + pn, content, len);
            memcpy(m + n - sn, suffix, sn);
            CHECK_STATUS(fastsm2_cms_verify(m, n, det ? content : NULL, det ? len : 0, NULL, 0, NULL, 0, 0),
                         FASTSM2_OK);
            if (det) {
                CHECK_STATUS(fastsm2_cms_verify_digest(m, n, d, NULL, 0, NULL, 0), FASTSM2_OK);
                unsigned char d2[32];
                memcpy(d2, d, 32);
                d2[0] ^= 1;
                CHECK_STATUS(fastsm2_cms_verify_digest(m, n, d2, NULL, 0, NULL, 0), FASTSM2_ERR_DIGEST);
            } else {
                CHECK_STATUS(fastsm2_cms_verify_digest(m, n, d, NULL, 0, NULL, 0), FASTSM2_ERR_ARG);
                fastsm2_cms_info info;
                CHECK_STATUS(fastsm2_cms_get_info(&info, m, n), FASTSM2_OK);
                CHECK(info.content_offset == pn && info.content_len == len);
            }
            /* the same as the one-shot call makes, but for the signature */
            size_t on = 0;
            CHECK_STATUS(fastsm2_cms_sign(NULL, &on, content, len, cert, cn, &key, NULL, 0, flags), FASTSM2_OK);
            /* an upper bound: the signature's DER is up to 72 bytes, and
             * shorter when r or s is (a leading zero byte: 1 in 256 each, so
             * some seeds make it 3 or more below the bound) */
            CHECK(on >= n && on <= n + 8);
            /* too small */
            size_t small = pn - 1, sn2 = sizeof suffix;
            CHECK_STATUS(fastsm2_cms_sign_digest(prefix, &small, suffix, &sn2, d, len, cert, cn, &key, NULL, 0, flags),
                         FASTSM2_ERR_BUFFER_TOO_SMALL);
            CHECK(small == 0 && sn2 == 0);
            free(m);
        }
        free(content);
    }
    size_t pn = sizeof prefix, sn = sizeof suffix;
    unsigned char d[32] = {0};
    CHECK_STATUS(fastsm2_cms_sign_digest(prefix, &pn, suffix, &sn, d, 5, cert, cn, &key, NULL, 0, FASTSM2_CMS_PEM),
                 FASTSM2_ERR_ARG);
}

/* BER to DER (src/codec/ber.h), which every CMS reader applies first:
 * indefinite lengths, long lengths and constructed OCTET STRINGs made DER;
 * hostile forms refused. Then a message of ours made BER by hand reads
 * back the same through the public API. */
static void ber_case(const char *what, const char *in_hex, const char *want_hex)
{
    /* the input in a buffer of its own size, for ASan to see a read past it */
    size_t inlen = strlen(in_hex) / 2, wantlen = want_hex ? strlen(want_hex) / 2 : 0, n = 0;
    unsigned char *in = calloc(1, inlen ? inlen : 1), want[128] = {0}, out[128];
    for (size_t i = 0; i < inlen; i++)
        sscanf(in_hex + 2 * i, "%2hhx", &in[i]);
    for (size_t i = 0; i < wantlen; i++)
        sscanf(want_hex + 2 * i, "%2hhx", &want[i]);
    int changed = -1, ok = fs2_ber_to_der(out, sizeof out, &n, &changed, in, inlen);
    int was_changed = inlen != wantlen || memcmp(in, want, wantlen) != 0;
    free(in);
    if (want_hex == NULL) {
        if (ok)
            printf("ber %s: accepted\n", what);
        CHECK(!ok);
        return;
    }
    if (!ok)
        printf("ber %s: refused\n", what);
    CHECK(ok && n == wantlen);
    CHECK(ok && changed == was_changed);
    if (ok && changed)
        CHECK(memcmp(out, want, wantlen) == 0);
}

static void test_ber(void)
{
    ber_case("der", "3003020105", "3003020105");
    ber_case("indefinite",
             "3080020105"
             "0000",
             "3003020105");
    ber_case("long length", "308103020105", "3003020105");
    ber_case("long length 2", "30820003020105", "3003020105");
    ber_case("octets", "2480040241420401430000", "0403414243");
    ber_case("octets definite",
             "2407040241420401"
             "43",
             "0403414243");
    ber_case("octets nested", "2480248004014100000401420000", "04024142");
    ber_case("nested", "30803080a0800201010000000000000500", NULL); /* bytes after */
    ber_case("nested ok",
             "30803080a08002010100000000"
             "0000",
             "30073005a003020101");
    ber_case("empty octets", "24800000", "0400");
    ber_case("indefinite primitive", "0480410000", NULL);
    ber_case("no end-of-contents", "3080020105", NULL);
    ber_case("stray end-of-contents", "30050000020105", NULL);
    ber_case("eoc at top", "0000", NULL);
    ber_case("octets with integer", "24800201050000", NULL);
    ber_case("high tag", "1f2001ff", NULL);
    ber_case("cut short", "30050201", NULL);
    ber_case("short length past the end",
             "3006"
             "0460"
             "41424344",
             NULL);
    ber_case("short length past the end, nested",
             "3080"
             "0405414243",
             NULL);
    ber_case("bytes after", "300302010500", NULL);
    ber_case("length too long", "3084ffffffff0201", NULL);
    ber_case("definite mismatch", "3004020105", NULL);
    /* nested indefinite SEQUENCEs, well terminated: 20 deep reads, one
     * more than FS2_BER_DEPTH + 1 levels does not */
    for (int levels = 20; levels <= FS2_BER_DEPTH + 2; levels += FS2_BER_DEPTH + 2 - 20) {
        unsigned char deep[4 * (FS2_BER_DEPTH + 2)];
        size_t k = 0, n = 0;
        int changed;
        for (int i = 0; i < levels; i++) {
            deep[k++] = 0x30;
            deep[k++] = 0x80;
        }
        memset(deep + k, 0, 2 * (size_t)levels);
        k += 2 * (size_t)levels;
        int ok = fs2_ber_to_der(NULL, 0, &n, &changed, deep, k);
        CHECK(levels == 20 ? ok && n == 2 * (size_t)levels && changed : !ok);
    }

    /* a message of ours with its outer SEQUENCE made indefinite */
    fastsm2_privkey key;
    fastsm2_pubkey pub;
    unsigned char cert[BIG], content[300];
    fs2t_keypair(&key, &pub);
    size_t cn = make_cert(cert, "/CN=ber", &key, &key, NULL, 0, 0);
    fs2t_rand_bytes(content, sizeof content);
    size_t mn;
    unsigned char *m = sign(&mn, content, sizeof content, cert, cn, &key, NULL, 0, 0);
    CHECK(mn > 4 && m[0] == 0x30 && m[1] == 0x82);
    unsigned char *b = malloc(mn + 2);
    b[0] = 0x30;
    b[1] = 0x80;
    memcpy(b + 2, m + 4, mn - 4);
    b[mn - 2] = 0;
    b[mn - 1] = 0;
    CHECK_STATUS(fastsm2_cms_verify(b, mn, NULL, 0, NULL, 0, NULL, 0, 0), FASTSM2_OK);
    fastsm2_cms_info info;
    CHECK_STATUS(fastsm2_cms_get_info(&info, b, mn), FASTSM2_OK);
    CHECK(info.content_offset == 0 && info.content_len == sizeof content);
    unsigned char got[sizeof content];
    size_t gn = sizeof got;
    CHECK_STATUS(fastsm2_cms_get(got, &gn, FASTSM2_CMS_CONTENT, b, mn), FASTSM2_OK);
    CHECK(gn == sizeof content && memcmp(got, content, gn) == 0);
    b[mn - 1] = 1; /* no end-of-contents */
    CHECK_STATUS(fastsm2_cms_verify(b, mn, NULL, 0, NULL, 0, NULL, 0, 0), FASTSM2_ERR_DER);
    free(b);
    free(m);
}

/* OpenSSL parses our messages; with 3.2 on, it also verifies them (with
 * the signer ID its release uses when none is set) and signs for us. */
static void test_openssl(void)
{
    fastsm2_privkey key;
    fastsm2_pubkey pub;
    unsigned char cert[BIG], content[500];
    fs2t_keypair(&key, &pub);
    size_t cn = make_cert(cert, "/CN=ossl cms", &key, &key, NULL, 0, 0);
    fs2t_rand_bytes(content, sizeof content);
    for (int gm = 0; gm < 2; gm++) {
        size_t n;
        unsigned char *m = sign(&n, content, sizeof content, cert, cn, &key, NULL, 0, gm ? FASTSM2_CMS_GMT0010 : 0);
        const unsigned char *p = m;
        CMS_ContentInfo *ci = d2i_CMS_ContentInfo(NULL, &p, (long)n);
        CHECK(ci != NULL && p == m + n);
        if (ci != NULL && !gm) {
            CHECK(OBJ_obj2nid(CMS_get0_type(ci)) == NID_pkcs7_signed);
            STACK_OF(X509) *certs = CMS_get1_certs(ci);
            CHECK(certs != NULL && sk_X509_num(certs) == 1);
            sk_X509_pop_free(certs, X509_free);
            ASN1_OCTET_STRING **pos = CMS_get0_content(ci);
            CHECK(pos != NULL && *pos != NULL && ASN1_STRING_length(*pos) == (int)sizeof content &&
                  memcmp(ASN1_STRING_get0_data(*pos), content, sizeof content) == 0);
        }
        CMS_ContentInfo_free(ci);
        free(m);
    }
    ERR_clear_error();
    if (OpenSSL_version_num() < 0x30200000L) {
        printf("test_cms: OpenSSL %s signs no CMS with SM2: its verification and signing not tried\n",
               OpenSSL_version(OPENSSL_VERSION));
        return;
    }
    /* OpenSSL hashes the empty ID up to 3.x, the default one from 4.0 */
    int def = fs2t_ossl_no_id_is_default();
    const char *id = def ? NULL : "";
    size_t n;
    unsigned char *m = sign(&n, content, sizeof content, cert, cn, &key, id, 0, FASTSM2_CMS_NO_ATTRIBUTES * 0);
    const unsigned char *p = m, *cp = cert;
    CMS_ContentInfo *ci = d2i_CMS_ContentInfo(NULL, &p, (long)n);
    X509 *x = d2i_X509(NULL, &cp, (long)cn);
    BIO *out = BIO_new(BIO_s_mem());
    X509_STORE *st = X509_STORE_new();
    CHECK(ci && x && CMS_verify(ci, NULL, st, NULL, out, CMS_NO_SIGNER_CERT_VERIFY | CMS_BINARY) == 1);
    BUF_MEM *bm;
    BIO_get_mem_ptr(out, &bm);
    CHECK(bm->length == sizeof content && memcmp(bm->data, content, sizeof content) == 0);
    BIO_free(out);
    CMS_ContentInfo_free(ci);
    free(m);
    /* OpenSSL signs, we verify */
    unsigned char der[256];
    size_t dn = sizeof der;
    CHECK_STATUS(fastsm2_privkey_serialize(der, &dn, &key, FASTSM2_KEYFMT_DER), FASTSM2_OK);
    EVP_PKEY *pk = fs2t_ossl_read_key(NULL, der, dn, FS2T_DER_PKCS8);
    BIO *in = BIO_new_mem_buf(content, sizeof content);
    ci = CMS_sign(x, pk, NULL, in, CMS_BINARY);
    CHECK(ci != NULL);
    unsigned char *od = NULL;
    int on = ci ? i2d_CMS_ContentInfo(ci, &od) : 0;
    CHECK(on > 0);
    if (on > 0)
        CHECK_STATUS(fastsm2_cms_verify(od, (size_t)on, NULL, 0, NULL, 0, id, 0, 0), FASTSM2_OK);
    OPENSSL_free(od);
    CMS_ContentInfo_free(ci);
    BIO_free(in);
    EVP_PKEY_free(pk);
    X509_free(x);
    X509_STORE_free(st);
    ERR_clear_error();
}

/* ---- enveloped data ------------------------------------------------------ */

static unsigned char *seal(size_t *n, const unsigned char *content, size_t len, const unsigned char *rcpts,
                           size_t rcptslen, int cipher, unsigned flags)
{
    size_t need = 0;
    CHECK_STATUS(fastsm2_cms_encrypt(NULL, &need, content, len, rcpts, rcptslen, cipher, flags), FASTSM2_OK);
    unsigned char *out = malloc(need);
    *n = need;
    CHECK_STATUS(fastsm2_cms_encrypt(out, n, content, len, rcpts, rcptslen, cipher, flags), FASTSM2_OK);
    CHECK(*n <= need);
    return out;
}

/* fastsm2_cms_decrypt's result; on an error, out must be zeroed and *outlen 0 */
static int open_msg(unsigned char *out, size_t *outlen, const unsigned char *m, size_t mn, const fastsm2_privkey *key,
                    const unsigned char *cert, size_t certlen)
{
    size_t cap = *outlen;
    memset(out, 0xA5, cap);
    int r = fastsm2_cms_decrypt(out, outlen, m, mn, key, cert, certlen);
    if (r != FASTSM2_OK) {
        size_t nz = 0;
        for (size_t i = 0; i < cap; i++)
            nz += out[i] != 0;
        CHECK(*outlen == 0 && nz == 0);
    }
    return r;
}

static const unsigned char *find(const unsigned char *h, size_t hn, const unsigned char *n, size_t nn)
{
    for (size_t i = 0; i + nn <= hn; i++)
        if (memcmp(h + i, n, nn) == 0)
            return h + i;
    return NULL;
}

/* The contents of the DER element at p (its tag and length skipped). */
static const unsigned char *tlv_in(const unsigned char *p)
{
    p++;
    return (*p & 0x80) ? p + 1 + (*p & 0x7F) : p + 1;
}

static void test_envelope(void)
{
    static const unsigned char oid_cbc[] = {0x06, 0x08, 0x2A, 0x81, 0x1C, 0xCF, 0x55, 0x01, 0x68, 0x02};
    static const unsigned char oid_sm2enc[] = {0x06, 0x09, 0x2A, 0x81, 0x1C, 0xCF, 0x55, 0x01, 0x82, 0x2D, 0x03};
    fastsm2_privkey ka, kb, kc;
    unsigned char *ca = malloc(BIG), *cb = malloc(BIG), *cc = malloc(BIG), *both = malloc(2 * BIG);
    unsigned char content[1000], *out = malloc(BIG);
    CHECK_STATUS(fastsm2_privkey_generate(&ka), FASTSM2_OK);
    CHECK_STATUS(fastsm2_privkey_generate(&kb), FASTSM2_OK);
    CHECK_STATUS(fastsm2_privkey_generate(&kc), FASTSM2_OK);
    size_t na = make_cert(ca, "/CN=Alice", &ka, &ka, NULL, 0, 0);
    size_t nb = make_cert(cb, "/CN=Bob", &kb, &kb, NULL, 0, 0);
    size_t nc = make_cert(cc, "/CN=Carol", &kc, &kc, NULL, 0, 0);
    memcpy(both, ca, na);
    memcpy(both + na, cb, nb);
    for (size_t i = 0; i < sizeof content; i++)
        content[i] = (unsigned char)(i * 7 + 1);

    static const struct {
        int cipher;
        unsigned flags;
    } kinds[] = {{FASTSM2_CMS_SM4_CBC, 0},
                 {FASTSM2_CMS_SM4_GCM, 0},
                 {FASTSM2_CMS_SM4_CBC, FASTSM2_CMS_GMT0010},
                 {FASTSM2_CMS_SM4_CBC, FASTSM2_CMS_GMSSL},
                 {FASTSM2_CMS_SM4_GCM, FASTSM2_CMS_PEM},
                 {FASTSM2_CMS_SM4_CBC, FASTSM2_CMS_KEYID},
                 {FASTSM2_CMS_SM4_GCM, FASTSM2_CMS_KEYID}};
    /* KeyTransRecipientInfo version 2, then rid [0] of a 20-byte key identifier */
    static const unsigned char by_keyid[] = {0x02, 0x01, 0x02, 0x80, 0x14};
    static const size_t lens[] = {0, 1, 15, 16, 17, 1000};
    for (size_t kind = 0; kind < sizeof kinds / sizeof kinds[0]; kind++) {
        int cipher = kinds[kind].cipher;
        unsigned flags = kinds[kind].flags;
        for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
            size_t len = lens[li], mn, on;
            unsigned char *m = seal(&mn, content, len, both, na + nb, cipher, flags);
            fastsm2_cms_info info;
            CHECK_STATUS(fastsm2_cms_get_info(&info, m, mn), FASTSM2_OK);
            CHECK(info.type ==
                  (cipher == FASTSM2_CMS_SM4_GCM ? FASTSM2_CMS_AUTH_ENVELOPED_DATA : FASTSM2_CMS_ENVELOPED_DATA));
            CHECK(info.recipients == 2 && info.cipher == cipher);
            CHECK(info.gmt0010 == !!(flags & (FASTSM2_CMS_GMT0010 | FASTSM2_CMS_GMSSL)));
            if (!(flags & FASTSM2_CMS_PEM))
                CHECK((find(m, mn, by_keyid, sizeof by_keyid) != NULL) == !!(flags & FASTSM2_CMS_KEYID));
            if (!(flags & FASTSM2_CMS_PEM)) {       /* the version: EnvelopedData 2 with KEYID (RFC 5652 6.1) */
                const unsigned char *p = tlv_in(m); /* ContentInfo */
                p = tlv_in(p + 2 + p[1]);           /* past the contentType OID, into [0] */
                p = tlv_in(p);                      /* into the EnvelopedData or AuthEnvelopedData */
                int want = (flags & FASTSM2_CMS_GMSSL)                                    ? 1
                           : (flags & FASTSM2_CMS_KEYID) && cipher == FASTSM2_CMS_SM4_CBC ? 2
                                                                                          : 0;
                CHECK(p[0] == 0x02 && p[1] == 0x01 && p[2] == want);
            }
            /* each recipient, found by its certificate or tried */
            const fastsm2_privkey *keys[2] = {&ka, &kb};
            const unsigned char *certs[2] = {ca, cb};
            size_t certlens[2] = {na, nb};
            for (int who = 0; who < 2; who++) {
                for (int by_cert = 0; by_cert < 2; by_cert++) {
                    on = BIG;
                    CHECK_STATUS(
                        open_msg(out, &on, m, mn, keys[who], by_cert ? certs[who] : NULL, by_cert ? certlens[who] : 0),
                        FASTSM2_OK);
                    CHECK(on == len && memcmp(out, content, len) == 0);
                }
            }
            /* the size rule: exact with out NULL, too small refused */
            size_t q = 0;
            CHECK_STATUS(fastsm2_cms_decrypt(NULL, &q, m, mn, &ka, NULL, 0), FASTSM2_OK);
            CHECK(q == len);
            /* not a recipient: tried, or named by a certificate not among them */
            on = BIG;
            CHECK_STATUS(open_msg(out, &on, m, mn, &kc, NULL, 0), FASTSM2_ERR_RECIPIENT);
            on = BIG;
            CHECK_STATUS(open_msg(out, &on, m, mn, &kc, cc, nc), FASTSM2_ERR_RECIPIENT);
            /* a certificate that is not the key's */
            on = BIG;
            CHECK_STATUS(open_msg(out, &on, m, mn, &ka, cb, nb), FASTSM2_ERR_POINT);
            if (!(flags & FASTSM2_CMS_PEM)) {
                /* cut short: refused with a parsing error, never a crash or plaintext */
                for (size_t cut = 0; cut < mn; cut += (cut < 64 || mn - cut < 64) ? 1 : 37) {
                    unsigned char *t = malloc(cut ? cut : 1);
                    memcpy(t, m, cut);
                    on = BIG;
                    int r = open_msg(out, &on, t, cut, &ka, NULL, 0);
                    CHECK(r != FASTSM2_OK && r < 0 && r >= FASTSM2_ERR_LAST);
                    free(t);
                }
                /* tampered */
                unsigned char *t = malloc(mn);
                if (cipher == FASTSM2_CMS_SM4_GCM) {
                    memcpy(t, m, mn);
                    t[mn - 1] ^= 1; /* the tag, last in the message */
                    on = BIG;
                    CHECK_STATUS(open_msg(out, &on, t, mn, &ka, NULL, 0), FASTSM2_ERR_TAG);
                    if (len) {
                        memcpy(t, m, mn);
                        t[mn - 16 - 2 - 1] ^= 0x80; /* the ciphertext's last byte, before the tag's OCTET STRING */
                        on = BIG;
                        CHECK_STATUS(open_msg(out, &on, t, mn, &kb, cb, nb), FASTSM2_ERR_TAG);
                    }
                } else if (len < 16) {
                    /* one block: the IV's last byte flips the padding byte's high bit */
                    memcpy(t, m, mn);
                    const unsigned char *o = find(t, mn, oid_cbc, sizeof oid_cbc);
                    CHECK(o != NULL && o[sizeof oid_cbc] == 0x04 && o[sizeof oid_cbc + 1] == 16);
                    if (o != NULL) {
                        t[(size_t)(o - t) + sizeof oid_cbc + 2 + 15] ^= 0x80;
                        on = BIG;
                        CHECK_STATUS(open_msg(out, &on, t, mn, &ka, ca, na), FASTSM2_ERR_PADDING);
                    }
                }
                /* an encrypted key's C3 altered: that recipient's key no longer opens it */
                if (!(flags & FASTSM2_CMS_GMSSL)) {
                    memcpy(t, m, mn);
                    const unsigned char *o = find(t, mn, oid_sm2enc, sizeof oid_sm2enc);
                    CHECK(o != NULL);
                    if (o != NULL) {
                        size_t at = (size_t)(o - t) + sizeof oid_sm2enc;
                        CHECK(t[at] == 0x04);
                        t[at + 2 + t[at + 1] - 20] ^= 1; /* inside C3 (C2 is the last 16 bytes) */
                        on = BIG;
                        int r1 = open_msg(out, &on, t, mn, &ka, NULL, 0);
                        on = BIG;
                        int r2 = open_msg(out, &on, t, mn, &kb, NULL, 0);
                        CHECK((r1 == FASTSM2_ERR_RECIPIENT) != (r2 == FASTSM2_ERR_RECIPIENT));
                        CHECK(r1 == FASTSM2_OK || r2 == FASTSM2_OK);
                    }
                }
                free(t);
            }
            free(m);
        }
    }
    /* bad arguments */
    size_t n = 16;
    CHECK_STATUS(fastsm2_cms_encrypt(out, &n, content, 4, ca, na, 3, 0), FASTSM2_ERR_ARG);
    n = 16;
    CHECK_STATUS(fastsm2_cms_encrypt(out, &n, content, 4, ca, na, FASTSM2_CMS_SM4_GCM, FASTSM2_CMS_GMT0010),
                 FASTSM2_ERR_ARG);
    n = 16;
    CHECK_STATUS(
        fastsm2_cms_encrypt(out, &n, content, 4, ca, na, FASTSM2_CMS_SM4_CBC, FASTSM2_CMS_GMSSL | FASTSM2_CMS_KEYID),
        FASTSM2_ERR_ARG);
    n = 16;
    CHECK(fastsm2_cms_encrypt(out, &n, content, 4, content, sizeof content, FASTSM2_CMS_SM4_CBC, 0) != FASTSM2_OK);
    /* a signed message is not enveloped */
    size_t sn;
    unsigned char *sm = sign(&sn, content, 10, ca, na, &ka, NULL, 0, 0);
    n = BIG;
    CHECK_STATUS(open_msg(out, &n, sm, sn, &ka, NULL, 0), FASTSM2_ERR_ARG);
    free(sm);

    /* what GmSSL 3.1's cmsencrypt made for fastsm2's fixture leaf (tests/fixtures/pki/make-gmssl.sh) */
    {
        size_t gl, ml, kl, cl;
        unsigned char *g = fs2t_read_file(FS2T_SOURCE_DIR "/tests/fixtures/pki/gmssl-3.1/enveloped.cms", &gl);
        unsigned char *msg = fs2t_read_file(FS2T_SOURCE_DIR "/tests/fixtures/pki/gmssl-3.1/msg.txt", &ml);
        unsigned char *kp = fs2t_read_file(FS2T_SOURCE_DIR "/tests/fixtures/pki/fastsm2/leaf.key", &kl);
        unsigned char *cp = fs2t_read_file(FS2T_SOURCE_DIR "/tests/fixtures/pki/fastsm2/leaf.pem", &cl);
        fastsm2_privkey lk;
        CHECK(g != NULL && msg != NULL && kp != NULL && cp != NULL);
        if (g && msg && kp && cp) {
            CHECK_STATUS(fastsm2_privkey_parse(&lk, kp, kl), FASTSM2_OK);
            fastsm2_cms_info gi;
            CHECK_STATUS(fastsm2_cms_get_info(&gi, g, gl), FASTSM2_OK);
            CHECK(gi.type == FASTSM2_CMS_ENVELOPED_DATA && gi.gmt0010 && gi.cipher == FASTSM2_CMS_SM4_CBC &&
                  gi.recipients == 1);
            for (int by_cert = 0; by_cert < 2; by_cert++) {
                n = BIG;
                CHECK_STATUS(open_msg(out, &n, g, gl, &lk, by_cert ? cp : NULL, by_cert ? cl : 0), FASTSM2_OK);
                CHECK(n == ml && memcmp(out, msg, ml) == 0);
            }
            n = BIG;
            CHECK_STATUS(open_msg(out, &n, g, gl, &ka, NULL, 0), FASTSM2_ERR_RECIPIENT);
            fastsm2_privkey_clear(&lk);
        }
        free(g);
        free(msg);
        free(kp);
        free(cp);
    }
    /* OpenSSL reads the structure (its SM2 has no CMS key transport to open it) */
    {
        size_t mn;
        unsigned char *m = seal(&mn, content, 100, both, na + nb, FASTSM2_CMS_SM4_CBC, 0);
        const unsigned char *p = m;
        CMS_ContentInfo *ci = d2i_CMS_ContentInfo(NULL, &p, (long)mn);
        CHECK(ci != NULL && p == m + mn);
        if (ci) {
            CHECK(OBJ_obj2nid(CMS_get0_type(ci)) == NID_pkcs7_enveloped);
            STACK_OF(CMS_RecipientInfo) *ris = CMS_get0_RecipientInfos(ci);
            CHECK(ris != NULL && sk_CMS_RecipientInfo_num(ris) == 2);
            if (ris && sk_CMS_RecipientInfo_num(ris) > 0)
                CHECK(CMS_RecipientInfo_type(sk_CMS_RecipientInfo_value(ris, 0)) == CMS_RECIPINFO_TRANS);
        }
        CMS_ContentInfo_free(ci);
        ERR_clear_error();
        free(m);
    }
    fastsm2_privkey_clear(&ka);
    fastsm2_privkey_clear(&kb);
    fastsm2_privkey_clear(&kc);
    free(ca);
    free(cb);
    free(cc);
    free(both);
    free(out);
}

int main(void)
{
    test_sign_verify();
    test_stream();
    test_ber();
    test_openssl();
    test_envelope();
    return fs2t_finish("test_cms");
}
