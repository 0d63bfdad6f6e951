/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The field primitives for ARMv8-A (FS2_FIELD_AARCH64), included by
 * field/field_impl.h alone: inline assembly with MUL/UMULH and the
 * ADDS/ADCS and SUBS/SBCS carry chains, always inlined into the point
 * formulas (a call costs its loads, stores and the caller's set-up: 9% of
 * a fresh key's verification, counted), and the inversion by divsteps on
 * 64-bit words (below).
 *
 * Multiplication: the 512-bit product by rows (16 MUL + 16 UMULH), then a
 * Montgomery reduction of its low half that uses the shape of p instead of
 * multiplications. As p = -1 mod 2^64, the multiplier of each reduction step
 * is the low limb q itself, and for a 4-limb window u with u_0 = q
 *   (u + q p) / 2^64 = (u_1, u_2, u_3, 0) + q (2^192 - 2^160 - 2^32 + 1)
 *                    = (u_1, u_2, u_3, 0) + q (2^32 - 1)(2^160 - 1),
 * where D = q (2^32 - 1)(2^160 - 1) < 2^256 is, in limbs,
 *   (q - (q << 32), -(q >> 32), -(q << 32), q - (q >> 32))  with borrows,
 * and the sum stays below 2^256: 10 instructions per step, no multiplier,
 * no carry out. Four steps leave the low half reduced to a value <= p; the
 * high half (< p) is added and one conditional subtraction (CSEL on the
 * carry, not a branch) gives [0, p).
 *
 * Squaring: 6 cross products doubled plus 4 squares (20 multiplier
 * instructions instead of 32), then the same reduction.
 *
 * Addition/subtraction: one carry chain each, the correction selected with
 * CSEL (add) or masked with the borrow (sub).
 *
 * Constant time: every function is a fixed instruction sequence; no branch
 * and no address depends on the operands. MUL/UMULH are data-independent in
 * time on the ARMv8 cores we target (Arm's DIT list includes them).
 */
#ifndef FS2_FIELD_AARCH64_IMPL_H
#define FS2_FIELD_AARCH64_IMPL_H

/* Hand-laid inline assembly: its operand columns are kept as written. */
/* clang-format off */

/* 2^256 - p = (1, FS2_A64_K1, 0, FS2_A64_K3): register inputs of the
 * final subtractions, so that the compiler materialises them once per
 * function the primitives are inlined into, not once per product. */
#define FS2_A64_K1 ((uint64_t)0xffffffff)
#define FS2_A64_K3 ((uint64_t)0x100000000)

/* One row i >= 1 of the schoolbook product: (T0..T4) += a * b_i, with T4
 * zero on entry. s0..s3 scratch. */
#define FS2_A64_ROW(B, T0, T1, T2, T3, T4)                                                          \
    "mul %[s0], %[a0], " B "\n\t"                                                                   \
    "mul %[s1], %[a1], " B "\n\t"                                                                   \
    "mul %[s2], %[a2], " B "\n\t"                                                                   \
    "mul %[s3], %[a3], " B "\n\t"                                                                   \
    "adds " T0 ", " T0 ", %[s0]\n\t"                                                                \
    "adcs " T1 ", " T1 ", %[s1]\n\t"                                                                \
    "adcs " T2 ", " T2 ", %[s2]\n\t"                                                                \
    "adcs " T3 ", " T3 ", %[s3]\n\t"                                                                \
    "adc " T4 ", xzr, xzr\n\t"                                                                      \
    "umulh %[s0], %[a0], " B "\n\t"                                                                 \
    "umulh %[s1], %[a1], " B "\n\t"                                                                 \
    "umulh %[s2], %[a2], " B "\n\t"                                                                 \
    "umulh %[s3], %[a3], " B "\n\t"                                                                 \
    "adds " T1 ", " T1 ", %[s0]\n\t"                                                                \
    "adcs " T2 ", " T2 ", %[s1]\n\t"                                                                \
    "adcs " T3 ", " T3 ", %[s2]\n\t"                                                                \
    "adc " T4 ", " T4 ", %[s3]\n\t"

/* One reduction step on the window (U0, U1, U2, U3), q = U0: afterwards
 * the window is (U1, U2, U3, U0). */
#define FS2_A64_RED(U0, U1, U2, U3)                                                                 \
    "lsl %[s0], " U0 ", #32\n\t"                                                                    \
    "lsr %[s1], " U0 ", #32\n\t"                                                                    \
    "subs %[s2], " U0 ", %[s0]\n\t"                                                                 \
    "sbcs %[s3], xzr, %[s1]\n\t"                                                                    \
    "sbcs %[s0], xzr, %[s0]\n\t"                                                                    \
    "sbc " U0 ", " U0 ", %[s1]\n\t"                                                                 \
    "adds " U1 ", " U1 ", %[s2]\n\t"                                                                \
    "adcs " U2 ", " U2 ", %[s3]\n\t"                                                                \
    "adcs " U3 ", " U3 ", %[s0]\n\t"                                                                \
    "adc " U0 ", " U0 ", xzr\n\t"

/* Four reduction steps on (t0..t3), add (t4..t7), subtract p once if the
 * 257-bit sum t is >= p: t + (2^256 - p), with 2^256 - p = (1, 2^32 - 1, 0,
 * 2^32), carries out of the low 256 bits exactly when the low limbs minus p
 * do not borrow (ADCS by NOT p is SBCS by p); SBCS on the top bit t4 then
 * leaves C = (t >= p), and CSEL keeps the difference on C. */
#define FS2_A64_REDUCE_FINAL                                                                        \
    FS2_A64_RED("%[t0]", "%[t1]", "%[t2]", "%[t3]")                                                 \
    FS2_A64_RED("%[t1]", "%[t2]", "%[t3]", "%[t0]")                                                 \
    FS2_A64_RED("%[t2]", "%[t3]", "%[t0]", "%[t1]")                                                 \
    FS2_A64_RED("%[t3]", "%[t0]", "%[t1]", "%[t2]")                                                 \
    "adds %[t0], %[t0], %[t4]\n\t"                                                                  \
    "adcs %[t1], %[t1], %[t5]\n\t"                                                                  \
    "adcs %[t2], %[t2], %[t6]\n\t"                                                                  \
    "adcs %[t3], %[t3], %[t7]\n\t"                                                                  \
    "adc %[t4], xzr, xzr\n\t"                                                                       \
    "adds %[s0], %[t0], #1\n\t"                                                                     \
    "adcs %[s1], %[t1], %[k1]\n\t"                                                                  \
    "adcs %[s2], %[t2], xzr\n\t"                                                                    \
    "adcs %[s3], %[t3], %[k3]\n\t"                                                                  \
    "sbcs xzr, %[t4], xzr\n\t"                                                                      \
    "csel %[t0], %[s0], %[t0], cs\n\t"                                                              \
    "csel %[t1], %[s1], %[t1], cs\n\t"                                                              \
    "csel %[t2], %[s2], %[t2], cs\n\t"                                                              \
    "csel %[t3], %[s3], %[t3], cs\n\t"

/* r = a * b * 2^-256 mod p; a, b < p. r may alias a or b. */
static inline __attribute__((always_inline)) void fs2_a64_mul_p(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
    uint64_t t0, t1, t2, t3, t4, t5, t6, t7, s0, s1, s2, s3;
    __asm__("mul %[t0], %[a0], %[b0]\n\t"
            "mul %[t1], %[a1], %[b0]\n\t"
            "mul %[t2], %[a2], %[b0]\n\t"
            "mul %[t3], %[a3], %[b0]\n\t"
            "umulh %[s0], %[a0], %[b0]\n\t"
            "umulh %[s1], %[a1], %[b0]\n\t"
            "umulh %[s2], %[a2], %[b0]\n\t"
            "umulh %[t4], %[a3], %[b0]\n\t"
            "adds %[t1], %[t1], %[s0]\n\t"
            "adcs %[t2], %[t2], %[s1]\n\t"
            "adcs %[t3], %[t3], %[s2]\n\t"
            "adc %[t4], %[t4], xzr\n\t"
            FS2_A64_ROW("%[b1]", "%[t1]", "%[t2]", "%[t3]", "%[t4]", "%[t5]")
            FS2_A64_ROW("%[b2]", "%[t2]", "%[t3]", "%[t4]", "%[t5]", "%[t6]")
            FS2_A64_ROW("%[b3]", "%[t3]", "%[t4]", "%[t5]", "%[t6]", "%[t7]")
            FS2_A64_REDUCE_FINAL
            : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4), [t5] "=&r"(t5),
              [t6] "=&r"(t6), [t7] "=&r"(t7), [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3)
            : [a0] "r"(a[0]), [a1] "r"(a[1]), [a2] "r"(a[2]), [a3] "r"(a[3]), [b0] "r"(b[0]), [b1] "r"(b[1]),
              [b2] "r"(b[2]), [b3] "r"(b[3]), [k1] "r"(FS2_A64_K1), [k3] "r"(FS2_A64_K3)
            : "cc");
    r[0] = t0;
    r[1] = t1;
    r[2] = t2;
    r[3] = t3;
}

/* The 512-bit square of (a0..a3) into t0..t7: cross products a_i a_j
 * (i < j) once, doubled, plus the squares a_i^2 at limb 2i. */
#define FS2_A64_SQR_PRODUCT \
    "mul %[t1], %[a0], %[a1]\n\t" \
    "mul %[t2], %[a0], %[a2]\n\t" \
    "mul %[t3], %[a0], %[a3]\n\t" \
    "umulh %[s0], %[a0], %[a1]\n\t" \
    "umulh %[s1], %[a0], %[a2]\n\t" \
    "umulh %[t4], %[a0], %[a3]\n\t" \
    "adds %[t2], %[t2], %[s0]\n\t" \
    "adcs %[t3], %[t3], %[s1]\n\t" \
    "adc %[t4], %[t4], xzr\n\t" \
    "mul %[s0], %[a1], %[a2]\n\t" \
    "mul %[s1], %[a1], %[a3]\n\t" \
    "umulh %[s2], %[a1], %[a2]\n\t" \
    "umulh %[t5], %[a1], %[a3]\n\t" \
    "adds %[t3], %[t3], %[s0]\n\t" \
    "adcs %[t4], %[t4], %[s1]\n\t" \
    "adc %[t5], %[t5], xzr\n\t" \
    "adds %[t4], %[t4], %[s2]\n\t" \
    "adc %[t5], %[t5], xzr\n\t" \
    "mul %[s0], %[a2], %[a3]\n\t" \
    "umulh %[t6], %[a2], %[a3]\n\t" \
    "adds %[t5], %[t5], %[s0]\n\t" \
    "adc %[t6], %[t6], xzr\n\t" \
    "adds %[t1], %[t1], %[t1]\n\t" \
    "adcs %[t2], %[t2], %[t2]\n\t" \
    "adcs %[t3], %[t3], %[t3]\n\t" \
    "adcs %[t4], %[t4], %[t4]\n\t" \
    "adcs %[t5], %[t5], %[t5]\n\t" \
    "adcs %[t6], %[t6], %[t6]\n\t" \
    "adc %[t7], xzr, xzr\n\t" \
    "mul %[t0], %[a0], %[a0]\n\t" \
    "umulh %[s0], %[a0], %[a0]\n\t" \
    "mul %[s1], %[a1], %[a1]\n\t" \
    "umulh %[s2], %[a1], %[a1]\n\t" \
    "adds %[t1], %[t1], %[s0]\n\t" \
    "adcs %[t2], %[t2], %[s1]\n\t" \
    "adcs %[t3], %[t3], %[s2]\n\t" \
    "mul %[s0], %[a2], %[a2]\n\t" \
    "umulh %[s1], %[a2], %[a2]\n\t" \
    "mul %[s2], %[a3], %[a3]\n\t" \
    "umulh %[s3], %[a3], %[a3]\n\t" \
    "adcs %[t4], %[t4], %[s0]\n\t" \
    "adcs %[t5], %[t5], %[s1]\n\t" \
    "adcs %[t6], %[t6], %[s2]\n\t" \
    "adc %[t7], %[t7], %[s3]\n\t"

/* r = a^2 * 2^-256 mod p; a < p. */
static inline __attribute__((always_inline)) void fs2_a64_sqr_p(uint64_t r[4], const uint64_t a[4])
{
    uint64_t t0, t1, t2, t3, t4, t5, t6, t7, s0, s1, s2, s3;
    __asm__(FS2_A64_SQR_PRODUCT
            FS2_A64_REDUCE_FINAL
            : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4), [t5] "=&r"(t5),
              [t6] "=&r"(t6), [t7] "=&r"(t7), [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3)
            : [a0] "r"(a[0]), [a1] "r"(a[1]), [a2] "r"(a[2]), [a3] "r"(a[3]), [k1] "r"(FS2_A64_K1),
              [k3] "r"(FS2_A64_K3)
            : "cc");
    r[0] = t0;
    r[1] = t1;
    r[2] = t2;
    r[3] = t3;
}

