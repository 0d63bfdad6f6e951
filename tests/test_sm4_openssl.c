/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SM4-GCM, SM4-CCM and SM4-XTS (both xts_standard values) against the
 * libcrypto this test runs with, both ways (OpenSSL's output opened here,
 * ours opened there), on random keys, IVs of 1 to 128 bytes, nonces of 7
 * to 13, tags of 4 to 16, AAD and text of random lengths: where that
 * libcrypto has them (OpenSSL 3.2 on; 3.0 and 3.1 have neither, and the
 * modes it lacks are named and skipped). `make test-openssl` runs this
 * against OpenSSL 3.0.2, the system's, 3.5.5 and 4.0.3; test_sm4_modes
 * covers ECB, CBC, CTR, OFB and CFB against every 3.x.
 */
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include "sm4t.h"
#include "testossl.h"

#define MAXLEN 600

static EVP_CIPHER *fetch(const char *name)
{
    EVP_CIPHER *c = EVP_CIPHER_fetch(NULL, name, NULL);
    if (c == NULL)
        printf("%s: this libcrypto (%s) has none, skipped\n", name, OpenSSL_version(OPENSSL_VERSION_STRING));
    return c;
}

/* GCM or CCM through EVP: encrypt (tag out) or decrypt (tag in; returns 0
 * when OpenSSL refuses it). */
static int ossl_aead(EVP_CIPHER *ci, int ccm, int enc, const unsigned char *k, const unsigned char *iv, size_t ivlen,
                     const unsigned char *aad, size_t aadlen, const unsigned char *in, size_t len, unsigned char *out,
                     unsigned char *tag, size_t taglen)
{
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    int l = 0, ok = 1;
    if (!c || !EVP_CipherInit_ex(c, ci, NULL, NULL, NULL, enc) ||
        !EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_IVLEN, (int)ivlen, NULL) ||
        ((ccm || !enc) && !EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_SET_TAG, (int)taglen, enc ? NULL : tag)) ||
        !EVP_CipherInit_ex(c, NULL, NULL, k, iv, enc) || (ccm && !EVP_CipherUpdate(c, NULL, &l, NULL, (int)len)) ||
        (aadlen && !EVP_CipherUpdate(c, NULL, &l, aad, (int)aadlen)))
        fs2t_ossl_die("SM4 AEAD set-up");
    if (!EVP_CipherUpdate(c, out, &l, in, (int)len))
        ok = 0; /* CCM checks its tag here */
    if (ok && !EVP_CipherFinal_ex(c, out + l, &l))
        ok = 0;
    if (ok && enc && !EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, (int)taglen, tag))
        fs2t_ossl_die("SM4 AEAD tag");
    EVP_CIPHER_CTX_free(c);
    return ok;
}

static void test_aead(EVP_CIPHER *ci, int ccm)
{
    static unsigned char aad[300], pt[MAXLEN], a[MAXLEN], b[MAXLEN];
    unsigned long cases = 0, ok = 0;
    for (int iter = 0; iter < 120; iter++) {
        unsigned char k[16], iv[128], ta[16], tb[16];
        fastsm2_sm4_key key;
        sm4t_rand_key(&key, k);
        size_t ivlen = ccm ? 7 + fs2t_rand_below(7) : iter % 4 == 0 ? 12 : 1 + fs2t_rand_below(128);
        size_t taglen = ccm ? 4 + 2 * fs2t_rand_below(7) : 4 + fs2t_rand_below(13);
        fs2t_rand_bytes(iv, ivlen);
        size_t aadlen = fs2t_rand_len_bytes(aad, 0, iter % 8 == 0 ? 0 : sizeof aad);
        size_t len = fs2t_rand_len_bytes(pt, 0, iter % 9 == 0 ? 0 : MAXLEN);
        int st = ccm ? fastsm2_sm4_ccm_encrypt(a, ta, taglen, &key, iv, ivlen, aad, aadlen, pt, len)
                     : fastsm2_sm4_gcm_encrypt(a, ta, taglen, &key, iv, ivlen, aad, aadlen, pt, len);
        int same = st == FASTSM2_OK && ossl_aead(ci, ccm, 1, k, iv, ivlen, aad, aadlen, pt, len, b, tb, taglen) &&
                   memcmp(a, b, len) == 0 && memcmp(ta, tb, taglen) == 0;
        /* ours opened by OpenSSL, and a changed tag refused there */
        int theirs_open =
            ossl_aead(ci, ccm, 0, k, iv, ivlen, aad, aadlen, a, len, b, ta, taglen) && memcmp(b, pt, len) == 0;
        ta[fs2t_rand_below(taglen)] ^= 1;
        int theirs_refuse = !ossl_aead(ci, ccm, 0, k, iv, ivlen, aad, aadlen, a, len, b, ta, taglen);
        /* theirs opened here */
        st = ccm ? fastsm2_sm4_ccm_decrypt(a, &key, iv, ivlen, aad, aadlen, a, len, tb, taglen)
                 : fastsm2_sm4_gcm_decrypt(a, &key, iv, ivlen, aad, aadlen, a, len, tb, taglen);
        int ours_open = st == FASTSM2_OK && memcmp(a, pt, len) == 0;
        cases++;
        fs2t_count(&ok, same && theirs_open && theirs_refuse && ours_open,
                   "%s iv %zu tag %zu aad %zu text %zu: same %d, OpenSSL opens %d refuses %d, we open %d",
                   ccm ? "CCM" : "GCM", ivlen, taglen, aadlen, len, same, theirs_open, theirs_refuse, ours_open);
        fastsm2_sm4_key_clear(&key);
    }
    CHECK(ok == cases);
    printf("  %s: %lu of %lu random cases agree with OpenSSL both ways\n", ccm ? "SM4-CCM" : "SM4-GCM", ok, cases);
}

