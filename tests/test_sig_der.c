/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Signatures in strict DER (GM/T 0009 SM2Signature: SEQUENCE { INTEGER r,
 * INTEGER s }): byte-identical to OpenSSL 3's i2d_ECDSA_SIG for every
 * INTEGER length; a table of malformed encodings, each refused with
 * FASTSM2_ERR_DER (or FASTSM2_ERR_SIG_RANGE for r, s outside [1, n-1]) and
 * the output zeroed; a mutation fuzz whose accepted inputs re-encode to the
 * same bytes (one encoding per value; run under ASan too).
 */
#include "testutil.h"
#include "codec/sig_der.h"
#include "internal.h"

#include <openssl/bn.h>
#include <openssl/ec.h>

#include <stdlib.h>
#include <string.h>

static void test_sig_der_vs_openssl(void)
{
    for (int iter = 0; iter < 2000; iter++) {
        unsigned char sig[64], der[80], back[64], *op = NULL;
        size_t len = sizeof der;
        fs2t_rand_int256(sig);
        fs2t_rand_int256(sig + 32);
        CHECK_STATUS(fastsm2_sig_to_der(der, &len, sig), FASTSM2_OK);
        CHECK(len <= FASTSM2_SIG_DER_MAX);

        ECDSA_SIG *es = ECDSA_SIG_new();
        ECDSA_SIG_set0(es, BN_bin2bn(sig, 32, NULL), BN_bin2bn(sig + 32, 32, NULL));
        int n = i2d_ECDSA_SIG(es, &op);
        CHECK(n > 0 && (size_t)n == len && memcmp(op, der, len) == 0);
        OPENSSL_free(op);
        ECDSA_SIG_free(es);

        CHECK_STATUS(fs2_sig_der_decode(back, back + 32, der, len), FASTSM2_OK);
        CHECK(memcmp(back, sig, 64) == 0);
    }
    /* r = 0, s = 2^255: 30 26 02 01 00 02 21 00 80 00 ... */
    unsigned char sig[64] = {0}, der[80];
    size_t len = sizeof der;
    sig[32] = 0x80;
    CHECK_STATUS(fastsm2_sig_to_der(der, &len, sig), FASTSM2_OK);
    CHECK(len == 40 && der[0] == 0x30 && der[1] == 38 && der[2] == 2 && der[3] == 1 && der[4] == 0 && der[5] == 2 &&
          der[6] == 33 && der[7] == 0 && der[8] == 0x80);
    /* The largest form is 72 bytes; a 71-byte buffer is too small. */
    memset(sig, 0xFF, 64);
    len = 71;
    memset(der, 0xAA, sizeof der);
    CHECK_STATUS(fastsm2_sig_to_der(der, &len, sig), FASTSM2_ERR_BUFFER_TOO_SMALL);
    CHECK(len == 0 && fs2t_all_zero(der, 71) && der[71] == 0xAA);
    len = 72;
    CHECK_STATUS(fastsm2_sig_to_der(der, &len, sig), FASTSM2_OK);
    CHECK(len == 72);
    CHECK_STATUS(fastsm2_sig_to_der(der, NULL, sig), FASTSM2_ERR_ARG);
    len = sizeof der;
    CHECK_STATUS(fastsm2_sig_to_der(der, &len, NULL), FASTSM2_ERR_ARG);
    CHECK(len == 0);
    CHECK_STATUS(fastsm2_sig_from_der(NULL, der, 72), FASTSM2_ERR_ARG);
}

/* Build SEQUENCE { INTEGER r (rlen bytes as given), INTEGER s } by hand. */
static size_t raw_sig(unsigned char *out, const unsigned char *r, size_t rlen, const unsigned char *s, size_t slen)
{
    size_t o = 0;
    out[o++] = 0x30;
    out[o++] = (unsigned char)(4 + rlen + slen);
    out[o++] = 2;
    out[o++] = (unsigned char)rlen;
    memcpy(out + o, r, rlen);
    o += rlen;
    out[o++] = 2;
    out[o++] = (unsigned char)slen;
    memcpy(out + o, s, slen);
    return o + slen;
}

