/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One SM2 operation per thread (GB/T 32918.2 clauses 6.1 and 7.1, GB/T
 * 32918.1 clause 6.1): the bodies of the kernels in sm2_gpu_kernels.cu,
 * __host__ __device__ so that tests/gpu runs exactly these functions on a
 * CPU and compares them with the portable library.
 *
 * Scalars and coordinates are 8 little-endian 32-bit words (the integer
 * value, not bytes); the kernels convert from and to the big-endian bytes
 * of the API.
 */
#ifndef FS2_GPU_OPS_CUH
#define FS2_GPU_OPS_CUH

#include "sm2_gpu_point.cuh"
#include "sm2_gpu_sm3.cuh"

/* Which fixed-base routine the kernels use. want_y = 0: r->y is not
 * computed (signing needs only x = X / Z^2). */
#define FS2G_MODE_FAST 0 /* width-w table, digit-indexed loads */
#define FS2G_MODE_CT   1 /* width-FS2G_CT_W table, every entry read by the warp */

FS2G_HD void fs2g_ecmult_gen(fs2g_jac *r, const uint32_t k[8], const uint32_t *table, int w, int mode, int want_y)
{
    if (mode == FS2G_MODE_CT) /* a kernel parameter: the same for every thread */
        fs2g_ecmult_gen_ct(r, k, table, want_y);
    else
        fs2g_ecmult_gen_fast(r, k, table, w, want_y);
}

/* Table entry i of a segment whose base point is `base` (2^(s w) G):
 * (2i + 1) base, affine. Public values; variable time. */
FS2G_HD void fs2g_table_entry(fs2g_aff *out, const fs2g_aff *base, uint32_t i)
{
    fs2g_jac t;
    fs2g_ecmult_small_var(&t, base, 2 * i + 1);
    fs2g_jac_to_aff(out, &t);
}

/* GB/T 32918.2 6.1 A5-A6 once x1 of kG is known: r = (e + x1) mod n,
 * s = ((1 + d)^-1 (k + r) - r) mod n, with dinv_m = (1 + d)^-1 * 2^256
 * mod n (the CPU library's cached form). Returns all-ones when (r, s) is a
 * signature, 0 when this k must be replaced (r = 0, r + k = n or s = 0:
 * probability about 2^-254). Constant time. */
FS2G_HD uint32_t fs2g_sign_finish(uint32_t r_out[8], uint32_t s_out[8], const uint32_t e[8], const uint32_t k[8],
                                  const uint32_t dinv_m[8], const uint32_t x1[8])
{
    uint32_t ee[8], x[8], r[8], kr[8], s[8];
    fs2g_fn_reduce(ee, e);
    fs2g_fn_reduce(x, x1);
    fs2g_fn_add(r, ee, x);
    fs2g_fn_add(kr, k, r);
    fs2g_fn_mont_mul(s, kr, dinv_m);
    fs2g_fn_sub(s, s, r);
    uint32_t bad = fs2g_is_zero(r) | fs2g_is_zero(kr) | fs2g_is_zero(s);
    fs2g_copy(r_out, r);
    fs2g_copy(s_out, s);
    return ~bad;
}

/* GB/T 32918.2 6.1 A4-A6 for a nonce k in [1, n-1]: (x1, y1) = kG, then
 * fs2g_sign_finish. Constant time except for fs2g_ecmult_gen's table
 * address in the fast mode. Returns 0 also when kG came out with Z = 0 (the
 * fixed-base multiplication's exceptional case, point.cuh): the item is
 * then signed on the CPU. (The kernel signs FS2G_SIGN_ITEMS items per
 * thread with one shared inversion, fs2g_batch_x; the results are the
 * same.) */
FS2G_HD uint32_t fs2g_sign_item(uint32_t r_out[8], uint32_t s_out[8], const uint32_t e[8], const uint32_t k[8],
                                const uint32_t dinv_m[8], const uint32_t *table, int w, int mode)
{
    fs2g_jac q;
    fs2g_aff a;
    fs2g_ecmult_gen(&q, k, table, w, mode, 1);
    const uint32_t zero = fs2g_jac_is_inf(&q);
    fs2g_jac_to_aff(&a, &q);
    return fs2g_sign_finish(r_out, s_out, e, k, dinv_m, a.x) & ~zero;
}

/* Items signed by one thread of the sign kernel, sharing one inversion:
 * 3 (with the sign kernel held to 168 registers at sm_86, three blocks of
 * 128 per SM; 2 and 4 were slower in the simulator, docs/GPU.md). */
#ifndef FS2G_SIGN_ITEMS
#define FS2G_SIGN_ITEMS 3
#endif

/* x[j] = X[j] / Z[j]^2 for j < FS2G_SIGN_ITEMS, canonical (0 where Z[j] =
 * 0 mod p, as fs2g_jac_to_aff gives; zero[j] is then all-ones), with one
 * inversion (Montgomery's trick): the prefix products c_j = Z_0 ... Z_j,
 * u = c_last^-1, then walking down Z_j^-1 = u c_{j-1} and u <- u Z_j. A Z
 * of 0 is replaced by 1 (masks) so that it does not zero the other items'
 * inverses, and its result is masked to 0 afterwards. Constant time: the
 * same operations whatever the values. */
