/* SPDX-License-Identifier: Apache-2.0 */
/*
 * EnvelopedData (RFC 5652 clause 6, GM/T 0010-2012 clause 9) and
 * AuthEnvelopedData (RFC 5083): made (fastsm2_cms_encrypt), read and
 * opened (fastsm2_cms_decrypt).
 *
 * EnvelopedData ::= SEQUENCE { version, originatorInfo [0] IMPLICIT
 *   OPTIONAL, recipientInfos SET OF RecipientInfo, encryptedContentInfo,
 *   unprotectedAttrs [1] IMPLICIT OPTIONAL }
 * AuthEnvelopedData ::= SEQUENCE { version (0), originatorInfo [0] OPTIONAL,
 *   recipientInfos, authEncryptedContentInfo, authAttrs [1] OPTIONAL,
 *   mac OCTET STRING, unauthAttrs [2] OPTIONAL }
 * EncryptedContentInfo ::= SEQUENCE { contentType, contentEncryptionAlgorithm,
 *   encryptedContent [0] IMPLICIT OCTET STRING OPTIONAL }
 * KeyTransRecipientInfo ::= SEQUENCE { version (0 or 2), rid
 *   (IssuerAndSerialNumber, or [0] IMPLICIT SubjectKeyIdentifier),
 *   keyEncryptionAlgorithm, encryptedKey OCTET STRING }
 * The key transport is SM2 encryption (1.2.156.10197.1.301.3, GM/T 0009
 * DER SM2Cipher of the 16-byte SM4 key); the content cipher SM4-CBC with
 * the IV as an OCTET STRING parameter (GM/T 0010, as GmSSL writes it) or
 * SM4-GCM with RFC 5084's GCMParameters { nonce, icvLen DEFAULT 12 }.
 */
#include <stdlib.h>

#include "cms/cms.h"
#include "codec/dbuf.h"

int fs2_enveloped_parse(fs2_enveloped *e, const fs2_cms_msg *m)
{
    fs2_der_in in = m->content, seq, v, eci, el;
    unsigned tag;
    memset(e, 0, sizeof *e);
    e->auth = m->type == FASTSM2_CMS_AUTH_ENVELOPED_DATA;
    if (!fs2_der_get(&in, FS2_DER_SEQUENCE, &seq) || !fs2_der_at_end(&in) || !fs2_der_get(&seq, FS2_DER_INTEGER, &v) ||
        v.n != 1 || v.p[0] > 4)
        return FASTSM2_ERR_DER;
    if (fs2_der_peek_tag(&seq) == (int)FS2_DER_CTX0_CONS && !fs2_der_get_any(&seq, &tag, &el))
        return FASTSM2_ERR_DER;
    if (!fs2_der_get(&seq, FS2_DER_SET, &e->recipients) || !fs2_der_get(&seq, FS2_DER_SEQUENCE, &eci) ||
        !fs2_der_get_oid(&eci, &e->content_type) || !fs2_der_get(&eci, FS2_DER_SEQUENCE, &e->cipher_alg))
        return FASTSM2_ERR_DER;
    if (!fs2_der_at_end(&eci) && !fs2_der_get(&eci, 0x80u, &e->encrypted))
        return FASTSM2_ERR_DER;
    if (!fs2_der_at_end(&eci))
        return FASTSM2_ERR_DER;
    if (e->auth) {
        if (fs2_der_peek_tag(&seq) == 0xA1 && !fs2_der_get_any(&seq, &tag, &el))
            return FASTSM2_ERR_DER;
        if (!fs2_der_get(&seq, FS2_DER_OCTET_STRING, &e->mac))
            return FASTSM2_ERR_DER;
        if (fs2_der_peek_tag(&seq) == 0xA2 && !fs2_der_get_any(&seq, &tag, &el))
            return FASTSM2_ERR_DER;
    } else if (fs2_der_peek_tag(&seq) == 0xA1 && !fs2_der_get_any(&seq, &tag, &el)) {
        return FASTSM2_ERR_DER;
    }
    return fs2_der_at_end(&seq) ? FASTSM2_OK : FASTSM2_ERR_DER;
}

