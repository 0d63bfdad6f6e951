/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Certificates and requests (fastsm2_x509_*, PEM or DER): whatever the
 * input, every reader answers a named status and never reads past it; one
 * that parses gives its fields as text and DER, the DER reads back to the
 * same facts, a PEM armour of it reads back to the same DER, and its
 * public key (if SM2) is a valid point; the chain verifier, the request
 * verifier and the bundle readers take it too. Its first byte, when the
 * input starts with 0xFF, picks a verification time and signer ID.
 */
#include "fuzz_util.h"

static void texts(const uint8_t *data, size_t size, int cert)
{
    static const int what[] = {FASTSM2_X509_SUBJECT, FASTSM2_X509_ISSUER, FASTSM2_X509_SAN, FASTSM2_X509_SERIAL,
                               FASTSM2_X509_TEXT};
    for (size_t i = 0; i < sizeof what / sizeof what[0]; i++) {
        size_t n = 0;
        int st = fastsm2_x509_get_text(NULL, &n, what[i], data, size);
        if (!cert && (what[i] == FASTSM2_X509_ISSUER || what[i] == FASTSM2_X509_SERIAL)) {
            FZ_CHECK(st == FASTSM2_ERR_ARG);
            continue;
        }
        FZ_CHECK(st == FASTSM2_OK);
        char *t = malloc(n + 1);
        size_t m = n;
        FZ_CHECK(t != NULL && fastsm2_x509_get_text(t, &m, what[i], data, size) == FASTSM2_OK);
        FZ_CHECK(m + 1 == n && t[m] == 0 && strlen(t) <= m);
        free(t);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fastsm2_x509_info info, info2;
    int st = fastsm2_x509_get_info(&info, data, size);
    fastsm2_x509_verify_params p;
    fastsm2_x509_verify_params_init(&p);
    p.time = 1767225600; /* 2026-01-01 */
    if (size > 1 && data[0] == 0xFF) {
        p.flags = data[1] & 1 ? FASTSM2_X509_NO_TIME_CHECK : 0;
        p.id = data[1] & 2 ? "" : NULL;
        p.key_usage = data[1] >> 4;
    }
    int depth = 99;
    int vst = fastsm2_x509_verify_chain(&depth, data, size, data, size, data, size, &p);
    FZ_CHECK(vst == FASTSM2_OK || (vst < 0 && vst >= FASTSM2_ERR_LAST));
    FZ_CHECK(vst == FASTSM2_OK ? depth == 0 : depth >= -1 && depth < 32);
    int n = fastsm2_x509_bundle_count(data, size);
    FZ_CHECK(n >= 0 || n >= FASTSM2_ERR_LAST);
    if (st != FASTSM2_OK) {
        FZ_CHECK(st < 0 && st >= FASTSM2_ERR_LAST);
        FZ_CHECK(fz_all_zero(&info, sizeof info));
        FZ_CHECK(vst != FASTSM2_OK);
        FZ_CHECK(fastsm2_x509_verify_request(data, size, NULL, 0) != FASTSM2_OK);
        return 0;
    }
    FZ_CHECK(info.kind == FASTSM2_X509_CERTIFICATE || info.kind == FASTSM2_X509_REQUEST);
    int cert = info.kind == FASTSM2_X509_CERTIFICATE;
    if (!cert) /* a request is no chain: DER of the wrong kind, or PEM of the wrong label */
        FZ_CHECK(vst == FASTSM2_ERR_DER || vst == FASTSM2_ERR_PEM);
    texts(data, size, cert);
    /* its DER, read again, is the same thing */
    size_t dn = 0;
    FZ_CHECK(fastsm2_x509_get_der(NULL, &dn, FASTSM2_X509_DER, data, size) == FASTSM2_OK);
    unsigned char *der = malloc(dn ? dn : 1);
    FZ_CHECK(der != NULL && fastsm2_x509_get_der(der, &dn, FASTSM2_X509_DER, data, size) == FASTSM2_OK);
    if (size > 0 && data[0] == 0x30)
        FZ_CHECK(dn == size && memcmp(der, data, size) == 0);
    FZ_CHECK(fastsm2_x509_get_info(&info2, der, dn) == FASTSM2_OK && memcmp(&info, &info2, sizeof info) == 0);
    /* PEM armour and back */
    size_t pn = 0;
    const char *label = cert ? "CERTIFICATE" : "CERTIFICATE REQUEST";
    FZ_CHECK(fastsm2_pem_encode(NULL, &pn, label, der, dn) == FASTSM2_OK);
    char *pem = malloc(pn);
    FZ_CHECK(pem != NULL && fastsm2_pem_encode(pem, &pn, label, der, dn) == FASTSM2_OK);
    FZ_CHECK(fastsm2_x509_get_info(&info2, (const unsigned char *)pem, pn) == FASTSM2_OK);
    FZ_CHECK(memcmp(&info, &info2, sizeof info) == 0);
    if (cert) {
        unsigned char one[65536];
        size_t on = sizeof one;
        FZ_CHECK(fastsm2_x509_bundle_count((const unsigned char *)pem, pn) == 1);
        FZ_CHECK(fastsm2_x509_bundle_get(one, &on, 0, (const unsigned char *)pem, pn) == FASTSM2_OK);
        FZ_CHECK(on == dn && memcmp(one, der, dn) == 0);
    }
    /* every DER part reads */
    static const int parts[] = {FASTSM2_X509_SUBJECT_DER, FASTSM2_X509_ISSUER_DER, FASTSM2_X509_SPKI_DER,
                                FASTSM2_X509_TBS_DER};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        size_t m = 0;
        int s = fastsm2_x509_get_der(NULL, &m, parts[i], der, dn);
        FZ_CHECK(s == FASTSM2_OK || (!cert && parts[i] == FASTSM2_X509_ISSUER_DER && s == FASTSM2_ERR_ARG));
        FZ_CHECK(s != FASTSM2_OK || m <= dn);
    }
    fastsm2_pubkey pub;
    unsigned char pt[65];
    size_t ptl = sizeof pt;
    int kst = fastsm2_x509_public_key(&pub, der, dn);
    FZ_CHECK((kst == FASTSM2_OK) == (info.sm2_key != 0));
    if (kst == FASTSM2_OK)
        FZ_CHECK(fastsm2_pubkey_to_bytes(pt, &ptl, &pub, 0) == FASTSM2_OK && ptl == 65);
    int rst = fastsm2_x509_verify_request(der, dn, NULL, 0);
    FZ_CHECK(cert ? rst == FASTSM2_ERR_DER : rst == FASTSM2_OK || (rst < 0 && rst >= FASTSM2_ERR_LAST));
    free(pem);
    free(der);
    return 0;
}
