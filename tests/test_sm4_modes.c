/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SM4's modes without authentication (include/fastsm2.h): one-shot CBC
 * (PKCS#7 and none) and CTR, and the streaming ECB, CBC, CTR, OFB and CFB,
 * against OpenSSL's EVP SM4-ECB/CBC/CTR/OFB/CFB on random keys, IVs and
 * lengths, the streams cut at random points and run in place; CTR's
 * 128-bit counter across its carries; PKCS#7 unpadding refusing every kind
 * of bad padding; and every error the header names for these calls. On
 * every SM4 table this CPU can run.
 */
#include <openssl/evp.h>

#include "sm4t.h"
#include "testossl.h"

#define MAXLEN 700

static const EVP_CIPHER *ossl_cipher(int mode)
{
    switch (mode) {
    case FASTSM2_SM4_ECB: return EVP_sm4_ecb();
    case FASTSM2_SM4_CBC: return EVP_sm4_cbc();
    case FASTSM2_SM4_CTR: return EVP_sm4_ctr();
    case FASTSM2_SM4_OFB: return EVP_sm4_ofb();
    default: return EVP_sm4_cfb128();
    }
}

/* OpenSSL's output for the whole input; returns its length (-1: refused,
 * as for bad padding). */
static long ossl_run(unsigned char *out, int mode, int enc, int pad, const unsigned char k[16],
                     const unsigned char iv[16], const unsigned char *in, size_t len)
{
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    int l1 = 0, l2 = 0;
    if (!c || !EVP_CipherInit_ex(c, ossl_cipher(mode), NULL, k, mode == FASTSM2_SM4_ECB ? NULL : iv, enc) ||
        !EVP_CIPHER_CTX_set_padding(c, pad) || !EVP_CipherUpdate(c, out, &l1, in, (int)len))
        fs2t_ossl_die("SM4 EVP");
    int ok = EVP_CipherFinal_ex(c, out + l1, &l2);
    EVP_CIPHER_CTX_free(c);
    return ok ? (long)(l1 + l2) : -1;
}

static int mode_has_padding(int mode)
{
    return mode == FASTSM2_SM4_ECB || mode == FASTSM2_SM4_CBC;
}

/* The streaming API in place: each piece copied into a buffer of its own
 * (with the 15 bytes of room the header asks for), and updated there with
 * out == in; the outputs appended to out. Returns the output length, or -1
 * on an error status, whose code goes to *st. */
static long stream_in_place(unsigned char *out, const unsigned char *in, size_t len, int mode, int enc, int pad,
                            const fastsm2_sm4_key *key, const unsigned char iv[16], int *st)
{
    fastsm2_sm4_ctx ctx;
    unsigned char p[64 + 15];
    size_t done_in = 0, done_out = 0, ol;
    *st = fastsm2_sm4_init(&ctx, mode, enc, pad, key, mode == FASTSM2_SM4_ECB ? NULL : iv,
                           mode == FASTSM2_SM4_ECB ? 0 : 16);
    if (*st != FASTSM2_OK)
        return -1;
    while (done_in < len) {
        size_t piece = fs2t_rand_piece(len - done_in, 0, 64);
        memcpy(p, in + done_in, piece);
        ol = piece + 15;
        *st = fastsm2_sm4_update(&ctx, p, &ol, p, piece);
        if (*st != FASTSM2_OK)
            return -1;
        memcpy(out + done_out, p, ol);
        done_in += piece;
        done_out += ol;
    }
    ol = 16;
    *st = fastsm2_sm4_final(&ctx, p, &ol);
    if (*st != FASTSM2_OK)
        return -1;
    memcpy(out + done_out, p, ol);
    return (long)(done_out + ol);
}

/* One random case of every mode, direction and padding: the one-shot call
 * (CBC, CTR), the stream with separate buffers and the stream in place,
 * all equal to OpenSSL. */
static void test_vs_openssl(void)
{
    static unsigned char in[MAXLEN + 32], want[MAXLEN + 32], out[MAXLEN + 48], buf[MAXLEN + 48];
    for (int mode = FASTSM2_SM4_ECB; mode <= FASTSM2_SM4_CFB; mode++)
        for (int enc = 0; enc <= 1; enc++)
            for (int pad = 0; pad <= (mode_has_padding(mode) ? 1 : 0); pad++)
                for (int iter = 0; iter < 6; iter++) {
                    unsigned char k[16], iv[16];
                    fastsm2_sm4_key key;
                    sm4t_rand_key(&key, k);
                    fs2t_rand_bytes(iv, 16);
                    size_t len = fs2t_rand_below(MAXLEN);
                    if (mode_has_padding(mode) && (!pad || !enc))
                        len -= len % 16;
                    if (mode_has_padding(mode) && pad && !enc && len == 0)
                        len = 16;
                    fs2t_rand_bytes(in, len);
                    if (pad && !enc) { /* a ciphertext of a padded plaintext, mostly */
                        unsigned char p[MAXLEN + 32];
                        long pl = ossl_run(p, mode, 1, 1, k, iv, in, len - 1 - fs2t_rand_below(16));
                        if (iter != 0) {
                            memcpy(in, p, (size_t)pl);
                            len = (size_t)pl;
                        }
                    }
                    long wl = ossl_run(want, mode, enc, pad, k, iv, in, len);
                    int st;
                    /* the stream, separate buffers, random pieces */
                    fastsm2_sm4_ctx ctx;
                    size_t o = 0, i = 0, ol;
                    CHECK_STATUS(fastsm2_sm4_init(&ctx, mode, enc, pad, &key, mode == FASTSM2_SM4_ECB ? NULL : iv,
                                                  mode == FASTSM2_SM4_ECB ? 0 : 16),
                                 FASTSM2_OK);
                    st = FASTSM2_OK;
                    while (i < len && st == FASTSM2_OK) {
                        size_t piece = fs2t_rand_piece(len - i, 0, 50);
                        ol = piece + 15;
                        st = fastsm2_sm4_update(&ctx, out + o, &ol, in + i, piece);
                        CHECK(ol <= piece + 15);
                        i += piece;
                        o += ol;
                    }
                    ol = 16;
                    if (st == FASTSM2_OK)
                        st = fastsm2_sm4_final(&ctx, out + o, &ol);
                    if (wl < 0) {
                        CHECK_STATUS(st, FASTSM2_ERR_PADDING);
                    } else {
                        CHECK_STATUS(st, FASTSM2_OK);
                        CHECK(o + ol == (size_t)wl && memcmp(out, want, (size_t)wl) == 0);
                    }
                    /* the stream in place */
                    memset(buf, 0, sizeof buf);
                    long bl = stream_in_place(buf, in, len, mode, enc, pad, &key, iv, &st);
                    if (wl < 0)
                        CHECK_STATUS(st, FASTSM2_ERR_PADDING);
                    else
                        CHECK(bl == wl && memcmp(buf, want, (size_t)wl) == 0);
                    /* one-shot CBC and CTR, separate and in place */
                    if (mode == FASTSM2_SM4_CBC || mode == FASTSM2_SM4_CTR) {
                        for (int inplace = 0; inplace <= 1; inplace++) {
                            unsigned char *dst = inplace ? buf : out;
                            size_t cap = sizeof out;
                            memcpy(buf, in, len);
                            if (mode == FASTSM2_SM4_CTR)
                                st = fastsm2_sm4_ctr(dst, &key, iv, buf, len), cap = len;
                            else if (enc)
                                st = fastsm2_sm4_cbc_encrypt(dst, &cap, &key, iv, pad, buf, len);
                            else
                                st = fastsm2_sm4_cbc_decrypt(dst, &cap, &key, iv, pad, buf, len);
                            if (wl < 0) {
                                CHECK_STATUS(st, FASTSM2_ERR_PADDING);
                                CHECK(cap == 0 && fs2t_all_zero(dst, sizeof out));
                            } else {
                                CHECK_STATUS(st, FASTSM2_OK);
                                CHECK(cap == (size_t)wl && memcmp(dst, want, (size_t)wl) == 0);
                            }
                        }
                    }
                    fastsm2_sm4_key_clear(&key);
                }
}

/* CTR's counter is 128 bits: across the carries out of the last 32 and 64
 * bits, and around 2^128, as OpenSSL's SM4-CTR. */
static void test_ctr_carries(void)
{
    static const unsigned char lows[][8] = {
        {0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFD},
        {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE},
        {0x12, 0x34, 0x56, 0x78, 0xFF, 0xFF, 0xFF, 0xF0},
    };
    unsigned char k[16], iv[16], in[160], want[160], out[160];
    fastsm2_sm4_key key;
    sm4t_rand_key(&key, k);
    fs2t_rand_bytes(in, sizeof in);
    for (int all_ones = 0; all_ones <= 1; all_ones++)
        for (size_t j = 0; j < sizeof lows / sizeof lows[0]; j++) {
            fs2t_rand_bytes(iv, 8);
            if (all_ones)
                memset(iv, 0xFF, 8);
            memcpy(iv + 8, lows[j], 8);
            long wl = ossl_run(want, FASTSM2_SM4_CTR, 1, 0, k, iv, in, sizeof in - 3);
            CHECK_STATUS(fastsm2_sm4_ctr(out, &key, iv, in, sizeof in - 3), FASTSM2_OK);
            CHECK(wl == (long)sizeof in - 3 && memcmp(out, want, sizeof in - 3) == 0);
        }
    fastsm2_sm4_key_clear(&key);
}

/* Unpadding: every malformed last block is FASTSM2_ERR_PADDING with the
 * output zeroed, one-shot and streaming; every well-formed one passes. */
static void test_padding(void)
{
    unsigned char k[16], iv[16], plain[48], ct[48], out[64];
    fastsm2_sm4_key key;
    sm4t_rand_key(&key, k);
    fs2t_rand_bytes(iv, 16);
    for (int p = 0; p <= 18; p++)
        for (int flaw = 0; flaw < 3; flaw++) {
            /* flaw 0: well formed (for p 1..16); 1: one byte of the pad
             * off; 2: the last byte itself p, the others off */
            fs2t_rand_bytes(plain, sizeof plain);
            int good = p >= 1 && p <= 16 && flaw == 0;
            for (int i = 0; i < p && i < 48; i++)
                plain[47 - i] = (unsigned char)p;
            if (flaw == 1 && p >= 2 && p <= 16)
                plain[48 - 1 - fs2t_rand_below((size_t)p - 1) - 1] ^= (unsigned char)(1 + fs2t_rand_below(255));
            if (flaw == 2 && p >= 2 && p <= 16)
                plain[48 - p] = (unsigned char)(p + 1);
            if (flaw != 0 && p >= 1 && p <= 16 && (p < 2))
                continue; /* nothing to spoil in a pad of one byte */
            size_t cl = sizeof ct;
            CHECK_STATUS(fastsm2_sm4_cbc_encrypt(ct, &cl, &key, iv, FASTSM2_SM4_PAD_NONE, plain, 48), FASTSM2_OK);
            size_t ol = sizeof out;
            memset(out, 0x77, sizeof out);
            int st = fastsm2_sm4_cbc_decrypt(out, &ol, &key, iv, FASTSM2_SM4_PAD_PKCS7, ct, 48);
            if (good) {
                CHECK_STATUS(st, FASTSM2_OK);
                CHECK(ol == (size_t)(48 - p) && memcmp(out, plain, ol) == 0);
            } else {
                CHECK_STATUS(st, FASTSM2_ERR_PADDING);
                CHECK(ol == 0 && fs2t_all_zero(out, sizeof out));
            }
            /* ECB's stream the same way */
            CHECK_STATUS(fastsm2_sm4_ecb_encrypt(ct, &key, plain, 48), FASTSM2_OK);
            fastsm2_sm4_ctx ctx;
            size_t o1 = sizeof out, o2;
            CHECK_STATUS(
                fastsm2_sm4_init(&ctx, FASTSM2_SM4_ECB, FASTSM2_SM4_DECRYPT, FASTSM2_SM4_PAD_PKCS7, &key, NULL, 0),
                FASTSM2_OK);
            CHECK_STATUS(fastsm2_sm4_update(&ctx, out, &o1, ct, 48), FASTSM2_OK);
            CHECK(o1 == 32);
            o2 = 16;
            st = fastsm2_sm4_final(&ctx, out + o1, &o2);
            if (good) {
                CHECK_STATUS(st, FASTSM2_OK);
                CHECK(o2 == (size_t)(16 - p));
                CHECK(memcmp(out, plain, 48 - (size_t)p) == 0);
            } else {
                CHECK_STATUS(st, FASTSM2_ERR_PADDING);
                CHECK(o2 == 0);
            }
        }
    fastsm2_sm4_key_clear(&key);
}

static void test_errors(void)
{
    unsigned char k[16] = {7}, iv[16] = {9}, buf[64], out[64];
    size_t ol;
    fastsm2_sm4_key key;
    fastsm2_sm4_ctx ctx;
    CHECK_STATUS(fastsm2_sm4_key_init(&key, k), FASTSM2_OK);
    memset(buf, 1, sizeof buf);
    /* one-shot CBC */
    ol = sizeof out;
    CHECK_STATUS(fastsm2_sm4_cbc_encrypt(out, NULL, &key, iv, 1, buf, 16), FASTSM2_ERR_ARG);
    memset(out, 0x55, sizeof out);
    CHECK_STATUS(fastsm2_sm4_cbc_encrypt(out, &ol, &key, iv, 2, buf, 16), FASTSM2_ERR_ARG);
    CHECK(ol == 0 && fs2t_all_zero(out, sizeof out));
    ol = sizeof out;
    CHECK_STATUS(fastsm2_sm4_cbc_encrypt(out, &ol, &key, NULL, 1, buf, 16), FASTSM2_ERR_ARG);
    ol = sizeof out;
    CHECK_STATUS(fastsm2_sm4_cbc_encrypt(out, &ol, NULL, iv, 1, buf, 16), FASTSM2_ERR_ARG);
    ol = sizeof out;
    CHECK_STATUS(fastsm2_sm4_cbc_encrypt(out, &ol, &key, iv, FASTSM2_SM4_PAD_NONE, buf, 17), FASTSM2_ERR_LENGTH);
    ol = 32;
    memset(out, 0x55, sizeof out);
    CHECK_STATUS(fastsm2_sm4_cbc_encrypt(out, &ol, &key, iv, FASTSM2_SM4_PAD_PKCS7, buf, 32),
                 FASTSM2_ERR_BUFFER_TOO_SMALL); /* needs 48 */
    CHECK(ol == 0 && fs2t_all_zero(out, 32) && out[32] == 0x55);
    ol = 48;
    CHECK_STATUS(fastsm2_sm4_cbc_encrypt(out, &ol, &key, iv, FASTSM2_SM4_PAD_PKCS7, buf, 32), FASTSM2_OK);
    CHECK(ol == 48);
    ol = 0;
    CHECK_STATUS(fastsm2_sm4_cbc_encrypt(NULL, &ol, &key, iv, FASTSM2_SM4_PAD_NONE, NULL, 0), FASTSM2_OK);
    ol = 16;
    CHECK_STATUS(fastsm2_sm4_cbc_encrypt(out, &ol, &key, iv, FASTSM2_SM4_PAD_PKCS7, NULL, 0), FASTSM2_OK);
    CHECK(ol == 16);
    ol = sizeof out;
    CHECK_STATUS(fastsm2_sm4_cbc_decrypt(out, &ol, &key, iv, FASTSM2_SM4_PAD_PKCS7, buf, 0), FASTSM2_ERR_LENGTH);
    ol = sizeof out;
    CHECK_STATUS(fastsm2_sm4_cbc_decrypt(out, &ol, &key, iv, FASTSM2_SM4_PAD_NONE, buf, 20), FASTSM2_ERR_LENGTH);
    ol = 16;
    CHECK_STATUS(fastsm2_sm4_cbc_decrypt(out, &ol, &key, iv, FASTSM2_SM4_PAD_NONE, buf, 32),
                 FASTSM2_ERR_BUFFER_TOO_SMALL);
    ol = sizeof out;
    CHECK_STATUS(fastsm2_sm4_cbc_decrypt(out, &ol, &key, iv, -1, buf, 32), FASTSM2_ERR_ARG);
    ol = sizeof out;
    CHECK_STATUS(fastsm2_sm4_cbc_decrypt(NULL, &ol, &key, iv, 0, buf, 32), FASTSM2_ERR_ARG);
    /* CTR */
    memset(out, 0x55, sizeof out);
    CHECK_STATUS(fastsm2_sm4_ctr(out, &key, NULL, buf, 20), FASTSM2_ERR_ARG);
    CHECK(fs2t_all_zero(out, 20) && out[20] == 0x55);
    CHECK_STATUS(fastsm2_sm4_ctr(out, &key, iv, NULL, 20), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_sm4_ctr(NULL, &key, iv, buf, 20), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_sm4_ctr(out, NULL, iv, buf, 20), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_sm4_ctr(NULL, &key, iv, NULL, 0), FASTSM2_OK);
    /* streaming: init */
    CHECK_STATUS(fastsm2_sm4_init(NULL, FASTSM2_SM4_CBC, 1, 0, &key, iv, 16), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_sm4_init(&ctx, 0, 1, 0, &key, iv, 16), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_sm4_init(&ctx, 6, 1, 0, &key, iv, 16), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_sm4_init(&ctx, FASTSM2_SM4_CBC, 2, 0, &key, iv, 16), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_sm4_init(&ctx, FASTSM2_SM4_CTR, 1, FASTSM2_SM4_PAD_PKCS7, &key, iv, 16), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_sm4_init(&ctx, FASTSM2_SM4_CBC, 1, 2, &key, iv, 16), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_sm4_init(&ctx, FASTSM2_SM4_CBC, 1, 0, NULL, iv, 16), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_sm4_init(&ctx, FASTSM2_SM4_CBC, 1, 0, &key, iv, 12), FASTSM2_ERR_IV);
    CHECK_STATUS(fastsm2_sm4_init(&ctx, FASTSM2_SM4_OFB, 1, 0, &key, NULL, 16), FASTSM2_ERR_IV);
    CHECK_STATUS(fastsm2_sm4_init(&ctx, FASTSM2_SM4_ECB, 1, 0, &key, iv, 16), FASTSM2_ERR_IV);
    CHECK_STATUS(fastsm2_sm4_init(&ctx, FASTSM2_SM4_ECB, 1, 0, &key, iv, 0), FASTSM2_OK); /* iv ignored */
    /* a context that failed init refuses to run */
    CHECK_STATUS(fastsm2_sm4_init(&ctx, FASTSM2_SM4_CBC, 1, 0, &key, iv, 12), FASTSM2_ERR_IV);
    ol = sizeof out;
    CHECK_STATUS(fastsm2_sm4_update(&ctx, out, &ol, buf, 16), FASTSM2_ERR_STATE);
    /* update */
    CHECK_STATUS(fastsm2_sm4_init(&ctx, FASTSM2_SM4_CBC, 1, FASTSM2_SM4_PAD_PKCS7, &key, iv, 16), FASTSM2_OK);
    ol = 15;
    memset(out, 0x55, sizeof out);
    CHECK_STATUS(fastsm2_sm4_update(&ctx, out, &ol, buf, 20), FASTSM2_ERR_BUFFER_TOO_SMALL);
    CHECK(ol == 0 && fs2t_all_zero(out, 15) && out[15] == 0x55);
    ol = 16;
    CHECK_STATUS(fastsm2_sm4_update(&ctx, out, &ol, buf, 20), FASTSM2_OK); /* nothing was consumed */
    CHECK(ol == 16);
    ol = sizeof out;
    CHECK_STATUS(fastsm2_sm4_update(&ctx, out, NULL, buf, 20), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_sm4_update(&ctx, out, &ol, NULL, 20), FASTSM2_ERR_ARG);
    ol = 5;
    CHECK_STATUS(fastsm2_sm4_update(&ctx, NULL, &ol, buf, 3), FASTSM2_ERR_ARG);
    ol = 0;
    CHECK_STATUS(fastsm2_sm4_update(&ctx, NULL, &ol, buf, 3), FASTSM2_OK); /* 7 held, none out */
    ol = 16;
    CHECK_STATUS(fastsm2_sm4_final(&ctx, out, &ol), FASTSM2_OK);
    CHECK(ol == 16);
    CHECK(fs2t_all_zero(&ctx, sizeof ctx)); /* final wipes */
    ol = sizeof out;
    CHECK_STATUS(fastsm2_sm4_update(&ctx, out, &ol, buf, 16), FASTSM2_ERR_STATE);
    ol = sizeof out;
    CHECK_STATUS(fastsm2_sm4_final(&ctx, out, &ol), FASTSM2_ERR_STATE);
    CHECK_STATUS(fastsm2_sm4_update(NULL, out, &ol, buf, 16), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_sm4_final(NULL, out, &ol), FASTSM2_ERR_ARG);
    /* final: a partial block without padding; padding with no room */
    CHECK_STATUS(fastsm2_sm4_init(&ctx, FASTSM2_SM4_CBC, 1, FASTSM2_SM4_PAD_NONE, &key, iv, 16), FASTSM2_OK);
    ol = sizeof out;
    CHECK_STATUS(fastsm2_sm4_update(&ctx, out, &ol, buf, 20), FASTSM2_OK);
    ol = 16;
    CHECK_STATUS(fastsm2_sm4_final(&ctx, out, &ol), FASTSM2_ERR_LENGTH);
    CHECK(fs2t_all_zero(&ctx, sizeof ctx));
    CHECK_STATUS(fastsm2_sm4_init(&ctx, FASTSM2_SM4_ECB, 1, FASTSM2_SM4_PAD_PKCS7, &key, NULL, 0), FASTSM2_OK);
    ol = 15;
    CHECK_STATUS(fastsm2_sm4_final(&ctx, out, &ol), FASTSM2_ERR_BUFFER_TOO_SMALL);
    /* decrypting with padding: no block at all, a partial block */
    CHECK_STATUS(fastsm2_sm4_init(&ctx, FASTSM2_SM4_CBC, 0, FASTSM2_SM4_PAD_PKCS7, &key, iv, 16), FASTSM2_OK);
    ol = 16;
    CHECK_STATUS(fastsm2_sm4_final(&ctx, out, &ol), FASTSM2_ERR_PADDING);
    CHECK_STATUS(fastsm2_sm4_init(&ctx, FASTSM2_SM4_CBC, 0, FASTSM2_SM4_PAD_PKCS7, &key, iv, 16), FASTSM2_OK);
    ol = sizeof out;
    CHECK_STATUS(fastsm2_sm4_update(&ctx, out, &ol, buf, 40), FASTSM2_OK);
    CHECK(ol == 32);
    ol = 16;
    CHECK_STATUS(fastsm2_sm4_final(&ctx, out, &ol), FASTSM2_ERR_LENGTH);
    /* the stream modes write exactly what they get, final nothing */
    CHECK_STATUS(fastsm2_sm4_init(&ctx, FASTSM2_SM4_CFB, 1, 0, &key, iv, 16), FASTSM2_OK);
    ol = 4;
    CHECK_STATUS(fastsm2_sm4_update(&ctx, out, &ol, buf, 5), FASTSM2_ERR_BUFFER_TOO_SMALL);
    ol = 5;
    CHECK_STATUS(fastsm2_sm4_update(&ctx, out, &ol, buf, 5), FASTSM2_OK);
    CHECK(ol == 5);
    ol = 0;
    CHECK_STATUS(fastsm2_sm4_final(&ctx, NULL, &ol), FASTSM2_OK);
    CHECK(ol == 0);
    fastsm2_sm4_ctx_clear(&ctx);
    fastsm2_sm4_ctx_clear(NULL);
    fastsm2_sm4_key_clear(&key);
}

int main(void)
{
    const fs2_sm4_ops *tables[16];
    size_t n = sm4t_tables(tables, 16);
    for (size_t i = 0; i < n; i++) {
        printf("SM4 table %s\n", tables[i]->name);
        fs2_sm4_force(tables[i]);
        test_vs_openssl();
        test_ctr_carries();
        test_padding();
        test_errors();
    }
    fs2_sm4_force(NULL);
    return fs2t_finish("test_sm4_modes");
}