/* r = a + b mod p; a, b < p. */
static inline __attribute__((always_inline)) void fs2_a64_add_p(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
    uint64_t t0, t1, t2, t3, t4, s0, s1, s2, s3;
    __asm__("adds %[t0], %[a0], %[b0]\n\t"
            "adcs %[t1], %[a1], %[b1]\n\t"
            "adcs %[t2], %[a2], %[b2]\n\t"
            "adcs %[t3], %[a3], %[b3]\n\t"
            "adc %[t4], xzr, xzr\n\t"
            "adds %[s0], %[t0], #1\n\t"
            "adcs %[s1], %[t1], %[c1]\n\t"
            "adcs %[s2], %[t2], xzr\n\t"
            "adcs %[s3], %[t3], %[c3]\n\t"
            "sbcs xzr, %[t4], xzr\n\t"
            "csel %[t0], %[s0], %[t0], cs\n\t"
            "csel %[t1], %[s1], %[t1], cs\n\t"
            "csel %[t2], %[s2], %[t2], cs\n\t"
            "csel %[t3], %[s3], %[t3], cs\n\t"
            : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4), [s0] "=&r"(s0),
              [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3)
            : [a0] "r"(a[0]), [a1] "r"(a[1]), [a2] "r"(a[2]), [a3] "r"(a[3]), [b0] "r"(b[0]), [b1] "r"(b[1]),
              [b2] "r"(b[2]), [b3] "r"(b[3]), [c1] "r"(FS2_A64_K1), [c3] "r"(FS2_A64_K3)
            : "cc");
    r[0] = t0;
    r[1] = t1;
    r[2] = t2;
    r[3] = t3;
}

