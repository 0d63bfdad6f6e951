/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Scalar multiplication, included by src/ec/ec_backend.c alone, so that
 * each build compiles it over its own field (FS2_FIELD, field/field.h),
 * with the point formulas (group_impl.h) and the table lookup
 * (select_impl.h) of that field:
 *
 *  fs2_ecmult_gen      kG, constant time: 37 signed 7-bit windows, one
 *                      precomputed affine table of 64 points per window
 *                      (fs2_gen_table), each lookup a full scan with masks.
 *  fs2_ecmult_const    kP, constant time: 52 signed 5-bit windows over an
 *                      affine table of 1P..16P (P public: made in variable
 *                      time), full-scan selection, mixed additions.
 *  fs2_ecmult_const_split  kP for a public key P with its cached tables:
 *                      two constant-time 128-bit streams (encryption).
 *  fs2_ecmult_sum_var  sG + tP, variable time (public inputs): wNAF of
 *                      width FS2_G_ODD_WIDTH (11: 512 points, 32 KiB per
 *                      table) over the odd multiples of G and of 2^128 G
 *                      (fs2_g_odd, fs2_g128_odd), and width 5 over those
 *                      of P and of 2^128 P (affine tables cached in the
 *                      public key), all interleaved over 128 doublings;
 *                      alone also tP (key exchange's [x-bar]R, whose
 *                      Jacobian sum goes on to fs2_ecmult_const_gej).
 *  fs2_ecmult_cmp_x_var  whether x(sG + tP) mod n = v, compared on the
 *                      Jacobian sum (no inversion): verification.
 *
 * Scalars are canonical 4 x 64-bit little-endian integers < n.
 */
#ifndef FS2_ECMULT_IMPL_H
#define FS2_ECMULT_IMPL_H

#include "ct.h"
#include "ec/group_impl.h"
#include "ec/select_impl.h"
#include "ecmult_tables.h"
#include "field/field.h"

/* Bits [pos, pos + w) of a 256-bit k (zero past the top), w <= 8. pos is
 * public. */
static inline unsigned fs2_scalar_bits(const uint64_t k[4], unsigned pos, unsigned w)
{
    unsigned limb = pos / 64, off = pos % 64;
    uint64_t v = 0;
    if (limb < 4) {
        v = k[limb] >> off;
        if (off + w > 64 && limb + 1 < 4)
            v |= k[limb + 1] << (64 - off);
    }
    return (unsigned)(v & ((1u << w) - 1));
}

/* Signed-digit recoding step for window width w: v = window bits + carry in
 * [0, 2^w]; digits above 2^(w-1) become negative with a carry out. Returns
 * |digit|, sets *neg to 1 for a negative digit and *carry to the carry out.
 * Arithmetic only: no branch on the (secret) bits. */
static inline unsigned fs2_recode_step(unsigned v, unsigned w, unsigned *neg, unsigned *carry)
{
    unsigned half = 1u << (w - 1);
    unsigned c = (v + half - 1) >> w; /* 1 iff v > half */
    unsigned mask = fs2_ct_mask_u32(c);
    *carry = c;
    *neg = c;
    return (((1u << w) - v) & mask) | (v & ~mask);
}

/* r = k*G, constant time in k. */
static void fs2_ecmult_gen(fs2_gej *r, const uint64_t k[4])
{
    fs2_gej acc, sum, first;
    uint64_t acc_inf = 0;
    unsigned carry = 0;
    for (unsigned i = 0; i < 37; i++) {
        unsigned neg, c;
        unsigned d = fs2_recode_step(fs2_scalar_bits(k, 7 * i, 7) + carry, 7, &neg, &c);
        carry = c;
        fs2_ge t;
        fs2_select_limbs(&t, (const uint64_t *)fs2_gen_table[i], 64, 8, d);
        fs2_fe_cneg(&t.y, fs2_ct_mask_u64(neg));
        uint64_t nz = ~fs2_eq_mask_u(d, 0);
        if (i == 0) { /* the first window sets acc: no addition */
            fs2_gej_set_ge(&acc, &t);
            acc_inf = ~nz;
            continue;
        }
        fs2_gej_add_ge_masks(&sum, &acc, &t, NULL, NULL);
        fs2_gej_set_ge(&first, &t);
        fs2_gej_cmov(&acc, &sum, nz & ~acc_inf);
        fs2_gej_cmov(&acc, &first, nz & acc_inf);
        acc_inf &= ~nz;
    }
    /* k = 0 (never from the protocols): the point at infinity, Z = 0 */
    static const fs2_fe zero = {{0, 0, 0, 0}};
    fs2_fe_cmov(&acc.z, &zero, acc_inf);
    *r = acc;
}

