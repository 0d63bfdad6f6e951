/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SignedData (RFC 5652 clause 5, GM/T 0010-2012 clause 8) with one SM2
 * signer: made (fastsm2_cms_sign, fastsm2_cms_sign_digest) and verified
 * (fastsm2_cms_verify, fastsm2_cms_verify_digest).
 *
 * The message is written as a prefix (the headers up to the content's
 * OCTET STRING header), the content, and a suffix (the signer's
 * certificate and the SignerInfo), so that a content of any size can be
 * streamed between the two: every length is known once the suffix is made,
 * and the suffix needs only the content's digest (signed attributes).
 */
#include <stdlib.h>
#include <time.h>

#include "cms/cms.h"

/* digestAlgorithm and signatureAlgorithm as written */
static void put_alg(fs2_dbuf *o, const unsigned char *oid, size_t oidlen)
{
    size_t m = fs2_dbuf_open(o, FS2_DER_SEQUENCE);
    fs2_dbuf_tlv(o, FS2_DER_OID, oid, oidlen);
    fs2_dbuf_close(o, m);
}

/* The signed attributes (RFC 5652 5.3, 11.1-11.3) as the SET signed over. */
static void put_attrs(fs2_dbuf *o, unsigned tag, const unsigned char *ctype, size_t ctypelen,
                      const unsigned char digest[32], int64_t now)
{
    size_t set = fs2_dbuf_open(o, tag), a, v;
    a = fs2_dbuf_open(o, FS2_DER_SEQUENCE);
    fs2_dbuf_tlv(o, FS2_DER_OID, fs2_oid_attr_content_type, sizeof fs2_oid_attr_content_type);
    v = fs2_dbuf_open(o, FS2_DER_SET);
    fs2_dbuf_tlv(o, FS2_DER_OID, ctype, ctypelen);
    fs2_dbuf_close(o, v);
    fs2_dbuf_close(o, a);
    a = fs2_dbuf_open(o, FS2_DER_SEQUENCE);
    fs2_dbuf_tlv(o, FS2_DER_OID, fs2_oid_attr_signing_time, sizeof fs2_oid_attr_signing_time);
    v = fs2_dbuf_open(o, FS2_DER_SET);
    if (!fs2_time_put(o, now))
        o->err = FASTSM2_ERR_ARG;
    fs2_dbuf_close(o, v);
    fs2_dbuf_close(o, a);
    a = fs2_dbuf_open(o, FS2_DER_SEQUENCE);
    fs2_dbuf_tlv(o, FS2_DER_OID, fs2_oid_attr_message_digest, sizeof fs2_oid_attr_message_digest);
    v = fs2_dbuf_open(o, FS2_DER_SET);
    fs2_dbuf_tlv(o, FS2_DER_OCTET_STRING, digest, 32);
    fs2_dbuf_close(o, v);
    fs2_dbuf_close(o, a);
    fs2_dbuf_close_sorted(o, set);
}

/* The suffix: [0] certificates (unless NO_CERTS) and the SignerInfos SET.
 * content is needed only without attributes (then signed itself). sign 0
 * writes a placeholder of the longest signature (a size bound). */
