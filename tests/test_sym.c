/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The symmetric primitives of src/sym (password-encrypted key files):
 * SM4, AES-256, SHA-256, HMAC-SM3 / HMAC-SHA256, PBKDF2, CBC with PKCS#7
 * padding. Known answers from the standards, then random inputs against
 * OpenSSL 3's EVP implementations.
 */
#include "testutil.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <stdlib.h>
#include <string.h>

#include "sym/sym.h"

static void check_hex(const unsigned char *got, size_t n, const char *want_hex)
{
    unsigned char want[128];
    size_t wl = fs2t_unhex(want, sizeof want, want_hex);
    CHECK(wl == n && memcmp(got, want, n) == 0);
    if (wl != n || memcmp(got, want, n) != 0) {
        char h[257];
        fs2t_hex(h, got, n);
        fprintf(stderr, "  got  %s\n  want %s\n", h, want_hex);
    }
}

/* ---- known answers ------------------------------------------------------ */

static void test_aes_kat(void)
{
    /* FIPS 197 appendix C.3 (AES-256). */
    unsigned char k[32], p[16], out[16], back[16];
    fs2_aes256_key key;
    fs2t_unhex(k, 32, "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
    fs2t_unhex(p, 16, "00112233445566778899aabbccddeeff");
    fs2_aes256_set_key(&key, k);
    fs2_aes256_encrypt(&key, out, p);
    check_hex(out, 16, "8ea2b7ca516745bfeafc49904b496089");
    fs2_aes256_decrypt(&key, back, out);
    CHECK(memcmp(back, p, 16) == 0);
    /* The last word of the key expansion example (FIPS 197 A.3: w[59]). */
    fs2t_unhex(k, 32, "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4");
    fs2_aes256_set_key(&key, k);
    check_hex(key.rk[14] + 12, 4, "706c631e");
}

static void test_sha256_kat(void)
{
    /* FIPS 180-4 examples (NIST CSRC "SHA256.pdf"): "abc", the 448-bit
     * message, and the empty string. */
    unsigned char out[32];
    fs2_sha256(out, "abc", 3);
    check_hex(out, 32, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    fs2_sha256(out, m, strlen(m));
    check_hex(out, 32, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    fs2_sha256(out, "", 0);
    check_hex(out, 32, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

static void test_hmac_kat(void)
{
    /* RFC 4231 test case 2 (HMAC-SHA256, key "Jefe"). */
    fs2_hmac_ctx h;
    unsigned char out[32];
    const char *msg = "what do ya want for nothing?";
    fs2_hmac_init(&h, FS2_HASH_SHA256, "Jefe", 4);
    fs2_hmac_update(&h, msg, strlen(msg));
    fs2_hmac_final(out, &h);
    check_hex(out, 32, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    /* RFC 4231 test case 6: a 131-byte key (hashed first). */
    unsigned char key[131];
    memset(key, 0xAA, sizeof key);
    msg = "Test Using Larger Than Block-Size Key - Hash Key First";
    fs2_hmac_init(&h, FS2_HASH_SHA256, key, sizeof key);
    fs2_hmac_update(&h, msg, strlen(msg));
    fs2_hmac_final(out, &h);
    check_hex(out, 32, "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}

static void test_pbkdf2_kat(void)
{
    /* RFC 7914 clause 11 (PBKDF2-HMAC-SHA256). */
    unsigned char out[64];
    fs2_pbkdf2(out, 64, FS2_HASH_SHA256, "passwd", 6, (const unsigned char *)"salt", 4, 1);
    check_hex(out, 64,
              "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
              "49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783");
    fs2_pbkdf2(out, 64, FS2_HASH_SHA256, "Password", 8, (const unsigned char *)"NaCl", 4, 80000);
    check_hex(out, 64,
              "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56"
              "a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d");
}

/* ---- against OpenSSL ---------------------------------------------------- */

/* OpenSSL's one-block ECB (no padding) encryption, or decryption. */
static void ossl_block(const EVP_CIPHER *c, int enc, const unsigned char *key, unsigned char out[16],
                       const unsigned char in[16])
{
    EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
    int n = 0, m = 0;
    CHECK(EVP_CipherInit_ex(x, c, NULL, key, NULL, enc) == 1);
    EVP_CIPHER_CTX_set_padding(x, 0);
    CHECK(EVP_CipherUpdate(x, out, &n, in, 16) == 1 && EVP_CipherFinal_ex(x, out + n, &m) == 1 && n + m == 16);
    EVP_CIPHER_CTX_free(x);
}

/* Our encryption and decryption of the block p under key k are OpenSSL's. */
static void check_block(const EVP_CIPHER *c, const unsigned char *k, const unsigned char p[16],
                        const unsigned char enc[16], const unsigned char dec[16])
{
    unsigned char want[16];
    ossl_block(c, 1, k, want, p);
    CHECK(memcmp(enc, want, 16) == 0);
    ossl_block(c, 0, k, want, p);
    CHECK(memcmp(dec, want, 16) == 0);
}

static void test_ciphers_vs_openssl(void)
{
    for (int i = 0; i < 300; i++) {
        unsigned char k[32], p[16], a[16], b[16];
        fs2t_rand_bytes(k, 32);
        fs2t_rand_bytes(p, 16);
        fastsm2_sm4_key sk; /* the public SM4 of key files (tests/test_sm4*.c test it in full) */
        CHECK_STATUS(fastsm2_sm4_key_init(&sk, k), FASTSM2_OK);
        CHECK_STATUS(fastsm2_sm4_ecb_encrypt(a, &sk, p, 16), FASTSM2_OK);
        CHECK_STATUS(fastsm2_sm4_ecb_decrypt(b, &sk, p, 16), FASTSM2_OK);
        check_block(EVP_sm4_ecb(), k, p, a, b);
        fs2_aes256_key ak;
        fs2_aes256_set_key(&ak, k);
        fs2_aes256_encrypt(&ak, a, p);
        fs2_aes256_decrypt(&ak, b, p);
        check_block(EVP_aes_256_ecb(), k, p, a, b);
    }
}

/* CBC with padding, every length 0..80, both ciphers: OpenSSL decrypts
 * ours, we decrypt OpenSSL's. */
static void test_cbc_vs_openssl(void)
{
    for (int cipher = FS2_CIPHER_SM4; cipher <= FS2_CIPHER_AES256; cipher++) {
        const EVP_CIPHER *ec = cipher == FS2_CIPHER_SM4 ? EVP_sm4_cbc() : EVP_aes_256_cbc();
        for (size_t len = 0; len <= 80; len++) {
            unsigned char k[32], iv[16], msg[80], ours[96], theirs[112], back[112];
            int n = 0, m = 0;
            size_t blen;
            fs2t_rand_bytes(k, 32);
            fs2t_rand_bytes(iv, 16);
            fs2t_rand_bytes(msg, sizeof msg);
            fs2_block_key bk;
            fs2_block_set_key(&bk, cipher, k);
            fs2_cbc_encrypt_pad(&bk, ours, iv, msg, len);
            size_t ctlen = (len / 16 + 1) * 16;
            EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
            CHECK(EVP_EncryptInit_ex(x, ec, NULL, k, iv) == 1);
            CHECK(EVP_EncryptUpdate(x, theirs, &n, msg, (int)len) == 1 && EVP_EncryptFinal_ex(x, theirs + n, &m) == 1);
            EVP_CIPHER_CTX_free(x);
            CHECK((size_t)(n + m) == ctlen && memcmp(ours, theirs, ctlen) == 0);
            CHECK(fs2_cbc_decrypt_unpad(&bk, back, &blen, iv, theirs, ctlen) == 1);
            CHECK(blen == len && memcmp(back, msg, len) == 0);
        }
    }
}

/* Bad padding of every kind is refused; good padding of every length is
 * accepted. The plaintexts are built, then encrypted (raw CBC, OpenSSL). */
static void test_cbc_padding(void)
{
    unsigned char k[16], iv[16], plain[32], ct[32], back[32];
    size_t blen;
    fs2t_rand_bytes(k, 16);
    fs2t_rand_bytes(iv, 16);
    fs2_block_key bk;
    fs2_block_set_key(&bk, FS2_CIPHER_SM4, k);
    for (int pad = 0; pad <= 255; pad++) {
        for (int variant = 0; variant < 2; variant++) {
            fs2t_rand_bytes(plain, 32);
            int good = pad >= 1 && pad <= 16;
            if (good)
                memset(plain + 32 - pad, pad, (size_t)pad);
            plain[31] = (unsigned char)pad;
            if (variant == 1 && pad >= 2 && pad <= 16) { /* one pad byte wrong */
                plain[32 - pad] ^= 0x40;
                good = 0;
            }
            int n = 0;
            EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
            CHECK(EVP_EncryptInit_ex(x, EVP_sm4_cbc(), NULL, k, iv) == 1);
            EVP_CIPHER_CTX_set_padding(x, 0);
            CHECK(EVP_EncryptUpdate(x, ct, &n, plain, 32) == 1 && n == 32);
            EVP_CIPHER_CTX_free(x);
            int r = fs2_cbc_decrypt_unpad(&bk, back, &blen, iv, ct, 32);
            CHECK(r == good);
            CHECK(good ? blen == (size_t)(32 - pad) : blen == 0);
        }
    }
    CHECK(fs2_cbc_decrypt_unpad(&bk, back, &blen, iv, ct, 0) == 0);
    CHECK(fs2_cbc_decrypt_unpad(&bk, back, &blen, iv, ct, 17) == 0);
}

static void test_hash_mac_vs_openssl(void)
{
    static unsigned char msg[300], key[200];
    for (int i = 0; i < 200; i++) {
        size_t ml = (size_t)(fs2t_rand_u64() % sizeof msg), kl = (size_t)(fs2t_rand_u64() % sizeof key);
        unsigned char a[32], b[32];
        unsigned int bl = 0;
        fs2t_rand_bytes(msg, sizeof msg);
        fs2t_rand_bytes(key, sizeof key);
        /* SHA-256, fed in two pieces */
        fs2_sha256_ctx c;
        size_t cut = ml ? (size_t)(fs2t_rand_u64() % ml) : 0;
        fs2_sha256_init(&c);
        fs2_sha256_update(&c, msg, cut);
        fs2_sha256_update(&c, msg + cut, ml - cut);
        fs2_sha256_final(a, &c);
        CHECK(EVP_Digest(msg, ml, b, &bl, EVP_sha256(), NULL) == 1 && bl == 32);
        CHECK(memcmp(a, b, 32) == 0);
        /* HMAC over both hashes, and the public HMAC-SM3 calls */
        for (int hash = FS2_HASH_SM3; hash <= FS2_HASH_SHA256; hash++) {
            fs2_hmac_ctx h;
            fs2_hmac_init(&h, hash, key, kl);
            fs2_hmac_update(&h, msg, cut);
            fs2_hmac_update(&h, msg + cut, ml - cut);
            fs2_hmac_final(a, &h);
            CHECK(HMAC(hash == FS2_HASH_SM3 ? EVP_sm3() : EVP_sha256(), key, (int)kl, msg, ml, b, &bl) != NULL &&
                  bl == 32);
            CHECK(memcmp(a, b, 32) == 0);
        }
        CHECK_STATUS(fastsm2_hmac_sm3(a, key, kl, msg, ml), FASTSM2_OK);
        CHECK(HMAC(EVP_sm3(), key, (int)kl, msg, ml, b, &bl) != NULL && memcmp(a, b, 32) == 0);
        fastsm2_hmac_sm3_ctx pc;
        CHECK_STATUS(fastsm2_hmac_sm3_init(&pc, key, kl), FASTSM2_OK);
        for (size_t off = 0, step; off < ml; off += step) {
            step = fs2t_rand_piece(ml - off, 1, 70);
            fastsm2_hmac_sm3_update(&pc, msg + off, step);
        }
        fastsm2_hmac_sm3_final(a, &pc);
        CHECK(memcmp(a, b, 32) == 0);
        CHECK(fs2t_all_zero(&pc, sizeof pc)); /* final wipes */
    }
    /* Bad arguments. */
    unsigned char out[32];
    memset(out, 0xAA, 32);
    CHECK_STATUS(fastsm2_hmac_sm3(out, NULL, 1, "x", 1), FASTSM2_ERR_ARG);
    CHECK(fs2t_all_zero(out, 32));
    CHECK_STATUS(fastsm2_hmac_sm3(out, "k", 1, NULL, 1), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_hmac_sm3(NULL, "k", 1, "x", 1), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_hmac_sm3_init(NULL, "k", 1), FASTSM2_ERR_ARG);
    fastsm2_hmac_sm3_ctx pc;
    CHECK_STATUS(fastsm2_hmac_sm3_init(&pc, NULL, 3), FASTSM2_ERR_ARG);
    CHECK_STATUS(fastsm2_hmac_sm3(out, NULL, 0, NULL, 0), FASTSM2_OK); /* empty key, empty message */
    unsigned int bl = 0;
    unsigned char b[32];
    CHECK(HMAC(EVP_sm3(), "", 0, (const unsigned char *)"", 0, b, &bl) != NULL && memcmp(out, b, 32) == 0);
}

static void test_pbkdf2_vs_openssl(void)
{
    for (int i = 0; i < 40; i++) {
        unsigned char pw[100], salt[40], a[80], b[80];
        size_t pl = (size_t)(fs2t_rand_u64() % sizeof pw), sl = 1 + (size_t)(fs2t_rand_u64() % (sizeof salt - 1));
        size_t ol = 1 + (size_t)(fs2t_rand_u64() % sizeof a);
        uint32_t iter = 1 + (uint32_t)(fs2t_rand_u64() % 300);
        fs2t_rand_bytes(pw, sizeof pw);
        fs2t_rand_bytes(salt, sizeof salt);
        for (int hash = FS2_HASH_SM3; hash <= FS2_HASH_SHA256; hash++) {
            fs2_pbkdf2(a, ol, hash, pw, pl, salt, sl, iter);
            CHECK(PKCS5_PBKDF2_HMAC((const char *)pw, (int)pl, salt, (int)sl, (int)iter,
                                    hash == FS2_HASH_SM3 ? EVP_sm3() : EVP_sha256(), (int)ol, b) == 1);
            CHECK(memcmp(a, b, ol) == 0);
        }
    }
}

int main(void)
{
    test_aes_kat();
    test_sha256_kat();
    test_hmac_kat();
    test_pbkdf2_kat();
    test_ciphers_vs_openssl();
    test_cbc_vs_openssl();
    test_cbc_padding();
    test_hash_mac_vs_openssl();
    test_pbkdf2_vs_openssl();
    return fs2t_finish("test_sym");
}
