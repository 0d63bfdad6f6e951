/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The EC backend: the group law, the scalar multiplications and the
 * operations table of src/ec/ec.h, over one field implementation. This one
 * source is compiled once per build listed in src/ec/variants.txt (CMake
 * object libraries; the Python build alike), with
 *   FS2_FIELD    the field (field/field.h): generic, x86 or aarch64;
 *   FS2_EC_AVX2  1 for the x86 build whose every function is compiled for
 *                AVX2 (its table scans in 32-byte vectors; select_impl.h);
 *   FS2_EC_IFMA  1 for the AVX2 build whose batch slots run eight lanes of
 *                AVX-512 IFMA (src/ec/ifma/ec_ifma.h): avx512ifma;
 * and each build exports one table, fs2_ec_ops_<name>, with <name> the
 * backend's: generic, adx (x86 field), avx2 (x86 field, AVX2), armv8
 * (AArch64 field, NEON table scans) or w32 (the field in 32-bit words,
 * built only where the compiler has no 64 x 64 -> 128-bit product:
 * WebAssembly, 32-bit targets, FASTSM2_NO_INT128). A build for another
 * architecture compiles to nothing.
 *
 * Inside: the field (field/field.h), the point formulas (group_impl.h),
 * the table lookup (select_impl.h), the scalar multiplications
 * (ecmult_impl.h), then the slots below. Each of those headers includes
 * what it uses (tests/test_layers.py compiles each on its own), so their
 * order here is for the reader only; what this file fixes before them is
 * the build's choice (FS2_FIELD, FS2_EC_AVX2, FS2_EC_IFMA) and the AVX2
 * target pragma. Constant time is
 * kept at every level (masks and full table scans for secret scalars); the
 * functions whose names end in _var branch, on public data only.
 */
#include "cpu.h"
#include "ec/ec.h"

#if FS2_EC_AVX2 && defined(__x86_64__)
/* The whole file for AVX2 (+BMI2, ADX): GCC takes a file-wide target
 * pragma; clang ignores it and takes an attribute pushed onto every
 * function instead (popped at the end of the file). The intrinsics headers
 * come first, outside the push: their functions carry their own targets. */
#include <immintrin.h>
#include <x86intrin.h>
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,bmi2,adx"))), apply_to = function)
#else
#pragma GCC target("avx2,bmi2,adx")
#endif
#endif
#if FS2_FIELD == FS2_FIELD_AARCH64 && defined(__aarch64__)
#include <arm_neon.h>
#endif

#include "field/field.h"
#if FS2_EC_IFMA
#include "ec/ifma/ec_ifma.h"
#include "ec/ifma/ec_ifma1.h"
#endif

#if FS2_FIELD == FS2_FIELD_W32 && defined(FS2_HAVE_INT128)
#define FS2_EC_BUILD 0 /* the generic field is faster here */
#else
#define FS2_EC_BUILD FS2_FIELD_HERE
#endif

#if FS2_EC_BUILD

#if FS2_FIELD == FS2_FIELD_GENERIC
#define FS2_EC_OPS   fs2_ec_ops_generic
#define FS2_EC_NAME  "generic"
#define FS2_EC_NEEDS 0
#elif FS2_FIELD == FS2_FIELD_W32
#define FS2_EC_OPS   fs2_ec_ops_w32
#define FS2_EC_NAME  "w32"
#define FS2_EC_NEEDS 0
#elif FS2_FIELD == FS2_FIELD_X86 && FS2_EC_AVX2 && FS2_EC_IFMA
#define FS2_EC_OPS   fs2_ec_ops_avx512ifma
#define FS2_EC_NAME  "avx512ifma"
#define FS2_EC_NEEDS (FS2_FIELD_CPU_NEEDS | FS2_CPU_X86_AVX2 | FS2_CPU_X86_AVX512 | FS2_CPU_X86_IFMA)
#elif FS2_FIELD == FS2_FIELD_X86 && FS2_EC_AVX2
#define FS2_EC_OPS   fs2_ec_ops_avx2
#define FS2_EC_NAME  "avx2"
#define FS2_EC_NEEDS (FS2_FIELD_CPU_NEEDS | FS2_CPU_X86_AVX2)
#elif FS2_FIELD == FS2_FIELD_X86
#define FS2_EC_OPS   fs2_ec_ops_adx
#define FS2_EC_NAME  "adx"
#define FS2_EC_NEEDS FS2_FIELD_CPU_NEEDS
#elif FS2_FIELD == FS2_FIELD_AARCH64
#define FS2_EC_OPS   fs2_ec_ops_armv8
#define FS2_EC_NAME  "armv8"
#define FS2_EC_NEEDS (FS2_FIELD_CPU_NEEDS | FS2_CPU_ARM_ASIMD) /* NEON table scans */
#endif

