/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SM2 ciphertext codec (src/codec/ciphertext.c) in its three layouts:
 * GM/T 0009 DER (SEQUENCE { INTEGER x, INTEGER y, OCTET STRING C3,
 * OCTET STRING C2 }), raw C1C3C2 and raw C1C2C3. OpenSSL 3's DER
 * ciphertexts read and re-encode to the same bytes; INTEGER lengths and
 * sizes exact; raw offsets for both orders and a compressed C1; a table of
 * malformed encodings, each refused; a mutation fuzz whose accepted inputs
 * re-encode to the same bytes (run under ASan too).
 */
#include "testutil.h"
#include "codec/ciphertext.h"
#include "internal.h"

#include <openssl/evp.h>

#include <stdlib.h>
#include <string.h>

#define RAW        FASTSM2_CT_RAW
#define RAW_C1C2C3 (FASTSM2_CT_RAW | FASTSM2_CT_C1C2C3)

/* The layout of a whole ciphertext in memory, read as fastsm2_decrypt reads
 * it: its first min(len, FASTSM2_CT_PREFIX_MAX) bytes are the prefix. */
static int read_ct(fs2_ct_layout *l, const unsigned char *ct, size_t len, int flags)
{
    return fs2_ct_read_prefix(l, ct, len < FASTSM2_CT_PREFIX_MAX ? len : FASTSM2_CT_PREFIX_MAX, len, flags);
}

/* A whole ciphertext through the codec: the prefix for (x, y) and c2len
 * bytes of C2, C2 after it, C3 in its place. Its length, or 0 when it does
 * not fit in cap. */
static size_t write_ct(unsigned char *out, size_t cap, const unsigned char x[32], const unsigned char y[32],
                       const unsigned char c3[32], const unsigned char *c2, size_t c2len, int flags)
{
    fs2_ct_layout l;
    if (fs2_ct_write_prefix(&l, out, cap, x, y, c2len, flags) == 0 || l.total > cap)
        return 0;
    memcpy(out + l.c2_off, c2, c2len);
    memcpy(out + l.c3_off, c3, 32);
    return (size_t)l.total;
}

