/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fastsm2prov's SM4 ciphers through EVP:
 *  - the standards' examples (tests/vectors/sm4-evp.txt, in the stanza
 *    format of OpenSSL's evp_test) whole, in pieces and in place, and any
 *    other file of that format given in FS2_EVP_VECTORS (colon-separated;
 *    e.g. OpenSSL's or Tongsuo's test/recipes/30-test_evp_data/evpciph_sm4.txt);
 *  - byte for byte against OpenSSL's default provider where it has the mode
 *    (ECB, CBC, CTR, OFB, CFB everywhere; GCM, CCM, XTS from 3.2), and
 *    against the library's one-shot calls everywhere: random keys, IVs,
 *    lengths, AAD and tag lengths, updates split at random, in place;
 *  - tag failures, bad padding, bad IV, tag and key lengths, misuse of the
 *    EVP sequence: refused, with the provider's named error;
 *  - the TLS record parameters libssl sets: CBC records (TLS 1.0-1.2 and
 *    TLCP) with constant-time unpadding and the MAC through tls-mac, GCM
 *    and CCM records with tlsaad / tlsivfixed / tlsivgen / tlsivinv, each
 *    checked against the default provider where it can and against the
 *    record's own layout computed with the library;
 *  - after all the bad inputs, the examples again: still right.
 * usage: test_provider_sm4 MODULE_DIR VECTOR_FILE
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/params.h>
#include <openssl/provider.h>

#include "provtest.h"

#ifndef OSSL_CIPHER_PARAM_XTS_STANDARD /* OpenSSL 3.2 on */
#define OSSL_CIPHER_PARAM_XTS_STANDARD "xts_standard"
#endif

/* ---- fetching ------------------------------------------------------------------ */

static EVP_CIPHER *fetch(OSSL_LIB_CTX *lc, const char *name, const char *pq)
{
    ERR_set_mark();
    EVP_CIPHER *c = EVP_CIPHER_fetch(lc, name, pq);
    ERR_pop_to_mark();
    return c;
}

static int ref_has(const char *name)
{
    EVP_CIPHER *c = fetch(lc_ref, name, NULL);
    EVP_CIPHER_free(c);
    return c != NULL;
}

static int is_ours(const EVP_CIPHER *c)
{
    return c != NULL && strcmp(OSSL_PROVIDER_get0_name(EVP_CIPHER_get0_provider(c)), "fastsm2prov") == 0;
}

