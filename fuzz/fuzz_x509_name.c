/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Name strings ("/C=CN/O=.../CN=...") and subjectAltNames as the builder
 * takes them: a string either is refused with FASTSM2_ERR_NAME or makes a
 * request (signed with a fixed key) whose subject, printed, is a string
 * that makes the same subject again (the printed form is a fixed point),
 * and that OpenSSL's string form round trip would read. The input is
 * split at its first NUL: the name, then a subjectAltName.
 */
#include "fuzz_util.h"

static fastsm2_privkey key;
static int ready;

/* The request's subject, as DER and as text. */
static int subject_of(fastsm2_x509_builder *b, unsigned char *der, size_t *derlen, char *text, size_t *textlen)
{
    unsigned char req[8192];
    size_t n = sizeof req;
    int st = fastsm2_x509_make_request(req, &n, b, &key, NULL, 0, FASTSM2_KEYFMT_DER);
    if (st != FASTSM2_OK)
        return st;
    FZ_CHECK(fastsm2_x509_verify_request(req, n, NULL, 0) == FASTSM2_OK);
    FZ_CHECK(fastsm2_x509_get_der(der, derlen, FASTSM2_X509_SUBJECT_DER, req, n) == FASTSM2_OK);
    FZ_CHECK(fastsm2_x509_get_text(text, textlen, FASTSM2_X509_SUBJECT, req, n) == FASTSM2_OK);
    return FASTSM2_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!ready) {
        fz_key(&key, NULL, 0);
        ready = 1;
    }
    if (size > 2048)
        return 0;
    char s[2050], *san = NULL;
    memcpy(s, data, size);
    s[size] = 0;
    size_t nl = strlen(s);
    if (nl < size)
        san = s + nl + 1;
    fastsm2_x509_builder *b;
    FZ_CHECK(fastsm2_x509_builder_new(&b) == FASTSM2_OK);
    int st = fastsm2_x509_set_subject(b, s);
    FZ_CHECK(st == FASTSM2_OK || st == FASTSM2_ERR_NAME);
    if (san != NULL) {
        int a = fastsm2_x509_add_san(b, san);
        FZ_CHECK(a == FASTSM2_OK || a == FASTSM2_ERR_NAME);
    }
    if (st == FASTSM2_OK) {
        unsigned char d1[4096], d2[4096];
        char t1[8192], t2[8192];
        size_t l1 = sizeof d1, l2 = sizeof d2, tl1 = sizeof t1, tl2 = sizeof t2;
        int r = subject_of(b, d1, &l1, t1, &tl1);
        FZ_CHECK(r == FASTSM2_OK || r == FASTSM2_ERR_TOO_LARGE);
        if (r == FASTSM2_OK) {
            fastsm2_x509_builder *b2;
            FZ_CHECK(fastsm2_x509_builder_new(&b2) == FASTSM2_OK);
            FZ_CHECK(fastsm2_x509_set_subject(b2, t1) == FASTSM2_OK);
            FZ_CHECK(subject_of(b2, d2, &l2, t2, &tl2) == FASTSM2_OK);
            FZ_CHECK(l1 == l2 && memcmp(d1, d2, l1) == 0);
            FZ_CHECK(tl1 == tl2 && strcmp(t1, t2) == 0);
            fastsm2_x509_builder_free(b2);
        }
    }
    fastsm2_x509_builder_free(b);
    return 0;
}
