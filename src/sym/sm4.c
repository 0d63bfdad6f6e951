/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SM4 block cipher, GB/T 32907-2016, in constant time (see sym.h).
 *
 * The S-box of clause 6.2 is computed: S(x) = A(I(A(x) + C)) + C, where I is
 * the inversion in GF(2^8) modulo x^8+x^7+x^6+x^5+x^4+x^2+1, A the
 * circulant affine map whose rows are the rotations of 0xA7, and C = 0xD3
 * (the algebraic structure of the SM4 S-box published since 2008). The
 * known-answer tests (the standard's example A.1 and a million-fold
 * iteration, A.2) and a differential test against OpenSSL check that this
 * is the standard's table.
 */
#include "sym.h"

#include "gf256.h"

#define SM4_RED 0xF5u

/* A(x) + C on every byte: y_i = x_i + x_{i+1} + x_{i+2} + x_{i+5} + x_{i+7}
 * (bit indices mod 8; the set bits of 0xA7), then + 0xD3. */
static uint64_t sm4_affine(uint64_t x)
{
    return x ^ fs2_gf_rotr(x, 1) ^ fs2_gf_rotr(x, 2) ^ fs2_gf_rotr(x, 5) ^ fs2_gf_rotr(x, 7) ^ (0xD3u * FS2_GF_LSB);
}

/* tau (clause 6.2): the S-box on each byte of a word. */
static uint32_t sm4_tau(uint32_t a)
{
    uint64_t x = a;
    uint64_t y = sm4_affine(fs2_gf_inv(sm4_affine(x), SM4_RED));
    return (uint32_t)y; /* the upper four lanes held S(0) */
}

static inline uint32_t rotl32(uint32_t x, unsigned n)
{
    return (x << n) | (x >> (32 - n));
}

/* T (clause 6.2): L(tau(.)) with L(B) = B + B<<<2 + B<<<10 + B<<<18 + B<<<24. */
static uint32_t sm4_t(uint32_t a)
{
    uint32_t b = sm4_tau(a);
    return b ^ rotl32(b, 2) ^ rotl32(b, 10) ^ rotl32(b, 18) ^ rotl32(b, 24);
}

/* T' (clause 7.3): L'(B) = B + B<<<13 + B<<<23. */
static uint32_t sm4_t_key(uint32_t a)
{
    uint32_t b = sm4_tau(a);
    return b ^ rotl32(b, 13) ^ rotl32(b, 23);
}

void fs2_sm4_set_key(fs2_sm4_key *k, const unsigned char key[16])
{
    /* FK (clause 7.3) */
    static const uint32_t fk[4] = {0xA3B1BAC6u, 0x56AA3350u, 0x677D9197u, 0xB27022DCu};
    uint32_t w[4];
    for (int i = 0; i < 4; i++)
        w[i] = fs2_load32_be(key + 4 * i) ^ fk[i];
    for (unsigned i = 0; i < 32; i++) {
        /* CK_i: bytes (4i + j) * 7 mod 256, j = 0..3 (clause 7.3). */
        uint32_t ck = 0;
        for (unsigned j = 0; j < 4; j++)
            ck = (ck << 8) | (((4 * i + j) * 7) & 0xFFu);
        uint32_t nk = w[0] ^ sm4_t_key(w[1] ^ w[2] ^ w[3] ^ ck);
        k->rk[i] = nk;
        w[0] = w[1];
        w[1] = w[2];
        w[2] = w[3];
        w[3] = nk;
    }
    fs2_wipe(w, sizeof w);
}

/* The 32 rounds (clause 7.1) with round keys in the order given. */
static void sm4_rounds(const uint32_t rk[32], int reverse, unsigned char out[16], const unsigned char in[16])
{
    uint32_t x[4];
    for (int i = 0; i < 4; i++)
        x[i] = fs2_load32_be(in + 4 * i);
    for (int i = 0; i < 32; i++) {
        uint32_t n = x[0] ^ sm4_t(x[1] ^ x[2] ^ x[3] ^ rk[reverse ? 31 - i : i]);
        x[0] = x[1];
        x[1] = x[2];
        x[2] = x[3];
        x[3] = n;
    }
    /* R: the last four words in reverse order. */
    for (int i = 0; i < 4; i++)
        fs2_store32_be(out + 4 * i, x[3 - i]);
    fs2_wipe(x, sizeof x);
}

void fs2_sm4_encrypt(const fs2_sm4_key *k, unsigned char out[16], const unsigned char in[16])
{
    sm4_rounds(k->rk, 0, out, in);
}

/* Decryption is encryption with the round keys reversed (clause 7.2). */
void fs2_sm4_decrypt(const fs2_sm4_key *k, unsigned char out[16], const unsigned char in[16])
{
    sm4_rounds(k->rk, 1, out, in);
}
