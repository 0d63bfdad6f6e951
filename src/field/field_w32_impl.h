/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The field primitives in portable C over 32-bit words (FS2_FIELD_W32),
 * included by field/field_impl.h alone: for targets whose only wide product
 * is 32 x 32 -> 64 bits (WebAssembly, 32-bit CPUs), where the generic
 * field's 64 x 64 -> 128-bit products cost four of those and a carry chain
 * each (field/wide.h). The representation is the interface's (4 x 64-bit
 * limbs, Montgomery form with R = 2^256); each product splits its operands
 * into 8 words.
 *
 * Products: the 64 (squares: 36) word products are summed by columns, their
 * low and high halves in separate 64-bit sums (at most 8 of each: no
 * overflow, no carry chain), then reduced by Montgomery's method one word
 * at a time. As p = -1 mod 2^32, the multiplier of each step is the word
 * itself, q = t_i mod 2^32, and q p = q (2^256 - 2^224 - 2^96 + 2^64 - 1)
 * adds and subtracts q at four word offsets: no product. The columns are
 * signed 64-bit sums (they stay far inside +-2^40), carried into the next
 * column by an arithmetic shift as each step needs its word exact.
 *
 * Constant time: the same operations for every operand; no branch, no
 * address and no variable-time instruction depends on a value (the final
 * subtraction of p is a mask; the 32 x 32 -> 64-bit products are one
 * i64.mul each in WebAssembly, which engines compile to the CPU's 64-bit
 * multiply: fixed latency on the x86-64 and ARMv8 cores they run on).
 * Inversion: the generic field's divsteps. The SIMD build computes the same
 * columns with vector products (below).
 */
#ifndef FS2_FIELD_W32_IMPL_H
#define FS2_FIELD_W32_IMPL_H

static const uint32_t FS2_W32_P[8] = {0xFFFFFFFFu, 0xFFFFFFFFu, 0x00000000u, 0xFFFFFFFFu,
                                      0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFEu};

static inline void fs2_w32_split(uint32_t w[8], const uint64_t v[4])
{
    for (int i = 0; i < 4; i++) {
        w[2 * i] = (uint32_t)v[i];
        w[2 * i + 1] = (uint32_t)(v[i] >> 32);
    }
}

#if defined(__GNUC__)
#define FS2_W32_INLINE static inline __attribute__((always_inline))
#else
#define FS2_W32_INLINE static inline
#endif
#if defined(__clang__)
#define FS2_W32_UNROLL _Pragma("clang loop unroll(full)")
#else
#define FS2_W32_UNROLL
#endif

/* The signed columns t[0..16] of a 512-bit product, t < p 2^256, into
 * r = t 2^-256 mod p, fully reduced (before the final subtraction it is
 * < 2p). */
FS2_W32_INLINE void fs2_w32_redc(uint64_t r[4], int64_t t[17])
{
    /* t += q p 2^(32 i), q = t_i mod 2^32: word i becomes 0 and is carried on */
    FS2_W32_UNROLL
    for (int i = 0; i < 8; i++) {
        int64_t q = t[i] & 0xffffffff;
        t[i + 1] += (t[i] - q) >> 32; /* exact: t_i - q = 0 mod 2^32 */
        t[i + 2] += q;
        t[i + 3] -= q;
        t[i + 7] -= q;
        t[i + 8] += q;
    }
    /* the words of t / 2^256 (< 2p < 2^257), then minus p unless that borrows */
    uint32_t w[8], d[8];
    int64_t c = 0, br = 0;
    FS2_W32_UNROLL
    for (int k = 0; k < 8; k++) {
        int64_t v = t[8 + k] + c;
        w[k] = (uint32_t)v;
        c = v >> 32;
    }
    int64_t top = t[16] + c; /* 0 or 1 */
    FS2_W32_UNROLL
    for (int k = 0; k < 8; k++) {
        int64_t v = (int64_t)w[k] - (int64_t)FS2_W32_P[k] + br;
        d[k] = (uint32_t)v;
        br = v >> 32; /* 0 or -1 */
    }
    uint32_t keep = (uint32_t)((top + br) >> 32); /* all ones iff the 257-bit w - p < 0 */
    FS2_W32_UNROLL
    for (int k = 0; k < 4; k++) {
        uint64_t lo32 = (w[2 * k] & keep) | (d[2 * k] & ~keep);
        uint64_t hi32 = (w[2 * k + 1] & keep) | (d[2 * k + 1] & ~keep);
        r[k] = lo32 | (hi32 << 32);
    }
}

