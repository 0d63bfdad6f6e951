/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SM4-GCM (NIST SP 800-38D) and SM4-CCM (SP 800-38C) on every SM4 table
 * this CPU can run: RFC 8998's examples and the edge cases of
 * tests/vectors/sm4-examples.txt (empty plaintext and AAD, IVs of 1, 64,
 * 128 and 200 bytes, tags of 4 to 16 bytes, CCM's nonces of 7 to 13 bytes
 * and its long AAD form), one-shot and, for GCM, streamed in random pieces
 * in place; every tampered byte of ciphertext, tag, AAD or IV refused with
 * the output zeroed; and every error the header names for these calls.
 * (tests/test_sm4_openssl.c compares both with OpenSSL where it has them.)
 */
#include "sm4t.h"
#include "sym/sym.h"

#define BIG (70 * 1024)

static unsigned char key_b[16], iv[256], aad[BIG], pt[BIG], ct[BIG], tag[16], out[BIG + 64];
static size_t ivlen, aadlen, ptlen, ctlen, taglen;

static void load(const char *section)
{
    sm4t_field(key_b, sizeof key_b, section, "key");
    ivlen = sm4t_field(iv, sizeof iv, section, "iv");
    aadlen = sm4t_field(aad, sizeof aad, section, "aad");
    ptlen = sm4t_field(pt, sizeof pt, section, "plaintext");
    ctlen = sm4t_field(ct, sizeof ct, section, "ciphertext");
    taglen = sm4t_field(tag, sizeof tag, section, "tag");
}

/* GCM through the streaming calls: AAD and text in random pieces, the
 * text in place in out. Returns the status of final. */
static int gcm_stream(int enc, const fastsm2_sm4_key *key, const unsigned char *in, size_t len, unsigned char *t,
                      size_t tl)
{
    fastsm2_sm4_gcm_ctx c;
    CHECK_STATUS(fastsm2_sm4_gcm_init(&c, enc, key, iv, ivlen), FASTSM2_OK);
    for (size_t i = 0; i < aadlen;) {
        size_t p = fs2t_rand_piece(aadlen - i, 0, 40);
        CHECK_STATUS(fastsm2_sm4_gcm_aad(&c, aad + i, p), FASTSM2_OK);
        i += p;
    }
    memcpy(out, in, len);
    for (size_t i = 0; i < len;) {
        size_t p = fs2t_rand_piece(len - i, 0, 70);
        CHECK_STATUS(fastsm2_sm4_gcm_update(&c, out + i, out + i, p), FASTSM2_OK);
        i += p;
    }
    return enc ? fastsm2_sm4_gcm_encrypt_final(&c, t, tl) : fastsm2_sm4_gcm_decrypt_final(&c, t, tl);
}

static void test_gcm_vectors(void)
{
    static const char *const cases[] = {"sm4-gcm-rfc8998", "sm4-gcm-empty", "sm4-gcm-aad-only", "sm4-gcm-1-byte",
                                        "sm4-gcm-iv1",     "sm4-gcm-iv200", "sm4-gcm-iv64",     "sm4-gcm-iv128",
                                        "sm4-gcm-tag12",   "sm4-gcm-tag8",  "sm4-gcm-tag4"};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        fastsm2_sm4_key key;
        unsigned char t[16];
        load(cases[c]);
        CHECK(ctlen == ptlen);
        CHECK_STATUS(fastsm2_sm4_key_init(&key, key_b), FASTSM2_OK);
        CHECK_STATUS(fastsm2_sm4_gcm_encrypt(out, t, taglen, &key, iv, ivlen, aad, aadlen, pt, ptlen), FASTSM2_OK);
        CHECK(memcmp(out, ct, ctlen) == 0 && memcmp(t, tag, taglen) == 0);
        CHECK_STATUS(fastsm2_sm4_gcm_decrypt(out, &key, iv, ivlen, aad, aadlen, ct, ctlen, tag, taglen), FASTSM2_OK);
        CHECK(memcmp(out, pt, ptlen) == 0);
        memset(t, 0, sizeof t);
        CHECK_STATUS(gcm_stream(1, &key, pt, ptlen, t, taglen), FASTSM2_OK);
        CHECK(memcmp(out, ct, ctlen) == 0 && memcmp(t, tag, taglen) == 0);
        CHECK_STATUS(gcm_stream(0, &key, ct, ctlen, tag, taglen), FASTSM2_OK);
        CHECK(memcmp(out, pt, ptlen) == 0);
        fastsm2_sm4_key_clear(&key);
    }
}

