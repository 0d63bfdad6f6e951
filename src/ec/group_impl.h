/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Point arithmetic on sm2p256v1 (GB/T 32918.1 clause 3, A.1-A.3 of part 1):
 * y^2 = x^3 - 3x + b in Jacobian coordinates (X/Z^2, Y/Z^3), Z = 0 for the
 * point at infinity. Written over the field interface (field/field.h), so
 * that every build of the EC backend shares these formulas; included by
 * src/ec/ec_backend.c alone (and by tests/test_group.c, which tests them
 * directly). Functions without _var run in constant time; the _var ones
 * branch and are for public data only.
 *
 * Naming follows libsecp256k1: fs2_ge = affine, fs2_gej = Jacobian.
 */
#ifndef FS2_GROUP_IMPL_H
#define FS2_GROUP_IMPL_H

/* The field its includer chose (FS2_FIELD, field/field.h). */
#include "ct.h"
#include "field/field.h"

typedef struct {
    fs2_fe x, y;
} fs2_ge;

typedef struct {
    fs2_fe x, y, z;
} fs2_gej;

static inline void fs2_gej_set_infinity(fs2_gej *r)
{
    memset(r, 0, sizeof *r);
}

static inline void fs2_gej_set_ge(fs2_gej *r, const fs2_ge *a)
{
    r->x = a->x;
    r->y = a->y;
    r->z = FS2_FE_ONE;
}

/* r = mask ? a : r */
static inline void fs2_gej_cmov(fs2_gej *r, const fs2_gej *a, uint64_t mask)
{
    fs2_fe_cmov(&r->x, &a->x, mask);
    fs2_fe_cmov(&r->y, &a->y, mask);
    fs2_fe_cmov(&r->z, &a->z, mask);
}

/* r = 2a, a = -3 (4M + 4S and 9 additions), in the representative of 2a
 * scaled by 1/2 (X/4, Y/8, Z/2 of the usual one), which drops the usual
 * 2Y and the halving of 8Y^4:
 *   A = Y^2, B = X A, C = A^2 (= Y^4), Z3 = Y Z,
 *   M = 3/2 (X - Z^2)(X + Z^2) = (3X^2 - 3Z^4) / 2,
 *   X3 = M^2 - 2B, Y3 = M (3B - M^2) - C  (3B - M^2 = B - X3).
 * The order of the steps is measured, not incidental: the compiler keeps
 * the inline-assembly products in source order, and this interleaving of
 * the two chains (through Y: A, B; through Z and X: Z^2, M) takes about
 * 13% less time than the same formula computed chain by chain
 * (docs/ARCHITECTURE.md). 2B and 3B are made while M is, off the path
 * from M^2 to Y3, which then has one subtraction where B - (M^2 - 2B) had
 * three (about 3% less time). Infinity stays infinity (Z3 = 0).
 * r may be a: nothing of a is read after r->z is written.
 * B and C are a's X and Y rescaled to Z3 (X Y^2, Y Y^3): with a1 not NULL
 * they are kept there, a co-Z copy of a for fs2_coz_add. */
static inline __attribute__((always_inline)) void fs2_gej_double_impl(fs2_gej *r, fs2_ge *a1, const fs2_gej *a)
{
    fs2_fe zz, u, w, m, h, d, t, b, b2, b3, c, v;
    fs2_fe_sqr(&t, &a->y);
    fs2_fe_sqr(&zz, &a->z);
    fs2_fe_sub(&u, &a->x, &zz);
    fs2_fe_add(&w, &a->x, &zz);
    fs2_fe_mul(&b, &a->x, &t);
    fs2_fe_mul(&m, &u, &w);
    fs2_fe_half(&h, &m);
    fs2_fe_mul(&r->z, &a->y, &a->z);
    fs2_fe_add(&b2, &b, &b);
    fs2_fe_add(&m, &m, &h); /* M = 3/2 (X - Z^2)(X + Z^2) */
    fs2_fe_add(&b3, &b2, &b);
    fs2_fe_sqr(&d, &m);
    fs2_fe_sqr(&c, &t);
    fs2_fe_sub(&v, &b3, &d);    /* 3B - M^2 = B - X3 */
    fs2_fe_sub(&r->x, &d, &b2); /* X3 = M^2 - 2B */
    fs2_fe_mul(&v, &m, &v);
    fs2_fe_sub(&r->y, &v, &c);
    if (a1) {
        a1->x = b;
        a1->y = c;
    }
}

