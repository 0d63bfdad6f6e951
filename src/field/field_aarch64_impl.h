/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The field primitives for ARMv8-A (FS2_FIELD_AARCH64), included by
 * field/field_impl.h alone: inline assembly with MUL/UMULH and the
 * ADDS/ADCS and SUBS/SBCS carry chains, inlined into the point formulas (a
 * call costs about 8 of a product's 125 instructions here), and the
 * inversion by Fermat with the squaring runs kept in registers.
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
    "mov %[t6], #0xffffffff\n\t"                                                                    \
    "mov %[t7], #0x100000000\n\t"                                                                   \
    "adds %[s0], %[t0], #1\n\t"                                                                     \
    "adcs %[s1], %[t1], %[t6]\n\t"                                                                  \
    "adcs %[s2], %[t2], xzr\n\t"                                                                    \
    "adcs %[s3], %[t3], %[t7]\n\t"                                                                  \
    "sbcs xzr, %[t4], xzr\n\t"                                                                      \
    "csel %[t0], %[s0], %[t0], cs\n\t"                                                              \
    "csel %[t1], %[s1], %[t1], cs\n\t"                                                              \
    "csel %[t2], %[s2], %[t2], cs\n\t"                                                              \
    "csel %[t3], %[s3], %[t3], cs\n\t"

/* r = a * b * 2^-256 mod p; a, b < p. r may alias a or b. */
static inline void fs2_a64_mul_p(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
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
              [b2] "r"(b[2]), [b3] "r"(b[3])
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
static inline void fs2_a64_sqr_p(uint64_t r[4], const uint64_t a[4])
{
    uint64_t t0, t1, t2, t3, t4, t5, t6, t7, s0, s1, s2, s3;
    __asm__(FS2_A64_SQR_PRODUCT
            FS2_A64_REDUCE_FINAL
            : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4), [t5] "=&r"(t5),
              [t6] "=&r"(t6), [t7] "=&r"(t7), [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3)
            : [a0] "r"(a[0]), [a1] "r"(a[1]), [a2] "r"(a[2]), [a3] "r"(a[3])
            : "cc");
    r[0] = t0;
    r[1] = t1;
    r[2] = t2;
    r[3] = t3;
}

/* r = a^(2^n) * 2^-256n mod p (n >= 1 squarings, n public), the value kept
 * in registers between squarings: the inversion chain's runs. */
static inline void fs2_a64_sqr_n_p(uint64_t r[4], const uint64_t a[4], unsigned n)
{
    uint64_t a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3], cnt = n;
    uint64_t t0, t1, t2, t3, t4, t5, t6, t7, s0, s1, s2, s3;
    __asm__("1:\n\t"
            FS2_A64_SQR_PRODUCT
            FS2_A64_REDUCE_FINAL
            "mov %[a0], %[t0]\n\t"
            "mov %[a1], %[t1]\n\t"
            "mov %[a2], %[t2]\n\t"
            "mov %[a3], %[t3]\n\t"
            "subs %[cnt], %[cnt], #1\n\t"
            "b.ne 1b\n\t"
            : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4), [t5] "=&r"(t5),
              [t6] "=&r"(t6), [t7] "=&r"(t7), [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3),
              [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [cnt] "+r"(cnt)
            :
            : "cc");
    r[0] = a0;
    r[1] = a1;
    r[2] = a2;
    r[3] = a3;
}

/* r = a + b mod p; a, b < p. */
static inline void fs2_a64_add_p(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
    uint64_t t0, t1, t2, t3, t4, s0, s1, s2, s3, c1, c3;
    __asm__("adds %[t0], %[a0], %[b0]\n\t"
            "adcs %[t1], %[a1], %[b1]\n\t"
            "adcs %[t2], %[a2], %[b2]\n\t"
            "adcs %[t3], %[a3], %[b3]\n\t"
            "adc %[t4], xzr, xzr\n\t"
            "mov %[c1], #0xffffffff\n\t"
            "mov %[c3], #0x100000000\n\t"
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
              [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3), [c1] "=&r"(c1), [c3] "=&r"(c3)
            : [a0] "r"(a[0]), [a1] "r"(a[1]), [a2] "r"(a[2]), [a3] "r"(a[3]), [b0] "r"(b[0]), [b1] "r"(b[1]),
              [b2] "r"(b[2]), [b3] "r"(b[3])
            : "cc");
    r[0] = t0;
    r[1] = t1;
    r[2] = t2;
    r[3] = t3;
}

