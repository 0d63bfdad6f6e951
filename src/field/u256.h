/* SPDX-License-Identifier: Apache-2.0 */
/*
 * 256-bit integers as 4 little-endian 64-bit limbs, and arithmetic modulo an
 * odd m < 2^256 on them (carries, masks, addition, subtraction and the
 * portable Montgomery product), with the two moduli of sm2p256v1 (GB/T
 * 32918.1 clause 3 and Annex A): the field prime p and the group order n.
 *
 * The common ground of the scalar code (field/scalar.h) and of every field
 * implementation (field/field.h). Constant time throughout: no branch and no
 * address depends on a limb's value.
 */
#ifndef FS2_U256_H
#define FS2_U256_H

#include <stdint.h>
#include <string.h>

#include "ct.h"
#include "field/safegcd.h"
#include "field/wide.h"

#if defined(FS2_HAVE_INT128)
typedef unsigned __int128 fs2_u128;
#endif

/* Kept out of line: inlined into their callers, GCC's code for the 128-bit
 * carry chains of the portable C spills heavily (a 13 KB stack frame in
 * kP); one tight copy of each is faster. */
#if defined(__GNUC__)
#define FS2_FIELD_OUTLINE __attribute__((noinline, unused))
#else
#define FS2_FIELD_OUTLINE
#endif

static const uint64_t FS2_P[4] = {0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFF00000000ULL, 0xFFFFFFFFFFFFFFFFULL,
                                  0xFFFFFFFEFFFFFFFFULL};
static const uint64_t FS2_N[4] = {0x53BBF40939D54123ULL, 0x7203DF6B21C6052BULL, 0xFFFFFFFFFFFFFFFFULL,
                                  0xFFFFFFFEFFFFFFFFULL};
/* -n^-1 mod 2^64 */
#define FS2_N0 0x327F9E8872350975ULL
/* R^2 mod p and R^2 mod n (R = 2^256), to enter Montgomery form. */
static const uint64_t FS2_P_RR[4] = {0x0000000200000003ULL, 0x00000002FFFFFFFFULL, 0x0000000100000001ULL,
                                     0x0000000400000002ULL};
static const uint64_t FS2_N_RR[4] = {0x901192AF7C114F20ULL, 0x3464504ADE6FA2FAULL, 0x620FC84C3AFFE0D4ULL,
                                     0x1EB5E412A22B3D3BULL};

/* p and n for the divstep inversions (field/safegcd.h): signed 62-bit limbs,
 * with M^-1 mod 2^62. */
static const fs2_modinfo FS2_MODINFO_P = {
    {{0x3fffffffffffffffLL, 0x3ffffffc00000003LL, 0x3fffffffffffffffLL, 0x3fffffbfffffffffLL, 0xff}},
    0x3fffffffffffffffULL};
static const fs2_modinfo FS2_MODINFO_N = {
    {{0x13bbf40939d54123LL, 0x080f7dac871814adLL, 0x3ffffffffffffff7LL, 0x3fffffbfffffffffLL, 0xff}},
    0x0d8061778dcaf68bULL};

/* Add/subtract with carry. On x86-64 the compilers' carry intrinsics give
 * straight adc/sbb chains; elsewhere 128-bit arithmetic, or without
 * __int128 the carry from the top bits (field/wide.h). All are branch-free.
 * FS2_NO_INT128 takes the last on x86-64 too, so that it is tested there. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(FS2_NO_INT128)
#include <x86intrin.h>
static inline uint64_t fs2_adc(uint64_t *r, uint64_t a, uint64_t b, uint64_t carry)
{
    unsigned long long o;
    unsigned char c = _addcarry_u64((unsigned char)carry, a, b, &o);
    *r = o;
    return c;
}

static inline uint64_t fs2_sbb(uint64_t *r, uint64_t a, uint64_t b, uint64_t borrow)
{
    unsigned long long o;
    unsigned char c = _subborrow_u64((unsigned char)borrow, a, b, &o);
    *r = o;
    return c;
}
#elif defined(FS2_HAVE_INT128)
static inline uint64_t fs2_adc(uint64_t *r, uint64_t a, uint64_t b, uint64_t carry)
{
    fs2_u128 t = (fs2_u128)a + b + carry;
    *r = (uint64_t)t;
    return (uint64_t)(t >> 64);
}

static inline uint64_t fs2_sbb(uint64_t *r, uint64_t a, uint64_t b, uint64_t borrow)
{
    fs2_u128 t = (fs2_u128)a - b - borrow;
    *r = (uint64_t)t;
    return (uint64_t)(t >> 64) & 1;
}
#else
static inline uint64_t fs2_adc(uint64_t *r, uint64_t a, uint64_t b, uint64_t carry)
{
    uint64_t s = a + b + carry;
    *r = s;
    return fs2_carry_out(a, b, s);
}

static inline uint64_t fs2_sbb(uint64_t *r, uint64_t a, uint64_t b, uint64_t borrow)
{
    uint64_t d = a - b - borrow;
    *r = d;
    return fs2_borrow_out(a, b, d);
}
#endif

/* r = (mask ? a : b) for mask all-ones or zero. */
static inline void fs2_sel4(uint64_t r[4], uint64_t mask, const uint64_t a[4], const uint64_t b[4])
{
    for (int i = 0; i < 4; i++)
        r[i] = (a[i] & mask) | (b[i] & ~mask);
}

/* All-ones if a == 0 (all four limbs), else 0. */
static inline uint64_t fs2_is_zero_mask4(const uint64_t a[4])
{
    return fs2_ct_is_zero_u64(a[0] | a[1] | a[2] | a[3]);
}