/* r = a - b mod p; a, b < p: the difference, plus p masked by the borrow. */
static inline __attribute__((always_inline)) void fs2_a64_sub_p(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
    uint64_t t0, t1, t2, t3, m, m1, m3;
    __asm__("subs %[t0], %[a0], %[b0]\n\t"
            "sbcs %[t1], %[a1], %[b1]\n\t"
            "sbcs %[t2], %[a2], %[b2]\n\t"
            "sbcs %[t3], %[a3], %[b3]\n\t"
            "sbc %[m], xzr, xzr\n\t"
            "and %[m1], %[m], #0xffffffff00000000\n\t"
            "and %[m3], %[m], #0xfffffffeffffffff\n\t"
            "adds %[t0], %[t0], %[m]\n\t"
            "adcs %[t1], %[t1], %[m1]\n\t"
            "adcs %[t2], %[t2], %[m]\n\t"
            "adc %[t3], %[t3], %[m3]\n\t"
            : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [m] "=&r"(m), [m1] "=&r"(m1),
              [m3] "=&r"(m3)
            : [a0] "r"(a[0]), [a1] "r"(a[1]), [a2] "r"(a[2]), [a3] "r"(a[3]), [b0] "r"(b[0]), [b1] "r"(b[1]),
              [b2] "r"(b[2]), [b3] "r"(b[3])
            : "cc");
    r[0] = t0;
    r[1] = t1;
    r[2] = t2;
    r[3] = t3;
}

