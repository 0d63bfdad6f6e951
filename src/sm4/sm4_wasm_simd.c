/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SM4 table of WebAssembly builds with SIMD (-msimd128, the npm
 * package's fastsm2-simd.wasm), "wasm-simd".
 *
 * The S-box on 16 bytes at once by 12 i8x16.swizzle lookups of nibbles
 * (sm4_wasm_sbox.h: the vector-permute form, with the inversion in
 * GF((2^4)^2); tools/gen_sm4_sbox.py derives its tables), less its output
 * constant, which the round keys carry (keys_init). Then L (clause 6.2)
 * on 32-bit lanes, its four rotations by shifts.
 *
 * Several blocks: four per vector, transposed (vector j holds word j of
 * four blocks), the round key splatted, two such groups side by side
 * where there are 8 blocks (the rounds are latency-bound); CTR builds its
 * counters in that form. One block (CBC encryption, CBC-MAC): each word
 * splatted into a vector, the same rounds.
 *
 * Constant time: every lookup is a swizzle of one of 8 fixed table
 * vectors, a shuffle instruction in every engine (PSHUFB/VPSHUFB on x86,
 * TBL on AArch64) whose time does not depend on its index bytes; the
 * tables are loaded from fixed addresses whatever the data; no branch
 * depends on keys or data, only on the block counts. The whole file is
 * for WebAssembly with SIMD; elsewhere it compiles to nothing.
 */
#include "sm4_ops.h"

#if defined(__wasm_simd128__)
#include <string.h>
#include <wasm_simd128.h>

#include "sm4_wasm_sbox.h"

/* The S-box's tables (sm4_wasm_sbox.h). */
static const unsigned char tables[FS2_SM4_VP_BYTES] __attribute__((aligned(16))) = {FS2_SM4_VP_TABLE_DATA};
/* Read through a volatile pointer, once per call: clang would otherwise
 * fold the loads into v128.const values, which V8 builds in a register
 * with several instructions each, where a load is one. */
static const unsigned char *const volatile tables_at = tables;

static inline v128_t rotl32x4(v128_t x, int n)
{
    return wasm_v128_or(wasm_i32x4_shl(x, n), wasm_u32x4_shr(x, 32 - n));
}

/* x ^ L(b) in each 32-bit lane, L (clause 6.2) b ^ (b <<< 2) ^ (b <<< 10)
 * ^ (b <<< 18) ^ (b <<< 24): the rotations by shifts (V8 would build the
 * mask of a byte shuffle in a register each time, four instructions), all
 * four side by side and the six terms XORed as a tree, which keeps the
 * chain from b short (the rounds are latency-bound). */
static inline v128_t xor_lin4(v128_t x, v128_t b)
{
    return wasm_v128_xor(wasm_v128_xor(wasm_v128_xor(x, b), wasm_v128_xor(rotl32x4(b, 2), rotl32x4(b, 10))),
                         wasm_v128_xor(rotl32x4(b, 18), rotl32x4(b, 24)));
}

/* What the rounds use: the S-box's tables and the round keys splatted,
 * with the S-box's output constant moved into them. S(x) = S'(x) ^ 0xD3
 * with S' fs2_sm4_vp_sbox_lin, so a round adds L(S'(.)) ^ LC to its word,
 * LC = L(0xD3D3D3D3). The rounds keep Y_k = X_k ^ d_k instead of X_k, with
 * d_k = LC where k / 4 is odd and 0 elsewhere (d_(k+4) = d_k ^ LC absorbs
 * each round's LC); the round function's input X_(i+1) ^ X_(i+2) ^ X_(i+3)
 * ^ rk_i is then Y_(i+1) ^ Y_(i+2) ^ Y_(i+3) ^ rk'_i with rk'_i = rk_i ^
 * d_(i+1) ^ d_(i+2) ^ d_(i+3), and the outputs X_32 .. X_35 are Y_32 ..
 * Y_35 (d = 0 there). One XOR fewer per S-box layer. */
typedef struct {
    fs2_sm4_vp t;
    v128_t rk[32];
} keys;

static inline uint32_t rotl32(uint32_t x, unsigned n)
{
    return (x << n) | (x >> (32 - n));
}

static inline uint32_t lin(uint32_t b)
{
    return b ^ rotl32(b, 2) ^ rotl32(b, 10) ^ rotl32(b, 18) ^ rotl32(b, 24);
}

static inline uint32_t offset(int k)
{
    return (k >> 2) & 1 ? lin(0xD3D3D3D3u) : 0; /* k is public */
}

static inline void keys_init(keys *k, const uint32_t rk[32])
{
    fs2_sm4_vp_load(&k->t, tables_at);
    for (int i = 0; i < 32; i++)
        k->rk[i] = wasm_i32x4_splat((int32_t)(rk[i] ^ offset(i + 1) ^ offset(i + 2) ^ offset(i + 3)));
}

static inline void keys_wipe(keys *k)
{
    fs2_wipe(k->rk, sizeof k->rk);
}

/* x ^ T(a) (one round) on each 32-bit lane. */
static inline v128_t round4(const keys *k, v128_t x, v128_t a)
{
    return xor_lin4(x, fs2_sm4_vp_sbox_lin(&k->t, a));
}

/* 32 rounds on 4 blocks in transposed form (x[j]: word j of each block),
 * x becomes R's order (X35, X34, X33, X32). */
static inline void rounds4(const keys *k, v128_t x[4])
{
    v128_t x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3];
    for (int i = 0; i < 32; i += 4) {
        x0 = round4(k, x0, wasm_v128_xor(wasm_v128_xor(x1, x2), wasm_v128_xor(x3, k->rk[i])));
        x1 = round4(k, x1, wasm_v128_xor(wasm_v128_xor(x2, x3), wasm_v128_xor(x0, k->rk[i + 1])));
        x2 = round4(k, x2, wasm_v128_xor(wasm_v128_xor(x3, x0), wasm_v128_xor(x1, k->rk[i + 2])));
        x3 = round4(k, x3, wasm_v128_xor(wasm_v128_xor(x0, x1), wasm_v128_xor(x2, k->rk[i + 3])));
    }
    x[0] = x3;
    x[1] = x2;
    x[2] = x1;
    x[3] = x0;
}

