/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One-shot public-key encryption fed bad input (GB/T 32918.4 clauses 6.1
 * and 7.1): truncated and malformed ciphertexts in every layout (raw
 * C1C3C2 and C1C2C3, GM/T 0009 DER), C1 off the curve (B1), every flipped
 * byte of C3 and C2 (B6), buffers too small, nonces out of range, NULL
 * pointers. The exact FASTSM2_ERR_* code, the whole capacity of the output
 * zeroed and nothing written past it, never a crash.
 */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define MSGLEN 20

static void expect_decrypt(const fastsm2_privkey *key, const unsigned char *ct, size_t ctlen, int flags, int want,
                           const char *what, size_t pos)
{
    unsigned char out[MSGLEN + 64];
    size_t outlen = MSGLEN + 32; /* capacity; the rest is a canary */
    memset(out, 0xAA, sizeof out);
    int st = fastsm2_decrypt(out, &outlen, key, ct, ctlen, flags);
    if (st != want && fs2t_failed < 30)
        fprintf(stderr, "decrypt %s (flags %d, at %zu, len %zu)\n", what, flags, pos, ctlen);
    CHECK_STATUS(st, want);
    if (want != FASTSM2_OK) {
        CHECK(outlen == 0);
        CHECK(fs2t_all_zero(out, MSGLEN + 32));
    }
    unsigned char canary_ok = 1;
    for (size_t i = MSGLEN + 32; i < sizeof out; i++)
        canary_ok &= out[i] == 0xAA;
    CHECK(canary_ok);
    /* The size query makes the same checks but C3's (it has no key). */
    size_t n = 12345;
    st = fastsm2_plaintext_size(&n, ct, ctlen, flags);
    if (want == FASTSM2_OK || want == FASTSM2_ERR_DECRYPT) {
        CHECK_STATUS(st, FASTSM2_OK);
        CHECK(n == MSGLEN);
    } else {
        CHECK_STATUS(st, want);
        CHECK(n == 0);
    }
}

/* Build a GM/T 0009 DER ciphertext by hand with the given raw INTEGER
 * contents (already minimal or deliberately not). */
static size_t der_ct(unsigned char *out, const unsigned char *xi, size_t xlen, const unsigned char *yi, size_t ylen,
                     const unsigned char *c3, size_t c3len, const unsigned char *c2, size_t c2len)
{
    size_t body = 2 + xlen + 2 + ylen + 2 + c3len + 2 + c2len, n = 0;
    out[n++] = 0x30;
    if (body >= 0x80)
        out[n++] = 0x81;
    out[n++] = (unsigned char)body;
    out[n++] = 0x02, out[n++] = (unsigned char)xlen;
    memcpy(out + n, xi, xlen), n += xlen;
    out[n++] = 0x02, out[n++] = (unsigned char)ylen;
    memcpy(out + n, yi, ylen), n += ylen;
    out[n++] = 0x04, out[n++] = (unsigned char)c3len;
    memcpy(out + n, c3, c3len), n += c3len;
    out[n++] = 0x04, out[n++] = (unsigned char)c2len;
    memcpy(out + n, c2, c2len), n += c2len;
    return n;
}

/* Minimal INTEGER contents of a 32-byte value. */
static size_t int_contents(unsigned char *out, const unsigned char v[32])
{
    size_t i = 0, n = 0;
    while (i < 31 && v[i] == 0)
        i++;
    if (v[i] & 0x80)
        out[n++] = 0;
    memcpy(out + n, v + i, 32 - i);
    return n + 32 - i;
}

