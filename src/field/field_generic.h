/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Portable constant-time arithmetic modulo p and modulo n (GB/T 32918.1
 * clause 3 and Annex A), 4 x 64-bit little-endian limbs, Montgomery form
 * (R = 2^256) for both moduli. Every function here runs in time independent
 * of its operands' values unless its name ends in _var.
 *
 * p = 2^256 - 2^224 - 2^96 + 2^64 - 1, so p = -1 mod 2^64 and the Montgomery
 * factor -p^-1 mod 2^64 is 1: each reduction step's multiplier is the low
 * limb itself.
 *
 * The header is included by each backend's compilation unit (and by the
 * portable point utilities); the heavy primitives are kept out of line there
 * (FS2_FIELD_OUTLINE, see below), the small helpers are inlined.
 */
#ifndef FS2_FIELD_GENERIC_H
#define FS2_FIELD_GENERIC_H

#include <stdint.h>
#include <string.h>

#include "ct.h"
#include "safegcd.h"

typedef unsigned __int128 fs2_u128;

/* The arithmetic primitives stay out of line: inlined into the point
 * formulas, GCC's code for the 128-bit carry chains spills heavily (a 13 KB
 * stack frame in kP); one tight copy of each is faster. */
#if defined(FS2_FIELD_OUTLINE)
/* chosen by the backend's field header */
#elif defined(__GNUC__)
#define FS2_FIELD_OUTLINE __attribute__((noinline, unused))
#else
#define FS2_FIELD_OUTLINE
#endif

/* A field element: value * 2^256 mod p (Montgomery form), fully reduced. */
typedef struct {
    uint64_t v[4];
} fs2_fe;

/* A scalar mod n, canonical or Montgomery as each function says. */
typedef struct {
    uint64_t v[4];
} fs2_sc;

static const uint64_t FS2_P[4] = {0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFF00000000ULL, 0xFFFFFFFFFFFFFFFFULL,
                                  0xFFFFFFFEFFFFFFFFULL};
static const uint64_t FS2_N[4] = {0x53BBF40939D54123ULL, 0x7203DF6B21C6052BULL, 0xFFFFFFFFFFFFFFFFULL,
                                  0xFFFFFFFEFFFFFFFFULL};
/* -n^-1 mod 2^64 */
#define FS2_N0 0x327F9E8872350975ULL
/* R^2 mod p and R^2 mod n, to enter Montgomery form. */
static const uint64_t FS2_P_RR[4] = {0x0000000200000003ULL, 0x00000002FFFFFFFFULL, 0x0000000100000001ULL,
                                     0x0000000400000002ULL};
static const uint64_t FS2_N_RR[4] = {0x901192AF7C114F20ULL, 0x3464504ADE6FA2FAULL, 0x620FC84C3AFFE0D4ULL,
                                     0x1EB5E412A22B3D3BULL};

/* ---- 256-bit helpers ---------------------------------------------------- */

/* Add/subtract with carry. On x86-64 the compilers' carry intrinsics give
 * straight adc/sbb chains; elsewhere 128-bit arithmetic. Both are branch-free. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
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
#else
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

static FS2_FIELD_OUTLINE void fs2_modadd(uint64_t r[4], const uint64_t a[4], const uint64_t b[4], const uint64_t m[4])
{
    uint64_t t[4], c = 0;
    for (int i = 0; i < 4; i++)
        c = fs2_adc(&t[i], a[i], b[i], c);
    fs2_reduce_once(r, c, t, m);
}

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

/* ---- mod p ---------------------------------------------------------------- */

/* Montgomery multiplication mod p: the CIOS loop with n0 = 1 (the
 * multiplier of each reduction step is the low limb itself, as p = -1 mod
 * 2^64). Measured here: replacing the q*p products by the shifts that p's
 * shape allows ((t + q p) / 2^64 = (t - q) / 2^64 + q (p + 1) / 2^64) made
 * the portable code slower (32 ns vs 20 ns per product on this machine:
 * the 64-bit multiplier is cheaper than the borrow chain), so the products
 * stay; the x86-64 and ARMv8 backends bring their own. */
/* A backend with faster primitives in the same representation (e.g.
 * field_x86.h) defines FS2_FIELD_MUL_P / FS2_FIELD_SQR_P before including
 * this header; everything else here is then built on them. */
static FS2_FIELD_OUTLINE void fs2_fe_mul(fs2_fe *r, const fs2_fe *a, const fs2_fe *b)
{
#ifdef FS2_FIELD_MUL_P
    FS2_FIELD_MUL_P(r->v, a->v, b->v);
#else
    fs2_mont_mul_generic(r->v, a->v, b->v, FS2_P, 1);
#endif
}