/* r = k*P, constant time in k, over affine tables of public points:
 * tab[0][j] = (j + 1) P and, with two streams, tab[1][j] = (j + 1) 2^128 P.
 * One stream: k in 52 signed 5-bit windows over tab[0], 255 doublings.
 * Two streams: k = k0 + 2^128 k1, each half in 26 signed 5-bit windows over
 * its own table, the two sharing 125 doublings. Every addition is mixed
 * (the table point affine), its entry read by a full scan.
 *
 * Exceptional additions (the mixed formula has no special cases; the
 * accumulator's infinity is tracked by masks): before the additions of
 * window i the accumulator is A P with A = 32 V, V the value of the digits
 * above i (two streams: A = 32 (2^128 H + L), H and L the halves' digit
 * prefixes, plus the first stream's digit d0 for the second addition).
 * For i >= 1, |A| < 2^252 < n / 2, so A = +-d (mod n) for the table
 * multiple d being added (|d| <= 16, or 2^128 d1) would hold over the
 * integers, which signed 5-bit digits allow only when every digit so far
 * is zero: the accumulator is then infinity, which the masks handle. Only
 * window 0 can meet acc = +-t with both finite (k = n + 2 d0 and the
 * like), and it uses the complete formula. */
static void fs2_ecmult_const_windows(fs2_gej *r, const fs2_ge (*tab)[16], int streams, const uint64_t k[4])
{
    fs2_gej acc, tj, sum;
    fs2_ge t;
    int windows = 52 / streams;
    unsigned digit[2][52], negs[2][52];

    for (int c = 0; c < streams; c++) {
        uint64_t part[4] = {k[0], k[1], k[2], k[3]};
        if (streams == 2)
            part[0] = k[2 * c], part[1] = k[2 * c + 1], part[2] = part[3] = 0;
        unsigned carry = 0;
        for (int i = 0; i < windows; i++) {
            unsigned cy;
            digit[c][i] = fs2_recode_step(fs2_scalar_bits(part, 5 * (unsigned)i, 5) + carry, 5, &negs[c][i], &cy);
            carry = cy;
        }
        fs2_wipe(part, sizeof part);
    }

    uint64_t acc_inf = ~(uint64_t)0;
    fs2_gej_set_infinity(&acc);
    for (int i = windows - 1; i >= 0; i--) {
        if (i != windows - 1)
            for (int j = 0; j < 5; j++)
                fs2_gej_double(&acc, &acc);
        for (int c = 0; c < streams; c++) {
            uint64_t nz = ~fs2_eq_mask_u(digit[c][i], 0);
            fs2_select_limbs(&t, (const uint64_t *)tab[c], 16, 8, digit[c][i]);
            fs2_fe_cneg(&t.y, fs2_ct_mask_u64(negs[c][i]));
            fs2_gej_set_ge(&tj, &t);
            if (i == 0) {
                fs2_gej_add_complete(&sum, &acc, &tj);
                fs2_gej_cmov(&acc, &sum, nz);
            } else {
                fs2_gej_add_ge_masks(&sum, &acc, &t, NULL, NULL);
                fs2_gej_cmov(&acc, &sum, nz & ~acc_inf);
                fs2_gej_cmov(&acc, &tj, nz & acc_inf);
                acc_inf &= ~nz;
            }
        }
    }
    fs2_wipe(digit, sizeof digit);
    fs2_wipe(negs, sizeof negs);
    fs2_wipe(&t, sizeof t);
    fs2_wipe(&tj, sizeof tj);
    fs2_wipe(&sum, sizeof sum);
    *r = acc;
}