#if defined(__wasm_simd128__)
/* WebAssembly SIMD (the fastsm2-simd.wasm build): the column sums two at a
 * time. Lane pairs are columns (2m, 2m + 1); the product of word x_i with
 * the pair of words (y_j, y_j+1), j = 2m - i, adds to both columns at once
 * (i64x2.extmul_low_i32x4_u: two 32 x 32 -> 64-bit products), its low and
 * high halves into separate sums as in the scalar code: 36 vector products
 * for a product's 64 word products, 20 for a square's 36. The high halves
 * then move one column up by a lane shuffle. Constant time as the scalar
 * code: the same vector operations (products, and, shift, add, shuffles,
 * lane extractions) for every operand, no branch, no address from a value;
 * engines compile these to fixed-latency SIMD instructions (x86 PMULUDQ,
 * PAND, PSRLQ, PADDQ, shuffles; ARM UMULL and the like). */
#include <wasm_simd128.h>

FS2_W32_INLINE void fs2_w32_cols_simd(int64_t t[17], const uint64_t *A, const uint64_t *B)
{
    const v128_t Z = wasm_i64x2_splat(0);
    const v128_t B0 = wasm_v128_load(B), B1 = wasm_v128_load(B + 2);
    v128_t P[9]; /* P[j + 1] = (y_j, y_j+1, *, *), y_-1 = y_8 = 0 */
    P[0] = wasm_i32x4_shuffle(Z, B0, 0, 4, 0, 0);
    P[1] = B0;
    P[2] = wasm_i32x4_shuffle(B0, B0, 1, 2, 1, 2);
    P[3] = wasm_i32x4_shuffle(B0, B0, 2, 3, 2, 3);
    P[4] = wasm_i32x4_shuffle(B0, B1, 3, 4, 3, 4);
    P[5] = B1;
    P[6] = wasm_i32x4_shuffle(B1, B1, 1, 2, 1, 2);
    P[7] = wasm_i32x4_shuffle(B1, B1, 2, 3, 2, 3);
    P[8] = wasm_i32x4_shuffle(B1, Z, 3, 4, 3, 4);
    const v128_t A0 = wasm_v128_load(A), A1 = wasm_v128_load(A + 2);
    v128_t X[8];
    X[0] = wasm_i32x4_shuffle(A0, A0, 0, 0, 0, 0);
    X[1] = wasm_i32x4_shuffle(A0, A0, 1, 1, 1, 1);
    X[2] = wasm_i32x4_shuffle(A0, A0, 2, 2, 2, 2);
    X[3] = wasm_i32x4_shuffle(A0, A0, 3, 3, 3, 3);
    X[4] = wasm_i32x4_shuffle(A1, A1, 0, 0, 0, 0);
    X[5] = wasm_i32x4_shuffle(A1, A1, 1, 1, 1, 1);
    X[6] = wasm_i32x4_shuffle(A1, A1, 2, 2, 2, 2);
    X[7] = wasm_i32x4_shuffle(A1, A1, 3, 3, 3, 3);
    const v128_t M32 = wasm_i64x2_splat(0xffffffff);
    v128_t lo[8], hi[8];
    FS2_W32_UNROLL
    for (int m = 0; m < 8; m++) {
        v128_t l = Z, h = Z;
        FS2_W32_UNROLL
        for (int i = 0; i < 8; i++) {
            int j = 2 * m - i;
            if (j < -1 || j > 7)
                continue;
            v128_t p = wasm_u64x2_extmul_low_u32x4(X[i], P[j + 1]);
            l = wasm_i64x2_add(l, wasm_v128_and(p, M32));
            h = wasm_i64x2_add(h, wasm_u64x2_shr(p, 32));
        }
        lo[m] = l;
        hi[m] = h;
    }
    /* (t[2m], t[2m+1]) = lo[m] + (hi[m-1].1, hi[m].0) */
    v128_t prev = Z;
    FS2_W32_UNROLL
    for (int m = 0; m < 8; m++) {
        v128_t s = wasm_i64x2_add(lo[m], wasm_i64x2_shuffle(prev, hi[m], 1, 2));
        t[2 * m] = wasm_i64x2_extract_lane(s, 0);
        t[2 * m + 1] = wasm_i64x2_extract_lane(s, 1);
        prev = hi[m];
    }
    t[16] = wasm_i64x2_extract_lane(prev, 1);
}
FS2_W32_INLINE void fs2_w32_sqr_cols_simd(int64_t t[17], const uint64_t *A)
{
    const v128_t Z = wasm_i64x2_splat(0);
    const v128_t B0 = wasm_v128_load(A), B1 = wasm_v128_load(A + 2);
    v128_t P[9];
    P[0] = wasm_i32x4_shuffle(Z, B0, 0, 4, 0, 0);
    P[1] = B0;
    P[2] = wasm_i32x4_shuffle(B0, B0, 1, 2, 1, 2);
    P[3] = wasm_i32x4_shuffle(B0, B0, 2, 3, 2, 3);
    P[4] = wasm_i32x4_shuffle(B0, B1, 3, 4, 3, 4);
    P[5] = B1;
    P[6] = wasm_i32x4_shuffle(B1, B1, 1, 2, 1, 2);
    P[7] = wasm_i32x4_shuffle(B1, B1, 2, 3, 2, 3);
    P[8] = wasm_i32x4_shuffle(B1, Z, 3, 4, 3, 4);
    v128_t X[8];
    X[0] = wasm_i32x4_shuffle(B0, B0, 0, 0, 0, 0);
    X[1] = wasm_i32x4_shuffle(B0, B0, 1, 1, 1, 1);
    X[2] = wasm_i32x4_shuffle(B0, B0, 2, 2, 2, 2);
    X[3] = wasm_i32x4_shuffle(B0, B0, 3, 3, 3, 3);
    X[4] = wasm_i32x4_shuffle(B1, B1, 0, 0, 0, 0);
    X[5] = wasm_i32x4_shuffle(B1, B1, 1, 1, 1, 1);
    X[6] = wasm_i32x4_shuffle(B1, B1, 2, 2, 2, 2);
    X[7] = wasm_i32x4_shuffle(B1, B1, 3, 3, 3, 3);
    const v128_t M32 = wasm_i64x2_splat(0xffffffff);
    const v128_t HI_LANE = wasm_i64x2_make(0, -1);
    v128_t lo[8], hi[8];
    FS2_W32_UNROLL
    for (int m = 0; m < 8; m++) {
        v128_t l = Z, h = Z;
        /* i < m: both lanes are products of distinct words (j = 2m - i > i) */
        FS2_W32_UNROLL
        for (int i = 0; i < 8; i++) {
            int j = 2 * m - i;
            if (i >= m || j > 7)
                continue;
            v128_t p = wasm_u64x2_extmul_low_u32x4(X[i], P[j + 1]);
            l = wasm_i64x2_add(l, wasm_v128_and(p, M32));
            h = wasm_i64x2_add(h, wasm_u64x2_shr(p, 32));
        }
        l = wasm_i64x2_add(l, l);
        h = wasm_i64x2_add(h, h);
        /* i = m: (x_m^2, x_m x_m+1), the second doubled */
        v128_t p = wasm_u64x2_extmul_low_u32x4(X[m], P[m + 1]);
        v128_t pl = wasm_v128_and(p, M32), ph = wasm_u64x2_shr(p, 32);
        l = wasm_i64x2_add(l, wasm_i64x2_add(pl, wasm_v128_and(pl, HI_LANE)));
        h = wasm_i64x2_add(h, wasm_i64x2_add(ph, wasm_v128_and(ph, HI_LANE)));
        lo[m] = l;
        hi[m] = h;
    }
    v128_t prev = Z;
    FS2_W32_UNROLL
    for (int m = 0; m < 8; m++) {
        v128_t s = wasm_i64x2_add(lo[m], wasm_i64x2_shuffle(prev, hi[m], 1, 2));
        t[2 * m] = wasm_i64x2_extract_lane(s, 0);
        t[2 * m + 1] = wasm_i64x2_extract_lane(s, 1);
        prev = hi[m];
    }
    t[16] = wasm_i64x2_extract_lane(prev, 1);
}
#endif