static FS2_FIELD_OUTLINE void fs2_fe_sqr(fs2_fe *r, const fs2_fe *a)
{
#ifdef FS2_FIELD_SQR_P
    FS2_FIELD_SQR_P(r->v, a->v);
#else
    fs2_mont_mul_generic(r->v, a->v, a->v, FS2_P, 1);
#endif
}

#ifdef FS2_FIELD_ADD_P
/* Short enough to inline into the point formulas. */
static inline void fs2_fe_add(fs2_fe *r, const fs2_fe *a, const fs2_fe *b) { FS2_FIELD_ADD_P(r->v, a->v, b->v); }
static inline void fs2_fe_sub(fs2_fe *r, const fs2_fe *a, const fs2_fe *b) { FS2_FIELD_SUB_P(r->v, a->v, b->v); }
static inline void fs2_fe_neg(fs2_fe *r, const fs2_fe *a)
{
    static const uint64_t zero[4] = {0, 0, 0, 0};
    FS2_FIELD_SUB_P(r->v, zero, a->v);
}
#else
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
#endif

/* r = a / 2 mod p: a + p when a is odd is even, and the 257-bit sum is
 * shifted right (Montgomery form commutes with halving). Branch-free. */
static inline void fs2_fe_half(fs2_fe *r, const fs2_fe *a)
{
    uint64_t m = fs2_ct_mask_u64(a->v[0] & 1), t[4], c = 0;
    for (int i = 0; i < 4; i++)
        c = fs2_adc(&t[i], a->v[i], FS2_P[i] & m, c);
    r->v[0] = (t[0] >> 1) | (t[1] << 63);
    r->v[1] = (t[1] >> 1) | (t[2] << 63);
    r->v[2] = (t[2] >> 1) | (t[3] << 63);
    r->v[3] = (t[3] >> 1) | (c << 63);
}

/* r = mask ? a : r  (mask all-ones or zero) */
static inline void fs2_fe_cmov(fs2_fe *r, const fs2_fe *a, uint64_t mask)
{
    fs2_sel4(r->v, mask, a->v, r->v);
}

static inline uint64_t fs2_fe_is_zero_mask(const fs2_fe *a) { return fs2_is_zero_mask4(a->v); }
static inline uint64_t fs2_fe_eq_mask(const fs2_fe *a, const fs2_fe *b) { return fs2_eq_mask4(a->v, b->v); }

/* From a canonical integer < p into Montgomery form, and back. */
static inline void fs2_fe_from_int(fs2_fe *r, const uint64_t a[4])
{
    fs2_mont_mul_generic(r->v, a, FS2_P_RR, FS2_P, 1);
}
static inline void fs2_fe_to_int(uint64_t r[4], const fs2_fe *a)
{
    static const uint64_t one[4] = {1, 0, 0, 0};
    fs2_mont_mul_generic(r, a->v, one, FS2_P, 1);
}

/* Montgomery form of 1: 2^256 mod p. */
static const fs2_fe FS2_FE_ONE = {{0x0000000000000001ULL, 0x00000000FFFFFFFFULL, 0x0000000000000000ULL,
                                   0x0000000100000000ULL}};

/* r = a^e for a public exponent e (4 limbs): fixed 4-bit windows, the same
 * sequence of operations for every a. */
static inline void fs2_fe_pow_pub(fs2_fe *r, const fs2_fe *a, const uint64_t e[4])
{
    fs2_fe tab[16], acc;
    tab[0] = FS2_FE_ONE;
    tab[1] = *a;
    for (int i = 2; i < 16; i++)
        fs2_fe_mul(&tab[i], &tab[i - 1], a);
    acc = FS2_FE_ONE;
    for (int i = 63; i >= 0; i--) {
        for (int j = 0; j < 4; j++)
            fs2_fe_sqr(&acc, &acc);
        unsigned nib = (unsigned)(e[i / 16] >> (4 * (i % 16))) & 15; /* public */
        fs2_fe_mul(&acc, &acc, &tab[nib]);
    }
    *r = acc;
}

/* The moduli for the divstep inversion (field/safegcd.h): p and n in signed
 * 62-bit limbs, with M^-1 mod 2^62. */
static const fs2_modinfo FS2_MODINFO_P = {
    {{0x3fffffffffffffffLL, 0x3ffffffc00000003LL, 0x3fffffffffffffffLL, 0x3fffffbfffffffffLL, 0xff}},
    0x3fffffffffffffffULL};
static const fs2_modinfo FS2_MODINFO_N = {
    {{0x13bbf40939d54123LL, 0x080f7dac871814adLL, 0x3ffffffffffffff7LL, 0x3fffffbfffffffffLL, 0xff}},
    0x0d8061778dcaf68bULL};

