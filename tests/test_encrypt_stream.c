/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SM2 encryption (GB/T 32918.4) on every backend in the dispatch table, and
 * the streaming API:
 *  - the GB/T 32918.5 encryption example (C1C3C2, C1C2C3, DER), one-shot
 *    and streamed in pieces of every size 1..19, with each backend forced
 *    (the KDF then runs in 1, 8 or 16 SIMD lanes);
 *  - long random messages: the stream, cut at random places, gives the
 *    same bytes as the one-shot call with the same k, in every form, and
 *    decrypts back through both APIs;
 *  - every error of the streaming API has its named code: NULLs, empty and
 *    oversized lengths, short prefix buffers, pieces past the length, final
 *    too early, use after final, malformed and non-strict DER prefixes, C1
 *    off the curve, a wrong C3.
 */
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "protocol/protocol.h"
#include "testutil.h"

static fastsm2_privkey key;
static fastsm2_pubkey pub;
static unsigned char kat_k[32];
static char kat_msg[64];
static size_t kat_msglen;
static unsigned char want[3][256];
static size_t wantlen[3];
static const int kat_flags[3] = {FASTSM2_CT_RAW, FASTSM2_CT_RAW | FASTSM2_CT_C1C2C3, FASTSM2_CT_DER};

static size_t vec(unsigned char *out, size_t cap, const char *sec, const char *k)
{
    return fs2t_unhex(out, cap, fs2t_vector(sec, k, 0));
}

/* The expected ciphertexts of the example in the three forms. */
static void setup_kat(void)
{
    unsigned char d[32], c1[65], c3[32], c2[64];
    vec(d, 32, "sign", "d");
    vec(kat_k, 32, "sign", "k");
    vec(c1, 65, "encrypt", "C1");
    vec(c3, 32, "encrypt", "C3");
    size_t c2len = vec(c2, sizeof c2, "encrypt", "C2");
    snprintf(kat_msg, sizeof kat_msg, "%s", fs2t_vector("encrypt", "msg_ascii", 0));
    kat_msglen = strlen(kat_msg);
    CHECK(c2len == kat_msglen);
    CHECK_STATUS(fastsm2_privkey_from_bytes(&key, d), FASTSM2_OK);
    CHECK_STATUS(fastsm2_privkey_pubkey(&pub, &key), FASTSM2_OK);
    memcpy(want[0], c1, 65);
    memcpy(want[0] + 65, c3, 32);
    memcpy(want[0] + 97, c2, c2len);
    wantlen[0] = 97 + c2len;
    memcpy(want[1], c1, 65);
    memcpy(want[1] + 65, c2, c2len);
    memcpy(want[1] + 65 + c2len, c3, 32);
    wantlen[1] = 97 + c2len;
    /* DER, written out by hand: SEQUENCE { INTEGER x1, INTEGER y1 (top bit
     * set: 00 first), OCTET STRING C3, OCTET STRING C2 } */
    unsigned char *p = want[2];
    size_t xl = c1[1] >= 0x80 ? 33 : 32, yl = c1[33] >= 0x80 ? 33 : 32;
    size_t body = 2 + xl + 2 + yl + 2 + 32 + 2 + c2len;
    *p++ = 0x30;
    *p++ = (unsigned char)body;
    *p++ = 0x02;
    *p++ = (unsigned char)xl;
    if (xl == 33)
        *p++ = 0;
    memcpy(p, c1 + 1, 32);
    p += 32;
    *p++ = 0x02;
    *p++ = (unsigned char)yl;
    if (yl == 33)
        *p++ = 0;
    memcpy(p, c1 + 33, 32);
    p += 32;
    *p++ = 0x04;
    *p++ = 32;
    memcpy(p, c3, 32);
    p += 32;
    *p++ = 0x04;
    *p++ = (unsigned char)c2len;
    memcpy(p, c2, c2len);
    p += c2len;
    wantlen[2] = (size_t)(p - want[2]);
}

