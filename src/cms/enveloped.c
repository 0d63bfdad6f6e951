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

/* The content cipher's parameters: CBC's IV, or GCM's nonce and tag length
 * (checked against mac, the tag carried, unless NULL: not read yet). */
static int read_cipher_alg(int auth, const fs2_span *cipher_alg, const fs2_span *mac, fs2_span *iv, size_t *taglen)
{
    fs2_der_in alg = *cipher_alg, oid, prm, v;
    if (!fs2_der_get_oid(&alg, &oid))
        return FASTSM2_ERR_DER;
    if (!auth && fs2_der_body_is(&oid, fs2_oid_sm4_cbc, sizeof fs2_oid_sm4_cbc)) {
        if (!fs2_der_get(&alg, FS2_DER_OCTET_STRING, iv) || !fs2_der_at_end(&alg))
            return FASTSM2_ERR_DER;
        return iv->n == 16 ? FASTSM2_OK : FASTSM2_ERR_IV;
    }
    if (auth && fs2_der_body_is(&oid, fs2_oid_sm4_gcm, sizeof fs2_oid_sm4_gcm)) {
        *taglen = 12; /* RFC 5084 3.2: icvLen DEFAULT 12 */
        if (!fs2_der_get(&alg, FS2_DER_SEQUENCE, &prm) || !fs2_der_at_end(&alg) ||
            !fs2_der_get(&prm, FS2_DER_OCTET_STRING, iv))
            return FASTSM2_ERR_DER;
        if (!fs2_der_at_end(&prm)) {
            if (!fs2_der_get(&prm, FS2_DER_INTEGER, &v) || v.n != 1 || !fs2_der_at_end(&prm))
                return FASTSM2_ERR_DER;
            *taglen = v.p[0];
        }
        if (*taglen < 12 || *taglen > 16 || (mac != NULL && mac->n != *taglen))
            return FASTSM2_ERR_TAG;
        return iv->n >= 1 && iv->n <= 64 ? FASTSM2_OK : FASTSM2_ERR_IV;
    }
    return FASTSM2_ERR_ALGORITHM;
}

static int read_cipher(const fs2_enveloped *e, fs2_span *iv, size_t *taglen)
{
    return read_cipher_alg(e->auth, &e->cipher_alg, &e->mac, iv, taglen);
}

/* The content key from the recipients (SET contents): with cert, the
 * recipient naming it; without, every SM2 key-transport recipient tried.
 * FASTSM2_ERR_RECIPIENT when none is key's. */
static int find_cek(unsigned char cek[CEK_LEN], const fs2_span *recipients, const fastsm2_privkey *key,
                    const unsigned char *cert, size_t certlen)
{
    fs2_x509_set mine = {0, NULL, NULL};
    int ret, found = 0;
    if (cert != NULL && (ret = key_cert(&mine, cert, certlen, key)) != FASTSM2_OK)
        goto done;
    /* every recipient read (a malformed one is an error), then the key's */
    fs2_der_in ris = *recipients;
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
            ret = FASTSM2_OK;
        } else if (cert != NULL) {
            ret = s == FASTSM2_ERR_DECRYPT ? FASTSM2_ERR_RECIPIENT : s;
            goto done;
        } else if (s != FASTSM2_ERR_DECRYPT && s != FASTSM2_ERR_ALGORITHM && s != FASTSM2_ERR_CIPHERTEXT &&
                   s != FASTSM2_ERR_POINT) {
            ret = s;
            goto done;
        }
    }
done:
    fs2_x509_set_free(&mine);
    return ret;
}

int fastsm2_cms_decrypt(unsigned char *out, size_t *outlen, const unsigned char *cms, size_t cmslen,
                        const fastsm2_privkey *key, const unsigned char *cert, size_t certlen)
{
    fs2_cms_msg m;
    fs2_enveloped e;
    fastsm2_sm4_key k;
    const unsigned char *der;
    size_t derlen, taglen = 0, n = 0;
    unsigned char *buf = NULL, *pt = NULL, cek[CEK_LEN];
    fs2_span iv = {NULL, 0};
    int ret;

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
    if ((ret = find_cek(cek, &e.recipients, key, cert, certlen)) != FASTSM2_OK)
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
    free(buf);
    return ret;
}

/* ---- streamed ------------------------------------------------------------ */