/* r = a^-1 (0 maps to 0), constant time, by divsteps on the Montgomery
 * representative y = aR: y^-1 = a^-1 R^-1, and one Montgomery product with
 * R^3 mod p gives a^-1 R. Measured here: 1.5 us (2.5 us with the
 * original delta = 1 divsteps, 12 x 62 steps, unpacked) against 3.3 us for
 * the Fermat addition chain (256S + 15M) with the x86-64 assembly, and
 * against 10.6 us with the portable product. */
/* R^3 mod p: the raw inverse of a R times R^3, over R, is a^-1 R. */
static const fs2_fe fs2_fe_r3 = {{0x0000001200000016ULL, 0x0000000EFFFFFFF8ULL, 0x0000000A0000000CULL,
                                  0x0000001B00000009ULL}};

static inline void fs2_fe_inv(fs2_fe *r, const fs2_fe *a)
{
    fs2_fe y;
    fs2_modinv_safegcd(y.v, a->v, &FS2_MODINFO_P);
    fs2_fe_mul(r, &y, &fs2_fe_r3);
}

/* r = a^-1 (0 maps to 0) in VARIABLE time, for public values only (tables
 * of public points): the variable-time divsteps, then as fs2_fe_inv. Every
 * backend's field uses this one (also the AArch64 field, whose constant-
 * time inversion is Fermat's). */
static inline void fs2_fe_inv_var(fs2_fe *r, const fs2_fe *a)
{
    fs2_fe y;
    fs2_modinv_var(y.v, a->v, &FS2_MODINFO_P);
    fs2_fe_mul(r, &y, &fs2_fe_r3);
}

/* ---- mod n ---------------------------------------------------------------- */

static inline void fs2_sc_add(fs2_sc *r, const fs2_sc *a, const fs2_sc *b) { fs2_modadd(r->v, a->v, b->v, FS2_N); }
static inline void fs2_sc_sub(fs2_sc *r, const fs2_sc *a, const fs2_sc *b) { fs2_modsub(r->v, a->v, b->v, FS2_N); }
/* Montgomery product a*b*2^-256 mod n. */
static inline void fs2_sc_mont_mul(fs2_sc *r, const fs2_sc *a, const fs2_sc *b)
{
#ifdef FS2_FIELD_MUL_N
    FS2_FIELD_MUL_N(r->v, a->v, b->v);
#else
    fs2_mont_mul_generic(r->v, a->v, b->v, FS2_N, FS2_N0);
#endif
}
/* Canonical a -> Montgomery a*2^256 mod n. */
static inline void fs2_sc_to_mont(fs2_sc *r, const fs2_sc *a)
{
    fs2_sc_mont_mul(r, a, (const fs2_sc *)FS2_N_RR);
}
/* Canonical a -> a mod n for any a < 2^256 (2^256 < 2n). */
static inline void fs2_sc_reduce(fs2_sc *r, const uint64_t a[4])
{
    fs2_reduce_once(r->v, 0, a, FS2_N);
}

/* r = a^-1 2^256 mod n (the Montgomery form of the inverse) for canonical
 * a (0 maps to 0). Constant time: divsteps (field/safegcd.h), then into
 * Montgomery form. */
static inline void fs2_sc_inv_mont(fs2_sc *r, const fs2_sc *a)
{
    fs2_sc y;
    fs2_modinv_safegcd(y.v, a->v, &FS2_MODINFO_N);
    fs2_sc_to_mont(r, &y);
}

/* r = z^-1 (a field element) and q = a^-1 2^256 mod n (as fs2_sc_inv_mont)
 * with the two inversions' divsteps interleaved. Constant time. */
static inline void fs2_fe_sc_inv2(fs2_fe *r, const fs2_fe *z, fs2_sc *q, const fs2_sc *a)
{
    fs2_fe y;
    fs2_sc w;
    fs2_modinv2_safegcd(y.v, z->v, &FS2_MODINFO_P, w.v, a->v, &FS2_MODINFO_N);
    fs2_fe_mul(r, &y, &fs2_fe_r3);
    fs2_sc_to_mont(q, &w);
}

/* r = a^-1 mod n for canonical a, result canonical. Constant time. */
static inline void fs2_sc_inv(fs2_sc *r, const fs2_sc *a)
{
    static const uint64_t one[4] = {1, 0, 0, 0};
    fs2_sc m;
    fs2_sc_inv_mont(&m, a);
    fs2_sc_mont_mul(r, &m, (const fs2_sc *)one);
}

/* All-ones if a < b (canonical integers), else 0. Constant time. */
static inline uint64_t fs2_lt_mask4(const uint64_t a[4], const uint64_t b[4])
{
    uint64_t t, br = 0;
    for (int i = 0; i < 4; i++)
        br = fs2_sbb(&t, a[i], b[i], br);
    return fs2_ct_mask_u64(br);
}

#endif