static int make_suffix(fs2_dbuf *o, const fs2_x509 *cert, const fastsm2_privkey *key, const void *id, size_t idlen,
                       const unsigned char digest[32], const unsigned char *content, size_t contentlen, unsigned flags,
                       int sign, const fastsm2_sm3_ctx *gmssl)
{
    const unsigned char *ctype = flags & FASTSM2_CMS_GMT0010 ? fs2_oid_gm_data : fs2_oid_data;
    size_t ctypelen = flags & FASTSM2_CMS_GMT0010 ? sizeof fs2_oid_gm_data : sizeof fs2_oid_data;
    unsigned char raw[64], sig[FASTSM2_SIG_DER_MAX];
    size_t siglen = sizeof sig;
    int64_t now = (int64_t)time(NULL);
    fs2_dbuf attrs;
    int ret = FASTSM2_OK;

    fs2_dbuf_init(&attrs);
    if (!(flags & FASTSM2_CMS_NO_ATTRIBUTES)) {
        put_attrs(&attrs, FS2_DER_SET, ctype, ctypelen, digest, now);
        if (attrs.err) {
            ret = attrs.err;
            goto done;
        }
    }
    if (!sign) {
        memset(sig, 0, sizeof sig);
    } else if (gmssl != NULL) {
        /* GmSSL 3's: SM3 of the encapsulated ContentInfo and the attributes'
         * contents, signed as a digest (FASTSM2_CMS_GMSSL) */
        fastsm2_sm3_ctx h = *gmssl;
        unsigned char e[32];
        if (attrs.n) {
            fs2_der_in in;
            unsigned tag;
            uint64_t alen;
            fs2_der_init(&in, attrs.p, attrs.n);
            size_t hl = fs2_der_get_hdr(&in, &tag, &alen);
            fastsm2_sm3_update(&h, attrs.p + hl, attrs.n - hl);
        }
        fastsm2_sm3_final(e, &h);
        if ((ret = fastsm2_sign_digest(raw, key, e)) != FASTSM2_OK ||
            (ret = fastsm2_sig_to_der(sig, &siglen, raw)) != FASTSM2_OK)
            goto done;
    } else {
        if (flags & FASTSM2_CMS_NO_ATTRIBUTES)
            ret = fastsm2_sign(raw, key, id, idlen, content, contentlen);
        else
            ret = fastsm2_sign(raw, key, id, idlen, attrs.p, attrs.n);
        if (ret != FASTSM2_OK || (ret = fastsm2_sig_to_der(sig, &siglen, raw)) != FASTSM2_OK)
            goto done;
    }
    if (!(flags & FASTSM2_CMS_NO_CERTS))
        fs2_dbuf_tlv(o, FS2_DER_CTX0_CONS, cert->der.p, cert->der.n);
    size_t set = fs2_dbuf_open(o, FS2_DER_SET);
    size_t si = fs2_dbuf_open(o, FS2_DER_SEQUENCE);
    fs2_dbuf_small_uint(o, 1);
    size_t ias = fs2_dbuf_open(o, FS2_DER_SEQUENCE);
    fs2_dbuf_put(o, cert->issuer.p, cert->issuer.n);
    fs2_dbuf_tlv(o, FS2_DER_INTEGER, cert->serial.p, cert->serial.n);
    fs2_dbuf_close(o, ias);
    put_alg(o, fs2_oid_sm3, sizeof fs2_oid_sm3);
    if (!(flags & FASTSM2_CMS_NO_ATTRIBUTES)) {
        /* the same attributes, [0] IMPLICIT */
        fs2_dbuf_put(o, attrs.p, attrs.n);
        if (!o->err)
            o->p[o->n - attrs.n] = FS2_DER_CTX0_CONS;
    }
    put_alg(o, fs2_oid_sm2_sm3, sizeof fs2_oid_sm2_sm3);
    fs2_dbuf_tlv(o, FS2_DER_OCTET_STRING, sig, siglen);
    fs2_dbuf_close(o, si);
    fs2_dbuf_close(o, set);
    ret = o->err ? o->err : FASTSM2_OK;
done:
    fs2_dbuf_free(&attrs);
    return ret;
}

/* The encapsulated ContentInfo's header, up to its content's bytes (the
 * element whole when detached): SEQUENCE { OID data, [0] { OCTET STRING } }. */
static void put_eci_header(fs2_dbuf *o, uint64_t contentlen, unsigned flags)
{
    int gm = (flags & FASTSM2_CMS_GMT0010) != 0, detached = (flags & FASTSM2_CMS_DETACHED) != 0;
    const unsigned char *ctype = gm ? fs2_oid_gm_data : fs2_oid_data;
    size_t ctypelen = gm ? sizeof fs2_oid_gm_data : sizeof fs2_oid_data;
    uint64_t l4 = detached ? 0 : fs2_der_hdr_len(contentlen) + contentlen;
    uint64_t l3 = 2 + ctypelen + (detached ? 0 : fs2_der_hdr_len(l4) + l4);
    fs2_dbuf_hdr(o, FS2_DER_SEQUENCE, l3);
    fs2_dbuf_tlv(o, FS2_DER_OID, ctype, ctypelen);
    if (!detached) {
        fs2_dbuf_hdr(o, FS2_DER_CTX0_CONS, l4);
        fs2_dbuf_hdr(o, FS2_DER_OCTET_STRING, contentlen);
    }
}

