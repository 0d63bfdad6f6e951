/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SM3 compression (GB/T 32905 5.3) for x86-64: the SM3 tables bmi2, avx2
 * and avx512 (src/sm3/sm3_ops.h), from
 *   fs2_sm3_x86_bmi2             one stream, the scalar C code of
 *                                sm3_scalar.h built for BMI2 (RORX);
 *   fs2_sm3_x86_avx512vl         one stream, the rounds in BMI2 assembly and
 *                                the message expansion in AVX-512VL XMM code
 *                                (sm3_x86_1w.h);
 *   fs2_sm3_compress_x8_avx2     8 independent streams in the 32-bit lanes of
 *                                YMM registers;
 *   fs2_sm3_compress_x16_avx512  16 streams in ZMM registers, with VPROLD
 *                                rotations and VPTERNLOGD for the three-input
 *                                boolean functions.
 * Each function carries its own target attribute (no global -m flags), so
 * the library still runs on any x86-64: a table is only chosen when the
 * CPU-feature word (src/cpu.h) has what its cpu_needs names.
 */
#include "cpu.h"
#include "sm3_ops.h"

#if defined(__x86_64__)
#include <immintrin.h>

#include "sm3_scalar.h"

/* GCC: schedule before register allocation too, with register pressure in
 * mind. For the scalar compression it gives 4-5% (fewer stalls of the
 * round's dependency chains behind the message expansion). */
#if defined(__GNUC__) && !defined(__clang__)
#define FS2_SM3_SCHED __attribute__((optimize("schedule-insns", "sched-pressure")))
#else
#define FS2_SM3_SCHED
#endif

FS2_SM3_SCHED __attribute__((target("bmi2"))) void fs2_sm3_x86_bmi2(uint32_t state[8], const unsigned char *blocks,
                                                                    size_t nblocks)
{
    fs2_sm3_compress_scalar_body(state, blocks, nblocks);
}

/* The expansion in EVEX-encoded XMM operations: VPROLD, VPTERNLOGD. (An
 * SSSE3 build of the same, three instructions a rotation, measured no faster
 * than fs2_sm3_x86_bmi2 on Zen 5, so CPUs without AVX-512 keep the C code.) */
#define FS2_1W_NAME          fs2_sm3_x86_avx512vl
#define FS2_1W_TARGET        "bmi2,avx512f,avx512vl"
#define FS2_1W_ROTL(x, n)    _mm_rol_epi32((x), (n))
#define FS2_1W_XOR3(a, b, c) _mm_ternarylogic_epi32((a), (b), (c), 0x96)
#include "sm3_x86_1w.h"

/* The avx512 table's one stream: the assembly version expands one block
 * ahead and starts with a scalar expansion of the first block, so from
 * FS2_SM3_X86_1W_MIN blocks on it is the faster one. */
static void fs2_sm3_x86_avx512_compress(uint32_t state[8], const unsigned char *blocks, size_t nblocks)
{
    if (nblocks >= FS2_SM3_X86_1W_MIN)
        fs2_sm3_x86_avx512vl(state, blocks, nblocks);
    else
        fs2_sm3_x86_bmi2(state, blocks, nblocks);
}

/* ---------------------------------------------------------------------- */
/* AVX2: 8 lanes                                                            */
/* ---------------------------------------------------------------------- */

#define FS2_AVX2 __attribute__((target("avx2")))

/* Reverse the bytes of every 32-bit word (big-endian message words). */
static FS2_AVX2 inline __m256i fs2_bswap32_x8(__m256i x)
{
    const __m256i m = _mm256_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12, 3, 2, 1, 0, 7, 6, 5, 4, 11,
                                       10, 9, 8, 15, 14, 13, 12);
    return _mm256_shuffle_epi8(x, m);
}

/* Rotate every 32-bit word left by 8 bits: one byte shuffle. */
static FS2_AVX2 inline __m256i fs2_rotl8_x8(__m256i x)
{
    const __m256i m = _mm256_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14, 3, 0, 1, 2, 7, 4, 5, 6, 11,
                                       8, 9, 10, 15, 12, 13, 14);
    return _mm256_shuffle_epi8(x, m);
}

/* w[k..k+7] = words k..k+7 of the 8 lanes' blocks at p[i] + off: an 8x8
 * transpose of 32-bit words (unpack 32, unpack 64, swap 128-bit halves). */
