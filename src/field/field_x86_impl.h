/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The field primitives for x86-64 (FS2_FIELD_X86), included by
 * field/field_impl.h alone: inline assembly with MULX (BMI2) and the two
 * independent carry chains of ADCX/ADOX (ADX). Only called where the CPU
 * has both (the backends that use this field require them).
 *
 * Montgomery multiplication mod p, in rows: T = a b0 + a b1 2^64, two
 * reduction rounds, + a b2 2^128 + a b3 2^192, two more rounds, then one
 * conditional subtraction (CMOV on the carry, not a branch) to [0, p).
 * Each row is 4 MULX with the low halves on the OF chain and the high
 * halves on the CF chain. As p = -1 mod 2^64, a round's multiplier is the
 * limb it clears (n0 = 1), and m p needs no full product: p + 1 = 2^64
 * (2^192 - 2^160 - 2^32 + 1), so two rounds are one carry chain adding
 * (m0, m1, 0, m0, m1) and one borrow chain subtracting m0 2^32 and m1 2^32
 * (each split into its two limbs by a rotation), FS2_X86_P_RED2. On
 * Intel cores every ADC/SBB/ADCX/ADOX/CMOV and shift goes to the same two
 * ports, and they, not the multiplier, set the product's throughput: the
 * two-round pass halves them in the reduction.
 *
 * Squaring computes the 512-bit square (6 cross products doubled plus 4
 * squares: 10 MULX instead of 16) and reduces it with the same two passes.
 *
 * Unlike the portable C, these primitives are inlined into the point
 * formulas (always_inline): the compiler only allocates the asm's
 * registers around them, without spills, and no call is paid per product.
 *
 * Inversion: the constant-time divsteps (field/safegcd.h), faster than
 * Fermat's a^(p-2) even with these products.
 *
 * Constant time: fixed instruction sequence; no branch or address depends on
 * the operands (CMOV selects the result).
 */
#ifndef FS2_FIELD_X86_IMPL_H
#define FS2_FIELD_X86_IMPL_H

/* Hand-laid inline assembly: its operand columns are kept as written. */
/* clang-format off */

/* 2^256 - p, for the final subtraction. */
static const uint64_t fs2_x86_2p[4] __attribute__((aligned(32))) = { /* 2^256 - p */
    0x0000000000000001ULL, 0x00000000FFFFFFFFULL, 0x0000000000000000ULL, 0x0000000100000000ULL};

#define FS2_R(x) "%[" #x "]"

/* The first three products of a row: RDX = bi, ZERO (a register name)
 * zeroed, which also clears CF and OF; T1..T4 += a0..a2 * bi, low halves on
 * the OF chain, high halves on the CF chain. */
#define FS2_X86_ROW_HEAD(BI, ZERO, A0, A1, A2, T1, T2, T3, T4)                                \
    "movq " BI ", %%rdx\n\t"                                                                 \
    "xorl " ZERO ", " ZERO "\n\t"                                                            \
    "mulxq " A0 ", %[lo], %[hi]\n\t"                                                         \
    "adoxq %[lo], " FS2_R(T1) "\n\t"                                                         \
    "adcxq %[hi], " FS2_R(T2) "\n\t"                                                         \
    "mulxq " A1 ", %[lo], %[hi]\n\t"                                                         \
    "adoxq %[lo], " FS2_R(T2) "\n\t"                                                         \
    "adcxq %[hi], " FS2_R(T3) "\n\t"                                                         \
    "mulxq " A2 ", %[lo], %[hi]\n\t"                                                         \
    "adoxq %[lo], " FS2_R(T3) "\n\t"                                                         \
    "adcxq %[hi], " FS2_R(T4) "\n\t"

/* One multiplication round: T1..T5 += a * bi (low halves on the OF chain,
 * high halves on the CF chain), the carries into T0, zeroed here (the limb
 * the previous reduction spent). BI and A0..A3 are the operand strings
 * (memory operands, or offsets from pointer registers). */
