/* SPDX-License-Identifier: Apache-2.0 */
/*
 * GHASH (NIST SP 800-38D 6.4) with PMULL (FEAT_PMULL) for the AArch64 SM4
 * tables, src/sm4/sm4_aarch64_sm4e.c and sm4_aarch64_aes.c. Each includes
 * it once, after defining FS2_A64_TARGET (the target attribute of its
 * functions, which must enable the AES/PMULL instructions), inside its
 * `#if defined(__aarch64__)`.
 *
 * Representation (src/sm4/sm4_ops.h): a block is the 128-bit big-endian
 * integer it spells, the coefficient of x^0 in its top bit; in a register,
 * lane 0 holds its low 64 bits. REV64 of a loaded block gives that integer
 * with its two halves swapped ({high, low}), so the powers of H are kept
 * swapped too and PMULL/PMULL2 pair the right halves without more moves.
 *
 * The carry-less product A*B of two such integers is the polynomial
 * product times x in 256 bits (the coefficient of x^k at bit 254 - k). So
 * each call first "twists" the powers it needs, H' = H x^-1 (a shift left
 * by one with a conditional XOR of 0xC2..01, the reflected x^-1): then A*H'
 * read with x^k at bit 255 - k is exactly a*h. Up to 8 blocks are
 * multiplied by H'^8 .. H'^1 (Karatsuba: three PMULLs each, the middle
 * operands of two blocks made together), their 256-bit products summed,
 * and the sum reduced once: in the bit-reversed view, reduction modulo the
 * field polynomial is a Montgomery reduction by 2^128 modulo
 * y^128 + y^127 + y^126 + y^121 + 1, two steps of 64 bits, each one PMULL
 * by 0xC200000000000000 (y^63 + y^62 + y^57).
 *
 * Constant time: PMULL, EXT, EOR and shifts only; no branch or address
 * depends on H, the data or the accumulator (only on block counts).
 */
#ifndef FS2_GHASH_AARCH64_IMPL_H
#define FS2_GHASH_AARCH64_IMPL_H

/* What one call of GHASH needs of the key: twisted, swapped powers and
 * their Karatsuba middle operands, two per vector. */
typedef struct {
    uint64x2_t hs[8]; /* hs[i] = H'^(i+1), halves swapped: {high, low} */
    uint64x2_t km[4]; /* km[j] = {k(2j+1), k(2j)}, k(i) = high ^ low of hs[i] */
} fs2_a64_ghash_tab;

/* PMULL and PMULL2 (64 x 64 -> 128-bit carry-less products of lanes 0 and
 * lanes 1) on whole registers: as inline assembly, so that the compiler
 * keeps each power of H in one register for both instead of loading its
 * lane 0 apart. */
FS2_A64_TARGET static inline uint64x2_t fs2_a64_clmul_lo(uint64x2_t a, uint64x2_t b)
{
    uint64x2_t r;
    __asm__("pmull %0.1q, %1.1d, %2.1d" : "=w"(r) : "w"(a), "w"(b));
    return r;
}

FS2_A64_TARGET static inline uint64x2_t fs2_a64_clmul_hi(uint64x2_t a, uint64x2_t b)
{
    uint64x2_t r;
    __asm__("pmull2 %0.1q, %1.2d, %2.2d" : "=w"(r) : "w"(a), "w"(b));
    return r;
}

/* h * x^-1 in GF(2^128), h natural ({low, high}): shifted left by one; the
 * bit shifted out (the coefficient of x^0) brings x^-1 = 0xC2..01. */
FS2_A64_TARGET static inline uint64x2_t fs2_a64_ghash_twist(uint64x2_t h)
{
    const uint64x2_t poly = {1, 0xC200000000000000ULL};
    uint64x2_t car = vshrq_n_u64(h, 63);
    uint64x2_t top = vreinterpretq_u64_s64(vshrq_n_s64(vreinterpretq_s64_u64(h), 63));
    uint64x2_t r = veorq_u64(vshlq_n_u64(h, 1), vextq_u64(car, car, 1));
    return veorq_u64(r, vandq_u64(top, vsetq_lane_u64(0, poly, 0)));
}