/* r = a / 2 mod p: a + p when a is odd (p masked by the low bit), the
 * 257-bit sum shifted right by one. */
static inline __attribute__((always_inline)) void fs2_a64_half_p(uint64_t r[4], const uint64_t a[4])
{
    uint64_t t0, t1, t2, t3, t4, m, m1, m3;
    __asm__("sbfx %[m], %[a0], #0, #1\n\t"
            "and %[m1], %[m], #0xffffffff00000000\n\t"
            "and %[m3], %[m], #0xfffffffeffffffff\n\t"
            "adds %[t0], %[a0], %[m]\n\t"
            "adcs %[t1], %[a1], %[m1]\n\t"
            "adcs %[t2], %[a2], %[m]\n\t"
            "adcs %[t3], %[a3], %[m3]\n\t"
            "adc %[t4], xzr, xzr\n\t"
            "extr %[t0], %[t1], %[t0], #1\n\t"
            "extr %[t1], %[t2], %[t1], #1\n\t"
            "extr %[t2], %[t3], %[t2], #1\n\t"
            "extr %[t3], %[t4], %[t3], #1\n\t"
            : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4), [m] "=&r"(m),
              [m1] "=&r"(m1), [m3] "=&r"(m3)
            : [a0] "r"(a[0]), [a1] "r"(a[1]), [a2] "r"(a[2]), [a3] "r"(a[3])
            : "cc");
    r[0] = t0;
    r[1] = t1;
    r[2] = t2;
    r[3] = t3;
}

#undef FS2_A64_ROW
#undef FS2_A64_RED
#undef FS2_A64_REDUCE_FINAL
#undef FS2_A64_SQR_PRODUCT

/* ---- the primitives of field/field.h ------------------------------------ */

static inline __attribute__((always_inline)) void fs2_fe_mul(fs2_fe *r, const fs2_fe *a, const fs2_fe *b) { fs2_a64_mul_p(r->v, a->v, b->v); }
static inline __attribute__((always_inline)) void fs2_fe_sqr(fs2_fe *r, const fs2_fe *a) { fs2_a64_sqr_p(r->v, a->v); }
static inline __attribute__((always_inline)) void fs2_fe_add(fs2_fe *r, const fs2_fe *a, const fs2_fe *b) { fs2_a64_add_p(r->v, a->v, b->v); }
static inline __attribute__((always_inline)) void fs2_fe_sub(fs2_fe *r, const fs2_fe *a, const fs2_fe *b) { fs2_a64_sub_p(r->v, a->v, b->v); }
#define FS2_FE_HAVE_HALF 1
static inline __attribute__((always_inline)) void fs2_fe_half(fs2_fe *r, const fs2_fe *a) { fs2_a64_half_p(r->v, a->v); }
static inline __attribute__((always_inline)) void fs2_fe_neg(fs2_fe *r, const fs2_fe *a)
{
    static const uint64_t zero[4] = {0, 0, 0, 0};
    fs2_a64_sub_p(r->v, zero, a->v);
}

/* ---- inversion: divsteps on 64-bit words ------------------------------ */