/* The state behind fastsm2_cms_stream. */
typedef struct {
    uint32_t state; /* one of the below */
    int gcm;
    uint64_t total; /* content bytes announced (encryption), ciphertext bytes (decryption) */
    uint64_t done;  /* and given so far */
    size_t taglen;
    union {
        fastsm2_sm4_ctx cbc;
        fastsm2_sm4_gcm_ctx gcm;
    } c;
} stream_st;

#define STREAM_ENCRYPT 0x454E4331u
#define STREAM_DECRYPT 0x44454331u

_Static_assert(sizeof(stream_st) <= sizeof(fastsm2_cms_stream), "fastsm2_cms_stream too small");

/* SP 800-38D 5.2.1.1: plaintexts up to 2^39 - 256 bits */
#define GCM_MAX ((((uint64_t)1) << 36) - 32)
/* CBC: a length whose padded form and DER headers fit in 64 bits */
#define CBC_MAX (((uint64_t)1) << 60)

void fastsm2_cms_stream_clear(fastsm2_cms_stream *ctx)
{
    if (ctx != NULL)
        fs2_wipe(ctx, sizeof *ctx);
}

static stream_st *stream_of(fastsm2_cms_stream *ctx, uint32_t state)
{
    stream_st *s = (stream_st *)(void *)ctx;
    return s != NULL && s->state == state ? s : NULL;
}

/* The cipher's state from the content key: CBC with PKCS#7 or GCM. */
static int stream_start(stream_st *s, const unsigned char cek[CEK_LEN], int enc, int gcm, const unsigned char *iv,
                        size_t ivlen)
{
    fastsm2_sm4_key k;
    int ret = fastsm2_sm4_key_init(&k, cek);
    if (ret == FASTSM2_OK)
        ret = gcm ? fastsm2_sm4_gcm_init(&s->c.gcm, enc, &k, iv, ivlen)
                  : fastsm2_sm4_init(&s->c.cbc, FASTSM2_SM4_CBC, enc, FASTSM2_SM4_PAD_PKCS7, &k, iv, ivlen);
    fastsm2_sm4_key_clear(&k);
    s->gcm = gcm;
    return ret;
}

/* A failed stream call's outputs: out zeroed over its capacity cap (the
 * callee may have lowered *outlen), *outlen 0. */
static int stream_fail(unsigned char *out, size_t cap, size_t *outlen, int ret)
{
    if (out != NULL)
        memset(out, 0, cap);
    *outlen = 0;
    return ret;
}

/* Update either cipher: out gets the bytes (CBC: whole blocks). */
static int stream_update(stream_st *s, unsigned char *out, size_t *outlen, const unsigned char *in, size_t inlen)
{
    if (!s->gcm)
        return fastsm2_sm4_update(&s->c.cbc, out, outlen, in, inlen);
    if (*outlen < inlen)
        return FASTSM2_ERR_BUFFER_TOO_SMALL;
    int ret = fastsm2_sm4_gcm_update(&s->c.gcm, out, in, inlen);
    *outlen = ret == FASTSM2_OK ? inlen : 0;
    return ret;
}