static void test_names(void)
{
    static const char *const names[][2] = {{"SM4-ECB", "1.2.156.10197.1.104.1"},
                                           {"SM4-CBC", "SM4"},
                                           {"SM4-CBC", "1.2.156.10197.1.104.2"},
                                           {"SM4-CTR", "1.2.156.10197.1.104.7"},
                                           {"SM4-OFB", "SM4-OFB128"},
                                           {"SM4-CFB", "SM4-CFB128"},
                                           {"SM4-GCM", "1.2.156.10197.1.104.8"},
                                           {"SM4-CCM", "1.2.156.10197.1.104.9"},
                                           {"SM4-XTS", "1.2.156.10197.1.104.10"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        EVP_CIPHER *a = fetch(lc_ours, names[i][0], PQ_OURS), *b = fetch(lc_ours, names[i][1], PQ_OURS);
        CHECK(is_ours(a) && is_ours(b));
        if (a && b)
            CHECK(strcmp(EVP_CIPHER_get0_name(a), EVP_CIPHER_get0_name(b)) == 0 || EVP_CIPHER_is_a(b, names[i][0]));
        EVP_CIPHER *r = fetch(lc_ref, names[i][0], NULL);
        if (a && r) { /* the same constants as the default provider's */
            CHECK(EVP_CIPHER_get_mode(a) == EVP_CIPHER_get_mode(r));
            CHECK(EVP_CIPHER_get_key_length(a) == EVP_CIPHER_get_key_length(r));
            CHECK(EVP_CIPHER_get_iv_length(a) == EVP_CIPHER_get_iv_length(r));
            CHECK(EVP_CIPHER_get_block_size(a) == EVP_CIPHER_get_block_size(r));
            CHECK((EVP_CIPHER_get_flags(a) & EVP_CIPH_FLAG_AEAD_CIPHER) ==
                  (EVP_CIPHER_get_flags(r) & EVP_CIPH_FLAG_AEAD_CIPHER));
            CHECK((EVP_CIPHER_get_flags(a) & EVP_CIPH_CUSTOM_IV) == (EVP_CIPHER_get_flags(r) & EVP_CIPH_CUSTOM_IV));
        }
        EVP_CIPHER_free(a);
        EVP_CIPHER_free(b);
        EVP_CIPHER_free(r);
    }
    /* OpenSSL 3.0 has no SM4-GCM, -CCM, -XTS: here they come from fastsm2prov */
    EVP_CIPHER *g = fetch(lc_ours, "SM4-GCM", NULL);
    CHECK(g != NULL && EVP_CIPHER_get_mode(g) == EVP_CIPH_GCM_MODE && EVP_CIPHER_get_iv_length(g) == 12);
    EVP_CIPHER_free(g);
    EVP_CIPHER *x = fetch(lc_ours, "SM4-XTS", PQ_OURS);
    CHECK(x != NULL && EVP_CIPHER_get_key_length(x) == 32 && EVP_CIPHER_get_mode(x) == EVP_CIPH_XTS_MODE);
    EVP_CIPHER_free(x);
}

/* ---- ECB, CBC, CTR, OFB, CFB ---------------------------------------------------- */

/* Run a whole operation: updates split at random (split), or one update
 * in place (inplace: out == in). Returns 1, or 0 if an update or the final
 * failed (*stage: 1 update, 2 final). */
static int run_basic(EVP_CIPHER_CTX *x, unsigned char *out, size_t *outlen, const unsigned char *in, size_t len,
                     int split, int inplace, int *stage)
{
    size_t o = 0;
    int ok = 1, ol;
    *stage = 0;
    if (inplace) {
        memcpy(out, in, len);
        ok = len == 0 || EVP_CipherUpdate(x, out, &ol, out, (int)len) == 1;
        o = ok && len ? (size_t)ol : 0;
    } else {
        for (size_t at = 0; ok && at < len;) {
            size_t n = split ? fs2t_rand_piece(len - at, 0, 70) : len - at;
            ok = EVP_CipherUpdate(x, out + o, &ol, in + at, (int)n) == 1;
            o += ok ? (size_t)ol : 0;
            at += n;
        }
    }
    if (!ok)
        *stage = 1;
    if (ok) {
        ok = EVP_CipherFinal_ex(x, out + o, &ol) == 1;
        if (!ok)
            *stage = 2;
        else
            o += (size_t)ol;
    }
    *outlen = o;
    return ok;
}

static int crypt_basic(const EVP_CIPHER *c, int enc, const unsigned char *key, const unsigned char *iv, int pad,
                       const unsigned char *in, size_t len, unsigned char *out, size_t *outlen, int split, int inplace)
{
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    int stage, ok = EVP_CipherInit_ex2(x, c, key, iv, enc, NULL) == 1 && EVP_CIPHER_CTX_set_padding(x, pad) == 1;
    ok = ok && run_basic(x, out, outlen, in, len, split, inplace, &stage);
    EVP_CIPHER_CTX_free(x);
    return ok;
}

static void test_basic_diff(void)
{
    static const char *const modes[] = {"SM4-ECB", "SM4-CBC", "SM4-CTR", "SM4-OFB", "SM4-CFB"};
    enum { MAXLEN = 2100 };
    unsigned char *pt = malloc(MAXLEN), *a = malloc(MAXLEN + 32), *b = malloc(MAXLEN + 32), *d = malloc(MAXLEN + 32);
    unsigned long cases = 0;
    for (size_t m = 0; m < 5; m++) {
        EVP_CIPHER *ours = fetch(lc_ours, modes[m], PQ_OURS), *ref = fetch(lc_ref, modes[m], NULL);
        CHECK(is_ours(ours) && ref != NULL);
        if (!ours || !ref)
            continue;
        int block = m < 2;
        for (int i = 0; i < 120; i++) {
            unsigned char key[16], iv[16];
            fs2t_rand_bytes(key, 16);
            fs2t_rand_bytes(iv, 16);
            if (i == 0)
                memset(iv, 0xff, 16); /* CTR: the counter wraps at 2^128 */
            int pad = block && (i & 1);
            size_t len = i < 40 ? (size_t)i : fs2t_rand_below(MAXLEN);
            if (block && !pad)
                len &= ~(size_t)15;
            fs2t_rand_bytes(pt, len);
            size_t la = 0, lb = 0, ld = 0;
            int split = (i % 3) != 0, inplace = (i % 4) == 1;
            int oka = crypt_basic(ours, 1, key, iv, pad, pt, len, a, &la, split, inplace);
            int okb = crypt_basic(ref, 1, key, iv, pad, pt, len, b, &lb, 0, 0);
            CHECK(oka && okb && la == lb && memcmp(a, b, la) == 0);
            int okd = crypt_basic(ours, 0, key, iv, pad, b, lb, d, &ld, !split, !inplace);
            CHECK(okd && ld == len && memcmp(d, pt, len) == 0);
            if (!(okd && ld == len && memcmp(d, pt, len) == 0))
                fprintf(stderr, "%s %s: len %zu pad %d split %d inplace %d: ok %d ld %zu\n", modes[m], "decrypt", len,
                        pad, !split, !inplace, okd, ld);
            cases++;
        }
        /* CBC/ECB with padding: a ciphertext that is not well padded fails in
         * both, and both take the well-padded ones */
        if (block) {
            for (int i = 0; i < 40; i++) {
                unsigned char key[16], iv[16];
                fs2t_rand_bytes(key, 16);
                fs2t_rand_bytes(iv, 16);
                size_t len = 16 * (1 + fs2t_rand_below(8)), la = 0, lb = 0;
                fs2t_rand_bytes(a, len);
                int oka = crypt_basic(ours, 0, key, iv, 1, a, len, b, &la, i & 1, 0);
                int st = pt_last_status();
                int okb = crypt_basic(ref, 0, key, iv, 1, a, len, d, &lb, 0, 0);
                ERR_clear_error();
                CHECK(oka == okb);
                CHECK(!oka ? st == FASTSM2_ERR_PADDING : (la == lb && memcmp(b, d, la) == 0));
            }
            /* not a whole number of blocks, or nothing: refused at final */
            unsigned char key[16] = {1}, iv[16] = {2};
            size_t la;
            CHECK(!crypt_basic(ours, 0, key, iv, 1, pt, 17, a, &la, 0, 0));
            CHECK(pt_last_status() != 0);
            CHECK(!crypt_basic(ours, 0, key, iv, 1, pt, 0, a, &la, 0, 0));
            CHECK(pt_last_status() == FASTSM2_ERR_PADDING);
            CHECK(!crypt_basic(ours, 1, key, iv, 0, pt, 17, a, &la, 0, 0));
            CHECK(pt_last_status() == FASTSM2_ERR_LENGTH);
        }
        /* a re-init without key or IV: CBC/OFB/CFB start again from the IV,
         * CTR goes on where it stopped, as in the default provider */
        if (!block) {
            unsigned char key[16], iv[16];
            fs2t_rand_bytes(key, 16);
            fs2t_rand_bytes(iv, 16);
            fs2t_rand_bytes(pt, 100);
            EVP_CIPHER_CTX *xo = EVP_CIPHER_CTX_new(), *xr = EVP_CIPHER_CTX_new();
            int lo, lr,
                ok = EVP_EncryptInit_ex2(xo, ours, key, iv, NULL) && EVP_EncryptInit_ex2(xr, ref, key, iv, NULL);
            ok = ok && EVP_EncryptUpdate(xo, a, &lo, pt, 37) && EVP_EncryptUpdate(xr, b, &lr, pt, 37);
            ok = ok && EVP_EncryptInit_ex(xo, NULL, NULL, NULL, NULL) && EVP_EncryptInit_ex(xr, NULL, NULL, NULL, NULL);
            ok = ok && EVP_EncryptUpdate(xo, a + 37, &lo, pt + 37, 63) &&
                 EVP_EncryptUpdate(xr, b + 37, &lr, pt + 37, 63);
            CHECK(ok && memcmp(a, b, 100) == 0);
            if (!(ok && memcmp(a, b, 100) == 0))
                fprintf(stderr, "%s: re-init without IV differs (ok %d)\n", modes[m], ok);
            EVP_CIPHER_CTX_free(xo);
            EVP_CIPHER_CTX_free(xr);
        }
        /* a copy of a context mid-stream goes on as the original */
        {
            unsigned char key[16], iv[16];
            fs2t_rand_bytes(key, 16);
            fs2t_rand_bytes(iv, 16);
            fs2t_rand_bytes(pt, 200);
            EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new(), *y = EVP_CIPHER_CTX_new();
            int l1 = 0, l2 = 0, l3 = 0, l4 = -1;
            CHECK(EVP_EncryptInit_ex2(x, ours, key, iv, NULL) && EVP_EncryptUpdate(x, a, &l1, pt, 45) &&
                  EVP_CIPHER_CTX_copy(y, x) && EVP_EncryptUpdate(x, a + l1, &l2, pt + 45, 155) &&
                  EVP_EncryptFinal_ex(x, a + l1 + l2, &l3) && EVP_EncryptUpdate(y, b, &l4, pt + 45, 155));
            CHECK(l2 == l4 && memcmp(a + l1, b, (size_t)l2) == 0);
            EVP_CIPHER_CTX_free(x);
            EVP_CIPHER_CTX_free(y);
        }
        /* EVP_Cipher: whole blocks, no padding */
        {
            unsigned char key[16], iv[16];
            fs2t_rand_bytes(key, 16);
            fs2t_rand_bytes(iv, 16);
            fs2t_rand_bytes(pt, 64);
            EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new(), *y = EVP_CIPHER_CTX_new();
            CHECK(EVP_EncryptInit_ex2(x, ours, key, iv, NULL) && EVP_EncryptInit_ex2(y, ref, key, iv, NULL));
            CHECK(EVP_Cipher(x, a, pt, 64) > 0 && EVP_Cipher(y, b, pt, 64) > 0 && memcmp(a, b, 64) == 0);
            EVP_CIPHER_CTX_free(x);
            EVP_CIPHER_CTX_free(y);
        }
        EVP_CIPHER_free(ours);
        EVP_CIPHER_free(ref);
    }
    printf("ECB/CBC/CTR/OFB/CFB: %lu cases byte for byte with the default provider\n", cases);
    free(pt);
    free(a);
    free(b);
    free(d);
}

/* ---- GCM ---------------------------------------------------------------------- */

/* A whole GCM operation; the tag is read (enc) or set (dec) with taglen.
 * AAD and data in random pieces when split. 1, or 0 if anything failed
 * (*stage 1 init/params, 2 update, 3 final). */
static int run_gcm(const EVP_CIPHER *c, int enc, const unsigned char *key, const unsigned char *iv, size_t ivlen,
                   const unsigned char *aad, size_t aadlen, const unsigned char *in, size_t len, unsigned char *out,
                   unsigned char *tag, size_t taglen, int split, int *stage)
{
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    size_t ivl = ivlen;
    OSSL_PARAM ivp[] = {OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &ivl), OSSL_PARAM_END};
    int ok = EVP_CipherInit_ex2(x, c, NULL, NULL, enc, NULL) == 1 && EVP_CIPHER_CTX_set_params(x, ivp) == 1 &&
             EVP_CipherInit_ex2(x, NULL, key, iv, enc, NULL) == 1;
    if (ok && !enc)
        ok = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, (int)taglen, tag) == 1;
    *stage = ok ? 0 : 1;
    int ol;
    for (size_t at = 0; ok && at < aadlen;) {
        size_t n = split ? fs2t_rand_piece(aadlen - at, 1, 40) : aadlen - at;
        ok = EVP_CipherUpdate(x, NULL, &ol, aad + at, (int)n) == 1;
        at += n;
    }
    size_t o = 0;
    for (size_t at = 0; ok && at < len;) {
        size_t n = split ? fs2t_rand_piece(len - at, 1, 70) : len - at;
        ok = EVP_CipherUpdate(x, out + o, &ol, in + at, (int)n) == 1;
        o += (size_t)ol;
        at += n;
    }
    if (!ok && !*stage)
        *stage = 2;
    if (ok) {
        ok = EVP_CipherFinal_ex(x, out + o, &ol) == 1 && ol == 0 && o == len;
        if (!ok)
            *stage = 3;
    }
    if (ok && enc)
        ok = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, (int)taglen, tag) == 1;
    EVP_CIPHER_CTX_free(x);
    return ok;
}

