/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SM4-XTS in both orders of the tweak (GB/T 17964-2021 and IEEE 1619) on
 * every SM4 table this CPU can run: the cases of
 * tests/vectors/sm4-examples.txt (whole blocks and ciphertext stealing),
 * decryption back to the plaintext for every length from 16 to 100 bytes
 * and some longer, in place and unaligned, the two orders differing from
 * the second block on, OpenSSL's rule of no encryption under key1 == key2,
 * and the errors the header names. (tests/test_sm4_openssl.c compares
 * with OpenSSL's xts_standard where it has SM4-XTS.)
 */
#include "sm4t.h"

static void test_vectors(void)
{
    static const char *const stds[2] = {"gb", "ieee"};
    static const int lens[] = {16, 17, 32, 47, 64};
    for (int s = 0; s < 2; s++)
        for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
            char section[64];
            unsigned char k[32], tweak[16], pt[64], ct[64], out[64];
            fastsm2_sm4_key k1, k2;
            snprintf(section, sizeof section, "sm4-xts-%s-%d", stds[s], lens[i]);
            sm4t_field(k, 32, section, "key");
            sm4t_field(tweak, 16, section, "tweak");
            size_t n = sm4t_field(pt, 64, section, "plaintext");
            CHECK(sm4t_field(ct, 64, section, "ciphertext") == n && n == (size_t)lens[i]);
            CHECK(strcmp(fs2t_vector_file(SM4T_VECTORS, section, "standard"), s ? "IEEE" : "GB") == 0);
            int std = s ? FASTSM2_SM4_XTS_IEEE : FASTSM2_SM4_XTS_GB;
            CHECK_STATUS(fastsm2_sm4_key_init(&k1, k), FASTSM2_OK);
            CHECK_STATUS(fastsm2_sm4_key_init(&k2, k + 16), FASTSM2_OK);
            CHECK_STATUS(fastsm2_sm4_xts_encrypt(out, &k1, &k2, std, tweak, pt, n), FASTSM2_OK);
            CHECK(memcmp(out, ct, n) == 0);
            CHECK_STATUS(fastsm2_sm4_xts_decrypt(out, &k1, &k2, std, tweak, out, n), FASTSM2_OK);
            CHECK(memcmp(out, pt, n) == 0);
            fastsm2_sm4_key_clear(&k1);
            fastsm2_sm4_key_clear(&k2);
        }
}

static void test_round_trips(void)
{
    static unsigned char pt[2100], ct[2100 + 16], back[2100 + 16], other[2100];
    fastsm2_sm4_key k1, k2;
    unsigned char tweak[16];
    sm4t_rand_key(&k1, NULL);
    sm4t_rand_key(&k2, NULL);
    for (size_t len = 16; len <= 140; len++) {
        size_t n = len <= 100 ? len : 16 + fs2t_rand_below(2084);
        size_t off = fs2t_rand_below(16);
        fs2t_rand_bytes(tweak, 16);
        fs2t_rand_bytes(pt, n);
        for (int std = FASTSM2_SM4_XTS_GB; std <= FASTSM2_SM4_XTS_IEEE; std++) {
            CHECK_STATUS(fastsm2_sm4_xts_encrypt(ct + off, &k1, &k2, std, tweak, pt, n), FASTSM2_OK);
            CHECK_STATUS(fastsm2_sm4_xts_decrypt(back + 15 - off, &k1, &k2, std, tweak, ct + off, n), FASTSM2_OK);
            CHECK(memcmp(back + 15 - off, pt, n) == 0);
            /* in place, both ways */
            memcpy(back, pt, n);
            CHECK_STATUS(fastsm2_sm4_xts_encrypt(back, &k1, &k2, std, tweak, back, n), FASTSM2_OK);
            CHECK(memcmp(back, ct + off, n) == 0);
            CHECK_STATUS(fastsm2_sm4_xts_decrypt(back, &k1, &k2, std, tweak, back, n), FASTSM2_OK);
            CHECK(memcmp(back, pt, n) == 0);
            if (std == FASTSM2_SM4_XTS_GB)
                memcpy(other, ct + off, n);
        }
        /* the orders share the first block's tweak and then part */
        CHECK(memcmp(other, ct + off, 16) == 0 || n < 32);
        if (n >= 32)
            CHECK(memcmp(other + 16, ct + off + 16, 16) != 0);
    }
    fastsm2_sm4_key_clear(&k1);
    fastsm2_sm4_key_clear(&k2);
}

