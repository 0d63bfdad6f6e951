/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Scalars: integers modulo the group order n of sm2p256v1 (GB/T 32918.1
 * clause 3), 4 x 64-bit little-endian limbs. One portable implementation,
 * shared by the protocols (signatures, key exchange) and by every EC
 * backend: the scalar work of a signature is a few additions and one
 * Montgomery product, too little for per-CPU code to matter.
 *
 * A scalar is canonical (an integer in [0, n)) or in Montgomery form
 * (a 2^256 mod n), as each function says. Every function here runs in time
 * independent of its operands' values.
 */
#ifndef FS2_SCALAR_H
#define FS2_SCALAR_H

#include "field/u256.h"

typedef struct {
    uint64_t v[4];
} fs2_sc;

/* r = a + b mod n, r = a - b mod n; inputs in [0, n), either form (the
 * same in both). */
static inline void fs2_sc_add(fs2_sc *r, const fs2_sc *a, const fs2_sc *b)
{
    fs2_modadd(r->v, a->v, b->v, FS2_N);
}
static inline void fs2_sc_sub(fs2_sc *r, const fs2_sc *a, const fs2_sc *b)
{
    fs2_modsub(r->v, a->v, b->v, FS2_N);
}

/* Montgomery product r = a b 2^-256 mod n, inputs in [0, n). With a in
 * Montgomery form and b canonical, r = a b is canonical. */
static inline void fs2_sc_mont_mul(fs2_sc *r, const fs2_sc *a, const fs2_sc *b)
{
    fs2_mont_mul_generic(r->v, a->v, b->v, FS2_N, FS2_N0);
}

/* Canonical a -> its Montgomery form a 2^256 mod n. */
static inline void fs2_sc_to_mont(fs2_sc *r, const fs2_sc *a)
{
    fs2_sc_mont_mul(r, a, (const fs2_sc *)FS2_N_RR);
}

/* r = a mod n, canonical, for any a < 2^256 (2^256 < 2n). */
static inline void fs2_sc_reduce(fs2_sc *r, const uint64_t a[4])
{
    fs2_reduce_once(r->v, 0, a, FS2_N);
}

/* r = a^-1 2^256 mod n (the Montgomery form of the inverse) for canonical
 * a (0 maps to 0): constant-time divsteps (field/safegcd.h), then into
 * Montgomery form. */
static inline void fs2_sc_inv_mont(fs2_sc *r, const fs2_sc *a)
{
    fs2_sc y;
    fs2_modinv_safegcd(y.v, a->v, &FS2_MODINFO_N);
    fs2_sc_to_mont(r, &y);
}

#endif