static void test_gcm(void)
{
    EVP_CIPHER *ours = fetch(lc_ours, "SM4-GCM", PQ_OURS), *ref = fetch(lc_ref, "SM4-GCM", NULL);
    CHECK(is_ours(ours));
    if (!ours)
        return;
    enum { MAXLEN = 1500 };
    unsigned char *pt = malloc(MAXLEN), *a = malloc(MAXLEN + 16), *b = malloc(MAXLEN + 16), *d = malloc(MAXLEN + 16);
    unsigned long vs_ref = 0, n = 0;
    for (int i = 0; i < 150; i++) {
        unsigned char key[16], iv[128], aad[100], ta[16], tb[16], tl[16];
        size_t ivlen = i % 3 == 0 ? 12 : 1 + fs2t_rand_below(128), taglen = 4 + fs2t_rand_below(13);
        if (i == 1)
            ivlen = 1;
        if (i == 2)
            ivlen = 128;
        size_t aadlen = i % 5 == 0 ? 0 : fs2t_rand_below(sizeof aad),
               len = i < 20 ? (size_t)i : fs2t_rand_below(MAXLEN);
        fs2t_rand_bytes(key, 16);
        fs2t_rand_bytes(iv, ivlen);
        fs2t_rand_bytes(aad, aadlen);
        fs2t_rand_bytes(pt, len);
        int st;
        CHECK(run_gcm(ours, 1, key, iv, ivlen, aad, aadlen, pt, len, a, ta, taglen, i & 1, &st));
        /* the library's one-shot call */
        fastsm2_sm4_key k;
        CHECK(fastsm2_sm4_key_init(&k, key) == FASTSM2_OK);
        CHECK(fastsm2_sm4_gcm_encrypt(b, tl, taglen, &k, iv, ivlen, aad, aadlen, pt, len) == FASTSM2_OK);
        CHECK(memcmp(a, b, len) == 0 && memcmp(ta, tl, taglen) == 0);
        fastsm2_sm4_key_clear(&k);
        if (ref) {
            CHECK(run_gcm(ref, 1, key, iv, ivlen, aad, aadlen, pt, len, b, tb, taglen, 0, &st));
            CHECK(memcmp(a, b, len) == 0 && memcmp(ta, tb, taglen) == 0);
            /* the default provider decrypts ours */
            CHECK(run_gcm(ref, 0, key, iv, ivlen, aad, aadlen, a, len, d, ta, taglen, 1, &st) &&
                  memcmp(d, pt, len) == 0);
            vs_ref++;
        }
        CHECK(run_gcm(ours, 0, key, iv, ivlen, aad, aadlen, a, len, d, ta, taglen, !(i & 1), &st) &&
              memcmp(d, pt, len) == 0);
        /* one bit changed in the ciphertext, the AAD or the tag: the final fails */
        int where = (int)fs2t_rand_below(3);
        if (where == 0 && len == 0)
            where = 2;
        if (where == 1 && aadlen == 0)
            where = 2;
        unsigned char *t = where == 0 ? a : where == 1 ? aad : ta;
        size_t tn = where == 0 ? len : where == 1 ? aadlen : taglen, bit = fs2t_rand_below(tn * 8);
        t[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        CHECK(!run_gcm(ours, 0, key, iv, ivlen, aad, aadlen, a, len, d, ta, taglen, i & 1, &st) && st == 3);
        CHECK(pt_last_status() == FASTSM2_ERR_TAG);
        if (ref) {
            CHECK(!run_gcm(ref, 0, key, iv, ivlen, aad, aadlen, a, len, d, ta, taglen, 0, &st) && st == 3);
            ERR_clear_error();
        }
        n++;
    }
    printf("GCM: %lu cases (IVs of 1 to 128 bytes, tags of 4 to 16), %lu against the default provider\n", n, vs_ref);

    /* bad lengths and misuse: refused with a named error */
    unsigned char key[16] = {7}, iv[16] = {9}, tag[16];
    int st, ol;
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    size_t v = 0;
    OSSL_PARAM p0[] = {OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &v), OSSL_PARAM_END};
    CHECK(EVP_EncryptInit_ex2(x, ours, NULL, NULL, NULL) == 1);
    CHECK(EVP_CIPHER_CTX_set_params(x, p0) == 0 && pt_last_status() == FASTSM2_ERR_IV);
    v = 129;
    CHECK(EVP_CIPHER_CTX_set_params(x, p0) == 0 && pt_last_status() == FASTSM2_ERR_IV);
    CHECK(EVP_DecryptInit_ex2(x, ours, key, iv, NULL) == 1);
    CHECK(EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, 3, tag) <= 0 && pt_last_status() == FASTSM2_ERR_LENGTH);
    CHECK(EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, 17, tag) <= 0);
    ERR_clear_error();
    /* a decryption without a tag fails at its final */
    CHECK(EVP_DecryptUpdate(x, tag, &ol, key, 16) == 1 && EVP_DecryptFinal_ex(x, tag, &ol) == 0);
    CHECK(pt_last_status() == FASTSM2_ERR_TAG);
    /* AAD after data; the tag of a decryption; the same IV twice */
    CHECK(EVP_EncryptInit_ex2(x, ours, key, iv, NULL) == 1 && EVP_EncryptUpdate(x, tag, &ol, key, 16) == 1);
    CHECK(EVP_EncryptUpdate(x, NULL, &ol, key, 16) == 0 && pt_last_status() == FASTSM2_ERR_STATE);
    CHECK(EVP_EncryptInit_ex2(x, ours, key, iv, NULL) == 1 && EVP_EncryptFinal_ex(x, tag, &ol) == 1);
    CHECK(EVP_EncryptUpdate(x, tag, &ol, key, 16) == 0 && pt_last_status() == FASTSM2_ERR_IV);
    CHECK(EVP_DecryptInit_ex2(x, ours, key, iv, NULL) == 1);
    CHECK(EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, 16, tag) <= 0 && pt_last_status() == FASTSM2_ERR_TAG);
    /* no IV when encrypting: one is drawn, 12 bytes, readable, and it decrypts */
    unsigned char got[12], msg[20] = "drawn IV", ct[20];
    CHECK(EVP_EncryptInit_ex2(x, ours, key, NULL, NULL) == 1 && EVP_EncryptUpdate(x, ct, &ol, msg, 20) == 1 &&
          EVP_EncryptFinal_ex(x, ct, &ol) == 1 && EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, 16, tag) == 1);
    CHECK(EVP_CIPHER_CTX_get_original_iv(x, got, 12) == 1);
    CHECK(run_gcm(ours, 0, key, got, 12, NULL, 0, ct, 20, a, tag, 16, 0, &st) && memcmp(a, msg, 20) == 0);
    EVP_CIPHER_CTX_free(x);
    EVP_CIPHER_free(ours);
    EVP_CIPHER_free(ref);
    free(pt);
    free(a);
    free(b);
    free(d);
}