#define FS2_X86_MUL_ROUND_OPS(BI, A0, A1, A2, A3, T1, T2, T3, T4, T5, T0)                      \
    FS2_X86_ROW_HEAD(BI, "%k[" #T0 "]", A0, A1, A2, T1, T2, T3, T4)                          \
    "mulxq " A3 ", %[lo], %[hi]\n\t"                                                  \
    "adoxq %[lo], " FS2_R(T4) "\n\t"                                                         \
    "adcxq %[hi], " FS2_R(T5) "\n\t"                                                         \
    "movl $0, %k[lo]\n\t"                                                                    \
    "adoxq %[lo], " FS2_R(T5) "\n\t"                                                         \
    "adcxq %[lo], " FS2_R(T0) "\n\t"                                                         \
    "adoxq %[lo], " FS2_R(T0) "\n\t"

/* After a 4-limb subtraction into t0..t3 whose borrow is in CF: m = 0 or
 * all ones from the borrow, and p masked by it added back (p = (m, m << 32,
 * m, m without bit 32) when m is all ones). Scratch x, y. */
#define FS2_X86_SUB_ADD_P_ON_BORROW \
    "sbbq %[m], %[m]\n\t"          \
    "movq %[m], %[x]\n\t"          \
    "shlq $32, %[x]\n\t"           \
    "movq %[m], %[y]\n\t"          \
    "btrq $32, %[y]\n\t"           \
    "addq %[m], %[t0]\n\t"         \
    "adcq %[x], %[t1]\n\t"         \
    "adcq %[m], %[t2]\n\t"         \
    "adcq %[y], %[t3]\n\t"

/* Final step: (T0..T3, T4) < 2p -> [0, p) in T0..T3. Adds 2^256 - p into
 * the scratch copies S0..S3: the sum reaches 2^256 exactly when T >= p. */
#define FS2_X86_FINAL(T0, T1, T2, T3, T4, S0, S1, S2, S3)                                    \
    "movq " FS2_R(T0) ", " FS2_R(S0) "\n\t"                                                   \
    "movq " FS2_R(T1) ", " FS2_R(S1) "\n\t"                                                   \
    "movq " FS2_R(T2) ", " FS2_R(S2) "\n\t"                                                   \
    "movq " FS2_R(T3) ", " FS2_R(S3) "\n\t"                                                   \
    "addq %[c0], " FS2_R(S0) "\n\t"                                                          \
    "adcq %[c1], " FS2_R(S1) "\n\t"                                                          \
    "adcq $0, " FS2_R(S2) "\n\t"                                                             \
    "adcq %[c3], " FS2_R(S3) "\n\t"                                                          \
    "adcq $0, " FS2_R(T4) "\n\t"                                                             \
    "cmovnzq " FS2_R(S0) ", " FS2_R(T0) "\n\t"                                                \
    "cmovnzq " FS2_R(S1) ", " FS2_R(T1) "\n\t"                                                \
    "cmovnzq " FS2_R(S2) ", " FS2_R(T2) "\n\t"                                                \
    "cmovnzq " FS2_R(S3) ", " FS2_R(T3) "\n\t"

/* ---- mod p: the product in rounds that need two scratch registers ------ */

/* First row: T0..T4 = a * b0 (T5, the window's top, is zeroed by the
 * caller). */
#define FS2_X86_P_ROW0(B0, A0, A1, A2, A3, T0, T1, T2, T3, T4)                               \
    "movq " B0 ", %%rdx\n\t"                                                          \
    "mulxq " A0 ", " FS2_R(T0) ", " FS2_R(T1) "\n\t"                                  \
    "mulxq " A1 ", %[lo], " FS2_R(T2) "\n\t"                                          \
    "addq %[lo], " FS2_R(T1) "\n\t"                                                          \
    "mulxq " A2 ", %[lo], " FS2_R(T3) "\n\t"                                          \
    "adcq %[lo], " FS2_R(T2) "\n\t"                                                          \
    "mulxq " A3 ", %[lo], " FS2_R(T4) "\n\t"                                          \
    "adcq %[lo], " FS2_R(T3) "\n\t"                                                          \
    "adcq $0, " FS2_R(T4) "\n\t"

/* Two Montgomery reduction rounds in one pass (p = -1 mod 2^64, so each
 * round's multiplier is the limb it clears). Window P0..P6 (P6 the top,
 * EXTRA_ADD / EXTRA_SUB carry the two chains on into further limbs):
 *   m0 = P0, m1 = (P1 + m0 - (m0 << 32)) mod 2^64 (the limb P1 becomes
 *   after the first round), and (P + (m0 + 2^64 m1) p) / 2^128 lands in
 *   P2..P6. With p + 1 = 2^64 (2^192 - 2^160 - 2^32 + 1), the two rounds
 *   add (m0, m1, 0, m0, m1) to P1..P5 and subtract (lo0, hi0 | lo1,
 *   lo0 | hi1, hi0 | lo1, hi1), lo_i and hi_i the halves of m_i 2^32
 *   (the ORs join halves whose bits do not overlap). Each m_i is split by
 *   a rotation: T = RORX(m_i, 32), hi_i = T mod 2^32 (a 32-bit move),
 *   lo_i = T - hi_i: three one-cycle instructions on the path to m1 and
 *   to the chains, where a MULX by 2^32 would take four cycles (on Intel
 *   RORX takes a slot of one of the two flag ports).
 *   P1 ends as m1 exactly, its carry gone on into P2: the limb is spent.
 * One carry chain and one borrow chain for two rounds, where a round on
 * its own needs a chain of each plus two shifts: these are the
 * instructions that compete for the two flag ports of Intel cores. A, B,
 * D, E are scratch; P0, P1 and RDX are spent. */
#define FS2_X86_P_RED2(P0, P1, P2, P3, P4, P5, P6, EXTRA_ADD, EXTRA_SUB, A, B, D, E)           \
    "rorxq $32, " FS2_R(P0) ", " FS2_R(A) "\n\t"                                            \
    "movl %k[" #A "], %k[" #B "]\n\t"                                                        \
    "subq " FS2_R(B) ", " FS2_R(A) "\n\t"                                                     \
    "movq " FS2_R(P1) ", %%rdx\n\t"                                                          \
    "addq " FS2_R(P0) ", %%rdx\n\t"                                                          \
    "subq " FS2_R(A) ", %%rdx\n\t"                                                           \
    "rorxq $32, %%rdx, " FS2_R(D) "\n\t"                                                      \
    "movl %k[" #D "], %k[" #E "]\n\t"                                                        \
    "subq " FS2_R(E) ", " FS2_R(D) "\n\t"                                                     \
    "orq " FS2_R(D) ", " FS2_R(B) "\n\t"                                                     \
    "addq " FS2_R(P0) ", " FS2_R(P1) "\n\t"                                                  \
    "adcq %%rdx, " FS2_R(P2) "\n\t"                                                          \
    "adcq $0, " FS2_R(P3) "\n\t"                                                             \
    "adcq " FS2_R(P0) ", " FS2_R(P4) "\n\t"                                                  \
    "adcq %%rdx, " FS2_R(P5) "\n\t"                                                          \
    "adcq $0, " FS2_R(P6) "\n\t"                                                             \
    EXTRA_ADD                                                                                \
    "movq " FS2_R(A) ", " FS2_R(P0) "\n\t"                                                   \
    "orq " FS2_R(E) ", " FS2_R(P0) "\n\t"                                                    \
    "subq " FS2_R(A) ", " FS2_R(P1) "\n\t"                                                   \
    "sbbq " FS2_R(B) ", " FS2_R(P2) "\n\t"                                                   \
    "sbbq " FS2_R(P0) ", " FS2_R(P3) "\n\t"                                                  \
    "sbbq " FS2_R(B) ", " FS2_R(P4) "\n\t"                                                   \
    "sbbq " FS2_R(E) ", " FS2_R(P5) "\n\t"                                                   \
    "sbbq $0, " FS2_R(P6) "\n\t"                                                             \
    EXTRA_SUB
/* One multiplication row into a fresh top limb: T1..T4 += a * bi, T5 set
 * to the top (the sum fits in five limbs). */
#define FS2_X86_P_ROW_TOP(BI, A0, A1, A2, A3, T1, T2, T3, T4, T5)                            \
    FS2_X86_ROW_HEAD(BI, "%k[lo]", A0, A1, A2, T1, T2, T3, T4)                               \
    "mulxq " A3 ", %[lo], " FS2_R(T5) "\n\t"                                                 \
    "adoxq %[lo], " FS2_R(T4) "\n\t"                                                         \
    "movl $0, %k[lo]\n\t"                                                                    \
    "adcxq %[lo], " FS2_R(T5) "\n\t"                                                         \
    "adoxq %[lo], " FS2_R(T5) "\n\t"
/* Final step: (T0..T3, T4) < 2p -> [0, p) in T0..T3, as FS2_X86_FINAL but
 * with 2^256 - p as immediates (through RDX) instead of memory operands. */
#define FS2_X86_P_FINAL(T0, T1, T2, T3, T4, S0, S1, S2, S3)                                  \
    "movq " FS2_R(T0) ", " FS2_R(S0) "\n\t"                                                  \
    "movq " FS2_R(T1) ", " FS2_R(S1) "\n\t"                                                  \
    "movq " FS2_R(T2) ", " FS2_R(S2) "\n\t"                                                  \
    "movq " FS2_R(T3) ", " FS2_R(S3) "\n\t"                                                  \
    "movl $0xffffffff, %%edx\n\t"                                                            \
    "addq $1, " FS2_R(S0) "\n\t"                                                             \
    "adcq %%rdx, " FS2_R(S1) "\n\t"                                                          \
    "movabsq $0x100000000, %%rdx\n\t"                                                        \
    "adcq $0, " FS2_R(S2) "\n\t"                                                             \
    "adcq %%rdx, " FS2_R(S3) "\n\t"                                                          \
    "adcq $0, " FS2_R(T4) "\n\t"                                                             \
    "cmovnzq " FS2_R(S0) ", " FS2_R(T0) "\n\t"                                               \
    "cmovnzq " FS2_R(S1) ", " FS2_R(T1) "\n\t"                                               \
    "cmovnzq " FS2_R(S2) ", " FS2_R(T2) "\n\t"                                               \
    "cmovnzq " FS2_R(S3) ", " FS2_R(T3) "\n\t"

/* The product's operand limbs: as memory operands, which the compiler
 * addresses from whatever base it holds (no pointer register of their
 * own, which leaves the registers to the carry chains), except
 * in unoptimised builds (the sanitizer suite), where each such operand
 * would take a register of its own and the asm could not be allocated. */
#if defined(__OPTIMIZE__)
#define FS2_PA0 "%[a0]"
#define FS2_PA1 "%[a1]"
#define FS2_PA2 "%[a2]"
#define FS2_PA3 "%[a3]"
#define FS2_PB0 "%[b0]"
#define FS2_PB1 "%[b1]"
#define FS2_PB2 "%[b2]"
#define FS2_PB3 "%[b3]"
#define FS2_X86_P_MUL_OPERANDS(a, b)                                                         \
    [a0] "m"(a[0]), [a1] "m"(a[1]), [a2] "m"(a[2]), [a3] "m"(a[3]), [b0] "m"(b[0]), [b1] "m"(b[1]), \
        [b2] "m"(b[2]), [b3] "m"(b[3])
#define FS2_X86_P_MUL_CLOBBERS "rdx", "cc"
#else
#define FS2_PA0 "0(%[a])"
#define FS2_PA1 "8(%[a])"
#define FS2_PA2 "16(%[a])"
#define FS2_PA3 "24(%[a])"
#define FS2_PB0 "0(%[b])"
#define FS2_PB1 "8(%[b])"
#define FS2_PB2 "16(%[b])"
#define FS2_PB3 "24(%[b])"
/* Unoptimised, each "m" operand would take a register of its own besides
 * the pointer's: the memory clobber tells the compiler what is read. */
#define FS2_X86_P_MUL_OPERANDS(a, b) [a] "r"(a), [b] "r"(b)
#define FS2_X86_P_MUL_CLOBBERS "rdx", "cc", "memory"
#endif

/* r = a b / 2^256 mod p, inputs in [0, p): rows a b0 and a b1, two
 * reduction rounds, rows a b2 and a b3, two more rounds, the final
 * subtraction. Bounds: after the first two rows the sum is < 2^384, so
 * (S + M p) / 2^128 < 2^257 fits t2..t6; with the last rows it stays below
 * 2^386, and the last two rounds leave the Montgomery product (< 2p) in
 * t4, t5, t6, t0 and the bit t1. */
static inline __attribute__((always_inline)) void fs2_x86_mul_p(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
    uint64_t t0, t1, t2, t3, t4, t5, t6, lo, hi, x, y;
    __asm__(
        FS2_X86_P_ROW0(FS2_PB0, FS2_PA0, FS2_PA1, FS2_PA2, FS2_PA3, t0, t1, t2, t3, t4)
        FS2_X86_P_ROW_TOP(FS2_PB1, FS2_PA0, FS2_PA1, FS2_PA2, FS2_PA3, t1, t2, t3, t4, t5)
        "xorl %k[t6], %k[t6]\n\t"
        FS2_X86_P_RED2(t0, t1, t2, t3, t4, t5, t6, "", "", lo, hi, x, y)
        FS2_X86_MUL_ROUND_OPS(FS2_PB2, FS2_PA0, FS2_PA1, FS2_PA2, FS2_PA3, t2, t3, t4, t5, t6, t0)
        FS2_X86_MUL_ROUND_OPS(FS2_PB3, FS2_PA0, FS2_PA1, FS2_PA2, FS2_PA3, t3, t4, t5, t6, t0, t1)
        FS2_X86_P_RED2(t2, t3, t4, t5, t6, t0, t1, "", "", lo, hi, x, y)
        FS2_X86_P_FINAL(t4, t5, t6, t0, t1, lo, hi, x, y)
        : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4), [t5] "=&r"(t5),
          [t6] "=&r"(t6), [lo] "=&r"(lo), [hi] "=&r"(hi), [x] "=&r"(x), [y] "=&r"(y)
        : FS2_X86_P_MUL_OPERANDS(a, b)
        : FS2_X86_P_MUL_CLOBBERS);
    r[0] = t4, r[1] = t5, r[2] = t6, r[3] = t0;
    (void)t1, (void)t2, (void)t3, (void)lo, (void)hi, (void)x, (void)y;
}

