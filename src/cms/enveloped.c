/* SPDX-License-Identifier: Apache-2.0 */
/*
 * EnvelopedData (RFC 5652 clause 6, GM/T 0010-2012 clause 9) and
 * AuthEnvelopedData (RFC 5083): read.
 *
 * EnvelopedData ::= SEQUENCE { version, originatorInfo [0] IMPLICIT
 *   OPTIONAL, recipientInfos SET OF RecipientInfo, encryptedContentInfo,
 *   unprotectedAttrs [1] IMPLICIT OPTIONAL }
 * AuthEnvelopedData ::= SEQUENCE { version (0), originatorInfo [0] OPTIONAL,
 *   recipientInfos, authEncryptedContentInfo, authAttrs [1] OPTIONAL,
 *   mac OCTET STRING, unauthAttrs [2] OPTIONAL }
 * EncryptedContentInfo ::= SEQUENCE { contentType, contentEncryptionAlgorithm,
 *   encryptedContent [0] IMPLICIT OCTET STRING OPTIONAL }
 */
#include "cms/cms.h"

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