/* ---- CCM ---------------------------------------------------------------------- */

static int run_ccm(const EVP_CIPHER *c, int enc, const unsigned char *key, const unsigned char *nonce, size_t nlen,
                   const unsigned char *aad, size_t aadlen, const unsigned char *in, size_t len, unsigned char *out,
                   unsigned char *tag, size_t taglen, int *stage)
{
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    int ol;
    int ok = EVP_CipherInit_ex2(x, c, NULL, NULL, enc, NULL) == 1 &&
             EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_IVLEN, (int)nlen, NULL) == 1 &&
             EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, (int)taglen, enc ? NULL : tag) == 1 &&
             EVP_CipherInit_ex2(x, NULL, key, nonce, enc, NULL) == 1;
    *stage = ok ? 0 : 1;
    ok = ok && EVP_CipherUpdate(x, NULL, &ol, NULL, (int)len) == 1;
    ok = ok && (aadlen == 0 || EVP_CipherUpdate(x, NULL, &ol, aad, (int)aadlen) == 1);
    if (!ok && !*stage)
        *stage = 2;
    if (ok) {
        ok = EVP_CipherUpdate(x, out, &ol, in, (int)len) == 1 && (size_t)ol == len;
        if (!ok)
            *stage = 2;
    }
    if (ok) {
        ok = EVP_CipherFinal_ex(x, out + len, &ol) == 1;
        if (!ok)
            *stage = 3;
    }
    if (ok && enc)
        ok = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, (int)taglen, tag) == 1;
    EVP_CIPHER_CTX_free(x);
    return ok;
}

static void test_ccm(void)
{
    EVP_CIPHER *ours = fetch(lc_ours, "SM4-CCM", PQ_OURS), *ref = fetch(lc_ref, "SM4-CCM", NULL);
    CHECK(is_ours(ours));
    if (!ours)
        return;
    enum { MAXLEN = 1000 };
    unsigned char *pt = malloc(MAXLEN + 1), *a = malloc(MAXLEN + 16), *b = malloc(MAXLEN + 16),
                  *d = malloc(MAXLEN + 16);
    unsigned long vs_ref = 0, n = 0;
    for (size_t nlen = 7; nlen <= 13; nlen++) {
        for (size_t taglen = 4; taglen <= 16; taglen += 2) {
            unsigned char key[16], nonce[13], aad[64], ta[16], tb[16];
            size_t aadlen = fs2t_rand_below(sizeof aad), len = fs2t_rand_below(MAXLEN);
            if (taglen == 4)
                len = 0;
            fs2t_rand_bytes(key, 16);
            fs2t_rand_bytes(nonce, nlen);
            fs2t_rand_bytes(aad, aadlen);
            fs2t_rand_bytes(pt, len);
            int st;
            CHECK(run_ccm(ours, 1, key, nonce, nlen, aad, aadlen, pt, len, a, ta, taglen, &st));
            fastsm2_sm4_key k;
            unsigned char tl[16];
            CHECK(fastsm2_sm4_key_init(&k, key) == FASTSM2_OK &&
                  fastsm2_sm4_ccm_encrypt(b, tl, taglen, &k, nonce, nlen, aad, aadlen, pt, len) == FASTSM2_OK);
            CHECK(memcmp(a, b, len) == 0 && memcmp(ta, tl, taglen) == 0);
            fastsm2_sm4_key_clear(&k);
            if (ref) {
                CHECK(run_ccm(ref, 1, key, nonce, nlen, aad, aadlen, pt, len, b, tb, taglen, &st));
                CHECK(memcmp(a, b, len) == 0 && memcmp(ta, tb, taglen) == 0);
                CHECK(run_ccm(ref, 0, key, nonce, nlen, aad, aadlen, a, len, d, ta, taglen, &st) &&
                      memcmp(d, pt, len) == 0);
                vs_ref++;
            }
            CHECK(run_ccm(ours, 0, key, nonce, nlen, aad, aadlen, a, len, d, ta, taglen, &st) &&
                  memcmp(d, pt, len) == 0);
            /* a changed tag, ciphertext or AAD: refused in the data's update,
             * the output zeroed */
            unsigned char *t = len && (n & 1) ? a : aadlen && (n & 2) ? aad : ta;
            size_t tn = t == a ? len : t == aad ? aadlen : taglen;
            t[fs2t_rand_below(tn)] ^= 0x10;
            memset(d, 0x55, len + 1);
            CHECK(!run_ccm(ours, 0, key, nonce, nlen, aad, aadlen, a, len, d, ta, taglen, &st) && st == 2);
            CHECK(pt_last_status() == FASTSM2_ERR_TAG);
            CHECK(fs2t_all_zero(d, len));
            n++;
        }
    }
    printf("CCM: %lu cases (nonces of 7 to 13 bytes, tags of 4 to 16), %lu against the default provider\n", n, vs_ref);
    /* bad lengths and misuse */
    unsigned char key[16] = {3}, nonce[16] = {4}, tag[18] = {0};
    int st, ol;
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    CHECK(EVP_EncryptInit_ex2(x, ours, NULL, NULL, NULL) == 1);
    CHECK(EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_IVLEN, 6, NULL) <= 0 && pt_last_status() == FASTSM2_ERR_IV);
    CHECK(EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_IVLEN, 14, NULL) <= 0 && pt_last_status() == FASTSM2_ERR_IV);
    CHECK(EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, 5, NULL) <= 0 && pt_last_status() == FASTSM2_ERR_LENGTH);
    CHECK(EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, 18, NULL) <= 0 && pt_last_status() == FASTSM2_ERR_LENGTH);
    /* a nonce of another length than ivlen */
    CHECK(EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_IVLEN, 12, NULL) == 1);
    CHECK(EVP_CIPHER_CTX_get_iv_length(x) == 12);
    /* the data must be the length announced */
    CHECK(EVP_EncryptInit_ex2(x, NULL, key, nonce, NULL) == 1 && EVP_EncryptUpdate(x, NULL, &ol, NULL, 10) == 1);
    CHECK(EVP_EncryptUpdate(x, tag, &ol, key, 9) == 0 && pt_last_status() == FASTSM2_ERR_LENGTH);
    /* a decryption needs its tag before the data */
    CHECK(EVP_DecryptInit_ex2(x, ours, key, nonce, NULL) == 1);
    CHECK(EVP_DecryptUpdate(x, tag, &ol, key, 9) == 0 && pt_last_status() == FASTSM2_ERR_TAG);
    EVP_CIPHER_CTX_free(x);
    (void)st;
    EVP_CIPHER_free(ours);
    EVP_CIPHER_free(ref);
    free(pt);
    free(a);
    free(b);
    free(d);
}

/* ---- XTS ---------------------------------------------------------------------- */