/* r = k*P for a P of order n (Jacobian, or affine below), constant time
 * in k; P is PUBLIC (a ciphertext's C1, a key-exchange peer's point, a
 * public key): its table 1P..16P is made affine in variable time
 * (fs2_gej_multiples16_var). */
static void fs2_ecmult_const_gej(fs2_gej *r, const fs2_gej *p, const uint64_t k[4])
{
    fs2_ge tab[1][16];
    fs2_gej_multiples16_var(tab[0], p);
    fs2_ecmult_const_windows(r, (const fs2_ge(*)[16])tab, 1, k);
}

static void fs2_ecmult_const(fs2_gej *r, const fs2_ge *p, const uint64_t k[4])
{
    fs2_gej pj;
    fs2_gej_set_ge(&pj, p);
    fs2_ecmult_const_gej(r, &pj, k);
}

/* r = k*P for P of order n, constant time in k, from the public key's
 * cached affine tables tab[0][j] = (j + 1) P and tab[1][j] = (j + 1) 2^128 P
 * (two 128-bit streams: 125 doublings instead of 255). */
static void fs2_ecmult_const_split(fs2_gej *r, const fs2_ge (*tab)[16], const uint64_t k[4])
{
    fs2_ecmult_const_windows(r, tab, 2, k);
}

/* width-w NAF of a public 256-bit k: digits odd in (-2^(w-1), 2^(w-1)) or 0.
 * Returns the number of digits (<= 257). */
static int fs2_wnaf_var(int out[258], const uint64_t k[4], int w)
{
    uint64_t v[5] = {k[0], k[1], k[2], k[3], 0};
    int len = 0;
    memset(out, 0, 258 * sizeof(int));
    while (v[0] | v[1] | v[2] | v[3] | v[4]) {
        int d = 0;
        if (v[0] & 1) {
            d = (int)(v[0] & ((1u << w) - 1));
            if (d >= (1 << (w - 1)))
                d -= 1 << w;
            /* v -= d */
            if (d > 0) {
                uint64_t b = 0;
                b = fs2_sbb(&v[0], v[0], (uint64_t)d, 0);
                for (int i = 1; i < 5; i++)
                    b = fs2_sbb(&v[i], v[i], 0, b);
            } else {
                uint64_t c = fs2_adc(&v[0], v[0], (uint64_t)(-d), 0);
                for (int i = 1; i < 5; i++)
                    c = fs2_adc(&v[i], v[i], 0, c);
            }
        }
        out[len++] = d;
        for (int i = 0; i < 4; i++)
            v[i] = (v[i] >> 1) | (v[i + 1] << 63);
        v[4] >>= 1;
    }
    return len;
}

/* acc = sG + tP in variable time (public s, t and P). With the public
 * key's cached tables (tab[0][j] = (j + 1) P, tab[1][j] = (j + 1) 2^128 P,
 * affine) the scalars are split into 128-bit halves, s = s0 + 2^128 s1 and
 * t = t0 + 2^128 t1, and the four wNAF streams over G, 2^128 G (fixed
 * tables), P and 2^128 P share 128 doublings instead of 256, all with
 * mixed additions. tab NULL: two 256-bit streams, the odd multiples of P
 * made here, affine (fs2_gej_odd_multiples8_var: one inversion, then mixed
 * additions, 8M + 3S, instead of Jacobian ones, 12M + 4S). s NULL: no G
 * stream (acc = t*P, as many doublings as t has bits). */