int fastsm2_cms_encrypt_init(fastsm2_cms_stream *ctx, unsigned char *prefix, size_t *prefixlen, uint64_t contentlen,
                             const unsigned char *recipients, size_t recipientslen, int cipher, unsigned flags)
{
    fs2_x509_set set = {0, NULL, NULL};
    unsigned char cek[CEK_LEN], iv[16];
    int gcm = cipher == FASTSM2_CMS_SM4_GCM, real = prefix != NULL, ret;
    fs2_dbuf mid, eci, o;
    stream_st *s = (stream_st *)(void *)ctx;

    if (prefixlen == NULL)
        return FASTSM2_ERR_ARG;
    if (ctx != NULL)
        fastsm2_cms_stream_clear(ctx);
    if ((ctx == NULL && real) || recipients == NULL ||
        (cipher != FASTSM2_CMS_SM4_CBC && cipher != FASTSM2_CMS_SM4_GCM) ||
        (flags & ~(FASTSM2_CMS_GMT0010 | FASTSM2_CMS_KEYID)) || (gcm && (flags & FASTSM2_CMS_GMT0010)))
        return bad_out(prefix, prefixlen, FASTSM2_ERR_ARG);
    if (contentlen > (gcm ? GCM_MAX : CBC_MAX))
        return bad_out(prefix, prefixlen, FASTSM2_ERR_LENGTH);
    int keyid = (flags & FASTSM2_CMS_KEYID) != 0, gm = (flags & FASTSM2_CMS_GMT0010) != 0;
    if ((ret = fs2_x509_set_load(&set, recipients, recipientslen)) != FASTSM2_OK)
        return bad_out(prefix, prefixlen, ret);
    if (set.n == 0) {
        fs2_x509_set_free(&set);
        return bad_out(prefix, prefixlen, FASTSM2_ERR_ARG);
    }
    fs2_dbuf_init(&mid);
    fs2_dbuf_init(&eci);
    fs2_dbuf_init(&o);
    if (!fs2_random_bytes(cek, sizeof cek) || !fs2_random_os(iv, sizeof iv)) {
        ret = FASTSM2_ERR_RANDOM;
        goto done;
    }
    /* as fastsm2_cms_encrypt writes it: version and recipientInfos ... */
    fs2_dbuf_small_uint(&mid, keyid && !gcm ? 2 : 0);
    size_t ris = fs2_dbuf_open(&mid, FS2_DER_SET);
    for (size_t i = 0; i < set.n; i++)
        if ((ret = put_ktri(&mid, &set.x[i], cek, real, 0, keyid)) != FASTSM2_OK)
            goto done;
    fs2_dbuf_close_sorted(&mid, ris);
    /* ... the encryptedContentInfo's contentType and algorithm ... */
    if (gm)
        fs2_dbuf_tlv(&eci, FS2_DER_OID, fs2_oid_gm_data, sizeof fs2_oid_gm_data);
    else
        fs2_dbuf_tlv(&eci, FS2_DER_OID, fs2_oid_data, sizeof fs2_oid_data);
    size_t alg = fs2_dbuf_open(&eci, FS2_DER_SEQUENCE);
    if (gcm) {
        fs2_dbuf_tlv(&eci, FS2_DER_OID, fs2_oid_sm4_gcm, sizeof fs2_oid_sm4_gcm);
        size_t prm = fs2_dbuf_open(&eci, FS2_DER_SEQUENCE);
        fs2_dbuf_tlv(&eci, FS2_DER_OCTET_STRING, iv, FASTSM2_SM4_GCM_IV_SIZE);
        fs2_dbuf_small_uint(&eci, FASTSM2_SM4_TAG_SIZE);
        fs2_dbuf_close(&eci, prm);
    } else {
        fs2_dbuf_tlv(&eci, FS2_DER_OID, fs2_oid_sm4_cbc, sizeof fs2_oid_sm4_cbc);
        fs2_dbuf_tlv(&eci, FS2_DER_OCTET_STRING, iv, 16);
    }
    fs2_dbuf_close(&eci, alg);
    if ((ret = mid.err ? mid.err : eci.err ? eci.err : FASTSM2_OK) != FASTSM2_OK)
        goto done;
    /* ... and every length, the ciphertext's known in advance */
    const unsigned char *ctype = gcm  ? fs2_oid_auth_enveloped_data
                                 : gm ? fs2_oid_gm_enveloped_data
                                      : fs2_oid_enveloped_data;
    size_t ctypelen = gcm  ? sizeof fs2_oid_auth_enveloped_data
                      : gm ? sizeof fs2_oid_gm_enveloped_data
                           : sizeof fs2_oid_enveloped_data;
    uint64_t ctlen = gcm ? contentlen : (contentlen / 16 + 1) * 16;
    uint64_t l_eci = eci.n + fs2_der_hdr_len(ctlen) + ctlen;
    uint64_t l_ed = mid.n + fs2_der_hdr_len(l_eci) + l_eci + (gcm ? 2 + FASTSM2_SM4_TAG_SIZE : 0);
    uint64_t l_x0 = fs2_der_hdr_len(l_ed) + l_ed;
    uint64_t l_ci = 2 + ctypelen + fs2_der_hdr_len(l_x0) + l_x0;
    fs2_dbuf_hdr(&o, FS2_DER_SEQUENCE, l_ci);
    fs2_dbuf_tlv(&o, FS2_DER_OID, ctype, ctypelen);
    fs2_dbuf_hdr(&o, FS2_DER_CTX0_CONS, l_x0);
    fs2_dbuf_hdr(&o, FS2_DER_SEQUENCE, l_ed);
    fs2_dbuf_put(&o, mid.p, mid.n);
    fs2_dbuf_hdr(&o, FS2_DER_SEQUENCE, l_eci);
    fs2_dbuf_put(&o, eci.p, eci.n);
    fs2_dbuf_hdr(&o, 0x80u, ctlen);
    if ((ret = o.err ? o.err : FASTSM2_OK) != FASTSM2_OK)
        goto done;
    if (!real) {
        ret = fs2_x509_emit(NULL, prefixlen, o.p, o.n, 0);
        goto done;
    }
    if (*prefixlen < o.n) {
        ret = FASTSM2_ERR_BUFFER_TOO_SMALL;
        goto done;
    }
    if ((ret = stream_start(s, cek, FASTSM2_SM4_ENCRYPT, gcm, iv, gcm ? FASTSM2_SM4_GCM_IV_SIZE : 16)) != FASTSM2_OK)
        goto done;
    s->state = STREAM_ENCRYPT;
    s->total = contentlen;
    ret = fs2_x509_emit(prefix, prefixlen, o.p, o.n, 0);
done:
    fs2_wipe(cek, sizeof cek);
    if (ret != FASTSM2_OK) {
        if (ctx != NULL)
            fastsm2_cms_stream_clear(ctx);
        bad_out(prefix, prefixlen, ret);
    }
    fs2_dbuf_free(&mid);
    fs2_dbuf_free(&eci);
    fs2_dbuf_free(&o);
    fs2_x509_set_free(&set);
    return ret;
}