static int run_xts(const EVP_CIPHER *c, int enc, const unsigned char key[32], const unsigned char iv[16],
                   const char *standard, const unsigned char *in, size_t len, unsigned char *out)
{
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    OSSL_PARAM p[] = {OSSL_PARAM_construct_utf8_string(OSSL_CIPHER_PARAM_XTS_STANDARD, (char *)standard, 0),
                      OSSL_PARAM_END};
    int ol, ok = EVP_CipherInit_ex2(x, c, key, iv, enc, NULL) == 1 &&
                 (standard == NULL || EVP_CIPHER_CTX_set_params(x, p) == 1) &&
                 EVP_CipherUpdate(x, out, &ol, in, (int)len) == 1 && (size_t)ol == len &&
                 EVP_CipherFinal_ex(x, out + len, &ol) == 1 && ol == 0;
    EVP_CIPHER_CTX_free(x);
    return ok;
}

static void test_xts(void)
{
    EVP_CIPHER *ours = fetch(lc_ours, "SM4-XTS", PQ_OURS), *ref = fetch(lc_ref, "SM4-XTS", NULL);
    CHECK(is_ours(ours));
    if (!ours)
        return;
    enum { MAXLEN = 3000 };
    unsigned char *pt = malloc(MAXLEN), *a = malloc(MAXLEN + 16), *b = malloc(MAXLEN + 16), *d = malloc(MAXLEN + 16);
    unsigned long vs_ref = 0, n = 0;
    for (int i = 0; i < 80; i++) {
        const char *std = i % 3 == 0 ? NULL : i % 3 == 1 ? "GB" : "IEEE";
        int lstd = std != NULL && strcmp(std, "IEEE") == 0 ? FASTSM2_SM4_XTS_IEEE : FASTSM2_SM4_XTS_GB;
        unsigned char key[32], iv[16];
        fs2t_rand_bytes(key, 32);
        fs2t_rand_bytes(iv, 16);
        size_t len = i < 34 ? 16 + (size_t)i : 16 + fs2t_rand_below(MAXLEN - 16);
        fs2t_rand_bytes(pt, len);
        CHECK(run_xts(ours, 1, key, iv, std, pt, len, a));
        fastsm2_sm4_key k1, k2;
        CHECK(fastsm2_sm4_key_init(&k1, key) == FASTSM2_OK && fastsm2_sm4_key_init(&k2, key + 16) == FASTSM2_OK);
        CHECK(fastsm2_sm4_xts_encrypt(b, &k1, &k2, lstd, iv, pt, len) == FASTSM2_OK && memcmp(a, b, len) == 0);
        if (ref) {
            CHECK(run_xts(ref, 1, key, iv, std, pt, len, b) && memcmp(a, b, len) == 0);
            CHECK(run_xts(ref, 0, key, iv, std, a, len, d) && memcmp(d, pt, len) == 0);
            vs_ref++;
        }
        CHECK(run_xts(ours, 0, key, iv, std, a, len, d) && memcmp(d, pt, len) == 0);
        /* the other standard gives another ciphertext (past the first block) */
        CHECK(run_xts(ours, 1, key, iv, lstd == FASTSM2_SM4_XTS_GB ? "IEEE" : "GB", pt, len, b));
        CHECK(len < 32 || memcmp(a + 16, b + 16, len - 16) != 0);
        fastsm2_sm4_key_clear(&k1);
        fastsm2_sm4_key_clear(&k2);
        n++;
    }
    printf("XTS: %lu cases (both tweak orders, 16 to %d bytes), %lu against the default provider\n", n, MAXLEN, vs_ref);
    unsigned char key[32], iv[16] = {1};
    fs2t_rand_bytes(key, 32);
    CHECK(!run_xts(ours, 1, key, iv, NULL, pt, 15, a) && pt_last_status() == FASTSM2_ERR_LENGTH);
    CHECK(!run_xts(ours, 1, key, iv, "ISO", pt, 32, a) && pt_last_status() == FASTSM2_ERR_ARG);
    memcpy(key + 16, key, 16); /* equal halves: refused when encrypting */
    CHECK(!run_xts(ours, 1, key, iv, NULL, pt, 32, a) && pt_last_status() == FASTSM2_ERR_ARG);
    CHECK(run_xts(ours, 0, key, iv, NULL, pt, 32, a));
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    CHECK(EVP_EncryptInit_ex2(x, ours, NULL, NULL, NULL) == 1 && EVP_CIPHER_CTX_set_key_length(x, 16) <= 0);
    ERR_clear_error();
    EVP_CIPHER_CTX_free(x);
    EVP_CIPHER_free(ours);
    EVP_CIPHER_free(ref);
    free(pt);
    free(a);
    free(b);
    free(d);
}

/* ---- TLS records -------------------------------------------------------------- */

/* A CBC context in TLS record mode (what libssl sets on a provided cipher). */
/* EVP_CIPHER_CTX_get_updated_iv (OSSL_CIPHER_PARAM_UPDATED_IV): the chaining
 * value of CBC, CTR, OFB and CFB is not reported, and saying so is an error
 * with its name, never success with the caller's buffer untouched; XTS's is its
 * IV (every update is a data unit under the same tweak). */
static void test_updated_iv(void)
{
    static const char *const refused[] = {"SM4-CBC", "SM4-CTR", "SM4-OFB", "SM4-CFB", "SM4-ECB"};
    unsigned char key[32], iv[16], in[48] = {0}, out[64], u[16];
    fs2t_rand_bytes(key, sizeof key);
    fs2t_rand_bytes(iv, sizeof iv);
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        EVP_CIPHER *c = fetch(lc_ours, refused[i], PQ_OURS);
        CHECK(is_ours(c));
        if (!c)
            continue;
        EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
        int ol;
        CHECK(EVP_EncryptInit_ex2(x, c, key, iv, NULL) == 1 && EVP_EncryptUpdate(x, out, &ol, in, 40) == 1);
        memset(u, 0xee, sizeof u);
        ERR_clear_error();
        CHECK(EVP_CIPHER_CTX_get_updated_iv(x, u, sizeof u) == 0 && pt_last_status() == FASTSM2_ERR_UNSUPPORTED);
        ERR_clear_error();
        EVP_CIPHER_CTX_free(x);
        EVP_CIPHER_free(c);
    }
    EVP_CIPHER *c = fetch(lc_ours, "SM4-XTS", PQ_OURS);
    if (c) {
        EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
        int ol;
        CHECK(EVP_EncryptInit_ex2(x, c, key, iv, NULL) == 1 && EVP_EncryptUpdate(x, out, &ol, in, 48) == 1);
        memset(u, 0xee, sizeof u);
        CHECK(EVP_CIPHER_CTX_get_updated_iv(x, u, sizeof u) == 1 && memcmp(u, iv, 16) == 0);
        EVP_CIPHER_CTX_free(x);
        EVP_CIPHER_free(c);
    }
    ERR_clear_error();
}

static EVP_CIPHER_CTX *tls_cbc_ctx(const EVP_CIPHER *c, int enc, const unsigned char key[16],
                                   const unsigned char iv[16], int version, size_t macsize)
{
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    OSSL_PARAM p[] = {OSSL_PARAM_int(OSSL_CIPHER_PARAM_TLS_VERSION, &version),
                      OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_TLS_MAC_SIZE, &macsize), OSSL_PARAM_END};
    if (EVP_CipherInit_ex2(x, c, key, iv, enc, NULL) != 1 || EVP_CIPHER_CTX_set_params(x, p) != 1) {
        EVP_CIPHER_CTX_free(x);
        return NULL;
    }
    return x;
}

static const unsigned char *tls_mac_of(EVP_CIPHER_CTX *x, size_t macsize)
{
    unsigned char *mac = NULL;
    OSSL_PARAM p[] = {OSSL_PARAM_octet_ptr(OSSL_CIPHER_PARAM_TLS_MAC, (void **)&mac, macsize), OSSL_PARAM_END};
    return EVP_CIPHER_CTX_get_params(x, p) == 1 ? mac : NULL;
}