/* r = a^-1 (0 maps to 0), constant time, by the half-delta divsteps of
 * field/safegcd.h (the same mathematics: f = p, g = x, 590 steps bring g to
 * 0 and f to +-1 for any x < p; we run 600), laid out for this core:
 *
 * - 20 steps at a time on one packed word per row. With the "divided"
 *   matrix M_i (its rows map (f, g) to (f_i, g_i); row norms |.|_1 <= 1)
 *   scaled by 2^20, a step is the same linear map on the low bits of f, g
 *   and on the rows of the matrix:
 *     swap (delta > 0, g odd): (f, g) -> (g, (g - f) / 2)
 *     g odd otherwise:         (f, g) -> (f, (g + f) / 2)
 *     g even:                  (f, g) -> (f, g / 2)
 *   so the word W = L + 2^20 a + 2^42 b carries the low bits L of f (or
 *   g; signed, |L| < 2^19 from a signed 20-bit start) and the row (a, b)
 *   (|a| + |b| <= 2^20) together, every halving exact (W even: L is). A
 *   step is 9 instructions: TST/CCMP decide, CSEL/CNEG select, ADD + ASR.
 *   The packed sum never leaves the signed 64-bit range: a row (0, +-1)
 *   would need two parallel rows, and M_i is invertible.
 * - Three such runs make 60 steps (fs2_a64_divsteps60): between runs the
 *   low 64 bits of f and g advance by the 20-step matrix (exact for 44,
 *   then 24 bits: the next run needs 20), and the three matrices multiply
 *   into T = 2^60 M_60 (entries <= 2^60).
 * - T is applied to f and g (five 64-bit limbs, two's complement, |f|,
 *   |g| <= p), divided exactly by 2^60 (fs2_a64_inv_fg_row), and to d and
 *   e (d x = f c, e x = g c mod p, c a power of 2) as residues in [0, p):
 *   u d + v e, then one Montgomery step by 2^64 (p = -1 mod 2^64: the
 *   multiplier is the low limb; fs2_a64_inv_de_row), so each batch
 *   multiplies c by 2^60 / 2^64.
 * - After 10 batches f = +-1 and d x = +-2^-40 (mod p); the last batch
 *   needs neither g nor the whole f (the sign of f is bit 1 of the low
 *   bits the runs carried). One product by +-2^40 R^3 (the sign chosen by
 *   CSEL) gives a^-1 R for a R.
 *
 * Constant time: fixed counts, no branch, no address from the value; the
 * decisions are CCMP/CSEL/CNEG and masks. Counted under qemu
 * (bench/armcount): 9.3k instructions, against 29.7k for Fermat's 256
 * squarings and 15 products (kG 105.9k -> 85.9k). */

/* 20 divsteps on the packed rows (F for f, G for g) and e = delta - 1/2:
 * swap when e >= 0 and G odd; then e -> -e, else e -> e + 1. */
static inline __attribute__((always_inline)) int64_t fs2_a64_divsteps20(int64_t e, uint64_t *F, uint64_t *G)
{
    uint64_t f = *F, g = *G, t;
    __asm__(".rept 20\n\t"
            "tst %[g], #1\n\t"
            "csel %[t], %[f], xzr, ne\n\t"
            "ccmp %[e], #0, #8, ne\n\t" /* g even: N set, "ge" false */
            "cneg %[t], %[t], ge\n\t"
            "csel %[f], %[g], %[f], ge\n\t"
            "cneg %[e], %[e], ge\n\t"
            "cinc %[e], %[e], lt\n\t"
            "add %[g], %[g], %[t]\n\t"
            "asr %[g], %[g], #1\n\t"
            ".endr\n\t"
            : [f] "+r"(f), [g] "+r"(g), [e] "+r"(e), [t] "=&r"(t)
            :
            : "cc");
    *F = f;
    *G = g;
    return e;
}

/* The row (a, b) of a packed word after 20 steps: W = L + 2^20 a + 2^42 b
 * with |L| < 2^19, |a|, |b| <= 2^20. */
static inline void fs2_a64_unpack20(int64_t *a, int64_t *b, uint64_t w)
{
    *a = (int64_t)((w + ((uint64_t)1 << 19)) << 22) >> 42;
    *b = (int64_t)(w + ((uint64_t)1 << 19) + ((uint64_t)1 << 41)) >> 42;
}

/* 60 divsteps on the low 64 bits of f and g (*f, *g advanced to the low
 * bits of the result, exact for 4 bits), as t = (u, v, q, r) with
 * 2^60 (f', g') = (u f + v g, q f + r g). */