static inline void fs2_gej_double(fs2_gej *r, const fs2_gej *a)
{
    fs2_gej_double_impl(r, NULL, a);
}

/* Co-Z addition (Meloni): a and b Jacobian points with the same Z, given
 * by their X and Y; r = a + b, and a rescaled in place, both with
 * Z' = Z c, c = Xb - Xa (returned in zr). With D = Yb - Ya:
 *   Wa = Xa c^2, Wb = Xb c^2, X3 = D^2 - Wa - Wb,
 *   Y3 = D (Wa - X3) - Ya c^3, and a becomes (Wa, Ya c^3).
 * 5M + 2S. No special cases: a != +-b, neither infinity. r must not be a
 * or b. */
static inline void fs2_coz_add(fs2_ge *r, fs2_ge *a, const fs2_ge *b, fs2_fe *zr)
{
    fs2_fe c, cc, wb, d, t;
    fs2_fe_sub(&c, &b->x, &a->x);
    fs2_fe_sub(&d, &b->y, &a->y);
    fs2_fe_sqr(&cc, &c);
    fs2_fe_mul(&wb, &b->x, &cc);
    fs2_fe_mul(&a->x, &a->x, &cc); /* Wa */
    fs2_fe_mul(&cc, &cc, &c);
    fs2_fe_mul(&a->y, &a->y, &cc); /* Ya c^3 */
    fs2_fe_sqr(&t, &d);
    fs2_fe_sub(&t, &t, &a->x);
    fs2_fe_sub(&r->x, &t, &wb);
    fs2_fe_sub(&t, &a->x, &r->x);
    fs2_fe_mul(&t, &d, &t);
    fs2_fe_sub(&r->y, &t, &a->y);
    *zr = c;
}

/* r = a + b with b affine (8M + 3S). No special cases: the caller rules out
 * a = infinity and a = +-b (or repairs them with masks). h_zero/r_zero, if
 * not NULL, receive all-ones masks for H = 0 and R = 0. r may be a.
 *   U2 = X2 Z1^2, S2 = Y2 Z1^3, H = U2 - X1, R = S2 - Y1,
 *   X3 = R^2 - H^3 - 2 X1 H^2, Y3 = R (X1 H^2 - X3) - Y1 H^3, Z3 = Z1 H.
 * As in the doubling, the order is measured: about 18% less time than the
 * order the formula is usually written in. */
static inline void fs2_gej_add_ge_masks(fs2_gej *r, const fs2_gej *a, const fs2_ge *b, uint64_t *h_zero,
                                        uint64_t *r_zero)
{
    fs2_fe z1z1, u2, s2, h, rr, hh, hhh, v, t, y1h;
    fs2_fe_sqr(&z1z1, &a->z);
    fs2_fe_mul(&s2, &b->y, &a->z);
    fs2_fe_mul(&u2, &b->x, &z1z1);
    fs2_fe_mul(&s2, &s2, &z1z1);
    fs2_fe_sub(&rr, &s2, &a->y);
    fs2_fe_sub(&h, &u2, &a->x);
    if (h_zero)
        *h_zero = fs2_fe_is_zero_mask(&h);
    if (r_zero)
        *r_zero = fs2_fe_is_zero_mask(&rr);
    fs2_fe_sqr(&hh, &h);
    fs2_fe_sqr(&t, &rr);
    fs2_fe_mul(&hhh, &h, &hh);
    fs2_fe_mul(&v, &a->x, &hh);
    fs2_fe_sub(&t, &t, &hhh);
    fs2_fe_mul(&y1h, &a->y, &hhh);
    fs2_fe_sub(&t, &t, &v);
    fs2_fe_sub(&t, &t, &v); /* X3 */
    fs2_fe_sub(&v, &v, &t);
    fs2_fe_mul(&r->z, &a->z, &h);
    fs2_fe_mul(&v, &rr, &v);
    fs2_fe_sub(&r->y, &v, &y1h);
    r->x = t;
}

