/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CMS ContentInfo (RFC 5652 clause 3, GM/T 0010 clause 6), read from PEM
 * or DER; the SignedData and SignerInfo readers; what the public API says
 * of a message (fastsm2_cms_get, fastsm2_cms_get_info).
 */
#include <stdlib.h>

#include "cms/cms.h"

#include "codec/ber.h"
#include "codec/pem.h"

const unsigned char fs2_oid_data[9] = {0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01};
const unsigned char fs2_oid_signed_data[9] = {0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02};
const unsigned char fs2_oid_enveloped_data[9] = {0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x03};
const unsigned char fs2_oid_auth_enveloped_data[11] = {0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D,
                                                       0x01, 0x09, 0x10, 0x01, 0x17};
const unsigned char fs2_oid_gm_data[10] = {0x2A, 0x81, 0x1C, 0xCF, 0x55, 0x06, 0x01, 0x04, 0x02, 0x01};
const unsigned char fs2_oid_gm_signed_data[10] = {0x2A, 0x81, 0x1C, 0xCF, 0x55, 0x06, 0x01, 0x04, 0x02, 0x02};
const unsigned char fs2_oid_gm_enveloped_data[10] = {0x2A, 0x81, 0x1C, 0xCF, 0x55, 0x06, 0x01, 0x04, 0x02, 0x03};
const unsigned char fs2_oid_attr_content_type[9] = {0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x03};
const unsigned char fs2_oid_attr_message_digest[9] = {0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x04};
const unsigned char fs2_oid_attr_signing_time[9] = {0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x05};
const unsigned char fs2_oid_sm2_encrypt[9] = {0x2A, 0x81, 0x1C, 0xCF, 0x55, 0x01, 0x82, 0x2D, 0x03};
const unsigned char fs2_oid_sm4_cbc[8] = {0x2A, 0x81, 0x1C, 0xCF, 0x55, 0x01, 0x68, 0x02};
const unsigned char fs2_oid_sm4_gcm[8] = {0x2A, 0x81, 0x1C, 0xCF, 0x55, 0x01, 0x68, 0x08};

static const char *const cms_labels[] = {"CMS", "PKCS7"};

int fs2_cms_alg_is(const fs2_span *alg, const unsigned char *oid, size_t oidlen)
{
    fs2_der_in a = *alg, o;
    if (!fs2_der_get_oid(&a, &o) || !fs2_der_body_is(&o, oid, oidlen))
        return 0;
    if (!fs2_der_at_end(&a) && !fs2_der_get_null(&a))
        return 0;
    return fs2_der_at_end(&a);
}

int fs2_cms_emit(unsigned char *out, size_t *outlen, const unsigned char *der, size_t n, int pem)
{
    return fs2_x509_emit_fmt(out, outlen, der, n, pem ? FASTSM2_KEYFMT_PEM : FASTSM2_KEYFMT_DER, "CMS");
}

int fs2_cms_load(fs2_cms_msg *m, const unsigned char **der, size_t *derlen, unsigned char **buf,
                 const unsigned char *in, size_t inlen)
{
    fs2_der_in all, ci, oid, body;
    int which;
    *buf = NULL;
    memset(m, 0, sizeof *m);
    if (in == NULL)
        return FASTSM2_ERR_ARG;
    if (inlen > 0 && in[0] == FS2_DER_SEQUENCE) {
        *der = in;
        *derlen = inlen;
    } else {
        size_t cap = inlen / 4 * 3 + 3;
        if ((*buf = malloc(cap)) == NULL)
            return FASTSM2_ERR_NO_MEMORY;
        int ret = fs2_pem_decode(*buf, cap, derlen, &which, in, inlen, cms_labels, 2, NULL);
        if (ret != FASTSM2_OK)
            return ret;
        *der = *buf;
    }
    /* BER (RFC 5652 lets a message be BER outside its signed attributes):
     * made DER once, here, for the strict reader */
    size_t n;
    int changed;
    if (!fs2_ber_to_der(NULL, 0, &n, &changed, *der, *derlen))
        return FASTSM2_ERR_DER;
    if (changed) {
        unsigned char *d = malloc(n);
        if (d == NULL)
            return FASTSM2_ERR_NO_MEMORY;
        if (!fs2_ber_to_der(d, n, &n, &changed, *der, *derlen)) {
            free(d);
            return FASTSM2_ERR_DER;
        }
        free(*buf);
        *buf = d;
        *der = d;
        *derlen = n;
    }
    fs2_der_init(&all, *der, *derlen);
    if (!fs2_der_get(&all, FS2_DER_SEQUENCE, &ci) || !fs2_der_at_end(&all) || !fs2_der_get_oid(&ci, &oid) ||
        !fs2_der_get(&ci, FS2_DER_CTX0_CONS, &body) || !fs2_der_at_end(&ci))
        return FASTSM2_ERR_DER;
    if (fs2_der_body_is(&oid, fs2_oid_signed_data, sizeof fs2_oid_signed_data)) {
        m->type = FASTSM2_CMS_SIGNED_DATA;
    } else if (fs2_der_body_is(&oid, fs2_oid_gm_signed_data, sizeof fs2_oid_gm_signed_data)) {
        m->type = FASTSM2_CMS_SIGNED_DATA;
        m->gmt0010 = 1;
    } else if (fs2_der_body_is(&oid, fs2_oid_enveloped_data, sizeof fs2_oid_enveloped_data)) {
        m->type = FASTSM2_CMS_ENVELOPED_DATA;
    } else if (fs2_der_body_is(&oid, fs2_oid_gm_enveloped_data, sizeof fs2_oid_gm_enveloped_data)) {
        m->type = FASTSM2_CMS_ENVELOPED_DATA;
        m->gmt0010 = 1;
    } else if (fs2_der_body_is(&oid, fs2_oid_auth_enveloped_data, sizeof fs2_oid_auth_enveloped_data)) {
        m->type = FASTSM2_CMS_AUTH_ENVELOPED_DATA;
    } else {
        return FASTSM2_ERR_ALGORITHM; /* a content type this library does not read */
    }
    m->content = body;
    return FASTSM2_OK;
}