/* The prefix, given the suffix's length and the content's. */
static void make_prefix(fs2_dbuf *o, uint64_t contentlen, size_t suffixlen, unsigned flags)
{
    int gm = (flags & FASTSM2_CMS_GMT0010) != 0, detached = (flags & FASTSM2_CMS_DETACHED) != 0;
    size_t ctypelen = gm ? sizeof fs2_oid_gm_data : sizeof fs2_oid_data;
    const unsigned char *stype = gm ? fs2_oid_gm_signed_data : fs2_oid_signed_data;
    size_t stypelen = gm ? sizeof fs2_oid_gm_signed_data : sizeof fs2_oid_signed_data;
    /* digestAlgorithms: SET { SEQUENCE { OID sm3 } } */
    static const unsigned char algs[] = {0x31, 0x0C, 0x30, 0x0A, 0x06, 0x08, 0x2A,
                                         0x81, 0x1C, 0xCF, 0x55, 0x01, 0x83, 0x11};
    uint64_t l4 = detached ? 0 : fs2_der_hdr_len(contentlen) + contentlen; /* [0] { OCTET STRING } */
    uint64_t l3 = 2 + ctypelen + (detached ? 0 : fs2_der_hdr_len(l4) + l4);
    uint64_t l2 = 3 + sizeof algs + fs2_der_hdr_len(l3) + l3 + suffixlen;
    uint64_t l1 = fs2_der_hdr_len(l2) + l2;
    uint64_t l0 = 2 + stypelen + fs2_der_hdr_len(l1) + l1;
    fs2_dbuf_hdr(o, FS2_DER_SEQUENCE, l0);
    fs2_dbuf_tlv(o, FS2_DER_OID, stype, stypelen);
    fs2_dbuf_hdr(o, FS2_DER_CTX0_CONS, l1);
    fs2_dbuf_hdr(o, FS2_DER_SEQUENCE, l2);
    fs2_dbuf_small_uint(o, 1);
    fs2_dbuf_put(o, algs, sizeof algs);
    put_eci_header(o, contentlen, flags);
}

/* The signer's certificate, checked to hold key's public key. */
static int load_signer(fs2_x509 *x, unsigned char **buf, const unsigned char *cert, size_t certlen,
                       const fastsm2_privkey *key)
{
    fastsm2_pubkey a, c;
    unsigned char pa[65], pc[65];
    size_t la = sizeof pa, lc = sizeof pc;
    int ret = fs2_x509_load(x, buf, cert, certlen, FASTSM2_X509_CERTIFICATE);
    if (ret != FASTSM2_OK)
        return ret;
    if ((ret = fs2_x509_spki_key(&c, &x->spki)) != FASTSM2_OK ||
        (ret = fastsm2_privkey_pubkey(&a, key)) != FASTSM2_OK ||
        (ret = fastsm2_pubkey_to_bytes(pa, &la, &a, 0)) != FASTSM2_OK ||
        (ret = fastsm2_pubkey_to_bytes(pc, &lc, &c, 0)) != FASTSM2_OK)
        return ret;
    return la == lc && memcmp(pa, pc, la) == 0 ? FASTSM2_OK : FASTSM2_ERR_POINT;
}

static int bad_out(unsigned char *out, size_t *outlen, int ret)
{
    if (out != NULL && outlen != NULL)
        memset(out, 0, *outlen);
    if (outlen != NULL)
        *outlen = 0;
    return ret;
}

#define SIGN_FLAGS                                                                                                     \
    (FASTSM2_CMS_DETACHED | FASTSM2_CMS_GMT0010 | FASTSM2_CMS_NO_CERTS | FASTSM2_CMS_NO_ATTRIBUTES | FASTSM2_CMS_PEM | \
     FASTSM2_CMS_GMSSL)