/* r = a^2 / 2^256 mod p, input in [0, p). The 512-bit square goes into
 * t0..t7 (cross products once, doubled, plus the squares), then two
 * two-round passes reduce it (FS2_X86_P_RED2) and one subtraction ends it. */
static inline __attribute__((always_inline)) void fs2_x86_sqr_p(uint64_t r[4], const uint64_t a[4])
{
    uint64_t t0, t1, t2, t3, t4, t5, t6, t7, lo, hi, x;
    uint64_t pa = (uintptr_t)a;
    __asm__(/* cross products a_i a_j, i < j, into t1..t6 */
            "movq 0(%[a]), %%rdx\n\t"
            "xorl %k[t7], %k[t7]\n\t"
            "mulxq 8(%[a]), %[t1], %[t2]\n\t"   /* a0 a1 */
            "mulxq 16(%[a]), %[lo], %[t3]\n\t"  /* a0 a2 */
            "adcxq %[lo], %[t2]\n\t"
            "mulxq 24(%[a]), %[lo], %[t4]\n\t"  /* a0 a3 */
            "adcxq %[lo], %[t3]\n\t"
            "movq 8(%[a]), %%rdx\n\t"
            "mulxq 24(%[a]), %[lo], %[t5]\n\t"  /* a1 a3 */
            "adcxq %[lo], %[t4]\n\t"
            "movq 16(%[a]), %%rdx\n\t"
            "mulxq 24(%[a]), %[lo], %[t6]\n\t"  /* a2 a3 */
            "adcxq %[lo], %[t5]\n\t"
            "adcxq %[t7], %[t6]\n\t"            /* CF = 0 after this */
            "movq 8(%[a]), %%rdx\n\t"
            "mulxq 16(%[a]), %[lo], %[hi]\n\t"  /* a1 a2 at column 3 */
            "adoxq %[lo], %[t3]\n\t"
            "adoxq %[hi], %[t4]\n\t"
            "adoxq %[t7], %[t5]\n\t"
            "adoxq %[t7], %[t6]\n\t"            /* OF = 0 after this (< 2^448) */
            /* double t1..t6 into t1..t7 (CF chain); add the squares (OF chain) */
            "movq 0(%[a]), %%rdx\n\t"
            "mulxq %%rdx, %[t0], %[hi]\n\t"     /* a0^2 */
            "adcxq %[t1], %[t1]\n\t"
            "adoxq %[hi], %[t1]\n\t"
            "movq 8(%[a]), %%rdx\n\t"
            "mulxq %%rdx, %[lo], %[hi]\n\t"     /* a1^2 */
            "adcxq %[t2], %[t2]\n\t"
            "adoxq %[lo], %[t2]\n\t"
            "adcxq %[t3], %[t3]\n\t"
            "adoxq %[hi], %[t3]\n\t"
            "movq 16(%[a]), %%rdx\n\t"
            "mulxq %%rdx, %[lo], %[hi]\n\t"     /* a2^2 */
            "adcxq %[t4], %[t4]\n\t"
            "adoxq %[lo], %[t4]\n\t"
            "adcxq %[t5], %[t5]\n\t"
            "adoxq %[hi], %[t5]\n\t"
            "movq 24(%[a]), %%rdx\n\t"
            "mulxq %%rdx, %[lo], %[hi]\n\t"     /* a3^2 */
            "adcxq %[t6], %[t6]\n\t"
            "adoxq %[lo], %[t6]\n\t"
            "adcxq %[t7], %[t7]\n\t"            /* t7 = top bit of the doubling */
            "adoxq %[hi], %[t7]\n\t"
            /* Montgomery-reduce the 512-bit square: two rounds over
             * t0..t7 (the chains run to t7; the sum stays < 2^512), two
             * over t2..t7 and t1 (zeroed: the top bit). The result (< 2p)
             * lands in t4..t7 and t1. Twelve registers besides RDX (the
             * pointer register is scratch here), so that it also builds
             * where RBP is the frame pointer (sanitizer builds). */
            FS2_X86_P_RED2(t0, t1, t2, t3, t4, t5, t6, "adcq $0, %[t7]\n\t", "sbbq $0, %[t7]\n\t", lo, hi, x, a)
            "xorl %k[t1], %k[t1]\n\t"
            FS2_X86_P_RED2(t2, t3, t4, t5, t6, t7, t1, "", "", lo, hi, x, a)
            FS2_X86_P_FINAL(t4, t5, t6, t7, t1, a, x, t0, t2)
            : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
              [t5] "=&r"(t5), [t6] "=&r"(t6), [t7] "=&r"(t7), [lo] "=&r"(lo), [hi] "=&r"(hi), [x] "=&r"(x),
              [a] "+&r"(pa)
            : "m"(*(const uint64_t(*)[4])a)
            : "rdx", "cc");
    r[0] = t4;
    r[1] = t5;
    r[2] = t6;
    r[3] = t7;
    (void)t0, (void)t1, (void)t2, (void)t3, (void)lo, (void)hi, (void)x, (void)pa;
}

