/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SM2 curve points for the CUDA backend (GB/T 32918.1 clause 3, curve
 * y^2 = x^3 - 3x + b over F_p): Jacobian coordinates (x = X/Z^2,
 * y = Y/Z^3, infinity has Z = 0), affine table points, and the scalar
 * multiplications the protocols need:
 *
 *  - fixed base kG from a segmented table (the paper's algorithm 6) with
 *    signed odd digits: k is cut into W-bit digits d_s, all odd and nonzero,
 *    and kG = sum_s d_s 2^(sW) G from a table of the odd multiples
 *    (2i + 1) 2^(sW) G, affine (half the entries of the paper's), the sign
 *    applied to y. One mixed addition per segment after the first, no
 *    doubling. In the fast mode the entry is loaded at an address that
 *    depends on the digit (a secret for signing and key generation:
 *    docs/GPU.md); in the constant-time mode (W = 8) a warp reads every
 *    entry of a segment together and each thread takes its own through
 *    register shuffles, so no address depends on a secret.
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

/* r = 2a, a = -3 (4M + 4S; "dbl-2001-b" with Z3 = 2 Y Z, and the small
 * multiples 3, 4, 8 by fs2g_fp_mul_small and shifts). Infinity stays
 * infinity. r may be a. */
FS2G_HDU void fs2g_jac_dbl(fs2g_jac *r, const fs2g_jac *a)
{
    FS2G_COUNT_OP(FS2G_OP_JAC_DBL);
    uint32_t delta[8], gamma[8], beta[8], alpha[8], t1[8], t2[8];
    fs2g_fp_sqr(delta, a->z);
    fs2g_fp_sqr(gamma, a->y);
    fs2g_fp_mul(beta, a->x, gamma);
    /* alpha = 3 (X - delta)(X + delta) */
    fs2g_fp_sub(t1, a->x, delta);
    fs2g_fp_add(t2, a->x, delta);
    fs2g_fp_mul(t1, t1, t2);
    fs2g_fp_mul_small(alpha, t1, 3);
    /* Z3 = 2 Y Z */
    fs2g_fp_mul(t1, a->y, a->z);
    fs2g_fp_shl(r->z, t1, 1);
    /* X3 = alpha^2 - 8 beta */
    fs2g_fp_shl(t2, beta, 3);
    fs2g_fp_sqr(t1, alpha);
    fs2g_fp_sub(r->x, t1, t2);
    /* Y3 = alpha (4 beta - X3) - 8 gamma^2 */
    fs2g_fp_shl(beta, beta, 2);
    fs2g_fp_sub(t1, beta, r->x);
    fs2g_fp_mul(t1, alpha, t1);
    fs2g_fp_sqr(gamma, gamma);
    fs2g_fp_shl(gamma, gamma, 3);
    fs2g_fp_sub(r->y, t1, gamma);
}

/* r = a + b for b affine (8M + 3S), constant time, for a not infinity and
 * a != +-b (the callers' arguments rule those out: see the fixed-base
 * multiplications below). If a = b all the same, the result has Z = 0 (H =
 * 0), and so has every sum with such a point as a: the callers look for Z =
 * 0 at the end. r may be a. */
FS2G_HDU void fs2g_jac_add_aff(fs2g_jac *r, const fs2g_jac *a, const fs2g_aff *b)
{
    FS2G_COUNT_OP(FS2G_OP_JAC_ADD_AFF);
    uint32_t z1z1[8], u2[8], s2[8], h[8], rr[8], hh[8], hhh[8], v[8], t[8];
    fs2g_jac o;
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
    *r = o;
}

/* r = a + b for a and b both affine (4M + 2S: Z1 = 1, so Z3 = H), constant
 * time, for a != +-b (the first addition of the fixed-base multiplications,
 * from two table entries of different segments: see below). */
FS2G_HD void fs2g_aff_add_aff(fs2g_jac *r, const fs2g_aff *a, const fs2g_aff *b)
{
    uint32_t h[8], rr[8], hh[8], hhh[8], v[8], t[8];
    fs2g_fp_sub(h, b->x, a->x);
    fs2g_fp_sub(rr, b->y, a->y);
    fs2g_fp_sqr(hh, h);
    fs2g_fp_mul(hhh, h, hh);
    fs2g_fp_mul(v, a->x, hh);
    /* X3 = R^2 - H^3 - 2V */
    fs2g_fp_sqr(t, rr);
    fs2g_fp_sub(t, t, hhh);
    fs2g_fp_sub(t, t, v);
    fs2g_fp_sub(r->x, t, v);
    /* Y3 = R (V - X3) - Y1 H^3 */
    fs2g_fp_sub(t, v, r->x);
    fs2g_fp_mul(t, rr, t);
    fs2g_fp_mul(hhh, a->y, hhh);
    fs2g_fp_sub(r->y, t, hhh);
    fs2g_copy(r->z, h);
}

/* X3 and Z3 of r = a + b for b affine (6M + 3S), as fs2g_jac_add_aff
 * computes them, without Y3 (r->y is left as it was): the last addition of
 * a fixed-base multiplication whose caller needs only x = X / Z^2
 * (signing). The same conditions and the same Z = 0 case as
 * fs2g_jac_add_aff. r may be a. */
FS2G_HD void fs2g_jac_add_aff_xz(fs2g_jac *r, const fs2g_jac *a, const fs2g_aff *b)
{
    uint32_t z1z1[8], u2[8], s2[8], h[8], rr[8], hh[8], hhh[8], v[8], t[8];
    fs2g_fp_sqr(z1z1, a->z);
    fs2g_fp_mul(u2, b->x, z1z1);
    fs2g_fp_mul(s2, a->z, z1z1);
    fs2g_fp_mul(s2, s2, b->y);
    fs2g_fp_sub(h, u2, a->x);
    fs2g_fp_sub(rr, s2, a->y);
    fs2g_fp_sqr(hh, h);
    fs2g_fp_mul(hhh, h, hh);
    fs2g_fp_mul(v, a->x, hh);
    fs2g_fp_sqr(t, rr);
    fs2g_fp_sub(t, t, hhh);
    fs2g_fp_sub(t, t, v);
    fs2g_fp_mul(r->z, a->z, h);
    fs2g_fp_sub(r->x, t, v);
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

/* ---- fixed-base tables and the signed odd-digit recoding ------------------
 *
 * A width-w table has m = ceil(256 / w) segments; segment s holds the odd
 * multiples (2i + 1) 2^(s w) G, i = 0 .. 2^(w-1) - 1, affine (16 words each:
 * x then y), 2^(w-1) entries: half of what all the multiples 1 .. 2^w - 1
 * would take. A scalar k in [1, n - 1] is first made odd (n - k when k is
 * even, which negates the point), then written with m digits d_s, all odd
 * and nonzero: for s < m - 1, d_s = (k_s mod 2^(w+1)) - 2^w in
 * [-(2^w - 1), 2^w - 1], k_(s+1) = (k_s - d_s) / 2^w, which is
 * (k_s >> w) | 1, so k_s = (k >> s w) | 1 for s >= 1; the last digit is
 * d_(m-1) = k_(m-1) in [1, 2^w - 1] (k < n < 2^256 - 2^224 makes
 * k_(m-1) < 2^w + 1, and it is odd). Entry index |d_s| >> 1 and the sign
 * come from bits s w .. s w + w of k with a mask and a shift, without a
 * branch.
 *
 * kG = sum_s d_s 2^(s w) G then starts from segment 0's entry and makes
 * m - 1 mixed additions, none with the point at infinity and none skipped.
 * The partial sum S before segment j is below 2^(j w) in absolute value and
 * the entry added, D = d_j 2^(j w), is at least 2^(j w), so S -+ D is not 0
 * and, for j < m - 1, below 2^((j + 1) w) <= 2^255 < n: no addition meets
 * P = +-Q except possibly the last. There P = -Q would make kG infinity,
 * impossible for k < n, and P = Q needs S - D = -n, i.e. k = S + D =
 * 2 D - n, which the digit ranges allow for one odd k per width:
 * d_(m-1) = q = 2^(256 - (m-1) w) - 1 and k = 2 q 2^((m-1) w) - n (and its
 * even twin n - k). For it the mixed addition gives Z = 0. A result with
 * Z = 0 is that case, and the callers treat it (signing and key
 * generation: the item is done on the CPU; verification, public: another
 * way). */

/* Number of segments and entries per segment of a width-w table. */
FS2G_HD int fs2g_table_segments(int w)
{
    return (256 + w - 1) / w;
}
FS2G_HD uint32_t fs2g_table_entries(int w)
{
    return (uint32_t)1 << (w - 1);
}

/* r = k if k is odd, n - k if it is even (k in [1, n - 1], so r is odd and
 * in [1, n - 1]); returns all-ones when it negated. Constant time. */
FS2G_HD uint32_t fs2g_scalar_odd(uint32_t r[8], const uint32_t k[8])
{
    const uint32_t N[8] = FS2G_N_WORDS;
    uint32_t nk[8];
    (void)fs2g_sub256(nk, N, k);
    const uint32_t even = (k[0] & 1u) - 1u;
    fs2g_copy(r, k);
    fs2g_cmov(r, nk, even);
    return even;
}

/* kk >>= w for 0 < w < 32 (a digit consumed). Constant time. */
FS2G_HD void fs2g_shr_small(uint32_t kk[8], int w)
{
    FS2G_UNROLL
    for (int i = 0; i < 7; i++)
        kk[i] = (kk[i] >> w) | (kk[i + 1] << (32 - w));
    kk[7] >>= w;
}

/* The digit of a segment from the low w + 1 bits of kk = k >> (s w): its
 * entry index (*idx) and sign (returned, all-ones for a negative digit,
 * XORed with flip); last = all-ones for the last segment, whose digit is
 * kk | 1 itself (positive). Constant time. */
FS2G_HD uint32_t fs2g_digit(uint32_t *idx, uint32_t kk0, int w, uint32_t last, uint32_t flip)
{
    const uint32_t win = kk0 | 1u;
    const uint32_t low = ((uint32_t)1 << w) - 1u;
    /* bit w clear: d = win - 2^w < 0, |d| = 2^w - (win mod 2^w) */
    const uint32_t neg = (((win >> w) & 1u) - 1u) & ~last;
    *idx = ((win ^ neg) & low) >> 1;
    return neg ^ flip;
}

/* Entry idx of one table segment (seg: its first entry), the fast mode:
 * loaded at an address that depends on the index (a secret for signing and
 * key generation: docs/GPU.md). */
FS2G_HDU void fs2g_table_select_fast(fs2g_aff *e, const uint32_t *seg, uint32_t idx)
{
    FS2G_COUNT_OP(FS2G_OP_SELECT_FAST);
    fs2g_load_entry(e, seg + (size_t)idx * FS2G_ENTRY_WORDS);
}

/* y = p - y when neg is all-ones (y canonical, a table entry's), else y
 * unchanged. Constant time. */
FS2G_HDU void fs2g_aff_cneg(fs2g_aff *e, uint32_t neg)
{
    FS2G_COUNT_OP(FS2G_OP_AFF_CNEG);
    const uint32_t P[8] = FS2G_P_WORDS;
    uint32_t t[8];
    (void)fs2g_sub256(t, P, e->y);
    fs2g_cmov(e->y, t, neg);
}

/* The constant-time mode's table width (FS2_CUDA_CT_TABLE_BITS). */
#define FS2G_CT_W 8

/* Entry idx (a secret) of one segment of the constant-time table
 * (2^(FS2G_CT_W - 1) = 128 entries), with no address that depends on it.
 * On a device the 32 threads of a warp read the segment together: in each
 * of 4 rounds, lane l loads entry 32 c + l (the same addresses for every
 * key), and every lane takes the 16 words of its entry from the lane that
 * holds it with __shfl_sync (the secret chooses a source lane of a
 * register exchange, not a memory address), keeping the round's words by
 * a mask. All 32 lanes of the warp must call it together. Elsewhere (host
 * tests, the emulated runtime, HIP) every entry is read in order and the
 * right one kept by masks. */
FS2G_HDU void fs2g_table_select_ct(fs2g_aff *e, const uint32_t *seg, uint32_t idx)
{
    FS2G_COUNT_OP(FS2G_OP_SELECT_CT);
    const uint32_t nent = (uint32_t)1 << (FS2G_CT_W - 1);
#if defined(__CUDA_ARCH__)
    const uint32_t lane = threadIdx.x & 31u;
    FS2G_UNROLL
    for (uint32_t c = 0; c < nent / 32; c++) {
        fs2g_aff t;
        fs2g_load_entry(&t, seg + (size_t)(32 * c + lane) * FS2G_ENTRY_WORDS);
        const uint32_t d = (idx >> 5) ^ c;
        const uint32_t m = (uint32_t)0 - (((d | ((uint32_t)0 - d)) >> 31) ^ 1u);
        FS2G_UNROLL
        for (int i = 0; i < 8; i++) {
            const uint32_t x = __shfl_sync(0xFFFFFFFFu, t.x[i], (int)(idx & 31u));
            const uint32_t y = __shfl_sync(0xFFFFFFFFu, t.y[i], (int)(idx & 31u));
            e->x[i] = (x & m) | (e->x[i] & ~m);
            e->y[i] = (y & m) | (e->y[i] & ~m);
        }
    }
#else
    FS2G_UNROLL
    for (int i = 0; i < 8; i++)
        e->x[i] = e->y[i] = 0;
    for (uint32_t j = 0; j < nent; j++) {
        fs2g_aff t;
        const uint32_t d = idx ^ j;
        const uint32_t m = (uint32_t)0 - (((d | ((uint32_t)0 - d)) >> 31) ^ 1u);
        fs2g_load_entry(&t, seg + (size_t)j * FS2G_ENTRY_WORDS);
        fs2g_cmov(e->x, t.x, m);
        fs2g_cmov(e->y, t.y, m);
    }
#endif
}

/* Whether the fast mode loads the next segment's entry before adding the
 * current one (16 more registers in flight): a build option, measured in
 * docs/GPU.md "Occupancy". */
#ifndef FS2G_PREFETCH
#define FS2G_PREFETCH 1
#endif

/* want_y of the fixed-base multiplications: x only (X and Z: signing), x
 * and y, or x and y from the smaller code (FS2G_GEN_SMALL: the sum starts at
 * segment 0's entry and one mixed addition in a loop adds every other
 * segment, 2M + 1S more per multiplication than the specialised first and
 * last additions but one addition's code instead of three: the verification
 * kernels, with two multiplications each). */
#define FS2G_GEN_SMALL 2

/* The last addition of a fixed-base multiplication: in full, or X and Z
 * only when want_y is 0 (a constant where the callers inline it). */
FS2G_HD void fs2g_gen_last_add(fs2g_jac *r, const fs2g_aff *e, int want_y)
{
    if (want_y)
        fs2g_jac_add_aff(r, r, e);
    else
        fs2g_jac_add_aff_xz(r, r, e);
}

/* r = k G from a width-w table (w in 2..16, so at least 16 segments), the
 * fast mode: the entry of each segment is loaded at an address that depends
 * on k's digit (with FS2G_PREFETCH, the next segment's before the current
 * one is added). Unless want_y is FS2G_GEN_SMALL, segments 0 and 1 are added
 * as affine points (fs2g_aff_add_aff) and the last addition is outside the
 * loop: with want_y = 0 it leaves r->y unset (fs2g_jac_add_aff_xz: signing
 * needs only x). k in [1, n - 1]; r has Z = 0 in the exceptional case
 * described above. */
FS2G_HD void fs2g_ecmult_gen_fast(fs2g_jac *r, const uint32_t k[8], const uint32_t *table, int w, int want_y)
{
    const int small = want_y == FS2G_GEN_SMALL; /* a constant where inlined */
    uint32_t kk[8], idx;
    const uint32_t flip = fs2g_scalar_odd(kk, k);
    const int nseg = fs2g_table_segments(w);
    const uint32_t nent = fs2g_table_entries(w);
    const size_t sstride = (size_t)nent * FS2G_ENTRY_WORDS;
    /* the first segment the loop adds, and the end of the loop */
    const int s0 = small ? 1 : 2, send = small ? nseg : nseg - 1;
    fs2g_aff e, e0;
    uint32_t neg0 = fs2g_digit(&idx, kk[0], w, 0u, flip), neg = 0;
    fs2g_table_select_fast(&e0, table, idx);
    if (!small) {
        fs2g_shr_small(kk, w);
        neg = fs2g_digit(&idx, kk[0], w, 0u, flip);
        fs2g_table_select_fast(&e, table + sstride, idx);
    }
#if FS2G_PREFETCH
    /* segment s0's entry in flight while the sum starts */
    fs2g_aff nxt;
    fs2g_shr_small(kk, w);
    uint32_t nneg = fs2g_digit(&idx, kk[0], w, s0 + 1 == nseg ? ~0u : 0u, flip);
    fs2g_table_select_fast(&nxt, table + (size_t)s0 * sstride, idx);
#endif
    fs2g_aff_cneg(&e0, neg0);
    if (small) {
        fs2g_jac_from_aff(r, &e0);
    } else {
        fs2g_aff_cneg(&e, neg);
        fs2g_aff_add_aff(r, &e0, &e);
    }
    /* s is public: the same branches for every thread */
#if FS2G_PREFETCH
    for (int s = s0; s < send; s++) {
        e = nxt;
        neg = nneg;
        if (s + 1 < nseg) {
            fs2g_shr_small(kk, w);
            nneg = fs2g_digit(&idx, kk[0], w, s + 2 == nseg ? ~0u : 0u, flip);
            fs2g_table_select_fast(&nxt, table + (size_t)(s + 1) * sstride, idx);
        }
#else
    for (int s = s0; s < nseg; s++) {
        fs2g_shr_small(kk, w);
        neg = fs2g_digit(&idx, kk[0], w, s + 1 == nseg ? ~0u : 0u, flip);
        fs2g_table_select_fast(&e, table + (size_t)s * sstride, idx);
        if (s == send) {
            fs2g_aff_cneg(&e, neg);
            fs2g_gen_last_add(r, &e, want_y);
            break;
        }
#endif
        fs2g_aff_cneg(&e, neg);
        fs2g_jac_add_aff(r, r, &e);
    }
#if FS2G_PREFETCH
    if (!small) {
        fs2g_aff_cneg(&nxt, nneg);
        fs2g_gen_last_add(r, &nxt, want_y);
    }
#endif
}

/* r = k G from the width-FS2G_CT_W table, constant-time mode: every entry
 * read through fs2g_table_select_ct, so that neither the addresses read nor
 * the instructions run depend on k. All 32 threads of a warp must run it
 * together (on a device). Segments 0 and 1 added as affine points, and the
 * last addition X and Z only when want_y is 0, as in fs2g_ecmult_gen_fast. */
FS2G_HD void fs2g_ecmult_gen_ct(fs2g_jac *r, const uint32_t k[8], const uint32_t *table, int want_y)
{
    const int w = FS2G_CT_W, nseg = (256 + FS2G_CT_W - 1) / FS2G_CT_W;
    const uint32_t nent = (uint32_t)1 << (FS2G_CT_W - 1);
    uint32_t kk[8], idx;
    const uint32_t flip = fs2g_scalar_odd(kk, k);
    fs2g_aff e, e0;
    uint32_t neg = fs2g_digit(&idx, kk[0], w, 0u, flip);
    fs2g_table_select_ct(&e0, table, idx);
    fs2g_aff_cneg(&e0, neg);
    fs2g_shr_small(kk, w);
    neg = fs2g_digit(&idx, kk[0], w, 0u, flip);
    fs2g_table_select_ct(&e, table + (size_t)nent * FS2G_ENTRY_WORDS, idx);
    fs2g_aff_cneg(&e, neg);
    fs2g_aff_add_aff(r, &e0, &e);
    for (int s = 2; s < nseg - 1; s++) {
        fs2g_shr_small(kk, w);
        neg = fs2g_digit(&idx, kk[0], w, 0u, flip);
        fs2g_table_select_ct(&e, table + (size_t)s * nent * FS2G_ENTRY_WORDS, idx);
        fs2g_aff_cneg(&e, neg);
        fs2g_jac_add_aff(r, r, &e);
    }
    /* the last segment outside the loop: no branch in it, not even on s */
    fs2g_shr_small(kk, w);
    neg = fs2g_digit(&idx, kk[0], w, ~0u, flip);
    fs2g_table_select_ct(&e, table + (size_t)(nseg - 1) * nent * FS2G_ENTRY_WORDS, idx);
    fs2g_aff_cneg(&e, neg);
    fs2g_gen_last_add(r, &e, want_y);
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
            fs2g_jac_add_aff(r, r, base); /* r = (2m) base != +-base for j < n / 2 */
    }
}

/* r = a + b, both Jacobian, for a, b not infinity and a != +-b (12M + 4S),
 * branch-free: the odd multiples of verification's window table, where
 * those cases cannot occur. */
FS2G_HDU void fs2g_jac_add(fs2g_jac *r, const fs2g_jac *a, const fs2g_jac *b)
{
    FS2G_COUNT_OP(FS2G_OP_JAC_ADD);
    uint32_t z1z1[8], z2z2[8], u1[8], u2[8], s1[8], s2[8], h[8], rr[8], hh[8], hhh[8], v[8], t[8];
    fs2g_jac o;
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

/* ---- variable base tP (verification, public inputs) -----------------------
 *
 * The same signed odd digits as the fixed-base tables, width FS2G_VAR_W:
 * t made odd (n - t, the result negated, when it is even), then
 * m = ceil(256 / w) digits, all odd, from the top: the accumulator starts at
 * the top digit's multiple and takes w doublings and one mixed addition of
 * +-(2i + 1) P per digit, so every thread of a warp adds at the same steps
 * (no zero digits to skip, no divergence). The 2^(w-1) odd multiples P, 3P,
 * ..., are made once per verification (one doubling, one mixed and
 * 2^(w-1) - 2 general additions, then made affine with one inversion by
 * Montgomery's trick) into `tab`: word j of entry i at tab[(16 i + j)
 * stride], so that the kernel can keep the tables of a block in shared
 * memory interleaved by thread (stride = block size: no bank conflicts
 * whatever the entries read). The accumulator is (2^w k_(s+1)) P, at least
 * 2^w > |d_s| times P, before it takes d_s P, so no addition meets P = +-Q
 * but possibly the last (for t near n): that one is fs2g_jac_add_aff_var. */
#ifndef FS2G_VAR_W
#define FS2G_VAR_W 4
#endif
#define FS2G_VAR_ENTRIES (1 << (FS2G_VAR_W - 1))

/* Entry i (16 words) of a table stored word-interleaved with a stride, in
 * and out (shared memory on a device). */
FS2G_HDU void fs2g_vtab_load(fs2g_aff *e, const uint32_t *tab, int stride, uint32_t i)
{
    FS2G_COUNT_OP(FS2G_OP_VTAB_LOAD);
    const uint32_t *q = tab + (size_t)16 * i * stride;
    FS2G_UNROLL
    for (int j = 0; j < 8; j++) {
        e->x[j] = q[j * stride];
        e->y[j] = q[(8 + j) * stride];
    }
}

FS2G_HD void fs2g_vtab_store(uint32_t *tab, int stride, uint32_t i, const fs2g_aff *e)
{
    uint32_t *q = tab + (size_t)16 * i * stride;
    FS2G_UNROLL
    for (int j = 0; j < 8; j++) {
        q[j * stride] = e->x[j];
        q[(8 + j) * stride] = e->y[j];
    }
}

/* r = a + b for b affine, a not infinity, public inputs (variable time):
 * a = b is doubled, a = -b gives infinity. */
FS2G_HD void fs2g_jac_add_aff_var(fs2g_jac *r, const fs2g_jac *a, const fs2g_aff *b)
{
    uint32_t z1z1[8], u2[8], s2[8], h[8], rr[8];
    fs2g_fp_sqr(z1z1, a->z);
    fs2g_fp_mul(u2, b->x, z1z1);
    fs2g_fp_mul(s2, a->z, z1z1);
    fs2g_fp_mul(s2, s2, b->y);
    fs2g_fp_sub(h, u2, a->x);
    fs2g_fp_sub(rr, s2, a->y);
    if (fs2g_fp_is_zero(h)) {
        if (fs2g_fp_is_zero(rr)) {
            fs2g_jac t;
            fs2g_jac_from_aff(&t, b);
            fs2g_jac_dbl(r, &t);
        } else {
            fs2g_jac_set_inf(r);
        }
        return;
    }
    fs2g_jac_add_aff(r, a, b);
}

/* tab = the odd multiples (2i + 1) P, i < FS2G_VAR_ENTRIES, affine and
 * canonical. P not infinity; public (variable time is fine, none is
 * taken). */
FS2G_HD void fs2g_var_table(uint32_t *tab, int stride, const fs2g_aff *p)
{
    fs2g_jac m[FS2G_VAR_ENTRIES], d;
    uint32_t c[FS2G_VAR_ENTRIES][8], u[8], zi[8], zi2[8];
    fs2g_jac_from_aff(&m[0], p);
    fs2g_jac_dbl(&d, &m[0]);
    fs2g_jac_add_aff(&m[1], &d, p);
    for (int i = 2; i < FS2G_VAR_ENTRIES; i++)
        fs2g_jac_add(&m[i], &m[i - 1], &d);
    /* Montgomery's trick over Z_1 .. Z_(E-1) (Z_0 = 1) */
    fs2g_copy(c[1], m[1].z);
    for (int i = 2; i < FS2G_VAR_ENTRIES; i++)
        fs2g_fp_mul(c[i], c[i - 1], m[i].z);
    fs2g_fp_inv(u, c[FS2G_VAR_ENTRIES - 1]);
    fs2g_vtab_store(tab, stride, 0, p);
    for (int i = FS2G_VAR_ENTRIES - 1; i >= 1; i--) {
        if (i > 1) {
            fs2g_fp_mul(zi, u, c[i - 1]);
            fs2g_fp_mul(u, u, m[i].z);
        } else {
            fs2g_copy(zi, u);
        }
        fs2g_aff e;
        fs2g_fp_sqr(zi2, zi);
        fs2g_fp_mul(e.x, m[i].x, zi2);
        fs2g_fp_mul(zi2, zi2, zi);
        fs2g_fp_mul(e.y, m[i].y, zi2);
        fs2g_fp_canon(e.x, e.x);
        fs2g_fp_canon(e.y, e.y);
        fs2g_vtab_store(tab, stride, (uint32_t)i, &e);
    }
}

/* r = t P for a public t in [1, n - 1] and P (validated, not infinity),
 * with `tab` (FS2G_VAR_ENTRIES entries at the stride) as the scratch of its
 * table. Variable time: t and P are public. The digits are recoded first,
 * low to high (as the fixed-base ones), into dig[] (index, and the sign in
 * bit 7), then used from the top. */
FS2G_HD void fs2g_ecmult_var(fs2g_jac *r, const fs2g_aff *p, const uint32_t t[8], uint32_t *tab, int stride)
{
    const int w = FS2G_VAR_W, nseg = (256 + FS2G_VAR_W - 1) / FS2G_VAR_W;
    uint32_t kk[8], idx;
    uint8_t dig[(256 + FS2G_VAR_W - 1) / FS2G_VAR_W];
    const uint32_t flip = fs2g_scalar_odd(kk, t);
    for (int s = 0; s < nseg; s++) {
        const uint32_t neg = fs2g_digit(&idx, kk[0], w, s == nseg - 1 ? ~0u : 0u, flip);
        dig[s] = (uint8_t)(idx | (neg & 0x80u));
        fs2g_shr_small(kk, w);
    }
    fs2g_var_table(tab, stride, p);
    fs2g_aff e;
    fs2g_vtab_load(&e, tab, stride, dig[nseg - 1] & 0x7Fu);
    fs2g_aff_cneg(&e, (uint32_t)0 - (uint32_t)(dig[nseg - 1] >> 7));
    fs2g_jac_from_aff(r, &e);
    for (int s = nseg - 2; s >= 0; s--) {
        for (int i = 0; i < w; i++)
            fs2g_jac_dbl(r, r);
        fs2g_vtab_load(&e, tab, stride, dig[s] & 0x7Fu);
        fs2g_aff_cneg(&e, (uint32_t)0 - (uint32_t)(dig[s] >> 7));
        if (s > 0)
            fs2g_jac_add_aff(r, r, &e);
        else
            fs2g_jac_add_aff_var(r, r, &e);
    }
}

#endif