/* rounds4 on two groups of 4 blocks side by side: the rounds are
 * latency-bound, and the two chains fill each other's gaps. */
static inline void rounds8(const keys *k, v128_t x[4], v128_t y[4])
{
    v128_t x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3];
    v128_t y0 = y[0], y1 = y[1], y2 = y[2], y3 = y[3];
    for (int i = 0; i < 32; i += 4) {
        x0 = round4(k, x0, wasm_v128_xor(wasm_v128_xor(x1, x2), wasm_v128_xor(x3, k->rk[i])));
        y0 = round4(k, y0, wasm_v128_xor(wasm_v128_xor(y1, y2), wasm_v128_xor(y3, k->rk[i])));
        x1 = round4(k, x1, wasm_v128_xor(wasm_v128_xor(x2, x3), wasm_v128_xor(x0, k->rk[i + 1])));
        y1 = round4(k, y1, wasm_v128_xor(wasm_v128_xor(y2, y3), wasm_v128_xor(y0, k->rk[i + 1])));
        x2 = round4(k, x2, wasm_v128_xor(wasm_v128_xor(x3, x0), wasm_v128_xor(x1, k->rk[i + 2])));
        y2 = round4(k, y2, wasm_v128_xor(wasm_v128_xor(y3, y0), wasm_v128_xor(y1, k->rk[i + 2])));
        x3 = round4(k, x3, wasm_v128_xor(wasm_v128_xor(x0, x1), wasm_v128_xor(x2, k->rk[i + 3])));
        y3 = round4(k, y3, wasm_v128_xor(wasm_v128_xor(y0, y1), wasm_v128_xor(y2, k->rk[i + 3])));
    }
    x[0] = x3;
    x[1] = x2;
    x[2] = x1;
    x[3] = x0;
    y[0] = y3;
    y[1] = y2;
    y[2] = y1;
    y[3] = y0;
}

