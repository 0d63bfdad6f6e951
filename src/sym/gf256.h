/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Arithmetic in GF(2^8) on eight bytes at once, each byte of a uint64_t one
 * element, for the computed S-boxes of SM4 and AES (src/sym/sm4.c, aes.c).
 * Only shifts, ANDs, XORs and multiplications by constants: no branch and
 * no memory index depends on the values, so the S-boxes run in constant
 * time (the table lookups of the usual implementations would index memory
 * with key and data bytes). `red` is the reduction polynomial without its
 * x^8 term: 0x1B for AES (x^8+x^4+x^3+x+1, FIPS 197 4.2), 0xF5 for SM4
 * (x^8+x^7+x^6+x^5+x^4+x^2+1, GB/T 32907 clause 6.2 / the S-box's
 * published algebraic form). Included by one source file each.
 */
#ifndef FS2_GF256_H
#define FS2_GF256_H

#include <stdint.h>

#include "ct.h"

#define FS2_GF_LSB 0x0101010101010101ull

/* x * a in every byte. */
static inline uint64_t fs2_gf_xtime(uint64_t a, uint64_t red)
{
    uint64_t hi = (a >> 7) & FS2_GF_LSB;
    return ((a & 0x7F7F7F7F7F7F7F7Full) << 1) ^ (hi * red);
}

/* a * b in every byte. */
static inline uint64_t fs2_gf_mul(uint64_t a, uint64_t b, uint64_t red)
{
    uint64_t r = 0;
    for (int i = 0; i < 8; i++) {
        /* 0xFF in each byte whose bit i of b is set: (0 or 1 per byte) * 0xFF. */
        uint64_t m = fs2_ct_barrier_u64((b >> i) & FS2_GF_LSB) * 0xFFu;
        r ^= a & m;
        a = fs2_gf_xtime(a, red);
    }
    return r;
}

/* a^254 in every byte: the inverse, with 0 mapped to 0. 7 squarings and
 * 4 multiplications: 2, 3, 6, 12, 15, 30, 60, 120, 240, 252, 254. */
static inline uint64_t fs2_gf_inv(uint64_t a, uint64_t red)
{
    uint64_t a2 = fs2_gf_mul(a, a, red);
    uint64_t a3 = fs2_gf_mul(a2, a, red);
    uint64_t a6 = fs2_gf_mul(a3, a3, red);
    uint64_t a12 = fs2_gf_mul(a6, a6, red);
    uint64_t a15 = fs2_gf_mul(a12, a3, red);
    uint64_t t = fs2_gf_mul(a15, a15, red); /* 30 */
    t = fs2_gf_mul(t, t, red);              /* 60 */
    t = fs2_gf_mul(t, t, red);              /* 120 */
    t = fs2_gf_mul(t, t, red);              /* 240 */
    t = fs2_gf_mul(t, a12, red);            /* 252 */
    return fs2_gf_mul(t, a2, red);          /* 254 */
}

/* Rotate every byte right by k (1..7). */
static inline uint64_t fs2_gf_rotr(uint64_t x, unsigned k)
{
    uint64_t lo = ((0xFFu >> k) & 0xFFu) * FS2_GF_LSB;
    return ((x >> k) & lo) | ((x << (8 - k)) & ~lo);
}

#endif