static void test_tls_cbc(void)
{
    EVP_CIPHER *ours = fetch(lc_ours, "SM4-CBC", PQ_OURS), *ref = fetch(lc_ref, "SM4-CBC", NULL);
    if (!ours || !ref) {
        CHECK(0);
        return;
    }
    static const int versions[] = {0x0301, 0x0302, 0x0303, 0xFEFD, 0x0101};
    unsigned long records = 0, bad = 0;
    for (size_t v = 0; v < sizeof versions / sizeof versions[0]; v++) {
        int version = versions[v], explicit_iv = version != 0x0301, openssl_knows = version != 0x0101;
        for (int i = 0; i < 40; i++) {
            unsigned char key[16], iv[16], rec[16 + 400 + 32 + 16], a[sizeof rec], b[sizeof rec];
            size_t macsize = i % 4 == 0 ? 20 : 32, plen = fs2t_rand_below(400);
            size_t head = explicit_iv ? 16 : 0, inl = head + plen + macsize;
            fs2t_rand_bytes(key, 16);
            fs2t_rand_bytes(iv, 16);
            fs2t_rand_bytes(rec, inl);
            /* encryption: the record's padding added by the provider */
            EVP_CIPHER_CTX *xo = tls_cbc_ctx(ours, 1, key, iv, version, macsize);
            EVP_CIPHER_CTX *xr = tls_cbc_ctx(ref, 1, key, iv, version, macsize);
            CHECK(xo && xr);
            if (!xo || !xr)
                return;
            int lo = 0, lr = 0;
            memcpy(a, rec, inl);
            memcpy(b, rec, inl);
            CHECK(EVP_CipherUpdate(xo, a, &lo, a, (int)inl) == 1 && EVP_CipherUpdate(xr, b, &lr, b, (int)inl) == 1);
            CHECK(lo == lr && lo % 16 == 0 && memcmp(a, b, (size_t)lo) == 0);
            EVP_CIPHER_CTX_free(xo);
            EVP_CIPHER_CTX_free(xr);
            size_t clen = (size_t)lo;
            /* decryption: payload length and MAC, as the default provider's */
            xo = tls_cbc_ctx(ours, 0, key, iv, version, macsize);
            memcpy(b, a, clen);
            CHECK(EVP_CipherUpdate(xo, b, &lo, b, (int)clen) == 1 && (size_t)lo == plen);
            const unsigned char *mac = tls_mac_of(xo, macsize);
            CHECK(mac != NULL && memcmp(mac, rec + head + plen, macsize) == 0);
            CHECK(memcmp(b + head, rec + head, plen) == 0);
            if (openssl_knows) {
                xr = tls_cbc_ctx(ref, 0, key, iv, version, macsize);
                unsigned char c2[sizeof rec];
                memcpy(c2, a, clen);
                CHECK(EVP_CipherUpdate(xr, c2, &lr, c2, (int)clen) == 1 && lr == lo);
                const unsigned char *mr = tls_mac_of(xr, macsize);
                CHECK(mr != NULL && mac != NULL && memcmp(mr, mac, macsize) == 0);
                EVP_CIPHER_CTX_free(xr);
            }
            EVP_CIPHER_CTX_free(xo);
            records++;

            /* a record whose padding is wrong (one byte of it, or a length
             * beyond what it holds): public as a record, its length with
             * no padding taken off, and a MAC that is not the record's */
            size_t body = head + plen + macsize, count = 16 - body % 16;
            if (count == 1)
                count += 16;
            unsigned char raw[sizeof rec + 32], enc[sizeof raw], enc2[sizeof raw];
            memcpy(raw, rec, body);
            memset(raw + body, (int)(count - 1), count);
            size_t rlen = body + count;
            if (i & 1)
                raw[rlen - 1] = 255; /* 256 bytes of padding: more than the record, or not all 255 */
            else
                raw[rlen - 2 - fs2t_rand_below(count - 1)] ^= 0x01; /* one padding byte off */
            int l;
            EVP_CIPHER_CTX *xe = EVP_CIPHER_CTX_new();
            CHECK(EVP_EncryptInit_ex2(xe, ours, key, iv, NULL) == 1 && EVP_CIPHER_CTX_set_padding(xe, 0) == 1 &&
                  EVP_EncryptUpdate(xe, enc, &l, raw, (int)rlen) == 1 && (size_t)l == rlen);
            EVP_CIPHER_CTX_free(xe);
            memcpy(enc2, enc, rlen);
            xo = tls_cbc_ctx(ours, 0, key, iv, version, macsize);
            CHECK(EVP_CipherUpdate(xo, enc, &lo, enc, (int)rlen) == 1);
            CHECK((size_t)lo == rlen - head - macsize);
            mac = tls_mac_of(xo, macsize);
            CHECK(mac != NULL && memcmp(mac, raw + rlen - macsize, macsize) != 0);
            if (openssl_knows) {
                xr = tls_cbc_ctx(ref, 0, key, iv, version, macsize);
                CHECK(EVP_CipherUpdate(xr, enc2, &lr, enc2, (int)rlen) == 1 && lr == lo);
                EVP_CIPHER_CTX_free(xr);
            }
            EVP_CIPHER_CTX_free(xo);
            bad++;
        }
        /* publicly too short: not even the MAC and a padding byte fit */
        unsigned char key[16] = {5}, iv[16] = {6}, r[48] = {0};
        EVP_CIPHER_CTX *xo = tls_cbc_ctx(ours, 0, key, iv, version, 32);
        int lo;
        CHECK(EVP_CipherUpdate(xo, r, &lo, r, explicit_iv ? 48 : 32) == 0 &&
              pt_last_status() == FASTSM2_ERR_CIPHERTEXT);
        EVP_CIPHER_CTX_free(xo);
    }
    printf("TLS CBC records: %lu well-formed (TLS 1.0-1.2, DTLS 1.2, TLCP), %lu with bad padding\n", records, bad);
    EVP_CIPHER_free(ours);
    EVP_CIPHER_free(ref);
}

/* TLS 1.2 AEAD records (RFC 5288, RFC 8998's suites in TLCP): a context per
 * direction, the 4-byte fixed IV, per record the 13-byte AAD, then the
 * record (explicit nonce, payload, tag) in place in one update. */
static EVP_CIPHER_CTX *tls_aead_ctx(const EVP_CIPHER *c, int enc, const unsigned char key[16],
                                    const unsigned char fixed[4], int ccm)
{
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    int ok = EVP_CipherInit_ex2(x, c, NULL, NULL, enc, NULL) == 1;
    if (ok && ccm)
        ok = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_IVLEN, 12, NULL) == 1 &&
             EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, 16, NULL) == 1;
    ok = ok && EVP_CipherInit_ex2(x, NULL, key, NULL, enc, NULL) == 1 &&
         EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_IV_FIXED, 4, (void *)fixed) == 1;
    if (!ok) {
        EVP_CIPHER_CTX_free(x);
        return NULL;
    }
    return x;
}

/* The record's length in its header is len (explicit nonce and payload,
 * and the tag when decrypting); the cipher gets the tag's room too when
 * encrypting, as libssl gives it (the "pad" the AAD call answers). */
static int tls_aead_record(EVP_CIPHER_CTX *x, unsigned char *rec, size_t len, uint64_t seq, size_t *outl)
{
    unsigned char aad[13];
    for (int i = 0; i < 8; i++)
        aad[i] = (unsigned char)(seq >> (56 - 8 * i));
    aad[8] = 23;
    aad[9] = 3;
    aad[10] = 3;
    aad[11] = (unsigned char)(len >> 8);
    aad[12] = (unsigned char)len;
    int pad = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_TLS1_AAD, 13, aad);
    if (pad != 16)
        return 0;
    if (EVP_CIPHER_CTX_is_encrypting(x))
        len += (size_t)pad;
    int r; /* as libssl runs a provided cipher: one update, the record in place */
    if (EVP_CipherUpdate(x, rec, &r, rec, (int)len) != 1)
        return 0;
    *outl = (size_t)r;
    return 1;
}

