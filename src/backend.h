/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The backend seam (DESIGN.md section 2). A backend implements this small
 * table; one is chosen at start-up from CPU features, after a known-answer
 * self-test, or forced with FASTSM2_CPU=<name>. The portable "generic"
 * backend is the reference every other one is tested against; tests iterate
 * over fs2_backends[] so that no backend can go untested.
 *
 * Points cross the seam as fs2_affine in canonical form (plain integers mod
 * p, 4 little-endian 64-bit limbs), so that each backend may keep its own
 * internal representation (Montgomery, Solinas, 32-bit limbs, ...).
 */
#ifndef FS2_BACKEND_H
#define FS2_BACKEND_H

#include "internal.h"

typedef struct {
    uint64_t x[4];
    uint64_t y[4];
    uint64_t infinity; /* 1 for the point at infinity (x, y then zero), else 0 */
} fs2_affine;

/* What a public key caches for verify_check and ecmult_const: (j + 1) P
 * and (j + 1) 2^128 P for j < 16, affine (x then y), in the Montgomery form
 * mod p (R = 2^256) that every backend's field shares, as the base-point
 * tables do. */
typedef struct {
    uint64_t xy[2][16][8];
} fs2_pubtab;

typedef struct fs2_backend {
    const char *name;
    /* 1 if this CPU can run the backend. */
    int (*available)(void);
    /* SM3 compression of nblocks 64-byte blocks. */
    void (*sm3_compress)(uint32_t state[8], const unsigned char *blocks, size_t nblocks);
    /* r = k*G. k < n. Constant time in k. */
    void (*ecmult_gen)(fs2_affine *r, const uint64_t k[4]);
    /* r = k*P. P a validated affine point (not infinity), k < n. Constant
     * time in k. tab: P's tables from pub_precompute (halves the
     * doublings), or NULL. */
    void (*ecmult_const)(fs2_affine *r, const fs2_affine *p, const fs2_pubtab *tab, const uint64_t k[4]);
    /* Verification core (GB/T 32918.2 7.1 B6-B7), variable time on public
     * inputs: with (x1, y1) = s*G + t*P, return 1 iff the point is not
     * infinity and (x1 mod n) == v, where v = (r - e) mod n. tab: P's
     * tables from pub_precompute (halves the doublings), or NULL. */
    int (*verify_check)(const uint64_t s[4], const uint64_t t[4], const fs2_affine *p, const fs2_pubtab *tab,
                        const uint64_t v[4]);
    /* Key exchange's U = [t](P + [x]R) (GB/T 32918.3 6.1 A7 / B5, h = 1),
     * P and R validated affine points, x and t < n. Constant time in t;
     * variable time in the public x, P and R (x of 128 bits: 128
     * doublings). U = infinity when P + [x]R is. */
    void (*ecmult_kx)(fs2_affine *u, const fs2_affine *p, const fs2_affine *r, const uint64_t x[4],
                      const uint64_t t[4]);
    /* The tables of a validated public point P (variable time). */
    void (*pub_precompute)(fs2_pubtab *r, const fs2_affine *p);
    /* Multi-buffer SM3: sm3_lanes independent states hashed at once (1 when
     * the backend has no SIMD lanes). Lane i compresses nblocks consecutive
     * 64-byte blocks starting at blocks[i] into state[i]; every lane takes
     * the same number of blocks. Constant time like sm3_compress. */
    unsigned sm3_lanes;
    void (*sm3_compress_lanes)(uint32_t (*state)[8], const unsigned char *const *blocks, size_t nblocks);
    /* r = a^-1 2^256 mod n (Montgomery form of the inverse, R = 2^256) for
     * a canonical a in [1, n-1]. Constant time. NULL: the generic one. */
    void (*scalar_inv_mont)(uint64_t r[4], const uint64_t a[4]);
    /* r[i] = k[i]*G for i < n <= FS2_GEN_MANY_MAX, the n affine results
     * sharing one field inversion (Montgomery's trick). k[i] < n. Constant
     * time in the k[i]. NULL: one ecmult_gen per item. */
    void (*ecmult_gen_many)(fs2_affine *r, const uint64_t (*k)[4], size_t n);
    /* A key's first signature's two inversions at once (its kG's and its
     * (1 + d)^-1): r = k*G as ecmult_gen and
     * q = a^-1 2^256 mod n as scalar_inv_mont (a canonical, in [1, n-1]).
     * Constant time in k and a. NULL: ecmult_gen, then scalar_inv_mont. */
    void (*ecmult_gen_inv)(fs2_affine *r, const uint64_t k[4], uint64_t q[4], const uint64_t a[4]);
    /* Encryption's two points: r = k*G and s = k*P (as ecmult_gen and
     * ecmult_const, tab as there), made affine with one shared field
     * inversion. Constant time in k. NULL: the two calls. */
    void (*ecmult_gen_const)(fs2_affine *r, fs2_affine *s, const fs2_affine *p, const fs2_pubtab *tab,
                             const uint64_t k[4]);
} fs2_backend;

#define FS2_GEN_MANY_MAX 16


/* The generic backend's scalar_inv_mont: the fallback for backends without one. */
FS2_HIDDEN void fs2_generic_scalar_inv_mont(uint64_t r[4], const uint64_t a[4]);

/* The selected backend's scalar_inv_mont (or the generic one). */
FS2_HIDDEN void fs2_scalar_inv_mont(uint64_t r[4], const uint64_t a[4]);

/* All backends compiled in, generic first, NULL-terminated. */
FS2_HIDDEN extern const fs2_backend *const fs2_backends[];

/* The backend in use (chosen once, thread-safe). */
FS2_HIDDEN const fs2_backend *fs2_backend_get(void);

/* Force a backend by name for tests (0 if unknown or unavailable). */
FS2_HIDDEN int fs2_backend_force(const char *name);

/* Force a backend by name without asking its available(): for the valgrind
 * constant-time test only, as valgrind's virtual CPUID hides features (ADX)
 * whose instructions it nevertheless executes. 0 if unknown. */
FS2_HIDDEN int fs2_backend_force_unchecked(const char *name);

/* Backend-independent point utilities (src/point/point_util.c, portable). */
/* 1 iff (x, y) are < p and on the curve y^2 = x^3 + ax + b. */
FS2_HIDDEN int fs2_point_on_curve_var(const fs2_affine *p);
/* Decompress: y from x and the parity bit; 0 if x is not on the curve. */
FS2_HIDDEN int fs2_point_decompress_var(fs2_affine *r, const uint64_t x[4], int y_odd);
/* r = a + b for public points, any inputs (infinity, a == b, a == -b). */
FS2_HIDDEN void fs2_point_add_var(fs2_affine *r, const fs2_affine *a, const fs2_affine *b);

#endif