int fs2_signed_data_parse(fs2_signed_data *sd, const fs2_span *content)
{
    fs2_der_in in = *content, seq, v, eci, oid, ec, oct;
    unsigned tag;
    memset(sd, 0, sizeof *sd);
    if (!fs2_der_get(&in, FS2_DER_SEQUENCE, &seq) || !fs2_der_at_end(&in))
        return FASTSM2_ERR_DER;
    if (!fs2_der_get(&seq, FS2_DER_INTEGER, &v) || v.n != 1 || v.p[0] < 1 || v.p[0] > 5)
        return FASTSM2_ERR_DER;
    sd->version = v.p[0];
    if (!fs2_der_get(&seq, FS2_DER_SET, &sd->digest_algs))
        return FASTSM2_ERR_DER;
    const unsigned char *eci_start = seq.p;
    if (!fs2_der_get(&seq, FS2_DER_SEQUENCE, &eci) || !fs2_der_get_oid(&eci, &oid))
        return FASTSM2_ERR_DER;
    fs2_der_init(&sd->eci, eci_start, (size_t)(seq.p - eci_start));
    sd->econtent_type = oid;
    if (fs2_der_at_end(&eci)) {
        sd->detached = 1;
    } else {
        if (!fs2_der_get(&eci, FS2_DER_CTX0_CONS, &ec) || !fs2_der_at_end(&eci) ||
            !fs2_der_get(&ec, FS2_DER_OCTET_STRING, &oct) || !fs2_der_at_end(&ec))
            return FASTSM2_ERR_DER;
        sd->econtent = oct;
    }
    if (fs2_der_peek_tag(&seq) == (int)FS2_DER_CTX0_CONS && !fs2_der_get(&seq, FS2_DER_CTX0_CONS, &sd->certs))
        return FASTSM2_ERR_DER;
    if (fs2_der_peek_tag(&seq) == 0xA1 && !fs2_der_get_any(&seq, &tag, &v)) /* crls: not read */
        return FASTSM2_ERR_DER;
    if (!fs2_der_get(&seq, FS2_DER_SET, &sd->signer_infos) || !fs2_der_at_end(&seq))
        return FASTSM2_ERR_DER;
    return FASTSM2_OK;
}