static void test_ccm_vectors(void)
{
    static const char *const cases[] = {"sm4-ccm-rfc8998", "sm4-ccm-n7-t4-empty", "sm4-ccm-n13-t16",
                                        "sm4-ccm-n11-t6",  "sm4-ccm-n12-t14",     "sm4-ccm-n8-t10-aad65280"};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        fastsm2_sm4_key key;
        unsigned char t[16];
        load(cases[c]);
        CHECK_STATUS(fastsm2_sm4_key_init(&key, key_b), FASTSM2_OK);
        CHECK_STATUS(fastsm2_sm4_ccm_encrypt(out, t, taglen, &key, iv, ivlen, aad, aadlen, pt, ptlen), FASTSM2_OK);
        CHECK(memcmp(out, ct, ctlen) == 0 && memcmp(t, tag, taglen) == 0);
        memcpy(out, ct, ctlen); /* in place */
        CHECK_STATUS(fastsm2_sm4_ccm_decrypt(out, &key, iv, ivlen, aad, aadlen, out, ctlen, tag, taglen), FASTSM2_OK);
        CHECK(memcmp(out, pt, ptlen) == 0);
        fastsm2_sm4_key_clear(&key);
    }
}

/* Random cases: one-shot against the stream, then one changed byte of the
 * ciphertext, the tag, the AAD or the IV: FASTSM2_ERR_TAG and the output
 * zeroed, one-shot; FASTSM2_ERR_TAG from final, streaming. CCM likewise,
 * one-shot. */
static void test_tamper(void)
{
    for (int iter = 0; iter < 30; iter++) {
        fastsm2_sm4_key key;
        unsigned char t[16], t2[16];
        int gcm = iter % 3 != 0;
        sm4t_rand_key(&key, NULL);
        ivlen = gcm ? 1 + fs2t_rand_below(iter < 6 ? 40 : 12) : 7 + fs2t_rand_below(7);
        if (gcm && iter % 3 == 1)
            ivlen = 12;
        fs2t_rand_bytes(iv, ivlen);
        aadlen = fs2t_rand_len_bytes(aad, 0, 70);
        ptlen = fs2t_rand_len_bytes(pt, 0, 300);
        taglen = gcm ? 4 + fs2t_rand_below(13) : 4 + 2 * fs2t_rand_below(7);
        int st = gcm ? fastsm2_sm4_gcm_encrypt(ct, t, taglen, &key, iv, ivlen, aad, aadlen, pt, ptlen)
                     : fastsm2_sm4_ccm_encrypt(ct, t, taglen, &key, iv, ivlen, aad, aadlen, pt, ptlen);
        CHECK_STATUS(st, FASTSM2_OK);
        if (gcm) {
            CHECK_STATUS(gcm_stream(1, &key, pt, ptlen, t2, taglen), FASTSM2_OK);
            CHECK(memcmp(out, ct, ptlen) == 0 && memcmp(t, t2, taglen) == 0);
        }
        for (int what = 0; what < 4; what++) {
            unsigned char *p = what == 0 ? ct : what == 1 ? t : what == 2 ? aad : iv;
            size_t n = what == 0 ? ptlen : what == 1 ? taglen : what == 2 ? aadlen : ivlen;
            if (n == 0)
                continue;
            size_t at = fs2t_rand_below(n);
            unsigned char bit = (unsigned char)(1u << fs2t_rand_below(8));
            p[at] ^= bit;
            memset(out, 0x5A, ptlen + 16);
            st = gcm ? fastsm2_sm4_gcm_decrypt(out, &key, iv, ivlen, aad, aadlen, ct, ptlen, t, taglen)
                     : fastsm2_sm4_ccm_decrypt(out, &key, iv, ivlen, aad, aadlen, ct, ptlen, t, taglen);
            CHECK_STATUS(st, FASTSM2_ERR_TAG);
            CHECK(fs2t_all_zero(out, ptlen) && out[ptlen] == 0x5A);
            if (gcm)
                CHECK_STATUS(gcm_stream(0, &key, ct, ptlen, t, taglen), FASTSM2_ERR_TAG);
            p[at] ^= bit;
        }
        /* and intact, in place */
        memcpy(out, ct, ptlen);
        st = gcm ? fastsm2_sm4_gcm_decrypt(out, &key, iv, ivlen, aad, aadlen, out, ptlen, t, taglen)
                 : fastsm2_sm4_ccm_decrypt(out, &key, iv, ivlen, aad, aadlen, out, ptlen, t, taglen);
        CHECK_STATUS(st, FASTSM2_OK);
        CHECK(memcmp(out, pt, ptlen) == 0);
        fastsm2_sm4_key_clear(&key);
    }
}