static FS2_AVX2 inline void fs2_load8x8(__m256i *w, const unsigned char *const *p, size_t off)
{
    __m256i r0 = _mm256_loadu_si256((const __m256i *)(p[0] + off));
    __m256i r1 = _mm256_loadu_si256((const __m256i *)(p[1] + off));
    __m256i r2 = _mm256_loadu_si256((const __m256i *)(p[2] + off));
    __m256i r3 = _mm256_loadu_si256((const __m256i *)(p[3] + off));
    __m256i r4 = _mm256_loadu_si256((const __m256i *)(p[4] + off));
    __m256i r5 = _mm256_loadu_si256((const __m256i *)(p[5] + off));
    __m256i r6 = _mm256_loadu_si256((const __m256i *)(p[6] + off));
    __m256i r7 = _mm256_loadu_si256((const __m256i *)(p[7] + off));
    __m256i t0 = _mm256_unpacklo_epi32(r0, r1), t1 = _mm256_unpackhi_epi32(r0, r1);
    __m256i t2 = _mm256_unpacklo_epi32(r2, r3), t3 = _mm256_unpackhi_epi32(r2, r3);
    __m256i t4 = _mm256_unpacklo_epi32(r4, r5), t5 = _mm256_unpackhi_epi32(r4, r5);
    __m256i t6 = _mm256_unpacklo_epi32(r6, r7), t7 = _mm256_unpackhi_epi32(r6, r7);
    __m256i u0 = _mm256_unpacklo_epi64(t0, t2), u1 = _mm256_unpackhi_epi64(t0, t2);
    __m256i u2 = _mm256_unpacklo_epi64(t1, t3), u3 = _mm256_unpackhi_epi64(t1, t3);
    __m256i u4 = _mm256_unpacklo_epi64(t4, t6), u5 = _mm256_unpackhi_epi64(t4, t6);
    __m256i u6 = _mm256_unpacklo_epi64(t5, t7), u7 = _mm256_unpackhi_epi64(t5, t7);
    w[0] = fs2_bswap32_x8(_mm256_permute2x128_si256(u0, u4, 0x20));
    w[1] = fs2_bswap32_x8(_mm256_permute2x128_si256(u1, u5, 0x20));
    w[2] = fs2_bswap32_x8(_mm256_permute2x128_si256(u2, u6, 0x20));
    w[3] = fs2_bswap32_x8(_mm256_permute2x128_si256(u3, u7, 0x20));
    w[4] = fs2_bswap32_x8(_mm256_permute2x128_si256(u0, u4, 0x31));
    w[5] = fs2_bswap32_x8(_mm256_permute2x128_si256(u1, u5, 0x31));
    w[6] = fs2_bswap32_x8(_mm256_permute2x128_si256(u2, u6, 0x31));
    w[7] = fs2_bswap32_x8(_mm256_permute2x128_si256(u3, u7, 0x31));
}

#define FS2_V              __m256i
#define FS2_VN             8
#define FS2_VTARGET        FS2_AVX2
#define FS2_VNAME          fs2_sm3_compress_x8_avx2
#define FS2_VADD(a, b)     _mm256_add_epi32((a), (b))
#define FS2_VXOR(a, b)     _mm256_xor_si256((a), (b))
#define FS2_VROTL(a, n)    _mm256_or_si256(_mm256_slli_epi32((a), (n)), _mm256_srli_epi32((a), 32 - (n)))
#define FS2_VSET1(k)       _mm256_set1_epi32((int)(k))
#define FS2_VXOR3(a, b, c) _mm256_xor_si256(_mm256_xor_si256((a), (b)), (c))
/* (a & (b ^ c)) ^ (b & c): two steps from a, which comes last */
#define FS2_VMAJ(a, b, c) \
    _mm256_xor_si256(_mm256_and_si256((a), _mm256_xor_si256((b), (c))), _mm256_and_si256((b), (c)))
/* ((b ^ c) & a) ^ c */
#define FS2_VCH(a, b, c) _mm256_xor_si256(_mm256_and_si256(_mm256_xor_si256((b), (c)), (a)), (c))
#define FS2_VROTL8(a)    fs2_rotl8_x8(a)
#define FS2_VPIN(x)      __asm__("" : "+x"(x))
#define FS2_VLOAD_BLOCKS(w, p, off)            \
    do {                                       \
        fs2_load8x8((w), (p), (off));          \
        fs2_load8x8((w) + 8, (p), (off) + 32); \
    } while (0)
#include "sm3_lanes_tmpl.h"

/* ---------------------------------------------------------------------- */
/* AVX-512: 16 lanes                                                        */
/* ---------------------------------------------------------------------- */

#define FS2_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl")))

static FS2_AVX512 inline __m512i fs2_bswap32_x16(__m512i x)
{
    const __m512i m = _mm512_set4_epi32(0x0c0d0e0f, 0x08090a0b, 0x04050607, 0x00010203);
    return _mm512_shuffle_epi8(x, m);
}

