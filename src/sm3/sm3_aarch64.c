/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SM3 compression (GB/T 32905 5.3) for AArch64: the SM3 tables
 * (src/sm3/sm3_ops.h)
 *   armv8-sm3  one stream with the ARMv8.2 SM3 instructions (FEAT_SM3:
 *              SM3SS1, SM3TT1A/B, SM3TT2A/B, SM3PARTW1/2), no lanes: about
 *              390 instructions a block against 720 per lane-block for the
 *              4 NEON lanes (qemu's count, docs/ARM.md);
 *   neon       the portable C for one stream, and 4 independent streams in
 *              the 32-bit lanes of NEON registers (baseline ASIMD), from
 *              the shared multi-buffer template.
 * The SM3 function carries its own target attribute (no global -march), so
 * the library still runs on any ARMv8-A core.
 *
 * Register layout for the SM3 instructions: the instructions keep the
 * working words in lane 3 down to lane 0, so the state travels as
 * abcd = {D, C, B, A} and efgh = {H, G, F, E} (lane 0 first). Per round j:
 *   SS1 = SM3SS1(abcd, efgh, {0, 0, 0, T_j <<< j})   (lane 3)
 *   abcd = SM3TT1x(abcd, SS1, W'[j])   (FF: x = A for j < 16, B after)
 *   efgh = SM3TT2x(efgh, SS1, W[j])    (GG likewise)
 * and the message schedule yields four words per SM3PARTW1 + SM3PARTW2 pair:
 *   W[j..j+3] = PARTW2(PARTW1(W[j-16..], W[j-9..], W[j-4..]),
 *                      W[j-6..], W[j-13..]).
 * Constant time: straight-line code; no branch or address depends on the
 * message or the state (only on the block count).
 */
#include "cpu.h"
#include "sm3_ops.h"

#if defined(__aarch64__)
#include <arm_neon.h>

#include "sm3_scalar.h"

#if defined(__clang__)
#define FS2_A64_SM3_TARGET __attribute__((target("sm4")))
#else
#define FS2_A64_SM3_TARGET __attribute__((target("arch=armv8.2-a+sm4")))
#endif

/* {a, b, c, d} lane 0 first -> {d, c, b, a} */
static inline uint32x4_t fs2_rev4(uint32x4_t x)
{
    x = vrev64q_u32(x);
    return vextq_u32(x, x, 2);
}

static inline uint32x4_t fs2_load_be4(const unsigned char *p)
{
    return vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p)));
}

#define FS2_A64_K(j) vsetq_lane_u32(fs2_sm3_k[j], vdupq_n_u32(0), 3)

/* Round j = 4 g + i with the lane-i words of W and W' = W ^ W_next. */
#define FS2_A64_RND(TT1, TT2, wv, wp, i, j)                       \
    do {                                                          \
        uint32x4_t ss1_ = vsm3ss1q_u32(abcd, efgh, FS2_A64_K(j)); \
        abcd = TT1(abcd, ss1_, wp, i);                            \
        efgh = TT2(efgh, ss1_, wv, i);                            \
    } while (0)

#define FS2_A64_RND4(TT1, TT2, w0, w1, g)               \
    do {                                                \
        uint32x4_t wp_ = veorq_u32(w0, w1);             \
        FS2_A64_RND(TT1, TT2, w0, wp_, 0, 4 * (g));     \
        FS2_A64_RND(TT1, TT2, w0, wp_, 1, 4 * (g) + 1); \
        FS2_A64_RND(TT1, TT2, w0, wp_, 2, 4 * (g) + 2); \
        FS2_A64_RND(TT1, TT2, w0, wp_, 3, 4 * (g) + 3); \
    } while (0)