static void test_decrypt_errors(void)
{
    fastsm2_privkey key;
    fastsm2_pubkey pub;
    fs2t_keypair(&key, &pub);

    unsigned char msg[MSGLEN];
    fs2t_rand_bytes(msg, MSGLEN);
    unsigned char k[32];
    fs2t_rand_bytes(k, 32);
    k[0] = 0x12;

    /* The same encryption in the three layouts. */
    unsigned char raw[200], raw2[200], der[200];
    size_t rawlen = sizeof raw, raw2len = sizeof raw2, derlen = sizeof der;
    CHECK_STATUS(fastsm2_encrypt_with_nonce(raw, &rawlen, &pub, msg, MSGLEN, FASTSM2_CT_RAW, k), FASTSM2_OK);
    CHECK_STATUS(fastsm2_encrypt_with_nonce(raw2, &raw2len, &pub, msg, MSGLEN, FASTSM2_CT_RAW | FASTSM2_CT_C1C2C3, k),
                 FASTSM2_OK);
    CHECK_STATUS(fastsm2_encrypt_with_nonce(der, &derlen, &pub, msg, MSGLEN, FASTSM2_CT_DER, k), FASTSM2_OK);
    CHECK(rawlen == 97 + MSGLEN && raw2len == 97 + MSGLEN);
    expect_decrypt(&key, raw, rawlen, FASTSM2_CT_RAW, FASTSM2_OK, "valid raw", 0);
    expect_decrypt(&key, raw2, raw2len, FASTSM2_CT_RAW | FASTSM2_CT_C1C2C3, FASTSM2_OK, "valid raw C1C2C3", 0);
    expect_decrypt(&key, der, derlen, FASTSM2_CT_DER, FASTSM2_OK, "valid DER", 0);

    /* C1 in the hybrid form (GB/T 32918.1 4.2.10, as gmsm accepts it): read
     * when its prefix's parity is y1's, refused otherwise; both orders. */
    {
        unsigned char hy[200];
        unsigned char good = (unsigned char)(0x06 | (raw[64] & 1));
        memcpy(hy, raw, rawlen);
        hy[0] = good;
        expect_decrypt(&key, hy, rawlen, FASTSM2_CT_RAW, FASTSM2_OK, "hybrid C1", 0);
        hy[0] = good ^ 1;
        expect_decrypt(&key, hy, rawlen, FASTSM2_CT_RAW, FASTSM2_ERR_POINT, "hybrid C1, wrong parity", 0);
        memcpy(hy, raw2, raw2len);
        hy[0] = good;
        expect_decrypt(&key, hy, raw2len, FASTSM2_CT_RAW | FASTSM2_CT_C1C2C3, FASTSM2_OK, "hybrid C1, C1C2C3", 0);
        hy[0] = good ^ 1;
        expect_decrypt(&key, hy, raw2len, FASTSM2_CT_RAW | FASTSM2_CT_C1C2C3, FASTSM2_ERR_POINT,
                       "hybrid C1, C1C2C3, wrong parity", 0);
        /* and never written: every encryption's C1 starts 04 */
        unsigned char ct2[200];
        size_t ct2len = sizeof ct2;
        CHECK_STATUS(fastsm2_encrypt(ct2, &ct2len, &pub, msg, MSGLEN, FASTSM2_CT_RAW), FASTSM2_OK);
        CHECK(ct2[0] == 0x04);
    }

    /* Truncated raw ciphertexts of every length 0..97, in a tight heap
     * buffer so that ASan sees any over-read. */
    for (size_t len = 0; len <= 97; len++) {
        unsigned char *t = malloc(len ? len : 1);
        memcpy(t, raw, len);
        expect_decrypt(&key, t, len, FASTSM2_CT_RAW, FASTSM2_ERR_CIPHERTEXT, "truncated raw", len);
        memcpy(t, raw2, len);
        expect_decrypt(&key, t, len, FASTSM2_CT_RAW | FASTSM2_CT_C1C2C3, FASTSM2_ERR_CIPHERTEXT, "truncated raw C1C2C3",
                       len);
        free(t);
    }
    /* Truncated DER of every length (lengths no longer match). */
    for (size_t len = 0; len < derlen; len++) {
        unsigned char *t = malloc(len ? len : 1);
        memcpy(t, der, len);
        expect_decrypt(&key, t, len, FASTSM2_CT_DER, FASTSM2_ERR_CIPHERTEXT, "truncated DER", len);
        free(t);
    }

    /* C1 off the curve, at infinity (prefix 00), bad prefix, x >= p. */
    unsigned char bad[300];
    memcpy(bad, raw, rawlen);
    bad[64] ^= 1;
    expect_decrypt(&key, bad, rawlen, FASTSM2_CT_RAW, FASTSM2_ERR_POINT, "C1 off the curve", 64);
    memcpy(bad, raw2, raw2len);
    bad[64] ^= 1;
    expect_decrypt(&key, bad, raw2len, FASTSM2_CT_RAW | FASTSM2_CT_C1C2C3, FASTSM2_ERR_POINT, "C1 off the curve", 64);
    memcpy(bad, raw, rawlen);
    bad[0] = 0x00;
    expect_decrypt(&key, bad, rawlen, FASTSM2_CT_RAW, FASTSM2_ERR_POINT, "C1 prefix 00", 0);
    memset(bad, 0, 65);
    memcpy(bad + 65, raw + 65, rawlen - 65);
    expect_decrypt(&key, bad, rawlen, FASTSM2_CT_RAW, FASTSM2_ERR_POINT, "C1 all zero", 0);
    memcpy(bad, raw, rawlen);
    bad[0] = 0x05;
    expect_decrypt(&key, bad, rawlen, FASTSM2_CT_RAW, FASTSM2_ERR_POINT, "C1 prefix 05", 0);
    {
        unsigned char p[32];
        memcpy(p, fs2t_p, 32);
        memcpy(bad, raw, rawlen);
        memcpy(bad + 1, p, 32);
        expect_decrypt(&key, bad, rawlen, FASTSM2_CT_RAW, FASTSM2_ERR_POINT, "C1 x = p", 0);
    }

    /* A flipped byte anywhere in C3 or C2: FASTSM2_ERR_DECRYPT, nothing
     * released. Raw C1C3C2: C3 at 65..96, C2 at 97... */
    for (size_t i = 65; i < rawlen; i++) {
        memcpy(bad, raw, rawlen);
        bad[i] ^= (unsigned char)(1u << (i % 8));
        expect_decrypt(&key, bad, rawlen, FASTSM2_CT_RAW, FASTSM2_ERR_DECRYPT, "flipped C3/C2 byte", i);
    }
    /* Raw C1C2C3: C2 at 65..84, C3 after. */
    for (size_t i = 65; i < raw2len; i += 3) {
        memcpy(bad, raw2, raw2len);
        bad[i] ^= 0x80;
        expect_decrypt(&key, bad, raw2len, FASTSM2_CT_RAW | FASTSM2_CT_C1C2C3, FASTSM2_ERR_DECRYPT,
                       "flipped C2/C3 byte", i);
    }
    /* DER: C3 and C2 are the last 32 + 2 + 20 bytes. */
    for (size_t i = derlen - MSGLEN - 2 - 32; i < derlen; i++) {
        if (i == derlen - MSGLEN - 2 || i == derlen - MSGLEN - 1)
            continue; /* the C2 tag and length */
        memcpy(bad, der, derlen);
        bad[i] ^= 0x04;
        expect_decrypt(&key, bad, derlen, FASTSM2_CT_DER, FASTSM2_ERR_DECRYPT, "flipped DER C3/C2 byte", i);
    }
    /* A ciphertext for another key fails the C3 check. */
    {
        fastsm2_privkey other;
        CHECK_STATUS(fastsm2_privkey_generate(&other), FASTSM2_OK);
        expect_decrypt(&other, raw, rawlen, FASTSM2_CT_RAW, FASTSM2_ERR_DECRYPT, "other key", 0);
        fastsm2_privkey_clear(&other);
    }

    /* Malformed DER. */
    {
        unsigned char x[32], y[32], xi[40], yi[40], c3[32], c2[MSGLEN];
        memcpy(x, raw + 1, 32);
        memcpy(y, raw + 33, 32);
        memcpy(c3, raw + 65, 32);
        memcpy(c2, raw + 97, MSGLEN);
        size_t xl = int_contents(xi, x), yl = int_contents(yi, y), n;

        n = der_ct(bad, xi, xl, yi, yl, c3, 32, c2, MSGLEN);
        CHECK(n == derlen && memcmp(bad, der, n) == 0); /* our writer matches theirs */

        /* Wrong outer tag; trailing byte; C3 of 31 and 33 bytes; empty C2. */
        bad[0] = 0x31;
        expect_decrypt(&key, bad, n, FASTSM2_CT_DER, FASTSM2_ERR_CIPHERTEXT, "outer tag 31", 0);
        memcpy(bad, der, derlen);
        bad[derlen] = 0x00;
        expect_decrypt(&key, bad, derlen + 1, FASTSM2_CT_DER, FASTSM2_ERR_CIPHERTEXT, "trailing byte", 0);
        n = der_ct(bad, xi, xl, yi, yl, c3, 31, c2, MSGLEN);
        expect_decrypt(&key, bad, n, FASTSM2_CT_DER, FASTSM2_ERR_CIPHERTEXT, "C3 of 31 bytes", 0);
        unsigned char c3x[33];
        memcpy(c3x, c3, 32);
        c3x[32] = 0;
        n = der_ct(bad, xi, xl, yi, yl, c3x, 33, c2, MSGLEN);
        expect_decrypt(&key, bad, n, FASTSM2_CT_DER, FASTSM2_ERR_CIPHERTEXT, "C3 of 33 bytes", 0);
        n = der_ct(bad, xi, xl, yi, yl, c3, 32, c2, 0);
        expect_decrypt(&key, bad, n, FASTSM2_CT_DER, FASTSM2_ERR_CIPHERTEXT, "empty C2", 0);

        /* Non-minimal INTEGER: an extra leading 00 before x. */
        unsigned char xi2[41];
        xi2[0] = 0;
        memcpy(xi2 + 1, xi, xl);
        n = der_ct(bad, xi2, xl + 1, yi, yl, c3, 32, c2, MSGLEN);
        expect_decrypt(&key, bad, n, FASTSM2_CT_DER, FASTSM2_ERR_CIPHERTEXT, "non-minimal x", 0);

        /* Negative INTEGER: y without its leading 00 when the top bit is
         * set, otherwise x = -1 as a one-byte FF. */
        if (yi[0] == 0 && yl == 33) {
            n = der_ct(bad, xi, xl, yi + 1, 32, c3, 32, c2, MSGLEN);
            expect_decrypt(&key, bad, n, FASTSM2_CT_DER, FASTSM2_ERR_CIPHERTEXT, "negative y", 0);
        }
        unsigned char ff = 0xFF;
        n = der_ct(bad, &ff, 1, yi, yl, c3, 32, c2, MSGLEN);
        expect_decrypt(&key, bad, n, FASTSM2_CT_DER, FASTSM2_ERR_CIPHERTEXT, "x = -1", 0);

        /* An INTEGER wider than 256 bits: 01 || x. */
        unsigned char wide[34];
        wide[0] = 0x01;
        memcpy(wide + 1, x, 32);
        n = der_ct(bad, wide, 33, yi, yl, c3, 32, c2, MSGLEN);
        expect_decrypt(&key, bad, n, FASTSM2_CT_DER, FASTSM2_ERR_CIPHERTEXT, "x of 257 bits", 0);

        /* Wrong inner tags: C3 as INTEGER, x as OCTET STRING. */
        memcpy(bad, der, derlen);
        bad[derlen - MSGLEN - 2 - 34] = 0x02;
        expect_decrypt(&key, bad, derlen, FASTSM2_CT_DER, FASTSM2_ERR_CIPHERTEXT, "C3 tag", 0);
        memcpy(bad, der, derlen);
        bad[2] = 0x04;
        expect_decrypt(&key, bad, derlen, FASTSM2_CT_DER, FASTSM2_ERR_CIPHERTEXT, "x tag", 0);

        /* Outer length too long / too short by one; indefinite length. */
        if (der[1] < 0x80) {
            memcpy(bad, der, derlen);
            bad[1] += 1;
            expect_decrypt(&key, bad, derlen, FASTSM2_CT_DER, FASTSM2_ERR_CIPHERTEXT, "outer length +1", 0);
            bad[1] -= 2;
            expect_decrypt(&key, bad, derlen, FASTSM2_CT_DER, FASTSM2_ERR_CIPHERTEXT, "outer length -1", 0);
            bad[1] = 0x80;
            bad[derlen] = 0;
            bad[derlen + 1] = 0;
            expect_decrypt(&key, bad, derlen + 2, FASTSM2_CT_DER, FASTSM2_ERR_CIPHERTEXT, "indefinite length", 0);
            /* Non-minimal long form 81 xx for a length < 128. */
            bad[0] = 0x30;
            bad[1] = 0x81;
            bad[2] = der[1];
            memcpy(bad + 3, der + 2, derlen - 2);
            expect_decrypt(&key, bad, derlen + 1, FASTSM2_CT_DER, FASTSM2_ERR_CIPHERTEXT, "non-minimal length", 0);
        }
        /* C2 length claiming more than is there. */
        memcpy(bad, der, derlen);
        bad[derlen - MSGLEN - 1] = MSGLEN + 1;
        expect_decrypt(&key, bad, derlen, FASTSM2_CT_DER, FASTSM2_ERR_CIPHERTEXT, "C2 length +1", 0);

        /* A well-formed DER whose C1 is off the curve. */
        unsigned char y2[32];
        memcpy(y2, y, 32);
        y2[31] ^= 1;
        size_t yl2 = int_contents(yi, y2);
        n = der_ct(bad, xi, xl, yi, yl2, c3, 32, c2, MSGLEN);
        expect_decrypt(&key, bad, n, FASTSM2_CT_DER, FASTSM2_ERR_POINT, "DER C1 off the curve", 0);

        /* A raw ciphertext given to the DER decoder. */
        expect_decrypt(&key, raw, rawlen, FASTSM2_CT_DER, FASTSM2_ERR_CIPHERTEXT, "raw as DER", 0);
    }

    /* Output buffer too small (capacity MSGLEN - 1, and 0): the capacity is
     * zeroed, nothing past it is written. */
    {
        const unsigned char *cts[3] = {raw, raw2, der};
        size_t lens[3] = {rawlen, raw2len, derlen};
        int fl[3] = {FASTSM2_CT_RAW, FASTSM2_CT_RAW | FASTSM2_CT_C1C2C3, FASTSM2_CT_DER};
        for (int i = 0; i < 3; i++) {
            unsigned char out[MSGLEN + 8];
            size_t caps[2] = {MSGLEN - 1, 0};
            for (int c = 0; c < 2; c++) {
                size_t outlen = caps[c];
                memset(out, 0xAA, sizeof out);
                CHECK_STATUS(fastsm2_decrypt(out, &outlen, &key, cts[i], lens[i], fl[i]), FASTSM2_ERR_BUFFER_TOO_SMALL);
                CHECK(outlen == 0 && fs2t_all_zero(out, caps[c]));
                int canary = 1;
                for (size_t j = caps[c]; j < sizeof out; j++)
                    canary &= out[j] == 0xAA;
                CHECK(canary);
            }
        }
    }

    /* Encrypt into too small a buffer: raw needs exactly 97 + msglen,
     * DER its exact length. */
    {
        unsigned char out[300];
        int fl[3] = {FASTSM2_CT_RAW, FASTSM2_CT_RAW | FASTSM2_CT_C1C2C3, FASTSM2_CT_DER};
        size_t need[3] = {rawlen, raw2len, derlen};
        for (int i = 0; i < 3; i++) {
            size_t outlen = need[i] - 1;
            memset(out, 0xAA, sizeof out);
            CHECK_STATUS(fastsm2_encrypt_with_nonce(out, &outlen, &pub, msg, MSGLEN, fl[i], k),
                         FASTSM2_ERR_BUFFER_TOO_SMALL);
            CHECK(outlen == 0 && fs2t_all_zero(out, need[i] - 1) && out[need[i] - 1] == 0xAA);
            outlen = need[i] - 1;
            memset(out, 0xAA, sizeof out);
            CHECK_STATUS(fastsm2_encrypt(out, &outlen, &pub, msg, MSGLEN, fl[i]), FASTSM2_ERR_BUFFER_TOO_SMALL);
            CHECK(outlen == 0 && fs2t_all_zero(out, need[i] - 1));
            outlen = 0;
            CHECK_STATUS(fastsm2_encrypt(out, &outlen, &pub, msg, MSGLEN, fl[i]), FASTSM2_ERR_BUFFER_TOO_SMALL);
            CHECK(outlen == 0);
            /* ciphertext_size() is always enough. */
            outlen = fastsm2_ciphertext_size(MSGLEN, fl[i]);
            CHECK(outlen >= need[i] && outlen <= sizeof out);
            CHECK_STATUS(fastsm2_encrypt(out, &outlen, &pub, msg, MSGLEN, fl[i]), FASTSM2_OK);
        }
        /* Nonces out of range. */
        unsigned char kk[32];
        memset(kk, 0, 32);
        size_t outlen = sizeof out;
        memset(out, 0xAA, sizeof out);
        CHECK_STATUS(fastsm2_encrypt_with_nonce(out, &outlen, &pub, msg, MSGLEN, 0, kk), FASTSM2_ERR_SCALAR);
        CHECK(outlen == 0 && fs2t_all_zero(out, sizeof out));
        memcpy(kk, fs2t_n, 32);
        outlen = sizeof out;
        CHECK_STATUS(fastsm2_encrypt_with_nonce(out, &outlen, &pub, msg, MSGLEN, 0, kk), FASTSM2_ERR_SCALAR);
        CHECK(outlen == 0);
    }
    fastsm2_privkey_clear(&key);
}