static void test_tls_aead(int ccm)
{
    const char *name = ccm ? "SM4-CCM" : "SM4-GCM";
    EVP_CIPHER *ours = fetch(lc_ours, name, PQ_OURS), *ref = fetch(lc_ref, name, NULL);
    CHECK(is_ours(ours));
    if (!ours)
        return;
    unsigned char key[16], fixed[4];
    fs2t_rand_bytes(key, 16);
    fs2t_rand_bytes(fixed, 4);
    EVP_CIPHER_CTX *xe = tls_aead_ctx(ours, 1, key, fixed, ccm), *xd = tls_aead_ctx(ours, 0, key, fixed, ccm);
    EVP_CIPHER_CTX *xr = ref ? tls_aead_ctx(ref, 0, key, fixed, ccm) : NULL;
    CHECK(xe && xd && (!ref || xr));
    if (!xe || !xd)
        return;
    fastsm2_sm4_key k;
    CHECK(fastsm2_sm4_key_init(&k, key) == FASTSM2_OK);
    unsigned char prev_explicit[8] = {0};
    unsigned long n = 0;
    for (uint64_t seq = 0; seq < 30; seq++) {
        unsigned char pt[300], rec[8 + 300 + 16], copy[sizeof rec], chk[300];
        size_t plen = fs2t_rand_below(sizeof pt), len = 8 + plen, outl = 0;
        fs2t_rand_bytes(pt, plen);
        memcpy(rec + 8, pt, plen);
        CHECK(tls_aead_record(xe, rec, len, seq, &outl) && outl == len + 16);
        /* the record's layout: nonce = fixed || explicit, AAD = seq, type,
         * version, payload length; for CCM the explicit part is the
         * sequence number, for GCM a counter that goes up by one */
        unsigned char nonce[12], aad[13], tag[16];
        memcpy(nonce, fixed, 4);
        memcpy(nonce + 4, rec, 8);
        for (int i = 0; i < 8; i++)
            aad[i] = (unsigned char)(seq >> (56 - 8 * i));
        aad[8] = 23, aad[9] = 3, aad[10] = 3, aad[11] = (unsigned char)(plen >> 8), aad[12] = (unsigned char)plen;
        memcpy(tag, rec + 8 + plen, 16);
        int st = ccm ? fastsm2_sm4_ccm_decrypt(chk, &k, nonce, 12, aad, 13, rec + 8, plen, tag, 16)
                     : fastsm2_sm4_gcm_decrypt(chk, &k, nonce, 12, aad, 13, rec + 8, plen, tag, 16);
        CHECK(st == FASTSM2_OK && memcmp(chk, pt, plen) == 0);
        if (st != FASTSM2_OK)
            fprintf(stderr, "%s record %d: plen %zu: library says %s\n", name, (int)seq, plen, fastsm2_error_name(st));
        if (ccm)
            CHECK(memcmp(rec, aad, 8) == 0);
        else if (seq > 0) {
            unsigned char want[8];
            memcpy(want, prev_explicit, 8);
            for (int i = 7; i >= 0; i--)
                if (++want[i] != 0)
                    break;
            CHECK(memcmp(rec, want, 8) == 0);
        }
        memcpy(prev_explicit, rec, 8);
        memcpy(copy, rec, len + 16);
        /* decrypted by ours, and by the default provider where it has the mode */
        CHECK(tls_aead_record(xd, rec, len + 16, seq, &outl) && outl == plen && memcmp(rec + 8, pt, plen) == 0);
        if (xr) {
            memcpy(rec, copy, len + 16);
            int okr = tls_aead_record(xr, rec, len + 16, seq, &outl);
            CHECK(okr && outl == plen && memcmp(rec + 8, pt, plen) == 0);
            if (!okr)
                ERR_print_errors_fp(stderr),
                    fprintf(stderr, "%s record %d refused by the default provider\n", name, (int)seq);
        }
        /* one bit changed anywhere after the explicit nonce: refused */
        memcpy(rec, copy, len + 16);
        rec[8 + fs2t_rand_below(plen + 16)] ^= 0x04;
        CHECK(!tls_aead_record(xd, rec, len + 16, seq, &outl) && pt_last_status() == FASTSM2_ERR_TAG);
        n++;
    }
    /* a record too short for the explicit nonce and the tag */
    unsigned char shortrec[23] = {0};
    size_t outl;
    CHECK(!tls_aead_record(xd, shortrec, sizeof shortrec, 99, &outl));
    ERR_clear_error();
    printf("TLS %s records: %lu, each decrypted by the library%s\n", name, n, xr ? " and by the default provider" : "");
    fastsm2_sm4_key_clear(&k);
    EVP_CIPHER_CTX_free(xe);
    EVP_CIPHER_CTX_free(xd);
    EVP_CIPHER_CTX_free(xr);
    EVP_CIPHER_free(ours);
    EVP_CIPHER_free(ref);
}

/* ---- OpenSSL's evp_test stanzas ---------------------------------------------- */

typedef struct {
    char cipher[64], result[64], xts[16];
    unsigned char key[64], iv[256], tag[16], aad[1024], pt[4096], ct[4096];
    size_t klen, ivlen, taglen, aadlen, ptlen, ctlen;
    int op; /* -1 both ways, 1 encrypt, 0 decrypt */
    int skip;
} stanza;

static int hexval(const char *v, unsigned char *out, size_t cap, size_t *len)
{
    size_t n = 0;
    for (const char *p = v; *p;) {
        if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') {
            p++;
            continue;
        }
        unsigned hi, lo;
        if (sscanf(p, "%1x%1x", &hi, &lo) != 2 || n >= cap)
            return 0;
        out[n++] = (unsigned char)(hi << 4 | lo);
        p += 2;
    }
    *len = n;
    return 1;
}

/* Run one stanza one way: whole, in pieces (1 byte and random), in place.
 * 1 if it behaved as the stanza says. */