int fs2_signer_info_parse(fs2_signer_info *si, fs2_der_in *in)
{
    fs2_der_in seq, v, ias;
    unsigned tag;
    memset(si, 0, sizeof *si);
    if (!fs2_der_get(in, FS2_DER_SEQUENCE, &seq) || !fs2_der_get(&seq, FS2_DER_INTEGER, &v) || v.n != 1 ||
        (v.p[0] != 1 && v.p[0] != 3))
        return FASTSM2_ERR_DER;
    si->version = v.p[0];
    if (fs2_der_peek_tag(&seq) == 0x80) {
        if (!fs2_der_get(&seq, 0x80u, &si->sid_skid))
            return FASTSM2_ERR_DER;
        si->by_skid = 1;
    } else {
        const unsigned char *start;
        if (!fs2_der_get(&seq, FS2_DER_SEQUENCE, &ias))
            return FASTSM2_ERR_DER;
        start = ias.p;
        fs2_der_in name;
        if (!fs2_der_get(&ias, FS2_DER_SEQUENCE, &name))
            return FASTSM2_ERR_DER;
        fs2_der_init(&si->sid_issuer, start, (size_t)(ias.p - start));
        if (!fs2_der_get(&ias, FS2_DER_INTEGER, &si->sid_serial) || si->sid_serial.n == 0 || !fs2_der_at_end(&ias))
            return FASTSM2_ERR_DER;
    }
    if (!fs2_der_get(&seq, FS2_DER_SEQUENCE, &si->digest_alg))
        return FASTSM2_ERR_DER;
    if (fs2_der_peek_tag(&seq) == (int)FS2_DER_CTX0_CONS) {
        const unsigned char *start = seq.p;
        if (!fs2_der_get(&seq, FS2_DER_CTX0_CONS, &si->attrs))
            return FASTSM2_ERR_DER;
        fs2_der_init(&si->attrs_whole, start, (size_t)(seq.p - start));
        si->has_attrs = 1;
    }
    if (!fs2_der_get(&seq, FS2_DER_SEQUENCE, &si->sig_alg) || !fs2_der_get(&seq, FS2_DER_OCTET_STRING, &si->signature))
        return FASTSM2_ERR_DER;
    if (fs2_der_peek_tag(&seq) == 0xA1 && !fs2_der_get_any(&seq, &tag, &v)) /* unsigned attributes */
        return FASTSM2_ERR_DER;
    return fs2_der_at_end(&seq) ? FASTSM2_OK : FASTSM2_ERR_DER;
}

/* INTEGER contents compared as numbers (a redundant sign byte aside). */
static int serial_eq(const fs2_span *a, const fs2_span *b)
{
    fs2_span x = *a, y = *b;
    while (x.n > 1 && x.p[0] == 0) {
        x.p++;
        x.n--;
    }
    while (y.n > 1 && y.p[0] == 0) {
        y.p++;
        y.n--;
    }
    return fs2_span_eq(&x, &y);
}

int fs2_cms_find_cert(const fs2_x509_set *certs, int by_skid, const fs2_span *issuer, const fs2_span *serial,
                      const fs2_span *skid)
{
    for (size_t i = 0; i < certs->n; i++) {
        const fs2_x509 *c = &certs->x[i];
        if (by_skid ? (c->skid.n != 0 && fs2_span_eq(&c->skid, skid))
                    : (fs2_span_eq(&c->issuer, issuer) && serial_eq(&c->serial, serial)))
            return (int)i;
    }
    return -1;
}

int fs2_cms_cert_set(fs2_x509_set *set, const fs2_span *msg_certs, const unsigned char *bundle, size_t bundlelen)
{
    fs2_x509_set a, b;
    int ret = fs2_x509_set_load(&a, msg_certs->p, msg_certs->n);
    if (ret != FASTSM2_OK)
        return ret;
    if ((ret = fs2_x509_set_load(&b, bundle, bundlelen)) != FASTSM2_OK) {
        fs2_x509_set_free(&a);
        return ret;
    }
    if (b.n == 0) {
        *set = a;
        return FASTSM2_OK;
    }
    if (a.n == 0) {
        *set = b;
        return FASTSM2_OK;
    }
    unsigned char **der = realloc(a.der, (a.n + b.n) * sizeof *der);
    if (der != NULL)
        a.der = der;
    fs2_x509 *x = der ? realloc(a.x, (a.n + b.n) * sizeof *x) : NULL;
    if (x == NULL) {
        fs2_x509_set_free(&a);
        fs2_x509_set_free(&b);
        return FASTSM2_ERR_NO_MEMORY;
    }
    a.x = x;
    memcpy(a.der + a.n, b.der, b.n * sizeof *der);
    memcpy(a.x + a.n, b.x, b.n * sizeof *x);
    a.n += b.n;
    free(b.der);
    free(b.x);
    *set = a;
    return FASTSM2_OK;
}

/* ---- the public API -------------------------------------------------- */

static int bad_out(unsigned char *out, size_t *outlen, int ret)
{
    if (out != NULL && outlen != NULL)
        memset(out, 0, *outlen);
    if (outlen != NULL)
        *outlen = 0;
    return ret;
}

/* The first signer's certificate among the message's own. */
static int first_signer(fs2_x509_set *set, int *idx, const fs2_signed_data *sd)
{
    fs2_signer_info si;
    fs2_der_in sis = sd->signer_infos;
    int ret;
    if (fs2_der_at_end(&sis))
        return FASTSM2_ERR_ARG;
    if ((ret = fs2_signer_info_parse(&si, &sis)) != FASTSM2_OK)
        return ret;
    if ((ret = fs2_cms_cert_set(set, &sd->certs, NULL, 0)) != FASTSM2_OK)
        return ret;
    *idx = fs2_cms_find_cert(set, si.by_skid, &si.sid_issuer, &si.sid_serial, &si.sid_skid);
    if (*idx < 0) {
        fs2_x509_set_free(set);
        return FASTSM2_ERR_ISSUER;
    }
    return FASTSM2_OK;
}