/* fastsm2_cms_encrypt_update and fastsm2_cms_decrypt_update: the next
 * inlen bytes through a stream started for `mode`. */
static int stream_feed(fastsm2_cms_stream *ctx, uint32_t mode, unsigned char *out, size_t *outlen,
                       const unsigned char *in, size_t inlen)
{
    stream_st *s = stream_of(ctx, mode);
    if (outlen == NULL)
        return FASTSM2_ERR_ARG;
    if (s == NULL)
        return bad_out(out, outlen, FASTSM2_ERR_STATE);
    if (out == NULL || (in == NULL && inlen != 0))
        return bad_out(out, outlen, FASTSM2_ERR_ARG);
    if (inlen > s->total - s->done) {
        fastsm2_cms_stream_clear(ctx);
        return bad_out(out, outlen, FASTSM2_ERR_LENGTH);
    }
    size_t cap = *outlen;
    int ret = stream_update(s, out, outlen, in, inlen);
    if (ret != FASTSM2_OK)
        return stream_fail(out, cap, outlen, ret);
    s->done += inlen;
    return FASTSM2_OK;
}

int fastsm2_cms_encrypt_update(fastsm2_cms_stream *ctx, unsigned char *out, size_t *outlen, const unsigned char *in,
                               size_t inlen)
{
    return stream_feed(ctx, STREAM_ENCRYPT, out, outlen, in, inlen);
}

int fastsm2_cms_encrypt_final(fastsm2_cms_stream *ctx, unsigned char *out, size_t *outlen)
{
    stream_st *s = stream_of(ctx, STREAM_ENCRYPT);
    unsigned char tag[FASTSM2_SM4_TAG_SIZE];
    int ret;
    if (outlen == NULL)
        return FASTSM2_ERR_ARG;
    if (s == NULL)
        return bad_out(out, outlen, FASTSM2_ERR_STATE);
    if (out == NULL)
        return bad_out(out, outlen, FASTSM2_ERR_ARG);
    if (*outlen < (s->gcm ? 2u + FASTSM2_SM4_TAG_SIZE : 16u))
        return bad_out(out, outlen, FASTSM2_ERR_BUFFER_TOO_SMALL);
    size_t cap = *outlen;
    if (s->done != s->total) {
        ret = FASTSM2_ERR_LENGTH;
    } else if (s->gcm) {
        if ((ret = fastsm2_sm4_gcm_encrypt_final(&s->c.gcm, tag, sizeof tag)) == FASTSM2_OK) {
            out[0] = FS2_DER_OCTET_STRING; /* the mac (RFC 5083 2.1), the message's last element */
            out[1] = FASTSM2_SM4_TAG_SIZE;
            memcpy(out + 2, tag, sizeof tag);
            *outlen = 2 + sizeof tag;
        }
    } else {
        ret = fastsm2_sm4_final(&s->c.cbc, out, outlen);
    }
    fs2_wipe(tag, sizeof tag);
    fastsm2_cms_stream_clear(ctx);
    return ret == FASTSM2_OK ? ret : stream_fail(out, cap, outlen, ret);
}

