/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The 128-bit intermediates of the portable C: a product of two 64-bit
 * limbs plus two addends (the Montgomery loop of field/u256.h), carries of
 * 64-bit additions, and the signed accumulators of the divsteps
 * (field/safegcd.h).
 *
 * With the compiler's __int128 (GCC and Clang on 64-bit targets) the
 * callers use it directly. Without it (32-bit targets, other compilers, or
 * FS2_NO_INT128, which selects this path anywhere so that make
 * test-portable can test it) these are pairs of 64-bit words: a product
 * from four 32x32->64-bit products, a carry or borrow from the operands'
 * and the result's top bits, never from a comparison or a branch. Constant
 * time either way, as far as the CPU's multiplier is (a 32-bit multiply
 * that finishes early on small operands, as on the ARM Cortex-M3, is not).
 */
#ifndef FS2_WIDE_H
#define FS2_WIDE_H

#include <stdint.h>

#if defined(__SIZEOF_INT128__) && !defined(FS2_NO_INT128)
#define FS2_HAVE_INT128 1
#endif

/* The carry out of s = a + b + c (c in {0, 1}): the majority of the top
 * bits of a, b and the carry into bit 63 (s's top bit against a's and b's). */
static inline uint64_t fs2_carry_out(uint64_t a, uint64_t b, uint64_t s)
{
    return ((a & b) | ((a | b) & ~s)) >> 63;
}

/* The borrow out of d = a - b - c (c in {0, 1}). */
static inline uint64_t fs2_borrow_out(uint64_t a, uint64_t b, uint64_t d)
{
    return ((~a & b) | (~(a ^ b) & d)) >> 63;
}

#if !defined(FS2_HAVE_INT128)
/* a b = hi 2^64 + lo; returns lo. */
static inline uint64_t fs2_mul64(uint64_t *hi, uint64_t a, uint64_t b)
{
    uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    /* at most 3 (2^32 - 1): no overflow */
    uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
    *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    return (mid << 32) | (uint32_t)p00;
}

/* a b + c + d = hi 2^64 + lo (< 2^128 for any 64-bit inputs); returns lo. */
static inline uint64_t fs2_mac64(uint64_t *hi, uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
    uint64_t h, l = fs2_mul64(&h, a, b);
    uint64_t s = l + c;
    h += fs2_carry_out(l, c, s);
    uint64_t t = s + d;
    h += fs2_carry_out(s, d, t);
    *hi = h;
    return t;
}

/* Signed 128-bit accumulators (field/safegcd.h without __int128):
 * products of two signed 64-bit values, sums, an arithmetic shift right by
 * 62 and the low word. */
typedef struct {
    uint64_t lo, hi; /* two's complement: hi 2^64 + lo, hi's top bit the sign */
} fs2_s128;

/* The unsigned product of the two words, less 2^64 b for a < 0 and 2^64 a
 * for b < 0 (mod 2^128): the signed product. */
static inline fs2_s128 fs2_s128_mul(int64_t a, int64_t b)
{
    fs2_s128 r;
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
    r.lo = fs2_mul64(&r.hi, ua, ub);
    r.hi -= (ub & (uint64_t)(a >> 63)) + (ua & (uint64_t)(b >> 63));
    return r;
}

static inline fs2_s128 fs2_s128_add(fs2_s128 x, fs2_s128 y)
{
    fs2_s128 r;
    r.lo = x.lo + y.lo;
    r.hi = x.hi + y.hi + fs2_carry_out(x.lo, y.lo, r.lo);
    return r;
}

static inline fs2_s128 fs2_s128_sar62(fs2_s128 x)
{
    fs2_s128 r;
    r.lo = (x.lo >> 62) | (x.hi << 2);
    r.hi = (uint64_t)((int64_t)x.hi >> 62);
    return r;
}

static inline uint64_t fs2_s128_lo(fs2_s128 x)
{
    return x.lo;
}
#endif

#endif
