/* SPDX-License-Identifier: Apache-2.0 */
/*
 * HMAC (RFC 2104) over SM3 (GB/T 32905) or SHA-256, PBKDF2 (RFC 8018 clause
 * 5.2) and CBC with PKCS#7 padding (RFC 8018 B.2.5 / 6.1.1) over SM4 or
 * AES-256; the public HMAC-SM3 calls. See sym.h.
 */
#include "sym.h"

#include "ct.h"

/* ---- the two hashes behind one interface (public choice, no secret) ---- */

static void hash_init(int hash, fs2_hash_ctx *c)
{
    if (hash == FS2_HASH_SM3)
        fastsm2_sm3_init(&c->sm3);
    else
        fs2_sha256_init(&c->sha256);
}

static void hash_update(int hash, fs2_hash_ctx *c, const void *p, size_t n)
{
    if (hash == FS2_HASH_SM3)
        fastsm2_sm3_update(&c->sm3, p, n);
    else
        fs2_sha256_update(&c->sha256, p, n);
}

static void hash_final(int hash, unsigned char out[32], fs2_hash_ctx *c)
{
    if (hash == FS2_HASH_SM3)
        fastsm2_sm3_final(out, &c->sm3);
    else
        fs2_sha256_final(out, &c->sha256);
}

/* ---- HMAC ------------------------------------------------------------- */

void fs2_hmac_init(fs2_hmac_ctx *h, int hash, const void *key, size_t keylen)
{
    unsigned char k[64], pad[64];
    memset(k, 0, sizeof k);
    h->hash = hash;
    if (keylen > 64) { /* RFC 2104 clause 2: a long key is hashed first */
        hash_init(hash, &h->inner);
        hash_update(hash, &h->inner, key, keylen);
        hash_final(hash, k, &h->inner);
    } else if (keylen > 0) {
        memcpy(k, key, keylen);
    }
    for (int i = 0; i < 64; i++)
        pad[i] = (unsigned char)(k[i] ^ 0x36);
    hash_init(hash, &h->inner);
    hash_update(hash, &h->inner, pad, 64);
    for (int i = 0; i < 64; i++)
        pad[i] = (unsigned char)(k[i] ^ 0x5C);
    hash_init(hash, &h->outer);
    hash_update(hash, &h->outer, pad, 64);
    fs2_wipe(k, sizeof k);
    fs2_wipe(pad, sizeof pad);
}

void fs2_hmac_update(fs2_hmac_ctx *h, const void *data, size_t len)
{
    hash_update(h->hash, &h->inner, data, len);
}

void fs2_hmac_final(unsigned char out[32], fs2_hmac_ctx *h)
{
    unsigned char ih[32];
    hash_final(h->hash, ih, &h->inner);
    hash_update(h->hash, &h->outer, ih, 32);
    hash_final(h->hash, out, &h->outer);
    fs2_wipe(ih, sizeof ih);
    fs2_wipe(h, sizeof *h);
}

/* ---- PBKDF2 ----------------------------------------------------------- */

void fs2_pbkdf2(unsigned char *out, size_t outlen, int hash, const void *pw, size_t pwlen, const unsigned char *salt,
                size_t saltlen, uint32_t iterations)
{
    fs2_hmac_ctx keyed, h;
    unsigned char u[32], t[32], be[4];

    /* The password is keyed into HMAC once; each U_j starts from a copy. */
    fs2_hmac_init(&keyed, hash, pw, pwlen);
    for (uint32_t block = 1; outlen > 0; block++) {
        /* T_i = U_1 ^ ... ^ U_c, U_1 = PRF(P, S || INT(i)), U_j = PRF(P, U_{j-1}) */
        fs2_store32_be(be, block);
        h = keyed;
        fs2_hmac_update(&h, salt, saltlen);
        fs2_hmac_update(&h, be, 4);
        fs2_hmac_final(u, &h);
        memcpy(t, u, 32);
        for (uint32_t j = 1; j < iterations; j++) {
            h = keyed;
            fs2_hmac_update(&h, u, 32);
            fs2_hmac_final(u, &h);
            for (int i = 0; i < 32; i++)
                t[i] ^= u[i];
        }
        size_t k = outlen < 32 ? outlen : 32;
        memcpy(out, t, k);
        out += k;
        outlen -= k;
    }
    fs2_wipe(&keyed, sizeof keyed);
    fs2_wipe(&h, sizeof h);
    fs2_wipe(u, sizeof u);
    fs2_wipe(t, sizeof t);
}

/* ---- CBC -------------------------------------------------------------- */

size_t fs2_cipher_key_len(int cipher)
{
    return cipher == FS2_CIPHER_AES256 ? 32 : 16;
}

void fs2_block_set_key(fs2_block_key *bk, int cipher, const unsigned char *key)
{
    bk->cipher = cipher;
    if (cipher == FS2_CIPHER_AES256) {
        fs2_aes256_set_key(&bk->k.aes, key);
    } else {
        int st = fastsm2_sm4_key_init(&bk->k.sm4, key);
        (void)st; /* FASTSM2_OK: neither pointer is NULL */
    }
}