int fs2_enveloped_info(fastsm2_cms_info *info, const fs2_cms_msg *m)
{
    fs2_enveloped e;
    fs2_der_in r, oid;
    unsigned tag;
    int ret = fs2_enveloped_parse(&e, m);
    if (ret != FASTSM2_OK)
        return ret;
    r = e.recipients;
    fs2_der_in el;
    while (fs2_der_get_any(&r, &tag, &el))
        info->recipients++;
    fs2_der_in alg = e.cipher_alg;
    if (fs2_der_get_oid(&alg, &oid)) {
        if (fs2_der_body_is(&oid, fs2_oid_sm4_cbc, sizeof fs2_oid_sm4_cbc))
            info->cipher = FASTSM2_CMS_SM4_CBC;
        else if (fs2_der_body_is(&oid, fs2_oid_sm4_gcm, sizeof fs2_oid_sm4_gcm))
            info->cipher = FASTSM2_CMS_SM4_GCM;
    }
    return FASTSM2_OK;
}

/* ---- making -------------------------------------------------------------- */

#define CEK_LEN 16

static void put_oid_alg(fs2_dbuf *o, const unsigned char *oid, size_t oidlen)
{
    size_t m = fs2_dbuf_open(o, FS2_DER_SEQUENCE);
    fs2_dbuf_tlv(o, FS2_DER_OID, oid, oidlen);
    fs2_dbuf_close(o, m);
}

/* One KeyTransRecipientInfo: the content key encrypted for x (sized only,
 * with the longest ciphertext of zeros, when !real). */
/* GmSSL 3's sm2encrypt OID (1.2.156.10197.1.301.2; GM/T 0006 gives that
 * arc to SM2 key exchange and .3 to encryption): written with
 * FASTSM2_CMS_GMSSL, read either way for a key-transport recipient. */
static const unsigned char oid_gmssl_sm2_encrypt[9] = {0x2A, 0x81, 0x1C, 0xCF, 0x55, 0x01, 0x82, 0x2D, 0x02};

static int put_ktri(fs2_dbuf *o, const fs2_x509 *x, const unsigned char cek[CEK_LEN], int real, int gmssl, int keyid)
{
    fastsm2_pubkey pub;
    unsigned char ct[256];
    size_t ctlen = fastsm2_ciphertext_size(CEK_LEN, FASTSM2_CT_DER);
    if (keyid && x->skid.n == 0)
        return FASTSM2_ERR_ARG;
    int ret = fs2_x509_spki_key(&pub, &x->spki);
    if (ret != FASTSM2_OK)
        return ret == FASTSM2_ERR_KEY_FORMAT || ret == FASTSM2_ERR_CURVE ? FASTSM2_ERR_ALGORITHM : ret;
    if (ctlen > sizeof ct)
        return FASTSM2_ERR_LENGTH;
    if (real) {
        ctlen = sizeof ct;
        if ((ret = fastsm2_encrypt(ct, &ctlen, &pub, cek, CEK_LEN, FASTSM2_CT_DER)) != FASTSM2_OK)
            return ret;
    } else {
        memset(ct, 0, ctlen);
    }
    size_t ri = fs2_dbuf_open(o, FS2_DER_SEQUENCE);
    /* RFC 5652 6.2.1: 0 with issuerAndSerialNumber, 2 with subjectKeyIdentifier; GmSSL wants 1 */
    fs2_dbuf_small_uint(o, keyid ? 2 : gmssl ? 1 : 0);
    if (keyid) {
        fs2_dbuf_tlv(o, 0x80u, x->skid.p, x->skid.n); /* [0] IMPLICIT SubjectKeyIdentifier */
    } else {
        size_t ias = fs2_dbuf_open(o, FS2_DER_SEQUENCE);
        fs2_dbuf_put(o, x->issuer.p, x->issuer.n);
        fs2_dbuf_tlv(o, FS2_DER_INTEGER, x->serial.p, x->serial.n);
        fs2_dbuf_close(o, ias);
    }
    if (gmssl)
        put_oid_alg(o, oid_gmssl_sm2_encrypt, sizeof oid_gmssl_sm2_encrypt);
    else
        put_oid_alg(o, fs2_oid_sm2_encrypt, sizeof fs2_oid_sm2_encrypt);
    fs2_dbuf_tlv(o, FS2_DER_OCTET_STRING, ct, ctlen);
    fs2_dbuf_close(o, ri);
    return o->err ? o->err : FASTSM2_OK;
}

static int bad_out(unsigned char *out, size_t *outlen, int ret)
{
    if (out != NULL && outlen != NULL)
        memset(out, 0, *outlen);
    if (outlen != NULL)
        *outlen = 0;
    return ret;
}