static void test_sig_der_bad(void)
{
    unsigned char good[64], der[160], bad[160], sig[64];
    size_t len = sizeof der;
    unsigned char r[33], s[33];

    memset(good, 0x11, 32);
    memset(good + 32, 0x22, 32);
    CHECK_STATUS(fastsm2_sig_to_der(der, &len, good), FASTSM2_OK);
    CHECK_STATUS(fastsm2_sig_from_der(sig, der, len), FASTSM2_OK);
    CHECK(memcmp(sig, good, 64) == 0);

    /* Truncated at every length. */
    for (size_t k = 0; k < len; k++) {
        memset(sig, 0xAA, 64);
        CHECK_STATUS(fastsm2_sig_from_der(sig, der, k), FASTSM2_ERR_DER);
        CHECK(fs2t_all_zero(sig, 64));
    }
    /* Trailing bytes, after the SEQUENCE and inside it. */
    memcpy(bad, der, len);
    bad[len] = 0;
    CHECK_STATUS(fastsm2_sig_from_der(sig, bad, len + 1), FASTSM2_ERR_DER);
    bad[1]++;
    CHECK_STATUS(fastsm2_sig_from_der(sig, bad, len + 1), FASTSM2_ERR_DER);
    /* Non-minimal length of the SEQUENCE: 30 81 44. */
    bad[0] = 0x30;
    bad[1] = 0x81;
    memcpy(bad + 2, der + 1, len - 1);
    CHECK_STATUS(fastsm2_sig_from_der(sig, bad, len + 1), FASTSM2_ERR_DER);
    /* 30 82 00 44. */
    bad[1] = 0x82;
    bad[2] = 0x00;
    memcpy(bad + 3, der + 1, len - 1);
    CHECK_STATUS(fastsm2_sig_from_der(sig, bad, len + 2), FASTSM2_ERR_DER);
    /* Indefinite length: 30 80 ... 00 00. */
    bad[1] = 0x80;
    memcpy(bad + 2, der + 2, len - 2);
    bad[len] = 0;
    bad[len + 1] = 0;
    CHECK_STATUS(fastsm2_sig_from_der(sig, bad, len + 2), FASTSM2_ERR_DER);
    /* Length past the end. */
    memcpy(bad, der, len);
    bad[1] = 0x7F;
    CHECK_STATUS(fastsm2_sig_from_der(sig, bad, len), FASTSM2_ERR_DER);
    bad[1] = 0x84;
    CHECK_STATUS(fastsm2_sig_from_der(sig, bad, len), FASTSM2_ERR_DER);
    bad[1] = 0x89; /* more length bytes than a size_t */
    CHECK_STATUS(fastsm2_sig_from_der(sig, bad, len), FASTSM2_ERR_DER);
    /* Wrong outer tag (SET), high tag number form. */
    memcpy(bad, der, len);
    bad[0] = 0x31;
    CHECK_STATUS(fastsm2_sig_from_der(sig, bad, len), FASTSM2_ERR_DER);
    bad[0] = 0x3F;
    CHECK_STATUS(fastsm2_sig_from_der(sig, bad, len), FASTSM2_ERR_DER);
    /* INTEGER tagged as OCTET STRING. */
    memcpy(bad, der, len);
    bad[2] = 0x04;
    CHECK_STATUS(fastsm2_sig_from_der(sig, bad, len), FASTSM2_ERR_DER);

    memset(s, 0x22, sizeof s);
    /* Non-minimal INTEGER: 00 before a byte with the top bit clear. */
    r[0] = 0;
    memset(r + 1, 0x11, 32);
    CHECK_STATUS(fastsm2_sig_from_der(sig, bad, raw_sig(bad, r, 33, s, 32)), FASTSM2_ERR_DER);
    /* Non-minimal INTEGER: 00 00 01. */
    r[0] = 0;
    r[1] = 0;
    r[2] = 1;
    CHECK_STATUS(fastsm2_sig_from_der(sig, bad, raw_sig(bad, r, 3, s, 32)), FASTSM2_ERR_DER);
    /* Non-minimal negative INTEGER: FF FF. */
    r[0] = 0xFF;
    r[1] = 0xFF;
    CHECK_STATUS(fastsm2_sig_from_der(sig, bad, raw_sig(bad, r, 2, s, 32)), FASTSM2_ERR_DER);
    /* Negative INTEGERs. */
    memset(r, 0x91, 32);
    CHECK_STATUS(fastsm2_sig_from_der(sig, bad, raw_sig(bad, r, 32, s, 32)), FASTSM2_ERR_DER);
    r[0] = 0x80;
    CHECK_STATUS(fastsm2_sig_from_der(sig, bad, raw_sig(bad, s, 32, r, 1)), FASTSM2_ERR_DER);
    /* Empty INTEGER. */
    CHECK_STATUS(fastsm2_sig_from_der(sig, bad, raw_sig(bad, r, 0, s, 32)), FASTSM2_ERR_DER);
    /* 33-byte r (no sign byte): wider than 256 bits. */
    memset(r, 0x11, 33);
    CHECK_STATUS(fastsm2_sig_from_der(sig, bad, raw_sig(bad, r, 33, s, 32)), FASTSM2_ERR_DER);
    /* 00 + 32 bytes with top bit set: fine (r = 0x91..91 < n). */
    r[0] = 0;
    memset(r + 1, 0x91, 32);
    CHECK_STATUS(fastsm2_sig_from_der(sig, bad, raw_sig(bad, r, 33, s, 32)), FASTSM2_OK);
    CHECK(sig[0] == 0x91 && sig[31] == 0x91 && sig[32] == 0x22);
    /* 34 bytes: 00 00 80 ... */
    unsigned char r34[34] = {0, 0, 0x80};
    CHECK_STATUS(fastsm2_sig_from_der(sig, bad, raw_sig(bad, r34, 34, s, 32)), FASTSM2_ERR_DER);
    /* Third INTEGER. */
    size_t n = raw_sig(bad, s, 32, s, 32);
    bad[1] += 3;
    bad[n++] = 2;
    bad[n++] = 1;
    bad[n++] = 1;
    CHECK_STATUS(fastsm2_sig_from_der(sig, bad, n), FASTSM2_ERR_DER);
    /* One INTEGER only. */
    bad[0] = 0x30;
    bad[1] = 34;
    bad[2] = 2;
    bad[3] = 32;
    memcpy(bad + 4, s, 32);
    CHECK_STATUS(fastsm2_sig_from_der(sig, bad, 36), FASTSM2_ERR_DER);

    /* Range: r = 0, s = 0, r = n, s = n, r = n-1 and s = n-1 (valid), 1. */
    unsigned char nm1[32], one[1] = {1}, zero[1] = {0}, nn[33];
    memcpy(nm1, fs2t_n, 32);
    nm1[31]--;
    nn[0] = 0;
    memcpy(nn + 1, fs2t_n, 32);
    memset(sig, 0xAA, 64);
    CHECK_STATUS(fastsm2_sig_from_der(sig, bad, raw_sig(bad, zero, 1, s, 32)), FASTSM2_ERR_SIG_RANGE);
    CHECK(fs2t_all_zero(sig, 64));
    CHECK_STATUS(fastsm2_sig_from_der(sig, bad, raw_sig(bad, s, 32, zero, 1)), FASTSM2_ERR_SIG_RANGE);
    CHECK_STATUS(fastsm2_sig_from_der(sig, bad, raw_sig(bad, nn, 33, s, 32)), FASTSM2_ERR_SIG_RANGE);
    CHECK_STATUS(fastsm2_sig_from_der(sig, bad, raw_sig(bad, s, 32, nn, 33)), FASTSM2_ERR_SIG_RANGE);
    memcpy(nn + 1, nm1, 32);
    CHECK_STATUS(fastsm2_sig_from_der(sig, bad, raw_sig(bad, nn, 33, nn, 33)), FASTSM2_OK);
    CHECK(memcmp(sig, nm1, 32) == 0 && memcmp(sig + 32, nm1, 32) == 0);
    CHECK_STATUS(fastsm2_sig_from_der(sig, bad, raw_sig(bad, one, 1, one, 1)), FASTSM2_OK);
    CHECK(sig[31] == 1 && sig[63] == 1 && fs2t_all_zero(sig, 31));
    /* 2^256 - 1 (00 FF..FF): fits 32 bytes but is >= n. */
    memset(nn + 1, 0xFF, 32);
    CHECK_STATUS(fastsm2_sig_from_der(sig, bad, raw_sig(bad, s, 32, nn, 33)), FASTSM2_ERR_SIG_RANGE);
    /* The internal decoder has no range check. */
    CHECK_STATUS(fs2_sig_der_decode(sig, sig + 32, bad, raw_sig(bad, s, 32, nn, 33)), FASTSM2_OK);
}

