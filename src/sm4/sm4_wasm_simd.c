/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SM4 table of WebAssembly builds with SIMD (-msimd128, the npm
 * package's fastsm2-simd.wasm), "wasm-simd".
 *
 * The S-box on 16 bytes at once by i8x16.swizzle: the 256-byte table is
 * 16 rows of 16 (FS2_SM4_ROWS, tools/gen_sm4_sbox.py), and row h is
 * looked up with the index x ^ (h << 4), which is the low nibble (< 16)
 * where x's high nibble is h and 16 or more elsewhere, where the
 * WebAssembly specification makes swizzle give 0. The 16 lookups ORed
 * together are S(x). Then L (clause 6.2) on 32-bit lanes: byte shuffles
 * for the rotations by 8, 16 and 24 and shifts for the one by 2.
 *
 * Several blocks: four per vector, transposed (vector j holds word j of
 * four blocks), the round key splatted; CTR builds its counters in that
 * form. One block (CBC encryption, CBC-MAC): the round function's word
 * splatted into a vector for the S-box, L on the scalar word.
 *
 * Constant time: every lookup is a swizzle, a shuffle instruction in
 * every engine (PSHUFB/VPSHUFB on x86, TBL on AArch64) whose time does
 * not depend on its index bytes; the 16 rows are always all read, from
 * fixed addresses; no branch depends on keys or data, only on the block
 * counts. The whole file is for WebAssembly with SIMD; elsewhere it
 * compiles to nothing.
 */
#include "sm4_ops.h"

#if defined(__wasm_simd128__)
#include <string.h>
#include <wasm_simd128.h>

#include "sm4_sbox.h"

#define SPLAT16(v) v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v
/* The 16 rows of the table, then the 16 index patterns h << 4. */
static const unsigned char tables[512] __attribute__((aligned(16))) = {
    FS2_SM4_ROWS,  SPLAT16(0x00), SPLAT16(0x10), SPLAT16(0x20), SPLAT16(0x30), SPLAT16(0x40),
    SPLAT16(0x50), SPLAT16(0x60), SPLAT16(0x70), SPLAT16(0x80), SPLAT16(0x90), SPLAT16(0xA0),
    SPLAT16(0xB0), SPLAT16(0xC0), SPLAT16(0xD0), SPLAT16(0xE0), SPLAT16(0xF0),
};
/* Read through a volatile pointer, once per call: clang would otherwise
 * fold the loads into v128.const values, which V8 builds in a register
 * with four instructions each (32 per S-box), where a load is one. */
static const unsigned char *const volatile tables_at = tables;

/* Row h of the table looked up with x ^ (h << 4): S(x) where x's high
 * nibble is h, 0 elsewhere. */
#define ROW(h) \
    wasm_i8x16_swizzle(wasm_v128_load(tab + 16 * (h)), wasm_v128_xor(x, wasm_v128_load(tab + 256 + 16 * (h))))
#define OR(a, b) wasm_v128_or((a), (b))

/* S on each of the 16 bytes of x (tab: tables): the 16 rows ORed (clang
 * makes the tree one chain; a tree kept with alternating OR and XOR
 * measured slower in V8, more registers live). */
static inline v128_t sbox16(const unsigned char *tab, v128_t x)
{
    return OR(OR(OR(OR(ROW(0), ROW(1)), OR(ROW(2), ROW(3))), OR(OR(ROW(4), ROW(5)), OR(ROW(6), ROW(7)))),
              OR(OR(OR(ROW(8), ROW(9)), OR(ROW(10), ROW(11))), OR(OR(ROW(12), ROW(13)), OR(ROW(14), ROW(15)))));
}

static inline v128_t rotl32x4(v128_t x, int n)
{
    return wasm_v128_or(wasm_i32x4_shl(x, n), wasm_u32x4_shr(x, 32 - n));
}

/* L (clause 6.2) in each 32-bit lane: b ^ (b <<< 24) ^ ((b ^ (b <<< 8) ^
 * (b <<< 16)) <<< 2); lanes are little-endian, so b <<< 8 moves byte k to
 * byte k + 1. */
static inline v128_t lin4(v128_t b)
{
    v128_t r8 = wasm_i8x16_shuffle(b, b, 3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14);
    v128_t r16 = wasm_i8x16_shuffle(b, b, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13);
    v128_t r24 = wasm_i8x16_shuffle(b, b, 1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12);
    return wasm_v128_xor(wasm_v128_xor(b, r24), rotl32x4(wasm_v128_xor(wasm_v128_xor(b, r8), r16), 2));
}

/* 32 rounds on 4 blocks in transposed form (x[j]: word j of each block),
 * x becomes R's order (X35, X34, X33, X32). */
static inline void rounds4(const unsigned char *tab, const uint32_t rk[32], v128_t x[4])
{
    v128_t x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3];
    for (int i = 0; i < 32; i += 4) {
        x0 = wasm_v128_xor(x0, lin4(sbox16(tab, wasm_v128_xor(wasm_v128_xor(x1, x2),
                                                              wasm_v128_xor(x3, wasm_i32x4_splat((int32_t)rk[i]))))));
        x1 = wasm_v128_xor(x1,
                           lin4(sbox16(tab, wasm_v128_xor(wasm_v128_xor(x2, x3),
                                                          wasm_v128_xor(x0, wasm_i32x4_splat((int32_t)rk[i + 1]))))));
        x2 = wasm_v128_xor(x2,
                           lin4(sbox16(tab, wasm_v128_xor(wasm_v128_xor(x3, x0),
                                                          wasm_v128_xor(x1, wasm_i32x4_splat((int32_t)rk[i + 2]))))));
        x3 = wasm_v128_xor(x3,
                           lin4(sbox16(tab, wasm_v128_xor(wasm_v128_xor(x0, x1),
                                                          wasm_v128_xor(x2, wasm_i32x4_splat((int32_t)rk[i + 3]))))));
    }
    x[0] = x3;
    x[1] = x2;
    x[2] = x1;
    x[3] = x0;
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

/* One block, for chains: the S-box on the word splatted, L on the word. */
static inline uint32_t rotl32(uint32_t x, unsigned n)
{
    return (x << n) | (x >> (32 - n));
}

static inline uint32_t tau_l(const unsigned char *tab, uint32_t a)
{
    uint32_t b = (uint32_t)wasm_i32x4_extract_lane(sbox16(tab, wasm_i32x4_splat((int32_t)a)), 0);
    return b ^ rotl32(b, 2) ^ rotl32(b, 10) ^ rotl32(b, 18) ^ rotl32(b, 24);
}

static inline void one_block(const unsigned char *tab, const uint32_t rk[32], unsigned char out[16],
                             const unsigned char in[16])
{
    uint32_t x0 = fs2_load32_be(in), x1 = fs2_load32_be(in + 4), x2 = fs2_load32_be(in + 8),
             x3 = fs2_load32_be(in + 12);
    for (int i = 0; i < 32; i += 4) {
        x0 ^= tau_l(tab, x1 ^ x2 ^ x3 ^ rk[i]);
        x1 ^= tau_l(tab, x2 ^ x3 ^ x0 ^ rk[i + 1]);
        x2 ^= tau_l(tab, x3 ^ x0 ^ x1 ^ rk[i + 2]);
        x3 ^= tau_l(tab, x0 ^ x1 ^ x2 ^ rk[i + 3]);
    }
    fs2_store32_be(out, x3);
    fs2_store32_be(out + 4, x2);
    fs2_store32_be(out + 8, x1);
    fs2_store32_be(out + 12, x0);
}

static void blocks_wasm(const uint32_t rk[32], unsigned char *out, const unsigned char *in, size_t n)
{
    const unsigned char *tab = tables_at;
    v128_t x[4];
    for (; n >= 4; n -= 4, in += 64, out += 64) {
        load4(x, in);
        rounds4(tab, rk, x);
        store4(out, x);
    }
    if (n == 1) { /* the count is public */
        one_block(tab, rk, out, in);
    } else if (n > 1) {
        unsigned char buf[64] = {0};
        memcpy(buf, in, 16 * n);
        load4(x, buf);
        rounds4(tab, rk, x);
        store4(buf, x);
        memcpy(out, buf, 16 * n);
        fs2_wipe(buf, sizeof buf);
    }
    fs2_wipe(x, sizeof x);
}

/* CTR: the counters made in transposed form (words 0-2 splatted, word 3
 * the count plus the lane number, wrapping modulo 2^32 in the lane). */
static void ctr32_wasm(const uint32_t rk[32], unsigned char *out, const unsigned char *in, size_t n,
                       const unsigned char ctr[16])
{
    const unsigned char *tab = tables_at;
    v128_t x[4];
    const v128_t c0 = wasm_i32x4_splat((int32_t)fs2_load32_be(ctr)),
                 c1 = wasm_i32x4_splat((int32_t)fs2_load32_be(ctr + 4)),
                 c2 = wasm_i32x4_splat((int32_t)fs2_load32_be(ctr + 8));
    v128_t c3 = wasm_i32x4_add(wasm_i32x4_splat((int32_t)fs2_load32_be(ctr + 12)), wasm_i32x4_make(0, 1, 2, 3));
    const v128_t four = wasm_i32x4_splat(4);
    unsigned char ks[64];
    while (n > 0) {
        size_t m = n < 4 ? n : 4;
        x[0] = c0;
        x[1] = c1;
        x[2] = c2;
        x[3] = c3;
        c3 = wasm_i32x4_add(c3, four);
        rounds4(tab, rk, x);
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
}

static void cbc_enc_wasm(const uint32_t rk[32], unsigned char *out, const unsigned char *in, size_t n,
                         unsigned char iv[16])
{
    const unsigned char *tab = tables_at;
    v128_t c = wasm_v128_load(iv);
    unsigned char x[16];
    for (size_t i = 0; i < n; i++) {
        wasm_v128_store(x, wasm_v128_xor(c, wasm_v128_load(in + 16 * i)));
        one_block(tab, rk, out + 16 * i, x);
        c = wasm_v128_load(out + 16 * i);
    }
    wasm_v128_store(iv, c);
    fs2_wipe(x, sizeof x);
}

static void cbc_mac_wasm(const uint32_t rk[32], unsigned char mac[16], const unsigned char *in, size_t n)
{
    const unsigned char *tab = tables_at;
    unsigned char x[16];
    for (size_t i = 0; i < n; i++) {
        wasm_v128_store(x, wasm_v128_xor(wasm_v128_load(mac), wasm_v128_load(in + 16 * i)));
        one_block(tab, rk, mac, x);
    }
    fs2_wipe(x, sizeof x);
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
    unsigned char tw[16 * CHUNK], x[16 * CHUNK];
    while (n > 0) {
        size_t m = n < CHUNK ? n : CHUNK;
        for (size_t i = 0; i < m; i++) {
            memcpy(tw + 16 * i, t, 16);
            fs2_xts_mul_alpha(t, standard);
            wasm_v128_store(x + 16 * i, wasm_v128_xor(wasm_v128_load(in + 16 * i), wasm_v128_load(tw + 16 * i)));
        }
        blocks_wasm(rk, x, x, m);
        for (size_t i = 0; i < m; i++)
            wasm_v128_store(out + 16 * i, wasm_v128_xor(wasm_v128_load(x + 16 * i), wasm_v128_load(tw + 16 * i)));
        in += 16 * m;
        out += 16 * m;
        n -= m;
    }
    fs2_wipe(tw, sizeof tw);
    fs2_wipe(x, sizeof x);
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