void fs2_cbc_encrypt_pad(const fs2_block_key *bk, unsigned char *out, const unsigned char iv[16],
                         const unsigned char *in, size_t len)
{
    unsigned char x[16], chain[16];
    size_t total = (len / 16 + 1) * 16;
    if (bk->cipher == FS2_CIPHER_SM4) {
        int st = fastsm2_sm4_cbc_encrypt(out, &total, &bk->k.sm4, iv, FASTSM2_SM4_PAD_PKCS7, in, len);
        (void)st; /* FASTSM2_OK: the capacity is the padded length */
        return;
    }
    unsigned char pad = (unsigned char)(total - len); /* 1..16: public, from the length */
    memcpy(chain, iv, 16);
    for (size_t off = 0; off < total; off += 16) {
        for (size_t i = 0; i < 16; i++)
            x[i] = (unsigned char)((off + i < len ? in[off + i] : pad) ^ chain[i]);
        fs2_aes256_encrypt(&bk->k.aes, out + off, x);
        memcpy(chain, out + off, 16);
    }
    fs2_wipe(x, sizeof x);
}

int fs2_cbc_decrypt_unpad(const fs2_block_key *bk, unsigned char *out, size_t *outlen, const unsigned char iv[16],
                          const unsigned char *in, size_t len)
{
    unsigned char x[16], chain[16];
    *outlen = 0;
    if (len == 0 || len % 16 != 0)
        return 0;
    if (bk->cipher == FS2_CIPHER_SM4) {
        /* the padding's outcome and length are declassified there */
        size_t n = len;
        if (fastsm2_sm4_cbc_decrypt(out, &n, &bk->k.sm4, iv, FASTSM2_SM4_PAD_PKCS7, in, len) != FASTSM2_OK)
            return 0;
        *outlen = n;
        return 1;
    }
    memcpy(chain, iv, 16);
    for (size_t off = 0; off < len; off += 16) {
        fs2_aes256_decrypt(&bk->k.aes, x, in + off);
        for (size_t i = 0; i < 16; i++)
            out[off + i] = (unsigned char)(x[i] ^ chain[i]);
        memcpy(chain, in + off, 16);
    }
    fs2_wipe(x, sizeof x);
    /* The padding: the last byte p in 1..16 and the last p bytes equal to
     * p, checked without a branch on the plaintext. */
    uint32_t p = out[len - 1], bad = 0;
    bad |= ((p - 1u) >> 8) & 1u;  /* p == 0 */
    bad |= ((16u - p) >> 8) & 1u; /* p > 16 */
    for (uint32_t i = 0; i < 16; i++) {
        uint32_t in_pad = ((i - p) >> 8) & 1u; /* i < p */
        uint32_t diff = out[len - 1 - i] ^ p;
        bad |= fs2_ct_mask_u32(in_pad) & ((0u - diff) >> 31);
    }
    /* Public by design: whether the password was right, and the length of
     * the key's DER (the same for every SM2 key). */
    fs2_declassify(&bad, sizeof bad);
    fs2_declassify(&p, sizeof p);
    if (bad)
        return 0;
    *outlen = len - p;
    return 1;
}

/* ---- HMAC-SM3, the public calls ----------------------------------------- */

_Static_assert(sizeof(fs2_hmac_ctx) <= sizeof(fastsm2_hmac_sm3_ctx), "fastsm2_hmac_sm3_ctx too small");
_Static_assert(_Alignof(fs2_hmac_ctx) <= _Alignof(fastsm2_hmac_sm3_ctx), "fastsm2_hmac_sm3_ctx under-aligned");

int fastsm2_hmac_sm3_init(fastsm2_hmac_sm3_ctx *ctx, const void *key, size_t keylen)
{
    if (ctx == NULL)
        return FASTSM2_ERR_ARG;
    if (key == NULL && keylen != 0) {
        fs2_wipe(ctx, sizeof *ctx);
        return FASTSM2_ERR_ARG;
    }
    memset(ctx, 0, sizeof *ctx);
    fs2_hmac_init((fs2_hmac_ctx *)ctx, FS2_HASH_SM3, key, keylen);
    return FASTSM2_OK;
}

void fastsm2_hmac_sm3_update(fastsm2_hmac_sm3_ctx *ctx, const void *data, size_t len)
{
    if (ctx == NULL || (data == NULL && len != 0))
        return;
    fs2_hmac_update((fs2_hmac_ctx *)ctx, data, len);
}

void fastsm2_hmac_sm3_final(unsigned char out[32], fastsm2_hmac_sm3_ctx *ctx)
{
    if (ctx == NULL || out == NULL)
        return;
    fs2_hmac_final(out, (fs2_hmac_ctx *)ctx);
    fs2_wipe(ctx, sizeof *ctx);
}

int fastsm2_hmac_sm3(unsigned char out[32], const void *key, size_t keylen, const void *msg, size_t msglen)
{
    fs2_hmac_ctx h;
    if (out == NULL)
        return FASTSM2_ERR_ARG;
    if ((key == NULL && keylen != 0) || (msg == NULL && msglen != 0)) {
        memset(out, 0, 32);
        return FASTSM2_ERR_ARG;
    }
    fs2_hmac_init(&h, FS2_HASH_SM3, key, keylen);
    fs2_hmac_update(&h, msg, msglen);
    fs2_hmac_final(out, &h);
    return FASTSM2_OK;
}
