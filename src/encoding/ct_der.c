/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SM2 ciphertexts in DER, GM/T 0009-2012 clause 7.2 (SM2Cipher):
 *   SEQUENCE { XCoordinate INTEGER, YCoordinate INTEGER,
 *              HASH OCTET STRING (SIZE(32)), CipherText OCTET STRING }
 * x and y are written as minimal non-negative INTEGERs (a leading 00 when
 * the top bit is set, shorter when leading bytes are zero), as OpenSSL 3
 * and GmSSL 3 write them. C2 may be empty when parsing.
 */
#include "der.h"

/* Content of SEQUENCE: 2 INTEGERs of at most 33 content bytes (35 each),
 * C3 (34), then C2. */
#define CT_FIXED_MAX (35 + 35 + 34)

size_t fs2_ct_der_max_size(size_t c2len)
{
    size_t c2 = fs2_der_tlv_len(c2len);
    if (c2 > SIZE_MAX - CT_FIXED_MAX)
        return SIZE_MAX;
    return fs2_der_tlv_len(CT_FIXED_MAX + c2);
}

int fs2_ct_der_encode(unsigned char *out, size_t *outlen, const unsigned char x[32], const unsigned char y[32],
                      const unsigned char c3[32], const unsigned char *c2, size_t c2len)
{
    fs2_der_out o;
    size_t body, c2tlv;

    if (out == NULL || outlen == NULL || x == NULL || y == NULL || c3 == NULL || (c2 == NULL && c2len != 0)) {
        if (out != NULL && outlen != NULL)
            memset(out, 0, *outlen);
        if (outlen != NULL)
            *outlen = 0;
        return FASTSM2_ERR_ARG;
    }
    c2tlv = fs2_der_tlv_len(c2len);
    body = fs2_der_uint_len(x, 32) + fs2_der_uint_len(y, 32) + fs2_der_tlv_len(32);
    if (c2tlv > SIZE_MAX - body || fs2_der_tlv_len(body + c2tlv) > *outlen) {
        memset(out, 0, *outlen);
        *outlen = 0;
        return FASTSM2_ERR_BUFFER_TOO_SMALL;
    }
    body += c2tlv;
    fs2_der_out_init(&o, out, *outlen);
    fs2_der_put_hdr(&o, FS2_DER_SEQUENCE, body);
    fs2_der_put_uint(&o, x, 32);
    fs2_der_put_uint(&o, y, 32);
    fs2_der_put_tlv(&o, FS2_DER_OCTET_STRING, c3, 32);
    fs2_der_put_tlv(&o, FS2_DER_OCTET_STRING, c2, c2len);
    if (o.overflow) { /* cannot happen after the size check; kept as a guard */
        memset(out, 0, *outlen);
        *outlen = 0;
        return FASTSM2_ERR_BUFFER_TOO_SMALL;
    }
    *outlen = o.n;
    return FASTSM2_OK;
}

int fs2_ct_der_decode(unsigned char x[32], unsigned char y[32], const unsigned char **c3, const unsigned char **c2,
                      size_t *c2len, const unsigned char *der, size_t derlen)
{
    fs2_der_in in, seq, h, c;

    if (x == NULL || y == NULL || c3 == NULL || c2 == NULL || c2len == NULL || (der == NULL && derlen != 0)) {
        if (x != NULL)
            memset(x, 0, 32);
        if (y != NULL)
            memset(y, 0, 32);
        if (c3 != NULL)
            *c3 = NULL;
        if (c2 != NULL)
            *c2 = NULL;
        if (c2len != NULL)
            *c2len = 0;
        return FASTSM2_ERR_ARG;
    }
    fs2_der_init(&in, der, derlen);
    if (!fs2_der_get(&in, FS2_DER_SEQUENCE, &seq) || !fs2_der_at_end(&in) || !fs2_der_get_uint(&seq, x, 32) ||
        !fs2_der_get_uint(&seq, y, 32) || !fs2_der_get(&seq, FS2_DER_OCTET_STRING, &h) || h.n != 32 ||
        !fs2_der_get(&seq, FS2_DER_OCTET_STRING, &c) || !fs2_der_at_end(&seq)) {
        memset(x, 0, 32);
        memset(y, 0, 32);
        *c3 = NULL;
        *c2 = NULL;
        *c2len = 0;
        return FASTSM2_ERR_CIPHERTEXT;
    }
    *c3 = h.p;
    *c2 = c.p;
    *c2len = c.n;
    return FASTSM2_OK;
}