static void test_errors(void)
{
    static unsigned char big[(1 << 24) + 1];
    unsigned char k[16] = {5}, tweak[16] = {1}, buf[64] = {2}, o[64];
    fastsm2_sm4_key k1, k2;
    CHECK_STATUS(fastsm2_sm4_key_init(&k1, k), FASTSM2_OK);
    CHECK_STATUS(fastsm2_sm4_key_init(&k2, k), FASTSM2_OK);
    /* equal keys: encryption refused, decryption accepted */
    memset(o, 0x55, sizeof o);
    CHECK_STATUS(fastsm2_sm4_xts_encrypt(o, &k1, &k2, FASTSM2_SM4_XTS_GB, tweak, buf, 32), FASTSM2_ERR_ARG);
    CHECK(fs2t_all_zero(o, 32) && o[32] == 0x55);
    CHECK_STATUS(fastsm2_sm4_xts_decrypt(o, &k1, &k2, FASTSM2_SM4_XTS_GB, tweak, buf, 32), FASTSM2_OK);
    k[15] = 1;
    CHECK_STATUS(fastsm2_sm4_key_init(&k2, k), FASTSM2_OK);
    CHECK_STATUS(fastsm2_sm4_xts_encrypt(o, &k1, &k2, FASTSM2_SM4_XTS_GB, tweak, buf, 32), FASTSM2_OK);
    /* lengths */
    memset(o, 0x55, sizeof o);
    CHECK_STATUS(fastsm2_sm4_xts_encrypt(o, &k1, &k2, FASTSM2_SM4_XTS_IEEE, tweak, buf, 15), FASTSM2_ERR_LENGTH);
    CHECK(fs2t_all_zero(o, 15) && o[15] == 0x55);
    CHECK_STATUS(fastsm2_sm4_xts_decrypt(o, &k1, &k2, FASTSM2_SM4_XTS_IEEE, tweak, buf, 0), FASTSM2_ERR_LENGTH);
    CHECK_STATUS(fastsm2_sm4_xts_encrypt(big, &k1, &k2, FASTSM2_SM4_XTS_IEEE, tweak, big, 1 << 24), FASTSM2_OK);
    CHECK_STATUS(fastsm2_sm4_xts_decrypt(big, &k1, &k2, FASTSM2_SM4_XTS_IEEE, tweak, big, 1 << 24), FASTSM2_OK);
    CHECK(fs2t_all_zero(big, 1 << 24));
    big[0] = 1;
    CHECK_STATUS(fastsm2_sm4_xts_encrypt(big, &k1, &k2, FASTSM2_SM4_XTS_IEEE, tweak, big, (1 << 24) + 1),
                 FASTSM2_ERR_LENGTH);
    CHECK(big[0] == 0);
    /* arguments */
    CHECK_STATUS(fastsm2_sm4_xts_encrypt(o, &k1, &k2, 2, tweak, buf, 32), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_sm4_xts_encrypt(o, &k1, &k2, -1, tweak, buf, 32), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_sm4_xts_encrypt(o, NULL, &k2, 0, tweak, buf, 32), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_sm4_xts_encrypt(o, &k1, NULL, 0, tweak, buf, 32), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_sm4_xts_encrypt(o, &k1, &k2, 0, NULL, buf, 32), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_sm4_xts_decrypt(o, &k1, &k2, 0, tweak, NULL, 32), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_sm4_xts_decrypt(NULL, &k1, &k2, 0, tweak, buf, 32), FASTSM2_ERR_ARG);
    fastsm2_sm4_key_clear(&k1);
    fastsm2_sm4_key_clear(&k2);
}

int main(void)
{
    const fs2_sm4_ops *tables[16];
    size_t n = sm4t_tables(tables, 16);
    for (size_t i = 0; i < n; i++) {
        printf("SM4 table %s\n", tables[i]->name);
        fs2_sm4_force(tables[i]);
        test_vectors();
        test_round_trips();
        test_errors();
    }
    fs2_sm4_force(NULL);
    return fs2t_finish("test_sm4_xts");
}