#include "ec/group_impl.h"
#include "ec/select_impl.h"
#include "ec/ecmult_impl.h"

/* ---- across the seam: canonical affine points <-> the field's form ---- */

static void ge_from_affine(fs2_ge *r, const fs2_affine *a)
{
    fs2_fe_from_int(&r->x, a->x);
    fs2_fe_from_int(&r->y, a->y);
}

/* inf: the point's infinity mask. */
static void affine_from_ge(fs2_affine *r, const fs2_ge *g, uint64_t inf)
{
    fs2_fe_to_int(r->x, &g->x);
    fs2_fe_to_int(r->y, &g->y);
    r->infinity = inf & 1;
}

static void affine_from_gej(fs2_affine *r, const fs2_gej *a)
{
    fs2_ge g;
    uint64_t inf = fs2_gej_to_ge(&g, a);
    affine_from_ge(r, &g, inf);
}

/* ---- kG for the slots -------------------------------------------------- */

#if FS2_EC_IFMA
/* r = a + b for a and b that are neither equal nor opposite unless one is
 * infinity (masks: no branch). */
static void gej_add_finite_or_inf(fs2_gej *r, const fs2_gej *a, const fs2_gej *b)
{
    fs2_gej sum;
    uint64_t a_inf = fs2_fe_is_zero_mask(&a->z), b_inf = fs2_fe_is_zero_mask(&b->z);
    fs2_gej_add_masks(&sum, a, b, NULL, NULL);
    fs2_gej_cmov(&sum, b, a_inf);
    fs2_gej_cmov(&sum, a, b_inf);
    *r = sum;
}

/* One kG in the eight IFMA lanes (src/ec/ifma/ec_ifma1.h): fs2_ecmult_gen's
 * digits, lane l summing A_l, the windows 5l .. 5l + 4, then the eight
 * partial sums added here. The two sides of each addition among lanes
 * 1..7 are 2^35 m and 2^35 m', m and m' sums of signed 7-bit digits
 * (|d| <= 64) over disjoint windows: equal or opposite mod n means n
 * divides m -+ m' (n odd), below 2^224 < n in size, so m -+ m' = 0, a
 * signed-digit sum that is zero only with every digit zero: both sides
 * infinity. Those six additions are plain ones with infinity masks, as a
 * tree (3, 2, 1 independent additions). The last, A_0 + the rest, is a
 * doubling for k = n - 2 (n mod 2^35) and the like: a complete addition. */
static void ec_gen(fs2_gej *r, const uint64_t k[4])
{
    uint8_t dig[FS2_IFMA1_WINDOWS] = {0}, neg[FS2_IFMA1_WINDOWS] = {0};
    fs2_gej a[FS2_IFMA1_LANES];
    unsigned carry = 0;
    for (unsigned w = 0; w < 37; w++) {
        unsigned ng, c;
        dig[w] = (uint8_t)fs2_recode_step(fs2_scalar_bits(k, 7 * w, 7) + carry, 7, &ng, &c);
        neg[w] = (uint8_t)ng;
        carry = c;
    }
    fs2_ifma1_gen_parts((uint64_t(*)[12])(void *)a, dig, neg);
    gej_add_finite_or_inf(&a[1], &a[1], &a[2]);
    gej_add_finite_or_inf(&a[3], &a[3], &a[4]);
    gej_add_finite_or_inf(&a[5], &a[5], &a[6]);
    gej_add_finite_or_inf(&a[1], &a[1], &a[3]);
    gej_add_finite_or_inf(&a[5], &a[5], &a[7]);
    gej_add_finite_or_inf(&a[1], &a[1], &a[5]);
    fs2_gej_add_complete(r, &a[0], &a[1]);
    fs2_wipe(a, sizeof a);
    fs2_wipe(dig, sizeof dig);
    fs2_wipe(neg, sizeof neg);
}
/* fs2_ecmult_gen stays for the other builds; referenced here so that this
 * one does not warn */
