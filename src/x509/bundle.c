/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Certificates and requests as they come: PEM (RFC 7468) or DER, one or a
 * bundle of many; and PEM armour for any DER (fastsm2_pem_encode,
 * fastsm2_pem_decode).
 */
#include <stdlib.h>

#include "x509/x509.h"

#include "codec/pem.h"

static const char *const labels_cert[] = {"CERTIFICATE"};
static const char *const labels_req[] = {"CERTIFICATE REQUEST", "NEW CERTIFICATE REQUEST"};
static const char *const labels_any[] = {"CERTIFICATE", "CERTIFICATE REQUEST", "NEW CERTIFICATE REQUEST"};

int fs2_x509_load(fs2_x509 *x, unsigned char **buf, const unsigned char *in, size_t inlen, int kind)
{
    size_t derlen;
    int ret, which;

    *buf = NULL;
    memset(x, 0, sizeof *x);
    if (in == NULL)
        return FASTSM2_ERR_ARG;
    if (inlen > 0 && in[0] == FS2_DER_SEQUENCE) {
        if (inlen > FS2_X509_DER_MAX)
            return FASTSM2_ERR_TOO_LARGE;
        if ((*buf = malloc(inlen ? inlen : 1)) == NULL)
            return FASTSM2_ERR_NO_MEMORY;
        memcpy(*buf, in, inlen);
        derlen = inlen;
    } else {
        const char *const *labels = kind == FASTSM2_X509_CERTIFICATE ? labels_cert
                                    : kind == FASTSM2_X509_REQUEST   ? labels_req
                                                                     : labels_any;
        size_t nlabels = kind == FASTSM2_X509_CERTIFICATE ? 1 : kind == FASTSM2_X509_REQUEST ? 2 : 3;
        if (inlen > 4 * (size_t)FS2_X509_DER_MAX)
            return FASTSM2_ERR_TOO_LARGE;
        size_t cap = inlen / 4 * 3 + 3 < FS2_X509_DER_MAX ? inlen / 4 * 3 + 3 : FS2_X509_DER_MAX;
        if ((*buf = malloc(cap)) == NULL)
            return FASTSM2_ERR_NO_MEMORY;
        ret = fs2_pem_decode(*buf, cap, &derlen, &which, in, inlen, labels, nlabels, NULL);
        if (ret != FASTSM2_OK) {
            free(*buf);
            *buf = NULL;
            return ret;
        }
    }
    ret = fs2_x509_parse(x, *buf, derlen);
    if (ret == FASTSM2_OK && kind != 0 && x->kind != kind)
        ret = FASTSM2_ERR_DER;
    if (ret != FASTSM2_OK) {
        free(*buf);
        *buf = NULL;
        memset(x, 0, sizeof *x);
    }
    return ret;
}

void fs2_x509_set_free(fs2_x509_set *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->der[i]);
    free(s->der);
    free(s->x);
    s->n = 0;
    s->der = NULL;
    s->x = NULL;
}

/* Append one certificate (a malloc'd DER, owned from now on). */
static int set_add(fs2_x509_set *s, unsigned char *der, size_t derlen)
{
    unsigned char **d = realloc(s->der, (s->n + 1) * sizeof *d);
    if (d == NULL) {
        free(der);
        return FASTSM2_ERR_NO_MEMORY;
    }
    s->der = d;
    fs2_x509 *x = realloc(s->x, (s->n + 1) * sizeof *x);
    if (x == NULL) {
        free(der);
        return FASTSM2_ERR_NO_MEMORY;
    }
    s->x = x;
    int ret = fs2_x509_parse(&s->x[s->n], der, derlen);
    if (ret == FASTSM2_OK && s->x[s->n].kind != FASTSM2_X509_CERTIFICATE)
        ret = FASTSM2_ERR_DER;
    if (ret != FASTSM2_OK) {
        free(der);
        return ret;
    }
    s->der[s->n++] = der;
    return FASTSM2_OK;
}

/* At most this many certificates in a bundle: a bound on the work a hostile
 * bundle makes the path search do. */
#define SET_MAX 1024