/* All-ones if a == b, else 0. */
static inline uint64_t fs2_eq_mask4(const uint64_t a[4], const uint64_t b[4])
{
    uint64_t d[4] = {a[0] ^ b[0], a[1] ^ b[1], a[2] ^ b[2], a[3] ^ b[3]};
    return fs2_is_zero_mask4(d);
}

/* All-ones if a < b, else 0. */
static inline uint64_t fs2_lt_mask4(const uint64_t a[4], const uint64_t b[4])
{
    uint64_t t, br = 0;
    for (int i = 0; i < 4; i++)
        br = fs2_sbb(&t, a[i], b[i], br);
    return fs2_ct_mask_u64(br);
}

/* Reduce a 257-bit value (hi:t) known to be < 2m into [0, m). */
static inline void fs2_reduce_once(uint64_t r[4], uint64_t hi, const uint64_t t[4], const uint64_t m[4])
{
    uint64_t d[4], b = 0;
    for (int i = 0; i < 4; i++)
        b = fs2_sbb(&d[i], t[i], m[i], b);
    /* keep t only when the subtraction borrowed and there was no carry */
    uint64_t keep = fs2_ct_mask_u64(b & (hi ^ 1));
    fs2_sel4(r, keep, t, d);
}

/* r = a + b mod m, inputs in [0, m). */
static FS2_FIELD_OUTLINE void fs2_modadd(uint64_t r[4], const uint64_t a[4], const uint64_t b[4], const uint64_t m[4])
{
    uint64_t t[4], c = 0;
    for (int i = 0; i < 4; i++)
        c = fs2_adc(&t[i], a[i], b[i], c);
    fs2_reduce_once(r, c, t, m);
}

/* r = a - b mod m, inputs in [0, m). */
static FS2_FIELD_OUTLINE void fs2_modsub(uint64_t r[4], const uint64_t a[4], const uint64_t b[4], const uint64_t m[4])
{
    uint64_t t[4], b_ = 0, c = 0;
    for (int i = 0; i < 4; i++)
        b_ = fs2_sbb(&t[i], a[i], b[i], b_);
    uint64_t mask = fs2_ct_mask_u64(b_);
    for (int i = 0; i < 4; i++)
        c = fs2_adc(&r[i], t[i], m[i] & mask, c);
}

/* Montgomery multiplication a*b*2^-256 mod m (CIOS), any odd m < 2^256 with
 * n0 = -m^-1 mod 2^64; inputs < m. */
#if defined(FS2_HAVE_INT128)
static FS2_FIELD_OUTLINE void fs2_mont_mul_generic(uint64_t r[4], const uint64_t a[4], const uint64_t b[4],
                                                   const uint64_t m[4], uint64_t n0)
{
    uint64_t t0 = 0, t1 = 0, t2 = 0, t3 = 0, t4 = 0;
    for (int i = 0; i < 4; i++) {
        fs2_u128 c;
        uint64_t bi = b[i];
        c = (fs2_u128)a[0] * bi + t0;
        t0 = (uint64_t)c;
        c = (fs2_u128)a[1] * bi + t1 + (c >> 64);
        t1 = (uint64_t)c;
        c = (fs2_u128)a[2] * bi + t2 + (c >> 64);
        t2 = (uint64_t)c;
        c = (fs2_u128)a[3] * bi + t3 + (c >> 64);
        t3 = (uint64_t)c;
        c = (fs2_u128)t4 + (c >> 64);
        t4 = (uint64_t)c;
        uint64_t t5 = (uint64_t)(c >> 64);

        uint64_t q = t0 * n0;
        c = (fs2_u128)q * m[0] + t0;
        c = (fs2_u128)q * m[1] + t1 + (c >> 64);
        t0 = (uint64_t)c;
        c = (fs2_u128)q * m[2] + t2 + (c >> 64);
        t1 = (uint64_t)c;
        c = (fs2_u128)q * m[3] + t3 + (c >> 64);
        t2 = (uint64_t)c;
        c = (fs2_u128)t4 + (c >> 64);
        t3 = (uint64_t)c;
        t4 = t5 + (uint64_t)(c >> 64);
    }
    uint64_t t[4] = {t0, t1, t2, t3};
    fs2_reduce_once(r, t4, t, m);
}
#else
/* The same steps with the products as pairs of words (field/wide.h). */
static FS2_FIELD_OUTLINE void fs2_mont_mul_generic(uint64_t r[4], const uint64_t a[4], const uint64_t b[4],
                                                   const uint64_t m[4], uint64_t n0)
{
    uint64_t t0 = 0, t1 = 0, t2 = 0, t3 = 0, t4 = 0;
    for (int i = 0; i < 4; i++) {
        uint64_t c, s, bi = b[i];
        t0 = fs2_mac64(&c, a[0], bi, t0, 0);
        t1 = fs2_mac64(&c, a[1], bi, t1, c);
        t2 = fs2_mac64(&c, a[2], bi, t2, c);
        t3 = fs2_mac64(&c, a[3], bi, t3, c);
        s = t4 + c;
        uint64_t t5 = fs2_carry_out(t4, c, s);
        t4 = s;

        uint64_t q = t0 * n0;
        (void)fs2_mac64(&c, q, m[0], t0, 0);
        t0 = fs2_mac64(&c, q, m[1], t1, c);
        t1 = fs2_mac64(&c, q, m[2], t2, c);
        t2 = fs2_mac64(&c, q, m[3], t3, c);
        s = t4 + c;
        t3 = s;
        t4 = t5 + fs2_carry_out(t4, c, s);
    }
    uint64_t t[4] = {t0, t1, t2, t3};
    fs2_reduce_once(r, t4, t, m);
}
#endif

#endif