static inline int64_t fs2_a64_divsteps60(int64_t e, uint64_t *f, uint64_t *g, int64_t t[4])
{
    uint64_t fl = *f, gl = *g;
    int64_t u = 1, v = 0, q = 0, r = 1;
    for (int k = 0; k < 3; k++) {
        uint64_t F = (uint64_t)((int64_t)(fl << 44) >> 44) + ((uint64_t)1 << 40);
        uint64_t G = (uint64_t)((int64_t)(gl << 44) >> 44) + ((uint64_t)1 << 62);
        int64_t a, b, c, d, nu, nv;
        e = fs2_a64_divsteps20(e, &F, &G);
        fs2_a64_unpack20(&a, &b, F);
        fs2_a64_unpack20(&c, &d, G);
        uint64_t nf = (uint64_t)a * fl + (uint64_t)b * gl, ng = (uint64_t)c * fl + (uint64_t)d * gl;
        fl = nf >> 20;
        gl = ng >> 20;
        nu = a * u + b * q;
        nv = a * v + b * r;
        q = c * u + d * q;
        r = c * v + d * r;
        u = nu;
        v = nv;
    }
    *f = fl;
    *g = gl;
    t[0] = u, t[1] = v, t[2] = q, t[3] = r;
    return e;
}

/* out = (u f + v g) / 2^60 for f, g in five limbs (two's complement,
 * |f|, |g| <= p), |u| + |v| <= 2^60 and the division exact: each operand
 * negated by its multiplier's sign, the products by |u|, |v| summed mod
 * 2^320, then shifted. */
static inline void fs2_a64_inv_fg_row(uint64_t out[5], int64_t u, int64_t v, const uint64_t f[5], const uint64_t g[5])
{
    uint64_t x0, x1, x2, x3, x4, a0, a1, a2, a3, a4, s, m, t;
#define FS2_A64_INV_LOAD_NEG(P, U)                                                                  \
    "asr %[s], " U ", #63\n\t"                                                                      \
    "eor %[m], " U ", %[s]\n\t"                                                                     \
    "sub %[m], %[m], %[s]\n\t"                                                                      \
    "ldp %[x0], %[x1], [" P "]\n\t"                                                                 \
    "ldp %[x2], %[x3], [" P ", #16]\n\t"                                                            \
    "ldr %[x4], [" P ", #32]\n\t"                                                                   \
    "eor %[x0], %[x0], %[s]\n\t"                                                                    \
    "eor %[x1], %[x1], %[s]\n\t"                                                                    \
    "eor %[x2], %[x2], %[s]\n\t"                                                                    \
    "eor %[x3], %[x3], %[s]\n\t"                                                                    \
    "eor %[x4], %[x4], %[s]\n\t"                                                                    \
    "subs %[x0], %[x0], %[s]\n\t"                                                                   \
    "sbcs %[x1], %[x1], %[s]\n\t"                                                                   \
    "sbcs %[x2], %[x2], %[s]\n\t"                                                                   \
    "sbcs %[x3], %[x3], %[s]\n\t"                                                                   \
    "sbc %[x4], %[x4], %[s]\n\t"
    __asm__(FS2_A64_INV_LOAD_NEG("%[f]", "%[u]")
            "mul %[a0], %[m], %[x0]\n\t"
            "mul %[a1], %[m], %[x1]\n\t"
            "mul %[a2], %[m], %[x2]\n\t"
            "mul %[a3], %[m], %[x3]\n\t"
            "mul %[a4], %[m], %[x4]\n\t"
            "umulh %[x0], %[m], %[x0]\n\t"
            "umulh %[x1], %[m], %[x1]\n\t"
            "umulh %[x2], %[m], %[x2]\n\t"
            "umulh %[x3], %[m], %[x3]\n\t"
            "adds %[a1], %[a1], %[x0]\n\t"
            "adcs %[a2], %[a2], %[x1]\n\t"
            "adcs %[a3], %[a3], %[x2]\n\t"
            "adc %[a4], %[a4], %[x3]\n\t"
            FS2_A64_INV_LOAD_NEG("%[g]", "%[v]")
            "mul %[t], %[m], %[x0]\n\t"
            "adds %[a0], %[a0], %[t]\n\t"
            "mul %[t], %[m], %[x1]\n\t"
            "adcs %[a1], %[a1], %[t]\n\t"
            "mul %[t], %[m], %[x2]\n\t"
            "adcs %[a2], %[a2], %[t]\n\t"
            "mul %[t], %[m], %[x3]\n\t"
            "adcs %[a3], %[a3], %[t]\n\t"
            "mul %[t], %[m], %[x4]\n\t"
            "adc %[a4], %[a4], %[t]\n\t"
            "umulh %[x0], %[m], %[x0]\n\t"
            "umulh %[x1], %[m], %[x1]\n\t"
            "umulh %[x2], %[m], %[x2]\n\t"
            "umulh %[x3], %[m], %[x3]\n\t"
            "adds %[a1], %[a1], %[x0]\n\t"
            "adcs %[a2], %[a2], %[x1]\n\t"
            "adcs %[a3], %[a3], %[x2]\n\t"
            "adc %[a4], %[a4], %[x3]\n\t"
            "extr %[a0], %[a1], %[a0], #60\n\t"
            "extr %[a1], %[a2], %[a1], #60\n\t"
            "extr %[a2], %[a3], %[a2], #60\n\t"
            "extr %[a3], %[a4], %[a3], #60\n\t"
            "asr %[a4], %[a4], #60\n\t"
            "stp %[a0], %[a1], [%[out]]\n\t"
            "stp %[a2], %[a3], [%[out], #16]\n\t"
            "str %[a4], [%[out], #32]\n\t"
            : [x0] "=&r"(x0), [x1] "=&r"(x1), [x2] "=&r"(x2), [x3] "=&r"(x3), [x4] "=&r"(x4), [a0] "=&r"(a0),
              [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3), [a4] "=&r"(a4), [s] "=&r"(s), [m] "=&r"(m), [t] "=&r"(t),
              "=m"(*(uint64_t(*)[5])out)
            : [u] "r"(u), [v] "r"(v), [f] "r"(f), [g] "r"(g), [out] "r"(out), "m"(*(const uint64_t(*)[5])f),
              "m"(*(const uint64_t(*)[5])g)
            : "cc");
#undef FS2_A64_INV_LOAD_NEG
}

