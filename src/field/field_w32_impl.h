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
 * subtraction of p is a mask). Inversion: the generic field's divsteps.
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

/* The columns of a 512-bit product (lo[k], hi[k]: the sums of the low and
 * high halves of the word products of column k) into signed columns
 * t[0..16], then r = t 2^-256 mod p, fully reduced. The input is < p 2^256,
 * so the result before the final subtraction is < 2p. */
static inline void fs2_w32_redc(uint64_t r[4], const uint64_t lo[16], const uint64_t hi[16])
{
    int64_t t[17];
    t[0] = (int64_t)lo[0];
    for (int k = 1; k < 16; k++)
        t[k] = (int64_t)(lo[k] + hi[k - 1]);
    t[16] = (int64_t)hi[15];
    /* t += q p 2^(32 i), q = t_i mod 2^32: word i becomes 0 and is carried on */
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
    for (int k = 0; k < 8; k++) {
        int64_t v = t[8 + k] + c;
        w[k] = (uint32_t)v;
        c = v >> 32;
    }
    int64_t top = t[16] + c; /* 0 or 1 */
    for (int k = 0; k < 8; k++) {
        int64_t v = (int64_t)w[k] - (int64_t)FS2_W32_P[k] + br;
        d[k] = (uint32_t)v;
        br = v >> 32; /* 0 or -1 */
    }
    uint32_t keep = (uint32_t)((top + br) >> 32); /* all ones iff the 257-bit w - p < 0 */
    for (int k = 0; k < 4; k++) {
        uint64_t lo32 = (w[2 * k] & keep) | (d[2 * k] & ~keep);
        uint64_t hi32 = (w[2 * k + 1] & keep) | (d[2 * k + 1] & ~keep);
        r[k] = lo32 | (hi32 << 32);
    }
}

#if defined(__clang__)
#define FS2_W32_UNROLL _Pragma("clang loop unroll(full)")
#else
#define FS2_W32_UNROLL
#endif

static FS2_FIELD_OUTLINE void fs2_fe_mul(fs2_fe *r, const fs2_fe *a, const fs2_fe *b)
{
    uint32_t x[8], y[8];
    uint64_t lo[16] = {0}, hi[16] = {0};
    fs2_w32_split(x, a->v);
    fs2_w32_split(y, b->v);
    FS2_W32_UNROLL
    for (int i = 0; i < 8; i++) {
        FS2_W32_UNROLL
        for (int j = 0; j < 8; j++) {
            uint64_t p = (uint64_t)x[i] * y[j];
            lo[i + j] += (uint32_t)p;
            hi[i + j] += p >> 32;
        }
    }
    fs2_w32_redc(r->v, lo, hi);
}

/* The 28 products of distinct words once, doubled, then the 8 squares. */
static FS2_FIELD_OUTLINE void fs2_fe_sqr(fs2_fe *r, const fs2_fe *a)
{
    uint32_t x[8];
    uint64_t lo[16] = {0}, hi[16] = {0};
    fs2_w32_split(x, a->v);
    FS2_W32_UNROLL
    for (int i = 0; i < 8; i++) {
        FS2_W32_UNROLL
        for (int j = i + 1; j < 8; j++) {
            uint64_t p = (uint64_t)x[i] * x[j];
            lo[i + j] += (uint32_t)p;
            hi[i + j] += p >> 32;
        }
    }
    for (int k = 0; k < 16; k++) {
        lo[k] <<= 1;
        hi[k] <<= 1;
    }
    for (int i = 0; i < 8; i++) {
        uint64_t p = (uint64_t)x[i] * x[i];
        lo[2 * i] += (uint32_t)p;
        hi[2 * i] += p >> 32;
    }
    fs2_w32_redc(r->v, lo, hi);
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