static void fs2_ecmult_sum_var(fs2_gej *acc_out, const uint64_t s_in[4], const uint64_t t[4], const fs2_ge *p,
                               const fs2_ge (*tab)[16])
{
    static const uint64_t zero[4] = {0, 0, 0, 0};
    const uint64_t *s = s_in ? s_in : zero;
    int ws[2][258], wt[2][258], len = 0, streams = tab ? 2 : 1;
    const fs2_table_point *gtab[2] = {fs2_g_odd, fs2_g128_odd};
    fs2_gej acc;
    fs2_ge g, ptab[8];

    for (int c = 0; c < streams; c++) {
        uint64_t sh[4] = {s[0], s[1], s[2], s[3]}, th[4] = {t[0], t[1], t[2], t[3]};
        if (tab) { /* half c of each scalar */
            sh[0] = s[2 * c], sh[1] = s[2 * c + 1], sh[2] = sh[3] = 0;
            th[0] = t[2 * c], th[1] = t[2 * c + 1], th[2] = th[3] = 0;
        }
        int ls = fs2_wnaf_var(ws[c], sh, FS2_G_ODD_WIDTH), lt = fs2_wnaf_var(wt[c], th, 5);
        len = ls > len ? ls : len;
        len = lt > len ? lt : len;
    }
    if (!tab) { /* ptab[j] = (2 j + 1) P, affine: mixed additions below */
        fs2_gej_set_ge(&acc, p);
        fs2_gej_odd_multiples8_var(ptab, &acc);
    }

    fs2_gej_set_infinity(&acc);
    for (int i = len - 1; i >= 0; i--) {
        if (!fs2_gej_is_infinity_var(&acc))
            fs2_gej_double(&acc, &acc);
        for (int c = 0; c < streams; c++) {
            int d = ws[c][i];
            if (d) {
                int idx = (d > 0 ? d : -d) / 2;
                memcpy(g.x.v, gtab[c][idx].x, 32);
                memcpy(g.y.v, gtab[c][idx].y, 32);
                if (d < 0)
                    fs2_fe_neg(&g.y, &g.y);
                fs2_gej_add_ge_var(&acc, &acc, &g);
            }
            d = wt[c][i];
            if (d) {
                g = tab ? tab[c][(d > 0 ? d : -d) - 1] : ptab[(d > 0 ? d : -d) / 2];
                if (d < 0)
                    fs2_fe_neg(&g.y, &g.y);
                fs2_gej_add_ge_var(&acc, &acc, &g);
            }
        }
    }
    *acc_out = acc;
}

/* 1 iff the Jacobian acc is finite and its x mod n equals v (public). */
static int fs2_gej_x_mod_n_is_var(const fs2_gej *acc, const uint64_t v[4])
{
    if (fs2_gej_is_infinity_var(acc))
        return 0;
    /* x1 = X / Z^2; x1 mod n == v  <=>  X == v Z^2, or X == (v + n) Z^2 when
     * v + n < p (x1 in [n, p)). */
    fs2_fe z2, cand, vx;
    fs2_fe_sqr(&z2, &acc->z);
    fs2_fe_from_int(&vx, v);
    fs2_fe_mul(&cand, &vx, &z2);
    if (fs2_fe_eq_mask(&cand, &acc->x))
        return 1;
    uint64_t vn[4], c = 0;
    for (int i = 0; i < 4; i++)
        c = fs2_adc(&vn[i], v[i], FS2_N[i], c);
    if (c || !fs2_lt_mask4(vn, FS2_P))
        return 0;
    fs2_fe_from_int(&vx, vn);
    fs2_fe_mul(&cand, &vx, &z2);
    return fs2_fe_eq_mask(&cand, &acc->x) != 0;
}

/* 1 iff sG + tP (fs2_ecmult_sum_var) is finite and its x mod n equals v. */
static int fs2_ecmult_cmp_x_var(const uint64_t s[4], const uint64_t t[4], const fs2_ge *p, const fs2_ge (*tab)[16],
                                const uint64_t v[4])
{
    fs2_gej acc;
    fs2_ecmult_sum_var(&acc, s, t, p, tab);
    return fs2_gej_x_mod_n_is_var(&acc, v);
}

#endif