static void (*const ec_gen_one_lane)(fs2_gej *, const uint64_t *) __attribute__((unused)) = fs2_ecmult_gen;
#else
static void ec_gen(fs2_gej *r, const uint64_t k[4])
{
    fs2_ecmult_gen(r, k);
}
#endif

/* ---- the slots (src/ec/ec.h says what each computes) ------------------ */

static void ec_mul_base(fs2_affine *r, const uint64_t k[4])
{
    fs2_gej j;
    ec_gen(&j, k);
    affine_from_gej(r, &j);
    fs2_wipe(&j, sizeof j);
}

/* The inversion of kG's Z and the scalar one interleaved
 * (fs2_fe_inv_and_sc_inv). */
static void ec_mul_base_and_sc_inv(fs2_affine *r, const uint64_t k[4], uint64_t q[4], const uint64_t a[4])
{
    fs2_gej j;
    fs2_ge g;
    fs2_fe zi;
    fs2_sc x, inv;
    ec_gen(&j, k);
    memcpy(x.v, a, 32);
    fs2_fe_inv_and_sc_inv(&zi, &j.z, &inv, &x);
    affine_from_ge(r, &g, fs2_gej_to_ge_zinv(&g, &j, &zi));
    memcpy(q, inv.v, 32);
    fs2_wipe(&j, sizeof j);
    fs2_wipe(&g, sizeof g);
    fs2_wipe(&zi, sizeof zi);
    fs2_wipe(&x, sizeof x);
    fs2_wipe(&inv, sizeof inv);
}

/* The Jacobian results, then one inversion of the product of their Z for
 * all of them (Montgomery's trick: 3 products per point instead of an
 * inversion each). A Z of 0 (k = 0, never from the protocols) counts as 1
 * in the product and its point comes out as infinity, by masks. */
static void ec_mul_base_batch(fs2_affine *r, const uint64_t (*k)[4], size_t n)
{
    fs2_gej j[FS2_MUL_BASE_BATCH_MAX];
    fs2_ge g[FS2_MUL_BASE_BATCH_MAX];
    fs2_fe acc[FS2_MUL_BASE_BATCH_MAX] = {{{0}}}; /* zeroed: GCC cannot see that n >= 1 fills acc[n - 1] */
    uint64_t inf[FS2_MUL_BASE_BATCH_MAX];
    if (n == 0 || n > FS2_MUL_BASE_BATCH_MAX)
        return;
#if FS2_EC_IFMA
    /* eight at a time in the IFMA lanes, on fs2_ecmult_gen's digits */
    for (size_t b = 0; b < n; b += FS2_IFMA_LANES) {
        uint8_t dig[37][FS2_IFMA_LANES] = {{0}}, neg[37][FS2_IFMA_LANES] = {{0}};
        size_t m = n - b < FS2_IFMA_LANES ? n - b : FS2_IFMA_LANES;
        for (size_t l = 0; l < m; l++) {
            unsigned carry = 0;
            for (unsigned w = 0; w < 37; w++) {
                unsigned ng, c;
                dig[w][l] = (uint8_t)fs2_recode_step(fs2_scalar_bits(k[b + l], 7 * w, 7) + carry, 7, &ng, &c);
                neg[w][l] = (uint8_t)ng;
                carry = c;
            }
        }
        fs2_ifma_gen((uint64_t(*)[12])(void *)&j[b], (const uint8_t(*)[FS2_IFMA_LANES])dig,
                     (const uint8_t(*)[FS2_IFMA_LANES])neg, m);
        fs2_wipe(dig, sizeof dig);
        fs2_wipe(neg, sizeof neg);
    }
#else
    for (size_t i = 0; i < n; i++)
        fs2_ecmult_gen(&j[i], k[i]);
#endif
    fs2_gej_to_ge_many(g, inf, j, acc, n);
    for (size_t i = 0; i < n; i++)
        affine_from_ge(&r[i], &g[i], inf[i]);
    fs2_wipe(j, sizeof j);
    fs2_wipe(g, sizeof g);
    fs2_wipe(acc, sizeof acc);
}

