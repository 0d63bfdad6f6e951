/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SM4, the block cipher and its keys (GB/T 32907-2016), on every SM4 table
 * this CPU can run: the standard's examples (A.1 on every table, the
 * 1,000,000-fold A.2 on the table in use), the round keys, ECB against
 * OpenSSL's SM4-ECB on random data (unaligned, in place), keys made under
 * one table used under another, the key object's errors, and the choice of
 * table (fastsm2_sm4_backend_name/_available, FASTSM2_SM4, FASTSM2_CPU).
 */
#include <openssl/evp.h>

#include "sm4t.h"
#include "testossl.h"

/* ECB through OpenSSL (no padding); exits on an OpenSSL failure. */
static void ossl_ecb(unsigned char *out, const unsigned char k[16], const unsigned char *in, size_t len, int enc)
{
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    int l1 = 0, l2 = 0;
    if (!c || !EVP_CipherInit_ex(c, EVP_sm4_ecb(), NULL, k, NULL, enc) || !EVP_CIPHER_CTX_set_padding(c, 0) ||
        !EVP_CipherUpdate(c, out, &l1, in, (int)len) || !EVP_CipherFinal_ex(c, out + l1, &l2) ||
        (size_t)(l1 + l2) != len)
        fs2t_ossl_die("SM4-ECB");
    EVP_CIPHER_CTX_free(c);
}

static void test_examples(const fs2_sm4_ops *t)
{
    unsigned char k[16], p[16], want[16], out[16];
    fastsm2_sm4_key key;
    sm4t_field(k, 16, "sm4-block-a1", "key");
    sm4t_field(p, 16, "sm4-block-a1", "plaintext");
    sm4t_field(want, 16, "sm4-block-a1", "ciphertext");
    CHECK_STATUS(fastsm2_sm4_key_init(&key, k), FASTSM2_OK);
    CHECK_STATUS(fastsm2_sm4_ecb_encrypt(out, &key, p, 16), FASTSM2_OK);
    CHECK(memcmp(out, want, 16) == 0);
    CHECK_STATUS(fastsm2_sm4_ecb_decrypt(out, &key, out, 16), FASTSM2_OK);
    CHECK(memcmp(out, p, 16) == 0);
    /* the round keys the standard lists */
    const fs2_sm4_key *ik = (const fs2_sm4_key *)&key;
    CHECK(ik->rk[0] == (uint32_t)strtoul(fs2t_vector_file(SM4T_VECTORS, "sm4-block-a1", "rk0"), NULL, 16));
    CHECK(ik->rk[31] == (uint32_t)strtoul(fs2t_vector_file(SM4T_VECTORS, "sm4-block-a1", "rk31"), NULL, 16));
    CHECK(ik->rkd[0] == ik->rk[31] && ik->rkd[31] == ik->rk[0]);
    CHECK(fs2_sm4_self_test(t) == 1);
    fastsm2_sm4_key_clear(&key);
}

/* A.2: one block encrypted 1,000,000 times, one call each (the table in
 * use only: a million calls). */
static void test_million(void)
{
    unsigned char k[16], x[16], want[16];
    fastsm2_sm4_key key;
    int st = 0;
    sm4t_field(k, 16, "sm4-block-a2", "key");
    sm4t_field(x, 16, "sm4-block-a2", "plaintext");
    sm4t_field(want, 16, "sm4-block-a2", "ciphertext");
    long times = strtol(fs2t_vector_file(SM4T_VECTORS, "sm4-block-a2", "times"), NULL, 10);
    CHECK(times == 1000000);
    CHECK_STATUS(fastsm2_sm4_key_init(&key, k), FASTSM2_OK);
    for (long i = 0; i < times; i++)
        st |= fastsm2_sm4_ecb_encrypt(x, &key, x, 16) ^ FASTSM2_OK;
    CHECK(st == 0);
    CHECK(memcmp(x, want, 16) == 0);
    printf("A.2 (1,000,000 encryptions) on %s: %s\n", fastsm2_sm4_backend_name(),
           memcmp(x, want, 16) == 0 ? "ok" : "WRONG");
}

