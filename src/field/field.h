/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The field interface: arithmetic modulo p = 2^256 - 2^224 - 2^96 + 2^64 - 1,
 * the prime of sm2p256v1 (GB/T 32918.1 clause 3 and Annex A).
 *
 * Representation, the same for every implementation: 4 x 64-bit
 * little-endian limbs holding a R mod p (Montgomery form, R = 2^256), always
 * fully reduced (in [0, p)). Being the same, the precomputed base-point
 * tables and a public key's cached tables serve every implementation.
 *
 * The includer chooses one implementation by defining FS2_FIELD before
 * including this header:
 *   FS2_FIELD_GENERIC  portable C (field_generic_impl.h), any CPU;
 *   FS2_FIELD_X86      x86-64 inline assembly with MULX/ADCX/ADOX
 *                      (field_x86_impl.h; needs BMI2 and ADX at run time:
 *                      FS2_FIELD_CPU_NEEDS);
 *   FS2_FIELD_AARCH64  AArch64 inline assembly with MUL/UMULH
 *                      (field_aarch64_impl.h);
 *   FS2_FIELD_W32      portable C over 32-bit words (field_w32_impl.h), for
 *                      targets whose widest product is 32 x 32 -> 64 bits
 *                      (WebAssembly, 32-bit CPUs).
 * FS2_FIELD_HERE is 1 when the chosen one builds for this target (0: the
 * includer compiles to nothing, as the x86 field does on AArch64).
 *
 * Each implementation defines the primitives (fs2_fe_mul ... fs2_fe_inv
 * below), all of them, in its own way; field/field_impl.h then defines the
 * remaining operations once, over the primitives and the limbs. Every
 * operation runs in time independent of its operands' values unless its
 * name ends in _var (variable time: public values only) or it says
 * otherwise. Inputs are fully reduced field elements; r may alias an input.
 *
 * Scalars (mod n) are one portable implementation for all: field/scalar.h.
 */
#ifndef FS2_FIELD_H
#define FS2_FIELD_H

#include "cpu.h"
#include "field/scalar.h"
#include "field/u256.h"

#define FS2_FIELD_GENERIC 1
#define FS2_FIELD_X86     2
#define FS2_FIELD_AARCH64 3
#define FS2_FIELD_W32     4

#if !defined(FS2_FIELD)
#error \
    "define FS2_FIELD (FS2_FIELD_GENERIC, FS2_FIELD_X86, FS2_FIELD_AARCH64 or FS2_FIELD_W32) before including field/field.h"
#elif FS2_FIELD == FS2_FIELD_GENERIC || FS2_FIELD == FS2_FIELD_W32
#define FS2_FIELD_HERE 1
#elif FS2_FIELD == FS2_FIELD_X86 && defined(__x86_64__)
#define FS2_FIELD_HERE 1
#elif FS2_FIELD == FS2_FIELD_AARCH64 && defined(__aarch64__)
#define FS2_FIELD_HERE 1
#elif FS2_FIELD == FS2_FIELD_X86 || FS2_FIELD == FS2_FIELD_AARCH64
#define FS2_FIELD_HERE 0
#else
#error "unknown FS2_FIELD"
#endif

/* The FS2_CPU_* features (src/cpu.h) the chosen implementation needs at
 * run time: its includer runs it only where the CPU-feature word has them. */
#if FS2_FIELD == FS2_FIELD_X86
#define FS2_FIELD_CPU_NEEDS (FS2_CPU_X86_BMI2 | FS2_CPU_X86_ADX)
#else
#define FS2_FIELD_CPU_NEEDS 0
#endif

#if FS2_FIELD_HERE

/* A field element: a R mod p (Montgomery form), in [0, p). */
typedef struct {
    uint64_t v[4];
} fs2_fe;

/* The Montgomery form of 1 (R mod p). */
static const fs2_fe FS2_FE_ONE = {
    {0x0000000000000001ULL, 0x00000000FFFFFFFFULL, 0x0000000000000000ULL, 0x0000000100000000ULL}};

/* R^3 mod p. The divstep inversions (field/safegcd.h) invert the integer
 * y = a R itself: y^-1 = a^-1 R^-1, and its product with R^3 is a^-1 R. */
static const fs2_fe FS2_FE_R3 = {
    {0x0000001200000016ULL, 0x0000000EFFFFFFF8ULL, 0x0000000A0000000CULL, 0x0000001B00000009ULL}};

/* Every operation is declared here, and defined by the implementation
 * (primitives) or by field_impl.h (the rest). "unused": a translation unit
 * uses some of them; a missing definition still draws GCC's "declared
 * 'static' but never defined". */
#define FS2_FE_API static __attribute__((unused))

/* ---- primitives: each implementation defines these ------------------- */

/* r = a b (the Montgomery product a b R^-1 of the representatives). */
FS2_FE_API void fs2_fe_mul(fs2_fe *r, const fs2_fe *a, const fs2_fe *b);
/* r = a^2. */
FS2_FE_API void fs2_fe_sqr(fs2_fe *r, const fs2_fe *a);
/* r = a + b, r = a - b, r = -a. */
FS2_FE_API void fs2_fe_add(fs2_fe *r, const fs2_fe *a, const fs2_fe *b);
FS2_FE_API void fs2_fe_sub(fs2_fe *r, const fs2_fe *a, const fs2_fe *b);
FS2_FE_API void fs2_fe_neg(fs2_fe *r, const fs2_fe *a);
/* r = a^-1 (0 maps to 0). Constant time. */
FS2_FE_API void fs2_fe_inv(fs2_fe *r, const fs2_fe *a);

/* ---- the rest: field/field_impl.h, over the primitives --------------- */

/* From a canonical integer a < p into the representation, and back. */
FS2_FE_API void fs2_fe_from_int(fs2_fe *r, const uint64_t a[4]);
FS2_FE_API void fs2_fe_to_int(uint64_t r[4], const fs2_fe *a);
/* r = a / 2. */
FS2_FE_API void fs2_fe_half(fs2_fe *r, const fs2_fe *a);
/* r = mask ? a : r, and r = mask ? -r : r; mask all ones or zero. */
FS2_FE_API void fs2_fe_cmov(fs2_fe *r, const fs2_fe *a, uint64_t mask);
FS2_FE_API void fs2_fe_cneg(fs2_fe *r, uint64_t mask);
/* All ones if a = 0, if a = b; else 0. */
FS2_FE_API uint64_t fs2_fe_is_zero_mask(const fs2_fe *a);
FS2_FE_API uint64_t fs2_fe_eq_mask(const fs2_fe *a, const fs2_fe *b);
/* r = a^e for a public exponent e (4 limbs): constant time in a, the
 * multiplications chosen by e. */
FS2_FE_API void fs2_fe_pow_pub(fs2_fe *r, const fs2_fe *a, const uint64_t e[4]);
/* r = a^-1 (0 maps to 0) in variable time: public values only (the tables
 * of public points). */
FS2_FE_API void fs2_fe_inv_var(fs2_fe *r, const fs2_fe *a);
/* r = z^-1 (0 maps to 0) and, beside it, the scalar q = a^-1 2^256 mod n
 * (as fs2_sc_inv_mont; a canonical): the two inversions' divsteps
 * interleaved, in little more than the time of one. Constant time. */
FS2_FE_API void fs2_fe_inv_and_sc_inv(fs2_fe *r, const fs2_fe *z, fs2_sc *q, const fs2_sc *a);

#include "field/field_impl.h"

#endif /* FS2_FIELD_HERE */
#endif
