/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The constant-time table lookup of the scalar multiplications, for
 * src/ec/ec_backend.c alone (through ecmult_impl.h): fs2_select_limbs(out, table, entries, width,
 * idx) copies entry idx - 1 of a table of `entries` entries of `width`
 * limbs (8: affine points, 12: Jacobian points) into out, or zeros for
 * idx = 0. Every entry is read, whatever idx, and neither an address nor a
 * branch depends on idx (the secret digit of a scalar).
 *
 * One version per build of the EC backend: AVX2 in the avx2 build
 * (FS2_EC_AVX2), NEON with the AArch64 field (every core the armv8 backend
 * runs on has ASIMD), WebAssembly SIMD in a build for it (-msimd128: the
 * npm package's fastsm2-simd.wasm), portable C otherwise.
 */
#ifndef FS2_SELECT_IMPL_H
#define FS2_SELECT_IMPL_H

/* FS2_FIELD names the field (field/field.h); the vector headers are
 * ec_backend.c's already, included there before its target pragma. */
#include "ct.h"
#include "field/field.h"
#if FS2_EC_AVX2
#include <immintrin.h>
#elif FS2_FIELD == FS2_FIELD_AARCH64 && defined(__aarch64__)
#include <arm_neon.h>
#elif defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

/* All-ones if a == b (small unsigned ints), else 0, without branching. */
static inline uint64_t fs2_eq_mask_u(unsigned a, unsigned b)
{
    return fs2_ct_is_zero_u64((uint64_t)(a ^ b));
}

#if FS2_EC_AVX2
/* Constant-time table lookup with 32-byte vectors: every entry is loaded
 * and ANDed with a mask that is all ones only for entry idx - 1 (masks come
 * from comparisons, so no address or branch depends on idx); idx = 0 gives
 * zeros. Widths are multiples of 4 limbs (8: affine points, 12: Jacobian
 * points).
 *
 * Tables of 8k entries are scanned in two levels: the low three bits of
 * idx - 1 select within each group of eight (eight masks made once, the
 * first entry of a group ANDed into a fresh register), the high bits pick
 * one group's result. A 64-entry scan then takes about 290 vector
 * operations instead of 384 (a compare and a counter step per entry), and
 * a kG's 37 scans about three quarters of the time. idx = 0 wraps idx - 1
 * to all ones, whose high bits match no group. */
static inline void fs2_select_limbs(void *out, const uint64_t *table, unsigned entries, unsigned width, unsigned idx)
{
    __m256i acc[3] = {_mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256()};
    unsigned vecs = width / 4;
    if (entries % 8 == 0 && entries >= 32) {
        unsigned k = idx - 1;
        const __m256i lo = _mm256_set1_epi64x((long long)(k & 7)), hi = _mm256_set1_epi64x((long long)(k >> 3));
        __m256i ml[8];
        for (int i = 0; i < 8; i++)
            ml[i] = _mm256_cmpeq_epi64(lo, _mm256_set1_epi64x(i));
        for (unsigned g = 0; g < entries / 8; g++) {
            const uint64_t *e = table + (size_t)width * 8 * g;
            __m256i v[3];
            for (unsigned l = 0; l < vecs; l++)
                v[l] = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(e + 4 * l)), ml[0]);
            for (unsigned i = 1; i < 8; i++)
                for (unsigned l = 0; l < vecs; l++)
                    v[l] = _mm256_or_si256(
                        v[l], _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(e + width * i + 4 * l)), ml[i]));
            __m256i mh = _mm256_cmpeq_epi64(hi, _mm256_set1_epi64x((long long)g));
            for (unsigned l = 0; l < vecs; l++)
                acc[l] = _mm256_or_si256(acc[l], _mm256_and_si256(v[l], mh));
        }
    } else {
        const __m256i want = _mm256_set1_epi64x((long long)idx), one = _mm256_set1_epi64x(1);
        __m256i cnt = one;
        for (unsigned j = 0; j < entries; j++) {
            __m256i m = _mm256_cmpeq_epi64(cnt, want);
            const uint64_t *e = table + (size_t)width * j;
            for (unsigned l = 0; l < vecs; l++)
                acc[l] = _mm256_or_si256(acc[l], _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(e + 4 * l)), m));
            cnt = _mm256_add_epi64(cnt, one);
        }
    }
    for (unsigned l = 0; l < vecs; l++)
        _mm256_storeu_si256((__m256i *)out + l, acc[l]);
}

#elif FS2_FIELD == FS2_FIELD_AARCH64
/* Constant-time table lookup with NEON: entry idx - 1 of `entries` entries
 * of `width` limbs (8: affine points, 12: Jacobian points), or zeros for
 * idx = 0. Every entry is loaded; a lane mask (CMEQ against a running
 * counter) and BSL keep the wanted one, so neither the addresses nor the
 * branches depend on idx. */