/* ---- the head of a message, read without its ciphertext ----------------- */

/* The header of the element at pos, within end (the enclosing element's end)
 * and the head's headlen bytes: its tag, contents length and header size. */
static int head_hdr(const unsigned char *head, size_t headlen, uint64_t pos, uint64_t end, unsigned *tag, uint64_t *len,
                    size_t *hl)
{
    if (pos >= end)
        return FASTSM2_ERR_DER;
    if (pos >= headlen)
        return FASTSM2_ERR_LENGTH;
    uint64_t lim = end < headlen ? end : headlen;
    fs2_der_in in;
    fs2_der_init(&in, head + pos, (size_t)(lim - pos));
    *hl = fs2_der_get_hdr(&in, tag, len);
    if (*hl == 0) {
        if (in.n >= 2 && in.p[1] == 0x80)
            return FASTSM2_ERR_UNSUPPORTED; /* BER's indefinite form: fastsm2_cms_decrypt reads it */
        if (lim < end && in.n < 10)
            return FASTSM2_ERR_LENGTH; /* cut short by the head's end */
        return FASTSM2_ERR_DER;
    }
    if (*len > end - pos - *hl)
        return FASTSM2_ERR_DER;
    return FASTSM2_OK;
}

/* The whole element at *pos (tag want, or any when 0), which must lie in
 * the head: its contents; *pos moves past it. */
static int head_elem(const unsigned char *head, size_t headlen, uint64_t *pos, uint64_t end, unsigned want,
                     fs2_span *body)
{
    unsigned tag;
    uint64_t len;
    size_t hl;
    int ret = head_hdr(head, headlen, *pos, end, &tag, &len, &hl);
    if (ret != FASTSM2_OK)
        return ret;
    if (want != 0 && tag != want)
        return FASTSM2_ERR_DER;
    if (len > headlen - *pos - hl)
        return FASTSM2_ERR_LENGTH;
    body->p = head + *pos + hl;
    body->n = (size_t)len;
    *pos += hl + len;
    return FASTSM2_OK;
}

/* A header at *pos whose element must end exactly at end; *pos moves to its
 * contents. */
static int head_open(const unsigned char *head, size_t headlen, uint64_t *pos, uint64_t end, unsigned want)
{
    unsigned tag;
    uint64_t len;
    size_t hl;
    int ret = head_hdr(head, headlen, *pos, end, &tag, &len, &hl);
    if (ret != FASTSM2_OK)
        return ret;
    if (tag != want || *pos + hl + len != end)
        return FASTSM2_ERR_DER;
    *pos += hl;
    return FASTSM2_OK;
}

/* An OBJECT IDENTIFIER element's contents, well formed. */
static int head_oid(const unsigned char *head, size_t headlen, uint64_t *pos, uint64_t end, fs2_span *oid)
{
    uint64_t at = *pos;
    fs2_span body;
    int ret = head_elem(head, headlen, pos, end, FS2_DER_OID, &body);
    if (ret != FASTSM2_OK)
        return ret;
    fs2_der_in in;
    fs2_der_init(&in, head + at, (size_t)(*pos - at));
    return fs2_der_get_oid(&in, oid) ? FASTSM2_OK : FASTSM2_ERR_DER;
}

/* The peek of the tag at pos: -1 at end; FASTSM2_ERR_LENGTH past the head
 * (in *ret). */
static int head_peek(const unsigned char *head, size_t headlen, uint64_t pos, uint64_t end, int *ret)
{
    *ret = FASTSM2_OK;
    if (pos >= end)
        return -1;
    if (pos >= headlen) {
        *ret = FASTSM2_ERR_LENGTH;
        return -1;
    }
    return head[pos];
}