FS2G_HD void fs2g_batch_x(uint32_t x[FS2G_SIGN_ITEMS][8], uint32_t zero[FS2G_SIGN_ITEMS],
                          uint32_t X[FS2G_SIGN_ITEMS][8], uint32_t Z[FS2G_SIGN_ITEMS][8])
{
    const uint32_t one[8] = {1, 0, 0, 0, 0, 0, 0, 0};
    uint32_t c[FS2G_SIGN_ITEMS][8], u[8], zi[8];
    FS2G_UNROLL
    for (int j = 0; j < FS2G_SIGN_ITEMS; j++) {
        zero[j] = fs2g_fp_is_zero(Z[j]);
        fs2g_cmov(Z[j], one, zero[j]);
    }
    fs2g_copy(c[0], Z[0]);
    FS2G_UNROLL
    for (int j = 1; j < FS2G_SIGN_ITEMS; j++)
        fs2g_fp_mul(c[j], c[j - 1], Z[j]);
    fs2g_fp_inv(u, c[FS2G_SIGN_ITEMS - 1]);
    FS2G_UNROLL
    for (int j = FS2G_SIGN_ITEMS - 1; j >= 0; j--) {
        if (j > 0) {
            fs2g_fp_mul(zi, u, c[j - 1]);
            fs2g_fp_mul(u, u, Z[j]);
        } else {
            fs2g_copy(zi, u);
        }
        fs2g_fp_sqr(zi, zi);
        fs2g_fp_mul(x[j], X[j], zi);
        fs2g_fp_canon(x[j], x[j]);
        FS2G_UNROLL
        for (int i = 0; i < 8; i++)
            x[j][i] &= ~zero[j];
    }
}

/* GB/T 32918.1 6.1: P = dG for d in [1, n-2] (checked by the caller).
 * Returns 0 in the fixed-base multiplication's exceptional case (P is then
 * (0, 0) and the caller computes it on the CPU), else all-ones. */
FS2G_HD uint32_t fs2g_keygen_item(fs2g_aff *p, const uint32_t d[8], const uint32_t *table, int w, int mode)
{
    fs2g_jac q;
    fs2g_ecmult_gen(&q, d, table, w, mode, 1);
    const uint32_t zero = fs2g_jac_is_inf(&q);
    fs2g_jac_to_aff(p, &q);
    return ~zero;
}

/* GB/T 32918.2 7.1 B1-B7 on a digest e: 1 if (r, s) is a valid signature
 * of e under the validated public key P, 0 if not, -1 when a fixed-base
 * multiplication met its exceptional case (Z = 0: s or t one scalar of the
 * width, about 2^-240; sm2_gpu_point.cuh): the caller verifies that item
 * another way (the host: on the CPU). Public inputs: variable time. table:
 * the G table of width w (either mode's: the same layout); ktable: a
 * fixed-base table of P of width kw (built for a batch with one key), or
 * NULL: then tP by the window of fs2g_ecmult_var with tab (at the stride)
 * as its scratch. */
FS2G_HD int fs2g_verify_item(const uint32_t e[8], const uint32_t r[8], const uint32_t s[8], const fs2g_aff *p,
                             const uint32_t *table, int w, const uint32_t *ktable, int kw, uint32_t *tab, int stride)
{
    const uint32_t N[8] = FS2G_N_WORDS;
    const uint32_t P[8] = FS2G_P_WORDS;
    /* B1, B2: r, s in [1, n-1] */
    if (fs2g_is_zero(r) || fs2g_is_zero(s) || !fs2g_lt(r, N) || !fs2g_lt(s, N))
        return 0;
    /* B5: t = (r + s) mod n != 0 */
    uint32_t t[8];
    fs2g_fn_add(t, r, s);
    if (fs2g_is_zero(t))
        return 0;
    /* B6: (x1, y1) = sG + tP */
    fs2g_jac sg, tp;
    fs2g_ecmult_gen_fast(&sg, s, table, w, FS2G_GEN_SMALL);
    if (ktable)
        fs2g_ecmult_gen_fast(&tp, t, ktable, kw, FS2G_GEN_SMALL);
    else
        fs2g_ecmult_var(&tp, p, t, tab, stride);
    if (fs2g_jac_is_inf(&sg) || (ktable && fs2g_jac_is_inf(&tp)))
        return -1;
    fs2g_jac_add_var(&sg, &sg, &tp);
    if (fs2g_jac_is_inf(&sg))
        return 0;
    /* B7: (e + x1) mod n == r  <=>  x1 mod n == v = (r - e) mod n; with
     * x1 = X / Z^2 and x1 < p < 2n: X == v Z^2, or X == (v + n) Z^2 when
     * v + n < p. No inversion. */
    uint32_t ee[8], v[8], z2[8], c[8];
    fs2g_fn_reduce(ee, e);
    fs2g_fn_sub(v, r, ee);
    fs2g_fp_sqr(z2, sg.z);
    fs2g_fp_mul(c, v, z2);
    fs2g_fp_canon(c, c);
    fs2g_fp_canon(sg.x, sg.x);
    if (fs2g_eq(c, sg.x))
        return 1;
    uint32_t vn[8];
    if (fs2g_add256(vn, v, N) == 0 && fs2g_lt(vn, P)) {
        fs2g_fp_mul(c, vn, z2);
        fs2g_fp_canon(c, c);
        if (fs2g_eq(c, sg.x))
            return 1;
    }
    return 0;
}

#endif
