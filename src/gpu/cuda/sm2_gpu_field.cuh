/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SM2 field arithmetic for the CUDA backend (GB/T 32918.1 clause 3 and
 * Annex A): integers mod p and mod n in 8 little-endian 32-bit limbs.
 *
 * Every function is __host__ __device__: nvcc compiles it into the kernels,
 * and g++ compiles the very same code as host code for tests/gpu, which
 * check it against the portable C library and OpenSSL on a CPU (CI has no
 * GPU). The only difference between the two is in the carry primitives
 * below: on the device (__CUDA_ARCH__) each is one PTX instruction on PTX's
 * carry flag (add.cc, addc.cc, madc.lo.cc, madc.hi.cc, ...), which ptxas
 * maps to SASS as it sees fit (predicate carries; a mad.lo.cc / madc.hi.cc
 * pair on adjacent words becomes one IMAD.WIDE.U32); on the host the flag
 * is an ordinary variable `cf` that
 * every primitive takes by reference. The sequences of primitives (the
 * carry chains) are identical, so the host tests check their order too.
 * Define FS2G_NO_PTX to compile the portable primitives for the device as
 * well (a debugging switch).
 *
 * Representation: field elements mod p are plain integers in [0, p) (no
 * Montgomery form), so that points cross between host and device as they
 * are. Scalars mod n are canonical integers; fs2g_fn_mont_mul is a
 * Montgomery product with R = 2^256 (the CPU library's R as well, so its
 * cached (1+d)^-1 * R mod n is used as it is).
 *
 * Reduction mod p follows the paper's method: the 512-bit product's upper
 * words c8..c15 are folded into the lower eight with the small coefficients
 * that 2^(32 i) mod p has (i = 8..15; derived from
 * 2^256 = 2^224 + 2^96 - 2^64 + 1 mod p), summed in 64-bit columns, then two
 * rounds of carry folding without branches, then one masked subtraction of
 * p. Nothing here branches on or indexes by a value: every function runs
 * the same instructions for every input.
 */
#ifndef FS2_GPU_FIELD_CUH
#define FS2_GPU_FIELD_CUH

#include <stdint.h>

/* nvcc (__CUDACC__) or hipcc (__HIP__): host and device functions. */
#if defined(__CUDACC__) || defined(__HIP__)
#define FS2G_HD     __host__ __device__ __forceinline__
#define FS2G_UNROLL _Pragma("unroll")
#else
#define FS2G_HD static inline
#define FS2G_UNROLL
#endif

#if defined(__CUDA_ARCH__) && !defined(FS2G_NO_PTX)
#define FS2G_PTX 1
#endif

/* Instruction accounting (tests/harness/sass-count.sh, docs/GPU.md "SASS count").
 * FS2G_HDU marks the units of the cost model: field product and square,
 * point doubling and additions, the table selection, SM3 compression, the
 * scalar Montgomery product. In normal builds it is FS2G_HD (inlined).
 * With FS2G_SASS_COUNT nvcc compiles each unit as a separate device
 * function, so that its SASS can be counted on its own; with FS2G_OPCOUNT
 * (a host build) every unit counts its calls in fs2g_opcount[]. */
enum {
    FS2G_OP_FP_MUL,
    FS2G_OP_FP_SQR,
    FS2G_OP_FN_MONT_MUL,
    FS2G_OP_JAC_DBL,
    FS2G_OP_JAC_ADD_AFF,
    FS2G_OP_JAC_ADD_VAR,
    FS2G_OP_SELECT_FAST,
    FS2G_OP_SELECT_CT,
    FS2G_OP_SM3_COMPRESS,
    FS2G_OP_FP_INV_GROUP,
    FS2G_OP_AFF_CNEG,
    FS2G_OP_VTAB_LOAD,
    FS2G_OP_JAC_ADD,
    FS2G_OP_UNITS
};
#if defined(__CUDACC__) && defined(FS2G_SASS_COUNT)
#define FS2G_HDU __host__ __device__ __noinline__
#else
#define FS2G_HDU FS2G_HD
#endif
#if defined(FS2G_OPCOUNT) && !defined(__CUDA_ARCH__)
/* A unit's cost includes the units it calls (inlined into it): only the
 * outermost unit of a call counts. */
extern unsigned long long fs2g_opcount[FS2G_OP_UNITS];
extern int fs2g_opdepth;
struct fs2g_opscope {
    explicit fs2g_opscope(int id)
    {
        if (fs2g_opdepth++ == 0)
            fs2g_opcount[id]++;
    }
    ~fs2g_opscope()
    {
        fs2g_opdepth--;
    }
};
#define FS2G_COUNT_OP(id) fs2g_opscope fs2g_opscope_(id)
#else
#define FS2G_COUNT_OP(id) ((void)0)
#endif

/* p = FFFFFFFE FFFFFFFF FFFFFFFF FFFFFFFF FFFFFFFF 00000000 FFFFFFFF FFFFFFFF,
 * n = FFFFFFFE FFFFFFFF FFFFFFFF FFFFFFFF 7203DF6B 21C6052B 53BBF409 39D54123
 * (GB/T 32918.5), little-endian words. Initializer lists, so that each
 * function keeps a local copy that the compiler folds into immediates (a
 * namespace-scope host array is not visible to device code). */
#define FS2G_P_WORDS                                                                                           \
    {                                                                                                          \
        0xFFFFFFFFu, 0xFFFFFFFFu, 0x00000000u, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFEu \
    }
#define FS2G_N_WORDS                                                                                           \
    {                                                                                                          \
        0x39D54123u, 0x53BBF409u, 0x21C6052Bu, 0x7203DF6Bu, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFEu \
    }
/* R^2 mod n (R = 2^256) and -n^-1 mod 2^32. */
#define FS2G_N_RR_WORDS                                                                                        \
    {                                                                                                          \
        0x7C114F20u, 0x901192AFu, 0xDE6FA2FAu, 0x3464504Au, 0x3AFFE0D4u, 0x620FC84Cu, 0xA22B3D3Bu, 0x1EB5E412u \
    }