int fastsm2_cms_get(unsigned char *out, size_t *outlen, int what, const unsigned char *cms, size_t cmslen)
{
    fs2_cms_msg m;
    fs2_signed_data sd;
    fs2_x509_set set = {0, NULL, NULL};
    const unsigned char *der;
    size_t derlen;
    unsigned char *buf;
    int ret, idx;

    if (outlen == NULL)
        return FASTSM2_ERR_ARG;
    if ((ret = fs2_cms_load(&m, &der, &derlen, &buf, cms, cmslen)) != FASTSM2_OK)
        goto fail;
    if (what == FASTSM2_CMS_DER) {
        ret = fs2_x509_emit(out, outlen, der, derlen, 0);
        goto done;
    }
    if (m.type != FASTSM2_CMS_SIGNED_DATA) {
        ret = FASTSM2_ERR_ARG;
        goto fail;
    }
    if ((ret = fs2_signed_data_parse(&sd, &m.content)) != FASTSM2_OK)
        goto fail;
    switch (what) {
    case FASTSM2_CMS_CONTENT:
        if (sd.detached) {
            ret = FASTSM2_ERR_ARG;
            goto fail;
        }
        ret = fs2_x509_emit(out, outlen, sd.econtent.p, sd.econtent.n, 0);
        break;
    case FASTSM2_CMS_SIGNER:
        if ((ret = first_signer(&set, &idx, &sd)) != FASTSM2_OK)
            goto fail;
        ret = fs2_x509_emit(out, outlen, set.x[idx].der.p, set.x[idx].der.n, 0);
        break;
    case FASTSM2_CMS_CERTS:
        if ((ret = fs2_cms_cert_set(&set, &sd.certs, NULL, 0)) != FASTSM2_OK)
            goto fail;
        ret = fs2_x509_emit(out, outlen, sd.certs.p, sd.certs.n, 0);
        break;
    default: ret = FASTSM2_ERR_ARG; goto fail;
    }
done:
    fs2_x509_set_free(&set);
    free(buf);
    return ret;
fail:
    fs2_x509_set_free(&set);
    free(buf);
    return bad_out(out, outlen, ret);
}

/* signingTime of a signer's attributes, or 0. */
static int64_t signing_time(const fs2_signer_info *si)
{
    fs2_der_in attrs = si->attrs, attr, oid, values;
    int64_t t;
    while (fs2_der_get(&attrs, FS2_DER_SEQUENCE, &attr)) {
        if (fs2_der_get_oid(&attr, &oid) &&
            fs2_der_body_is(&oid, fs2_oid_attr_signing_time, sizeof fs2_oid_attr_signing_time) &&
            fs2_der_get(&attr, FS2_DER_SET, &values) && fs2_time_get(&values, &t))
            return t;
    }
    return 0;
}

int fastsm2_cms_get_info(fastsm2_cms_info *info, const unsigned char *cms, size_t cmslen)
{
    fs2_cms_msg m;
    fs2_signed_data sd;
    const unsigned char *der;
    size_t derlen;
    unsigned char *buf;
    int ret;

    if (info == NULL)
        return FASTSM2_ERR_ARG;
    memset(info, 0, sizeof *info);
    if ((ret = fs2_cms_load(&m, &der, &derlen, &buf, cms, cmslen)) != FASTSM2_OK)
        goto done;
    info->type = m.type;
    info->gmt0010 = m.gmt0010;
    if (m.type != FASTSM2_CMS_SIGNED_DATA) {
        ret = fs2_enveloped_info(info, &m);
        goto done;
    }
    if ((ret = fs2_signed_data_parse(&sd, &m.content)) != FASTSM2_OK)
        goto done;
    info->detached = sd.detached;
    if (!sd.detached && buf == NULL) {
        info->content_offset = (uint64_t)(sd.econtent.p - der);
        info->content_len = sd.econtent.n;
    } else if (!sd.detached) {
        info->content_len = sd.econtent.n;
    }
    fs2_der_in sis = sd.signer_infos, certs = sd.certs, el;
    unsigned tag;
    fs2_signer_info si;
    while (!fs2_der_at_end(&sis)) {
        if ((ret = fs2_signer_info_parse(&si, &sis)) != FASTSM2_OK)
            goto done;
        if (info->signers++ == 0)
            info->signing_time = signing_time(&si);
    }
    while (certs.p != NULL && fs2_der_get_any(&certs, &tag, &el))
        info->certificates++;
done:
    if (ret != FASTSM2_OK)
        memset(info, 0, sizeof *info);
    free(buf);
    return ret;
}