/* out = (u d + v e) 2^-64 mod p for d, e in [0, p), |u| + |v| <= 2^60:
 * each operand replaced by p - itself where its multiplier is negative
 * (CSEL), the products by |u|, |v| summed (< 2^317), one Montgomery step
 * (the window plus q p, q its low limb, shifted down a limb: < 2 p) and
 * one conditional subtraction of p. */
static inline void fs2_a64_inv_de_row(uint64_t out[4], int64_t u, int64_t v, const uint64_t d[4], const uint64_t e[4])
{
    static const uint64_t P1 = 0xffffffff00000000ULL, P3 = 0xfffffffeffffffffULL;
    uint64_t x0, x1, x2, x3, a0, a1, a2, a3, a4, m, n0, n1, n2, n3;
#define FS2_A64_INV_LOAD_NEGP(P, U)                                                                 \
    "ldp %[x0], %[x1], [" P "]\n\t"                                                                 \
    "ldp %[x2], %[x3], [" P ", #16]\n\t"                                                            \
    "mvn %[n0], %[x0]\n\t"                                                                          \
    "subs %[n1], %[p1], %[x1]\n\t"                                                                  \
    "sbcs %[n2], %[m1], %[x2]\n\t"                                                                  \
    "sbc %[n3], %[p3], %[x3]\n\t"                                                                   \
    "cmp " U ", #0\n\t"                                                                             \
    "cneg %[m], " U ", lt\n\t"                                                                      \
    "csel %[x0], %[n0], %[x0], lt\n\t"                                                              \
    "csel %[x1], %[n1], %[x1], lt\n\t"                                                              \
    "csel %[x2], %[n2], %[x2], lt\n\t"                                                              \
    "csel %[x3], %[n3], %[x3], lt\n\t"
    __asm__(FS2_A64_INV_LOAD_NEGP("%[d]", "%[u]")
            "mul %[a0], %[m], %[x0]\n\t"
            "mul %[a1], %[m], %[x1]\n\t"
            "mul %[a2], %[m], %[x2]\n\t"
            "mul %[a3], %[m], %[x3]\n\t"
            "umulh %[n0], %[m], %[x0]\n\t"
            "umulh %[n1], %[m], %[x1]\n\t"
            "umulh %[n2], %[m], %[x2]\n\t"
            "umulh %[a4], %[m], %[x3]\n\t"
            "adds %[a1], %[a1], %[n0]\n\t"
            "adcs %[a2], %[a2], %[n1]\n\t"
            "adcs %[a3], %[a3], %[n2]\n\t"
            "adc %[a4], %[a4], xzr\n\t"
            FS2_A64_INV_LOAD_NEGP("%[e]", "%[v]")
            "mul %[n0], %[m], %[x0]\n\t"
            "mul %[n1], %[m], %[x1]\n\t"
            "mul %[n2], %[m], %[x2]\n\t"
            "mul %[n3], %[m], %[x3]\n\t"
            "adds %[a0], %[a0], %[n0]\n\t"
            "adcs %[a1], %[a1], %[n1]\n\t"
            "adcs %[a2], %[a2], %[n2]\n\t"
            "adcs %[a3], %[a3], %[n3]\n\t"
            "adc %[a4], %[a4], xzr\n\t"
            "umulh %[n0], %[m], %[x0]\n\t"
            "umulh %[n1], %[m], %[x1]\n\t"
            "umulh %[n2], %[m], %[x2]\n\t"
            "umulh %[n3], %[m], %[x3]\n\t"
            "adds %[a1], %[a1], %[n0]\n\t"
            "adcs %[a2], %[a2], %[n1]\n\t"
            "adcs %[a3], %[a3], %[n2]\n\t"
            "adc %[a4], %[a4], %[n3]\n\t"
            /* (a + a0 p) / 2^64 = (a1, a2, a3, a4) + a0 (2^32 - 1)(2^160 - 1) */
            "lsl %[n0], %[a0], #32\n\t"
            "lsr %[n1], %[a0], #32\n\t"
            "subs %[n2], %[a0], %[n0]\n\t"
            "sbcs %[n3], xzr, %[n1]\n\t"
            "sbcs %[n0], xzr, %[n0]\n\t"
            "sbc %[a0], %[a0], %[n1]\n\t"
            "adds %[a1], %[a1], %[n2]\n\t"
            "adcs %[a2], %[a2], %[n3]\n\t"
            "adcs %[a3], %[a3], %[n0]\n\t"
            "adcs %[a4], %[a4], %[a0]\n\t"
            "adc %[a0], xzr, xzr\n\t"
            /* minus p if >= p: + (2^256 - p) = (1, 2^32 - 1, 0, 2^32) */
            "mov %[n1], #0xffffffff\n\t"
            "mov %[n3], #0x100000000\n\t"
            "adds %[x0], %[a1], #1\n\t"
            "adcs %[x1], %[a2], %[n1]\n\t"
            "adcs %[x2], %[a3], xzr\n\t"
            "adcs %[x3], %[a4], %[n3]\n\t"
            "sbcs xzr, %[a0], xzr\n\t"
            "csel %[a1], %[x0], %[a1], cs\n\t"
            "csel %[a2], %[x1], %[a2], cs\n\t"
            "csel %[a3], %[x2], %[a3], cs\n\t"
            "csel %[a4], %[x3], %[a4], cs\n\t"
            "stp %[a1], %[a2], [%[out]]\n\t"
            "stp %[a3], %[a4], [%[out], #16]\n\t"
            : [x0] "=&r"(x0), [x1] "=&r"(x1), [x2] "=&r"(x2), [x3] "=&r"(x3), [a0] "=&r"(a0), [a1] "=&r"(a1),
              [a2] "=&r"(a2), [a3] "=&r"(a3), [a4] "=&r"(a4), [m] "=&r"(m), [n0] "=&r"(n0), [n1] "=&r"(n1),
              [n2] "=&r"(n2), [n3] "=&r"(n3), "=m"(*(uint64_t(*)[4])out)
            : [u] "r"(u), [v] "r"(v), [d] "r"(d), [e] "r"(e), [out] "r"(out), [p1] "r"(P1), [m1] "r"(~(uint64_t)0),
              [p3] "r"(P3), "m"(*(const uint64_t(*)[4])d), "m"(*(const uint64_t(*)[4])e)
            : "cc");
#undef FS2_A64_INV_LOAD_NEGP
}