/* Column k of a product: the low halves of its word products into t[k],
 * the high halves into t[k + 1] (at most 8 of each: < 2^35). */
#define FS2_W32_COLUMN(t, k, expr_i_j)                                     \
    do {                                                                   \
        uint64_t lo_ = 0, hi_ = 0;                                         \
        FS2_W32_UNROLL                                                     \
        for (int i = (k) < 8 ? 0 : (k)-7; i <= ((k) < 8 ? (k) : 7); i++) { \
            int j = (k)-i;                                                 \
            uint64_t p_ = expr_i_j;                                        \
            lo_ += (uint32_t)p_;                                           \
            hi_ += p_ >> 32;                                               \
        }                                                                  \
        t[k] += (int64_t)lo_;                                              \
        t[(k) + 1] += (int64_t)hi_;                                        \
    } while (0)

static FS2_FIELD_OUTLINE void fs2_fe_mul(fs2_fe *r, const fs2_fe *a, const fs2_fe *b)
{
    int64_t t[17];
#if defined(__wasm_simd128__)
    fs2_w32_cols_simd(t, a->v, b->v);
#else
    uint32_t x[8], y[8];
    fs2_w32_split(x, a->v);
    fs2_w32_split(y, b->v);
    FS2_W32_UNROLL
    for (int k = 0; k < 17; k++)
        t[k] = 0;
    FS2_W32_UNROLL
    for (int k = 0; k < 15; k++)
        FS2_W32_COLUMN(t, k, (uint64_t)x[i] * y[j]);
#endif
    fs2_w32_redc(r->v, t);
}