int fastsm2_cms_encrypt(unsigned char *out, size_t *outlen, const unsigned char *content, size_t contentlen,
                        const unsigned char *recipients, size_t recipientslen, int cipher, unsigned flags)
{
    fs2_x509_set set = {0, NULL, NULL};
    fastsm2_sm4_key k;
    unsigned char cek[CEK_LEN], iv[16], tag[FASTSM2_SM4_TAG_SIZE], *ct = NULL;
    size_t ctlen = 0;
    int gcm = cipher == FASTSM2_CMS_SM4_GCM, real = out != NULL, ret;
    fs2_dbuf o;

    if (outlen == NULL)
        return FASTSM2_ERR_ARG;
    if ((content == NULL && contentlen != 0) || recipients == NULL ||
        (cipher != FASTSM2_CMS_SM4_CBC && cipher != FASTSM2_CMS_SM4_GCM) ||
        (flags & ~(FASTSM2_CMS_GMT0010 | FASTSM2_CMS_PEM | FASTSM2_CMS_GMSSL | FASTSM2_CMS_KEYID)) ||
        (gcm && (flags & (FASTSM2_CMS_GMT0010 | FASTSM2_CMS_GMSSL))) ||
        ((flags & FASTSM2_CMS_KEYID) && (flags & FASTSM2_CMS_GMSSL)) || contentlen > FS2_DBUF_MAX)
        return bad_out(out, outlen, FASTSM2_ERR_ARG);
    int gmssl = (flags & FASTSM2_CMS_GMSSL) != 0, keyid = (flags & FASTSM2_CMS_KEYID) != 0;
    if (gmssl)
        flags |= FASTSM2_CMS_GMT0010;
    if ((ret = fs2_x509_set_load(&set, recipients, recipientslen)) != FASTSM2_OK)
        return bad_out(out, outlen, ret);
    if (set.n == 0) {
        fs2_x509_set_free(&set);
        return bad_out(out, outlen, FASTSM2_ERR_ARG);
    }
    fs2_dbuf_init(&o);
    memset(&k, 0, sizeof k);
    ctlen = gcm ? contentlen : (contentlen / 16 + 1) * 16;
    if ((ct = malloc(ctlen ? ctlen : 1)) == NULL) {
        ret = FASTSM2_ERR_NO_MEMORY;
        goto done;
    }
    if (!fs2_random_bytes(cek, sizeof cek) || !fs2_random_os(iv, sizeof iv)) {
        ret = FASTSM2_ERR_RANDOM;
        goto done;
    }
    if (real) {
        if ((ret = fastsm2_sm4_key_init(&k, cek)) != FASTSM2_OK)
            goto done;
        if (gcm)
            ret = fastsm2_sm4_gcm_encrypt(ct, tag, sizeof tag, &k, iv, FASTSM2_SM4_GCM_IV_SIZE, NULL, 0, content,
                                          contentlen);
        else
            ret = fastsm2_sm4_cbc_encrypt(ct, &ctlen, &k, iv, FASTSM2_SM4_PAD_PKCS7, content, contentlen);
        if (ret != FASTSM2_OK)
            goto done;
    } else {
        memset(ct, 0, ctlen ? ctlen : 1);
        memset(tag, 0, sizeof tag);
    }

    int gm = (flags & FASTSM2_CMS_GMT0010) != 0;
    size_t ci = fs2_dbuf_open(&o, FS2_DER_SEQUENCE);
    if (gcm)
        fs2_dbuf_tlv(&o, FS2_DER_OID, fs2_oid_auth_enveloped_data, sizeof fs2_oid_auth_enveloped_data);
    else if (gm)
        fs2_dbuf_tlv(&o, FS2_DER_OID, fs2_oid_gm_enveloped_data, sizeof fs2_oid_gm_enveloped_data);
    else
        fs2_dbuf_tlv(&o, FS2_DER_OID, fs2_oid_enveloped_data, sizeof fs2_oid_enveloped_data);
    size_t x0 = fs2_dbuf_open(&o, FS2_DER_CTX0_CONS);
    size_t ed = fs2_dbuf_open(&o, FS2_DER_SEQUENCE);
    /* RFC 5652 6.1: EnvelopedData 2 when a recipient is not version 0;
     * RFC 5083 2.1: AuthEnvelopedData always 0 */
    fs2_dbuf_small_uint(&o, gmssl ? 1 : keyid && !gcm ? 2 : 0);
    size_t ris = fs2_dbuf_open(&o, FS2_DER_SET);
    for (size_t i = 0; i < set.n; i++)
        if ((ret = put_ktri(&o, &set.x[i], cek, real, gmssl, keyid)) != FASTSM2_OK)
            goto done;
    fs2_dbuf_close_sorted(&o, ris);
    size_t eci = fs2_dbuf_open(&o, FS2_DER_SEQUENCE);
    if (gm)
        fs2_dbuf_tlv(&o, FS2_DER_OID, fs2_oid_gm_data, sizeof fs2_oid_gm_data);
    else
        fs2_dbuf_tlv(&o, FS2_DER_OID, fs2_oid_data, sizeof fs2_oid_data);
    size_t alg = fs2_dbuf_open(&o, FS2_DER_SEQUENCE);
    if (gcm) {
        fs2_dbuf_tlv(&o, FS2_DER_OID, fs2_oid_sm4_gcm, sizeof fs2_oid_sm4_gcm);
        size_t prm = fs2_dbuf_open(&o, FS2_DER_SEQUENCE);
        fs2_dbuf_tlv(&o, FS2_DER_OCTET_STRING, iv, FASTSM2_SM4_GCM_IV_SIZE);
        fs2_dbuf_small_uint(&o, FASTSM2_SM4_TAG_SIZE);
        fs2_dbuf_close(&o, prm);
    } else {
        fs2_dbuf_tlv(&o, FS2_DER_OID, fs2_oid_sm4_cbc, sizeof fs2_oid_sm4_cbc);
        fs2_dbuf_tlv(&o, FS2_DER_OCTET_STRING, iv, 16);
    }
    fs2_dbuf_close(&o, alg);
    fs2_dbuf_tlv(&o, 0x80u, ct, ctlen);
    fs2_dbuf_close(&o, eci);
    if (gcm)
        fs2_dbuf_tlv(&o, FS2_DER_OCTET_STRING, tag, sizeof tag);
    fs2_dbuf_close(&o, ed);
    fs2_dbuf_close(&o, x0);
    fs2_dbuf_close(&o, ci);
    ret = o.err ? o.err : FASTSM2_OK;
done:
    fs2_wipe(cek, sizeof cek);
    fastsm2_sm4_key_clear(&k);
    if (ret == FASTSM2_OK)
        ret = fs2_cms_emit(out, outlen, o.p, o.n, (flags & FASTSM2_CMS_PEM) != 0);
    else
        bad_out(out, outlen, ret);
    free(ct);
    fs2_dbuf_free(&o);
    fs2_x509_set_free(&set);
    return ret;
}