#if !defined(__clang__)
/* r = a + b mod p, inputs in [0, p): the 257-bit sum, then the same
 * branch-free final subtraction as the products. The operands are limb
 * values, not pointers: a product's result goes on in the registers it
 * left, without a store and reload between them. GCC only: clang then
 * promotes the field elements to registers, and the products' memory
 * operands each take an address register of their own, more than there
 * are, so the asm cannot be allocated. */
static inline __attribute__((always_inline)) void fs2_x86_add_p(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
    uint64_t t0 = a[0], t1 = a[1], t2 = a[2], t3 = a[3], t4, s0, s1, s2, s3;
    __asm__("xorl %k[t4], %k[t4]\n\t"
            "addq %[b0], %[t0]\n\t"
            "adcq %[b1], %[t1]\n\t"
            "adcq %[b2], %[t2]\n\t"
            "adcq %[b3], %[t3]\n\t"
            "adcq $0, %[t4]\n\t"
            FS2_X86_FINAL(t0, t1, t2, t3, t4, s0, s1, s2, s3)
            : [t0] "+&r"(t0), [t1] "+&r"(t1), [t2] "+&r"(t2), [t3] "+&r"(t3), [t4] "=&r"(t4),
              [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3)
            : [b0] "rm"(b[0]), [b1] "rm"(b[1]), [b2] "rm"(b[2]), [b3] "rm"(b[3]),
              [c0] "m"(fs2_x86_2p[0]), [c1] "m"(fs2_x86_2p[1]), [c3] "m"(fs2_x86_2p[3])
            : "cc");
    r[0] = t0;
    r[1] = t1;
    r[2] = t2;
    r[3] = t3;
}

