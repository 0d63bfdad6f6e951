/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The ARMv8-A (AArch64) backends, chosen at run time from the kernel's
 * HWCAP bits (getauxval(AT_HWCAP)); FASTSM2_CPU=<name> forces one:
 *   armv8      - ASIMD: EC armv8 (MUL/UMULH field arithmetic, NEON table
 *                scans), portable scalar SM3, 4-lane NEON multi-buffer SM3;
 *   armv8-sm3  - armv8, with the ARMv8.2 SM3 instructions (HWCAP_SM3) for
 *                SM3, one stream at a time (fewer instructions per block
 *                than the 4 NEON lanes).
 */
#include "backend.h"
#include "sm3/sm3_impl.h"

#if defined(__aarch64__)
#include <sys/auxv.h>

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

FS2_HIDDEN const fs2_backend fs2_backend_armv8 = {
    .name = "armv8",
    .available = armv8_available,
    .sm3_compress = fs2_sm3_compress_generic,
    .sm3_lanes = FS2_SM3_NEON_LANES,
    .sm3_compress_lanes = fs2_sm3_compress_x4_neon,
    .ec = &fs2_ec_ops_armv8,
};

FS2_HIDDEN const fs2_backend fs2_backend_armv8_sm3 = {
    .name = "armv8-sm3",
    .available = armv8_sm3_available,
    .sm3_compress = fs2_sm3_compress_armv8_sm3,
    .sm3_lanes = 1,
    .sm3_compress_lanes = fs2_sm3_compress_lanes1_armv8_sm3,
    .ec = &fs2_ec_ops_armv8,
};
#endif