static void test_der(void)
{
    /* OpenSSL's SM2 ciphertexts read and re-encode to the same bytes. */
    EVP_PKEY *k = EVP_PKEY_Q_keygen(NULL, NULL, "SM2");
    CHECK(k != NULL);
    if (k == NULL)
        return;
    static unsigned char msg[70000], ct[70300], re[70300];
    fs2_ct_layout l;
    fs2t_rand_bytes(msg, sizeof msg);
    for (int iter = 0; iter < 60; iter++) {
        size_t mlen = iter == 0 ? 70000 : iter == 1 ? 128 : iter == 2 ? 1 : 1 + fs2t_rand_u64() % 300;
        size_t ctlen = sizeof ct;
        EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(k, NULL);
        CHECK(EVP_PKEY_encrypt_init(c) == 1 && EVP_PKEY_encrypt(c, ct, &ctlen, msg, mlen) == 1);
        EVP_PKEY_CTX_free(c);
        CHECK_STATUS(read_ct(&l, ct, ctlen, 0), FASTSM2_OK);
        CHECK(l.c2_len == mlen && l.c3_off + 32 <= l.c2_off && l.c2_off + l.c2_len == ctlen && l.total == ctlen);
        CHECK(l.c1len == 65 && l.c1[0] == 0x04);
        CHECK(ctlen <= fs2_ct_max_size(mlen, 0));
        size_t relen = write_ct(re, sizeof re, l.c1 + 1, l.c1 + 33, ct + l.c3_off, ct + l.c2_off, mlen, 0);
        CHECK(relen == ctlen && memcmp(re, ct, ctlen) == 0);
    }
    EVP_PKEY_free(k);

    /* INTEGERs: leading zero bytes dropped, sign byte added. */
    unsigned char x[32], y[32], c3[32], c2[300], out[600];
    size_t len;
    memset(x, 0, 32);
    x[2] = 0x7F;
    memset(y, 0xFF, 32);
    memset(c3, 0x33, 32);
    memset(c2, 0x44, sizeof c2);
    len = write_ct(out, sizeof out, x, y, c3, c2, 200, 0);
    CHECK(len != 0);
    /* 30 82 len | 02 1E 7F 00.. | 02 21 00 FF.. | 04 20 | 04 81 C8 */
    CHECK(out[0] == 0x30 && out[1] == 0x82 && out[4] == 2 && out[5] == 30 && out[6] == 0x7F);
    CHECK(out[36] == 2 && out[37] == 33 && out[38] == 0 && out[39] == 0xFF);
    CHECK(out[71] == 4 && out[72] == 32 && out[105] == 4 && out[106] == 0x81 && out[107] == 200);
    CHECK(len == 108 + 200 && (size_t)((out[2] << 8) | out[3]) == len - 4);
    CHECK(len <= fs2_ct_max_size(200, 0));
    CHECK_STATUS(read_ct(&l, out, len, 0), FASTSM2_OK);
    CHECK(memcmp(l.c1 + 1, x, 32) == 0 && memcmp(l.c1 + 33, y, 32) == 0 && l.c3_off == 73 && l.c2_off == 108 &&
          l.c2_len == 200);
    {
        /* The same with C2's length as 82 00 C8: a leading zero length byte. */
        unsigned char b[600];
        memcpy(b, out, 106);
        b[106] = 0x82, b[107] = 0, b[108] = 200;
        memcpy(b + 109, out + 108, 200);
        b[3]++;
        CHECK_STATUS(read_ct(&l, b, len + 1, 0), FASTSM2_ERR_CIPHERTEXT);
        b[107] = 1; /* 82 01 C8: longer than what is there */
        CHECK_STATUS(read_ct(&l, b, len + 1, 0), FASTSM2_ERR_CIPHERTEXT);
    }
    /* Exact sizes for every C2 length class, max_size exact for top-bit x, y. */
    size_t lens[] = {0, 1, 20, 21, 22, 127, 128, 255, 256, 299};
    memset(x, 0xFF, 32);
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        len = write_ct(out, sizeof out, x, y, c3, c2, lens[i], 0);
        CHECK(len != 0);
        CHECK(len == fs2_ct_max_size(lens[i], 0));
        CHECK_STATUS(read_ct(&l, out, len, 0), FASTSM2_OK);
        CHECK(l.c2_len == lens[i]);
        /* Room for the prefix less one byte: nothing, the layout zeroed. */
        fs2_ct_layout l2;
        size_t pre = (size_t)l.c2_off;
        memset(&l2, 0xAA, sizeof l2);
        CHECK(fs2_ct_write_prefix(&l2, out, pre - 1, x, y, lens[i], 0) == 0);
        CHECK(fs2t_all_zero(&l2, sizeof l2));
    }
    /* C2 too long for a size_t once the prefix is added: no size, no prefix. */
    CHECK(fs2_ct_write_prefix(&l, out, sizeof out, x, y, (uint64_t)SIZE_MAX - 255, 0) == 0);
    CHECK(fs2_ct_max_size(SIZE_MAX - 255, 0) == 0 && fs2_ct_max_size(SIZE_MAX - 255, RAW) == 0);

    /* Bad ciphertexts: cut at every length, with every prefix length the
     * caller may hand over (ctlen says how long it is). */
    len = write_ct(out, sizeof out, x, y, c3, c2, 10, 0);
    CHECK(len != 0);
    for (size_t t = 0; t < len; t++) {
        memset(&l, 0xAA, sizeof l);
        CHECK_STATUS(read_ct(&l, out, t, 0), FASTSM2_ERR_CIPHERTEXT);
        CHECK(fs2t_all_zero(&l, sizeof l));
    }
    unsigned char bad[600];
    memcpy(bad, out, len);
    bad[len] = 0;
    CHECK_STATUS(read_ct(&l, bad, len + 1, 0), FASTSM2_ERR_CIPHERTEXT);
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
        CHECK_STATUS(read_ct(&l, b, o, 0), FASTSM2_ERR_CIPHERTEXT);
        /* With 32 bytes of C3 and an empty C2 it reads (the protocol
         * refuses an empty C2, not the codec). */
        o = 8;
        b[o++] = 4, b[o++] = 32;
        memset(b + o, 0x33, 32), o += 32;
        b[o++] = 4, b[o++] = 0;
        b[1] = (unsigned char)(o - 2);
        CHECK_STATUS(read_ct(&l, b, o, 0), FASTSM2_OK);
        CHECK(l.c2_len == 0 && l.c1[32] == 5 && l.c1[64] == 6 && fs2t_all_zero(l.c1 + 1, 31));
        /* Negative x. */
        b[4] = 0x85;
        CHECK_STATUS(read_ct(&l, b, o, 0), FASTSM2_ERR_CIPHERTEXT);
        b[4] = 5;
        /* C2 as a BIT STRING. */
        b[o - 2] = 3;
        CHECK_STATUS(read_ct(&l, b, o, 0), FASTSM2_ERR_CIPHERTEXT);
        b[o - 2] = 4;
        /* Non-minimal length of C2: 04 81 00 is not allowed (00 < 128). */
        b[o - 1] = 0x81;
        b[o] = 0;
        b[1]++;
        CHECK_STATUS(read_ct(&l, b, o + 1, 0), FASTSM2_ERR_CIPHERTEXT);
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
        CHECK_STATUS(read_ct(&l, b, o, 0), FASTSM2_ERR_CIPHERTEXT);
    }
    /* The SEQUENCE's length in long form for a short length (81 xx), and
     * in more bytes than it needs (82 00 xx). */
    len = write_ct(out, sizeof out, x, y, c3, c2, 5, 0);
    CHECK(len != 0 && out[1] < 0x80);
    bad[0] = 0x30, bad[1] = 0x81, bad[2] = out[1];
    memcpy(bad + 3, out + 2, len - 2);
    CHECK_STATUS(read_ct(&l, bad, len + 1, 0), FASTSM2_ERR_CIPHERTEXT);
    bad[1] = 0x82, bad[2] = 0, bad[3] = out[1];
    memcpy(bad + 4, out + 2, len - 2);
    CHECK_STATUS(read_ct(&l, bad, len + 2, 0), FASTSM2_ERR_CIPHERTEXT);
}