/* r = a - b mod p, inputs in [0, p): on a borrow, p is added back, masked
 * by the borrow (m = 0 or all ones; p = (m, m << 32, m, m without bit 32)
 * when m is all ones). Limb values in, as fs2_x86_add_p. */
static inline __attribute__((always_inline)) void fs2_x86_sub_p(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
    uint64_t t0 = a[0], t1 = a[1], t2 = a[2], t3 = a[3], m, x, y;
    __asm__("subq %[b0], %[t0]\n\t"
            "sbbq %[b1], %[t1]\n\t"
            "sbbq %[b2], %[t2]\n\t"
            "sbbq %[b3], %[t3]\n\t"
            FS2_X86_SUB_ADD_P_ON_BORROW
            : [t0] "+&r"(t0), [t1] "+&r"(t1), [t2] "+&r"(t2), [t3] "+&r"(t3), [m] "=&r"(m), [x] "=&r"(x),
              [y] "=&r"(y)
            : [b0] "rm"(b[0]), [b1] "rm"(b[1]), [b2] "rm"(b[2]), [b3] "rm"(b[3])
            : "cc");
    r[0] = t0;
    r[1] = t1;
    r[2] = t2;
    r[3] = t3;
}

#else
/* clang: pointers in (see fs2_x86_add_p above). */
static inline __attribute__((always_inline)) void fs2_x86_add_p(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
    uint64_t t0, t1, t2, t3, t4, s0, s1, s2, s3;
    __asm__("movq 0(%[a]), %[t0]\n\t"
            "movq 8(%[a]), %[t1]\n\t"
            "movq 16(%[a]), %[t2]\n\t"
            "movq 24(%[a]), %[t3]\n\t"
            "xorl %k[t4], %k[t4]\n\t"
            "addq 0(%[b]), %[t0]\n\t"
            "adcq 8(%[b]), %[t1]\n\t"
            "adcq 16(%[b]), %[t2]\n\t"
            "adcq 24(%[b]), %[t3]\n\t"
            "adcq $0, %[t4]\n\t"
            FS2_X86_FINAL(t0, t1, t2, t3, t4, s0, s1, s2, s3)
            : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
              [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3)
            : [a] "r"(a), [b] "r"(b), "m"(*(const uint64_t(*)[4])a), "m"(*(const uint64_t(*)[4])b),
              [c0] "m"(fs2_x86_2p[0]), [c1] "m"(fs2_x86_2p[1]), [c3] "m"(fs2_x86_2p[3])
            : "cc");
    r[0] = t0;
    r[1] = t1;
    r[2] = t2;
    r[3] = t3;
}