static inline void fs2_fe_inv(fs2_fe *r, const fs2_fe *a)
{
    /* +-2^40 R^3 mod p: d x = f 2^-40 at the end, and x = a R */
    static const fs2_fe k[2] = {{{0x0000160000001b00ULL, 0x000012fffffff700ULL, 0x00000c0000000f00ULL,
                                  0x0000240000000a00ULL}},
                                {{0xffffe9ffffffe4ffULL, 0xffffecff00000900ULL, 0xfffff3fffffff0ffULL,
                                  0xffffdbfefffff5ffULL}}};
    uint64_t f[5] = {FS2_P[0], FS2_P[1], FS2_P[2], FS2_P[3], 0};
    uint64_t g[5] = {a->v[0], a->v[1], a->v[2], a->v[3], 0};
    uint64_t d[4] = {0, 0, 0, 0}, e[4] = {1, 0, 0, 0}, nf[5], ng[5], nd[4];
    uint64_t fl = 0, gl;
    int64_t delta = 0, t[4];
    fs2_fe c;
    for (int b = 0; b < 10; b++) {
        fl = f[0];
        gl = g[0];
        delta = fs2_a64_divsteps60(delta, &fl, &gl, t);
        fs2_a64_inv_de_row(nd, t[0], t[1], d, e);
        if (b == 9) /* public: the last batch needs only d */
            break;
        fs2_a64_inv_de_row(e, t[2], t[3], d, e);
        memcpy(d, nd, sizeof d);
        fs2_a64_inv_fg_row(nf, t[0], t[1], f, g);
        fs2_a64_inv_fg_row(ng, t[2], t[3], f, g);
        memcpy(f, nf, sizeof f);
        memcpy(g, ng, sizeof g);
    }
    /* f = +-1 (a != 0): its sign is bit 1 of its low bits */
    uint64_t neg = fs2_ct_mask_u64((fl >> 1) & 1);
    fs2_sel4(c.v, neg, k[1].v, k[0].v);
    fs2_a64_mul_p(r->v, nd, c.v);
}

/* The public values' inversion (fs2_fe_inv_var: tables of public points)
 * is the constant-time one above: fewer instructions here than the
 * portable variable-time divsteps in 128-bit C. */
#define FS2_FE_HAVE_INV_VAR 1
static inline void fs2_fe_inv_var(fs2_fe *r, const fs2_fe *a) { fs2_fe_inv(r, a); }

/* clang-format on */
#endif