int fastsm2_cms_sign(unsigned char *out, size_t *outlen, const unsigned char *content, size_t contentlen,
                     const unsigned char *signer_cert, size_t signer_certlen, const fastsm2_privkey *key,
                     const void *id, size_t idlen, unsigned flags)
{
    fs2_x509 x;
    unsigned char *buf = NULL, digest[32];
    fs2_dbuf suffix, all;
    int ret;

    if (outlen == NULL)
        return FASTSM2_ERR_ARG;
    if ((content == NULL && contentlen != 0) || signer_cert == NULL || key == NULL || (flags & ~SIGN_FLAGS) ||
        (id == NULL && idlen != 0) || ((flags & FASTSM2_CMS_GMSSL) && (flags & FASTSM2_CMS_DETACHED)))
        return bad_out(out, outlen, FASTSM2_ERR_ARG);
    if (flags & FASTSM2_CMS_GMSSL)
        flags |= FASTSM2_CMS_GMT0010;
    if ((ret = load_signer(&x, &buf, signer_cert, signer_certlen, key)) != FASTSM2_OK) {
        free(buf);
        return bad_out(out, outlen, ret);
    }
    fs2_dbuf_init(&suffix);
    fs2_dbuf_init(&all);
    fastsm2_sm3(digest, content, contentlen);
    fastsm2_sm3_ctx gm;
    if (flags & FASTSM2_CMS_GMSSL) {
        fs2_dbuf h;
        fs2_dbuf_init(&h);
        put_eci_header(&h, contentlen, flags);
        fastsm2_sm3_init(&gm);
        fastsm2_sm3_update(&gm, h.p, h.n);
        fastsm2_sm3_update(&gm, content, contentlen);
        ret = h.err ? h.err : FASTSM2_OK;
        fs2_dbuf_free(&h);
        if (ret != FASTSM2_OK) {
            free(buf);
            return bad_out(out, outlen, ret);
        }
    }
    ret = make_suffix(&suffix, &x, key, id, idlen, digest, content, contentlen, flags, out != NULL,
                      flags & FASTSM2_CMS_GMSSL ? &gm : NULL);
    if (ret == FASTSM2_OK) {
        int detached = (flags & FASTSM2_CMS_DETACHED) != 0;
        make_prefix(&all, contentlen, suffix.n, flags);
        if (!detached)
            fs2_dbuf_put(&all, content, contentlen);
        fs2_dbuf_put(&all, suffix.p, suffix.n);
        ret = all.err ? all.err : FASTSM2_OK;
    }
    if (ret == FASTSM2_OK)
        ret = fs2_cms_emit(out, outlen, all.p, all.n, (flags & FASTSM2_CMS_PEM) != 0);
    else
        bad_out(out, outlen, ret);
    fs2_dbuf_free(&suffix);
    fs2_dbuf_free(&all);
    free(buf);
    return ret;
}

int fastsm2_cms_sign_digest(unsigned char *prefix, size_t *prefixlen, unsigned char *suffix, size_t *suffixlen,
                            const unsigned char digest[32], uint64_t contentlen, const unsigned char *signer_cert,
                            size_t signer_certlen, const fastsm2_privkey *key, const void *id, size_t idlen,
                            unsigned flags)
{
    fs2_x509 x;
    unsigned char *buf = NULL;
    fs2_dbuf s, p;
    int ret;

    if (prefixlen == NULL || suffixlen == NULL)
        return FASTSM2_ERR_ARG;
    if ((prefix == NULL) != (suffix == NULL) || digest == NULL || signer_cert == NULL || key == NULL ||
        (flags & ~SIGN_FLAGS) || (flags & (FASTSM2_CMS_PEM | FASTSM2_CMS_NO_ATTRIBUTES | FASTSM2_CMS_GMSSL)) ||
        (id == NULL && idlen != 0)) {
        bad_out(prefix, prefixlen, FASTSM2_ERR_ARG);
        return bad_out(suffix, suffixlen, FASTSM2_ERR_ARG);
    }
    if (flags & FASTSM2_CMS_DETACHED)
        contentlen = 0;
    fs2_dbuf_init(&s);
    fs2_dbuf_init(&p);
    if ((ret = load_signer(&x, &buf, signer_cert, signer_certlen, key)) == FASTSM2_OK &&
        (ret = make_suffix(&s, &x, key, id, idlen, digest, NULL, 0, flags, prefix != NULL, NULL)) == FASTSM2_OK) {
        make_prefix(&p, contentlen, s.n, flags);
        ret = p.err ? p.err : FASTSM2_OK;
    }
    if (ret == FASTSM2_OK && prefix != NULL && (*prefixlen < p.n || *suffixlen < s.n))
        ret = FASTSM2_ERR_BUFFER_TOO_SMALL;
    if (ret == FASTSM2_OK) {
        (void)fs2_x509_emit(prefix, prefixlen, p.p, p.n, 0);
        (void)fs2_x509_emit(suffix, suffixlen, s.p, s.n, 0);
    } else {
        bad_out(prefix, prefixlen, ret);
        bad_out(suffix, suffixlen, ret);
    }
    fs2_dbuf_free(&s);
    fs2_dbuf_free(&p);
    free(buf);
    return ret;
}

/* ---- verification ---------------------------------------------------- */