/* j = kP (Jacobian), constant time in k; tab: the public key's cached
 * tables (P and 2^128 P, two 128-bit streams) or NULL. */
static void mul_jacobian(fs2_gej *j, const fs2_affine *p, const fs2_pubtab *tab, const uint64_t k[4])
{
    if (tab) {
        fs2_ecmult_const_split(j, (const fs2_ge(*)[16])tab->xy, k);
    } else {
        fs2_ge g;
        ge_from_affine(&g, p);
        fs2_ecmult_const(j, &g, k);
    }
}

static void ec_mul(fs2_affine *r, const fs2_affine *p, const fs2_pubtab *tab, const uint64_t k[4])
{
    fs2_gej j;
    mul_jacobian(&j, p, tab, k);
    affine_from_gej(r, &j);
    fs2_wipe(&j, sizeof j);
}

/* The two Jacobian results made affine together (Montgomery's trick: one
 * inversion for both). */
static void ec_mul_base_and_mul(fs2_affine *r, fs2_affine *s, const fs2_affine *p, const fs2_pubtab *tab,
                                const uint64_t k[4])
{
    fs2_gej j[2];
    fs2_ge g[2];
    fs2_fe acc[2];
    uint64_t inf[2];
    ec_gen(&j[0], k);
    mul_jacobian(&j[1], p, tab, k);
    fs2_gej_to_ge_many(g, inf, j, acc, 2);
    affine_from_ge(r, &g[0], inf[0]);
    affine_from_ge(s, &g[1], inf[1]);
    fs2_wipe(j, sizeof j);
    fs2_wipe(g, sizeof g);
    fs2_wipe(acc, sizeof acc);
}

static int ec_mul_public_cmp_x_var(const uint64_t s[4], const uint64_t t[4], const fs2_affine *p, const fs2_pubtab *tab,
                                   const uint64_t v[4])
{
    fs2_ge g;
    ge_from_affine(&g, p);
    return fs2_ecmult_cmp_x_var(s, t, &g, tab ? (const fs2_ge(*)[16])tab->xy : NULL, v);
}

#if FS2_EC_IFMA
_Static_assert(sizeof(fs2_gej) == 12 * sizeof(uint64_t), "fs2_gej is three 4-limb elements");

/* Eight verifications at a time in the IFMA lanes (fs2_ifma_sum_var): s in
 * fs2_ecmult_gen's signed 7-bit digits over the base-point tables, t in
 * the two 128-bit streams of signed 5-bit digits over the key's tables; a
 * lane without its key's tables, or one that met an exceptional addition,
 * goes through ec_mul_public_cmp_x_var. */