/* ---- opening ------------------------------------------------------------- */

/* A KeyTransRecipientInfo read; 0 for another kind of recipient (skipped),
 * 1 read, -1 malformed. */
typedef struct {
    int by_skid;
    fs2_span issuer, serial, skid, alg, ek;
} ktri;

static int read_ktri(ktri *r, fs2_der_in *ris)
{
    fs2_der_in el, v, rid;
    unsigned tag;
    memset(r, 0, sizeof *r);
    if (!fs2_der_get_any(ris, &tag, &el))
        return -1;
    if (tag != FS2_DER_SEQUENCE)
        return 0;                                                         /* kari [1], kekri [2], pwri [3], ori [4] */
    if (!fs2_der_get(&el, FS2_DER_INTEGER, &v) || v.n != 1 || v.p[0] > 2) /* 0, 2; GmSSL's 1 */
        return -1;
    if (fs2_der_peek_tag(&el) == 0x80) {
        r->by_skid = 1;
        if (!fs2_der_get(&el, 0x80u, &r->skid))
            return -1;
    } else {
        if (!fs2_der_get(&el, FS2_DER_SEQUENCE, &rid))
            return -1;
        r->issuer.p = rid.p;
        if (!fs2_der_get_any(&rid, &tag, &v) || tag != FS2_DER_SEQUENCE)
            return -1;
        r->issuer.n = (size_t)(v.p + v.n - r->issuer.p);
        if (!fs2_der_get(&rid, FS2_DER_INTEGER, &r->serial) || !fs2_der_at_end(&rid) || r->serial.n == 0)
            return -1;
    }
    if (!fs2_der_get(&el, FS2_DER_SEQUENCE, &r->alg) || !fs2_der_get(&el, FS2_DER_OCTET_STRING, &r->ek) ||
        !fs2_der_at_end(&el))
        return -1;
    return 1;
}