static int ossl_xts(EVP_CIPHER *ci, int enc, const unsigned char k[32], const unsigned char tweak[16], const char *std,
                    const unsigned char *in, size_t len, unsigned char *out)
{
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    OSSL_PARAM p[2] = {OSSL_PARAM_construct_utf8_string("xts_standard", (char *)std, 0), OSSL_PARAM_construct_end()};
    int l = 0;
    if (!c || !EVP_CipherInit_ex2(c, ci, k, tweak, enc, p) || !EVP_CipherUpdate(c, out, &l, in, (int)len) ||
        (size_t)l != len)
        fs2t_ossl_die("SM4-XTS");
    EVP_CIPHER_CTX_free(c);
    return 1;
}

static void test_xts(EVP_CIPHER *ci)
{
    static unsigned char pt[MAXLEN], a[MAXLEN], b[MAXLEN];
    unsigned long cases = 0, ok = 0;
    for (int iter = 0; iter < 80; iter++) {
        unsigned char k[32], tweak[16];
        fastsm2_sm4_key k1, k2;
        int std = iter & 1;
        fs2t_rand_bytes(k, 32);
        fs2t_rand_bytes(tweak, 16);
        CHECK_STATUS(fastsm2_sm4_key_init(&k1, k), FASTSM2_OK);
        CHECK_STATUS(fastsm2_sm4_key_init(&k2, k + 16), FASTSM2_OK);
        size_t len = fs2t_rand_len_bytes(pt, 16, iter < 20 ? 64 : MAXLEN);
        const char *name = std ? "IEEE" : "GB";
        int st = fastsm2_sm4_xts_encrypt(a, &k1, &k2, std, tweak, pt, len);
        ossl_xts(ci, 1, k, tweak, name, pt, len, b);
        int same = st == FASTSM2_OK && memcmp(a, b, len) == 0;
        ossl_xts(ci, 0, k, tweak, name, a, len, b);
        int theirs_open = memcmp(b, pt, len) == 0;
        st = fastsm2_sm4_xts_decrypt(b, &k1, &k2, std, tweak, a, len);
        int ours_open = st == FASTSM2_OK && memcmp(b, pt, len) == 0;
        cases++;
        fs2t_count(&ok, same && theirs_open && ours_open, "XTS %s len %zu: same %d, OpenSSL opens %d, we open %d", name,
                   len, same, theirs_open, ours_open);
        fastsm2_sm4_key_clear(&k1);
        fastsm2_sm4_key_clear(&k2);
    }
    CHECK(ok == cases);
    printf("  SM4-XTS: %lu of %lu random cases agree with OpenSSL (xts_standard GB and IEEE)\n", ok, cases);
}

int main(void)
{
    const fs2_sm4_ops *tables[16];
    size_t n = sm4t_tables(tables, 16);
    EVP_CIPHER *gcm = fetch("SM4-GCM"), *ccm = fetch("SM4-CCM"), *xts = fetch("SM4-XTS");
    if (!gcm && !ccm && !xts) {
        CHECK(OpenSSL_version_num() < 0x30200000UL); /* 3.2 on has all three */
        return fs2t_skip("test_sm4_openssl", "no SM4-GCM, SM4-CCM or SM4-XTS in this libcrypto");
    }
    for (size_t i = 0; i < n; i++) {
        printf("SM4 table %s\n", tables[i]->name);
        fs2_sm4_force(tables[i]);
        if (gcm)
            test_aead(gcm, 0);
        if (ccm)
            test_aead(ccm, 1);
        if (xts)
            test_xts(xts);
    }
    fs2_sm4_force(NULL);
    EVP_CIPHER_free(gcm);
    EVP_CIPHER_free(ccm);
    EVP_CIPHER_free(xts);
    return fs2t_finish("test_sm4_openssl");
}