/* r = a + b, both Jacobian (12M + 4S), no special cases; masks as above. */
static inline void fs2_gej_add_masks(fs2_gej *r, const fs2_gej *a, const fs2_gej *b, uint64_t *h_zero, uint64_t *r_zero)
{
    fs2_fe z1z1, z2z2, u1, u2, s1, s2, h, rr, hh, hhh, v, t;
    fs2_fe_sqr(&z1z1, &a->z);
    fs2_fe_sqr(&z2z2, &b->z);
    fs2_fe_mul(&u1, &a->x, &z2z2);
    fs2_fe_mul(&u2, &b->x, &z1z1);
    fs2_fe_mul(&s1, &a->y, &b->z);
    fs2_fe_mul(&s1, &s1, &z2z2);
    fs2_fe_mul(&s2, &b->y, &a->z);
    fs2_fe_mul(&s2, &s2, &z1z1);
    fs2_fe_sub(&h, &u2, &u1);
    fs2_fe_sub(&rr, &s2, &s1);
    if (h_zero)
        *h_zero = fs2_fe_is_zero_mask(&h);
    if (r_zero)
        *r_zero = fs2_fe_is_zero_mask(&rr);
    fs2_fe_sqr(&hh, &h);
    fs2_fe_mul(&hhh, &h, &hh);
    fs2_fe_mul(&v, &u1, &hh);
    fs2_fe_mul(&t, &a->z, &b->z);
    fs2_fe_mul(&r->z, &t, &h);
    fs2_fe_sqr(&t, &rr);
    fs2_fe_sub(&t, &t, &hhh);
    fs2_fe_sub(&t, &t, &v);
    fs2_fe_sub(&t, &t, &v);
    fs2_fe_sub(&v, &v, &t);
    fs2_fe_mul(&v, &rr, &v);
    fs2_fe_mul(&hhh, &s1, &hhh);
    fs2_fe_sub(&r->y, &v, &hhh);
    r->x = t;
}

/* r = a + b for any a, b (infinity, a = b, a = -b), constant time: the sum,
 * the double of a and both inputs are all computed, then selected by masks. */
static inline void fs2_gej_add_complete(fs2_gej *r, const fs2_gej *a, const fs2_gej *b)
{
    fs2_gej sum, dbl;
    uint64_t hz, rz;
    uint64_t a_inf = fs2_fe_is_zero_mask(&a->z), b_inf = fs2_fe_is_zero_mask(&b->z);
    fs2_gej_add_masks(&sum, a, b, &hz, &rz);
    fs2_gej_double(&dbl, a);
    fs2_gej_cmov(&sum, &dbl, hz & rz & ~a_inf & ~b_inf);
    fs2_gej_cmov(&sum, b, a_inf);
    fs2_gej_cmov(&sum, a, b_inf);
    *r = sum;
}

/* The affine a given zi = 1 / a.z (0 when a.z = 0); as fs2_gej_to_ge. */
static inline uint64_t fs2_gej_to_ge_zinv(fs2_ge *r, const fs2_gej *a, const fs2_fe *zi)
{
    fs2_fe zi2;
    uint64_t inf = fs2_fe_is_zero_mask(&a->z);
    fs2_fe_sqr(&zi2, zi);
    fs2_fe_mul(&r->x, &a->x, &zi2);
    fs2_fe_mul(&zi2, &zi2, zi);
    fs2_fe_mul(&r->y, &a->y, &zi2);
    return inf;
}