/* The content key from one recipient: FASTSM2_OK, FASTSM2_ERR_DECRYPT (not
 * this key's), or another error. */
static int open_ktri(unsigned char cek[CEK_LEN], const ktri *r, const fastsm2_privkey *key)
{
    unsigned char pt[64];
    size_t n = sizeof pt;
    if (!fs2_cms_alg_is(&r->alg, fs2_oid_sm2_encrypt, sizeof fs2_oid_sm2_encrypt) &&
        !fs2_cms_alg_is(&r->alg, oid_gmssl_sm2_encrypt, sizeof oid_gmssl_sm2_encrypt))
        return FASTSM2_ERR_ALGORITHM;
    if (r->ek.n > 256)
        return FASTSM2_ERR_CIPHERTEXT;
    int ret = fastsm2_decrypt(pt, &n, key, r->ek.p, r->ek.n, FASTSM2_CT_DER);
    if (ret == FASTSM2_ERR_BUFFER_TOO_SMALL)
        ret = FASTSM2_ERR_DECRYPT; /* longer than any SM4 key: not this key's */
    if (ret == FASTSM2_OK && n != CEK_LEN)
        ret = FASTSM2_ERR_DECRYPT;
    if (ret == FASTSM2_OK)
        memcpy(cek, pt, CEK_LEN);
    fs2_wipe(pt, sizeof pt);
    return ret;
}

/* The key's certificate, checked to hold key's public key. */
static int key_cert(fs2_x509_set *set, const unsigned char *cert, size_t certlen, const fastsm2_privkey *key)
{
    fastsm2_pubkey a, c;
    unsigned char pa[65], pc[65];
    size_t la = sizeof pa, lc = sizeof pc;
    int ret = fs2_x509_set_load(set, cert, certlen);
    if (ret != FASTSM2_OK)
        return ret;
    if (set->n != 1)
        return FASTSM2_ERR_ARG;
    if ((ret = fs2_x509_spki_key(&c, &set->x[0].spki)) != FASTSM2_OK ||
        (ret = fastsm2_privkey_pubkey(&a, key)) != FASTSM2_OK ||
        (ret = fastsm2_pubkey_to_bytes(pa, &la, &a, 0)) != FASTSM2_OK ||
        (ret = fastsm2_pubkey_to_bytes(pc, &lc, &c, 0)) != FASTSM2_OK)
        return ret;
    return la == lc && memcmp(pa, pc, la) == 0 ? FASTSM2_OK : FASTSM2_ERR_POINT;
}

/* The content cipher's parameters: CBC's IV, or GCM's nonce and tag length. */
static int read_cipher(const fs2_enveloped *e, fs2_span *iv, size_t *taglen)
{
    fs2_der_in alg = e->cipher_alg, oid, prm, v;
    if (!fs2_der_get_oid(&alg, &oid))
        return FASTSM2_ERR_DER;
    if (!e->auth && fs2_der_body_is(&oid, fs2_oid_sm4_cbc, sizeof fs2_oid_sm4_cbc)) {
        if (!fs2_der_get(&alg, FS2_DER_OCTET_STRING, iv) || !fs2_der_at_end(&alg))
            return FASTSM2_ERR_DER;
        return iv->n == 16 ? FASTSM2_OK : FASTSM2_ERR_IV;
    }
    if (e->auth && fs2_der_body_is(&oid, fs2_oid_sm4_gcm, sizeof fs2_oid_sm4_gcm)) {
        *taglen = 12; /* RFC 5084 3.2: icvLen DEFAULT 12 */
        if (!fs2_der_get(&alg, FS2_DER_SEQUENCE, &prm) || !fs2_der_at_end(&alg) ||
            !fs2_der_get(&prm, FS2_DER_OCTET_STRING, iv))
            return FASTSM2_ERR_DER;
        if (!fs2_der_at_end(&prm)) {
            if (!fs2_der_get(&prm, FS2_DER_INTEGER, &v) || v.n != 1 || !fs2_der_at_end(&prm))
                return FASTSM2_ERR_DER;
            *taglen = v.p[0];
        }
        if (*taglen < 12 || *taglen > 16 || e->mac.n != *taglen)
            return FASTSM2_ERR_TAG;
        return iv->n >= 1 && iv->n <= 64 ? FASTSM2_OK : FASTSM2_ERR_IV;
    }
    return FASTSM2_ERR_ALGORITHM;
}

