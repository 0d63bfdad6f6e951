/* SPDX-License-Identifier: Apache-2.0 */
/*
 * GHASH (NIST SP 800-38D 6.3-6.4) in portable constant-time C: the
 * generic table's ghash slot and the multiplication that makes a key's
 * powers of H (src/sm4/sm4_ops.h gives the representation: a block is a
 * big-endian 128-bit number, the coefficient of x^0 in its top bit).
 *
 * No table: the usual 4-bit tables of multiples of H would be indexed by
 * data bits. Carry-less products come from integer multiplications with
 * holes: split each operand into four classes of bits four apart, so that
 * in x_a * y_b the sums of the partial products of one column (at most
 * 16) never reach the next bit of the same class, and keep of each product
 * only its class a + b. That is exact for the low 64 bits of a 64 x 64-bit
 * product; the high 64 bits are the low ones of the product of the
 * bit-reversed operands, reversed. Integer multiplication is constant time
 * on the CPUs this library targets (x86-64, AArch64).
 *
 * A product of two elements in this representation, 255 bits with the
 * coefficient of x^k at bit 254 - k, is shifted left by one so that its
 * high 128 bits are the coefficients of x^127 .. x^0 in our order; the low
 * 128 bits L stand for x^128 L, folded back by x^128 = x^7 + x^2 + x + 1
 * twice (the bits that the first fold pushes past x^127 form D below).
 */
#include "sm4_ops.h"

#define M0 0x1111111111111111ULL
#define M1 0x2222222222222222ULL
#define M2 0x4444444444444444ULL
#define M3 0x8888888888888888ULL

/* The low 64 bits of the carry-less product of x and y. */
static inline uint64_t clmul_lo(uint64_t x, uint64_t y)
{
    uint64_t x0 = x & M0, x1 = x & M1, x2 = x & M2, x3 = x & M3;
    uint64_t y0 = y & M0, y1 = y & M1, y2 = y & M2, y3 = y & M3;
    uint64_t z0 = (x0 * y0) ^ (x1 * y3) ^ (x2 * y2) ^ (x3 * y1);
    uint64_t z1 = (x0 * y1) ^ (x1 * y0) ^ (x2 * y3) ^ (x3 * y2);
    uint64_t z2 = (x0 * y2) ^ (x1 * y1) ^ (x2 * y0) ^ (x3 * y3);
    uint64_t z3 = (x0 * y3) ^ (x1 * y2) ^ (x2 * y1) ^ (x3 * y0);
    return (z0 & M0) | (z1 & M1) | (z2 & M2) | (z3 & M3);
}

static inline uint64_t rev64(uint64_t x)
{
    x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
    x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
    x = ((x >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((x & 0x0F0F0F0F0F0F0F0FULL) << 4);
    return __builtin_bswap64(x);
}

/* The 128-bit carry-less product of x and y: {low, high}. */
static inline void clmul64(uint64_t r[2], uint64_t x, uint64_t y)
{
    r[0] = clmul_lo(x, y);
    r[1] = rev64(clmul_lo(rev64(x), rev64(y))) >> 1;
}

void fs2_ghash_mul_generic(uint64_t x[2], const uint64_t y[2])
{
    /* Karatsuba: (x1 X + x0)(y1 X + y0), X = 2^64 */
    uint64_t lo[2], hi[2], mid[2];
    clmul64(lo, x[0], y[0]);
    clmul64(hi, x[1], y[1]);
    clmul64(mid, x[0] ^ x[1], y[0] ^ y[1]);
    mid[0] ^= lo[0] ^ hi[0];
    mid[1] ^= lo[1] ^ hi[1];
    /* the 256-bit product p3:p2:p1:p0, shifted left by 1 */
    uint64_t p0 = lo[0], p1 = lo[1] ^ mid[0], p2 = hi[0] ^ mid[1], p3 = hi[1];
    p3 = (p3 << 1) | (p2 >> 63);
    p2 = (p2 << 1) | (p1 >> 63);
    p1 = (p1 << 1) | (p0 >> 63);
    p0 <<= 1;
    /* fold L = p1:p0: D = L << 127 ^ L << 126 ^ L << 121 (mod 2^128),
     * then E = L ^ D, and E ^ E >> 1 ^ E >> 2 ^ E >> 7 */
    uint64_t e1 = p1 ^ (p0 << 63) ^ (p0 << 62) ^ (p0 << 57), e0 = p0;
    uint64_t r0 = e0 ^ (e0 >> 1) ^ (e1 << 63) ^ (e0 >> 2) ^ (e1 << 62) ^ (e0 >> 7) ^ (e1 << 57);
    uint64_t r1 = e1 ^ (e1 >> 1) ^ (e1 >> 2) ^ (e1 >> 7);
    x[0] = p2 ^ r0;
    x[1] = p3 ^ r1;
}

void fs2_ghash_generic(uint64_t xi[2], const uint64_t (*hpow)[2], const unsigned char *in, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        xi[1] ^= fs2_load64_be(in + 16 * i);
        xi[0] ^= fs2_load64_be(in + 16 * i + 8);
        fs2_ghash_mul_generic(xi, hpow[0]);
    }
}