/* Affine (x, y) of a, in constant time; all-ones mask returned if a is
 * infinity (then x = y = 0). */
static inline uint64_t fs2_gej_to_ge(fs2_ge *r, const fs2_gej *a)
{
    fs2_fe zi;
    fs2_fe_inv(&zi, &a->z);
    return fs2_gej_to_ge_zinv(r, a, &zi);
}

/* r[i] = the affine a[i] for i < n (1 <= n), constant time, with one
 * inversion for all (Montgomery's trick: the running products of the Z in
 * acc, the inverse of the last, then back down, 3 products per point). A
 * point at infinity gives r[i] = (0, 0) and inf[i] all ones; its Z counts
 * as 1 in the products, so it spoils no other point. */
static inline void fs2_gej_to_ge_many(fs2_ge *r, uint64_t *inf, const fs2_gej *a, fs2_fe *acc, size_t n)
{
    static const fs2_fe zero = {{0, 0, 0, 0}};
    fs2_fe inv, zi, zi2, z, t;
    if (n == 0)
        return;
    for (size_t i = 0; i < n; i++) {
        inf[i] = fs2_fe_is_zero_mask(&a[i].z);
        z = a[i].z;
        fs2_fe_cmov(&z, &FS2_FE_ONE, inf[i]);
        if (i == 0)
            acc[0] = z;
        else
            fs2_fe_mul(&acc[i], &acc[i - 1], &z);
    }
    fs2_fe_inv(&inv, &acc[n - 1]);
    for (size_t i = n; i-- > 0;) {
        /* inv = (z_0 ... z_i)^-1 here */
        if (i > 0) {
            z = a[i].z;
            fs2_fe_cmov(&z, &FS2_FE_ONE, inf[i]);
            fs2_fe_mul(&zi, &inv, &acc[i - 1]);
            fs2_fe_mul(&inv, &inv, &z);
        } else {
            zi = inv;
        }
        fs2_fe_sqr(&zi2, &zi);
        fs2_fe_mul(&r[i].x, &a[i].x, &zi2);
        fs2_fe_mul(&t, &zi2, &zi);
        fs2_fe_mul(&r[i].y, &a[i].y, &t);
        fs2_fe_cmov(&r[i].x, &zero, inf[i]);
        fs2_fe_cmov(&r[i].y, &zero, inf[i]);
    }
    fs2_wipe(&inv, sizeof inv);
    fs2_wipe(&zi, sizeof zi);
    fs2_wipe(&zi2, sizeof zi2);
    fs2_wipe(&z, sizeof z);
    fs2_wipe(&t, sizeof t);
}

/* ---- variable time, public data only ----------------------------------- */

static inline int fs2_gej_is_infinity_var(const fs2_gej *a)
{
    return fs2_fe_is_zero_mask(&a->z) != 0;
}

/* The points r[0..n-1] of a co-Z chain to affine: Z_j = Z_(j-1) zr[j] and
 * z = Z_(n-1), so one variable-time inversion of z walks down to every
 * other 1 / Z_j with one product a point. PUBLIC points only. */
static inline void fs2_ge_coz_chain_to_affine_var(fs2_ge *r, const fs2_fe *zr, const fs2_fe *z, int n)
{
    fs2_fe zi, zi2, t;
    fs2_fe_inv_var(&zi, z);
    for (int j = n - 1; j >= 0; j--) { /* zi = 1 / Z_j */
        fs2_fe_sqr(&zi2, &zi);
        fs2_fe_mul(&r[j].x, &r[j].x, &zi2);
        fs2_fe_mul(&t, &zi2, &zi);
        fs2_fe_mul(&r[j].y, &r[j].y, &t);
        if (j > 0)
            fs2_fe_mul(&zi, &zi, &zr[j]);
    }
}