static void test_raw(void)
{
    unsigned char x[32], y[32], c3[32], c2[100], out[300];
    fs2_ct_layout l;
    fs2t_rand_bytes(x, 32);
    fs2t_rand_bytes(y, 32);
    fs2t_rand_bytes(c3, 32);
    fs2t_rand_bytes(c2, sizeof c2);
    /* C1C3C2: 04 || x || y || C3 || C2; C1C2C3: 04 || x || y || C2 || C3. */
    size_t len = write_ct(out, sizeof out, x, y, c3, c2, 20, RAW);
    CHECK(len == 97 + 20 && len == fs2_ct_max_size(20, RAW));
    CHECK(out[0] == 0x04 && memcmp(out + 1, x, 32) == 0 && memcmp(out + 33, y, 32) == 0);
    CHECK(memcmp(out + 65, c3, 32) == 0 && memcmp(out + 97, c2, 20) == 0);
    CHECK_STATUS(read_ct(&l, out, len, RAW), FASTSM2_OK);
    CHECK(l.c1len == 65 && memcmp(l.c1, out, 65) == 0 && l.c3_off == 65 && l.c2_off == 97 && l.c2_len == 20);
    len = write_ct(out, sizeof out, x, y, c3, c2, 20, RAW_C1C2C3);
    CHECK(len == 97 + 20);
    CHECK(memcmp(out + 65, c2, 20) == 0 && memcmp(out + 85, c3, 32) == 0);
    CHECK_STATUS(read_ct(&l, out, len, RAW_C1C2C3), FASTSM2_OK);
    CHECK(l.c1len == 65 && l.c2_off == 65 && l.c2_len == 20 && l.c3_off == 85 && l.total == len);
    /* The prefix alone: C1 and, for C1C3C2, a zero C3 placeholder. */
    {
        unsigned char pre[FASTSM2_CT_PREFIX_MAX];
        CHECK(fs2_ct_write_prefix(&l, pre, sizeof pre, x, y, 1000, RAW) == 97);
        CHECK(fs2t_all_zero(pre + 65, 32) && l.c3_off == 65 && l.total == 1097);
        CHECK(fs2_ct_write_prefix(&l, pre, sizeof pre, x, y, 1000, RAW_C1C2C3) == 65);
        CHECK(l.c3_off == 65 + 1000 && l.total == 1097);
        CHECK(fs2_ct_write_prefix(&l, pre, 64, x, y, 1000, RAW_C1C2C3) == 0);
    }
    /* A compressed C1 (02/03 || x) is read as 33 bytes. */
    for (unsigned char pfx = 2; pfx <= 3; pfx++) {
        out[0] = pfx;
        memcpy(out + 1, x, 32);
        memcpy(out + 33, c3, 32);
        memcpy(out + 65, c2, 7);
        CHECK_STATUS(read_ct(&l, out, 72, RAW), FASTSM2_OK);
        CHECK(l.c1len == 33 && l.c1[0] == pfx && l.c3_off == 33 && l.c2_off == 65 && l.c2_len == 7);
        CHECK_STATUS(read_ct(&l, out, 72, RAW_C1C2C3), FASTSM2_OK);
        CHECK(l.c1len == 33 && l.c2_off == 33 && l.c2_len == 7 && l.c3_off == 40);
        CHECK_STATUS(read_ct(&l, out, 64, RAW), FASTSM2_ERR_CIPHERTEXT);
        CHECK_STATUS(read_ct(&l, out, 65, RAW), FASTSM2_OK); /* C2 empty: for the protocol to refuse */
    }
    /* Shorter than C1 and C3: every length; 97 bytes (empty C2) reads. */
    len = write_ct(out, sizeof out, x, y, c3, c2, 20, RAW);
    for (size_t t = 0; t < 97; t++) {
        memset(&l, 0xAA, sizeof l);
        CHECK_STATUS(read_ct(&l, out, t, RAW), FASTSM2_ERR_CIPHERTEXT);
        CHECK(fs2t_all_zero(&l, sizeof l));
        CHECK_STATUS(read_ct(&l, out, t, RAW_C1C2C3), FASTSM2_ERR_CIPHERTEXT);
    }
    CHECK_STATUS(read_ct(&l, out, 97, RAW), FASTSM2_OK);
    CHECK(l.c2_len == 0);
    /* A prefix shorter than C1 is refused, whatever ctlen says. */
    CHECK_STATUS(fs2_ct_read_prefix(&l, out, 64, len, RAW), FASTSM2_ERR_CIPHERTEXT);
    /* A huge ctlen only moves C2's end (the protocol bounds it). */
    CHECK_STATUS(fs2_ct_read_prefix(&l, out, 97, UINT64_MAX, RAW), FASTSM2_OK);
    CHECK(l.c2_len == UINT64_MAX - 97 && l.c2_off == 97);
}

