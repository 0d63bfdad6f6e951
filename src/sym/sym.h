/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The symmetric primitives of the library besides the public SM4 API
 * (src/sym/sm4*.c, over the SM4 seam src/sm4/): what password-encrypted
 * key files need (RFC 8018 PBES2): AES-256 (FIPS 197), the hash SHA-256
 * (FIPS 180-4), HMAC (RFC 2104) over SM3 or SHA-256, PBKDF2 (RFC 8018
 * clause 5.2), and CBC with PKCS#7 padding over SM4 or AES-256. Internal
 * to the library; only HMAC-SM3 and SM4 are public (include/fastsm2.h).
 *
 * Constant time: keys, passwords and plaintexts are secrets. No branch and
 * no memory index depends on them. AES's S-box is computed, not looked up:
 * an inversion in GF(2^8) (as x^254, by masked shift-and-xor
 * multiplication, eight bytes at once in a 64-bit word) between two affine
 * maps, as FIPS 197 defines them. That is slow (a few microseconds a
 * block) and fine for key files, which hold a few blocks.
 */
#ifndef FS2_SYM_H
#define FS2_SYM_H

#include "internal.h"

/* ---- SM4-GCM --------------------------------------------------------------- */

/* For the tests of GCM's length limit (2^36 - 32 bytes of text): count len
 * more bytes of text in a streaming context without processing any. */
FS2_HIDDEN void fs2_sm4_gcm_skip_text(fastsm2_sm4_gcm_ctx *ctx, uint64_t len);

/* ---- AES-256, FIPS 197 ----------------------------------------------------- */

typedef struct {
    unsigned char rk[15][16]; /* round keys (clause 5.2) */
} fs2_aes256_key;

FS2_HIDDEN void fs2_aes256_set_key(fs2_aes256_key *k, const unsigned char key[32]);
FS2_HIDDEN void fs2_aes256_encrypt(const fs2_aes256_key *k, unsigned char out[16], const unsigned char in[16]);
FS2_HIDDEN void fs2_aes256_decrypt(const fs2_aes256_key *k, unsigned char out[16], const unsigned char in[16]);

/* ---- CBC with PKCS#7 padding (RFC 8018 B.2.5), either cipher ------------- */

#define FS2_CIPHER_SM4    1
#define FS2_CIPHER_AES256 2

typedef struct {
    int cipher;
    union {
        fastsm2_sm4_key sm4;
        fs2_aes256_key aes;
    } k;
} fs2_block_key;

/* Key length of a cipher: 16 (SM4) or 32 (AES-256). */
FS2_HIDDEN size_t fs2_cipher_key_len(int cipher);
FS2_HIDDEN void fs2_block_set_key(fs2_block_key *bk, int cipher, const unsigned char *key);
/* Encrypt len bytes padded to a whole number of blocks: out gets
 * (len / 16 + 1) * 16 bytes. */
FS2_HIDDEN void fs2_cbc_encrypt_pad(const fs2_block_key *bk, unsigned char *out, const unsigned char iv[16],
                                    const unsigned char *in, size_t len);
/* Decrypt len bytes (a non-zero multiple of 16) into out (len bytes) and
 * check the padding in constant time; *outlen = length without it.
 * Returns 1 if the padding is well formed, else 0 (and *outlen = 0). The
 * outcome is declassified: it is what a wrong password reveals anyway. */
FS2_HIDDEN int fs2_cbc_decrypt_unpad(const fs2_block_key *bk, unsigned char *out, size_t *outlen,
                                     const unsigned char iv[16], const unsigned char *in, size_t len);

/* ---- SHA-256, FIPS 180-4 --------------------------------------------------- */

typedef struct {
    uint32_t h[8];
    uint64_t nbytes;
    unsigned char buf[64];
    uint32_t buflen;
} fs2_sha256_ctx;

FS2_HIDDEN void fs2_sha256_init(fs2_sha256_ctx *c);
FS2_HIDDEN void fs2_sha256_update(fs2_sha256_ctx *c, const void *data, size_t len);
/* Writes the digest and wipes c. */
FS2_HIDDEN void fs2_sha256_final(unsigned char out[32], fs2_sha256_ctx *c);
FS2_HIDDEN void fs2_sha256(unsigned char out[32], const void *data, size_t len);

/* ---- HMAC (RFC 2104) and PBKDF2 (RFC 8018 5.2) over SM3 or SHA-256 ------- */

#define FS2_HASH_SM3    1
#define FS2_HASH_SHA256 2

typedef union {
    fastsm2_sm3_ctx sm3;
    fs2_sha256_ctx sha256;
} fs2_hash_ctx;

/* may_alias: the public fastsm2_hmac_sm3_ctx is reached through a cast. */
typedef struct {
    int hash;
    fs2_hash_ctx inner, outer; /* keyed with K ^ ipad, K ^ opad */
} __attribute__((may_alias)) fs2_hmac_ctx;

/* Both hashes have 64-byte blocks and 32-byte digests. */
FS2_HIDDEN void fs2_hmac_init(fs2_hmac_ctx *h, int hash, const void *key, size_t keylen);
FS2_HIDDEN void fs2_hmac_update(fs2_hmac_ctx *h, const void *data, size_t len);
/* Writes the 32-byte MAC and wipes h. */
FS2_HIDDEN void fs2_hmac_final(unsigned char out[32], fs2_hmac_ctx *h);

/* PBKDF2 with HMAC-<hash>: outlen bytes of derived key from the password,
 * salt and iteration count (>= 1). */
FS2_HIDDEN void fs2_pbkdf2(unsigned char *out, size_t outlen, int hash, const void *pw, size_t pwlen,
                           const unsigned char *salt, size_t saltlen, uint32_t iterations);

#endif