/* 4 x 4 transpose of 32-bit words. */
static inline void transpose4(v128_t x[4])
{
    v128_t t0 = wasm_i32x4_shuffle(x[0], x[1], 0, 4, 1, 5), t1 = wasm_i32x4_shuffle(x[0], x[1], 2, 6, 3, 7);
    v128_t t2 = wasm_i32x4_shuffle(x[2], x[3], 0, 4, 1, 5), t3 = wasm_i32x4_shuffle(x[2], x[3], 2, 6, 3, 7);
    x[0] = wasm_i64x2_shuffle(t0, t2, 0, 2);
    x[1] = wasm_i64x2_shuffle(t0, t2, 1, 3);
    x[2] = wasm_i64x2_shuffle(t1, t3, 0, 2);
    x[3] = wasm_i64x2_shuffle(t1, t3, 1, 3);
}

/* Each 32-bit lane's bytes reversed: big-endian words to lane values and back. */
static inline v128_t bswap32x4(v128_t v)
{
    return wasm_i8x16_shuffle(v, v, 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
}

/* 4 blocks at in to transposed form and back to out. */
static inline void load4(v128_t x[4], const unsigned char *in)
{
    for (int j = 0; j < 4; j++)
        x[j] = bswap32x4(wasm_v128_load(in + 16 * j));
    transpose4(x);
}

static inline void store4(unsigned char *out, v128_t x[4])
{
    transpose4(x);
    for (int j = 0; j < 4; j++)
        wasm_v128_store(out + 16 * j, bswap32x4(x[j]));
}

/* One block, for chains (latency counts): each word splatted into a
 * vector, the whole round in vectors (no move between vector and scalar
 * registers inside the 32 rounds). */
static inline void one_block(const keys *k, unsigned char out[16], const unsigned char in[16])
{
    v128_t x[4];
    for (int j = 0; j < 4; j++)
        x[j] = wasm_i32x4_splat((int32_t)fs2_load32_be(in + 4 * j));
    rounds4(k, x);
    for (int j = 0; j < 4; j++)
        fs2_store32_be(out + 4 * j, (uint32_t)wasm_i32x4_extract_lane(x[j], 0));
}

static void blocks_wasm(const uint32_t rk[32], unsigned char *out, const unsigned char *in, size_t n)
{
    keys k;
    keys_init(&k, rk);
    v128_t x[4], y[4];
    for (; n >= 8; n -= 8, in += 128, out += 128) {
        load4(x, in);
        load4(y, in + 64);
        rounds8(&k, x, y);
        store4(out, x);
        store4(out + 64, y);
    }
    fs2_wipe(y, sizeof y);
    for (; n >= 4; n -= 4, in += 64, out += 64) {
        load4(x, in);
        rounds4(&k, x);
        store4(out, x);
    }
    if (n == 1) { /* the count is public */
        one_block(&k, out, in);
    } else if (n > 1) {
        unsigned char buf[64] = {0};
        memcpy(buf, in, 16 * n);
        load4(x, buf);
        rounds4(&k, x);
        store4(buf, x);
        memcpy(out, buf, 16 * n);
        fs2_wipe(buf, sizeof buf);
    }
    fs2_wipe(x, sizeof x);
    keys_wipe(&k);
}

/* CTR: the counters made in transposed form (words 0-2 splatted, word 3
 * the count plus the lane number, wrapping modulo 2^32 in the lane). */
static void ctr32_wasm(const uint32_t rk[32], unsigned char *out, const unsigned char *in, size_t n,
                       const unsigned char ctr[16])
{
    keys k;
    keys_init(&k, rk);
    v128_t x[4];
    const v128_t c0 = wasm_i32x4_splat((int32_t)fs2_load32_be(ctr)),
                 c1 = wasm_i32x4_splat((int32_t)fs2_load32_be(ctr + 4)),
                 c2 = wasm_i32x4_splat((int32_t)fs2_load32_be(ctr + 8));
    v128_t c3 = wasm_i32x4_add(wasm_i32x4_splat((int32_t)fs2_load32_be(ctr + 12)), wasm_i32x4_make(0, 1, 2, 3));
    const v128_t four = wasm_i32x4_splat(4);
    unsigned char ks[64];
    v128_t y[4];
    for (; n >= 8; n -= 8, in += 128, out += 128) {
        x[0] = y[0] = c0;
        x[1] = y[1] = c1;
        x[2] = y[2] = c2;
        x[3] = c3;
        y[3] = wasm_i32x4_add(c3, four);
        c3 = wasm_i32x4_add(y[3], four);
        rounds8(&k, x, y);
        transpose4(x);
        transpose4(y);
        for (int j = 0; j < 4; j++) {
            wasm_v128_store(out + 16 * j, wasm_v128_xor(wasm_v128_load(in + 16 * j), bswap32x4(x[j])));
            wasm_v128_store(out + 64 + 16 * j, wasm_v128_xor(wasm_v128_load(in + 64 + 16 * j), bswap32x4(y[j])));
        }
    }
    fs2_wipe(y, sizeof y);
    while (n > 0) {
        size_t m = n < 4 ? n : 4;
        x[0] = c0;
        x[1] = c1;
        x[2] = c2;
        x[3] = c3;
        c3 = wasm_i32x4_add(c3, four);
        rounds4(&k, x);
        if (m == 4) {
            transpose4(x);
            for (int j = 0; j < 4; j++)
                wasm_v128_store(out + 16 * j, wasm_v128_xor(wasm_v128_load(in + 16 * j), bswap32x4(x[j])));
        } else {
            store4(ks, x);
            for (size_t i = 0; i < 16 * m; i++)
                out[i] = in[i] ^ ks[i];
        }
        in += 16 * m;
        out += 16 * m;
        n -= m;
    }
    fs2_wipe(ks, sizeof ks);
    fs2_wipe(x, sizeof x);
    fs2_wipe(&c3, sizeof c3);
    keys_wipe(&k);
}

static void cbc_enc_wasm(const uint32_t rk[32], unsigned char *out, const unsigned char *in, size_t n,
                         unsigned char iv[16])
{
    keys k;
    keys_init(&k, rk);
    v128_t c = wasm_v128_load(iv);
    unsigned char x[16];
    for (size_t i = 0; i < n; i++) {
        wasm_v128_store(x, wasm_v128_xor(c, wasm_v128_load(in + 16 * i)));
        one_block(&k, out + 16 * i, x);
        c = wasm_v128_load(out + 16 * i);
    }
    wasm_v128_store(iv, c);
    fs2_wipe(x, sizeof x);
    keys_wipe(&k);
}

static void cbc_mac_wasm(const uint32_t rk[32], unsigned char mac[16], const unsigned char *in, size_t n)
{
    keys k;
    keys_init(&k, rk);
    unsigned char x[16];
    for (size_t i = 0; i < n; i++) {
        wasm_v128_store(x, wasm_v128_xor(wasm_v128_load(mac), wasm_v128_load(in + 16 * i)));
        one_block(&k, mac, x);
    }
    fs2_wipe(x, sizeof x);
    keys_wipe(&k);
}

#define CHUNK 16 /* blocks per pass of the modes below */

static void cbc_dec_wasm(const uint32_t rkd[32], unsigned char *out, const unsigned char *in, size_t n,
                         unsigned char iv[16])
{
    unsigned char c[16 * CHUNK], p[16 * CHUNK];
    while (n > 0) {
        size_t m = n < CHUNK ? n : CHUNK;
        memcpy(c, in, 16 * m); /* in place: the ciphertext chains */
        blocks_wasm(rkd, p, c, m);
        wasm_v128_store(out, wasm_v128_xor(wasm_v128_load(p), wasm_v128_load(iv)));
        for (size_t i = 1; i < m; i++)
            wasm_v128_store(out + 16 * i, wasm_v128_xor(wasm_v128_load(p + 16 * i), wasm_v128_load(c + 16 * (i - 1))));
        memcpy(iv, c + 16 * (m - 1), 16);
        in += 16 * m;
        out += 16 * m;
        n -= m;
    }
    fs2_wipe(p, sizeof p);
}

static void xts_wasm(const uint32_t rk[32], unsigned char *out, const unsigned char *in, size_t n, unsigned char t[16],
                     int standard)
{
    fs2_sm4_xts_by(blocks_wasm, rk, out, in, n, t, standard);
}

const fs2_sm4_ops fs2_sm4_ops_wasm_simd = {
    .name = "wasm-simd",
    .cpu_needs = 0,
    .blocks = blocks_wasm,
    .ctr32 = ctr32_wasm,
    .cbc_enc = cbc_enc_wasm,
    .cbc_dec = cbc_dec_wasm,
    .cbc_mac = cbc_mac_wasm,
    .xts = xts_wasm,
    .ghash = fs2_ghash_generic,
    .gcm = NULL,
};
#endif