/* The signed attributes' contentType and messageDigest, each once. */
static int read_attrs(const fs2_signer_info *si, fs2_span *ctype, fs2_span *md)
{
    fs2_der_in attrs = si->attrs, attr, oid, values, v;
    int n_ct = 0, n_md = 0;
    while (!fs2_der_at_end(&attrs)) {
        if (!fs2_der_get(&attrs, FS2_DER_SEQUENCE, &attr) || !fs2_der_get_oid(&attr, &oid) ||
            !fs2_der_get(&attr, FS2_DER_SET, &values) || !fs2_der_at_end(&attr))
            return FASTSM2_ERR_DER;
        if (fs2_der_body_is(&oid, fs2_oid_attr_content_type, sizeof fs2_oid_attr_content_type)) {
            if (!fs2_der_get_oid(&values, &v) || !fs2_der_at_end(&values))
                return FASTSM2_ERR_DER;
            *ctype = v;
            n_ct++;
        } else if (fs2_der_body_is(&oid, fs2_oid_attr_message_digest, sizeof fs2_oid_attr_message_digest)) {
            if (!fs2_der_get(&values, FS2_DER_OCTET_STRING, &v) || !fs2_der_at_end(&values))
                return FASTSM2_ERR_DER;
            *md = v;
            n_md++;
        }
    }
    /* RFC 5652 5.3: both present, each with one value */
    return n_ct == 1 && n_md == 1 ? FASTSM2_OK : FASTSM2_ERR_DER;
}

static int sig_alg_ok(const fs2_span *alg)
{
    static const unsigned char oid_sm2[8] = {0x2A, 0x81, 0x1C, 0xCF, 0x55, 0x01, 0x82, 0x2D}; /* 1.2.156.10197.1.301 */
    return fs2_x509_alg_is_sm2(alg, 1) || fs2_cms_alg_is(alg, oid_sm2, sizeof oid_sm2);
}

/* Verify every signer: with the content (content != NULL) or its digest. */
/* GmSSL 3's signature (FASTSM2_CMS_GMSSL): e = SM3(the encapsulated
 * ContentInfo's DER || the signed attributes' contents), no Z_A. */
static int verify_gmssl(const fs2_signed_data *sd, const fs2_signer_info *si, const fs2_span *spki)
{
    fastsm2_pubkey pub;
    fastsm2_sm3_ctx h;
    unsigned char e[32], raw[64];
    int ret = fs2_x509_spki_key(&pub, spki);
    if (ret != FASTSM2_OK)
        return ret == FASTSM2_ERR_KEY_FORMAT || ret == FASTSM2_ERR_CURVE ? FASTSM2_ERR_ALGORITHM : ret;
    if (fastsm2_sig_from_der(raw, si->signature.p, si->signature.n) != FASTSM2_OK)
        return FASTSM2_ERR_BAD_SIGNATURE;
    fastsm2_sm3_init(&h);
    fastsm2_sm3_update(&h, sd->eci.p, sd->eci.n);
    if (si->has_attrs)
        fastsm2_sm3_update(&h, si->attrs.p, si->attrs.n);
    fastsm2_sm3_final(e, &h);
    ret = fastsm2_verify_digest_status(&pub, e, raw);
    return ret == FASTSM2_ERR_SIG_RANGE ? FASTSM2_ERR_BAD_SIGNATURE : ret;
}