/* The table for m powers (1 <= m <= 8): reads hpow[0 .. m-1]. */
FS2_A64_TARGET static inline void fs2_a64_ghash_prep(fs2_a64_ghash_tab *t, const uint64_t (*hpow)[2], size_t m)
{
    uint64_t k[8];
    for (size_t i = 0; i < m; i++) {
        uint64x2_t h = fs2_a64_ghash_twist(vld1q_u64(hpow[i]));
        t->hs[i] = vextq_u64(h, h, 1);
        k[i] = vgetq_lane_u64(h, 0) ^ vgetq_lane_u64(h, 1);
    }
    for (size_t i = m; i < 8; i++)
        k[i] = 0;
    for (size_t j = 0; j < 4; j++)
        t->km[j] = vcombine_u64(vcreate_u64(k[2 * j + 1]), vcreate_u64(k[2 * j]));
}

/* The 256-bit sum lo + mid x^64 + hi x^128 (Karatsuba's three parts, mid
 * not yet corrected) reduced: the natural {low, high} result. */
FS2_A64_TARGET static inline uint64x2_t fs2_a64_ghash_reduce(uint64x2_t lo, uint64x2_t hi, uint64x2_t mid)
{
    const uint64x2_t zero = vdupq_n_u64(0), poly = {0xC200000000000000ULL, 0};
    mid = veorq_u64(mid, veorq_u64(lo, hi));
    uint64x2_t c01 = veorq_u64(lo, vextq_u64(zero, mid, 1)); /* {C0, C1} */
    uint64x2_t c23 = veorq_u64(hi, vextq_u64(mid, zero, 1)); /* {C2, C3} */
    /* C0 * (y^128 + ...): clears C0, adds into C1, C2 */
    uint64x2_t u = veorq_u64(vextq_u64(c01, c01, 1), fs2_a64_clmul_lo(c01, poly)); /* {C1', C0 ^ T1} */
    /* C1' likewise into C2, C3 */
    return veorq_u64(veorq_u64(c23, vextq_u64(u, u, 1)), fs2_a64_clmul_lo(u, poly));
}

/* x (natural) updated over m blocks (1 <= m <= 8; blk: the blocks as
 * loaded, unreversed): x = (x ^ b_0) H^m ^ b_1 H^(m-1) ^ ... ^ b_(m-1) H. */
FS2_A64_TARGET static inline uint64x2_t fs2_a64_ghash_group(const fs2_a64_ghash_tab *t, uint64x2_t x,
                                                            const uint8x16_t *blk, size_t m)
{
    uint64x2_t lo = vdupq_n_u64(0), hi = lo, mid = lo;
    uint64x2_t a0 = vreinterpretq_u64_u8(vrev64q_u8(blk[0]));
    a0 = veorq_u64(a0, vextq_u64(x, x, 1));
    size_t j = 0;
    if (m & 1) { /* one block alone: its middle operand by itself */
        uint64x2_t h = t->hs[m - 1];
        lo = fs2_a64_clmul_hi(a0, h);
        hi = fs2_a64_clmul_lo(a0, h);
        mid = fs2_a64_clmul_lo(veorq_u64(a0, vextq_u64(a0, a0, 1)), veorq_u64(h, vextq_u64(h, h, 1)));
        j = 1;
    }
    for (; j < m; j += 2) { /* blocks j, j+1 with powers m-j, m-j-1 */
        uint64x2_t a = j == 0 ? a0 : vreinterpretq_u64_u8(vrev64q_u8(blk[j]));
        uint64x2_t b = vreinterpretq_u64_u8(vrev64q_u8(blk[j + 1]));
        uint64x2_t ha = t->hs[m - 1 - j], hb = t->hs[m - 2 - j], km = t->km[(m - 2 - j) / 2];
        lo = veorq_u64(lo, veorq_u64(fs2_a64_clmul_hi(a, ha), fs2_a64_clmul_hi(b, hb)));
        hi = veorq_u64(hi, veorq_u64(fs2_a64_clmul_lo(a, ha), fs2_a64_clmul_lo(b, hb)));
        uint64x2_t md = veorq_u64(vzip1q_u64(a, b), vzip2q_u64(a, b));
        mid = veorq_u64(mid, veorq_u64(fs2_a64_clmul_lo(md, km), fs2_a64_clmul_hi(md, km)));
    }
    return fs2_a64_ghash_reduce(lo, hi, mid);
}

/* ---- eight blocks a pass as inline assembly (GCC's allocation of the
 * functions above reloads table halves inside a loop); the SM4 loops of
 * sm4_aarch64_sm4e.c use the same macros. Registers: v26 {0xC2 << 56, 0}
 * (the reduction's constant), v27 zero, v29 GHASH's state (natural). */