/* ECB against OpenSSL: random keys and lengths, unaligned buffers, in
 * place. */
static void test_ecb_openssl(void)
{
    static unsigned char in[16 * 70 + 16], out[16 * 70 + 16], want[16 * 70];
    for (int iter = 0; iter < 40; iter++) {
        unsigned char k[16];
        fastsm2_sm4_key key;
        size_t len = 16 * fs2t_rand_below(70), off = fs2t_rand_below(16);
        sm4t_rand_key(&key, k);
        fs2t_rand_bytes(in + off, len);
        int enc = iter & 1;
        ossl_ecb(want, k, in + off, len, enc);
        int st = enc ? fastsm2_sm4_ecb_encrypt(out + 15 - off, &key, in + off, len)
                     : fastsm2_sm4_ecb_decrypt(out + 15 - off, &key, in + off, len);
        CHECK(st == FASTSM2_OK && memcmp(out + 15 - off, want, len) == 0);
        st = enc ? fastsm2_sm4_ecb_encrypt(in + off, &key, in + off, len)
                 : fastsm2_sm4_ecb_decrypt(in + off, &key, in + off, len);
        CHECK(st == FASTSM2_OK && memcmp(in + off, want, len) == 0);
    }
}

/* Key objects are the same bytes under every table, and one made under
 * one table works under another. */
static void test_keys_across(const fs2_sm4_ops *const *tables, size_t n)
{
    unsigned char k[16], p[64], c0[64], c1[64];
    fastsm2_sm4_key ref, key;
    fs2t_rand_bytes(k, 16);
    fs2t_rand_bytes(p, sizeof p);
    fs2_sm4_force(tables[0]);
    CHECK_STATUS(fastsm2_sm4_key_init(&ref, k), FASTSM2_OK);
    CHECK_STATUS(fastsm2_sm4_ecb_encrypt(c0, &ref, p, sizeof p), FASTSM2_OK);
    for (size_t i = 1; i < n; i++) {
        fs2_sm4_force(tables[i]);
        CHECK_STATUS(fastsm2_sm4_key_init(&key, k), FASTSM2_OK);
        CHECK(memcmp(&key, &ref, sizeof key) == 0);
        CHECK_STATUS(fastsm2_sm4_ecb_encrypt(c1, &ref, p, sizeof p), FASTSM2_OK);
        CHECK(memcmp(c0, c1, sizeof c0) == 0);
    }
    fs2_sm4_force(NULL);
}