/* The products of distinct words once, doubled, then the 8 squares. */
static FS2_FIELD_OUTLINE void fs2_fe_sqr(fs2_fe *r, const fs2_fe *a)
{
    int64_t t[17];
#if defined(__wasm_simd128__)
    fs2_w32_sqr_cols_simd(t, a->v);
#else
    uint32_t x[8];
    fs2_w32_split(x, a->v);
    FS2_W32_UNROLL
    for (int k = 0; k < 17; k++)
        t[k] = 0;
    FS2_W32_UNROLL
    for (int k = 0; k < 15; k++)
        FS2_W32_COLUMN(t, k, i < j ? (uint64_t)x[i] * x[j] : 0);
    FS2_W32_UNROLL
    for (int k = 0; k < 17; k++)
        t[k] <<= 1;
    FS2_W32_UNROLL
    for (int i = 0; i < 8; i++) {
        uint64_t p = (uint64_t)x[i] * x[i];
        t[2 * i] += (int64_t)(uint32_t)p;
        t[2 * i + 1] += (int64_t)(p >> 32);
    }
#endif
    fs2_w32_redc(r->v, t);
}

static FS2_FIELD_OUTLINE void fs2_fe_add(fs2_fe *r, const fs2_fe *a, const fs2_fe *b)
{
    fs2_modadd(r->v, a->v, b->v, FS2_P);
}

static FS2_FIELD_OUTLINE void fs2_fe_sub(fs2_fe *r, const fs2_fe *a, const fs2_fe *b)
{
    fs2_modsub(r->v, a->v, b->v, FS2_P);
}

static FS2_FIELD_OUTLINE void fs2_fe_neg(fs2_fe *r, const fs2_fe *a)
{
    static const uint64_t zero[4] = {0, 0, 0, 0};
    fs2_modsub(r->v, zero, a->v, FS2_P);
}

static inline void fs2_fe_inv(fs2_fe *r, const fs2_fe *a)
{
    fs2_fe y;
    fs2_modinv_safegcd(y.v, a->v, &FS2_MODINFO_P);
    fs2_fe_mul(r, &y, &FS2_FE_R3);
}

#endif
