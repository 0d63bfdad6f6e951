/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The ARMv8-A (AArch64) backends (issue 6), chosen at run time from the
 * kernel's HWCAP bits (getauxval(AT_HWCAP)); FASTSM2_CPU=<name> forces one:
 *   armv8      - ASIMD: MUL/UMULH field arithmetic mod p (field_aarch64.h),
 *                NEON constant-time table selection, portable scalar SM3,
 *                4-lane NEON multi-buffer SM3;
 *   armv8-sm3  - armv8, with the ARMv8.2 SM3 instructions (HWCAP_SM3) for
 *                SM3, one stream at a time (fewer instructions per block
 *                than the 4 NEON lanes).
 * Both share one copy of the point code (group_impl.h / ecmult_impl.h over
 * the AArch64 field) and the generic base-point tables (same Montgomery
 * representation). Nothing here depends on qemu: the code is plain
 * AArch64 + ASIMD (+ SM3 where HWCAP says so).
 */
#include "backend.h"
#include "sm3/sm3_impl.h"

#if defined(__aarch64__)
#include <arm_neon.h>
#include <sys/auxv.h>

#define FS2_FIELD FS2_FIELD_AARCH64
#include "field/field.h"
#include "point/group_impl.h"

/* Constant-time table lookup with NEON: entry idx - 1 of `entries` entries
 * of `width` limbs (8: affine points, 12: Jacobian points), or zeros for
 * idx = 0. Every entry is loaded; a lane mask (CMEQ against a running
 * counter) and BSL keep the wanted one, so neither the addresses nor the
 * branches depend on idx. */
#define FS2_HAVE_SELECT_LIMBS 1
static inline void fs2_select_limbs(void *out, const uint64_t *table, unsigned entries, unsigned width,
                                    unsigned idx)
{
    const uint64x2_t one = vdupq_n_u64(1), want = vdupq_n_u64(idx);
    uint64x2_t cnt = one;
    uint64x2_t a0 = vdupq_n_u64(0), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0;
    uint64_t *o = out;
    unsigned j = 0;
    if (width == 8) { /* public: the call site's constant */
        /* four entries per iteration (the 64-entry kG tables): d = idx - j
         * against the constants 1..4, one subtraction per iteration */
        const uint64x2_t c2 = vaddq_u64(one, one), c3 = vaddq_u64(c2, one), c4 = vaddq_u64(c2, c2);
        uint64x2_t d = want;
        for (; j + 4 <= entries; j += 4, table += 32) {
            uint64x2_t m0 = vceqq_u64(d, one), m1 = vceqq_u64(d, c2);
            uint64x2_t m2 = vceqq_u64(d, c3), m3 = vceqq_u64(d, c4);
            d = vsubq_u64(d, c4);
            /* one LD1 of four registers per 64-byte entry */
            uint64x2x4_t e0 = vld1q_u64_x4(table), e1 = vld1q_u64_x4(table + 8);
            uint64x2x4_t e2 = vld1q_u64_x4(table + 16), e3 = vld1q_u64_x4(table + 24);
            a0 = vbslq_u64(m0, e0.val[0], a0);
            a1 = vbslq_u64(m0, e0.val[1], a1);
            a2 = vbslq_u64(m0, e0.val[2], a2);
            a3 = vbslq_u64(m0, e0.val[3], a3);
            a0 = vbslq_u64(m1, e1.val[0], a0);
            a1 = vbslq_u64(m1, e1.val[1], a1);
            a2 = vbslq_u64(m1, e1.val[2], a2);
            a3 = vbslq_u64(m1, e1.val[3], a3);
            a0 = vbslq_u64(m2, e2.val[0], a0);
            a1 = vbslq_u64(m2, e2.val[1], a1);
            a2 = vbslq_u64(m2, e2.val[2], a2);
            a3 = vbslq_u64(m2, e2.val[3], a3);
            a0 = vbslq_u64(m3, e3.val[0], a0);
            a1 = vbslq_u64(m3, e3.val[1], a1);
            a2 = vbslq_u64(m3, e3.val[2], a2);
            a3 = vbslq_u64(m3, e3.val[3], a3);
        }
        cnt = vdupq_n_u64((uint64_t)j + 1);
        for (; j < entries; j++, table += 8) {
            uint64x2_t m = vceqq_u64(cnt, want);
            cnt = vaddq_u64(cnt, one);
            a0 = vbslq_u64(m, vld1q_u64(table), a0);
            a1 = vbslq_u64(m, vld1q_u64(table + 2), a1);
            a2 = vbslq_u64(m, vld1q_u64(table + 4), a2);
            a3 = vbslq_u64(m, vld1q_u64(table + 6), a3);
        }
    } else {
        for (; j < entries; j++, table += 12) {
            uint64x2_t m = vceqq_u64(cnt, want);
            cnt = vaddq_u64(cnt, one);
            uint64x2x3_t e0 = vld1q_u64_x3(table), e1 = vld1q_u64_x3(table + 6);
            a0 = vbslq_u64(m, e0.val[0], a0);
            a1 = vbslq_u64(m, e0.val[1], a1);
            a2 = vbslq_u64(m, e0.val[2], a2);
            a3 = vbslq_u64(m, e1.val[0], a3);
            a4 = vbslq_u64(m, e1.val[1], a4);
            a5 = vbslq_u64(m, e1.val[2], a5);
        }
        vst1q_u64(o + 8, a4);
        vst1q_u64(o + 10, a5);
    }
    vst1q_u64(o, a0);
    vst1q_u64(o + 2, a1);
    vst1q_u64(o + 4, a2);
    vst1q_u64(o + 6, a3);
}