/* r = a - b mod p; a, b < p: the difference, plus p masked by the borrow. */
static inline void fs2_a64_sub_p(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
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

#undef FS2_A64_ROW
#undef FS2_A64_RED
#undef FS2_A64_REDUCE_FINAL
#undef FS2_A64_SQR_PRODUCT

/* ---- the primitives of field/field.h ------------------------------------ */

static inline void fs2_fe_mul(fs2_fe *r, const fs2_fe *a, const fs2_fe *b) { fs2_a64_mul_p(r->v, a->v, b->v); }
static inline void fs2_fe_sqr(fs2_fe *r, const fs2_fe *a) { fs2_a64_sqr_p(r->v, a->v); }
static inline void fs2_fe_add(fs2_fe *r, const fs2_fe *a, const fs2_fe *b) { fs2_a64_add_p(r->v, a->v, b->v); }
static inline void fs2_fe_sub(fs2_fe *r, const fs2_fe *a, const fs2_fe *b) { fs2_a64_sub_p(r->v, a->v, b->v); }
static inline void fs2_fe_neg(fs2_fe *r, const fs2_fe *a)
{
    static const uint64_t zero[4] = {0, 0, 0, 0};
    fs2_a64_sub_p(r->v, zero, a->v);
}

/* r = a^-1 = a^(p-2) (0 maps to 0), constant time: Fermat by the addition
 * chain of p - 2 (from the top: 31 ones, a zero, 128 ones, 32 zeros, 62
 * ones, a zero, a one; with x_k = a^(2^k - 1): 256 squarings, 15 products),
 * the squaring runs in registers (fs2_a64_sqr_n_p). Counted under qemu
 * (tools/armcount): kG 106.5k instructions with this, 109.8k with the
 * portable header's divsteps (field/safegcd.h, 128-bit C). */
static inline void fs2_fe_inv(fs2_fe *r, const fs2_fe *a)
{
    fs2_fe x2, x3, x6, x12, x24, x30, x31, x32, t;
    fs2_a64_sqr_n_p(x2.v, a->v, 1);
    fs2_a64_mul_p(x2.v, x2.v, a->v);
    fs2_a64_sqr_n_p(x3.v, x2.v, 1);
    fs2_a64_mul_p(x3.v, x3.v, a->v);
    fs2_a64_sqr_n_p(x6.v, x3.v, 3);
    fs2_a64_mul_p(x6.v, x6.v, x3.v);
    fs2_a64_sqr_n_p(x12.v, x6.v, 6);
    fs2_a64_mul_p(x12.v, x12.v, x6.v);
    fs2_a64_sqr_n_p(x24.v, x12.v, 12);
    fs2_a64_mul_p(x24.v, x24.v, x12.v);
    fs2_a64_sqr_n_p(x30.v, x24.v, 6);
    fs2_a64_mul_p(x30.v, x30.v, x6.v);
    fs2_a64_sqr_n_p(x31.v, x30.v, 1);
    fs2_a64_mul_p(x31.v, x31.v, a->v);
    fs2_a64_sqr_n_p(x32.v, x31.v, 1);
    fs2_a64_mul_p(x32.v, x32.v, a->v);
    fs2_a64_sqr_n_p(t.v, x31.v, 1); /* 31 ones, a zero */
    for (int i = 0; i < 4; i++) {   /* 128 ones */
        fs2_a64_sqr_n_p(t.v, t.v, 32);
        fs2_a64_mul_p(t.v, t.v, x32.v);
    }
    fs2_a64_sqr_n_p(t.v, t.v, 64); /* 32 zeros, 32 ones */
    fs2_a64_mul_p(t.v, t.v, x32.v);
    fs2_a64_sqr_n_p(t.v, t.v, 30); /* 30 ones, a zero, a one */
    fs2_a64_mul_p(t.v, t.v, x30.v);
    fs2_a64_sqr_n_p(t.v, t.v, 2);
    fs2_a64_mul_p(r->v, t.v, a->v);
}

#endif