/* ---- fuzz ------------------------------------------------------------------- */

/* Whatever strict DER accepts re-encodes to the same bytes; random bytes
 * with a DER-looking start give a named status. */
static void test_fuzz(void)
{
    unsigned char buf[1100], out[1100];
    unsigned long noncanon = 0;
    for (int iter = 0; iter < 1500; iter++) {
        unsigned char sig[64], *h;
        size_t len = sizeof buf, olen = sizeof out;
        int r;
        fs2t_rand_int256(sig);
        fs2t_rand_int256(sig + 32);
        CHECK(fs2_sig_der_encode(buf, &len, sig, sig + 32) == FASTSM2_OK);
        fs2t_mutate(buf, &len, sizeof buf);
        h = malloc(len ? len : 1);
        memcpy(h, buf, len);
        r = fastsm2_sig_from_der(sig, h, len);
        CHECK(r == FASTSM2_OK || r == FASTSM2_ERR_DER || r == FASTSM2_ERR_SIG_RANGE);
        if (r == FASTSM2_OK) {
            CHECK(fastsm2_sig_to_der(out, &olen, sig) == FASTSM2_OK);
            noncanon += olen != len || memcmp(out, h, len) != 0;
        }
        free(h);
    }
    CHECK(noncanon == 0);

    for (int iter = 0; iter < 1000; iter++) {
        size_t len;
        unsigned char *h = fs2t_rand_input(200, (iter & 1) ? 0x30 : -1, &len);
        unsigned char sig[64];
        int r = fastsm2_sig_from_der(sig, h, len);
        CHECK(r == FASTSM2_OK || r == FASTSM2_ERR_DER || r == FASTSM2_ERR_SIG_RANGE);
        free(h);
    }
}

int main(void)
{
    test_sig_der_vs_openssl();
    test_sig_der_bad();
    test_fuzz();
    return fs2t_finish("test_sig_der");
}