static inline __attribute__((always_inline)) void fs2_x86_sub_p(uint64_t r[4], const uint64_t a[4], const uint64_t b[4])
{
    uint64_t t0, t1, t2, t3, m, x, y;
    __asm__("movq 0(%[a]), %[t0]\n\t"
            "movq 8(%[a]), %[t1]\n\t"
            "movq 16(%[a]), %[t2]\n\t"
            "movq 24(%[a]), %[t3]\n\t"
            "subq 0(%[b]), %[t0]\n\t"
            "sbbq 8(%[b]), %[t1]\n\t"
            "sbbq 16(%[b]), %[t2]\n\t"
            "sbbq 24(%[b]), %[t3]\n\t"
            FS2_X86_SUB_ADD_P_ON_BORROW
            : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [m] "=&r"(m), [x] "=&r"(x),
              [y] "=&r"(y)
            : [a] "r"(a), [b] "r"(b), "m"(*(const uint64_t(*)[4])a), "m"(*(const uint64_t(*)[4])b)
            : "cc");
    r[0] = t0;
    r[1] = t1;
    r[2] = t2;
    r[3] = t3;
}

#endif

/* ---- the primitives of field/field.h ------------------------------------ */

static inline __attribute__((always_inline)) void fs2_fe_mul(fs2_fe *r, const fs2_fe *a, const fs2_fe *b)
{
    fs2_x86_mul_p(r->v, a->v, b->v);
}

static inline __attribute__((always_inline)) void fs2_fe_sqr(fs2_fe *r, const fs2_fe *a)
{
    fs2_x86_sqr_p(r->v, a->v);
}

static inline void fs2_fe_add(fs2_fe *r, const fs2_fe *a, const fs2_fe *b) { fs2_x86_add_p(r->v, a->v, b->v); }
static inline void fs2_fe_sub(fs2_fe *r, const fs2_fe *a, const fs2_fe *b) { fs2_x86_sub_p(r->v, a->v, b->v); }

static inline void fs2_fe_neg(fs2_fe *r, const fs2_fe *a)
{
    static const uint64_t zero[4] = {0, 0, 0, 0};
    fs2_x86_sub_p(r->v, zero, a->v);
}

static inline void fs2_fe_inv(fs2_fe *r, const fs2_fe *a)
{
    fs2_fe y;
    fs2_modinv_safegcd(y.v, a->v, &FS2_MODINFO_P);
    fs2_fe_mul(r, &y, &FS2_FE_R3);
}

/* clang-format on */
#endif