int fastsm2_cms_decrypt(unsigned char *out, size_t *outlen, const unsigned char *cms, size_t cmslen,
                        const fastsm2_privkey *key, const unsigned char *cert, size_t certlen)
{
    fs2_cms_msg m;
    fs2_enveloped e;
    fs2_x509_set mine = {0, NULL, NULL};
    fastsm2_sm4_key k;
    const unsigned char *der;
    size_t derlen, taglen = 0, n = 0;
    unsigned char *buf = NULL, *pt = NULL, cek[CEK_LEN];
    fs2_span iv = {NULL, 0};
    int ret, found = 0;

    if (outlen == NULL)
        return FASTSM2_ERR_ARG;
    if (cms == NULL || key == NULL || (cert == NULL && certlen != 0))
        return bad_out(out, outlen, FASTSM2_ERR_ARG);
    memset(&k, 0, sizeof k);
    if ((ret = fs2_cms_load(&m, &der, &derlen, &buf, cms, cmslen)) != FASTSM2_OK)
        goto done;
    if (m.type != FASTSM2_CMS_ENVELOPED_DATA && m.type != FASTSM2_CMS_AUTH_ENVELOPED_DATA) {
        ret = FASTSM2_ERR_ARG;
        goto done;
    }
    if ((ret = fs2_enveloped_parse(&e, &m)) != FASTSM2_OK || (ret = read_cipher(&e, &iv, &taglen)) != FASTSM2_OK)
        goto done;
    if (e.encrypted.p == NULL) { /* detached encrypted content */
        ret = FASTSM2_ERR_ARG;
        goto done;
    }
    if (cert != NULL && (ret = key_cert(&mine, cert, certlen, key)) != FASTSM2_OK)
        goto done;
    /* every recipient read (a malformed one is an error), then the key's */
    fs2_der_in ris = e.recipients;
    ret = FASTSM2_ERR_RECIPIENT;
    while (!fs2_der_at_end(&ris) && !found) {
        ktri r;
        int got = read_ktri(&r, &ris);
        if (got < 0) {
            ret = FASTSM2_ERR_DER;
            goto done;
        }
        if (got == 0)
            continue;
        if (cert != NULL && fs2_cms_find_cert(&mine, r.by_skid, &r.issuer, &r.serial, &r.skid) < 0)
            continue;
        int s = open_ktri(cek, &r, key);
        if (s == FASTSM2_OK) {
            found = 1;
        } else if (cert != NULL) {
            ret = s == FASTSM2_ERR_DECRYPT ? FASTSM2_ERR_RECIPIENT : s;
            goto done;
        } else if (s != FASTSM2_ERR_DECRYPT && s != FASTSM2_ERR_ALGORITHM && s != FASTSM2_ERR_CIPHERTEXT &&
                   s != FASTSM2_ERR_POINT) {
            ret = s;
            goto done;
        }
    }
    if (!found)
        goto done;
    if ((ret = fastsm2_sm4_key_init(&k, cek)) != FASTSM2_OK)
        goto done;
    if ((pt = malloc(e.encrypted.n ? e.encrypted.n : 1)) == NULL) {
        ret = FASTSM2_ERR_NO_MEMORY;
        goto done;
    }
    n = e.encrypted.n;
    if (e.auth)
        ret = fastsm2_sm4_gcm_decrypt(pt, &k, iv.p, iv.n, NULL, 0, e.encrypted.p, e.encrypted.n, e.mac.p, e.mac.n);
    else
        ret = fastsm2_sm4_cbc_decrypt(pt, &n, &k, iv.p, FASTSM2_SM4_PAD_PKCS7, e.encrypted.p, e.encrypted.n);
done:
    fs2_wipe(cek, sizeof cek);
    fastsm2_sm4_key_clear(&k);
    if (ret == FASTSM2_OK)
        ret = fs2_x509_emit(out, outlen, pt, n, 0);
    else
        bad_out(out, outlen, ret);
    if (pt != NULL) {
        fs2_wipe(pt, e.encrypted.n ? e.encrypted.n : 1);
        free(pt);
    }
    fs2_x509_set_free(&mine);
    free(buf);
    return ret;
}