static int stanza_run(const stanza *s, const EVP_CIPHER *c, int enc, int pieces)
{
    const unsigned char *in = enc ? s->pt : s->ct, *want = enc ? s->ct : s->pt;
    size_t len = enc ? s->ptlen : s->ctlen;
    unsigned char out[4096 + 32], tag[16];
    int mode = EVP_CIPHER_get_mode(c), ok = 1, fail_at = 0, ol;
    size_t o = 0;
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    ok = EVP_CipherInit_ex2(x, c, NULL, NULL, enc, NULL) == 1;
    if (ok && (mode == EVP_CIPH_GCM_MODE || mode == EVP_CIPH_CCM_MODE) &&
        s->ivlen != (size_t)EVP_CIPHER_CTX_get_iv_length(x))
        ok = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_IVLEN, (int)s->ivlen, NULL) == 1;
    if (ok && mode == EVP_CIPH_CCM_MODE && s->taglen)
        ok = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, (int)s->taglen, enc ? NULL : (void *)s->tag) == 1;
    if (ok && mode == EVP_CIPH_GCM_MODE && !enc && s->taglen)
        ok = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_TAG, (int)s->taglen, (void *)s->tag) == 1;
    ok = ok && EVP_CipherInit_ex2(x, NULL, s->key, s->ivlen ? s->iv : NULL, enc, NULL) == 1;
    if (ok && s->xts[0]) {
        OSSL_PARAM p[] = {OSSL_PARAM_construct_utf8_string(OSSL_CIPHER_PARAM_XTS_STANDARD, (char *)s->xts, 0),
                          OSSL_PARAM_END};
        ok = EVP_CIPHER_CTX_set_params(x, p) == 1;
    }
    if (ok && mode != EVP_CIPH_GCM_MODE && mode != EVP_CIPH_CCM_MODE)
        ok = EVP_CIPHER_CTX_set_padding(x, 0) == 1;
    if (!ok)
        fail_at = 1;
    if (ok && mode == EVP_CIPH_CCM_MODE)
        ok = EVP_CipherUpdate(x, NULL, &ol, NULL, (int)len) == 1;
    if (ok && s->aadlen)
        ok = EVP_CipherUpdate(x, NULL, &ol, s->aad, (int)s->aadlen) == 1;
    /* pieces: 0 whole, 1 byte by byte, 2 random pieces, 3 whole in place */
    int whole = pieces == 0 || pieces == 3 || mode == EVP_CIPH_CCM_MODE || mode == EVP_CIPH_XTS_MODE;
    unsigned char *buf = pieces == 3 ? out : NULL; /* in place */
    if (buf)
        memcpy(buf, in, len);
    for (size_t at = 0; ok && (at < len || (len == 0 && at == 0 && mode == EVP_CIPH_CCM_MODE));) {
        size_t n = whole ? len - at : pieces == 1 ? 1 : fs2t_rand_piece(len - at, 1, 40);
        ok = EVP_CipherUpdate(x, out + o, &ol, buf ? buf + at : in + at, (int)n) == 1;
        o += ok ? (size_t)ol : 0;
        at += n;
        if (len == 0)
            break;
    }
    if (!ok && !fail_at)
        fail_at = 2;
    if (ok) {
        ok = EVP_CipherFinal_ex(x, out + o, &ol) == 1;
        o += ok ? (size_t)ol : 0;
        if (!ok)
            fail_at = 3;
    }
    if (ok && enc && s->taglen)
        ok = EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, (int)s->taglen, tag) == 1 &&
             memcmp(tag, s->tag, s->taglen) == 0;
    EVP_CIPHER_CTX_free(x);
    ERR_clear_error();
    if (s->result[0]) { /* a failure, where the stanza says */
        if (strcmp(s->result, "CIPHERFINAL_ERROR") == 0)
            return fail_at == 3;
        if (strcmp(s->result, "CIPHERUPDATE_ERROR") == 0)
            return fail_at == 2;
        return fail_at != 0;
    }
    return ok && o == len && memcmp(out, want, len) == 0;
}

static void run_vector_file(const char *path, int must_run)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        fprintf(stderr, "cannot read %s\n", path);
        CHECK(0);
        return;
    }
    stanza *s = calloc(1, sizeof *s);
    char line[16384];
    unsigned long ran = 0, skipped = 0;
    int eof = 0;
    s->op = -1;
    while (!eof) {
        eof = fgets(line, sizeof line, f) == NULL;
        char *p = eof ? NULL : line;
        if (p) {
            p[strcspn(p, "\r\n")] = 0;
            while (*p == ' ' || *p == '\t')
                p++;
            if (*p == '#')
                continue;
        }
        if (eof || *p == 0) { /* the end of a stanza */
            if (s->cipher[0] && !s->skip) {
                EVP_CIPHER *c = fetch(lc_ours, s->cipher, PQ_OURS);
                if (c == NULL || !is_ours(c)) {
                    skipped++;
                } else {
                    for (int enc = 1; enc >= 0; enc--) {
                        if (s->op != -1 && s->op != enc)
                            continue;
                        for (int pieces = 0; pieces < 4; pieces++) {
                            int good = stanza_run(s, c, enc, pieces);
                            CHECK(good);
                            if (!good)
                                fprintf(stderr, "%s: %s %s (%s) failed\n", path, s->cipher,
                                        enc ? "encryption" : "decryption",
                                        pieces == 0   ? "whole"
                                        : pieces == 1 ? "byte by byte"
                                        : pieces == 2 ? "in pieces"
                                                      : "in place");
                        }
                    }
                    ran++;
                }
                EVP_CIPHER_free(c);
            } else if (s->cipher[0]) {
                skipped++;
            }
            memset(s, 0, sizeof *s);
            s->op = -1;
            continue;
        }
        char *eq = strchr(p, '=');
        if (eq == NULL)
            continue;
        char *k = p, *v = eq + 1;
        for (char *e = eq; e > k && (e[-1] == ' ' || e[-1] == '\t');)
            *--e = 0;
        *eq = 0;
        while (*v == ' ' || *v == '\t')
            v++;
        int okv = 1;
        if (strcmp(k, "Cipher") == 0)
            snprintf(s->cipher, sizeof s->cipher, "%s", v);
        else if (strcmp(k, "Key") == 0)
            okv = hexval(v, s->key, sizeof s->key, &s->klen);
        else if (strcmp(k, "IV") == 0)
            okv = hexval(v, s->iv, sizeof s->iv, &s->ivlen);
        else if (strcmp(k, "Tag") == 0)
            okv = hexval(v, s->tag, sizeof s->tag, &s->taglen);
        else if (strcmp(k, "AAD") == 0)
            okv = s->aadlen == 0 && hexval(v, s->aad, sizeof s->aad, &s->aadlen); /* one AAD */
        else if (strcmp(k, "Plaintext") == 0)
            okv = hexval(v, s->pt, sizeof s->pt, &s->ptlen);
        else if (strcmp(k, "Ciphertext") == 0)
            okv = hexval(v, s->ct, sizeof s->ct, &s->ctlen);
        else if (strcmp(k, "Operation") == 0)
            s->op = strcmp(v, "ENCRYPT") == 0 ? 1 : strcmp(v, "DECRYPT") == 0 ? 0 : (okv = 0);
        else if (strcmp(k, "Result") == 0)
            snprintf(s->result, sizeof s->result, "%s", v);
        else if (strcmp(k, "XTSStandard") == 0)
            snprintf(s->xts, sizeof s->xts, "%s", v);
        else if (strcmp(k, "Title") != 0 && strcmp(k, "Availablein") != 0 && strcmp(k, "FIPSversion") != 0)
            okv = 0; /* a keyword this runner does not know */
        if (!okv)
            s->skip = 1;
    }
    fclose(f);
    free(s);
    printf("%s: %lu SM4 stanzas run, each way, whole, byte by byte, in pieces and in place (%lu skipped)\n", path, ran,
           skipped);
    CHECK(ran >= (unsigned long)must_run);
}

int main(int argc, char **argv)
{
    pt_setup(argc, argv);
    if (argc < 3) {
        fprintf(stderr, "usage: %s MODULE_DIR VECTOR_FILE\n", argv[0]);
        return 2;
    }
    printf("testossl: running against %s; the default provider %s SM4-GCM, SM4-CCM and SM4-XTS\n",
           OpenSSL_version(OPENSSL_VERSION), ref_has("SM4-GCM") ? "has" : "lacks");
    test_names();
    run_vector_file(argv[2], 13);
    const char *more = getenv("FS2_EVP_VECTORS");
    if (more != NULL && *more) {
        char *list = strdup(more), *save = NULL;
        for (char *f = strtok_r(list, ":", &save); f; f = strtok_r(NULL, ":", &save))
            run_vector_file(f, 1);
        free(list);
    }
    test_basic_diff();
    test_gcm();
    test_ccm();
    test_xts();
    test_updated_iv();
    test_tls_cbc();
    test_tls_aead(0);
    test_tls_aead(1);
    /* after every bad input above (tags, padding, lengths, misuse), the same
     * provider still gives the standards' examples */
    run_vector_file(argv[2], 13);
    pt_teardown();
    return fs2t_finish("test_provider_sm4");
}