static void ec_mul_public_cmp_x_batch_var(int *ok, const uint64_t (*s)[4], const uint64_t (*t)[4],
                                          const fs2_affine *const *p, const fs2_pubtab *const *tab,
                                          const uint64_t (*v)[4], size_t n)
{
    uint8_t sd[37][FS2_IFMA_LANES] = {{0}}, sn[37][FS2_IFMA_LANES] = {{0}};
    uint8_t td[2][26][FS2_IFMA_LANES] = {{{0}}}, tn[2][26][FS2_IFMA_LANES] = {{{0}}};
    const fs2_pubtab *lt[FS2_IFMA_LANES];
    size_t lane_of[FS2_IFMA_LANES], m = 0;
    uint64_t xz[FS2_IFMA_LANES][8];
    for (size_t i = 0; i < n && i < FS2_CMP_X_BATCH_MAX; i++) {
        if (!tab[i]) {
            ok[i] = ec_mul_public_cmp_x_var(s[i], t[i], p[i], NULL, v[i]);
            continue;
        }
        unsigned carry = 0, ng, c;
        for (unsigned w = 0; w < 37; w++) {
            sd[w][m] = (uint8_t)fs2_recode_step(fs2_scalar_bits(s[i], 7 * w, 7) + carry, 7, &ng, &c);
            sn[w][m] = (uint8_t)ng;
            carry = c;
        }
        for (int h = 0; h < 2; h++) {
            const uint64_t part[4] = {t[i][2 * h], t[i][2 * h + 1], 0, 0};
            carry = 0;
            for (unsigned w = 0; w < 26; w++) {
                td[h][w][m] = (uint8_t)fs2_recode_step(fs2_scalar_bits(part, 5 * w, 5) + carry, 5, &ng, &c);
                tn[h][w][m] = (uint8_t)ng;
                carry = c;
            }
        }
        lt[m] = tab[i];
        lane_of[m++] = i;
    }
    if (m == 0)
        return;
    unsigned exc =
        fs2_ifma_sum_var(xz, (const uint8_t(*)[FS2_IFMA_LANES])sd, (const uint8_t(*)[FS2_IFMA_LANES])sn,
                         (const uint8_t(*)[26][FS2_IFMA_LANES])td, (const uint8_t(*)[26][FS2_IFMA_LANES])tn, lt, m);
    for (size_t l = 0; l < m; l++) {
        size_t i = lane_of[l];
        if (exc >> l & 1) {
            ok[i] = ec_mul_public_cmp_x_var(s[i], t[i], p[i], tab[i], v[i]);
            continue;
        }
        fs2_gej acc;
        memcpy(acc.x.v, xz[l], 32);
        memcpy(acc.z.v, xz[l] + 4, 32);
        memset(acc.y.v, 0, 32);
        ok[i] = fs2_gej_x_mod_n_is_var(&acc, v[i]);
    }
}
#endif

/* Q = P + [x]R in variable time (x, P and R are public), kept Jacobian for
 * the table of the constant-time [t]Q, so the one inversion is U's. Q =
 * infinity (public) gives U = infinity. */
static void ec_mul_of_sum(fs2_affine *u, const fs2_affine *p, const fs2_affine *r, const uint64_t x[4],
                          const uint64_t t[4])
{
    fs2_ge g;
    fs2_gej q, j;
    ge_from_affine(&g, r);
    fs2_ecmult_sum_var(&q, NULL, x, &g, NULL);
    ge_from_affine(&g, p);
    fs2_gej_add_ge_var(&q, &q, &g);
    if (fs2_gej_is_infinity_var(&q)) {
        memset(u, 0, sizeof *u);
        u->infinity = 1;
        return;
    }
    fs2_ecmult_const_gej(&j, &q, t);
    affine_from_gej(u, &j);
    fs2_wipe(&j, sizeof j);
}

/* 128 doublings and two co-Z chains, each with one variable-time
 * inversion. */
static void ec_precompute_var(fs2_pubtab *out, const fs2_affine *p)
{
    fs2_gej q;
    fs2_ge g, tab[2][16];
    ge_from_affine(&g, p);
    fs2_gej_set_ge(&q, &g);
    fs2_gej_multiples16_var(tab[0], &q);
    for (int i = 0; i < 128; i++)
        fs2_gej_double(&q, &q);
    fs2_gej_multiples16_var(tab[1], &q);
    memcpy(out->xy, tab, sizeof out->xy);
}

const fs2_ec_ops FS2_EC_OPS = {
    .name = FS2_EC_NAME,
    .cpu_needs = FS2_EC_NEEDS,
    .mul_base = ec_mul_base,
    .mul = ec_mul,
    .mul_public_cmp_x_var = ec_mul_public_cmp_x_var,
    .mul_of_sum = ec_mul_of_sum,
    .precompute_var = ec_precompute_var,
    .mul_base_batch = ec_mul_base_batch,
    .mul_base_and_mul = ec_mul_base_and_mul,
    .mul_base_and_sc_inv = ec_mul_base_and_sc_inv,
#if FS2_EC_IFMA
    .mul_public_cmp_x_batch_var = ec_mul_public_cmp_x_batch_var,
#endif
};

#endif /* FS2_EC_BUILD */

#if FS2_EC_AVX2 && defined(__x86_64__) && defined(__clang__)
#pragma clang attribute pop
#endif