/* x * y in GCM's field, the library's portable multiplication. */
static void gf_mul(uint64_t r[2], const uint64_t x[2], const uint64_t y[2])
{
    uint64_t t[2] = {x[0], x[1]};
    fs2_ghash_mul_generic(t, y);
    r[0] = t[0], r[1] = t[1];
}

/* A counter whose last 32 bits wrap inside the text (an IV of other than
 * 12 bytes can give any J0): the IV is solved for J0 = ...FFFFFFF9 (for a
 * 16-byte IV, J0 = IV H^2 + L H, L its length block), and the output is
 * checked block by block against ECB of inc32^i(J0). */
static void test_gcm_wrap(void)
{
    fastsm2_sm4_key key;
    unsigned char t[16], j0[16], lenblk[16] = {0};
    sm4t_rand_key(&key, NULL);
    const fs2_sm4_key *k = (const fs2_sm4_key *)&key;
    const uint64_t *h = k->hpow[0];
    /* H^-1 = H^(2^128 - 2): 127 ones, then a zero */
    uint64_t inv[2] = {0, (uint64_t)1 << 63}, w[2], l[2];
    for (int i = 0; i < 127; i++) {
        gf_mul(inv, inv, inv);
        gf_mul(inv, inv, h);
    }
    gf_mul(inv, inv, inv);
    gf_mul(w, inv, h);
    CHECK(w[0] == 0 && w[1] == (uint64_t)1 << 63); /* H^-1 H = 1 */
    fs2t_rand_bytes(j0, 12);
    fs2_store32_be(j0 + 12, 0xFFFFFFF9u);
    fs2_store64_be(lenblk + 8, 128);
    l[1] = fs2_load64_be(lenblk), l[0] = fs2_load64_be(lenblk + 8);
    gf_mul(l, l, h); /* L H */
    w[1] = fs2_load64_be(j0) ^ l[1], w[0] = fs2_load64_be(j0 + 8) ^ l[0];
    gf_mul(w, w, inv);
    gf_mul(w, w, inv); /* the IV: (J0 + L H) H^-2 */
    ivlen = 16;
    fs2_store64_be(iv, w[1]);
    fs2_store64_be(iv + 8, w[0]);
    aadlen = 0;
    ptlen = 16 * 40 + 5;
    fs2t_rand_bytes(pt, ptlen);
    CHECK_STATUS(fastsm2_sm4_gcm_encrypt(ct, tag, 16, &key, iv, ivlen, NULL, 0, pt, ptlen), FASTSM2_OK);
    CHECK_STATUS(gcm_stream(1, &key, pt, ptlen, t, 16), FASTSM2_OK);
    CHECK(memcmp(out, ct, ptlen) == 0 && memcmp(t, tag, 16) == 0);
    CHECK_STATUS(fastsm2_sm4_gcm_decrypt(out, &key, iv, ivlen, NULL, 0, ct, ptlen, tag, 16), FASTSM2_OK);
    CHECK(memcmp(out, pt, ptlen) == 0);
    /* the key stream, block by block: E(inc32^i(J0)), the first 12 bytes
     * unchanged through the wrap */
    unsigned char c[16], ks[16];
    int same = 1;
    memcpy(c, j0, 16);
    for (size_t b = 0; b * 16 < ptlen; b++) {
        fs2_store32_be(c + 12, fs2_load32_be(c + 12) + 1);
        CHECK_STATUS(fastsm2_sm4_ecb_encrypt(ks, &key, c, 16), FASTSM2_OK);
        for (size_t i = 0; i < 16 && 16 * b + i < ptlen; i++)
            same &= (ct[16 * b + i] ^ pt[16 * b + i]) == ks[i];
    }
    CHECK(same);
    fastsm2_sm4_key_clear(&key);
}