int fastsm2_cms_decrypt_init(fastsm2_cms_stream *ctx, uint64_t *ct_offset, uint64_t *ct_len, uint64_t *msg_len,
                             const unsigned char *head, size_t headlen, const fastsm2_privkey *key,
                             const unsigned char *cert, size_t certlen)
{
    stream_st *s = (stream_st *)(void *)ctx;
    unsigned char cek[CEK_LEN];
    fs2_span oid, el, recipients, alg, iv = {NULL, 0};
    uint64_t pos = 0, total, eci_end, len;
    size_t taglen = 0, hl;
    unsigned tag;
    int ret, auth, peek;

    if (ctx == NULL || ct_offset == NULL || ct_len == NULL || msg_len == NULL)
        return FASTSM2_ERR_ARG;
    fastsm2_cms_stream_clear(ctx);
    *ct_offset = *ct_len = *msg_len = 0;
    if (head == NULL || key == NULL || (cert == NULL && certlen != 0))
        return FASTSM2_ERR_ARG;
    if (headlen == 0 || head[0] != FS2_DER_SEQUENCE)
        return FASTSM2_ERR_UNSUPPORTED; /* PEM (or nothing) */
    /* ContentInfo { contentType, [0] EXPLICIT EnvelopedData/AuthEnvelopedData } */
    if ((ret = head_hdr(head, headlen, 0, UINT64_MAX, &tag, &len, &hl)) != FASTSM2_OK)
        return ret;
    total = hl + len;
    pos = hl;
    if ((ret = head_oid(head, headlen, &pos, total, &oid)) != FASTSM2_OK)
        return ret;
    fs2_der_in o = oid;
    if (fs2_der_body_is(&o, fs2_oid_enveloped_data, sizeof fs2_oid_enveloped_data) ||
        fs2_der_body_is(&o, fs2_oid_gm_enveloped_data, sizeof fs2_oid_gm_enveloped_data))
        auth = 0;
    else if (fs2_der_body_is(&o, fs2_oid_auth_enveloped_data, sizeof fs2_oid_auth_enveloped_data))
        auth = 1;
    else if (fs2_der_body_is(&o, fs2_oid_signed_data, sizeof fs2_oid_signed_data) ||
             fs2_der_body_is(&o, fs2_oid_gm_signed_data, sizeof fs2_oid_gm_signed_data))
        return FASTSM2_ERR_ARG; /* not enveloped data (as fastsm2_cms_decrypt says) */
    else
        return FASTSM2_ERR_ALGORITHM;
    if ((ret = head_open(head, headlen, &pos, total, FS2_DER_CTX0_CONS)) != FASTSM2_OK ||
        (ret = head_open(head, headlen, &pos, total, FS2_DER_SEQUENCE)) != FASTSM2_OK)
        return ret;
    /* version, originatorInfo [0] OPTIONAL, recipientInfos */
    if ((ret = head_elem(head, headlen, &pos, total, FS2_DER_INTEGER, &el)) != FASTSM2_OK)
        return ret;
    if (el.n != 1 || el.p[0] > 4)
        return FASTSM2_ERR_DER;
    peek = head_peek(head, headlen, pos, total, &ret);
    if (ret != FASTSM2_OK)
        return ret;
    if (peek == (int)FS2_DER_CTX0_CONS && (ret = head_elem(head, headlen, &pos, total, 0, &el)) != FASTSM2_OK)
        return ret;
    if ((ret = head_elem(head, headlen, &pos, total, FS2_DER_SET, &recipients)) != FASTSM2_OK)
        return ret;
    /* (Auth)EncryptedContentInfo { contentType, algorithm, [0] IMPLICIT ciphertext } */
    if ((ret = head_hdr(head, headlen, pos, total, &tag, &len, &hl)) != FASTSM2_OK)
        return ret;
    if (tag != FS2_DER_SEQUENCE)
        return FASTSM2_ERR_DER;
    eci_end = pos + hl + len;
    pos += hl;
    if ((ret = head_oid(head, headlen, &pos, eci_end, &el)) != FASTSM2_OK ||
        (ret = head_elem(head, headlen, &pos, eci_end, FS2_DER_SEQUENCE, &alg)) != FASTSM2_OK)
        return ret;
    if (pos == eci_end)
        return FASTSM2_ERR_ARG; /* detached encrypted content */
    if ((ret = head_hdr(head, headlen, pos, eci_end, &tag, &len, &hl)) != FASTSM2_OK)
        return ret;
    if (tag == 0xA0u)
        return FASTSM2_ERR_UNSUPPORTED; /* BER's constructed OCTET STRING: fastsm2_cms_decrypt reads it */
    if (tag != 0x80u || pos + hl + len != eci_end)
        return FASTSM2_ERR_DER;
    /* then, as fastsm2_cms_decrypt: the cipher, the recipient, the key */
    if ((ret = read_cipher_alg(auth, &alg, NULL, &iv, &taglen)) != FASTSM2_OK)
        return ret;
    if ((ret = find_cek(cek, &recipients, key, cert, certlen)) != FASTSM2_OK)
        goto done;
    if (!auth && (len == 0 || len % 16 != 0)) {
        ret = FASTSM2_ERR_LENGTH;
        goto done;
    }
    if (auth && len > GCM_MAX) {
        ret = FASTSM2_ERR_LENGTH;
        goto done;
    }
    if ((ret = stream_start(s, cek, FASTSM2_SM4_DECRYPT, auth, iv.p, iv.n)) != FASTSM2_OK)
        goto done;
    s->state = STREAM_DECRYPT;
    s->total = len;
    s->taglen = taglen;
    *ct_offset = pos + hl;
    *ct_len = len;
    *msg_len = total;
done:
    fs2_wipe(cek, sizeof cek);
    if (ret != FASTSM2_OK)
        fastsm2_cms_stream_clear(ctx);
    return ret;
}