#include "ecmult/ecmult_impl.h"
#include "backend_impl.h"

#ifndef HWCAP_ASIMD
#define HWCAP_ASIMD (1UL << 1)
#endif
#ifndef HWCAP_SM3
#define HWCAP_SM3 (1UL << 18)
#endif

static int armv8_available(void)
{
    return (getauxval(AT_HWCAP) & HWCAP_ASIMD) != 0;
}

static int armv8_sm3_available(void)
{
    unsigned long need = HWCAP_ASIMD | HWCAP_SM3;
    return (getauxval(AT_HWCAP) & need) == need;
}

static void armv8_ecmult_gen(fs2_affine *r, const uint64_t k[4]) { fs2_be_ecmult_gen(r, k); }

static void armv8_ecmult_const(fs2_affine *r, const fs2_affine *p, const fs2_pubtab *tab, const uint64_t k[4])
{
    fs2_be_ecmult_const(r, p, tab, k);
}

static int armv8_verify_check(const uint64_t s[4], const uint64_t t[4], const fs2_affine *p, const fs2_pubtab *tab,
                              const uint64_t v[4])
{
    return fs2_be_verify_check(s, t, p, tab, v);
}

static void armv8_ecmult_kx(fs2_affine *u, const fs2_affine *p, const fs2_affine *r, const uint64_t x[4],
                            const uint64_t t[4])
{
    fs2_be_ecmult_kx(u, p, r, x, t);
}

static void armv8_pub_precompute(fs2_pubtab *r, const fs2_affine *p) { fs2_be_pub_precompute(r, p); }

static void armv8_ecmult_gen_many(fs2_affine *r, const uint64_t (*k)[4], size_t n)
{
    fs2_be_ecmult_gen_many(r, k, n);
}

static void armv8_ecmult_gen_inv(fs2_affine *r, const uint64_t k[4], uint64_t q[4], const uint64_t a[4])
{
    fs2_be_ecmult_gen_inv(r, k, q, a);
}

static void armv8_ecmult_gen_const(fs2_affine *r, fs2_affine *s, const fs2_affine *p, const fs2_pubtab *tab,
                                   const uint64_t k[4])
{
    fs2_be_ecmult_gen_const(r, s, p, tab, k);
}

/* Key loading only (one per private key): the portable mod-n code. */
static void armv8_scalar_inv_mont(uint64_t r[4], const uint64_t a[4]) { fs2_be_scalar_inv_mont(r, a); }

FS2_HIDDEN const fs2_backend fs2_backend_armv8 = {
    .name = "armv8",
    .available = armv8_available,
    .sm3_compress = fs2_sm3_compress_generic,
    .ecmult_gen = armv8_ecmult_gen,
    .ecmult_const = armv8_ecmult_const,
    .verify_check = armv8_verify_check,
    .ecmult_kx = armv8_ecmult_kx,
    .pub_precompute = armv8_pub_precompute,
    .sm3_lanes = FS2_SM3_NEON_LANES,
    .sm3_compress_lanes = fs2_sm3_compress_x4_neon,
    .scalar_inv_mont = armv8_scalar_inv_mont,
    .ecmult_gen_many = armv8_ecmult_gen_many,
    .ecmult_gen_inv = armv8_ecmult_gen_inv,
    .ecmult_gen_const = armv8_ecmult_gen_const,
};

FS2_HIDDEN const fs2_backend fs2_backend_armv8_sm3 = {
    .name = "armv8-sm3",
    .available = armv8_sm3_available,
    .sm3_compress = fs2_sm3_compress_armv8_sm3,
    .ecmult_gen = armv8_ecmult_gen,
    .ecmult_const = armv8_ecmult_const,
    .verify_check = armv8_verify_check,
    .ecmult_kx = armv8_ecmult_kx,
    .pub_precompute = armv8_pub_precompute,
    .sm3_lanes = 1,
    .sm3_compress_lanes = fs2_sm3_compress_lanes1_armv8_sm3,
    .scalar_inv_mont = armv8_scalar_inv_mont,
    .ecmult_gen_many = armv8_ecmult_gen_many,
    .ecmult_gen_inv = armv8_ecmult_gen_inv,
    .ecmult_gen_const = armv8_ecmult_gen_const,
};
#endif