static void test_gcm_errors(void)
{
    fastsm2_sm4_key key;
    fastsm2_sm4_gcm_ctx c;
    unsigned char t[17], buf[64] = {1}, o[64];
    sm4t_rand_key(&key, NULL);
    memset(iv, 3, 12);
    /* one-shot */
    memset(o, 0x55, sizeof o);
    memset(t, 0x55, sizeof t);
    CHECK_STATUS(fastsm2_sm4_gcm_encrypt(o, t, 3, &key, iv, 12, NULL, 0, buf, 20), FASTSM2_ERR_LENGTH);
    CHECK(fs2t_all_zero(o, 20) && fs2t_all_zero(t, 3) && o[20] == 0x55);
    CHECK_STATUS(fastsm2_sm4_gcm_encrypt(o, t, 17, &key, iv, 12, NULL, 0, buf, 20), FASTSM2_ERR_LENGTH);
    CHECK_STATUS(fastsm2_sm4_gcm_encrypt(o, t, 16, &key, iv, 0, NULL, 0, buf, 20), FASTSM2_ERR_IV);
    CHECK_STATUS(fastsm2_sm4_gcm_encrypt(o, t, 16, &key, NULL, 12, NULL, 0, buf, 20), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_sm4_gcm_encrypt(o, t, 16, &key, iv, 12, NULL, 5, buf, 20), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_sm4_gcm_encrypt(o, t, 16, &key, iv, 12, NULL, 0, NULL, 20), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_sm4_gcm_encrypt(NULL, t, 16, &key, iv, 12, NULL, 0, buf, 20), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_sm4_gcm_encrypt(o, NULL, 16, &key, iv, 12, NULL, 0, buf, 20), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_sm4_gcm_encrypt(o, t, 16, NULL, iv, 12, NULL, 0, buf, 20), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_sm4_gcm_encrypt(NULL, t, 16, &key, iv, 12, NULL, 0, NULL, 0), FASTSM2_OK);
    CHECK_STATUS(fastsm2_sm4_gcm_decrypt(o, &key, iv, 12, NULL, 0, buf, 20, t, 3), FASTSM2_ERR_LENGTH);
    CHECK_STATUS(fastsm2_sm4_gcm_decrypt(o, &key, iv, 0, NULL, 0, buf, 20, t, 16), FASTSM2_ERR_IV);
    CHECK_STATUS(fastsm2_sm4_gcm_decrypt(o, &key, iv, 12, NULL, 0, buf, 20, NULL, 16), FASTSM2_ERR_ARG);
    /* streaming: init */
    CHECK_STATUS(fastsm2_sm4_gcm_init(NULL, 1, &key, iv, 12), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_sm4_gcm_init(&c, 2, &key, iv, 12), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_sm4_gcm_init(&c, 1, NULL, iv, 12), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_sm4_gcm_init(&c, 1, &key, iv, 0), FASTSM2_ERR_IV);
    CHECK_STATUS(fastsm2_sm4_gcm_aad(&c, buf, 1), FASTSM2_ERR_STATE); /* init failed */
    /* AAD after text; finals of the wrong direction; after final */
    CHECK_STATUS(fastsm2_sm4_gcm_init(&c, 1, &key, iv, 12), FASTSM2_OK);
    CHECK_STATUS(fastsm2_sm4_gcm_aad(&c, NULL, 1), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_sm4_gcm_aad(&c, buf, 3), FASTSM2_OK);
    CHECK_STATUS(fastsm2_sm4_gcm_update(&c, o, buf, 5), FASTSM2_OK);
    CHECK_STATUS(fastsm2_sm4_gcm_aad(&c, buf, 3), FASTSM2_ERR_STATE);
    CHECK_STATUS(fastsm2_sm4_gcm_update(&c, NULL, buf, 5), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_sm4_gcm_decrypt_final(&c, t, 16), FASTSM2_ERR_STATE);
    CHECK(fs2t_all_zero(&c, sizeof c)); /* every final wipes */
    CHECK_STATUS(fastsm2_sm4_gcm_update(&c, o, buf, 5), FASTSM2_ERR_STATE);
    CHECK_STATUS(fastsm2_sm4_gcm_encrypt_final(&c, t, 16), FASTSM2_ERR_STATE);
    CHECK_STATUS(fastsm2_sm4_gcm_init(&c, 0, &key, iv, 12), FASTSM2_OK);
    CHECK_STATUS(fastsm2_sm4_gcm_encrypt_final(&c, t, 16), FASTSM2_ERR_STATE);
    CHECK_STATUS(fastsm2_sm4_gcm_init(&c, 1, &key, iv, 12), FASTSM2_OK);
    CHECK_STATUS(fastsm2_sm4_gcm_encrypt_final(&c, t, 2), FASTSM2_ERR_LENGTH);
    CHECK_STATUS(fastsm2_sm4_gcm_init(&c, 0, &key, iv, 12), FASTSM2_OK);
    CHECK_STATUS(fastsm2_sm4_gcm_decrypt_final(&c, NULL, 16), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_sm4_gcm_decrypt_final(NULL, t, 16), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_sm4_gcm_encrypt_final(NULL, t, 16), FASTSM2_ERR_ARG);
    /* the length limit, 2^36 - 32 bytes of text */
    CHECK_STATUS(fastsm2_sm4_gcm_init(&c, 1, &key, iv, 12), FASTSM2_OK);
    fs2_sm4_gcm_skip_text(&c, ((uint64_t)1 << 36) - 32 - 20);
    CHECK_STATUS(fastsm2_sm4_gcm_update(&c, o, buf, 20), FASTSM2_OK);
    memset(o, 0x55, sizeof o);
    CHECK_STATUS(fastsm2_sm4_gcm_update(&c, o, buf, 1), FASTSM2_ERR_LENGTH);
    CHECK(o[0] == 0 && o[1] == 0x55);
    CHECK_STATUS(fastsm2_sm4_gcm_encrypt_final(&c, t, 16), FASTSM2_OK);
    fastsm2_sm4_gcm_clear(&c);
    fastsm2_sm4_gcm_clear(NULL);
    fastsm2_sm4_key_clear(&key);
}