/* w0 <- W[j+16 ..] from w0..w3 = W[j ..], W[j+4 ..], W[j+8 ..], W[j+12 ..] */
#define FS2_A64_EXPAND(w0, w1, w2, w3) \
    w0 = vsm3partw2q_u32(vsm3partw1q_u32(w0, vextq_u32(w1, w2, 3), w3), vextq_u32(w2, w3, 2), vextq_u32(w0, w1, 3))

/* Four rounds on w0 (with w1 for W'), then w0 becomes the words 16 on. */
#define FS2_A64_STEP(TT1, TT2, w0, w1, w2, w3, g) \
    do {                                          \
        FS2_A64_RND4(TT1, TT2, w0, w1, g);        \
        FS2_A64_EXPAND(w0, w1, w2, w3);           \
    } while (0)

static FS2_A64_SM3_TARGET void fs2_sm3_compress_armv8_sm3(uint32_t state[8], const unsigned char *blocks,
                                                          size_t nblocks)
{
    uint32x4_t abcd = fs2_rev4(vld1q_u32(state)), efgh = fs2_rev4(vld1q_u32(state + 4));
    for (; nblocks; nblocks--, blocks += 64) {
        uint32x4_t abcd0 = abcd, efgh0 = efgh;
        uint32x4_t w0 = fs2_load_be4(blocks), w1 = fs2_load_be4(blocks + 16);
        uint32x4_t w2 = fs2_load_be4(blocks + 32), w3 = fs2_load_be4(blocks + 48);
        FS2_A64_STEP(vsm3tt1aq_u32, vsm3tt2aq_u32, w0, w1, w2, w3, 0);
        FS2_A64_STEP(vsm3tt1aq_u32, vsm3tt2aq_u32, w1, w2, w3, w0, 1);
        FS2_A64_STEP(vsm3tt1aq_u32, vsm3tt2aq_u32, w2, w3, w0, w1, 2);
        FS2_A64_STEP(vsm3tt1aq_u32, vsm3tt2aq_u32, w3, w0, w1, w2, 3);
        FS2_A64_STEP(vsm3tt1bq_u32, vsm3tt2bq_u32, w0, w1, w2, w3, 4);
        FS2_A64_STEP(vsm3tt1bq_u32, vsm3tt2bq_u32, w1, w2, w3, w0, 5);
        FS2_A64_STEP(vsm3tt1bq_u32, vsm3tt2bq_u32, w2, w3, w0, w1, 6);
        FS2_A64_STEP(vsm3tt1bq_u32, vsm3tt2bq_u32, w3, w0, w1, w2, 7);
        FS2_A64_STEP(vsm3tt1bq_u32, vsm3tt2bq_u32, w0, w1, w2, w3, 8);
        FS2_A64_STEP(vsm3tt1bq_u32, vsm3tt2bq_u32, w1, w2, w3, w0, 9);
        FS2_A64_STEP(vsm3tt1bq_u32, vsm3tt2bq_u32, w2, w3, w0, w1, 10);
        FS2_A64_STEP(vsm3tt1bq_u32, vsm3tt2bq_u32, w3, w0, w1, w2, 11);
        FS2_A64_STEP(vsm3tt1bq_u32, vsm3tt2bq_u32, w0, w1, w2, w3, 12);
        /* W[52..67] are all there now: no more expansion */
        FS2_A64_RND4(vsm3tt1bq_u32, vsm3tt2bq_u32, w1, w2, 13);
        FS2_A64_RND4(vsm3tt1bq_u32, vsm3tt2bq_u32, w2, w3, 14);
        FS2_A64_RND4(vsm3tt1bq_u32, vsm3tt2bq_u32, w3, w0, 15);
        abcd = veorq_u32(abcd, abcd0);
        efgh = veorq_u32(efgh, efgh0);
    }
    vst1q_u32(state, fs2_rev4(abcd));
    vst1q_u32(state + 4, fs2_rev4(efgh));
}

/* ---------------------------------------------------------------------- */
/* NEON: 4 lanes (baseline ASIMD)                                          */
/* ---------------------------------------------------------------------- */