/* GHASH of eight blocks b0..b7 (registers, reversed in place) into v29:
 * the pairs' products summed in L, H, M (Karatsuba), reduced once; the
 * table (a64_tab) 48 bytes a pair: the two powers, their middle operands. */
#define A64_REV64(b) "rev64 " b ".16b, " b ".16b\n"
#define A64_PAIR_PROD(a, b, ta, tb, tk, x, y)                \
    "ld1 {" ta ".2d, " tb ".2d, " tk ".2d}, [%[tab]], #48\n" \
    "pmull2 " x ".1q, " a ".2d, " ta ".2d\n"                 \
    "pmull2 " y ".1q, " b ".2d, " tb ".2d\n"
#define A64_PAIR_FIRST(a, b, ta, tb, tk, x, y, L, H, M) \
    A64_PAIR_PROD(a, b, ta, tb, tk, x, y)               \
    "eor " L ".16b, " x ".16b, " y ".16b\n"             \
    "pmull " x ".1q, " a ".1d, " ta ".1d\n"             \
    "pmull " y ".1q, " b ".1d, " tb ".1d\n"             \
    "eor " H ".16b, " x ".16b, " y ".16b\n"             \
    "zip1 " x ".2d, " a ".2d, " b ".2d\n"               \
    "zip2 " y ".2d, " a ".2d, " b ".2d\n"               \
    "eor " x ".16b, " x ".16b, " y ".16b\n"             \
    "pmull " y ".1q, " x ".1d, " tk ".1d\n"             \
    "pmull2 " x ".1q, " x ".2d, " tk ".2d\n"            \
    "eor " M ".16b, " x ".16b, " y ".16b\n"
#define A64_PAIR_NEXT(a, b, ta, tb, tk, x, y, L, H, M) \
    A64_PAIR_PROD(a, b, ta, tb, tk, x, y)              \
    "eor " L ".16b, " L ".16b, " x ".16b\n"            \
    "eor " L ".16b, " L ".16b, " y ".16b\n"            \
    "pmull " x ".1q, " a ".1d, " ta ".1d\n"            \
    "pmull " y ".1q, " b ".1d, " tb ".1d\n"            \
    "eor " H ".16b, " H ".16b, " x ".16b\n"            \
    "eor " H ".16b, " H ".16b, " y ".16b\n"            \
    "zip1 " x ".2d, " a ".2d, " b ".2d\n"              \
    "zip2 " y ".2d, " a ".2d, " b ".2d\n"              \
    "eor " x ".16b, " x ".16b, " y ".16b\n"            \
    "pmull " y ".1q, " x ".1d, " tk ".1d\n"            \
    "pmull2 " x ".1q, " x ".2d, " tk ".2d\n"           \
    "eor " M ".16b, " M ".16b, " x ".16b\n"            \
    "eor " M ".16b, " M ".16b, " y ".16b\n"
/* (L, M, H): lo + mid x^64 + hi x^128 (mid uncorrected) reduced into v29
 * as fs2_a64_ghash_reduce does */
#define A64_REDUCE(L, H, M, x)                  \
    "eor " M ".16b, " M ".16b, " L ".16b\n"     \
    "eor " M ".16b, " M ".16b, " H ".16b\n"     \
    "ext " x ".16b, v27.16b, " M ".16b, #8\n"   \
    "eor " L ".16b, " L ".16b, " x ".16b\n"     \
    "ext " x ".16b, " M ".16b, v27.16b, #8\n"   \
    "eor " H ".16b, " H ".16b, " x ".16b\n"     \
    "pmull " x ".1q, " L ".1d, v26.1d\n"        \
    "ext " L ".16b, " L ".16b, " L ".16b, #8\n" \
    "eor " L ".16b, " L ".16b, " x ".16b\n"     \
    "pmull " x ".1q, " L ".1d, v26.1d\n"        \
    "ext " L ".16b, " L ".16b, " L ".16b, #8\n" \
    "eor " H ".16b, " H ".16b, " L ".16b\n"     \
    "eor v29.16b, " H ".16b, " x ".16b\n"