int fastsm2_cms_decrypt_update(fastsm2_cms_stream *ctx, unsigned char *out, size_t *outlen, const unsigned char *in,
                               size_t inlen)
{
    return stream_feed(ctx, STREAM_DECRYPT, out, outlen, in, inlen);
}

int fastsm2_cms_decrypt_final(fastsm2_cms_stream *ctx, unsigned char *out, size_t *outlen, const unsigned char *tail,
                              size_t taillen)
{
    stream_st *s = stream_of(ctx, STREAM_DECRYPT);
    fs2_der_in t, el, mac;
    unsigned tag;
    int ret;
    if (outlen == NULL)
        return FASTSM2_ERR_ARG;
    if (s == NULL)
        return bad_out(out, outlen, FASTSM2_ERR_STATE);
    if (out == NULL || (tail == NULL && taillen != 0)) {
        fastsm2_cms_stream_clear(ctx);
        return bad_out(out, outlen, FASTSM2_ERR_ARG);
    }
    if (*outlen < 16) {
        fastsm2_cms_stream_clear(ctx);
        return bad_out(out, outlen, FASTSM2_ERR_BUFFER_TOO_SMALL);
    }
    size_t cap = *outlen;
    /* what follows the EncryptedContentInfo (RFC 5652 6.1, RFC 5083 2.1) */
    fs2_der_init(&t, tail, taillen);
    ret = FASTSM2_OK;
    if (s->done != s->total)
        ret = FASTSM2_ERR_LENGTH;
    else if (fs2_der_peek_tag(&t) == (int)FS2_DER_CTX1_CONS && !fs2_der_get_any(&t, &tag, &el))
        ret = FASTSM2_ERR_DER; /* unprotectedAttrs, authAttrs */
    else if (s->gcm && !fs2_der_get(&t, FS2_DER_OCTET_STRING, &mac))
        ret = FASTSM2_ERR_DER;
    else if (s->gcm && fs2_der_peek_tag(&t) == 0xA2 && !fs2_der_get_any(&t, &tag, &el))
        ret = FASTSM2_ERR_DER; /* unauthAttrs */
    else if (!fs2_der_at_end(&t))
        ret = FASTSM2_ERR_DER;
    else if (s->gcm && mac.n != s->taglen)
        ret = FASTSM2_ERR_TAG;
    if (ret == FASTSM2_OK && s->gcm) {
        ret = fastsm2_sm4_gcm_decrypt_final(&s->c.gcm, mac.p, mac.n);
        *outlen = 0;
    } else if (ret == FASTSM2_OK) {
        ret = fastsm2_sm4_final(&s->c.cbc, out, outlen);
    }
    fastsm2_cms_stream_clear(ctx);
    return ret == FASTSM2_OK ? ret : stream_fail(out, cap, outlen, ret);
}
