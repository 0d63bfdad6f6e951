/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The x86-64 backends, one per CPU level:
 *   adx    - BMI2 + ADX: EC adx (MULX/ADCX/ADOX field arithmetic);
 *   avx2   - adx + AVX2: EC avx2 (vector table scans), 8-lane SM3;
 *   avx512 - avx2 + AVX-512F/BW/VL: EC avx2, 16-lane SM3.
 * Chosen at run time from CPUID (backend.c tries them fastest first);
 * FASTSM2_CPU=<name> forces one.
 */
#include "backend.h"
#include "sm3/sm3_impl.h"

#if defined(__x86_64__)
#include <cpuid.h>

/* CPUID leaf 7 / leaf 1 feature bits, and OS support for the AVX state
 * (XGETBV: XMM|YMM, and opmask|ZMM for AVX-512). */
#define FS2_X86_BMI2 (1u << 0)
#define FS2_X86_ADX (1u << 1)
#define FS2_X86_AVX2 (1u << 2)
#define FS2_X86_AVX512 (1u << 3) /* F + BW + VL, with OS ZMM state */

static unsigned x86_features(void)
{
    unsigned a, b, c, d, f = 0;
    if (__get_cpuid_max(0, 0) < 7)
        return 0;
    __cpuid(1, a, b, c, d);
    int osxsave = (c >> 27) & 1, avx = (c >> 28) & 1;
    uint64_t xcr0 = 0;
    if (osxsave) {
        unsigned lo, hi;
        __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
        xcr0 = ((uint64_t)hi << 32) | lo;
    }
    __cpuid_count(7, 0, a, b, c, d);
    if (b & (1u << 8))
        f |= FS2_X86_BMI2;
    if (b & (1u << 19))
        f |= FS2_X86_ADX;
    if (avx && (b & (1u << 5)) && (xcr0 & 6) == 6)
        f |= FS2_X86_AVX2;
    if ((f & FS2_X86_AVX2) && (b & (1u << 16)) && (b & (1u << 30)) && (b & (1u << 31)) && (xcr0 & 0xe6) == 0xe6)
        f |= FS2_X86_AVX512;
    return f;
}

static int adx_available(void)
{
    unsigned need = FS2_X86_BMI2 | FS2_X86_ADX;
    return (x86_features() & need) == need;
}

static int avx2_available(void)
{
    unsigned need = FS2_X86_BMI2 | FS2_X86_ADX | FS2_X86_AVX2;
    return (x86_features() & need) == need;
}

static int avx512_available(void)
{
    unsigned need = FS2_X86_BMI2 | FS2_X86_ADX | FS2_X86_AVX2 | FS2_X86_AVX512;
    return (x86_features() & need) == need;
}

FS2_HIDDEN const fs2_backend fs2_backend_adx = {
    .name = "adx",
    .available = adx_available,
    .sm3_compress = fs2_sm3_compress_x86,
    .ec = &fs2_ec_ops_adx,
    .sm3_lanes = 1,
    .sm3_compress_lanes = fs2_sm3_compress_lanes1,
};

FS2_HIDDEN const fs2_backend fs2_backend_avx2 = {
    .name = "avx2",
    .available = avx2_available,
    .sm3_compress = fs2_sm3_compress_x86,
    .ec = &fs2_ec_ops_avx2,
    .sm3_lanes = 8,
    .sm3_compress_lanes = fs2_sm3_compress_x8_avx2,
};

FS2_HIDDEN const fs2_backend fs2_backend_avx512 = {
    .name = "avx512",
    .available = avx512_available,
    .sm3_compress = fs2_sm3_compress_x86,
    .ec = &fs2_ec_ops_avx2,
    .sm3_lanes = 16,
    .sm3_compress_lanes = fs2_sm3_compress_x16_avx512,
};
#endif