static int verify_all(const unsigned char *cms, size_t cmslen, const unsigned char *content, size_t contentlen,
                      const unsigned char *digest_in, const unsigned char *certs, size_t certslen, const void *id,
                      size_t idlen, unsigned flags)
{
    fs2_cms_msg m;
    fs2_signed_data sd;
    fs2_x509_set set = {0, NULL, NULL};
    const unsigned char *der;
    size_t derlen;
    unsigned char *buf, digest[32], *attrs = NULL;
    int ret, nsigners = 0;

    if ((ret = fs2_cms_load(&m, &der, &derlen, &buf, cms, cmslen)) != FASTSM2_OK)
        goto done;
    if (m.type != FASTSM2_CMS_SIGNED_DATA) {
        ret = FASTSM2_ERR_ARG;
        goto done;
    }
    if ((ret = fs2_signed_data_parse(&sd, &m.content)) != FASTSM2_OK)
        goto done;
    if (digest_in == NULL) {
        if (sd.detached && content == NULL) { /* no content to check against */
            ret = FASTSM2_ERR_ARG;
            goto done;
        }
        if (!sd.detached) {
            if (content != NULL) {
                ret = FASTSM2_ERR_ARG;
                goto done;
            }
            content = sd.econtent.p;
            contentlen = sd.econtent.n;
        }
        fastsm2_sm3(digest, content, contentlen);
    } else {
        if (!sd.detached) {
            ret = FASTSM2_ERR_ARG;
            goto done;
        }
        memcpy(digest, digest_in, 32);
    }
    /* every digest algorithm named is SM3 */
    fs2_der_in algs = sd.digest_algs, alg;
    while (!fs2_der_at_end(&algs)) {
        if (!fs2_der_get(&algs, FS2_DER_SEQUENCE, &alg)) {
            ret = FASTSM2_ERR_DER;
            goto done;
        }
        if (!fs2_cms_alg_is(&alg, fs2_oid_sm3, sizeof fs2_oid_sm3)) {
            ret = FASTSM2_ERR_ALGORITHM;
            goto done;
        }
    }
    if ((ret = fs2_cms_cert_set(&set, &sd.certs, certs, certslen)) != FASTSM2_OK)
        goto done;
    fs2_der_in sis = sd.signer_infos;
    while (!fs2_der_at_end(&sis)) {
        fs2_signer_info si;
        fs2_span ctype = {NULL, 0}, md = {NULL, 0};
        if ((ret = fs2_signer_info_parse(&si, &sis)) != FASTSM2_OK)
            goto done;
        nsigners++;
        if (!fs2_cms_alg_is(&si.digest_alg, fs2_oid_sm3, sizeof fs2_oid_sm3) || !sig_alg_ok(&si.sig_alg)) {
            ret = FASTSM2_ERR_ALGORITHM;
            goto done;
        }
        int idx = fs2_cms_find_cert(&set, si.by_skid, &si.sid_issuer, &si.sid_serial, &si.sid_skid);
        if (idx < 0) {
            ret = FASTSM2_ERR_ISSUER;
            goto done;
        }
        const fs2_span *spki = &set.x[idx].spki;
        if (flags & FASTSM2_CMS_GMSSL) {
            ret = verify_gmssl(&sd, &si, spki);
        } else if (si.has_attrs) {
            if ((ret = read_attrs(&si, &ctype, &md)) != FASTSM2_OK)
                goto done;
            if (!fs2_span_eq(&ctype, &sd.econtent_type)) {
                ret = FASTSM2_ERR_DER;
                goto done;
            }
            if (md.n != 32 || memcmp(md.p, digest, 32) != 0) {
                ret = FASTSM2_ERR_DIGEST;
                goto done;
            }
            /* signed as SET OF (RFC 5652 5.4): the same bytes, tag 0x31 */
            free(attrs);
            if ((attrs = malloc(si.attrs_whole.n)) == NULL) {
                ret = FASTSM2_ERR_NO_MEMORY;
                goto done;
            }
            memcpy(attrs, si.attrs_whole.p, si.attrs_whole.n);
            attrs[0] = FS2_DER_SET;
            ret = fs2_x509_verify_bytes(spki, NULL, &si.signature, attrs, si.attrs_whole.n, id, idlen);
        } else {
            if (content == NULL) { /* only a digest: a signature over the content cannot be checked */
                ret = FASTSM2_ERR_ARG;
                goto done;
            }
            ret = fs2_x509_verify_bytes(spki, NULL, &si.signature, content, contentlen, id, idlen);
        }
        if (ret != FASTSM2_OK)
            goto done;
    }
    if (nsigners == 0)
        ret = FASTSM2_ERR_BAD_SIGNATURE; /* nothing signed */
done:
    free(attrs);
    fs2_x509_set_free(&set);
    free(buf);
    return ret;
}

int fastsm2_cms_verify(const unsigned char *cms, size_t cmslen, const unsigned char *content, size_t contentlen,
                       const unsigned char *certs, size_t certslen, const void *id, size_t idlen, unsigned flags)
{
    if (cms == NULL || (content == NULL && contentlen != 0) || (certs == NULL && certslen != 0) ||
        (id == NULL && idlen != 0) || (flags & ~FASTSM2_CMS_GMSSL))
        return FASTSM2_ERR_ARG;
    return verify_all(cms, cmslen, content, contentlen, NULL, certs, certslen, id, idlen, flags);
}

int fastsm2_cms_verify_digest(const unsigned char *cms, size_t cmslen, const unsigned char digest[32],
                              const unsigned char *certs, size_t certslen, const void *id, size_t idlen)
{
    if (cms == NULL || digest == NULL || (certs == NULL && certslen != 0) || (id == NULL && idlen != 0))
        return FASTSM2_ERR_ARG;
    return verify_all(cms, cmslen, NULL, 0, digest, certs, certslen, id, idlen, 0);
}