static void test_ccm_errors(void)
{
    fastsm2_sm4_key key;
    static unsigned char big[65537];
    unsigned char t[16], o[64];
    sm4t_rand_key(&key, NULL);
    memset(iv, 3, 13);
    for (size_t nl = 0; nl <= 16; nl++) {
        int want = nl >= 7 && nl <= 13 ? FASTSM2_OK : FASTSM2_ERR_IV;
        CHECK_STATUS(fastsm2_sm4_ccm_encrypt(o, t, 16, &key, iv, nl, NULL, 0, o, 16), want);
    }
    for (size_t tl = 0; tl <= 18; tl++) {
        int want = tl >= 4 && tl <= 16 && tl % 2 == 0 ? FASTSM2_OK : FASTSM2_ERR_LENGTH;
        memset(t, 0x55, sizeof t);
        CHECK_STATUS(fastsm2_sm4_ccm_encrypt(o, t, tl, &key, iv, 12, NULL, 0, o, 16), want);
        if (want != FASTSM2_OK)
            CHECK(fs2t_all_zero(t, tl < 16 ? tl : 16));
        CHECK_STATUS(fastsm2_sm4_ccm_decrypt(o, &key, iv, 12, NULL, 0, o, 16, t, tl), want); /* round trip */
    }
    /* nonce of 13 bytes: the length field has 2 bytes, below 2^16 */
    CHECK_STATUS(fastsm2_sm4_ccm_encrypt(big, t, 16, &key, iv, 13, NULL, 0, big, 65535), FASTSM2_OK);
    CHECK_STATUS(fastsm2_sm4_ccm_decrypt(big, &key, iv, 13, NULL, 0, big, 65535, t, 16), FASTSM2_OK);
    big[65535] = 0x55;
    CHECK_STATUS(fastsm2_sm4_ccm_encrypt(big, t, 16, &key, iv, 13, NULL, 0, big, 65536), FASTSM2_ERR_LENGTH);
    CHECK(fs2t_all_zero(big, 65536));
    CHECK_STATUS(fastsm2_sm4_ccm_encrypt(o, t, 16, &key, NULL, 12, NULL, 0, o, 16), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_sm4_ccm_encrypt(o, NULL, 16, &key, iv, 12, NULL, 0, o, 16), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_sm4_ccm_encrypt(o, t, 16, NULL, iv, 12, NULL, 0, o, 16), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_sm4_ccm_encrypt(o, t, 16, &key, iv, 12, NULL, 3, o, 16), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_sm4_ccm_encrypt(NULL, t, 16, &key, iv, 12, NULL, 0, o, 16), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_sm4_ccm_encrypt(NULL, t, 16, &key, iv, 12, NULL, 0, NULL, 0), FASTSM2_OK);
    CHECK_STATUS(fastsm2_sm4_ccm_decrypt(NULL, &key, iv, 12, NULL, 0, NULL, 0, t, 16), FASTSM2_OK);
    CHECK_STATUS(fastsm2_sm4_ccm_decrypt(o, &key, iv, 12, NULL, 0, NULL, 16, t, 16), FASTSM2_ERR_ARG);
    fastsm2_sm4_key_clear(&key);
}

int main(void)
{
    const fs2_sm4_ops *tables[16];
    size_t n = sm4t_tables(tables, 16);
    for (size_t i = 0; i < n; i++) {
        printf("SM4 table %s\n", tables[i]->name);
        fs2_sm4_force(tables[i]);
        test_gcm_vectors();
        test_ccm_vectors();
        test_tamper();
        test_gcm_wrap();
        test_gcm_errors();
        test_ccm_errors();
    }
    fs2_sm4_force(NULL);
    return fs2t_finish("test_sm4_aead");
}
