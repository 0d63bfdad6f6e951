/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SM2 ciphertexts in GM/T 0009 DER (SEQUENCE { INTEGER x, INTEGER y,
 * OCTET STRING C3, OCTET STRING C2 }): OpenSSL 3's ciphertexts decode and
 * re-encode to the same bytes; INTEGER lengths and sizes exact; a table of
 * malformed encodings, each refused; a mutation fuzz whose accepted inputs
 * re-encode to the same bytes (run under ASan too).
 */
#include "testutil.h"
#include "internal.h"

#include <openssl/evp.h>

#include <stdlib.h>
#include <string.h>

static void test_ct_der(void)
{
    /* OpenSSL's SM2 ciphertexts decode and re-encode to the same bytes. */
    EVP_PKEY *k = EVP_PKEY_Q_keygen(NULL, NULL, "SM2");
    CHECK(k != NULL);
    if (k == NULL)
        return;
    static unsigned char msg[70000], ct[70300], re[70300];
    fs2t_rand_bytes(msg, sizeof msg);
    for (int iter = 0; iter < 60; iter++) {
        size_t mlen = iter == 0 ? 70000 : iter == 1 ? 128 : iter == 2 ? 1 : 1 + fs2t_rand_u64() % 300;
        size_t ctlen = sizeof ct, relen = sizeof re, c2len;
        const unsigned char *c3, *c2;
        unsigned char x[32], y[32];
        EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(k, NULL);
        CHECK(EVP_PKEY_encrypt_init(c) == 1 && EVP_PKEY_encrypt(c, ct, &ctlen, msg, mlen) == 1);
        EVP_PKEY_CTX_free(c);
        CHECK_STATUS(fs2_ct_der_decode(x, y, &c3, &c2, &c2len, ct, ctlen), FASTSM2_OK);
        CHECK(c2len == mlen && c3 != NULL && c2 != NULL);
        CHECK(ctlen <= fs2_ct_der_max_size(mlen));
        CHECK_STATUS(fs2_ct_der_encode(re, &relen, x, y, c3, c2, c2len), FASTSM2_OK);
        CHECK(relen == ctlen && memcmp(re, ct, ctlen) == 0);
    }
    EVP_PKEY_free(k);

    /* INTEGERs: leading zero bytes dropped, sign byte added. */
    unsigned char x[32], y[32], c3[32], c2[300], out[600], x2[32], y2[32];
    size_t len = sizeof out, c2len;
    const unsigned char *pc3, *pc2;
    memset(x, 0, 32);
    x[2] = 0x7F;
    memset(y, 0xFF, 32);
    memset(c3, 0x33, 32);
    memset(c2, 0x44, sizeof c2);
    CHECK_STATUS(fs2_ct_der_encode(out, &len, x, y, c3, c2, 200), FASTSM2_OK);
    /* 30 82 len | 02 1E 7F 00.. | 02 21 00 FF.. | 04 20 | 04 81 C8 */
    CHECK(out[0] == 0x30 && out[1] == 0x82 && out[4] == 2 && out[5] == 30 && out[6] == 0x7F);
    CHECK(out[36] == 2 && out[37] == 33 && out[38] == 0 && out[39] == 0xFF);
    CHECK(out[71] == 4 && out[72] == 32 && out[105] == 4 && out[106] == 0x81 && out[107] == 200);
    CHECK(len == 108 + 200 && (size_t)((out[2] << 8) | out[3]) == len - 4);
    CHECK(len <= fs2_ct_der_max_size(200));
    CHECK_STATUS(fs2_ct_der_decode(x2, y2, &pc3, &pc2, &c2len, out, len), FASTSM2_OK);
    CHECK(memcmp(x2, x, 32) == 0 && memcmp(y2, y, 32) == 0 && pc3 == out + 73 && pc2 == out + 108 && c2len == 200);
    {
        /* The same with C2's length as 82 00 C8: a leading zero length byte. */
        unsigned char b[600];
        memcpy(b, out, 106);
        b[106] = 0x82, b[107] = 0, b[108] = 200;
        memcpy(b + 109, out + 108, 200);
        b[3]++;
        CHECK_STATUS(fs2_ct_der_decode(x2, y2, &pc3, &pc2, &c2len, b, len + 1), FASTSM2_ERR_CIPHERTEXT);
        b[107] = 1; /* 82 01 C8: longer than what is there */
        CHECK_STATUS(fs2_ct_der_decode(x2, y2, &pc3, &pc2, &c2len, b, len + 1), FASTSM2_ERR_CIPHERTEXT);
    }
    /* Exact sizes for every C2 length class, max_size exact for top-bit x, y. */
    size_t lens[] = {0, 1, 20, 21, 22, 127, 128, 255, 256, 299};
    memset(x, 0xFF, 32);
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        len = sizeof out;
        CHECK_STATUS(fs2_ct_der_encode(out, &len, x, y, c3, c2, lens[i]), FASTSM2_OK);
        CHECK(len == fs2_ct_der_max_size(lens[i]));
        CHECK_STATUS(fs2_ct_der_decode(x2, y2, &pc3, &pc2, &c2len, out, len), FASTSM2_OK);
        CHECK(c2len == lens[i]);
        /* Buffer one byte short. */
        size_t small = len - 1;
        memset(out, 0xAA, sizeof out);
        CHECK_STATUS(fs2_ct_der_encode(out, &small, x, y, c3, c2, lens[i]), FASTSM2_ERR_BUFFER_TOO_SMALL);
        CHECK(small == 0 && fs2t_all_zero(out, len - 1));
    }
    len = sizeof out;
    CHECK_STATUS(fs2_ct_der_encode(out, &len, x, y, c3, NULL, 5), FASTSM2_ERR_ARG);

    /* Bad ciphertexts. */
    len = sizeof out;
    CHECK_STATUS(fs2_ct_der_encode(out, &len, x, y, c3, c2, 10), FASTSM2_OK);
    for (size_t t = 0; t < len; t++) {
        memset(x2, 0xAA, 32);
        pc2 = out;
        c2len = 77;
        CHECK_STATUS(fs2_ct_der_decode(x2, y2, &pc3, &pc2, &c2len, out, t), FASTSM2_ERR_CIPHERTEXT);
        CHECK(fs2t_all_zero(x2, 32) && pc2 == NULL && c2len == 0);
    }
    unsigned char bad[600];
    memcpy(bad, out, len);
    bad[len] = 0;
    CHECK_STATUS(fs2_ct_der_decode(x2, y2, &pc3, &pc2, &c2len, bad, len + 1), FASTSM2_ERR_CIPHERTEXT);
    /* C3 of 31 bytes: 04 1F inside, shift everything. */
    {
        size_t o = 0, body;
        unsigned char b[200];
        b[o++] = 0x30;
        b[o++] = 0; /* patched */
        b[o++] = 2, b[o++] = 1, b[o++] = 5;
        b[o++] = 2, b[o++] = 1, b[o++] = 6;
        b[o++] = 4, b[o++] = 31;
        memset(b + o, 0x33, 31), o += 31;
        b[o++] = 4, b[o++] = 2, b[o++] = 9, b[o++] = 9;
        body = o - 2;
        b[1] = (unsigned char)body;
        CHECK_STATUS(fs2_ct_der_decode(x2, y2, &pc3, &pc2, &c2len, b, o), FASTSM2_ERR_CIPHERTEXT);
        /* With 32 bytes of C3 and an empty C2 it parses. */
        o = 8;
        b[o++] = 4, b[o++] = 32;
        memset(b + o, 0x33, 32), o += 32;
        b[o++] = 4, b[o++] = 0;
        b[1] = (unsigned char)(o - 2);
        CHECK_STATUS(fs2_ct_der_decode(x2, y2, &pc3, &pc2, &c2len, b, o), FASTSM2_OK);
        CHECK(c2len == 0 && x2[31] == 5 && y2[31] == 6 && fs2t_all_zero(x2, 31));
        /* Negative x. */
        b[4] = 0x85;
        CHECK_STATUS(fs2_ct_der_decode(x2, y2, &pc3, &pc2, &c2len, b, o), FASTSM2_ERR_CIPHERTEXT);
        b[4] = 5;
        /* C2 as a BIT STRING. */
        b[o - 2] = 3;
        CHECK_STATUS(fs2_ct_der_decode(x2, y2, &pc3, &pc2, &c2len, b, o), FASTSM2_ERR_CIPHERTEXT);
        b[o - 2] = 4;
        /* Non-minimal length of C2: 04 81 00 is not allowed (00 < 128). */
        b[o - 1] = 0x81;
        b[o] = 0;
        b[1]++;
        CHECK_STATUS(fs2_ct_der_decode(x2, y2, &pc3, &pc2, &c2len, b, o + 1), FASTSM2_ERR_CIPHERTEXT);
    }
    /* x of 33 significant bytes. */
    {
        unsigned char b[120];
        size_t o = 0;
        b[o++] = 0x30, b[o++] = 0;
        b[o++] = 2, b[o++] = 33, b[o++] = 1;
        memset(b + o, 0x11, 32), o += 32;
        b[o++] = 2, b[o++] = 1, b[o++] = 6;
        b[o++] = 4, b[o++] = 32;
        memset(b + o, 0x33, 32), o += 32;
        b[o++] = 4, b[o++] = 0;
        b[1] = (unsigned char)(o - 2);
        CHECK_STATUS(fs2_ct_der_decode(x2, y2, &pc3, &pc2, &c2len, b, o), FASTSM2_ERR_CIPHERTEXT);
    }
}