/* ---------------------------------------------------------------------- */

static void test_null_pointers(void)
{
    fastsm2_privkey key;
    fastsm2_pubkey pub;
    fs2t_keypair(&key, &pub);
    unsigned char buf[512];
    size_t len;
    const char msg[] = "msg";

    const int A = FASTSM2_ERR_ARG;
    CHECK_STATUS(fastsm2_kdf(NULL, 5, "z", 1), A);
    CHECK_STATUS(fastsm2_kdf(buf, 5, NULL, 1), A);

    len = sizeof buf;
    CHECK_STATUS(fastsm2_encrypt(NULL, &len, &pub, msg, 3, 0), A);
    CHECK_STATUS(fastsm2_encrypt(buf, NULL, &pub, msg, 3, 0), A);
    len = sizeof buf;
    memset(buf, 0xAA, sizeof buf);
    CHECK_STATUS(fastsm2_encrypt(buf, &len, NULL, msg, 3, 0), A);
    CHECK(len == 0 && fs2t_all_zero(buf, sizeof buf));
    len = sizeof buf;
    CHECK_STATUS(fastsm2_encrypt(buf, &len, &pub, NULL, 3, 0), A);
    CHECK(len == 0);
    len = sizeof buf;
    CHECK_STATUS(fastsm2_encrypt_with_nonce(buf, &len, &pub, msg, 3, 0, NULL), A);
    CHECK(len == 0);
    unsigned char ct[200];
    size_t ctlen = sizeof ct;
    CHECK_STATUS(fastsm2_encrypt(ct, &ctlen, &pub, msg, 3, FASTSM2_CT_RAW), FASTSM2_OK);
    len = sizeof buf;
    CHECK_STATUS(fastsm2_decrypt(NULL, &len, &key, ct, ctlen, FASTSM2_CT_RAW), A);
    CHECK_STATUS(fastsm2_decrypt(buf, NULL, &key, ct, ctlen, FASTSM2_CT_RAW), A);
    len = sizeof buf;
    memset(buf, 0xAA, sizeof buf);
    CHECK_STATUS(fastsm2_decrypt(buf, &len, NULL, ct, ctlen, FASTSM2_CT_RAW), A);
    CHECK(len == 0 && fs2t_all_zero(buf, sizeof buf));
    len = sizeof buf;
    CHECK_STATUS(fastsm2_decrypt(buf, &len, &key, NULL, ctlen, FASTSM2_CT_RAW), A);
    CHECK(len == 0);
    fastsm2_privkey_clear(&key);
}

int main(void)
{
    test_decrypt_errors();
    test_null_pointers();
    return fs2t_finish("test_encrypt");
}
