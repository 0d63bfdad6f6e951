/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SM2 curve points for the CUDA backend (GB/T 32918.1 clause 3, curve
 * y^2 = x^3 - 3x + b over F_p): Jacobian coordinates (x = X/Z^2,
 * y = Y/Z^3, infinity has Z = 0), affine table points, and the scalar
 * multiplications the protocols need:
 *
 *  - fixed base kG from a segmented table (the paper's algorithm 6): k is cut
 *    into W-bit digits k_s and kG = sum_s T[s][k_s], T[s][j] = j 2^(sW) G
 *    affine. One mixed addition per segment and no doubling. In the fast
 *    mode the entry is loaded at an address that depends on the digit (a
 *    secret for signing and key generation: docs/GPU.md); in the
 *    constant-time mode (W = 4) every entry of a segment is read and the
 *    right one kept by masks, so no address depends on a secret.
 *  - variable base tP with a fixed window of 4 (the paper's algorithm 7), for
 *    verification, where every input is public;
 *  - the verification sum sG + tP.
 *
 * Functions ending in _var branch on their inputs and are used on public
 * values only (verification, table construction); every other function
 * runs the same instructions and touches the same addresses whatever the
 * values (except fs2g_ecmult_gen_fast's table address, as said above).
 */
#ifndef FS2_GPU_POINT_CUH
#define FS2_GPU_POINT_CUH

#include "sm2_gpu_field.cuh"

typedef struct {
    uint32_t x[8], y[8], z[8];
} fs2g_jac;

typedef struct {
    uint32_t x[8], y[8];
} fs2g_aff;

/* A table entry is an affine point stored as 16 words: x then y. */
#define FS2G_ENTRY_WORDS 16

/* b of the curve (a = -3), little-endian words. */
#define FS2G_B_WORDS                                                                                           \
    {                                                                                                          \
        0x4D940E93u, 0xDDBCBD41u, 0x15AB8F92u, 0xF39789F5u, 0xCF6509A7u, 0x4D5A9E4Bu, 0x9D9F5E34u, 0x28E9FA9Eu \
    }

FS2G_HD void fs2g_jac_set_inf(fs2g_jac *r)
{
    FS2G_UNROLL
    for (int i = 0; i < 8; i++)
        r->x[i] = r->y[i] = r->z[i] = 0;
}

FS2G_HD void fs2g_jac_from_aff(fs2g_jac *r, const fs2g_aff *a)
{
    fs2g_copy(r->x, a->x);
    fs2g_copy(r->y, a->y);
    FS2G_UNROLL
    for (int i = 0; i < 8; i++)
        r->z[i] = i == 0;
}

/* All-ones if r is the point at infinity (Z = 0 mod p). */
FS2G_HD uint32_t fs2g_jac_is_inf(const fs2g_jac *r)
{
    return fs2g_fp_is_zero(r->z);
}

/* r = 2a, a = -3 ("dbl-2001-b": 3M + 5S). Infinity stays infinity. */
FS2G_HDU void fs2g_jac_dbl(fs2g_jac *r, const fs2g_jac *a)
{
    FS2G_COUNT_OP(FS2G_OP_JAC_DBL);
    uint32_t delta[8], gamma[8], beta[8], alpha[8], t1[8], t2[8];
    fs2g_fp_sqr(delta, a->z);
    fs2g_fp_sqr(gamma, a->y);
    fs2g_fp_mul(beta, a->x, gamma);
    fs2g_fp_sub(t1, a->x, delta);
    fs2g_fp_add(t2, a->x, delta);
    fs2g_fp_mul(t1, t1, t2);
    fs2g_fp_add(alpha, t1, t1);
    fs2g_fp_add(alpha, alpha, t1); /* alpha = 3 (X - delta)(X + delta) */
    /* Z3 = (Y + Z)^2 - gamma - delta */
    fs2g_fp_add(t1, a->y, a->z);
    fs2g_fp_sqr(t1, t1);
    fs2g_fp_sub(t1, t1, gamma);
    fs2g_fp_sub(r->z, t1, delta);
    /* X3 = alpha^2 - 8 beta */
    fs2g_fp_add(beta, beta, beta);
    fs2g_fp_add(beta, beta, beta); /* 4 beta */
    fs2g_fp_add(t2, beta, beta);   /* 8 beta */
    fs2g_fp_sqr(t1, alpha);
    fs2g_fp_sub(r->x, t1, t2);
    /* Y3 = alpha (4 beta - X3) - 8 gamma^2 */
    fs2g_fp_sub(t1, beta, r->x);
    fs2g_fp_mul(t1, alpha, t1);
    fs2g_fp_sqr(gamma, gamma);
    fs2g_fp_add(gamma, gamma, gamma);
    fs2g_fp_add(gamma, gamma, gamma);
    fs2g_fp_add(gamma, gamma, gamma);
    fs2g_fp_sub(r->y, t1, gamma);
}

/* r = a + b for b affine, constant time (8M + 3S): when `skip` is all-ones
 * the result is a (b stands for infinity), when a is infinity it is b.
 * a = +-b is not handled (the callers' arguments rule it out: see
 * fs2g_ecmult_gen_*). r may be a. */
FS2G_HDU void fs2g_jac_add_aff(fs2g_jac *r, const fs2g_jac *a, const fs2g_aff *b, uint32_t skip)
{
    FS2G_COUNT_OP(FS2G_OP_JAC_ADD_AFF);
    uint32_t z1z1[8], u2[8], s2[8], h[8], rr[8], hh[8], hhh[8], v[8], t[8];
    fs2g_jac o;
    uint32_t a_inf = fs2g_jac_is_inf(a);
    fs2g_fp_sqr(z1z1, a->z);
    fs2g_fp_mul(u2, b->x, z1z1);
    fs2g_fp_mul(s2, a->z, z1z1);
    fs2g_fp_mul(s2, s2, b->y);
    fs2g_fp_sub(h, u2, a->x);
    fs2g_fp_sub(rr, s2, a->y);
    fs2g_fp_sqr(hh, h);
    fs2g_fp_mul(hhh, h, hh);
    fs2g_fp_mul(v, a->x, hh);
    /* X3 = R^2 - H^3 - 2V */
    fs2g_fp_sqr(t, rr);
    fs2g_fp_sub(t, t, hhh);
    fs2g_fp_sub(t, t, v);
    fs2g_fp_sub(o.x, t, v);
    /* Y3 = R (V - X3) - Y1 H^3 */
    fs2g_fp_sub(t, v, o.x);
    fs2g_fp_mul(t, rr, t);
    fs2g_fp_mul(hhh, a->y, hhh);
    fs2g_fp_sub(o.y, t, hhh);
    /* Z3 = Z1 H */
    fs2g_fp_mul(o.z, a->z, h);
    /* a = infinity: the result is b */
    const uint32_t one[8] = {1, 0, 0, 0, 0, 0, 0, 0};
    fs2g_cmov(o.x, b->x, a_inf);
    fs2g_cmov(o.y, b->y, a_inf);
    fs2g_cmov(o.z, one, a_inf);
    /* b = infinity: the result is a */
    fs2g_cmov(o.x, a->x, skip);
    fs2g_cmov(o.y, a->y, skip);
    fs2g_cmov(o.z, a->z, skip);
    *r = o;
}

/* r = a + b, both Jacobian, public inputs (variable time): every case
 * (infinity, a = b, a = -b) handled by branches. r may alias a or b. */
FS2G_HDU void fs2g_jac_add_var(fs2g_jac *r, const fs2g_jac *a, const fs2g_jac *b)
{
    FS2G_COUNT_OP(FS2G_OP_JAC_ADD_VAR);
    if (fs2g_jac_is_inf(a)) {
        *r = *b;
        return;
    }
    if (fs2g_jac_is_inf(b)) {
        *r = *a;
        return;
    }
    uint32_t z1z1[8], z2z2[8], u1[8], u2[8], s1[8], s2[8], h[8], rr[8], hh[8], hhh[8], v[8], t[8];
    fs2g_fp_sqr(z1z1, a->z);
    fs2g_fp_sqr(z2z2, b->z);
    fs2g_fp_mul(u1, a->x, z2z2);
    fs2g_fp_mul(u2, b->x, z1z1);
    fs2g_fp_mul(s1, a->y, b->z);
    fs2g_fp_mul(s1, s1, z2z2);
    fs2g_fp_mul(s2, b->y, a->z);
    fs2g_fp_mul(s2, s2, z1z1);
    fs2g_fp_sub(h, u2, u1);
    fs2g_fp_sub(rr, s2, s1);
    if (fs2g_fp_is_zero(h)) {
        if (fs2g_fp_is_zero(rr)) {
            fs2g_jac tmp = *a;
            fs2g_jac_dbl(r, &tmp);
        } else {
            fs2g_jac_set_inf(r);
        }
        return;
    }
    fs2g_jac o;
    fs2g_fp_sqr(hh, h);
    fs2g_fp_mul(hhh, h, hh);
    fs2g_fp_mul(v, u1, hh);
    fs2g_fp_sqr(t, rr);
    fs2g_fp_sub(t, t, hhh);
    fs2g_fp_sub(t, t, v);
    fs2g_fp_sub(o.x, t, v);
    fs2g_fp_sub(t, v, o.x);
    fs2g_fp_mul(t, rr, t);
    fs2g_fp_mul(hhh, s1, hhh);
    fs2g_fp_sub(o.y, t, hhh);
    fs2g_fp_mul(o.z, a->z, b->z);
    fs2g_fp_mul(o.z, o.z, h);
    *r = o;
}

/* Affine x, y of a (not infinity; infinity gives 0, 0), canonical (in
 * [0, p)). Constant time. */
FS2G_HD void fs2g_jac_to_aff(fs2g_aff *r, const fs2g_jac *a)
{
    uint32_t zi[8], zi2[8];
    fs2g_fp_inv(zi, a->z);
    fs2g_fp_sqr(zi2, zi);
    fs2g_fp_mul(r->x, a->x, zi2);
    fs2g_fp_mul(zi2, zi2, zi);
    fs2g_fp_mul(r->y, a->y, zi2);
    fs2g_fp_canon(r->x, r->x);
    fs2g_fp_canon(r->y, r->y);
}

/* Load one table entry (16 words). On the device through the read-only
 * data cache, 16 bytes at a time. */
FS2G_HD void fs2g_load_entry(fs2g_aff *r, const uint32_t *p)
{
#if defined(__CUDA_ARCH__)
    const uint4 *q = (const uint4 *)p;
    uint4 v0 = __ldg(q), v1 = __ldg(q + 1), v2 = __ldg(q + 2), v3 = __ldg(q + 3);
    r->x[0] = v0.x, r->x[1] = v0.y, r->x[2] = v0.z, r->x[3] = v0.w;
    r->x[4] = v1.x, r->x[5] = v1.y, r->x[6] = v1.z, r->x[7] = v1.w;
    r->y[0] = v2.x, r->y[1] = v2.y, r->y[2] = v2.z, r->y[3] = v2.w;
    r->y[4] = v3.x, r->y[5] = v3.y, r->y[6] = v3.z, r->y[7] = v3.w;
#else
    for (int i = 0; i < 8; i++) {
        r->x[i] = p[i];
        r->y[i] = p[8 + i];
    }
#endif
}

/* Number of segments and entries per segment of a width-W table (entry 0,
 * the point at infinity, is not stored). */
FS2G_HD int fs2g_table_segments(int w)
{
    return (256 + w - 1) / w;
}
FS2G_HD uint32_t fs2g_table_entries(int w)
{
    return ((uint32_t)1 << w) - 1;
}

/* kk >>= w for 0 < w < 32 (a digit consumed). Constant time. */
FS2G_HD void fs2g_shr_small(uint32_t kk[8], int w)
{
    FS2G_UNROLL
    for (int i = 0; i < 7; i++)
        kk[i] = (kk[i] >> w) | (kk[i + 1] << (32 - w));
    kk[7] >>= w;
}

/* Entry `digit` of one table segment (seg: its first entry, for digit 1),
 * the fast mode: loaded at an address that depends on the digit. Returns
 * all-ones for digit 0 (then entry 1 is loaded and must be skipped). */
FS2G_HDU uint32_t fs2g_table_select_fast(fs2g_aff *e, const uint32_t *seg, uint32_t digit)
{
    FS2G_COUNT_OP(FS2G_OP_SELECT_FAST);
    uint32_t zero = (uint32_t)0 - (((digit | ((uint32_t)0 - digit)) >> 31) ^ 1u);
    uint32_t idx = digit - 1 + (zero & 1u); /* digit 0 loads entry 0 and skips it */
    fs2g_load_entry(e, seg + (size_t)idx * FS2G_ENTRY_WORDS);
    return zero;
}

/* Entry `digit` of one width-4 segment (15 entries), constant time: every
 * entry is read, in order, and the digit's one kept by masks. Returns
 * all-ones for digit 0 (e is then zero and must be skipped). */
FS2G_HDU uint32_t fs2g_table_select_ct(fs2g_aff *e, const uint32_t *seg, uint32_t digit)
{
    FS2G_COUNT_OP(FS2G_OP_SELECT_CT);
    fs2g_aff t;
    FS2G_UNROLL
    for (int i = 0; i < 8; i++)
        e->x[i] = e->y[i] = 0;
    FS2G_UNROLL
    for (uint32_t j = 1; j <= 15; j++) {
        uint32_t d = digit ^ j;
        uint32_t m = (uint32_t)0 - (((d | ((uint32_t)0 - d)) >> 31) ^ 1u);
        fs2g_load_entry(&t, seg + (j - 1) * FS2G_ENTRY_WORDS);
        fs2g_cmov(e->x, t.x, m);
        fs2g_cmov(e->y, t.y, m);
    }
    return (uint32_t)0 - (((digit | ((uint32_t)0 - digit)) >> 31) ^ 1u);
}

/* r = k G from a width-w table (w in 2..16), the fast mode: the entry of
 * each segment is loaded at an address that depends on the digit. k < n
 * (then no partial sum ever equals +-the entry added: see docs/GPU.md). */
FS2G_HD void fs2g_ecmult_gen_fast(fs2g_jac *r, const uint32_t k[8], const uint32_t *table, int w)
{
    uint32_t kk[8];
    fs2g_copy(kk, k);
    fs2g_jac_set_inf(r);
    const int nseg = fs2g_table_segments(w);
    const uint32_t nent = fs2g_table_entries(w);
    for (int s = 0; s < nseg; s++) {
        uint32_t digit = kk[0] & nent;
        fs2g_shr_small(kk, w);
        fs2g_aff e;
        uint32_t zero = fs2g_table_select_fast(&e, table + (size_t)s * nent * FS2G_ENTRY_WORDS, digit);
        fs2g_jac_add_aff(r, r, &e, zero);
    }
}

/* r = k G from the width-4 table, constant-time mode: all 15 entries of a
 * segment are read in order and the digit's one kept by masks, so the
 * addresses read (the same for every thread of a warp) and the
 * instructions run do not depend on k. */
FS2G_HD void fs2g_ecmult_gen_ct(fs2g_jac *r, const uint32_t k[8], const uint32_t *table)
{
    uint32_t kk[8];
    fs2g_copy(kk, k);
    fs2g_jac_set_inf(r);
    for (int s = 0; s < 64; s++) {
        uint32_t digit = kk[0] & 15u;
        fs2g_shr_small(kk, 4);
        fs2g_aff e;
        uint32_t zero = fs2g_table_select_ct(&e, table + (size_t)s * 15 * FS2G_ENTRY_WORDS, digit);
        fs2g_jac_add_aff(r, r, &e, zero);
    }
}

/* r = j * base for a public j >= 1 (table construction), variable time. */
FS2G_HD void fs2g_ecmult_small_var(fs2g_jac *r, const fs2g_aff *base, uint32_t j)
{
    int top = 31;
    while (top > 0 && !((j >> top) & 1u))
        top--;
    fs2g_jac_from_aff(r, base);
    for (int b = top - 1; b >= 0; b--) {
        fs2g_jac_dbl(r, r);
        if ((j >> b) & 1u)
            fs2g_jac_add_aff(r, r, base, 0); /* r = (2m) base != +-base for j < n / 2 */
    }
}

/* r = t P with a fixed window of 4 (public t and P: verification). */
FS2G_HD void fs2g_ecmult_var(fs2g_jac *r, const fs2g_aff *p, const uint32_t t[8])
{
    fs2g_jac tab[15]; /* tab[i] = (i + 1) P */
    fs2g_jac_from_aff(&tab[0], p);
    fs2g_jac_dbl(&tab[1], &tab[0]);
    for (int i = 2; i < 15; i++)
        fs2g_jac_add_aff(&tab[i], &tab[i - 1], p, 0);
    fs2g_jac_set_inf(r);
    for (int i = 63; i >= 0; i--) {
        if (!fs2g_jac_is_inf(r)) {
            fs2g_jac_dbl(r, r);
            fs2g_jac_dbl(r, r);
            fs2g_jac_dbl(r, r);
            fs2g_jac_dbl(r, r);
        }
        uint32_t digit = (t[i >> 3] >> ((i & 7) * 4)) & 15u;
        if (digit)
            fs2g_jac_add_var(r, r, &tab[digit - 1]);
    }
}

#endif