/* ---- fuzz ------------------------------------------------------------------- */

/* Whatever strict DER accepts re-encodes to the same bytes (one encoding
 * per value), and C3 and C2 point inside the input. */
static void test_fuzz(void)
{
    unsigned char buf[1100], out[1100];
    unsigned long noncanon = 0;
    for (int iter = 0; iter < 1500; iter++) {
        unsigned char x[32], y[32], c3buf[32], c2buf[300], *h;
        const unsigned char *c3, *c2;
        size_t len = sizeof buf, olen = sizeof out, c2len;
        int r;
        fs2t_rand_int256(x);
        fs2t_rand_int256(y);
        fs2t_rand_bytes(c3buf, 32);
        fs2t_rand_bytes(c2buf, sizeof c2buf);
        CHECK(fs2_ct_der_encode(buf, &len, x, y, c3buf, c2buf, fs2t_rand_u64() % 300) == FASTSM2_OK);
        fs2t_mutate(buf, &len, sizeof buf);
        h = malloc(len ? len : 1);
        memcpy(h, buf, len);
        r = fs2_ct_der_decode(x, y, &c3, &c2, &c2len, h, len);
        CHECK(r == FASTSM2_OK || r == FASTSM2_ERR_CIPHERTEXT);
        if (r == FASTSM2_OK) {
            CHECK(c3 >= h && c3 + 32 <= h + len && c2 >= h && c2 + c2len <= h + len);
            CHECK(fs2_ct_der_encode(out, &olen, x, y, c3, c2, c2len) == FASTSM2_OK);
            noncanon += olen != len || memcmp(out, h, len) != 0;
        }
        free(h);
    }
    CHECK(noncanon == 0);
}

int main(void)
{
    test_ct_der();
    test_fuzz();
    return fs2t_finish("test_ciphertext");
}