/* ---- fuzz ------------------------------------------------------------------- */

/* Whatever strict DER accepts re-encodes to the same bytes (one encoding
 * per value), and C3 and C2 lie inside the input. Raw layouts: any input
 * reads to offsets inside it, or is refused. */
static void test_fuzz(void)
{
    unsigned char buf[1100], out[1100];
    unsigned long noncanon = 0, outside = 0;
    for (int iter = 0; iter < 1500; iter++) {
        unsigned char x[32], y[32], c3buf[32], c2buf[300], *h;
        size_t len, olen;
        fs2_ct_layout l;
        int r;
        fs2t_rand_int256(x);
        fs2t_rand_int256(y);
        fs2t_rand_bytes(c3buf, 32);
        fs2t_rand_bytes(c2buf, sizeof c2buf);
        len = write_ct(buf, sizeof buf, x, y, c3buf, c2buf, fs2t_rand_u64() % 300, 0);
        CHECK(len != 0);
        fs2t_mutate(buf, &len, sizeof buf);
        h = malloc(len ? len : 1);
        memcpy(h, buf, len);
        r = read_ct(&l, h, len, 0);
        CHECK(r == FASTSM2_OK || r == FASTSM2_ERR_CIPHERTEXT);
        if (r == FASTSM2_OK) {
            CHECK(l.c3_off + 32 <= l.c2_off && l.c2_off + l.c2_len == len);
            olen = write_ct(out, sizeof out, l.c1 + 1, l.c1 + 33, h + l.c3_off, h + l.c2_off, (size_t)l.c2_len, 0);
            CHECK(olen != 0);
            noncanon += olen != len || memcmp(out, h, len) != 0;
        }
        free(h);
    }
    CHECK(noncanon == 0);

    for (int iter = 0; iter < 1000; iter++) {
        size_t len;
        int flags = (iter & 1) ? RAW : RAW_C1C2C3;
        fs2_ct_layout l;
        unsigned char *h = fs2t_rand_input(200, (iter & 2) ? 2 + (iter & 4 ? 1 : 0) : -1, &len);
        int r = read_ct(&l, h, len, flags);
        CHECK(r == FASTSM2_OK || r == FASTSM2_ERR_CIPHERTEXT);
        if (r == FASTSM2_OK)
            outside += l.c3_off + 32 > len || l.c2_off + l.c2_len > len || l.c1len + 32 + l.c2_len != len;
        free(h);
    }
    CHECK(outside == 0);
}

int main(void)
{
    test_der();
    test_raw();
    test_fuzz();
    return fs2t_finish("test_ciphertext");
}