static inline void fs2_select_limbs(void *out, const uint64_t *table, unsigned entries, unsigned width, unsigned idx)
{
    const uint64x2_t one = vdupq_n_u64(1), want = vdupq_n_u64(idx);
    uint64x2_t cnt = one;
    uint64x2_t a0 = vdupq_n_u64(0), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0;
    uint64_t *o = out;
    unsigned j = 0;
    if (width == 8) { /* public: the call site's constant */
        /* four entries per iteration (the 64-entry kG tables): d = idx - j
         * against the constants 1..4, one subtraction per iteration */
        const uint64x2_t c2 = vaddq_u64(one, one), c3 = vaddq_u64(c2, one), c4 = vaddq_u64(c2, c2);
        uint64x2_t d = want;
        for (; j + 4 <= entries; j += 4, table += 32) {
            uint64x2_t m0 = vceqq_u64(d, one), m1 = vceqq_u64(d, c2);
            uint64x2_t m2 = vceqq_u64(d, c3), m3 = vceqq_u64(d, c4);
            d = vsubq_u64(d, c4);
            /* one LD1 of four registers per 64-byte entry */
            uint64x2x4_t e0 = vld1q_u64_x4(table), e1 = vld1q_u64_x4(table + 8);
            uint64x2x4_t e2 = vld1q_u64_x4(table + 16), e3 = vld1q_u64_x4(table + 24);
            a0 = vbslq_u64(m0, e0.val[0], a0);
            a1 = vbslq_u64(m0, e0.val[1], a1);
            a2 = vbslq_u64(m0, e0.val[2], a2);
            a3 = vbslq_u64(m0, e0.val[3], a3);
            a0 = vbslq_u64(m1, e1.val[0], a0);
            a1 = vbslq_u64(m1, e1.val[1], a1);
            a2 = vbslq_u64(m1, e1.val[2], a2);
            a3 = vbslq_u64(m1, e1.val[3], a3);
            a0 = vbslq_u64(m2, e2.val[0], a0);
            a1 = vbslq_u64(m2, e2.val[1], a1);
            a2 = vbslq_u64(m2, e2.val[2], a2);
            a3 = vbslq_u64(m2, e2.val[3], a3);
            a0 = vbslq_u64(m3, e3.val[0], a0);
            a1 = vbslq_u64(m3, e3.val[1], a1);
            a2 = vbslq_u64(m3, e3.val[2], a2);
            a3 = vbslq_u64(m3, e3.val[3], a3);
        }
        cnt = vdupq_n_u64((uint64_t)j + 1);
        for (; j < entries; j++, table += 8) {
            uint64x2_t m = vceqq_u64(cnt, want);
            cnt = vaddq_u64(cnt, one);
            a0 = vbslq_u64(m, vld1q_u64(table), a0);
            a1 = vbslq_u64(m, vld1q_u64(table + 2), a1);
            a2 = vbslq_u64(m, vld1q_u64(table + 4), a2);
            a3 = vbslq_u64(m, vld1q_u64(table + 6), a3);
        }
    } else {
        for (; j < entries; j++, table += 12) {
            uint64x2_t m = vceqq_u64(cnt, want);
            cnt = vaddq_u64(cnt, one);
            uint64x2x3_t e0 = vld1q_u64_x3(table), e1 = vld1q_u64_x3(table + 6);
            a0 = vbslq_u64(m, e0.val[0], a0);
            a1 = vbslq_u64(m, e0.val[1], a1);
            a2 = vbslq_u64(m, e0.val[2], a2);
            a3 = vbslq_u64(m, e1.val[0], a3);
            a4 = vbslq_u64(m, e1.val[1], a4);
            a5 = vbslq_u64(m, e1.val[2], a5);
        }
        vst1q_u64(o + 8, a4);
        vst1q_u64(o + 10, a5);
    }
    vst1q_u64(o, a0);
    vst1q_u64(o + 2, a1);
    vst1q_u64(o + 4, a2);
    vst1q_u64(o + 6, a3);
}

#elif defined(__wasm_simd128__)
/* WebAssembly SIMD: every entry loaded as 128-bit vectors and ANDed with a
 * mask that is all ones only for entry idx - 1: i64x2.eq of a running
 * counter against idx (no address or branch depends on idx; engines compile
 * the compare to PCMPEQQ or CMEQ, fixed-time instructions). */
static inline void fs2_select_limbs(void *out, const uint64_t *table, unsigned entries, unsigned width, unsigned idx)
{
    v128_t acc[6];
    unsigned vecs = width / 2;
    for (unsigned l = 0; l < 6; l++)
        acc[l] = wasm_i64x2_splat(0);
    const v128_t want = wasm_i64x2_splat((int64_t)idx), one = wasm_i64x2_splat(1);
    v128_t count = one;
    for (unsigned j = 0; j < entries; j++) {
        v128_t m = wasm_i64x2_eq(count, want);
        count = wasm_i64x2_add(count, one);
        const uint64_t *e = table + (size_t)width * j;
        for (unsigned l = 0; l < vecs; l++)
            acc[l] = wasm_v128_or(acc[l], wasm_v128_and(wasm_v128_load(e + 2 * l), m));
    }
    uint64_t *o = out;
    for (unsigned l = 0; l < vecs; l++)
        wasm_v128_store(o + 2 * l, acc[l]);
}

#else
/* Portable: every entry ANDed with a mask that is all ones for entry
 * idx - 1 only. Inlined with a constant width, the inner loop vectorizes. */
static inline void fs2_select_limbs(void *out, const uint64_t *table, unsigned entries, unsigned width, unsigned idx)
{
    uint64_t acc[12] = {0};
    for (unsigned j = 0; j < entries; j++) {
        uint64_t m = fs2_eq_mask_u(idx, j + 1);
        const uint64_t *e = table + (size_t)width * j;
        for (unsigned l = 0; l < width; l++)
            acc[l] |= e[l] & m;
    }
    memcpy(out, acc, width * sizeof(uint64_t));
}
#endif

#endif