static void test_kat(const char *be)
{
    unsigned long bad = 0;
    for (int f = 0; f < 3; f++) {
        unsigned char out[256], pt[256];
        size_t outlen = sizeof out, ptlen;
        CHECK_STATUS(fastsm2_encrypt_with_nonce(out, &outlen, &pub, kat_msg, kat_msglen, kat_flags[f], kat_k),
                     FASTSM2_OK);
        CHECK(outlen == wantlen[f] && memcmp(out, want[f], outlen) == 0);
        for (size_t piece = 1; piece <= kat_msglen; piece++) {
            memset(out, 0, sizeof out);
            size_t n = fs2t_stream_encrypt(out, sizeof out, &pub, (const unsigned char *)kat_msg, kat_msglen,
                                           kat_flags[f], kat_k, piece);
            bad += n != wantlen[f] || memcmp(out, want[f], wantlen[f]) != 0;
            memset(pt, 0, sizeof pt);
            bad += fs2t_stream_decrypt(pt, &ptlen, &key, want[f], wantlen[f], kat_flags[f], piece) != FASTSM2_OK;
            bad += ptlen != kat_msglen || memcmp(pt, kat_msg, kat_msglen) != 0;
        }
        /* A flipped C3 byte: FASTSM2_ERR_DECRYPT from both APIs. */
        memcpy(out, want[f], wantlen[f]);
        size_t c3at = f == 0 ? 65 : f == 1 ? wantlen[f] - 1 : wantlen[f] - kat_msglen - 3;
        out[c3at] ^= 0x10;
        CHECK_STATUS(fs2t_stream_decrypt(pt, &ptlen, &key, out, wantlen[f], kat_flags[f], 7), FASTSM2_ERR_DECRYPT);
        ptlen = sizeof pt;
        CHECK_STATUS(fastsm2_decrypt(pt, &ptlen, &key, out, wantlen[f], kat_flags[f]), FASTSM2_ERR_DECRYPT);
    }
    if (bad)
        fprintf(stderr, "backend %s: %lu streamed known-answer mismatches\n", be, bad);
    CHECK(bad == 0);
}

static void test_long(void)
{
    static const size_t lens[] = {1, 31, 32, 33, 511, 512, 513, 4096, 10007, 70000};
    unsigned char k[32];
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
        size_t len = lens[li];
        unsigned char *msg = malloc(len), *a = malloc(len + 256), *b = malloc(len + 256), *pt = malloc(len);
        fs2t_rand_bytes(msg, len);
        for (int f = 0; f < 3; f++) {
            size_t alen, ptlen = len;
            /* A k whose t is all zero (one in 256 for len = 1) is refused
             * (GB/T 32918.4 7.1 A5): draw another, as a caller does. */
            int r, redraws = 0;
            do {
                fs2t_rand_bytes(k, sizeof k);
                k[0] &= 0x7f; /* below n */
                alen = len + 256;
                r = fastsm2_encrypt_with_nonce(a, &alen, &pub, msg, len, kat_flags[f], k);
            } while (r == FASTSM2_ERR_KDF_ZERO && len < 4 && ++redraws < 16);
            CHECK_STATUS(r, FASTSM2_OK);
            size_t blen = fs2t_stream_encrypt(b, len + 256, &pub, msg, len, kat_flags[f], k, 0);
            CHECK(blen == alen && memcmp(a, b, alen) == 0);
            CHECK_STATUS(fastsm2_decrypt(pt, &ptlen, &key, b, blen, kat_flags[f]), FASTSM2_OK);
            CHECK(ptlen == len && memcmp(pt, msg, len) == 0);
            memset(pt, 0, len);
            CHECK_STATUS(fs2t_stream_decrypt(pt, &ptlen, &key, a, alen, kat_flags[f], 0), FASTSM2_OK);
            CHECK(ptlen == len && memcmp(pt, msg, len) == 0);
            /* Random k through the public stream init decrypts too. An
             * all-zero t (one time in 256 for len = 1) means: start again
             * with a fresh k, as the API asks of its callers (A5). */
            fastsm2_encrypt_stream s;
            size_t prelen;
            uint64_t c3off;
            unsigned char c3[32];
            int fin = FASTSM2_ERR_KDF_ZERO;
            for (int tries = 0; tries < 16 && fin == FASTSM2_ERR_KDF_ZERO; tries++) {
                prelen = FASTSM2_CT_PREFIX_MAX;
                CHECK_STATUS(fastsm2_encrypt_stream_init(&s, b, &prelen, &c3off, &pub, len, kat_flags[f]), FASTSM2_OK);
                CHECK_STATUS(fastsm2_encrypt_stream_update(&s, b + prelen, msg, len), FASTSM2_OK);
                fin = fastsm2_encrypt_stream_final(&s, c3);
            }
            CHECK_STATUS(fin, FASTSM2_OK);
            memcpy(b + c3off, c3, 32);
            ptlen = len;
            blen = prelen + len + (c3off >= prelen ? 32 : 0);
            CHECK_STATUS(fastsm2_decrypt(pt, &ptlen, &key, b, blen, kat_flags[f]), FASTSM2_OK);
            CHECK(ptlen == len && memcmp(pt, msg, len) == 0);
        }
        free(msg);
        free(a);
        free(b);
        free(pt);
    }
}