/* w[0..15] = the 16 words of the 16 lanes' blocks at p[i] + off: a 16x16
 * transpose of 32-bit words (unpack 32, unpack 64, then two rounds of
 * 128-bit chunk shuffles). */
static FS2_AVX512 inline void fs2_load16x16(__m512i *w, const unsigned char *const *p, size_t off)
{
    __m512i r[16], a[16], b[16];
    for (int i = 0; i < 16; i++)
        r[i] = _mm512_loadu_si512((const void *)(p[i] + off));
    for (int i = 0; i < 16; i += 2) {
        a[i] = _mm512_unpacklo_epi32(r[i], r[i + 1]);
        a[i + 1] = _mm512_unpackhi_epi32(r[i], r[i + 1]);
    }
    /* b[4g + m], 128-bit chunk c: lanes 4g..4g+3 of word 4c + m */
    for (int g = 0; g < 4; g++) {
        b[4 * g + 0] = _mm512_unpacklo_epi64(a[4 * g], a[4 * g + 2]);
        b[4 * g + 1] = _mm512_unpackhi_epi64(a[4 * g], a[4 * g + 2]);
        b[4 * g + 2] = _mm512_unpacklo_epi64(a[4 * g + 1], a[4 * g + 3]);
        b[4 * g + 3] = _mm512_unpackhi_epi64(a[4 * g + 1], a[4 * g + 3]);
    }
    for (int m = 0; m < 4; m++) {
        __m512i c0 = _mm512_shuffle_i32x4(b[m], b[4 + m], 0x88);      /* P0 P2 Q0 Q2 */
        __m512i c1 = _mm512_shuffle_i32x4(b[m], b[4 + m], 0xdd);      /* P1 P3 Q1 Q3 */
        __m512i c2 = _mm512_shuffle_i32x4(b[8 + m], b[12 + m], 0x88); /* R0 R2 S0 S2 */
        __m512i c3 = _mm512_shuffle_i32x4(b[8 + m], b[12 + m], 0xdd); /* R1 R3 S1 S3 */
        w[m] = fs2_bswap32_x16(_mm512_shuffle_i32x4(c0, c2, 0x88));
        w[8 + m] = fs2_bswap32_x16(_mm512_shuffle_i32x4(c0, c2, 0xdd));
        w[4 + m] = fs2_bswap32_x16(_mm512_shuffle_i32x4(c1, c3, 0x88));
        w[12 + m] = fs2_bswap32_x16(_mm512_shuffle_i32x4(c1, c3, 0xdd));
    }
}

#define FS2_V                       __m512i
#define FS2_VN                      16
#define FS2_VTARGET                 FS2_AVX512
#define FS2_VNAME                   fs2_sm3_compress_x16_avx512
#define FS2_VADD(a, b)              _mm512_add_epi32((a), (b))
#define FS2_VXOR(a, b)              _mm512_xor_si512((a), (b))
#define FS2_VROTL(a, n)             _mm512_rol_epi32((a), (n))
#define FS2_VSET1(k)                _mm512_set1_epi32((int)(k))
#define FS2_VXOR3(a, b, c)          _mm512_ternarylogic_epi32((a), (b), (c), 0x96)
#define FS2_VMAJ(a, b, c)           _mm512_ternarylogic_epi32((a), (b), (c), 0xe8)
#define FS2_VCH(a, b, c)            _mm512_ternarylogic_epi32((a), (b), (c), 0xca)
#define FS2_VLOAD_BLOCKS(w, p, off) fs2_load16x16((w), (p), (off))
#define FS2_VPIN(x)                 __asm__("" : "+v"(x))
#include "sm3_lanes_tmpl.h"

/* ---------------------------------------------------------------------- */
/* The tables                                                               */
/* ---------------------------------------------------------------------- */

const fs2_sm3_ops fs2_sm3_ops_bmi2 = {
    .name = "bmi2",
    .cpu_needs = FS2_CPU_X86_BMI2,
    .compress = fs2_sm3_x86_bmi2,
    .lanes = 1,
};

const fs2_sm3_ops fs2_sm3_ops_avx2 = {
    .name = "avx2",
    .cpu_needs = FS2_CPU_X86_BMI2 | FS2_CPU_X86_AVX2,
    .compress = fs2_sm3_x86_bmi2,
    .lanes = 8,
    .compress_lanes = fs2_sm3_compress_x8_avx2,
};

const fs2_sm3_ops fs2_sm3_ops_avx512 = {
    .name = "avx512",
    .cpu_needs = FS2_CPU_X86_BMI2 | FS2_CPU_X86_AVX2 | FS2_CPU_X86_AVX512,
    .compress = fs2_sm3_x86_avx512_compress,
    .lanes = 16,
    .compress_lanes = fs2_sm3_compress_x16_avx512,
};
#endif
