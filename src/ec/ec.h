/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The EC seam (docs/ARCHITECTURE.md): the operations table that each EC
 * backend exports and the protocols call through. One source,
 * src/ec/ec_backend.c, is compiled once per field and SIMD level
 * (src/ec/variants.txt) and each build exports one table, fs2_ec_ops_<name>.
 *
 * The slots are named after what they compute (as BoringSSL's EC_METHOD):
 * mul_base = kG, mul = kP, mul_public = sG + tP. A slot whose name ends in
 * _var runs in variable time and takes public inputs only; every other slot
 * is constant time in its secret (scalar) inputs and says which inputs may
 * be handled in variable time because they are public (points, the
 * exponents of a verification).
 *
 * Points cross the seam as fs2_affine in canonical form (plain integers mod
 * p); scalars as canonical 4 x 64-bit little-endian integers < n. A public
 * key's cached tables (fs2_pubtab) are in the Montgomery form that every
 * field implementation shares (field/field.h).
 */
#ifndef FS2_EC_H
#define FS2_EC_H

#include "field/wide.h"
#include "internal.h"

typedef struct {
    uint64_t x[4];
    uint64_t y[4];
    uint64_t infinity; /* 1 for the point at infinity (x, y then zero), else 0 */
} fs2_affine;

/* What a public key caches for mul, mul_base_and_mul and
 * mul_public_cmp_x_var: (j + 1) P and (j + 1) 2^128 P for j < 16, affine
 * (x then y), in the Montgomery form mod p (R = 2^256) that every field
 * implementation shares, as the base-point tables do. */
typedef struct {
    uint64_t xy[2][16][8];
} fs2_pubtab;

/* The most points one mul_base_batch call makes. */
#define FS2_MUL_BASE_BATCH_MAX 16

typedef struct fs2_ec_ops {
    const char *name;
    /* The FS2_CPU_* features the CPU must have (src/cpu.h). */
    uint32_t cpu_needs;

    /* ---- required -------------------------------------------------- */

    /* r = kG, k < n. Constant time in k. */
    void (*mul_base)(fs2_affine *r, const uint64_t k[4]);
    /* r = kP, P a validated public point (not infinity), k < n. Constant
     * time in k. tab: P's tables from precompute_var (two 128-bit halves,
     * half the doublings), or NULL. */
    void (*mul)(fs2_affine *r, const fs2_affine *p, const fs2_pubtab *tab, const uint64_t k[4]);
    /* The verification equation (GB/T 32918.2 7.1 B6-B7): with (x1, y1) =
     * sG + tP, 1 iff that point is not infinity and x1 mod n = v; else 0.
     * Variable time: s, t, P and v are public. The comparison is made on
     * the projective point (as BoringSSL's cmp_x_coordinate), without an
     * inversion. tab as for mul. */
    int (*mul_public_cmp_x_var)(const uint64_t s[4], const uint64_t t[4], const fs2_affine *p, const fs2_pubtab *tab,
                                const uint64_t v[4]);
    /* u = t (P + xR), the key exchange's U (GB/T 32918.3 6.1 A7 / B5, h =
     * 1); P and R validated points, x and t < n. Constant time in t; the
     * sum P + xR is public and made in variable time (x is 128 bits: 128
     * doublings), kept projective so that the one inversion is u's. u is
     * infinity when the sum is. */
    void (*mul_of_sum)(fs2_affine *u, const fs2_affine *p, const fs2_affine *r, const uint64_t x[4],
                       const uint64_t t[4]);
    /* The tables of a validated public point P (fs2_pubtab). Variable
     * time. */
    void (*precompute_var)(fs2_pubtab *r, const fs2_affine *p);

    /* ---- optional: fused operations --------------------------------
     * Each computes what two or more required slots compute, sharing an
     * inversion between them; NULL where a backend has none, and then the
     * caller makes the separate calls (src/protocol). */

    /* r[i] = k[i] G for i < n <= FS2_MUL_BASE_BATCH_MAX, one field inversion
     * for all (Montgomery's trick). Constant time in the k[i]; k[i] = 0
     * gives infinity without disturbing the others. */
    void (*mul_base_batch)(fs2_affine *r, const uint64_t (*k)[4], size_t n);
    /* r = kG and s = kP (as mul_base and mul, tab as there), made affine
     * with one inversion: encryption's C1 and (x2, y2). Constant time in k. */
    void (*mul_base_and_mul)(fs2_affine *r, fs2_affine *s, const fs2_affine *p, const fs2_pubtab *tab,
                             const uint64_t k[4]);
    /* r = kG and q = a^-1 2^256 mod n (a canonical in [1, n - 1]; as
     * fs2_sc_inv_mont), the field inversion that makes r affine and the
     * scalar one interleaved: making a private key, P = dG and the
     * (1 + d)^-1 signing needs. Constant time in k and a. */
    void (*mul_base_and_sc_inv)(fs2_affine *r, const uint64_t k[4], uint64_t q[4], const uint64_t a[4]);
    /* ok[i] = mul_public_cmp_x_var(s[i], t[i], p[i], tab[i], v[i]) for
     * i < n <= FS2_CMP_X_BATCH_MAX, several at a time. Variable time. */
    void (*mul_public_cmp_x_batch_var)(int *ok, const uint64_t (*s)[4], const uint64_t (*t)[4],
                                       const fs2_affine *const *p, const fs2_pubtab *const *tab, const uint64_t (*v)[4],
                                       size_t n);
} fs2_ec_ops;

/* The most verifications one mul_public_cmp_x_batch_var call takes. */
#define FS2_CMP_X_BATCH_MAX 8

/* The builds of src/ec/ec_backend.c (src/ec/variants.txt). */
FS2_HIDDEN extern const fs2_ec_ops fs2_ec_ops_generic;
#if defined(__x86_64__)
FS2_HIDDEN extern const fs2_ec_ops fs2_ec_ops_adx, fs2_ec_ops_avx2, fs2_ec_ops_avx512ifma;
#endif
#if defined(__aarch64__)
FS2_HIDDEN extern const fs2_ec_ops fs2_ec_ops_armv8;
#endif
#if !defined(FS2_HAVE_INT128)
/* the field in 32-bit words (no 64 x 64 -> 128-bit product here) */
FS2_HIDDEN extern const fs2_ec_ops fs2_ec_ops_w32;
#endif

/* Point validation and decompression (src/ec/point.c): public data, the
 * portable field, whatever the backend. */
/* 1 iff (x, y) are < p and on the curve y^2 = x^3 + ax + b. */
FS2_HIDDEN int fs2_point_on_curve_var(const fs2_affine *p);
/* r = the point with this x and the parity of y given; 0 if x is not on the
 * curve. */
FS2_HIDDEN int fs2_point_decompress_var(fs2_affine *r, const uint64_t x[4], int y_odd);

#endif