static void test_errors(void)
{
    fastsm2_encrypt_stream es;
    fastsm2_decrypt_stream ds;
    unsigned char pre[FASTSM2_CT_PREFIX_MAX], c3[32], buf[256], out[256];
    size_t prelen = sizeof pre;
    uint64_t c3off, c2off, c2len;
    static const fastsm2_pubkey zero_pub;
    static const fastsm2_privkey zero_key;
    static const unsigned char zero32[32];

    /* encrypt init */
    CHECK_STATUS(fastsm2_encrypt_stream_init(NULL, pre, &prelen, &c3off, &pub, 10, 0), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_encrypt_stream_init(&es, NULL, &prelen, &c3off, &pub, 10, 0), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_encrypt_stream_init(&es, pre, NULL, &c3off, &pub, 10, 0), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_encrypt_stream_init(&es, pre, &prelen, NULL, &pub, 10, 0), FASTSM2_ERR_ARG);
    prelen = sizeof pre;
    CHECK_STATUS(fastsm2_encrypt_stream_init(&es, pre, &prelen, &c3off, &zero_pub, 10, 0), FASTSM2_ERR_ARG);
    CHECK(prelen == 0);
    prelen = sizeof pre;
    CHECK_STATUS(fastsm2_encrypt_stream_init(&es, pre, &prelen, &c3off, &pub, 10, 8), FASTSM2_ERR_ARG);
    prelen = sizeof pre;
    CHECK_STATUS(fastsm2_encrypt_stream_init(&es, pre, &prelen, &c3off, &pub, 0, 0), FASTSM2_ERR_LENGTH);
    prelen = sizeof pre;
    CHECK_STATUS(fastsm2_encrypt_stream_init(&es, pre, &prelen, &c3off, &pub, UINT64_MAX, 0), FASTSM2_ERR_LENGTH);
    prelen = FASTSM2_CT_PREFIX_MAX - 1;
    memset(pre, 0xaa, sizeof pre);
    CHECK_STATUS(fastsm2_encrypt_stream_init(&es, pre, &prelen, &c3off, &pub, 10, 0), FASTSM2_ERR_BUFFER_TOO_SMALL);
    CHECK(prelen == 0 && pre[0] == 0);
    /* update/final on a stream that init refused (wiped: no magic) */
    CHECK_STATUS(fastsm2_encrypt_stream_update(&es, buf, buf, 1), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_encrypt_stream_final(&es, c3), FASTSM2_ERR_ARG);
    /* pieces past msglen, final too early, use after final */
    prelen = sizeof pre;
    CHECK_STATUS(fastsm2_encrypt_stream_init(&es, pre, &prelen, &c3off, &pub, 10, 0), FASTSM2_OK);
    CHECK_STATUS(fastsm2_encrypt_stream_update(&es, NULL, buf, 5), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_encrypt_stream_update(&es, buf, NULL, 5), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_encrypt_stream_update(&es, buf, buf, 11), FASTSM2_ERR_LENGTH);
    CHECK_STATUS(fastsm2_encrypt_stream_update(&es, buf, buf, 6), FASTSM2_OK);
    CHECK_STATUS(fastsm2_encrypt_stream_update(&es, buf, buf, 5), FASTSM2_ERR_LENGTH);
    CHECK_STATUS(fastsm2_encrypt_stream_update(&es, buf, buf, 0), FASTSM2_OK);
    CHECK_STATUS(fastsm2_encrypt_stream_final(&es, NULL), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_encrypt_stream_update(&es, buf, buf, 4), FASTSM2_ERR_ARG); /* final(NULL) wiped it */
    prelen = sizeof pre;
    CHECK_STATUS(fastsm2_encrypt_stream_init(&es, pre, &prelen, &c3off, &pub, 10, 0), FASTSM2_OK);
    CHECK_STATUS(fastsm2_encrypt_stream_update(&es, buf, buf, 9), FASTSM2_OK);
    memset(c3, 0xaa, 32);
    CHECK_STATUS(fastsm2_encrypt_stream_final(&es, c3), FASTSM2_ERR_LENGTH);
    CHECK(memcmp(c3, zero32, 32) == 0);
    CHECK_STATUS(fastsm2_encrypt_stream_final(&es, c3), FASTSM2_ERR_ARG);
    /* the nonce must be in [1, n-1] */
    static const unsigned char ff[32] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                         0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                         0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    prelen = sizeof pre;
    CHECK_STATUS(fs2_encrypt_stream_init_nonce(&es, pre, &prelen, &c3off, &pub, 10, 0, zero32), FASTSM2_ERR_SCALAR);
    prelen = sizeof pre;
    CHECK_STATUS(fs2_encrypt_stream_init_nonce(&es, pre, &prelen, &c3off, &pub, 10, 0, ff), FASTSM2_ERR_SCALAR);

    /* decrypt init */
    const unsigned char *der = want[2], *raw = want[0];
    size_t derlen = wantlen[2], rawlen = wantlen[0];
    CHECK_STATUS(fastsm2_decrypt_stream_init(NULL, &c2off, &c2len, &c3off, &key, der, derlen, derlen, 0),
                 FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_decrypt_stream_init(&ds, NULL, &c2len, &c3off, &key, der, derlen, derlen, 0), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_decrypt_stream_init(&ds, &c2off, &c2len, &c3off, &zero_key, der, derlen, derlen, 0),
                 FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_decrypt_stream_init(&ds, &c2off, &c2len, &c3off, &key, NULL, 0, derlen, 0), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_decrypt_stream_init(&ds, &c2off, &c2len, &c3off, &key, der, derlen, derlen, 4),
                 FASTSM2_ERR_ARG);
    /* a prefix shorter than min(ctlen, FASTSM2_CT_PREFIX_MAX) */
    CHECK_STATUS(fastsm2_decrypt_stream_init(&ds, &c2off, &c2len, &c3off, &key, der, derlen - 1, derlen, 0),
                 FASTSM2_ERR_ARG);
    /* lengths that do not add up */
    memcpy(buf, der, derlen);
    buf[derlen] = 0; /* one trailing byte */
    CHECK_STATUS(fastsm2_decrypt_stream_init(&ds, &c2off, &c2len, &c3off, &key, buf, derlen + 1, derlen + 1, 0),
                 FASTSM2_ERR_CIPHERTEXT);
    CHECK_STATUS(fastsm2_decrypt_stream_init(&ds, &c2off, &c2len, &c3off, &key, der, derlen - 1, derlen - 1, 0),
                 FASTSM2_ERR_CIPHERTEXT);
    CHECK_STATUS(fastsm2_decrypt_stream_init(&ds, &c2off, &c2len, &c3off, &key, raw, 97, 97, FASTSM2_CT_RAW),
                 FASTSM2_ERR_CIPHERTEXT);
    CHECK_STATUS(fastsm2_decrypt_stream_init(&ds, &c2off, &c2len, &c3off, &key, raw, 0, 0, FASTSM2_CT_RAW),
                 FASTSM2_ERR_CIPHERTEXT);
    CHECK_STATUS(fastsm2_decrypt_stream_init(&ds, &c2off, &c2len, &c3off, &key, raw, 0, 0, 0), FASTSM2_ERR_CIPHERTEXT);
    /* non-strict DER: the SEQUENCE length in long form (81 xx) */
    memcpy(buf + 1, der, derlen);
    buf[0] = 0x30;
    buf[1] = 0x81;
    buf[2] = der[1];
    memcpy(buf + 3, der + 2, derlen - 2);
    CHECK_STATUS(fastsm2_decrypt_stream_init(&ds, &c2off, &c2len, &c3off, &key, buf, derlen + 1, derlen + 1, 0),
                 FASTSM2_ERR_CIPHERTEXT);
    size_t ptlen = sizeof out;
    CHECK_STATUS(fastsm2_decrypt(out, &ptlen, &key, buf, derlen + 1, 0), FASTSM2_ERR_CIPHERTEXT);
    /* C3 of 31 bytes */
    memcpy(buf, der, derlen);
    size_t c3tag = derlen - kat_msglen - 2 - 34;
    CHECK(buf[c3tag] == 0x04 && buf[c3tag + 1] == 32);
    buf[c3tag + 1] = 31;
    CHECK_STATUS(fastsm2_decrypt_stream_init(&ds, &c2off, &c2len, &c3off, &key, buf, derlen, derlen, 0),
                 FASTSM2_ERR_CIPHERTEXT);
    /* C1 off the curve (raw and DER) */
    memcpy(buf, raw, rawlen);
    buf[64] ^= 1;
    CHECK_STATUS(fastsm2_decrypt_stream_init(&ds, &c2off, &c2len, &c3off, &key, buf, rawlen, rawlen, FASTSM2_CT_RAW),
                 FASTSM2_ERR_POINT);
    memcpy(buf, der, derlen);
    buf[c3tag - 1] ^= 1; /* last byte of y1 */
    CHECK_STATUS(fastsm2_decrypt_stream_init(&ds, &c2off, &c2len, &c3off, &key, buf, derlen, derlen, 0),
                 FASTSM2_ERR_POINT);
    /* update past c2len, final too early, wrong C3, use after final */
    CHECK_STATUS(fastsm2_decrypt_stream_init(&ds, &c2off, &c2len, &c3off, &key, der, derlen, derlen, 0), FASTSM2_OK);
    CHECK(c2len == kat_msglen && c2off + c2len == derlen && c3off + 32 <= c2off);
    CHECK_STATUS(fastsm2_decrypt_stream_update(&ds, out, der + c2off, (size_t)c2len + 1), FASTSM2_ERR_LENGTH);
    CHECK_STATUS(fastsm2_decrypt_stream_update(&ds, out, NULL, 1), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_decrypt_stream_update(&ds, out, der + c2off, 3), FASTSM2_OK);
    CHECK_STATUS(fastsm2_decrypt_stream_final(&ds, der + c3off), FASTSM2_ERR_LENGTH);
    CHECK_STATUS(fastsm2_decrypt_stream_update(&ds, out, der + c2off, 3), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_decrypt_stream_init(&ds, &c2off, &c2len, &c3off, &key, der, derlen, derlen, 0), FASTSM2_OK);
    CHECK_STATUS(fastsm2_decrypt_stream_update(&ds, out, der + c2off, (size_t)c2len), FASTSM2_OK);
    CHECK_STATUS(fastsm2_decrypt_stream_final(&ds, zero32), FASTSM2_ERR_DECRYPT);
    CHECK_STATUS(fastsm2_decrypt_stream_final(&ds, der + c3off), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_decrypt_stream_final(NULL, der + c3off), FASTSM2_ERR_ARG);
}

int main(void)
{
    setup_kat();
    const char *was = fastsm2_backend_name();
    int ran = 0;
    for (size_t i = 0; fs2_backends[i]; i++) {
        if (!fs2_backend_available(fs2_backends[i]))
            continue;
        CHECK(fs2_backend_force(fs2_backends[i]->name) == 1);
        printf("backend %s (%u SM3 lanes)\n", fs2_backends[i]->name, fs2_backends[i]->sm3->lanes);
        test_kat(fs2_backends[i]->name);
        test_long();
        ran++;
    }
    CHECK(ran >= 1);
    CHECK(fs2_backend_force(was) == 1);
    test_errors();
    fastsm2_privkey_clear(&key);
    return fs2t_finish("test_encrypt_stream");
}