static void test_key_errors(void)
{
    unsigned char k[16] = {1}, buf[32] = {0}, garbage[sizeof(fastsm2_sm4_key)];
    fastsm2_sm4_key key;
    CHECK_STATUS(fastsm2_sm4_key_init(NULL, k), FASTSM2_ERR_ARG);
    memset(&key, 0xA5, sizeof key);
    CHECK_STATUS(fastsm2_sm4_key_init(&key, NULL), FASTSM2_ERR_ARG);
    CHECK(fs2t_all_zero(&key, sizeof key));
    /* a key never made, a cleared one, random bytes: FASTSM2_ERR_ARG and
     * the output zeroed */
    memset(buf, 0x55, sizeof buf);
    CHECK_STATUS(fastsm2_sm4_ecb_encrypt(buf, &key, buf, 16), FASTSM2_ERR_ARG);
    CHECK(fs2t_all_zero(buf, 16));
    CHECK_STATUS(fastsm2_sm4_key_init(&key, k), FASTSM2_OK);
    fastsm2_sm4_key_clear(&key);
    CHECK(fs2t_all_zero(&key, sizeof key));
    CHECK_STATUS(fastsm2_sm4_ecb_decrypt(buf, &key, buf, 16), FASTSM2_ERR_ARG);
    fs2t_rand_bytes(garbage, sizeof garbage);
    memcpy(&key, garbage, sizeof key);
    CHECK_STATUS(fastsm2_sm4_ecb_encrypt(buf, &key, buf, 16), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_sm4_ecb_encrypt(buf, NULL, buf, 16), FASTSM2_ERR_ARG);
    fastsm2_sm4_key_clear(NULL); /* fine */
    /* ECB's lengths and pointers */
    CHECK_STATUS(fastsm2_sm4_key_init(&key, k), FASTSM2_OK);
    memset(buf, 0x55, sizeof buf);
    CHECK_STATUS(fastsm2_sm4_ecb_encrypt(buf, &key, buf, 17), FASTSM2_ERR_LENGTH);
    CHECK(fs2t_all_zero(buf, 17));
    CHECK_STATUS(fastsm2_sm4_ecb_decrypt(buf, &key, buf, 15), FASTSM2_ERR_LENGTH);
    CHECK_STATUS(fastsm2_sm4_ecb_encrypt(NULL, &key, buf, 16), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_sm4_ecb_encrypt(buf, &key, NULL, 16), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_sm4_ecb_encrypt(NULL, &key, NULL, 0), FASTSM2_OK);
    CHECK_STATUS(fastsm2_sm4_ecb_decrypt(buf, &key, buf, 0), FASTSM2_OK);
    fastsm2_sm4_key_clear(&key);
}

/* The names: what _available lists is what FASTSM2_SM4 takes, and the
 * table in use is among them. */
static void test_choice(const fs2_sm4_ops *const *tables, size_t n)
{
    const char *name;
    size_t i = 0;
    int in_use_listed = 0;
    for (; (name = fastsm2_sm4_backend_available(i)) != NULL; i++) {
        CHECK(i < n && strcmp(name, tables[i]->name) == 0);
        in_use_listed |= strcmp(name, fastsm2_sm4_backend_name()) == 0;
    }
    CHECK(i == n && in_use_listed);
    CHECK(strcmp(fastsm2_sm4_backend_available(0), "generic") == 0);
    /* the environment, read again by fs2_sm4_force(NULL) */
    const char *cpu = getenv("FASTSM2_CPU");
    char *saved_cpu = cpu ? strdup(cpu) : NULL;
    unsetenv("FASTSM2_CPU");
    for (size_t k = 0; k < n; k++) {
        setenv("FASTSM2_SM4", tables[k]->name, 1);
        fs2_sm4_force(NULL);
        CHECK(strcmp(fastsm2_sm4_backend_name(), tables[k]->name) == 0);
    }
    setenv("FASTSM2_SM4", "no-such-table", 1);
    fs2_sm4_force(NULL);
    CHECK(strcmp(fastsm2_sm4_backend_name(), tables[n > 1 ? 1 : 0]->name) == 0); /* the default */
    unsetenv("FASTSM2_SM4");
    setenv("FASTSM2_CPU", "generic", 1);
    fs2_sm4_force(NULL);
    CHECK(strcmp(fastsm2_sm4_backend_name(), "generic") == 0);
    if (saved_cpu)
        setenv("FASTSM2_CPU", saved_cpu, 1);
    else
        unsetenv("FASTSM2_CPU");
    free(saved_cpu);
    fs2_sm4_force(NULL);
}

int main(void)
{
    const fs2_sm4_ops *tables[16];
    size_t n = sm4t_tables(tables, 16);
    CHECK(n >= 1 && tables[0] == &fs2_sm4_ops_generic);
    printf("SM4 in use: %s\n", fastsm2_sm4_backend_name());
    test_million();
    for (size_t i = 0; i < n; i++) {
        printf("SM4 table %s\n", tables[i]->name);
        fs2_sm4_force(tables[i]);
        test_examples(tables[i]);
        test_ecb_openssl();
        test_key_errors();
    }
    fs2_sm4_force(NULL);
    test_keys_across(tables, n);
    test_choice(tables, n);
    return fs2t_finish("test_sm4");
}