/* w[0..15] = the 16 big-endian words of each lane's block at blocks[l] +
 * off, word j of lane l in lane l of w[j] (4 x 4 transposes). */
static inline void fs2_load4x16(uint32x4_t *w, const unsigned char *const *blocks, size_t off)
{
    for (int k = 0; k < 4; k++) {
        uint32x4_t r0 = fs2_load_be4(blocks[0] + off + 16 * k), r1 = fs2_load_be4(blocks[1] + off + 16 * k);
        uint32x4_t r2 = fs2_load_be4(blocks[2] + off + 16 * k), r3 = fs2_load_be4(blocks[3] + off + 16 * k);
        uint32x4_t t0 = vtrn1q_u32(r0, r1), t1 = vtrn2q_u32(r0, r1);
        uint32x4_t t2 = vtrn1q_u32(r2, r3), t3 = vtrn2q_u32(r2, r3);
        w[4 * k + 0] = vreinterpretq_u32_u64(vtrn1q_u64(vreinterpretq_u64_u32(t0), vreinterpretq_u64_u32(t2)));
        w[4 * k + 1] = vreinterpretq_u32_u64(vtrn1q_u64(vreinterpretq_u64_u32(t1), vreinterpretq_u64_u32(t3)));
        w[4 * k + 2] = vreinterpretq_u32_u64(vtrn2q_u64(vreinterpretq_u64_u32(t0), vreinterpretq_u64_u32(t2)));
        w[4 * k + 3] = vreinterpretq_u32_u64(vtrn2q_u64(vreinterpretq_u64_u32(t1), vreinterpretq_u64_u32(t3)));
    }
}

/* x <<< 8 in every lane: one byte permutation. */
static inline uint32x4_t fs2_rotl8_x4(uint32x4_t x)
{
    static const uint8_t idx[16] = {3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14};
    return vreinterpretq_u32_u8(vqtbl1q_u8(vreinterpretq_u8_u32(x), vld1q_u8(idx)));
}

#define FS2_V  uint32x4_t
#define FS2_VN 4
#define FS2_VTARGET
#define FS2_VNAME                   fs2_sm3_compress_x4_neon
#define FS2_VADD(a, b)              vaddq_u32((a), (b))
#define FS2_VXOR(a, b)              veorq_u32((a), (b))
#define FS2_VROTL(a, n)             vsliq_n_u32(vshrq_n_u32((a), 32 - (n)), (a), (n))
#define FS2_VSET1(k)                vdupq_n_u32(k)
#define FS2_VXOR3(a, b, c)          veorq_u32(veorq_u32((a), (b)), (c))
/* majority: where a and b differ, c decides */
#define FS2_VMAJ(a, b, c)           vbslq_u32(veorq_u32((a), (b)), (c), (a))
/* (a & b) | (~a & c) is one bit select */
#define FS2_VCH(a, b, c)            vbslq_u32((a), (b), (c))
#define FS2_VROTL8(a)               fs2_rotl8_x4(a)
#define FS2_VLOAD_BLOCKS(w, p, off) fs2_load4x16((w), (p), (off))
#include "sm3_lanes_tmpl.h"

/* ---------------------------------------------------------------------- */
/* The tables                                                               */
/* ---------------------------------------------------------------------- */

const fs2_sm3_ops fs2_sm3_ops_armv8_sm3 = {
    .name = "armv8-sm3",
    .cpu_needs = FS2_CPU_ARM_ASIMD | FS2_CPU_ARM_SM3,
    .compress = fs2_sm3_compress_armv8_sm3,
    .lanes = 1,
};

const fs2_sm3_ops fs2_sm3_ops_neon = {
    .name = "neon",
    .cpu_needs = FS2_CPU_ARM_ASIMD,
    .compress = fs2_sm3_compress_generic,
    .lanes = 4,
    .compress_lanes = fs2_sm3_compress_x4_neon,
};
#endif