#define FS2G_N0 0x72350975u

/* ---- carry primitives: one PTX instruction each on the device --------- */

FS2G_HD uint32_t fs2g_add_cc(uint32_t a, uint32_t b, uint32_t &cf)
{
#ifdef FS2G_PTX
    uint32_t r;
    (void)cf;
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
#else
    uint64_t t = (uint64_t)a + b;
    cf = (uint32_t)(t >> 32);
    return (uint32_t)t;
#endif
}

FS2G_HD uint32_t fs2g_addc_cc(uint32_t a, uint32_t b, uint32_t &cf)
{
#ifdef FS2G_PTX
    uint32_t r;
    (void)cf;
    asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
#else
    uint64_t t = (uint64_t)a + b + cf;
    cf = (uint32_t)(t >> 32);
    return (uint32_t)t;
#endif
}

FS2G_HD uint32_t fs2g_addc(uint32_t a, uint32_t b, uint32_t &cf)
{
#ifdef FS2G_PTX
    uint32_t r;
    (void)cf;
    asm volatile("addc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
#else
    return a + b + cf;
#endif
}

/* Subtraction: the flag is a borrow (PTX sub.cc/subc: d = a - (b + CF)). */
FS2G_HD uint32_t fs2g_sub_cc(uint32_t a, uint32_t b, uint32_t &cf)
{
#ifdef FS2G_PTX
    uint32_t r;
    (void)cf;
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
#else
    uint64_t t = (uint64_t)a - b;
    cf = (uint32_t)(t >> 63);
    return (uint32_t)t;
#endif
}

FS2G_HD uint32_t fs2g_subc_cc(uint32_t a, uint32_t b, uint32_t &cf)
{
#ifdef FS2G_PTX
    uint32_t r;
    (void)cf;
    asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
#else
    uint64_t t = (uint64_t)a - b - cf;
    cf = (uint32_t)(t >> 63);
    return (uint32_t)t;
#endif
}

FS2G_HD uint32_t fs2g_subc(uint32_t a, uint32_t b, uint32_t &cf)
{
#ifdef FS2G_PTX
    uint32_t r;
    (void)cf;
    asm volatile("subc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
#else
    return a - b - cf;
#endif
}

/* lo(a*b) + c, carry out */
FS2G_HD uint32_t fs2g_mad_lo_cc(uint32_t a, uint32_t b, uint32_t c, uint32_t &cf)
{
#ifdef FS2G_PTX
    uint32_t r;
    (void)cf;
    asm volatile("mad.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
#else
    uint64_t t = (uint64_t)(uint32_t)(a * b) + c;
    cf = (uint32_t)(t >> 32);
    return (uint32_t)t;
#endif
}

/* lo(a*b) + c + CF, carry out */
FS2G_HD uint32_t fs2g_madc_lo_cc(uint32_t a, uint32_t b, uint32_t c, uint32_t &cf)
{
#ifdef FS2G_PTX
    uint32_t r;
    (void)cf;
    asm volatile("madc.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
#else
    uint64_t t = (uint64_t)(uint32_t)(a * b) + c + cf;
    cf = (uint32_t)(t >> 32);
    return (uint32_t)t;
#endif
}

/* hi(a*b) + c, carry out */
FS2G_HD uint32_t fs2g_mad_hi_cc(uint32_t a, uint32_t b, uint32_t c, uint32_t &cf)
{
#ifdef FS2G_PTX
    uint32_t r;
    (void)cf;
    asm volatile("mad.hi.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
#else
    uint64_t t = (((uint64_t)a * b) >> 32) + c;
    cf = (uint32_t)(t >> 32);
    return (uint32_t)t;
#endif
}

/* hi(a*b) + c + CF, carry out */
FS2G_HD uint32_t fs2g_madc_hi_cc(uint32_t a, uint32_t b, uint32_t c, uint32_t &cf)
{
#ifdef FS2G_PTX
    uint32_t r;
    (void)cf;
    asm volatile("madc.hi.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
#else
    uint64_t t = (((uint64_t)a * b) >> 32) + c + cf;
    cf = (uint32_t)(t >> 32);
    return (uint32_t)t;
#endif
}

/* hi(a*b) + c + CF, no carry out (the caller knows there is none) */
FS2G_HD uint32_t fs2g_madc_hi(uint32_t a, uint32_t b, uint32_t c, uint32_t &cf)
{
#ifdef FS2G_PTX
    uint32_t r;
    (void)cf;
    asm volatile("madc.hi.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
#else
    return (uint32_t)((((uint64_t)a * b) >> 32) + c + cf);
#endif
}

/* ---- 256-bit helpers ------------------------------------------------------ */

FS2G_HD void fs2g_copy(uint32_t r[8], const uint32_t a[8])
{
    FS2G_UNROLL
    for (int i = 0; i < 8; i++)
        r[i] = a[i];
}

/* All-ones if a == 0, else 0. */
FS2G_HD uint32_t fs2g_is_zero(const uint32_t a[8])
{
    uint32_t z = a[0] | a[1] | a[2] | a[3] | a[4] | a[5] | a[6] | a[7];
    return (uint32_t)0 - (((z | ((uint32_t)0 - z)) >> 31) ^ 1u);
}

/* All-ones if a == b, else 0. */
FS2G_HD uint32_t fs2g_eq(const uint32_t a[8], const uint32_t b[8])
{
    uint32_t d[8];
    FS2G_UNROLL
    for (int i = 0; i < 8; i++)
        d[i] = a[i] ^ b[i];
    return fs2g_is_zero(d);
}

/* r = mask ? a : r (mask all-ones or zero). */
FS2G_HD void fs2g_cmov(uint32_t r[8], const uint32_t a[8], uint32_t mask)
{
    FS2G_UNROLL
    for (int i = 0; i < 8; i++)
        r[i] = (a[i] & mask) | (r[i] & ~mask);
}

/* 32 big-endian bytes <-> 8 little-endian words. */
FS2G_HD void fs2g_from_be(uint32_t r[8], const unsigned char b[32])
{
    FS2G_UNROLL
    for (int i = 0; i < 8; i++) {
        const unsigned char *q = b + 28 - 4 * i;
        r[i] = ((uint32_t)q[0] << 24) | ((uint32_t)q[1] << 16) | ((uint32_t)q[2] << 8) | (uint32_t)q[3];
    }
}

FS2G_HD void fs2g_to_be(unsigned char b[32], const uint32_t a[8])
{
    FS2G_UNROLL
    for (int i = 0; i < 8; i++) {
        unsigned char *q = b + 28 - 4 * i;
        q[0] = (unsigned char)(a[i] >> 24);
        q[1] = (unsigned char)(a[i] >> 16);
        q[2] = (unsigned char)(a[i] >> 8);
        q[3] = (unsigned char)a[i];
    }
}

/* r = a + b (256 bits), returns the carry. */
FS2G_HD uint32_t fs2g_add256(uint32_t r[8], const uint32_t a[8], const uint32_t b[8])
{
    uint32_t cf = 0;
    r[0] = fs2g_add_cc(a[0], b[0], cf);
    FS2G_UNROLL
    for (int i = 1; i < 8; i++)
        r[i] = fs2g_addc_cc(a[i], b[i], cf);
    return fs2g_addc(0, 0, cf);
}

/* r = a - b (256 bits), returns the borrow (1 if a < b). */
FS2G_HD uint32_t fs2g_sub256(uint32_t r[8], const uint32_t a[8], const uint32_t b[8])
{
    uint32_t cf = 0;
    r[0] = fs2g_sub_cc(a[0], b[0], cf);
    FS2G_UNROLL
    for (int i = 1; i < 8; i++)
        r[i] = fs2g_subc_cc(a[i], b[i], cf);
    return fs2g_subc(0, 0, cf) & 1u;
}

/* (hi:t) < 2m -> t mod m, in [0, m). */
FS2G_HD void fs2g_reduce_once(uint32_t r[8], uint32_t hi, const uint32_t t[8], const uint32_t m[8])
{
    uint32_t d[8];
    uint32_t borrow = fs2g_sub256(d, t, m);
    /* keep t when the subtraction borrowed and there was no carry */
    uint32_t keep = (uint32_t)0 - (borrow & (hi ^ 1u));
    FS2G_UNROLL
    for (int i = 0; i < 8; i++)
        r[i] = (t[i] & keep) | (d[i] & ~keep);
}

/* All-ones if a < b (as integers), else 0. */
FS2G_HD uint32_t fs2g_lt(const uint32_t a[8], const uint32_t b[8])
{
    uint32_t d[8];
    return (uint32_t)0 - fs2g_sub256(d, a, b);
}

/* acc[0 .. 2 np - 1] += a_{j0} b, a_{j0+2} b, ... (np products) as (lo, hi)
 * pairs of adjacent words, one carry chain, the carry into acc[2 np]. */
FS2G_HD void fs2g_mul_row(uint32_t *acc, const uint32_t a[8], uint32_t b, int j0, int np)
{
    uint32_t cf = 0;
    acc[0] = fs2g_mad_lo_cc(a[j0], b, acc[0], cf);
    acc[1] = fs2g_madc_hi_cc(a[j0], b, acc[1], cf);
    FS2G_UNROLL
    for (int k = 1; k < np; k++) {
        acc[2 * k] = fs2g_madc_lo_cc(a[j0 + 2 * k], b, acc[2 * k], cf);
        acc[2 * k + 1] = fs2g_madc_hi_cc(a[j0 + 2 * k], b, acc[2 * k + 1], cf);
    }
    acc[2 * np] = fs2g_addc(acc[2 * np], 0, cf);
}

/* c[0..15] = ev + od shifted up one word: the even- and odd-offset
 * accumulators of fs2g_mul_wide and fs2g_sqr_wide merged by one carry
 * chain (their sum is below 2^512). */
FS2G_HD void fs2g_merge_acc(uint32_t c[16], const uint32_t ev[18], const uint32_t od[18])
{
    uint32_t cf = 0;
    c[0] = ev[0];
    c[1] = fs2g_add_cc(ev[1], od[0], cf);
    FS2G_UNROLL
    for (int k = 2; k < 15; k++)
        c[k] = fs2g_addc_cc(ev[k], od[k - 1], cf);
    c[15] = fs2g_addc(ev[15], od[14], cf);
}

/* c[0..15] = a * b. The 64 products a_j b_i, each a (lo, hi) pair of
 * words at offset i + j, are summed into two accumulators: ev for the
 * products at an even offset, od for those at an odd one (od[k] is word
 * k + 1), so that in both every pair sits at an even index and ptxas turns
 * each mad.lo.cc / madc.hi.cc pair into one IMAD.WIDE.U32 with carry on an
 * aligned register pair (about half the SASS of separate IMAD, IMAD.HI and
 * carry additions; docs/GPU.md "SASS count"). Row i adds the even-j and
 * the odd-j products of b_i, four each, in one chain each. Bounds: each
 * accumulator holds part of the partial product of rows 0..i, which is
 * below 2^(32 (i + 9)); a chain ends at word i + 8 or i + 9 and cannot
 * carry further. Then c = ev + od 2^32. */
FS2G_HD void fs2g_mul_wide(uint32_t c[16], const uint32_t a[8], const uint32_t b[8])
{
    uint32_t ev[18], od[18];
    FS2G_UNROLL
    for (int i = 0; i < 18; i++)
        ev[i] = od[i] = 0;
    FS2G_UNROLL
    for (int i = 0; i < 8; i++) {
        /* even j: offset i + j has i's parity; odd j: the other */
        if ((i & 1) == 0) {
            fs2g_mul_row(ev + i, a, b[i], 0, 4);
            fs2g_mul_row(od + i, a, b[i], 1, 4);
        } else {
            fs2g_mul_row(od + i - 1, a, b[i], 0, 4);
            fs2g_mul_row(ev + i + 1, a, b[i], 1, 4);
        }
    }
    fs2g_merge_acc(c, ev, od);
}

/* c[0..15] = a^2: the 28 products a_i a_j (i < j) once, into the even-
 * and odd-offset accumulators as in fs2g_mul_wide (row i: the j = i + 1,
 * i + 3, ... and the j = i + 2, i + 4, ... chains), merged, doubled by a
 * one-bit shift, then the 8 squares a_i^2 added on the diagonal (pairs at
 * even offsets). The off-diagonal partial sums obey fs2g_mul_wide's bounds,
 * and their total is below 2^511. */
FS2G_HD void fs2g_sqr_wide(uint32_t c[16], const uint32_t a[8])
{
    uint32_t ev[18], od[18];
    FS2G_UNROLL
    for (int i = 0; i < 18; i++)
        ev[i] = od[i] = 0;
    FS2G_UNROLL
    for (int i = 0; i < 7; i++) {
        FS2G_UNROLL
        for (int j0 = i + 1; j0 <= i + 2 && j0 < 8; j0++) {
            int np = (7 - j0) / 2 + 1;
            if (((i + j0) & 1) == 0)
                fs2g_mul_row(ev + i + j0, a, a[i], j0, np);
            else
                fs2g_mul_row(od + i + j0 - 1, a, a[i], j0, np);
        }
    }
    fs2g_merge_acc(c, ev, od);
    /* double: c = 2c */
    c[15] = (c[15] << 1) | (c[14] >> 31);
    FS2G_UNROLL
    for (int i = 14; i > 0; i--)
        c[i] = (c[i] << 1) | (c[i - 1] >> 31);
    c[0] = c[0] << 1;
    /* diagonal */
    uint32_t cf = 0;
    c[0] = fs2g_mad_lo_cc(a[0], a[0], c[0], cf);
    c[1] = fs2g_madc_hi_cc(a[0], a[0], c[1], cf);
    FS2G_UNROLL
    for (int i = 1; i < 7; i++) {
        c[2 * i] = fs2g_madc_lo_cc(a[i], a[i], c[2 * i], cf);
        c[2 * i + 1] = fs2g_madc_hi_cc(a[i], a[i], c[2 * i + 1], cf);
    }
    c[14] = fs2g_madc_lo_cc(a[7], a[7], c[14], cf);
    c[15] = fs2g_madc_hi(a[7], a[7], c[15], cf);
}

/* ---- mod p ---------------------------------------------------------------- */

/* r += c * (2^256 - p) = c * (2^224 + 2^96 - 2^64 + 1) for c in {0, 1}
 * (mask m = -c), as one carry chain; the caller has shown that it cannot
 * carry out of 2^256. 2^256 - p has the words 1, 0, 2^32 - 1, 0, 0, 0, 0,
 * 1. */
FS2G_HD void fs2g_fp_add_rc(uint32_t r[8], uint32_t c, uint32_t m)
{
    uint32_t cf = 0;
    r[0] = fs2g_add_cc(r[0], c, cf);
    r[1] = fs2g_addc_cc(r[1], 0, cf);
    r[2] = fs2g_addc_cc(r[2], m, cf);
    r[3] = fs2g_addc_cc(r[3], 0, cf);
    r[4] = fs2g_addc_cc(r[4], 0, cf);
    r[5] = fs2g_addc_cc(r[5], 0, cf);
    r[6] = fs2g_addc_cc(r[6], 0, cf);
    r[7] = fs2g_addc(r[7], c, cf);
}

/* r -= c * (2^256 - p) for c in {0, 1} (mask m = -c); returns the borrow
 * out of 2^256. */
FS2G_HD uint32_t fs2g_fp_sub_rc(uint32_t r[8], uint32_t c, uint32_t m)
{
    uint32_t cf = 0;
    r[0] = fs2g_sub_cc(r[0], c, cf);
    r[1] = fs2g_subc_cc(r[1], 0, cf);
    r[2] = fs2g_subc_cc(r[2], m, cf);
    r[3] = fs2g_subc_cc(r[3], 0, cf);
    r[4] = fs2g_subc_cc(r[4], 0, cf);
    r[5] = fs2g_subc_cc(r[5], 0, cf);
    r[6] = fs2g_subc_cc(r[6], 0, cf);
    r[7] = fs2g_subc_cc(r[7], c, cf);
    return fs2g_subc(0, 0, cf) & 1u;
}

/* r = c mod p, up to a multiple of p: r in [0, 2^256) and r = c (mod p),
 * for any 512-bit c. Outputs of the field operations stay in [0, 2^256)
 * (p < 2^256 < 2p: "reduced" means below 2^256 here); fs2g_fp_canon gives
 * the value in [0, p) where a canonical one is needed (comparisons, output).
 *
 * The upper words c8..c15 fold into the lower eight with the coefficients
 * of 2^(32 i) mod p (i = 8..15; from 2^256 = 2^224 + 2^96 - 2^64 + 1 mod
 * p), summed in 64-bit columns t0..t7 that share their partial sums (A, S,
 * Q). Only column 2 has negative terms; p itself is added in a redundant
 * form (column 2: 2^35, column 3: 2^32 - 9, the others p's words), which
 * changes nothing mod p and makes every column non-negative, so that one
 * unsigned carry chain turns the columns into words. Before the chain, the
 * part of column 7 above 2^32 (c' <= 15) is folded into columns 0, 2, 3
 * and 7 as c' (2^256 - p); the chain then carries at most 1 out of 2^256
 * (the columns below 7 add less than 2^7 to column 7), which one more
 * fold of 2^256 - p takes back, and that fold cannot carry: after a carry
 * the words are below 2^232. */
FS2G_HD void fs2g_fp_reduce(uint32_t r[8], const uint32_t c[16])
{
    const uint64_t c8 = c[8], c9 = c[9], c10 = c[10], c11 = c[11];
    const uint64_t c12 = c[12], c13 = c[13], c14 = c[14], c15 = c[15];
    const uint64_t A = c14 + c15, S = A + c13;
    const uint64_t Q1 = c9 + c10 + c11 + c12 + 0xFFFFFFFFu, S1 = S + 0xFFFFFFFFu;
    uint64_t t0 = c[0] + c8 + Q1 + 2 * S;
    uint64_t t1 = c[1] + c13 + Q1 + 2 * A;
    uint64_t t2 = c[2] + ((uint64_t)1 << 35) - (c8 + c9 + c13 + c14);
    uint64_t t3 = c[3] + c8 + c11 + c12 + c13 + S1 - 8;
    uint64_t t4 = c[4] + c9 + c12 + c14 + S1;
    uint64_t t5 = c[5] + c10 + c15 + S1;
    uint64_t t6 = c[6] + c11 + A + 0xFFFFFFFFu;
    uint64_t t7 = c[7] + c8 + c12 + c15 + Q1 + 2 * S - 1;
    /* c' 2^256 = c' (2^224 + 2^96 - 2^64 + 1) */
    const uint64_t ch = t7 >> 32;
    t0 += ch;
    t2 -= ch;
    t3 += ch;
    t7 = (t7 & 0xFFFFFFFFu) + ch;
    uint32_t cf = 0;
    r[0] = (uint32_t)t0;
    r[1] = fs2g_add_cc((uint32_t)t1, (uint32_t)(t0 >> 32), cf);
    r[2] = fs2g_addc_cc((uint32_t)t2, (uint32_t)(t1 >> 32), cf);
    r[3] = fs2g_addc_cc((uint32_t)t3, (uint32_t)(t2 >> 32), cf);
    r[4] = fs2g_addc_cc((uint32_t)t4, (uint32_t)(t3 >> 32), cf);
    r[5] = fs2g_addc_cc((uint32_t)t5, (uint32_t)(t4 >> 32), cf);
    r[6] = fs2g_addc_cc((uint32_t)t6, (uint32_t)(t5 >> 32), cf);
    r[7] = fs2g_addc_cc((uint32_t)t7, (uint32_t)(t6 >> 32), cf);
    const uint32_t c2 = fs2g_addc((uint32_t)(t7 >> 32), 0, cf); /* 0 or 1 */
    fs2g_fp_add_rc(r, c2, (uint32_t)0 - c2);
}

/* r = k a mod p for a < 2^256 and a small k (k < 2^28; the point formulas
 * use 3, 4 and 8), r < 2^256: the 288-bit product's top word c (< k) folds
 * back as c (2^256 - p), and a carry of that once more (which cannot carry:
 * the words were then below c (2^256 - p) < 2^256 - (2^256 - p)). */
FS2G_HD void fs2g_fp_mul_small(uint32_t r[8], const uint32_t a[8], uint32_t k)
{
    /* the products of the even and of the odd words, each (lo, hi) on a
     * register pair (IMAD.WIDE), as fs2g_mul_wide does; then ev + od 2^32 */
    uint32_t ev[9], od[9];
    FS2G_UNROLL
    for (int i = 0; i < 9; i++)
        ev[i] = od[i] = 0;
    fs2g_mul_row(ev, a, k, 0, 4);
    fs2g_mul_row(od, a, k, 1, 4);
    uint32_t cf = 0;
    r[0] = ev[0];
    r[1] = fs2g_add_cc(ev[1], od[0], cf);
    FS2G_UNROLL
    for (int i = 2; i < 8; i++)
        r[i] = fs2g_addc_cc(ev[i], od[i - 1], cf);
    const uint32_t c = fs2g_addc(ev[8], od[7], cf);
    const uint64_t w = (uint64_t)c * 0xFFFFFFFFu;
    cf = 0;
    r[0] = fs2g_add_cc(r[0], c, cf);
    r[1] = fs2g_addc_cc(r[1], 0, cf);
    r[2] = fs2g_addc_cc(r[2], (uint32_t)w, cf);
    r[3] = fs2g_addc_cc(r[3], (uint32_t)(w >> 32), cf);
    r[4] = fs2g_addc_cc(r[4], 0, cf);
    r[5] = fs2g_addc_cc(r[5], 0, cf);
    r[6] = fs2g_addc_cc(r[6], 0, cf);
    r[7] = fs2g_addc_cc(r[7], c, cf);
    const uint32_t c2 = fs2g_addc(0, 0, cf);
    fs2g_fp_add_rc(r, c2, (uint32_t)0 - c2);
}

/* r = 2^s a mod p for a < 2^256 and s in 1..3, r < 2^256: a funnel shift,
 * then the bits shifted out (c < 8) fold back as fs2g_fp_mul_small's top
 * word does. */
FS2G_HD void fs2g_fp_shl(uint32_t r[8], const uint32_t a[8], int s)
{
    const uint32_t c = a[7] >> (32 - s);
    FS2G_UNROLL
    for (int i = 7; i > 0; i--)
        r[i] = (a[i] << s) | (a[i - 1] >> (32 - s));
    r[0] = a[0] << s;
    const uint64_t w = (uint64_t)c * 0xFFFFFFFFu;
    uint32_t cf = 0;
    r[0] = fs2g_add_cc(r[0], c, cf);
    r[1] = fs2g_addc_cc(r[1], 0, cf);
    r[2] = fs2g_addc_cc(r[2], (uint32_t)w, cf);
    r[3] = fs2g_addc_cc(r[3], (uint32_t)(w >> 32), cf);
    r[4] = fs2g_addc_cc(r[4], 0, cf);
    r[5] = fs2g_addc_cc(r[5], 0, cf);
    r[6] = fs2g_addc_cc(r[6], 0, cf);
    r[7] = fs2g_addc_cc(r[7], c, cf);
    const uint32_t c2 = fs2g_addc(0, 0, cf);
    fs2g_fp_add_rc(r, c2, (uint32_t)0 - c2);
}

/* r = a mod p in [0, p) for any a < 2^256 (< 2p): one masked subtraction. */
FS2G_HD void fs2g_fp_canon(uint32_t r[8], const uint32_t a[8])
{
    const uint32_t P[8] = FS2G_P_WORDS;
    fs2g_reduce_once(r, 0, a, P);
}

/* All-ones if a = 0 mod p (a = 0 or a = p, for a < 2^256), else 0. */
FS2G_HD uint32_t fs2g_fp_is_zero(const uint32_t a[8])
{
    const uint32_t P[8] = FS2G_P_WORDS;
    return fs2g_is_zero(a) | fs2g_eq(a, P);
}

FS2G_HDU void fs2g_fp_mul(uint32_t r[8], const uint32_t a[8], const uint32_t b[8])
{
    FS2G_COUNT_OP(FS2G_OP_FP_MUL);
    uint32_t c[16];
    fs2g_mul_wide(c, a, b);
    fs2g_fp_reduce(r, c);
}

FS2G_HDU void fs2g_fp_sqr(uint32_t r[8], const uint32_t a[8])
{
    FS2G_COUNT_OP(FS2G_OP_FP_SQR);
    uint32_t c[16];
    fs2g_sqr_wide(c, a);
    fs2g_fp_reduce(r, c);
}

/* r = a + b mod p for a, b < 2^256, r < 2^256: a carry out of 2^256 is
 * 2^256 - p added back, and once more if that carries (then the words were
 * below 2^256 - p, and adding it twice cannot carry). */
FS2G_HD void fs2g_fp_add(uint32_t r[8], const uint32_t a[8], const uint32_t b[8])
{
    uint32_t c = fs2g_add256(r, a, b);
    uint32_t cf = 0;
    r[0] = fs2g_add_cc(r[0], c, cf);
    r[1] = fs2g_addc_cc(r[1], 0, cf);
    r[2] = fs2g_addc_cc(r[2], (uint32_t)0 - c, cf);
    r[3] = fs2g_addc_cc(r[3], 0, cf);
    r[4] = fs2g_addc_cc(r[4], 0, cf);
    r[5] = fs2g_addc_cc(r[5], 0, cf);
    r[6] = fs2g_addc_cc(r[6], 0, cf);
    r[7] = fs2g_addc_cc(r[7], c, cf);
    c = fs2g_addc(0, 0, cf);
    fs2g_fp_add_rc(r, c, (uint32_t)0 - c);
}

/* r = a - b mod p for a, b < 2^256, r < 2^256: a borrow is 2^256 - p taken
 * away, and once more if that borrows (a - b < -p, possible only for
 * b >= p; then twice cannot borrow). */
FS2G_HD void fs2g_fp_sub(uint32_t r[8], const uint32_t a[8], const uint32_t b[8])
{
    uint32_t c = fs2g_sub256(r, a, b);
    c = fs2g_fp_sub_rc(r, c, (uint32_t)0 - c);
    (void)fs2g_fp_sub_rc(r, c, (uint32_t)0 - c);
}

FS2G_HD void fs2g_fp_neg(uint32_t r[8], const uint32_t a[8])
{
    const uint32_t Z[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    fs2g_fp_sub(r, Z, a);
}

/* ---- inversion mod p: safegcd -------------------------------------------------
 *
 * a^-1 mod p by Bernstein and Yang's "safegcd" (Fast constant-time gcd
 * computation and modular inversion, TCHES 2019, section 11) in 32-bit
 * arithmetic, constant time: a fixed number of "divsteps" on (delta, f, g)
 * from (1/2, p, a), which drive g to 0 and f to +-1, grouped 30 at a time.
 * Each group runs on the low 32 bits of f and g only and yields the 2x2
 * integer matrix T of its 30 steps (entries of magnitude at most 2^30),
 * which is then applied to the full f, g (divided by 2^30, exactly) and to
 * d, e, where d a = f and e a = g (mod p) throughout (d, e times T, divided
 * by 2^30 mod p). At the end f = +-1, so a^-1 = +-d.
 *
 * The divstep used is the half-delta one (delta starts at 1/2; if delta > 0
 * and g is odd: (delta, f, g) <- (1 - delta, g, (g - f) / 2), else
 * (1 + delta, f, (g + (g mod 2) f) / 2)), for which 590 steps suffice for
 * any 256-bit input (the bound the safegcd paper's method gives for this
 * variant, as computed for libsecp256k1's modular inversion); 20 groups of
 * 30 = 600 are run. delta is kept as z = -delta - 1/2 (an integer; delta > 0
 * iff z < 0).
 *
 * Big integers here are 9 signed 30-bit limbs ("s30": v = sum l_i 2^(30 i),
 * l_0..l_7 in [0, 2^30) once normalized, l_8 signed). p in s30 is sparse:
 * p = -1 + 2^4 2^60 - 2^6 2^90 - 2^14 2^210 + 2^16 2^240, and p = -1 mod 2^30,
 * which makes the multiple of p that clears d's low limb simple. */

#define FS2G_M30 0x3FFFFFFFu

/* One group: 30 divsteps on the low words of f and g (only the low 32 bits
 * matter, one bit is used up per step), z updated; returns the transition
 * matrix (u v; q r) with 2^30 (f', g') = (u f + v g, q f + r g). Branch-free:
 * masks and multiplications by 0/1 and +-1. */
FS2G_HD void fs2g_divsteps30(int32_t *zp, uint32_t f, uint32_t g, int32_t t[4])
{
    int32_t z = *zp, u = 1, v = 0, q = 0, r = 1;
    FS2G_UNROLL
    for (int i = 0; i < 30; i++) {
        const int32_t c1 = z >> 31;          /* -1 if delta > 0 */
        const int32_t m = c1 | 1;            /* -1 or 1 */
        const uint32_t b = g & 1u;           /* g odd */
        const uint32_t s = (uint32_t)c1 & b; /* 1: the swap case */
        /* g += b * (delta > 0 ? -f : f); likewise for the g row */
        g += b * (uint32_t)m * f;
        q += (int32_t)b * m * u;
        r += (int32_t)b * m * v;
        /* swap case: f <- f + (g - f) = g (the old g); likewise the f row */
        f += s * g;
        u += (int32_t)s * q;
        v += (int32_t)s * r;
        z = (z ^ -(int32_t)s) - 1;
        g >>= 1;
        u *= 2;
        v *= 2;
    }
    *zp = z;
    t[0] = u, t[1] = v, t[2] = q, t[3] = r;
}

/* (f, g) <- (u f + v g, q f + r g) / 2^30, exact. */
FS2G_HD void fs2g_s30_update_fg(int32_t f[9], int32_t g[9], const int32_t t[4])
{
    const int64_t u = t[0], v = t[1], q = t[2], r = t[3];
    int64_t cf = u * f[0] + v * g[0], cg = q * f[0] + r * g[0];
    cf >>= 30;
    cg >>= 30;
    FS2G_UNROLL
    for (int i = 1; i < 9; i++) {
        cf += u * f[i] + v * g[i];
        cg += q * f[i] + r * g[i];
        f[i - 1] = (int32_t)((uint32_t)cf & FS2G_M30);
        g[i - 1] = (int32_t)((uint32_t)cg & FS2G_M30);
        cf >>= 30;
        cg >>= 30;
    }
    f[8] = (int32_t)cf;
    g[8] = (int32_t)cg;
}

/* (d, e) <- (u d + v e, q d + r e) / 2^30 mod p, for d, e in (-2p, p):
 * first p is added (through the matrix) to whichever of d, e is negative,
 * which puts both in (-p, p) and the sums in (-2^30 p, 2^30 p); then the
 * multiple m p, m in (-2^30, 0], that makes each sum divisible by 2^30
 * (p = -1 mod 2^30: m = -((sum + m0) mod 2^30) for the m0 p already
 * added); the quotients are again in (-2p, p). */
FS2G_HD void fs2g_s30_update_de(int32_t d[9], int32_t e[9], const int32_t t[4])
{
    const int32_t sd = d[8] >> 31, se = e[8] >> 31;
    const int64_t u = t[0], v = t[1], q = t[2], r = t[3];
    int32_t md = (t[0] & sd) + (t[1] & se), me = (t[2] & sd) + (t[3] & se);
    int64_t cd = u * d[0] + v * e[0], ce = q * d[0] + r * e[0];
    md -= (int32_t)(((uint32_t)md - (uint32_t)cd) & FS2G_M30);
    me -= (int32_t)(((uint32_t)me - (uint32_t)ce) & FS2G_M30);
    /* + m p: limb 0 of p is -1 */
    cd -= md;
    ce -= me;
    cd >>= 30;
    ce >>= 30;
    FS2G_UNROLL
    for (int i = 1; i < 9; i++) {
        cd += u * d[i] + v * e[i];
        ce += q * d[i] + r * e[i];
        /* the other limbs of p: 16 (limb 2), -64 (3), -16384 (7), 65536 (8) */
        const int64_t pl = i == 2 ? 16 : i == 3 ? -64 : i == 7 ? -16384 : i == 8 ? 65536 : 0;
        if (pl) {
            cd += (int64_t)md * pl;
            ce += (int64_t)me * pl;
        }
        d[i - 1] = (int32_t)((uint32_t)cd & FS2G_M30);
        e[i - 1] = (int32_t)((uint32_t)ce & FS2G_M30);
        cd >>= 30;
        ce >>= 30;
    }
    d[8] = (int32_t)cd;
    e[8] = (int32_t)ce;
}

/* One group of the inversion: 30 divsteps and the updates of f, g, d, e
 * (a cost-model unit, docs/GPU.md "SASS count"). */
FS2G_HDU void fs2g_fp_inv_group(int32_t *z, int32_t f[9], int32_t g[9], int32_t d[9], int32_t e[9])
{
    FS2G_COUNT_OP(FS2G_OP_FP_INV_GROUP);
    int32_t t[4];
    fs2g_divsteps30(z, (uint32_t)f[0] | ((uint32_t)f[1] << 30), (uint32_t)g[0] | ((uint32_t)g[1] << 30), t);
    fs2g_s30_update_de(d, e, t);
    fs2g_s30_update_fg(f, g, t);
}

/* s30 (normalized: limbs 0..7 in [0, 2^30)) of a 256-bit value. */
FS2G_HD void fs2g_s30_from_words(int32_t l[9], const uint32_t w[8])
{
    FS2G_UNROLL
    for (int i = 0; i < 9; i++) {
        const int bit = 30 * i, j = bit >> 5, sh = bit & 31;
        uint32_t v = w[j] >> sh;
        if (sh > 2 && j + 1 < 8)
            v |= w[j + 1] << (32 - sh);
        l[i] = (int32_t)(v & FS2G_M30);
    }
}

/* r = a^-1 mod p in [0, p) (0 for a = 0 mod p), for any a < 2^256.
 * Constant time. */
FS2G_HD void fs2g_fp_inv(uint32_t r[8], const uint32_t a[8])
{
    uint32_t ac[8];
    int32_t f[9], g[9], d[9], e[9], z = -1;
    const uint32_t P[8] = FS2G_P_WORDS;
    fs2g_fp_canon(ac, a);
    fs2g_s30_from_words(f, P);
    fs2g_s30_from_words(g, ac);
    FS2G_UNROLL
    for (int i = 0; i < 9; i++)
        d[i] = 0, e[i] = i == 0;
#if defined(__CUDA_ARCH__)
#pragma unroll 1
#endif
    for (int i = 0; i < 20; i++)
        fs2g_fp_inv_group(&z, f, g, d, e);
    /* f = +-1 (or +-p for a = 0, then d = 0): a^-1 = sign(f) d, with d in
     * (-2p, p). Negate by the sign of f, carry the limbs into 30-bit ones
     * (the top one signed), then add p while negative (at most twice) and
     * subtract it if >= p: [0, p). */
    const int32_t neg = f[8] >> 31;
    int32_t c = 0;
    FS2G_UNROLL
    for (int i = 0; i < 9; i++) {
        int32_t x = ((d[i] ^ neg) - neg) + c;
        if (i < 8) {
            c = x >> 30;
            d[i] = (int32_t)((uint32_t)x & FS2G_M30);
        } else {
            d[i] = x;
        }
    }
    int32_t ps[9];
    fs2g_s30_from_words(ps, P);
    for (int round = 0; round < 3; round++) {
        /* rounds 0, 1: + p if negative; round 2: - p if >= p (computed as
         * d - p, kept if not negative) */
        int32_t t[9], cc = 0;
        const int32_t sgn = round < 2 ? 1 : -1;
        FS2G_UNROLL
        for (int i = 0; i < 9; i++) {
            int32_t x = d[i] + sgn * ps[i] + cc;
            if (i < 8) {
                cc = x >> 30;
                t[i] = (int32_t)((uint32_t)x & FS2G_M30);
            } else {
                t[i] = x;
            }
        }
        /* keep t when d < 0 (rounds 0, 1) or when t >= 0 (round 2) */
        const int32_t keep = round < 2 ? (d[8] >> 31) : ~(t[8] >> 31);
        FS2G_UNROLL
        for (int i = 0; i < 9; i++)
            d[i] = (t[i] & keep) | (d[i] & ~keep);
    }
    /* s30 -> words: d in [0, p), limb 8 below 2^16 */
    FS2G_UNROLL
    for (int j = 0; j < 8; j++) {
        const int bit = 32 * j, i = bit / 30, sh = bit % 30;
        uint32_t v = (uint32_t)d[i] >> sh;
        if (i + 1 < 9)
            v |= (uint32_t)d[i + 1] << (30 - sh);
        if (sh > 28 && i + 2 < 9)
            v |= (uint32_t)d[i + 2] << (60 - sh);
        r[j] = v;
    }
}

/* ---- mod n (scalars) --------------------------------------------------------- */

FS2G_HD void fs2g_fn_add(uint32_t r[8], const uint32_t a[8], const uint32_t b[8])
{
    const uint32_t N[8] = FS2G_N_WORDS;
    uint32_t t[8];
    uint32_t hi = fs2g_add256(t, a, b);
    fs2g_reduce_once(r, hi, t, N);
}

FS2G_HD void fs2g_fn_sub(uint32_t r[8], const uint32_t a[8], const uint32_t b[8])
{
    const uint32_t N[8] = FS2G_N_WORDS;
    uint32_t t[8], m[8];
    uint32_t mask = (uint32_t)0 - fs2g_sub256(t, a, b);
    FS2G_UNROLL
    for (int i = 0; i < 8; i++)
        m[i] = N[i] & mask;
    (void)fs2g_add256(r, t, m);
}

/* a mod n for any a < 2^256 (< 2n). */
FS2G_HD void fs2g_fn_reduce(uint32_t r[8], const uint32_t a[8])
{
    const uint32_t N[8] = FS2G_N_WORDS;
    fs2g_reduce_once(r, 0, a, N);
}

/* r = a * b * 2^-256 mod n (Montgomery product, word-serial CIOS), for
 * a < 2^256 and b < n; r in [0, n). Scalar work is a few products per
 * signature, so this stays in portable 64-bit arithmetic. */
FS2G_HDU void fs2g_fn_mont_mul(uint32_t r[8], const uint32_t a[8], const uint32_t b[8])
{
    FS2G_COUNT_OP(FS2G_OP_FN_MONT_MUL);
    const uint32_t N[8] = FS2G_N_WORDS;
    uint32_t t[10];
    FS2G_UNROLL
    for (int i = 0; i < 10; i++)
        t[i] = 0;
    FS2G_UNROLL
    for (int i = 0; i < 8; i++) {
        uint64_t c = 0;
        FS2G_UNROLL
        for (int j = 0; j < 8; j++) {
            uint64_t v = (uint64_t)a[j] * b[i] + t[j] + c;
            t[j] = (uint32_t)v;
            c = v >> 32;
        }
        uint64_t v8 = (uint64_t)t[8] + c;
        t[8] = (uint32_t)v8;
        t[9] = (uint32_t)(v8 >> 32);
        uint32_t m = t[0] * FS2G_N0;
        c = ((uint64_t)m * N[0] + t[0]) >> 32;
        FS2G_UNROLL
        for (int j = 1; j < 8; j++) {
            uint64_t v = (uint64_t)m * N[j] + t[j] + c;
            t[j - 1] = (uint32_t)v;
            c = v >> 32;
        }
        v8 = (uint64_t)t[8] + c;
        t[7] = (uint32_t)v8;
        t[8] = t[9] + (uint32_t)(v8 >> 32);
    }
    fs2g_reduce_once(r, t[8], t, N);
}

/* r = (hi * 2^256 + lo) mod n: a 512-bit value reduced, for nonces drawn as
 * 512 bits (bias below 2^-256). */
FS2G_HD void fs2g_fn_reduce512(uint32_t r[8], const uint32_t hi[8], const uint32_t lo[8])
{
    const uint32_t RR[8] = FS2G_N_RR_WORDS;
    uint32_t h[8], l[8];
    fs2g_fn_reduce(h, hi);
    fs2g_fn_mont_mul(h, h, RR); /* hi * 2^256 mod n */
    fs2g_fn_reduce(l, lo);
    fs2g_fn_add(r, h, l);
}

#endif