/* GHASH over b0..b7 with temporaries t0..t7 (all distinct registers) */
/* clang-format off */
#define A64_GHASH8(b0, b1, b2, b3, b4, b5, b6, b7, t0, t1, t2, t3, t4, t5, t6, t7)      \
    A64_REV64(b0)                                                                       \
    A64_REV64(b1)                                                                       \
    A64_REV64(b2) A64_REV64(b3) A64_REV64(b4) A64_REV64(b5) A64_REV64(b6)               \
        A64_REV64(b7) "ext " t0 ".16b, v29.16b, v29.16b, #8\n"                          \
                      "eor " b0 ".16b, " b0 ".16b, " t0                                 \
                      ".16b\n" A64_PAIR_FIRST(b0, b1, t3, t4, t5, t6, t7, t0, t1, t2)   \
                          A64_PAIR_NEXT(b2, b3, t3, t4, t5, t6, t7, t0, t1, t2)         \
                              A64_PAIR_NEXT(b4, b5, t3, t4, t5, t6, t7, t0, t1, t2)     \
                                  A64_PAIR_NEXT(b6, b7, t3, t4, t5, t6, t7, t0, t1, t2) \
                                      A64_REDUCE(t0, t1, t2, t3) "sub %[tab], %[tab], #192\n"
/* clang-format on */

#define A64_CLOBBERS                                                                                               \
    "memory", "cc", "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12", "v13", "v14", \
        "v15", "v16", "v17", "v18", "v19", "v20", "v21", "v22", "v23", "v24", "v25", "v26", "v27", "v28", "v29",   \
        "v30", "v31"

/* The GHASH table of the loops: per pair of blocks (2p, 2p+1) the powers
 * H'^(8-2p), H'^(7-2p) and their middle operands. */
FS2_A64_TARGET static void fs2_a64_tab_make(uint64x2_t tab[12], const fs2_a64_ghash_tab *t)
{
    for (int p = 0; p < 4; p++) {
        tab[3 * p] = t->hs[7 - 2 * p];
        tab[3 * p + 1] = t->hs[6 - 2 * p];
        tab[3 * p + 2] = t->km[3 - p];
    }
}

/* xi over nb blocks (a multiple of 8, > 0) with the loops' table. */
FS2_A64_TARGET static void fs2_a64_ghash8_asm(uint64_t xi[2], const unsigned char *in, size_t nb, const uint64x2_t *tab)
{
    const uint64_t poly[2] = {0xC200000000000000ULL, 0};
    /* clang-format off */
    __asm__ volatile(
        "ld1 {v26.2d}, [%[poly]]\n"
        "movi v27.2d, #0\n"
        "ld1 {v29.2d}, [%[xi]]\n"
        "1:\n"
        "ld1 {v0.16b, v1.16b, v2.16b, v3.16b}, [%[in]], #64\n"
        "ld1 {v4.16b, v5.16b, v6.16b, v7.16b}, [%[in]], #64\n"
        A64_GHASH8("v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7",
                   "v8", "v9", "v10", "v11", "v12", "v13", "v14", "v15")
        "subs %[n], %[n], #8\n"
        "b.ne 1b\n"
        "st1 {v29.2d}, [%[xi]]\n"
        : [in] "+r"(in), [n] "+r"(nb), [tab] "+r"(tab)
        : [poly] "r"(poly), [xi] "r"(xi)
        : A64_CLOBBERS);
    /* clang-format on */
}

/* xi over n blocks with a call's tables: t (made for min(n, 8) powers or
 * more) and tab (fs2_a64_tab_make of t; unused when n < 8). */
FS2_A64_TARGET static void fs2_a64_ghash_with(const fs2_a64_ghash_tab *t, const uint64x2_t *tab, uint64_t xi[2],
                                              const unsigned char *in, size_t n)
{
    size_t nb = n & ~(size_t)7;
    if (nb > 0) {
        fs2_a64_ghash8_asm(xi, in, nb, tab);
        in += 16 * nb;
        n -= nb;
    }
    if (n > 0) {
        uint8x16_t b[8];
        for (size_t i = 0; i < n; i++)
            b[i] = vld1q_u8(in + 16 * i);
        vst1q_u64(xi, fs2_a64_ghash_group(t, vld1q_u64(xi), b, n));
    }
}

/* The ghash slot (src/sm4/sm4_ops.h). */
FS2_A64_TARGET static void fs2_a64_ghash(uint64_t xi[2], const uint64_t (*hpow)[2], const unsigned char *in, size_t n)
{
    fs2_a64_ghash_tab t;
    uint64x2_t tab[12];
    if (n == 0)
        return;
    fs2_a64_ghash_prep(&t, hpow, n < 8 ? n : 8);
    if (n >= 8)
        fs2_a64_tab_make(tab, &t);
    fs2_a64_ghash_with(&t, tab, xi, in, n);
    fs2_wipe(&t, sizeof t);
    if (n >= 8)
        fs2_wipe(tab, sizeof tab);
}

#endif