/* r[j] = (j + 1) a for j < 16, affine, for a PUBLIC Jacobian point a of
 * order n (so no multiple below 17a is infinity or meets +-a): variable
 * time through one variable-time inversion. 2a by a doubling that keeps a
 * rescaled to 2a's Z, then 3a..16a by co-Z additions of that copy (5M + 2S
 * each instead of a mixed addition's 8M + 3S), keeping each step's Z
 * ratio: Z_j = Z_(j-1) zr_j, so the inverse of the last Z walks down to
 * every other with one product a point (5 products a point in all). */
static inline void fs2_gej_multiples16_var(fs2_ge r[16], const fs2_gej *a)
{
    fs2_ge ac;
    fs2_gej d;
    fs2_fe zr[16], z;
    fs2_gej_double_impl(&d, &ac, a);
    r[0].x = a->x, r[0].y = a->y;
    r[1].x = d.x, r[1].y = d.y;
    zr[1] = a->y; /* Z(2a) = Y Z(a) */
    z = d.z;
    for (int j = 2; j < 16; j++) {
        fs2_coz_add(&r[j], &ac, &r[j - 1], &zr[j]);
        fs2_fe_mul(&z, &z, &zr[j]);
    }
    fs2_ge_coz_chain_to_affine_var(r, zr, &z, 16);
}

/* r[j] = (2 j + 1) a for j < 8, affine, for a PUBLIC Jacobian point a of
 * order n (the odd multiples a wNAF of width 5 adds), as
 * fs2_gej_multiples16_var: 2a by a doubling that keeps a rescaled to its
 * Z, then 3a..15a by co-Z additions of that 2a (rescaled along: 2a is
 * never +-(2j - 1) a), one variable-time inversion, the Z ratios walked
 * down. */
static inline void fs2_gej_odd_multiples8_var(fs2_ge r[8], const fs2_gej *a)
{
    fs2_ge d2;
    fs2_gej d;
    fs2_fe zr[8], z;
    fs2_gej_double_impl(&d, &r[0], a);
    d2.x = d.x, d2.y = d.y;
    z = d.z;
    for (int j = 1; j < 8; j++) {
        fs2_coz_add(&r[j], &d2, &r[j - 1], &zr[j]);
        fs2_fe_mul(&z, &z, &zr[j]);
    }
    fs2_ge_coz_chain_to_affine_var(r, zr, &z, 8);
}

/* r = the sum t of an incomplete addition a + b, or, where its H was 0
 * (hz), 2a if R was 0 too (a = b) and infinity if not (a = -b). r may be
 * a. */
static inline void fs2_gej_add_repair_var(fs2_gej *r, const fs2_gej *t, const fs2_gej *a, uint64_t hz, uint64_t rz)
{
    if (!hz)
        *r = *t;
    else if (rz)
        fs2_gej_double(r, a);
    else
        fs2_gej_set_infinity(r);
}

/* r = a + b for any a and b (b affine, finite). r may be a. */
static inline void fs2_gej_add_ge_var(fs2_gej *r, const fs2_gej *a, const fs2_ge *b)
{
    uint64_t hz, rz;
    fs2_gej t;
    if (fs2_gej_is_infinity_var(a)) {
        fs2_gej_set_ge(r, b);
        return;
    }
    fs2_gej_add_ge_masks(&t, a, b, &hz, &rz);
    fs2_gej_add_repair_var(r, &t, a, hz, rz);
}

/* r = a + b for any a and b. r may be a or b. */
static inline void fs2_gej_add_var(fs2_gej *r, const fs2_gej *a, const fs2_gej *b)
{
    uint64_t hz, rz;
    fs2_gej t;
    if (fs2_gej_is_infinity_var(a)) {
        *r = *b;
        return;
    }
    if (fs2_gej_is_infinity_var(b)) {
        *r = *a;
        return;
    }
    fs2_gej_add_masks(&t, a, b, &hz, &rz);
    fs2_gej_add_repair_var(r, &t, a, hz, rz);
}

#endif