int fs2_x509_set_load(fs2_x509_set *s, const unsigned char *in, size_t inlen)
{
    int ret = FASTSM2_OK;
    s->n = 0;
    s->der = NULL;
    s->x = NULL;
    if (in == NULL || inlen == 0)
        return in == NULL && inlen ? FASTSM2_ERR_ARG : FASTSM2_OK;
    if (in[0] == FS2_DER_SEQUENCE) {
        fs2_der_in all, el;
        unsigned tag;
        fs2_der_init(&all, in, inlen);
        while (!fs2_der_at_end(&all)) {
            const unsigned char *start = all.p;
            if (!fs2_der_get_any(&all, &tag, &el) || tag != FS2_DER_SEQUENCE) {
                ret = FASTSM2_ERR_DER;
                break;
            }
            size_t n = (size_t)(all.p - start);
            unsigned char *der;
            if (n > FS2_X509_DER_MAX || s->n == SET_MAX) {
                ret = FASTSM2_ERR_TOO_LARGE;
                break;
            }
            if ((der = malloc(n)) == NULL) {
                ret = FASTSM2_ERR_NO_MEMORY;
                break;
            }
            memcpy(der, start, n);
            if ((ret = set_add(s, der, n)) != FASTSM2_OK)
                break;
        }
    } else {
        size_t pos = 0;
        for (;;) {
            int which;
            size_t derlen;
            unsigned char *der = malloc(FS2_X509_DER_MAX);
            if (der == NULL) {
                ret = FASTSM2_ERR_NO_MEMORY;
                break;
            }
            ret = fs2_pem_decode_next(der, FS2_X509_DER_MAX, &derlen, &which, in, inlen, labels_cert, 1, &pos);
            if (ret != FASTSM2_OK) {
                free(der);
                if (ret == 0)
                    ret = s->n ? FASTSM2_OK : FASTSM2_ERR_PEM;
                break;
            }
            if (s->n == SET_MAX) {
                free(der);
                ret = FASTSM2_ERR_TOO_LARGE;
                break;
            }
            if ((ret = set_add(s, der, derlen)) != FASTSM2_OK)
                break;
        }
    }
    if (ret != FASTSM2_OK)
        fs2_x509_set_free(s);
    return ret;
}

int fastsm2_x509_bundle_count(const unsigned char *bundle, size_t bundlelen)
{
    fs2_x509_set s;
    if (bundle == NULL)
        return FASTSM2_ERR_ARG;
    int ret = fs2_x509_set_load(&s, bundle, bundlelen);
    if (ret != FASTSM2_OK)
        return ret;
    int n = s.n > 0x7FFFFFFF ? 0x7FFFFFFF : (int)s.n;
    fs2_x509_set_free(&s);
    return n;
}

int fastsm2_x509_bundle_get(unsigned char *out, size_t *outlen, size_t i, const unsigned char *bundle, size_t bundlelen)
{
    fs2_x509_set s;
    if (outlen == NULL)
        return FASTSM2_ERR_ARG;
    int ret = bundle == NULL ? FASTSM2_ERR_ARG : fs2_x509_set_load(&s, bundle, bundlelen);
    if (ret == FASTSM2_OK) {
        if (i >= s.n)
            ret = FASTSM2_ERR_LENGTH;
        else
            ret = fs2_x509_emit(out, outlen, s.x[i].der.p, s.x[i].der.n, 0);
        fs2_x509_set_free(&s);
    }
    if (ret != FASTSM2_OK) {
        if (out != NULL)
            memset(out, 0, *outlen);
        *outlen = 0;
    }
    return ret;
}

/* A label as RFC 7468 allows it: printable ASCII but '-', not empty. */
static int label_ok(const char *label)
{
    size_t n = label ? strlen(label) : 0;
    if (n == 0 || n > 64)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (label[i] < 0x20 || label[i] > 0x7E || label[i] == '-')
            return 0;
    return 1;
}

int fastsm2_pem_encode(char *out, size_t *outlen, const char *label, const unsigned char *der, size_t derlen)
{
    if (outlen == NULL)
        return FASTSM2_ERR_ARG;
    if (!label_ok(label) || (der == NULL && derlen != 0)) {
        if (out != NULL)
            memset(out, 0, *outlen);
        *outlen = 0;
        return FASTSM2_ERR_ARG;
    }
    return fs2_x509_emit_fmt((unsigned char *)out, outlen, der, derlen, FASTSM2_KEYFMT_PEM, label);
}

int fastsm2_pem_decode(unsigned char *out, size_t *outlen, const char *label, const char *text, size_t textlen)
{
    int which;
    size_t n;
    if (outlen == NULL)
        return FASTSM2_ERR_ARG;
    if (!label_ok(label) || text == NULL) {
        if (out != NULL)
            memset(out, 0, *outlen);
        *outlen = 0;
        return FASTSM2_ERR_ARG;
    }
    if (out == NULL) { /* the size: the decoded body is at most 3/4 of the text */
        *outlen = textlen / 4 * 3 + 3;
        return FASTSM2_OK;
    }
    int ret = fs2_pem_decode(out, *outlen, &n, &which, (const unsigned char *)text, textlen, &label, 1, NULL);
    if (ret == FASTSM2_ERR_TOO_LARGE)
        ret = FASTSM2_ERR_BUFFER_TOO_SMALL;
    *outlen = ret == FASTSM2_OK ? n : 0;
    return ret;
}
