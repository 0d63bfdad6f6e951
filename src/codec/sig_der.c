/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SM2 signatures in DER: SEQUENCE { INTEGER r, INTEGER s } (GM/T 0009-2012
 * clause 7.2, SM2Signature), the form OpenSSL and GmSSL exchange, and the
 * raw 64-byte r || s of GB/T 32918.2.
 */
#include "codec/der.h"
#include "codec/sig_der.h"

/* The order n of the sm2p256v1 base point (GB/T 32918.5 clause 5). Public. */
static const unsigned char sm2_n[32] = {
    0xFF, 0xFF, 0xFF, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0x72, 0x03, 0xDF, 0x6B, 0x21, 0xC6, 0x05, 0x2B, 0x53, 0xBB, 0xF4, 0x09, 0x39, 0xD5, 0x41, 0x23,
};

static void fail_out(unsigned char *out, size_t *outlen)
{
    if (out != NULL && outlen != NULL)
        memset(out, 0, *outlen);
    if (outlen != NULL)
        *outlen = 0;
}

int fs2_sig_der_encode(unsigned char *out, size_t *outlen, const unsigned char r[32], const unsigned char s[32])
{
    fs2_der_out o;
    size_t body;

    if (outlen == NULL || out == NULL || r == NULL || s == NULL) {
        fail_out(out, outlen);
        return FASTSM2_ERR_ARG;
    }
    body = fs2_der_uint_len(r, 32) + fs2_der_uint_len(s, 32);
    fs2_der_out_init(&o, out, *outlen);
    fs2_der_put_hdr(&o, FS2_DER_SEQUENCE, body);
    fs2_der_put_uint(&o, r, 32);
    fs2_der_put_uint(&o, s, 32);
    if (o.overflow) {
        fail_out(out, outlen);
        return FASTSM2_ERR_BUFFER_TOO_SMALL;
    }
    *outlen = o.n;
    return FASTSM2_OK;
}

int fs2_sig_der_decode(unsigned char r[32], unsigned char s[32], const unsigned char *der, size_t derlen)
{
    fs2_der_in in, seq;

    if (r == NULL || s == NULL || (der == NULL && derlen != 0)) {
        if (r != NULL)
            memset(r, 0, 32);
        if (s != NULL)
            memset(s, 0, 32);
        return FASTSM2_ERR_ARG;
    }
    fs2_der_init(&in, der, derlen);
    if (!fs2_der_get(&in, FS2_DER_SEQUENCE, &seq) || !fs2_der_at_end(&in) || !fs2_der_get_uint(&seq, r, 32) ||
        !fs2_der_get_uint(&seq, s, 32) || !fs2_der_at_end(&seq)) {
        memset(r, 0, 32);
        memset(s, 0, 32);
        return FASTSM2_ERR_DER;
    }
    return FASTSM2_OK;
}

int fastsm2_sig_to_der(unsigned char *out, size_t *outlen, const unsigned char sig[64])
{
    if (sig == NULL) {
        fail_out(out, outlen);
        return FASTSM2_ERR_ARG;
    }
    return fs2_sig_der_encode(out, outlen, sig, sig + 32);
}

/* 1 when a (32 bytes big-endian) is in [1, n-1]. Public values only. */
static int in_range_1_nm1(const unsigned char a[32])
{
    static const unsigned char zero[32];
    return memcmp(a, zero, 32) != 0 && memcmp(a, sm2_n, 32) < 0;
}

int fastsm2_sig_from_der(unsigned char sig[64], const unsigned char *der, size_t derlen)
{
    int ret;

    if (sig == NULL)
        return FASTSM2_ERR_ARG;
    ret = fs2_sig_der_decode(sig, sig + 32, der, derlen);
    if (ret != FASTSM2_OK)
        return ret;
    /* GB/T 32918.2 7.1 B1, B2: r, s in [1, n-1]. */
    if (!in_range_1_nm1(sig) || !in_range_1_nm1(sig + 32)) {
        memset(sig, 0, 64);
        return FASTSM2_ERR_SIG_RANGE;
    }
    return FASTSM2_OK;
}
